//! The cell's output ledger: the cumulative output budget (GA-4.8).
//!
//! Every byte a model reads from a cell — `text`, `json` and console entries
//! and the final value or error — is charged, as compact UTF-8 JSON, to one
//! budget of `max_output_bytes` across all of the cell's windows. Past it,
//! output becomes a [`TruncationMarker`] whose prefix and counts describe the
//! original. Nothing is dropped silently: a marker always says how much was
//! omitted.
//!
//! Where the reference system lets earlier output starve the final value,
//! this ledger keeps a quarter of the budget that only the final value (or
//! error) may use, and gives the final value priority over the output of
//! its own window: logs are truncated first, the answer last.

use codemode_protocol::budget::{json_string_len, json_string_prefix};
use codemode_protocol::{Output, TRUNCATED_GUIDANCE, TruncationMarker};
use serde_json::Value;

pub(crate) use crate::engine::output::PendingOutput;
use crate::engine::output::{Emitted, entries_json};

/// Guidance of a truncated final value.
const VALUE_GUIDANCE: &str =
    "Final value truncated to fit the output budget; return a smaller value (filter, slice or summarize it).";
/// Ends an error message cut to fit.
const ERROR_SUFFIX: &str = " [error truncated]";
/// An error always keeps at least this many bytes, budget or not: the model
/// must learn why its cell failed.
const ERROR_FLOOR: usize = 1024;
/// Room output keeps beside a final value that takes the rest.
const OUTPUT_FLOOR: usize = 256;

/// Nothing useful of the final value fits in the remaining budget.
#[derive(Debug)]
pub(crate) struct OutputLimitExceeded {
    /// Why, for the model.
    pub message: String,
    /// The window's output, delivered anyway.
    pub output: Output,
}

/// Tracks what a cell has delivered against its output budget.
#[derive(Debug)]
pub(crate) struct OutputLedger {
    budget: usize,
    used: usize,
}

impl OutputLedger {
    pub(crate) fn new(budget: usize) -> Self {
        Self { budget, used: 0 }
    }

    /// Bytes delivered so far.
    /// A resumed run's budget as its journal left it.
    pub(crate) fn restore_used(&mut self, used: usize) {
        self.used = used.min(self.budget);
    }

    pub(crate) fn used(&self) -> usize {
        self.used
    }

    /// Bytes of the budget not yet delivered.
    pub(crate) fn remaining(&self) -> usize {
        self.budget.saturating_sub(self.used)
    }

    /// Room for output that is not the final value: all but the reserve.
    fn remaining_for_output(&self) -> usize {
        self.remaining().saturating_sub(self.budget / 4)
    }

    fn charge(&mut self, bytes: usize) {
        self.used = (self.used + bytes).min(self.budget);
    }

    /// The entries produced since the previous observation, within `room`.
    fn fit(&mut self, pending: PendingOutput, room: usize) -> Output {
        if pending.is_empty() {
            return Output::Entries(Vec::new());
        }
        let total = pending.json_len();
        let known = match pending.into_parts() {
            Emitted::Entries(entries) if total <= room => {
                self.charge(total);
                return Output::Entries(entries);
            }
            Emitted::Entries(entries) => entries_json(&entries),
            Emitted::Spilled(known) => known,
        };
        // A marker with an empty prefix still fits nearly any budget; if even
        // that does not, it is delivered anyway: omitting output silently
        // would be worse than a few bytes over.
        let marker = TruncationMarker::fit_partial(&known, total, room, TRUNCATED_GUIDANCE).unwrap_or_else(|| {
            TruncationMarker {
                truncated: true,
                omitted_bytes: total,
                guidance: TRUNCATED_GUIDANCE.to_owned(),
                prefix: String::new(),
            }
        });
        self.charge(marker.json_len());
        Output::Truncated(marker)
    }

    /// Output of a window that does not end the cell.
    pub(crate) fn deliver(&mut self, entries: PendingOutput) -> Output {
        let room = self.remaining_for_output();
        self.fit(entries, room)
    }

    /// Bounded metadata delivered past the budget (a reference).
    pub(crate) fn charge_metadata(&mut self, bytes: usize) {
        self.charge(bytes);
    }

