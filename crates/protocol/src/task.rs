//! An MCP task a server created for one tool call: what a run journals so
//! that any process can poll the same task after a crash.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The generation of the MCP tasks protocol a task speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskForm {
    /// The tasks extension of protocol 2026-07-28 (SEP-2663).
    Extension,
    /// Task-augmented requests of protocol 2025-11-25.
    Core,
}

/// A task a server created for one tool call: what is needed to poll it
/// again, from any process connected to the same server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpTask {
    /// The protocol generation it speaks.
    pub form: TaskForm,
    /// The server's id of the task.
    pub task_id: String,
    /// How long to wait between polls: the server's suggestion, bounded.
    pub poll_interval_ms: u64,
}

/// Called once with the task as soon as the server created it, before the
/// first poll, so the caller can make it durable.
pub type OnTask = Box<dyn FnOnce(&McpTask) + Send>;

/// A task asks its caller for input: one elicitation form.
#[derive(Clone, Debug, PartialEq)]
pub struct InputAsk {
    /// The task's key for this request (the tasks extension's
    /// `inputRequests` key, stable for the task's life; for the 2025-11-25
    /// form, a counter of the task's requests).
    pub key: String,
    /// What the server says it needs.
    pub message: String,
    /// The form's JSON Schema (`requestedSchema`).
    pub schema: Value,
}

/// The caller's answer to an [`InputAsk`].
#[derive(Clone, Debug, PartialEq)]
pub enum InputAnswer {
    /// Accept, with the form's content.
    Accept(Map<String, Value>),
    /// Decline.
    Decline,
    /// No answer (cancelled, or it expired).
    Cancel,
}

/// How a call's caller answers the input requests of its task; the future
/// may take as long as a person does.
pub type OnInput = Arc<dyn Fn(InputAsk) -> Pin<Box<dyn Future<Output = InputAnswer> + Send>> + Send + Sync>;

/// What the caller of a call that may run as a task wants to hear.
#[derive(Default)]
pub struct TaskHooks {
    /// The task, once created.
    pub on_task: Option<OnTask>,
    /// The task's requests for input; without it, a task that asks for
    /// input is cancelled and the call fails saying why.
    pub on_input: Option<OnInput>,
}

/// The content a form gets when it is accepted without values: each
/// top-level property's `default`.
#[must_use]
pub fn form_defaults(schema: &Value) -> Map<String, Value> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| props.iter().filter_map(|(k, p)| Some((k.clone(), p.get("default")?.clone()))).collect())
        .unwrap_or_default()
}

/// The top-level properties a form requires that have no default: what
/// accepting it with [`form_defaults`] leaves out.
#[must_use]
pub fn form_missing(schema: &Value) -> Vec<String> {
    let defaults = form_defaults(schema);
    schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|k| !defaults.contains_key(*k))
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_forms_defaults_fill_it_and_what_they_leave_out_is_named() {
        let schema = json!({"type": "object", "properties": {
            "go": {"type": "boolean", "default": true}, "why": {"type": "string"}, "n": {"type": "integer"}
        }, "required": ["go", "why"]});
        assert_eq!(Value::Object(form_defaults(&schema)), json!({"go": true}));
        assert_eq!(form_missing(&schema), ["why"]);
        assert!(form_defaults(&json!({"type": "object"})).is_empty());
    }
}
