//! `find`: files whose path matches a glob (GA-11.4).

use std::path::Path;

use serde_json::{Value, json};

use super::glob::matches;
use super::{Root, blocking, output, string_arg, usize_arg};
use crate::tool::{Tool, ToolFuture};

const DEFAULT_LIMIT: usize = 100;
const MAX_LIMIT: usize = 1000;
/// Directory entries visited at most per call.
pub(crate) const MAX_VISITS: usize = 100_000;
/// Directories never descended into.
pub(crate) const SKIPPED_DIRS: &[&str] = &[".git", "node_modules", "target"];

/// The `find` tool.
#[derive(Debug)]
pub struct Find {
    root: Root,
}

impl Find {
    /// `find` over `root`.
    #[must_use]
    pub fn new(root: Root) -> Self {
        Self { root }
    }
}

/// Walks `dir` depth-first in name order, calling `visit` with each file's
/// root-relative path, until it returns false or the visit budget runs out.
/// Returns whether the walk was cut short.
pub(crate) fn walk_files(root: &Root, dir: &Path, visit: &mut dyn FnMut(&Path, &str) -> bool) -> bool {
    let mut stack = vec![dir.to_path_buf()];
    let mut visits = 0;
    while let Some(d) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&d) else { continue };
        let mut entries: Vec<_> = read.filter_map(Result::ok).collect();
        entries.sort_by_key(std::fs::DirEntry::file_name);
        let mut subdirs = Vec::new();
        for e in entries {
            visits += 1;
            if visits > MAX_VISITS {
                return true;
            }
            let path = e.path();
            match e.file_type() {
                Ok(t) if t.is_dir() && !SKIPPED_DIRS.contains(&e.file_name().to_string_lossy().as_ref()) => {
                    subdirs.push(path);
                }
                Ok(t) if t.is_file() && !visit(&path, &root.relative(&path)) => return true,
                _ => {}
            }
        }
        stack.extend(subdirs.into_iter().rev());
    }
    false
}

impl Tool for Find {
    fn name(&self) -> &str {
        "find"
    }

    fn description(&self) -> &str {
        "Find files in the workspace whose path matches a glob (`*`, `?`, `**`); a pattern without `/` matches \
         file names anywhere. Skips .git, node_modules and target."
    }

    fn input_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "pattern": {"type": "string", "description": "Glob, e.g. \"*.rs\" or \"src/**/*.ts\"."},
                "path": {"type": "string", "description": "Directory to search (default \".\")."},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "description": "Most matches to return."}
            },
            "required": ["pattern"],
            "additionalProperties": false
        })
    }

    fn call(&self, input: Value) -> ToolFuture<'_> {
        let root = self.root.clone();
        Box::pin(blocking(move || {
            let pattern = string_arg(&input, "pattern").unwrap_or_default();
            let rel = string_arg(&input, "path").unwrap_or_else(|| ".".into());
            let dir = root.resolve(&rel)?;
            let limit = usize_arg(&input, "limit").unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
            let by_name = !pattern.contains('/');
            let mut found: Vec<String> = Vec::new();
            let mut more = false;
            let cut = walk_files(&root, &dir, &mut |path, relative| {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                if matches(&pattern, if by_name { &name } else { relative }) {
                    if found.len() == limit {
                        more = true;
                        return false;
                    }
                    found.push(relative.to_owned());
                }
                true
            });
            let truncated = more || cut;
            let mut content = if found.is_empty() { format!("No files matched {pattern}.") } else { found.join("\n") };
            if truncated {
                content.push_str(&format!("\n[results truncated at {limit}; narrow the pattern or path]"));
            }
            let details = json!({"content": content, "matches": found, "truncated": truncated, "limit": limit});
            Ok(output(details, format!("[find {pattern}: {} matches]", found.len())))
        }))
    }
}
