//! The workspace tools' arguments and answers: readers of their JSON
//! input, the `invalid_input` error, and the output they return.

use codemode_catalog::{ToolError, ToolOutput};
use serde_json::Value;

/// An `invalid_input` error with `message`.
pub(super) fn invalid(message: String) -> ToolError {
    ToolError { message, code: "invalid_input".into() }
}

/// A successful answer: `details` for code, `text` for the model.
pub(super) fn output(details: Value, text: String) -> ToolOutput {
    ToolOutput { details, text: Some(text), is_error: false }
}

/// An optional string argument.
pub(super) fn string_arg(input: &Value, key: &str) -> Option<String> {
    input.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// A required string argument; a missing one is an error, never `""`.
pub(super) fn required_string(input: &Value, key: &str) -> Result<String, ToolError> {
    string_arg(input, key).ok_or_else(|| invalid(format!("`{key}` is required and must be a string")))
}

/// An optional non-negative integer argument; a too large one saturates.
pub(super) fn usize_arg(input: &Value, key: &str) -> Option<usize> {
    input.get(key).and_then(Value::as_u64).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}
