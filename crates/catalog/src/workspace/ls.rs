//! `ls`: one directory's entries, paged by name (GA-11.4).

use serde_json::{Value, json};

use super::{Root, blocking, invalid, output, string_arg, usize_arg};
use crate::tool::{Tool, ToolError, ToolFuture};

const DEFAULT_LIMIT: usize = 200;
const MAX_LIMIT: usize = 1000;

/// The `ls` tool.
#[derive(Debug)]
pub struct Ls {
    root: Root,
}

impl Ls {
    /// `ls` over `root`.
    #[must_use]
    pub fn new(root: Root) -> Self {
        Self { root }
    }
}

impl Tool for Ls {
    fn name(&self) -> &str {
        "ls"
    }

    fn description(&self) -> &str {
        "List a directory in the workspace, sorted by name. Directories end in `/`. When `nextAfter` is present, \
         call again with `after: nextAfter` for the next page."
    }

    fn input_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "Directory relative to the workspace root (default \".\")."},
                "after": {"type": "string", "description": "List only names after this one (from nextAfter)."},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "description": "Most entries to return."}
            },
            "additionalProperties": false
        })
    }

    fn call(&self, input: Value) -> ToolFuture<'_> {
        let root = self.root.clone();
        Box::pin(blocking(move || {
            let rel = string_arg(&input, "path").unwrap_or_else(|| ".".into());
            let dir = root.resolve(&rel)?;
            if !dir.is_dir() {
                return Err(invalid(format!("{rel} is not a directory")));
            }
            let after = string_arg(&input, "after");
            let limit = usize_arg(&input, "limit").unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
            let mut entries: Vec<(String, &'static str, u64)> = std::fs::read_dir(&dir)
                .map_err(|e| ToolError::new(format!("cannot list {rel}: {e}")))?
                .filter_map(Result::ok)
                .map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    let (kind, size) = match e.file_type() {
                        Ok(t) if t.is_dir() => ("dir", 0),
                        Ok(t) if t.is_symlink() => ("symlink", 0),
                        Ok(t) if t.is_file() => ("file", e.metadata().map_or(0, |m| m.len())),
                        _ => ("other", 0),
                    };
                    (name, kind, size)
                })
                .filter(|(name, _, _)| after.as_ref().is_none_or(|a| name > a))
                .collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            let more = entries.len() > limit;
            entries.truncate(limit);
            let mut content = String::new();
            for (name, kind, _) in &entries {
                content.push_str(name);
                if *kind == "dir" {
                    content.push('/');
                }
                content.push('\n');
            }
            if entries.is_empty() {
                content = if after.is_some() { "(no more entries)".into() } else { "(empty directory)".into() };
            }
            let listed: Vec<Value> = entries
                .iter()
                .map(|(name, kind, size)| {
                    if *kind == "file" {
                        json!({"name": name, "type": kind, "size": size})
                    } else {
                        json!({"name": name, "type": kind})
                    }
                })
                .collect();
            let mut details = json!({"path": rel, "content": content, "entries": listed});
            if more && let Some((last, _, _)) = entries.last() {
                details["nextAfter"] = json!(last);
            }
            Ok(output(details, format!("[{rel}: {} entries]", entries.len())))
        }))
    }
}
