//! Which tools become guest globals, and under which names.

use codemode_catalog::Registry;

/// Names a tool global must not take: the contract's guest globals and the
/// standard JavaScript globals.
const RESERVED: &[&str] = &[
    "ALL_TOOLS",
    "API",
    "MCP",
    "agents",
    "catalog",
    "clearTimeout",
    "globalThis",
    "json",
    "load",
    "log",
    "namespaces",
    "nodes",
    "phase",
    "results",
    "setTimeout",
    "skills",
    "store",
    "text",
    "tools",
    "yield_control",
    "Array",
    "ArrayBuffer",
    "BigInt",
    "Boolean",
    "DataView",
    "Date",
    "Error",
    "EvalError",
    "Function",
    "Infinity",
    "JSON",
    "Map",
    "Math",
    "NaN",
    "Number",
    "Object",
    "Promise",
    "Proxy",
    "RangeError",
    "ReferenceError",
    "Reflect",
    "RegExp",
    "Set",
    "String",
    "Symbol",
    "SyntaxError",
    "TextDecoder",
    "TextEncoder",
    "TypeError",
    "URIError",
    "WeakMap",
    "WeakRef",
    "WeakSet",
    "console",
    "decodeURI",
    "decodeURIComponent",
    "encodeURI",
    "encodeURIComponent",
    "escape",
    "eval",
    "isFinite",
    "isNaN",
    "parseFloat",
    "parseInt",
    "undefined",
    "unescape",
    // Keywords and reserved words.
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "let",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// The global name of each registered tool, by registry index; an empty
/// string when the tool's name cannot be a global (it is not installed).
pub(crate) fn global_names(tools: &Registry) -> Vec<String> {
    tools
        .tools()
        .iter()
        .map(|t| {
            let name = t.name();
            if is_identifier(name) && !RESERVED.contains(&name) {
                name.to_owned()
            } else {
                String::new()
            }
        })
        .collect()
}
