//! `grep`: lines matching a regular expression (GA-11.4).

use regex::RegexBuilder;
use serde_json::{Value, json};

use super::find::walk_files;
use super::glob::matches;
use super::{Root, blocking, invalid, output, string_arg, usize_arg};
use crate::tool::{Tool, ToolFuture};

const DEFAULT_LIMIT: usize = 100;
const MAX_LIMIT: usize = 1000;
/// Files larger than this are skipped.
const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;
/// Characters of a matching line shown.
const MAX_LINE_CHARS: usize = 512;

/// The `grep` tool.
#[derive(Debug)]
pub struct Grep {
    root: Root,
}

impl Grep {
    /// `grep` over `root`.
    #[must_use]
    pub fn new(root: Root) -> Self {
        Self { root }
    }
}

impl Tool for Grep {
    fn name(&self) -> &str {
        "grep"
    }

    fn description(&self) -> &str {
        "Search text files in the workspace for lines matching a regular expression. Returns `path:line: text` \
         lines in `content` and structured `matches`; `truncated` says whether the limit cut the results."
    }

    fn input_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "pattern": {"type": "string", "description": "Regular expression (Rust regex syntax)."},
                "path": {"type": "string", "description": "Directory or file to search (default \".\")."},
                "glob": {"type": "string", "description": "Only files whose name matches this glob, e.g. \"*.rs\"."},
                "ignoreCase": {"type": "boolean"},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "description": "Most matching lines to return."}
            },
            "required": ["pattern"],
            "additionalProperties": false
        })
    }

    fn call(&self, input: Value) -> ToolFuture<'_> {
        let root = self.root.clone();
        Box::pin(blocking(move || {
            let pattern = string_arg(&input, "pattern").unwrap_or_default();
            let re = RegexBuilder::new(&pattern)
                .case_insensitive(input.get("ignoreCase").and_then(Value::as_bool).unwrap_or(false))
                .size_limit(1 << 20)
                .build()
                .map_err(|e| invalid(format!("invalid pattern: {e}")))?;
            let rel = string_arg(&input, "path").unwrap_or_else(|| ".".into());
            let start = root.resolve(&rel)?;
            let glob = string_arg(&input, "glob");
            let limit = usize_arg(&input, "limit").unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
            let mut found: Vec<Value> = Vec::new();
            let mut lines = Vec::new();
            let mut more = false;
            let mut search_file = |path: &std::path::Path, relative: &str| -> bool {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                if glob.as_ref().is_some_and(|g| !matches(g, &name)) {
                    return true;
                }
                if std::fs::metadata(path).map_or(true, |m| m.len() > MAX_FILE_BYTES) {
                    return true;
                }
                let Ok(text) = std::fs::read_to_string(path) else { return true };
                for (i, line) in text.lines().enumerate() {
                    if re.is_match(line) {
                        if found.len() == limit {
                            more = true;
                            return false;
                        }
                        let shown: String = line.chars().take(MAX_LINE_CHARS).collect();
                        lines.push(format!("{relative}:{}: {shown}", i + 1));
                        found.push(json!({"path": relative, "line": i + 1, "text": shown}));
                    }
                }
                true
            };
            let cut = if start.is_file() {
                !search_file(&start, &root.relative(&start))
            } else {
                walk_files(&root, &start, &mut search_file)
            };
            let truncated = more || cut;
            let mut content = if lines.is_empty() { format!("No matches for /{pattern}/.") } else { lines.join("\n") };
            if truncated {
                content.push_str(&format!("\n[results truncated at {limit}; narrow the pattern, path or glob]"));
            }
            let details = json!({"content": content, "matches": found, "truncated": truncated, "limit": limit});
            Ok(output(details, format!("[grep /{pattern}/: {} matches]", found.len())))
        }))
    }
}
