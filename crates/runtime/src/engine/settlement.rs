//! Settlements in: how the host answers a guest's request — a value, JSON
//! text the host keeps as text, or a fault the guest sees as a rejected
//! `Error`. Plain data, the engine's half of the message interface.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The JavaScript error class a failed request rejects with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum ErrorName {
    /// `Error`.
    Error,
    /// `TypeError`: the request was malformed.
    TypeError,
    /// `RangeError`: a bound was exceeded.
    RangeError,
}

impl ErrorName {
    /// The class name the prelude's `makeError` maps back to a class.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Error => "Error",
            Self::TypeError => "TypeError",
            Self::RangeError => "RangeError",
        }
    }
}

/// A failed request as the guest's error sees it: `name`, `message`, `code`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Fault {
    pub name: ErrorName,
    pub message: String,
    pub code: String,
}

impl Fault {
    pub(crate) fn new(name: ErrorName, message: impl Into<String>, code: impl Into<String>) -> Self {
        Self { name, message: message.into(), code: code.into() }
    }

    /// A plain `Error` with `code`.
    pub(crate) fn error(message: impl Into<String>, code: impl Into<String>) -> Self {
        Self::new(ErrorName::Error, message, code)
    }

    /// What the guest's error says of the request's effect
    /// (`.effectStatus`): `"none"` when it was refused before it could run
    /// (its input contract, the policy or a person, an approval that
    /// expired, a bound, a write-ahead that could
    /// not be journaled, a helper unavailable in this cell), `"unknown"`
    /// when it may have run (the tool failed, its output broke its
    /// contract, it was in flight at a crash).
    pub(crate) fn effect_status(&self) -> &'static str {
        match self.code.as_str() {
            "input_contract"
            | "policy_denied"
            | "denied"
            | "approval_expired"
            | "invalid_input"
            | "journal_unavailable"
            | "unavailable"
            | "store_range"
            | "store_type"
            | "results" => "none",
            _ => "unknown",
        }
    }
}

/// What the host answers a request with.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub(crate) enum Answer {
    /// Resolves with this value, built in the engine directly (no JSON text).
    Value(Value),
    /// Resolves with a value the store or results cache keeps as JSON
    /// text: the engine parses it, because it may nest deeper than
    /// serde_json parses (a stored value may be 512 levels deep).
    Text(String),
    /// Rejects.
    Fault(Fault),
}

/// A host request the host has settled, ready to deliver to the guest.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Settlement {
    pub id: u64,
    pub answer: Answer,
}

impl Settlement {
    /// Resolves request `id` with `value`.
    pub(crate) fn value(id: u64, value: Value) -> Self {
        Self { id, answer: Answer::Value(value) }
    }

    /// Rejects request `id`.
    pub(crate) fn fault(id: u64, fault: Fault) -> Self {
        Self { id, answer: Answer::Fault(fault) }
    }

    /// A host answer: the value, or an `Error` with `message` and `code`
    /// (MCP, nodes, `$api`).
    pub(crate) fn result<E: std::fmt::Display>(id: u64, result: Result<Value, E>, code: &str) -> Self {
        match result {
            Ok(value) => Self::value(id, value),
            Err(e) => Self::fault(id, Fault::error(e.to_string(), code)),
        }
    }

    /// Whether the request was resolved (not rejected).
    pub(crate) fn is_ok(&self) -> bool {
        !matches!(self.answer, Answer::Fault(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_settlement_crosses_a_process_boundary_as_plain_data_and_comes_back_equal() {
        let settlements = [
            Settlement::value(1, serde_json::json!({"a": [1, "é"]})),
            Settlement { id: 2, answer: Answer::Text("[1,2]".into()) },
            Settlement::fault(3, Fault::new(ErrorName::RangeError, "too big", "range")),
        ];
        for s in settlements {
            let wire = serde_json::to_vec(&s).unwrap();
            assert_eq!(serde_json::from_slice::<Settlement>(&wire).unwrap(), s);
        }
    }
}
