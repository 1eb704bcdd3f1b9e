//! Declarations of MCP servers (`mcp/<server>.d.ts`, `mcp/index.d.ts`) and
//! `$api` responses (GA-9.5, GA-9.6). The file content of a server is
//! identical to `MCP.<server>.$api().header`.

use serde_json::{Value, json};

use crate::error::{UnknownTool, UnknownToolHint};
use crate::tree::{McpMethod, McpServerTree, McpTree};
use codemode_catalog::hints::declaration_type;

const DOC_LINES: usize = 12;

const PRELUDE: &str = "interface McpApiHeader { kind: \"mcp_api\"; scope: \"root\" | \"server\" | \"tool\"; header: string; tools?: unknown[]; schemas?: Record<string, unknown>; note: string }
interface McpToolResult { content: Array<{ type: string; [key: string]: unknown }>; structuredContent?: unknown; isError?: boolean }
";

// Only where the server offers them (GA-9); `list` takes no cursor because
// the namespace fetches the first page the server returns.
const RESOURCES: &str = "  namespace resources {
    function list(): Promise<{ resources: Array<{ uri: string; name: string; title?: string; description?: string; mimeType?: string }>; nextCursor?: string }>;
    function read(input: { uri: string }): Promise<{ contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }> }>;
  }
";
const PROMPTS: &str = "  namespace prompts {
    function list(): Promise<{ prompts: Array<{ name: string; title?: string; description?: string; arguments?: Array<{ name: string; description?: string; required?: boolean }> }>; nextCursor?: string }>;
    function get(input: { name: string; arguments?: Record<string, string> }): Promise<{ description?: string; messages: Array<{ role: string; content: { type: string; [key: string]: unknown } }> }>;
  }
";

fn doc(method: &McpMethod) -> String {
    let mut lines: Vec<String> = method
        .description
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(DOC_LINES)
        .map(|l| l.replace("*/", "* /"))
        .collect();
    let props = method.input_schema.get("properties").and_then(Value::as_object);
    for (name, schema) in props.into_iter().flatten() {
        let optional = !method.required.contains(name);
        let mut line = format!("@param {name}{}", if optional { "?" } else { "" });
        if let Some(d) = schema.get("description").and_then(Value::as_str) {
            line.push(' ');
            line.push_str(&d.replace("*/", "* /").replace('\n', " "));
        }
        if let Some(default) = method.defaults.get(name) {
            line.push_str(&format!(" Default: {default}."));
        }
        lines.push(line);
    }
    if method.task {
        lines.push(
            "Runs as an MCP task: the promise settles when the task ends, which may take long (the cell parks \
             meanwhile; wait resumes it)."
                .to_owned(),
        );
    }
    if lines.is_empty() {
        return String::new();
    }
    let mut out = String::from("  /**\n");
    for l in lines {
        out.push_str("   * ");
        out.push_str(&l);
        out.push('\n');
    }
    out.push_str("   */\n");
    out
}

fn function(method: &McpMethod) -> String {
    // Fields with a default are filled in by the namespace, so they are
    // optional for the caller even when the server requires them.
    let mut schema = method.input_schema.clone();
    if let Some(obj) = schema.as_object_mut() {
        obj.insert("required".into(), json!(method.required));
    }
    let input = declaration_type(&schema);
    let input = if input == "unknown" { "Record<string, unknown>".to_owned() } else { input };
    let optional = if method.input_optional { "?" } else { "" };
    format!(
        "{}  function {}(input{optional}: {input}): Promise<{}>;\n",
        doc(method),
        method.method,
        result_type(method)
    )
}

/// `McpToolResult`, narrowed to the declared `structuredContent` when the
/// tool has an `outputSchema`. It stays optional: an `isError` result need
/// not carry it.
fn result_type(method: &McpMethod) -> String {
    let Some(schema) = &method.output_schema else { return "McpToolResult".to_owned() };
    let structured = declaration_type(&inline_refs(schema, schema, 0));
    if structured == "unknown" {
        return "McpToolResult".to_owned();
    }
    format!("McpToolResult & {{ structuredContent?: {structured} }}")
}

/// How deep local `$ref`s are followed; a recursive type ends in `unknown`.
const REF_DEPTH: usize = 6;

