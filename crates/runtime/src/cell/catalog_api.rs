//! Host side of the guest's catalog API: search replies, `describe()` and
//! the `API` virtual files. Pure functions from requests to settlements.

use codemode_catalog::{Registry, SearchError, files};
use serde_json::{Value, json};

use super::vm::Settlement;

fn ok(id: u64, value: &Value) -> Settlement {
    Settlement { id, ok: true, payload: value.to_string() }
}

fn err(id: u64, name: &str, message: &str, code: &str) -> Settlement {
    Settlement { id, ok: false, payload: json!({"name": name, "message": message, "code": code}).to_string() }
}

/// The reply to `catalog.search`: the matching registry indexes, or a
/// refusal when their metadata would not fit in what is left of the cell's
/// output budget — never a silently partial list (GA-8.6).
pub(crate) fn search_reply(
    tools: &Registry,
    id: u64,
    result: Result<Vec<usize>, SearchError>,
    remaining_output: usize,
) -> Settlement {
    match result {
        Ok(indexes) => {
            let bytes: usize = indexes
                .iter()
                .filter_map(|i| tools.get(*i))
                .map(|e| serde_json::to_string(&e.metadata).map_or(0, |s| s.len() + 1))
                .sum::<usize>()
                + 1;
            if bytes > remaining_output {
                let message = format!(
                    "catalog.search matched {} tools whose metadata ({bytes} bytes) does not fit in this cell's \
                     remaining output budget ({remaining_output} bytes); narrow the query or pass a smaller limit.",
                    indexes.len()
                );
                return err(id, "RangeError", &message, "search_capacity");
            }
            ok(id, &json!(indexes))
        }
        Err(SearchError::InvalidLimit) => {
            err(id, "RangeError", &SearchError::InvalidLimit.to_string(), "invalid_input")
        }
        Err(e) => err(id, "Error", &e.to_string(), "tool_error"),
    }
}

/// A handle's `describe()`: the full schemas (GA-8.2).
pub(crate) fn describe(tools: &Registry, id: u64, tool: usize) -> Settlement {
    match tools.get(tool) {
        Some(entry) => ok(id, &entry.describe()),
        None => err(id, "Error", "unknown catalog handle", "invalid_input"),
    }
}

/// `API.list(prefix)` (GA-2.2).
pub(crate) fn list(tools: &Registry, extra: &[files::ApiFile], id: u64, prefix: &str) -> Settlement {
    ok(id, &json!({ "files": files::list(tools, extra, prefix) }))
}

/// `API.read(path)` (GA-2.1): a file record, not a string.
pub(crate) fn read(tools: &Registry, extra: &[files::ApiFile], id: u64, path: &str) -> Settlement {
    match files::read(tools, extra, path) {
        Some(file) => ok(id, &serde_json::to_value(file).unwrap_or(Value::Null)),
        None => err(
            id,
            "Error",
            &format!("API file not found: {path}. Call API.list() to see the available files."),
            "invalid_input",
        ),
    }
}
