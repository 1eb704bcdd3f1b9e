//! Declarations of MCP servers (`mcp/<server>.d.ts`, `mcp/index.d.ts`) and
//! `$api` responses (GA-9.5, GA-9.6). The file content of a server is
//! identical to `MCP.<server>.$api().header`.

use serde_json::{Value, json};

use super::{McpMethod, McpServerTree, McpTree};
use crate::hints::declaration_type;

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
    let optional = if method.required.is_empty() { "?" } else { "" };
    format!("{}  function {}(input{optional}: {input}): Promise<McpToolResult>;\n", doc(method), method.method)
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

/// `MCP.$api()` (server `None`) or `MCP.<server>.$api(method, {schema})`.
///
/// # Errors
/// A selector that names no tool of the server.
pub fn api_response(
    tree: &McpTree,
    server: Option<&McpServerTree>,
    selector: Option<&str>,
    schema: bool,
) -> Result<Value, String> {
    let Some(server) = server else {
        let servers: Vec<Value> = tree
            .servers
            .iter()
            .map(|s| json!({"identifier": s.identifier, "serverName": s.server_name, "toolCount": s.methods.len()}))
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
                return Err(format!(
                    "MCP server {} has no tool named {sel}; call MCP.{}.$api() to list them.",
                    server.server_name, server.identifier
                ));
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
        .map(|m| json!({"method": m.method, "path": format!("MCP.{}.{}", server.identifier, m.method), "mcpTool": m.tool_name, "operation": "tools/call", "description": m.description}))
        .collect();
    let mut response = json!({
        "kind": "mcp_api",
        "scope": if selected.len() == 1 { "tool" } else { "server" },
        "server": {"identifier": server.identifier, "serverName": server.server_name},
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
