//! The guest's `MCP` namespace at one moment: each server's methods as
//! named from its tools, and the catalog's search handles of them.

use std::collections::HashSet;

use codemode_catalog::McpHandle;
use codemode_protocol::budget::truncate_utf16;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::naming;

/// One tool as the server lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct McpToolInfo {
    /// The raw MCP tool name.
    pub name: String,
    /// Its description (untrusted).
    pub description: String,
    /// Its input JSON Schema.
    pub input_schema: Value,
    /// Its output JSON Schema (`outputSchema`), when it declares one: the
    /// shape of the result's `structuredContent`.
    pub output_schema: Option<Value>,
    /// Its annotations say running it again is harmless (`readOnlyHint`
    /// or `idempotentHint`): the default of its replay safety.
    pub annotated_replay_safe: bool,
}

/// One tool in the guest namespace.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct McpMethod {
    /// The identifier it is called by (`listInvoices`, `listInvoices2`).
    pub method: String,
    /// The raw MCP tool name.
    pub tool_name: String,
    /// Description, as the server gave it.
    pub description: String,
    /// Input schema.
    pub input_schema: Value,
    /// Required top-level properties without a default.
    pub required: Vec<String>,
    /// Top-level defaults, filled in when a call leaves them out.
    pub defaults: Map<String, Value>,
    /// Whether the call may omit its argument (no required field lacks a
    /// default). The declaration's `input?` and the namespace's check of a
    /// no-argument call both read this one field, so they cannot disagree.
    pub input_optional: bool,
    /// Output schema of `structuredContent`, when the tool declares one.
    pub output_schema: Option<Value>,
    /// Other names the tool answers to in the namespace: its raw MCP name
    /// when that differs from `method` and no other method has it.
    /// Non-enumerable in the guest, so `Object.keys` lists methods only.
    pub aliases: Vec<String>,
    /// The server may run a call to it as an MCP task: it speaks the tasks
    /// extension, or refused a plain call to it for want of one.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub task: bool,
}

/// One server in the guest namespace.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct McpServerTree {
    /// Position in the hub (the call route).
    pub index: usize,
    /// `MCP.<identifier>`.
    pub identifier: String,
    /// The configured name.
    pub server_name: String,
    /// Whether the server is connected now.
    pub up: bool,
    /// Why it is not connected, when it is not and a connection attempt
    /// failed (the spawn error, the exit, the last lines of its stderr).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// It offers `resources.list/read`.
    pub resources: bool,
    /// It offers `prompts.list/get`.
    pub prompts: bool,
    /// Its tools, sorted by method.
    pub methods: Vec<McpMethod>,
}

/// The whole namespace at one moment.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct McpTree {
    /// Servers, sorted by name.
    pub servers: Vec<McpServerTree>,
}

/// A tool input schema's top-level defaults, and its required properties
/// that have no default (in the schema's order).
pub(crate) fn defaults_and_required(schema: &Value) -> (Map<String, Value>, Vec<String>) {
    let props = schema.get("properties").and_then(Value::as_object);
    let defaults: Map<String, Value> = props
        .map(|p| p.iter().filter_map(|(k, s)| s.get("default").map(|d| (k.clone(), d.clone()))).collect())
        .unwrap_or_default();
    let required: Vec<String> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).filter(|k| !defaults.contains_key(*k)).map(str::to_owned).collect())
        .unwrap_or_default();
    (defaults, required)
}