/// `schema` with local references (`#/$defs/X`, `#/definitions/X`) replaced
/// by what they point at, as generators such as pydantic emit them.
fn inline_refs(schema: &Value, root: &Value, depth: usize) -> Value {
    match schema {
        Value::Object(map) => {
            if let Some(target) = map.get("$ref").and_then(Value::as_str) {
                let found = target.strip_prefix("#/").and_then(|path| root.pointer(&format!("/{path}")));
                return match found {
                    Some(found) if depth < REF_DEPTH => inline_refs(found, root, depth + 1),
                    _ => json!({}),
                };
            }
            Value::Object(map.iter().map(|(k, v)| (k.clone(), inline_refs(v, root, depth))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| inline_refs(v, root, depth)).collect()),
        other => other.clone(),
    }
}

/// The declaration of one server.
#[must_use]
pub fn server_declaration(server: &McpServerTree) -> String {
    let mut out = String::from(PRELUDE);
    out.push_str(&format!(
        "/** MCP server {} */\ndeclare namespace MCP.{} {{\n",
        server.server_name, server.identifier
    ));
    out.push_str("  const $serverName: string;\n");
    out.push_str("  function $api(toolName?: string, options?: { schema?: boolean }): Promise<McpApiHeader>;\n");
    for m in &server.methods {
        out.push_str(&function(m));
    }
    if server.resources {
        out.push_str(RESOURCES);
    }
    if server.prompts {
        out.push_str(PROMPTS);
    }
    out.push_str("}\n");
    out
}

/// The root declaration: references to every server's file.
#[must_use]
pub fn index_declaration(tree: &McpTree) -> String {
    let mut out = String::new();
    for s in &tree.servers {
        out.push_str(&format!("/// <reference path=\"./{}.d.ts\" />\n", s.identifier));
    }
    out.push_str("interface McpRootApiHeader { header: string; servers?: unknown[] }\ndeclare namespace MCP { function $api(): Promise<McpRootApiHeader>; }\n");
    out
}

fn server_entry(server: &McpServerTree) -> Value {
    let mut entry = json!({"identifier": server.identifier, "serverName": server.server_name, "connected": server.up});
    if let Some(error) = &server.error {
        entry["error"] = json!(error);
    }
    entry
}

/// The error for a name that is no tool of `server`: the closest method
/// when one is close, and why the list is empty when the server is down.
#[must_use]
pub fn unknown_tool(server: &McpServerTree, name: &str) -> UnknownTool {
    let hint = if let Some(error) = server.error.as_deref().filter(|_| !server.up) {
        UnknownToolHint::ServerDown(error.to_owned())
    } else if let Some(m) = crate::naming::suggestion(name, server.methods.iter().map(|m| m.method.as_str())) {
        UnknownToolHint::DidYouMean(m.to_owned())
    } else {
        UnknownToolHint::None
    };
    UnknownTool { name: name.to_owned(), server: server.identifier.clone(), hint }
}

/// `MCP.$api()` (server `None`) or `MCP.<server>.$api(method, {schema})`.
///
/// # Errors
/// A selector that names no tool of the server.
pub fn api_response(
    tree: &McpTree,
    server: Option<&McpServerTree>,
    selector: Option<&str>,
    schema: bool,
) -> Result<Value, UnknownTool> {
    let Some(server) = server else {
        let servers: Vec<Value> = tree
            .servers
            .iter()
            .map(|s| {
                let mut entry = server_entry(s);
                entry["toolCount"] = json!(s.methods.len());
                entry
            })
            .collect();
        return Ok(json!({
            "kind": "mcp_api", "scope": "root", "header": index_declaration(tree), "servers": servers,
            "note": "Call MCP.<server>.$api() for a TypeScript-style header, then call tools with one object argument matching the shown input type."
        }));
    };
    let selected: Vec<&McpMethod> = match selector.map(str::trim).filter(|s| !s.is_empty()) {
        None => server.methods.iter().collect(),
        Some(sel) => {
            // An exact method name wins over a colliding raw tool name.
            let by_method: Vec<&McpMethod> = server.methods.iter().filter(|m| m.method == sel).collect();
            let chosen = if by_method.is_empty() {
                server.methods.iter().filter(|m| m.tool_name == sel).collect()
            } else {
                by_method
            };
            if chosen.is_empty() {
                return Err(unknown_tool(server, sel));
            }
            chosen
        }
    };
    let header = if selected.len() == server.methods.len() {
        server_declaration(server)
    } else {
        let mut out = String::from(PRELUDE);
        out.push_str(&format!("declare namespace MCP.{} {{\n", server.identifier));
        for m in &selected {
            out.push_str(&function(m));
        }
        out.push_str("}\n");
        out
    };
    let tools: Vec<Value> = selected
        .iter()
        .map(|m| {
            let mut tool = json!({"method": m.method, "path": format!("MCP.{}.{}", server.identifier, m.method), "mcpTool": m.tool_name, "aliases": m.aliases, "operation": "tools/call", "description": m.description});
            // Only where it is so, so the answer for other tools is as the
            // reference gives it.
            if m.task {
                tool["task"] = json!(true);
            }
            tool
        })
        .collect();
    let mut response = json!({
        "kind": "mcp_api",
        "scope": if selected.len() == 1 { "tool" } else { "server" },
        "server": server_entry(server),
        "header": header,
        "tools": tools,
        "note": "Call MCP tools with one object argument, for example MCP.server.tool({ requiredField: value }).",
    });
    if schema {
        let schemas: serde_json::Map<String, Value> =
            selected.iter().map(|m| (m.method.clone(), m.input_schema.clone())).collect();
        response["schemas"] = Value::Object(schemas);
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{McpToolInfo, methods};

    fn tree_of(tools: Vec<McpToolInfo>) -> McpServerTree {
        McpServerTree {
            index: 0,
            identifier: "s".into(),
            server_name: "s".into(),
            up: true,
            error: None,
            resources: false,
            prompts: false,
            methods: methods(&tools, |_| false),
        }
    }

    fn tool(name: &str, input: Value, output: Option<Value>) -> McpToolInfo {
        McpToolInfo {
            name: name.into(),
            description: String::new(),
            input_schema: input,
            output_schema: output,
            annotated_replay_safe: false,
        }
    }

    #[test]
    fn the_declared_optional_input_and_the_runtime_no_argument_rule_come_from_one_field_ga_9_6() {
        let server = tree_of(vec![
            tool("read_graph", json!({"type": "object", "properties": {}}), None),
            tool("search", json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}), None),
            tool(
                "defaulted",
                json!({"type": "object", "properties": {"n": {"type": "number", "default": 3}}, "required": ["n"]}),
                None,
            ),
        ]);
        let header = server_declaration(&server);
        for m in &server.methods {
            // The guest reads `inputOptional` from the tree; the header's `?`
            // must say the same.
            let optional = header.contains(&format!("function {}(input?:", m.method));
            assert_eq!(optional, m.input_optional, "{} in {header}", m.method);
        }
        let flags: Vec<bool> = server.methods.iter().map(|m| m.input_optional).collect();
        assert_eq!(flags, vec![true, true, false], "defaulted, readGraph, search");
    }

    #[test]
    fn a_tool_with_an_output_schema_declares_its_structured_content_with_refs_inlined() {
        let output = json!({
            "type": "object",
            "properties": {"source": {"$ref": "#/$defs/T"}, "diff": {"type": "string"}},
            "required": ["source", "diff"],
            "$defs": {"T": {"type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]}}
        });
        let server = tree_of(vec![tool("convert", json!({}), Some(output)), tool("plain", json!({}), None)]);
        let header = server_declaration(&server);
        assert!(
            header
                .contains("Promise<McpToolResult & { structuredContent?: { diff: string; source: { tz: string } } }>;"),
            "{header}"
        );
        assert!(
            header.contains("function plain(input?: Record<string, unknown>): Promise<McpToolResult>;"),
            "{header}"
        );
        let looped = json!({"type": "object", "properties": {"next": {"$ref": "#"}}});
        assert!(
            result_type(&tree_of(vec![tool("l", json!({}), Some(looped))]).methods[0]).contains("structuredContent")
        );
    }

    #[test]
    fn an_unknown_tool_names_the_closest_method_or_why_the_server_is_down_ga_9() {
        let mut server = tree_of(vec![tool("get_current_time", json!({}), None)]);
        assert_eq!(
            unknown_tool(&server, "getCurentTime").to_string(),
            "no tool `getCurentTime` on server `s`; did you mean `getCurrentTime`? Call MCP.s.$api() to list its tools."
        );
        server.up = false;
        server.methods.clear();
        server.error = Some("could not start `x`: No such file or directory (os error 2)".into());
        let down = unknown_tool(&server, "getCurrentTime").to_string();
        assert!(down.contains("the server is not connected (could not start `x`"), "{down}");
    }
}
