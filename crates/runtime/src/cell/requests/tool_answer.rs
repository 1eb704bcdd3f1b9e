//! A native tool's answer as the guest sees it (GA-11.2).

use codemode_catalog::{ToolError, ToolOutput};
use serde_json::{Map, Value, json};

use crate::engine::settlement::{Fault, Settlement};

/// The guest-visible value of a tool result (GA-11.2): the tool's JSON
/// `details`; an in-band error without a `message`/`error` string gains the
/// tool's text as `message`.
pub(crate) fn details_value(output: ToolOutput) -> Value {
    let mut details = output.details;
    if output.is_error {
        let has_message = |o: &Map<String, Value>| {
            ["message", "error"].iter().any(|k| o.get(*k).and_then(Value::as_str).is_some_and(|s| !s.is_empty()))
        };
        let text = output.text.unwrap_or_else(|| "the tool reported an error without a message".into());
        match &mut details {
            Value::Object(o) if !has_message(o) => {
                o.insert("message".into(), Value::String(text));
            }
            Value::Null => details = json!({ "message": text }),
            _ => {}
        }
    }
    details
}

/// The settlement of a native tool call.
pub(crate) fn tool_settlement(id: u64, result: Result<ToolOutput, ToolError>) -> Settlement {
    match result {
        Ok(output) => Settlement::value(id, details_value(output)),
        Err(e) => error_settlement(id, &e),
    }
}

fn error_settlement(id: u64, e: &ToolError) -> Settlement {
    Settlement::fault(id, Fault::error(e.message.clone(), e.code.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_in_band_error_without_a_message_gains_the_tool_text() {
        let out = ToolOutput { details: json!({"status": 500}), text: Some("server said no".into()), is_error: true };
        assert_eq!(details_value(out), json!({"status": 500, "message": "server said no"}));
    }

    #[test]
    fn an_in_band_error_with_a_message_keeps_it() {
        let out = ToolOutput { details: json!({"error": "kept"}), text: Some("other".into()), is_error: true };
        assert_eq!(details_value(out), json!({"error": "kept"}));
    }
}