    /// An error message cut to what is left (at least `ERROR_FLOOR`).
    pub(crate) fn fit_error(&mut self, error: String) -> String {
        let (_, error) = self.deliver_error(PendingOutput::new(0), error);
        error
    }

    /// Output and final value of a completed cell: `(output, value,
    /// truncated)`. The value keeps priority over this window's output.
    pub(crate) fn deliver_value(
        &mut self,
        entries: PendingOutput,
        value_json: &str,
        value: &Value,
    ) -> Result<(Output, Value, bool), OutputLimitExceeded> {
        let room = self.remaining();
        let output_len = entries.json_len();
        if value_json.len() + OUTPUT_FLOOR.min(output_len) <= room {
            self.charge(value_json.len());
            let output = self.fit(entries, room - value_json.len());
            // Within the budget, so the copy is small.
            return Ok((output, value.clone(), false));
        }
        let output = self.fit(entries, OUTPUT_FLOOR.min(room / 4));
        let room = self.remaining();
        match TruncationMarker::fit(value_json, room, VALUE_GUIDANCE) {
            Some(marker) if !marker.prefix.is_empty() => {
                self.charge(marker.json_len());
                let TruncationMarker { truncated, omitted_bytes, guidance, prefix } = marker;
                let marker = serde_json::json!({
                    "truncated": truncated, "omittedBytes": omitted_bytes, "guidance": guidance, "prefix": prefix,
                });
                Ok((output, marker, true))
            }
            _ => Err(OutputLimitExceeded {
                message: format!(
                    "the final value ({} bytes of JSON) does not fit in what is left of the cell's output budget \
                     ({} of {} bytes); return a smaller value, or emit less output before it.",
                    value_json.len(),
                    room,
                    self.budget
                ),
                output,
            }),
        }
    }

