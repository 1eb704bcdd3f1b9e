//! The `API` virtual files (GA-2): one TypeScript declaration per tool.

use serde::Serialize;

use crate::hints::declaration_type;
use crate::registry::{Registry, ToolEntry};
use crate::tool::ToolSource;

/// Lines of a description kept in a declaration's doc comment.
const DOC_LINES: usize = 12;

/// One virtual file, as `API.read` returns it (GA-2.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ApiFile {
    /// The file's path, e.g. `tools/read.d.ts`.
    pub path: String,
    /// What the file holds.
    pub description: String,
    /// The file's text.
    pub content: String,
    /// UTF-8 length of `content`.
    pub bytes: usize,
}

/// One entry of `API.list` (GA-2.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ApiListing {
    /// The file's path.
    pub path: String,
    /// What the file holds.
    pub description: String,
    /// UTF-8 length of its content.
    pub bytes: usize,
}

fn tool_path(entry: &ToolEntry) -> String {
    format!("tools/{}.d.ts", entry.metadata.callable_name)
}

/// The declaration of one tool.
#[must_use]
pub fn declaration(entry: &ToolEntry) -> String {
    let m = &entry.metadata;
    let trusted = entry.tool.source() == ToolSource::Native;
    let mut out = String::from(
        "// Generated from the effective tool contract. Unsupported shapes stay unknown.\n\
         // JSON Schema validation owns constraints; describe() exposes the original schema.\n",
    );
    let doc: Vec<&str> =
        entry.tool.description().lines().map(str::trim).filter(|l| !l.is_empty()).take(DOC_LINES).collect();
    if !doc.is_empty() {
        out.push_str("/**\n");
        for line in doc {
            out.push_str(" * ");
            out.push_str(&line.replace("*/", "* /"));
            out.push('\n');
        }
        out.push_str(" */\n");
    }
    let input = if trusted { declaration_type(entry.input.schema()) } else { "unknown".to_owned() };
    let optional = !trusted || entry.input.validate(&serde_json::json!({})).is_empty();
    let output = entry.output.as_ref().map_or_else(|| "unknown".to_owned(), |o| declaration_type(o.schema()));
    out.push_str(&format!(
        "declare function {}(input{}: {input}): Promise<{output}>;\n",
        m.callable_name,
        if optional { "?" } else { "" }
    ));
    out
}

fn tool_description(entry: &ToolEntry) -> String {
    format!("TypeScript declaration of the {} tool.", entry.metadata.callable_name)
}

/// Every virtual file whose path starts with `prefix` — the tools'
/// declarations and the host's `extra` files — sorted by path.
#[must_use]
pub fn list(registry: &Registry, extra: &[ApiFile], prefix: &str) -> Vec<ApiListing> {
    let mut files: Vec<ApiListing> = registry
        .entries()
        .iter()
        .filter(|e| tool_path(e).starts_with(prefix))
        .map(|e| ApiListing { path: tool_path(e), description: tool_description(e), bytes: declaration(e).len() })
        .chain(extra.iter().filter(|f| f.path.starts_with(prefix)).map(|f| ApiListing {
            path: f.path.clone(),
            description: f.description.clone(),
            bytes: f.bytes,
        }))
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// The file at `path`, if there is one.
#[must_use]
pub fn read(registry: &Registry, extra: &[ApiFile], path: &str) -> Option<ApiFile> {
    if let Some(file) = extra.iter().find(|f| f.path == path) {
        return Some(file.clone());
    }
    let entry = registry.entries().iter().find(|e| tool_path(e) == path)?;
    let content = declaration(entry);
    Some(ApiFile { path: path.to_owned(), description: tool_description(entry), bytes: content.len(), content })
}
