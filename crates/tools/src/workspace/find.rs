//! `find`: files whose path matches a glob (GA-11.4).

use serde_json::{Value, json};

use super::args::{output, required_string, string_arg, usize_arg};
use super::blocking::blocking;
use super::glob::{Glob, MAX_GLOB_CHARS};
use super::root::Root;
use super::walk::{Found, Skip, Skipped, walk_files};
use codemode_catalog::{Tool, ToolFuture};

const DEFAULT_LIMIT: usize = 100;
const MAX_LIMIT: usize = 1000;

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

impl Tool for Find {
    fn name(&self) -> &str {
        "find"
    }

    fn description(&self) -> &str {
        "Find files in the workspace whose path matches a glob (`*`, `?`, `**`, `[abc]`, `{a,b}`); a pattern \
         without `/` matches file names anywhere. Skips .git, node_modules and target; does not follow symlinks. \
         Matching FIFOs, sockets and devices are reported in `skipped`, not listed."
    }

    fn input_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "pattern": {"type": "string", "maxLength": MAX_GLOB_CHARS, "description": "Glob, e.g. \"*.rs\" or \"src/**/*.ts\"."},
                "path": {"type": "string", "description": "Directory to search (default \".\")."},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "description": "Most matches to return."}
            },
            "required": ["pattern"],
            "additionalProperties": false
        })
    }

    fn call(&self, input: Value, _context: codemode_catalog::ToolContext) -> ToolFuture<'_> {
        let root = self.root.clone();
        Box::pin(blocking(move |cancel| {
            let pattern = required_string(&input, "pattern")?;
            let glob = Glob::new(&pattern, "pattern")?;
            let rel = string_arg(&input, "path").unwrap_or_else(|| ".".into());
            let dir = root.resolve(&rel)?;
            let limit = usize_arg(&input, "limit").unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
            let by_name = !pattern.contains('/');
            let mut found: Vec<String> = Vec::new();
            let mut skipped = Skipped::default();
            let mut special = Skipped::default();
            let mut more = false;
            let cut = walk_files(&root, &dir, cancel, &mut skipped, &mut |path, relative, kind| {
                let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
                if !glob.is_match(if by_name { &name } else { relative }) {
                    return Ok(true);
                }
                match kind {
                    Found::File if found.len() == limit => {
                        more = true;
                        return Ok(false);
                    }
                    Found::File => found.push(relative.to_owned()),
                    Found::Special(what) => special.record(relative, Skip::NotRegular(what)),
                }
                Ok(true)
            })?;
            special.merge(skipped);
            let skipped = special;
            let truncated = more || cut;
            let mut content = if found.is_empty() { format!("No files matched {pattern}.") } else { found.join("\n") };
            if truncated {
                content.push_str(&format!("\n[results truncated at {limit}; narrow the pattern or path]"));
            }
            if let Some(notice) = skipped.notice() {
                content.push('\n');
                content.push_str(&notice);
            }
            let details = json!({
                "content": content,
                "matches": found,
                "truncated": truncated,
                "limit": limit,
                "skipped": skipped.details(),
            });
            Ok(output(details, format!("[find {pattern}: {} matches]", found.len())))
        }))
    }
}