    /// Output and error message of a failed cell. The error keeps its head
    /// and at least `ERROR_FLOOR` bytes.
    pub(crate) fn deliver_error(&mut self, entries: PendingOutput, error: String) -> (Output, String) {
        let room = self.remaining();
        let error_len = json_string_len(&error);
        let output_len = entries.json_len();
        if error_len + output_len <= room {
            self.charge(error_len);
            let output = self.fit(entries, room - error_len);
            return (output, error);
        }
        let error_room = room.saturating_sub(OUTPUT_FLOOR.min(output_len)).max(ERROR_FLOOR);
        let error = if error_len <= error_room {
            error
        } else {
            let head = json_string_prefix(&error, error_room.saturating_sub(ERROR_SUFFIX.len()));
            format!("{head}{ERROR_SUFFIX}")
        };
        self.charge(json_string_len(&error));
        let output = self.fit(entries, self.remaining());
        (output, error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::output::entry_json_len;
    use codemode_protocol::OutputEntry;

    fn text(n: usize) -> PendingOutput {
        let mut pending = PendingOutput::new(1 << 20);
        pending.push(OutputEntry::text("x".repeat(n)));
        pending
    }

    fn parsed(json: &str) -> Value {
        serde_json::from_str(json).expect("test JSON")
    }

    fn json_of(n: usize) -> String {
        entries_json(&[OutputEntry::text("x".repeat(n))])
    }

    #[test]
    fn output_within_the_budget_is_delivered_whole_and_charged() {
        let mut ledger = OutputLedger::new(1024);
        let out = ledger.deliver(text(100));
        assert!(out.entries().is_some());
        assert_eq!(ledger.used, json_of(100).len());
    }

    #[test]
    fn output_exactly_at_its_share_fits_and_one_byte_more_is_truncated() {
        // Output before the final value may use three quarters of the budget.
        let exact = 768 - json_of(0).len();
        let mut ledger = OutputLedger::new(1024);
        assert!(ledger.deliver(text(exact)).entries().is_some());
        let mut ledger = OutputLedger::new(1024);
        let Output::Truncated(marker) = ledger.deliver(text(exact + 1)) else { panic!("not truncated") };
        assert!(marker.json_len() <= 768);
        assert_eq!(marker.prefix.len() + marker.omitted_bytes, json_of(exact + 1).len());
    }

    #[test]
    fn output_of_the_final_window_may_use_the_whole_budget() {
        let exact = 1024 - 4 - json_of(0).len();
        let mut ledger = OutputLedger::new(1024);
        let (output, _, _) = ledger.deliver_value(text(exact), "null", &parsed("null")).unwrap();
        assert!(output.entries().is_some());
        let mut ledger = OutputLedger::new(1024);
        let (output, _, _) = ledger.deliver_value(text(exact + 1), "null", &parsed("null")).unwrap();
        assert!(matches!(output, Output::Truncated(_)));
    }

    #[test]
    fn earlier_output_cannot_starve_the_final_value() {
        let mut ledger = OutputLedger::new(1024);
        assert!(matches!(ledger.deliver(text(5000)), Output::Truncated(_)));
        let (_, value, truncated) =
            ledger.deliver_value(PendingOutput::new(1024), "[1,2,3]", &parsed("[1,2,3]")).unwrap();
        assert!(!truncated);
        assert_eq!(value, serde_json::json!([1, 2, 3]));
    }

    #[test]
    fn the_final_value_has_priority_over_output_of_its_window() {
        let mut ledger = OutputLedger::new(1024);
        let value = format!("\"{}\"", "v".repeat(700));
        let (output, v, _) = ledger.deliver_value(text(600), &value, &parsed(&value)).unwrap();
        assert_eq!(v, Value::String("v".repeat(700)));
        assert!(matches!(output, Output::Truncated(_)));
    }

    #[test]
    fn an_oversized_value_becomes_a_marker_and_an_exhausted_budget_a_limit_error() {
        let mut ledger = OutputLedger::new(1024);
        let value = format!("[{}]", vec!["1"; 2000].join(","));
        let (_, v, truncated) = ledger.deliver_value(PendingOutput::new(1024), &value, &parsed(&value)).unwrap();
        assert!(truncated);
        assert_eq!(v["truncated"], Value::Bool(true));
        assert!(value.starts_with(v["prefix"].as_str().unwrap()));
        let mut spent = OutputLedger::new(1024);
        spent.charge(1024);
        assert!(spent.deliver_value(PendingOutput::new(1024), &value, &parsed(&value)).is_err());
    }

    #[test]
    fn an_oversized_error_keeps_its_head() {
        let mut ledger = OutputLedger::new(1024);
        let error = format!("Error: DIAGNOSTIC {}", "d".repeat(5000));
        let (_, e) = ledger.deliver_error(PendingOutput::new(1024), error);
        assert!(e.starts_with("Error: DIAGNOSTIC") && e.ends_with(" [error truncated]"));
        assert!(json_string_len(&e) <= 1024);
    }

    #[test]
    fn output_past_the_cap_is_counted_not_kept() {
        let mut pending = PendingOutput::new(1000);
        let entry = OutputEntry::text("y".repeat(400));
        let one = entry_json_len(&entry);
        for _ in 0..1000 {
            pending.push(entry.clone());
        }
        let whole = entries_json(&vec![entry.clone(); 1000]);
        assert_eq!(pending.json_len(), whole.len(), "every entry is counted");
        assert!(pending.entries().is_none());
        let known = pending.spilled_prefix().unwrap().to_owned();
        assert!(known.len() <= 1000 && whole.starts_with(&known), "only a bounded prefix is kept");
        assert!(one < 1000);
        let mut ledger = OutputLedger::new(4096);
        let Output::Truncated(marker) = ledger.deliver(pending) else { panic!("not truncated") };
        assert!(whole.starts_with(&marker.prefix));
        assert_eq!(marker.prefix.len() + marker.omitted_bytes, whole.len(), "the marker describes all of it");
    }

    #[test]
    fn output_exactly_at_the_cap_is_kept_whole_and_one_byte_more_spills() {
        let entry = OutputEntry::text("z".repeat(10));
        let exact = entry_json_len(&entry) + 2;
        let mut pending = PendingOutput::new(exact);
        pending.push(entry.clone());
        assert_eq!(pending.entries().map(<[_]>::len), Some(1));
        let mut pending = PendingOutput::new(exact - 1);
        pending.push(entry);
        assert!(pending.entries().is_none());
        assert_eq!(pending.json_len(), exact);
    }
}