/// The guest methods of a server's `tools`, sorted by method, each with
/// its defaults, required properties and aliases.
pub(crate) fn methods(tools: &[McpToolInfo], task: impl Fn(&str) -> bool) -> Vec<McpMethod> {
    let mut sorted: Vec<&McpToolInfo> = tools.iter().collect();
    // localeCompare order: `list_invoices` comes before `listInvoices` and
    // keeps the plain identifier (reference notes §7.1).
    sorted.sort_by(|a, b| codemode_catalog::collate::locale_cmp(&a.name, &b.name));
    let mut used = HashSet::new();
    let mut out: Vec<McpMethod> = sorted
        .into_iter()
        .map(|t| {
            let method = naming::unique(&naming::to_identifier(&t.name, "tool"), &mut used, naming::SERVER_MEMBERS);
            let (defaults, required) = defaults_and_required(&t.input_schema);
            McpMethod {
                method,
                tool_name: t.name.clone(),
                description: t.description.clone(),
                input_schema: t.input_schema.clone(),
                input_optional: required.is_empty(),
                required,
                defaults,
                output_schema: t.output_schema.clone(),
                aliases: Vec::new(),
                task: task(&t.name),
            }
        })
        .collect();
    // A raw name is an alias only when it is no method's identifier: the
    // normalized name wins a collision (GA-9.5), as in `$api`.
    let taken: HashSet<String> = out.iter().map(|m| m.method.clone()).collect();
    for m in &mut out {
        if m.tool_name != m.method && !taken.contains(&m.tool_name) && !naming::reserved_member(&m.tool_name) {
            m.aliases.push(m.tool_name.clone());
        }
    }
    out.sort_by(|a, b| a.method.cmp(&b.method));
    out
}

/// The catalog's search handles of every method in `tree`, in namespace
/// order: no input or output hints, the remote description cut at 512
/// UTF-16 units (GA-9.1, GA-9.2).
#[must_use]
pub fn handles(tree: &McpTree) -> Vec<McpHandle> {
    tree.servers
        .iter()
        .flat_map(|s| {
            s.methods.iter().map(move |m| McpHandle {
                callable_name: format!("MCP.{}.{}", s.identifier, m.method),
                tool_name: m.tool_name.clone(),
                description: truncate_utf16(&m.description, 512, ""),
                source: "mcp",
                api_path: format!("mcp/{}.d.ts", s.identifier),
                server: s.identifier.clone(),
                method: m.method.clone(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::error::MissingArguments;

    #[test]
    fn colliding_tool_names_both_stay_reachable_with_defaults_and_required() {
        let tools = vec![
            McpToolInfo {
                annotated_replay_safe: false,
                name: "listInvoices".into(),
                description: String::new(),
                input_schema: json!({}),
                output_schema: None,
            },
            McpToolInfo {
                annotated_replay_safe: false,
                name: "list_invoices".into(),
                description: String::new(),
                input_schema: json!({"properties": {"currency": {"default": "EUR"}, "customer": {}}, "required": ["currency", "customer"]}),
                output_schema: None,
            },
        ];
        let m = methods(&tools, |_| false);
        let pairs: Vec<(&str, &str)> = m.iter().map(|x| (x.method.as_str(), x.tool_name.as_str())).collect();
        assert_eq!(pairs, vec![("listInvoices", "list_invoices"), ("listInvoices2", "listInvoices")]);
        assert_eq!(m[0].required, vec!["customer"]);
        assert_eq!(m[0].defaults.get("currency"), Some(&json!("EUR")));
        // `list_invoices` is no method's name, so it is an alias of
        // `listInvoices`; `listInvoices` (raw) is taken by the normalized
        // name of `list_invoices`, which wins (GA-9.5).
        assert_eq!(m[0].aliases, vec!["list_invoices"]);
        assert!(m[1].aliases.is_empty());
        assert!(!m[0].input_optional && m[1].input_optional);
    }

    #[test]
    fn missing_arguments_are_named_in_the_schema_order_with_the_reference_wording_ga_9_4() {
        let schema = json!({"properties": {"a": {}, "b": {"default": 2}, "c": {}}, "required": ["c", "b", "a"]});
        let (defaults, required) = defaults_and_required(&schema);
        assert_eq!(required, vec!["c", "a"], "a required property with a default is never missing");
        assert_eq!(defaults.get("b"), Some(&json!(2)));
        assert_eq!(
            MissingArguments(vec!["c".into(), "a".into()]).to_string(),
            "Missing required MCP namespace arguments: c, a"
        );
        assert_eq!(MissingArguments(vec!["a".into()]).to_string(), "Missing required MCP namespace argument: a");
    }
}
