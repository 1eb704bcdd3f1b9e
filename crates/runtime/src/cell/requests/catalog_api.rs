//! Host side of the guest's catalog API: search replies, `describe()` and
//! the `API` virtual files. Pure functions from requests to settlements.

use codemode_catalog::{SearchError, SearchHit, files};
use serde_json::{Value, json};

use crate::cell::tools::ToolTable;
use crate::engine::settlement::{ErrorName, Fault, Settlement};

fn ok(id: u64, value: Value) -> Settlement {
    Settlement::value(id, value)
}

fn err(id: u64, name: ErrorName, message: &str, code: &str) -> Settlement {
    Settlement::fault(id, Fault::new(name, message, code))
}

/// The reply to `catalog.search`: the matching registry indexes, or a
/// refusal when their metadata would not fit in what is left of the cell's
/// output budget — never a silently partial list (GA-8.6).
/// Whether a search reply shows MCP metadata (network-derived, GA-9.3).
pub(crate) fn shows_mcp(result: &Result<Vec<SearchHit>, SearchError>) -> bool {
    result.as_ref().is_ok_and(|hits| hits.iter().any(|h| matches!(h, SearchHit::Mcp(_))))
}

pub(crate) fn search_reply(
    tools: &ToolTable,
    id: u64,
    result: Result<Vec<SearchHit>, SearchError>,
    remaining_output: usize,
) -> Settlement {
    match result {
        Ok(hits) => {
            // A run resumed after a deploy keeps the tool globals it started
            // with: a native tool added since has no global in it, so it is
            // no hit there (its globals are the registry's otherwise).
            let hits: Vec<SearchHit> = hits
                .into_iter()
                .filter_map(|h| match h {
                    SearchHit::Native(i) => tools.global_of(i).map(SearchHit::Native),
                    mcp => Some(mcp),
                })
                .collect();
            // Native hits travel as registry indexes (the guest has their
            // metadata); MCP hits as their handle descriptor.
            let items: Result<Vec<Value>, _> = hits
                .iter()
                .map(|h| match h {
                    SearchHit::Native(i) => Ok(json!(i)),
                    SearchHit::Mcp(m) => serde_json::to_value(m),
                })
                .collect();
            let items = match items {
                Ok(items) => items,
                Err(e) => {
                    return err(
                        id,
                        ErrorName::Error,
                        &format!("catalog.search could not describe a hit: {e}"),
                        "tool_error",
                    );
                }
            };
            let bytes: usize = hits
                .iter()
                .map(|h| match h {
                    SearchHit::Native(i) => {
                        tools.get(*i).map_or(0, |e| serde_json::to_string(&e.metadata).map_or(0, |s| s.len() + 1))
                    }
                    SearchHit::Mcp(m) => serde_json::to_string(m).map_or(0, |s| s.len() + 1),
                })
                .sum::<usize>()
                + 1;
            if bytes > remaining_output {
                let message = format!(
                    "catalog.search matched {} tools whose metadata ({bytes} bytes) does not fit in this cell's \
                     remaining output budget ({remaining_output} bytes); narrow the query or pass a smaller limit.",
                    hits.len()
                );
                return err(id, ErrorName::RangeError, &message, "search_capacity");
            }
            ok(id, Value::Array(items))
        }
        Err(SearchError::InvalidLimit) => {
            err(id, ErrorName::RangeError, &SearchError::InvalidLimit.to_string(), "invalid_input")
        }
        Err(e) => err(id, ErrorName::Error, &e.to_string(), "tool_error"),
    }
}

/// A handle's `describe()`: the full schemas (GA-8.2).
pub(crate) fn describe(tools: &ToolTable, id: u64, tool: usize) -> Settlement {
    match tools.get(tool) {
        Some(entry) => ok(id, entry.describe()),
        None if tool < tools.len() => err(id, ErrorName::Error, &tools.missing(tool), "invalid_input"),
        None => err(id, ErrorName::Error, "unknown catalog handle", "invalid_input"),
    }
}

/// `API.list(prefix)` (GA-2.2).
pub(crate) fn list(tools: &ToolTable, extra: &[files::ApiFile], id: u64, prefix: &str) -> Settlement {
    ok(id, json!({ "files": files::list(tools.registry(), extra, prefix) }))
}

/// `API.read(path)` (GA-2.1): a file record, not a string.
pub(crate) fn read(tools: &ToolTable, extra: &[files::ApiFile], id: u64, path: &str) -> Settlement {
    match files::read(tools.registry(), extra, path) {
        Some(file) => match serde_json::to_value(file) {
            Ok(file) => ok(id, file),
            Err(e) => err(id, ErrorName::Error, &format!("API file {path} could not be read: {e}"), "tool_error"),
        },
        None => err(
            id,
            ErrorName::Error,
            &format!("API file not found: {path}. Call API.list() to see the available files."),
            "invalid_input",
        ),
    }
}
