//! Model-facing messages for guest failures.

use std::time::Duration;

use codemode_protocol::ErrorCode;

use crate::engine::link::GuestError;
use crate::source::{Positions, SourceRefusal};

/// The code and message for an error the guest threw (or that escaped it).
/// `memory_used`: what the engine holds now; a bare `null` near the limit is
/// the engine's out-of-memory exception.
pub(crate) fn guest_error(
    error: &GuestError,
    memory_limit: usize,
    memory_used: usize,
    positions: &Positions,
) -> (ErrorCode, String) {
    let near_limit = memory_used >= memory_limit / 10 * 9;
    match error {
        GuestError::Thrown(text) => (ErrorCode::InternalError, format!("Uncaught {text}")),
        GuestError::Bare { value, building_value: true } => (
            ErrorCode::InternalError,
            format!(
                "the cell's final value could not be built: copying it threw {value} with no message, which is how \
                 the engine reports running out of memory (the cell's limit is {memory_limit} bytes). Return a \
                 smaller value (filter, slice or summarize it), or keep large data with results.save."
            ),
        ),
        GuestError::Bare { value, building_value: false } if near_limit => (
            ErrorCode::InternalError,
            format!(
                "the cell ran out of memory (its limit is {memory_limit} bytes): the engine threw {value}, with no \
                 message or stack. Process less data per cell, or keep large data with results.save."
            ),
        ),
        GuestError::Bare { value, building_value: false } => (
            ErrorCode::InternalError,
            format!(
                "the cell threw {value}: no error object, so there is no message or stack. If it builds large data \
                 it may have run out of memory (its limit is {memory_limit} bytes); otherwise throw an Error with \
                 a message."
            ),
        ),
        GuestError::Error { name, message, stack, .. } => {
            if name == "ReferenceError"
                && ["require", "module", "process"].iter().any(|m| message == &format!("{m} is not defined"))
            {
                return (ErrorCode::InvalidInput, SourceRefusal::Module.message().to_owned());
            }
            let mut text = format!("{name}: {message}");
            if name == "InternalError" && message == "out of memory" {
                text.push_str(&format!(
                    " (the cell exceeded its memory limit of {memory_limit} bytes; process less data per cell)"
                ));
            }
            text.push('\n');
            for frame in positions.user_frames(stack) {
                text.push_str(&frame);
                text.push('\n');
            }
            (ErrorCode::InternalError, text)
        }
    }
}

/// The message of a cell whose engine process failed, for `why`.
pub(crate) fn engine_crashed_message(why: &str) -> String {
    format!(
        "the engine process running this cell failed ({why}), so the cell could not go on; what it did before \
         stands. Run it again: a new engine process runs it."
    )
}

/// The message of a cell stopped by its budget.
pub(crate) fn timeout_message(budget: Duration) -> String {
    format!(
        "code mode timeout exceeded: guest code ran past this call's {} ms budget. Split long computations \
         across cells, or await tool calls and timers instead of busy loops.",
        budget.as_millis()
    )
}

/// A run that used its guest-CPU budget (`Limits::cpu_budget`).
pub(crate) fn cpu_budget_message(budget: Duration) -> String {
    format!(
        "code mode CPU budget exceeded: the cell's own code used more than this run's {} ms of CPU (time spent \
         waiting on tools and timers does not count). Do less work in JavaScript: filter or aggregate in the tool, \
         or split the work across cells.",
        budget.as_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thrown_errors_show_name_message_and_user_frames() {
        let e = GuestError::Error {
            name: "TypeError".into(),
            message: "bad".into(),
            stack: "    at <anonymous> (user.js:3:7)\n    at run (codemode:prelude:1:1)\n".into(),
            bridge: false,
        };
        assert_eq!(
            guest_error(&e, 1, 0, &Positions::default()).1,
            "TypeError: bad\n    at <anonymous> (user.js:2:7)\n"
        );
    }

    #[test]
    fn module_reference_errors_become_invalid_input() {
        let e = GuestError::Error {
            name: "ReferenceError".into(),
            message: "process is not defined".into(),
            stack: String::new(),
            bridge: false,
        };
        assert_eq!(guest_error(&e, 1, 0, &Positions::default()).0, ErrorCode::InvalidInput);
    }
}
