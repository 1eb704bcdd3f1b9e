//! `ls`: one directory's entries, paged by name (GA-11.4).

use std::collections::BinaryHeap;
use std::ffi::OsString;

use serde_json::{Value, json};

use super::args::{invalid, output, string_arg, usize_arg};
use super::blocking::blocking;
use super::root::Root;
use codemode_catalog::{Tool, ToolError, ToolFuture};

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

    fn call(&self, input: Value, _context: codemode_catalog::ToolContext) -> ToolFuture<'_> {
        let root = self.root.clone();
        Box::pin(blocking(move |cancel| {
            let rel = string_arg(&input, "path").unwrap_or_else(|| ".".into());
            let dir = root.resolve(&rel)?;
            if !dir.is_dir() {
                return Err(invalid(format!("{rel} is not a directory")));
            }
            let after = string_arg(&input, "after");
            let limit = usize_arg(&input, "limit").unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
            // Keep only the `limit + 1` smallest names after `after` (a max-heap
            // evicting the largest), so a huge directory costs O(limit) memory.
            let mut smallest: BinaryHeap<(String, OsString)> = BinaryHeap::new();
            for e in std::fs::read_dir(&dir).map_err(|e| ToolError::new(format!("cannot list {rel}: {e}")))? {
                cancel.check()?;
                let e = e.map_err(|e| ToolError::new(format!("cannot list {rel}: {e}")))?;
                let raw = e.file_name();
                let name = raw.to_string_lossy().into_owned();
                if after.as_ref().is_some_and(|a| name <= *a) {
                    continue;
                }
                smallest.push((name, raw));
                if smallest.len() > limit + 1 {
                    smallest.pop();
                }
            }
            let mut entries: Vec<(String, &'static str, u64)> = smallest
                .into_sorted_vec()
                .into_iter()
                .map(|(name, raw)| {
                    // `symlink_metadata`: a symlink is listed as one, not followed.
                    let (kind, size) = match std::fs::symlink_metadata(dir.join(&raw)) {
                        Ok(m) if m.is_dir() => ("dir", 0),
                        Ok(m) if m.is_symlink() => ("symlink", 0),
                        Ok(m) if m.is_file() => ("file", m.len()),
                        _ => ("other", 0),
                    };
                    (name, kind, size)
                })
                .collect();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::tests::TestDir;

    #[tokio::test]
    async fn ls_pages_of_a_large_directory_list_every_name_once_in_order_ga_11_4() {
        let dir = TestDir::new("ls-pages");
        let mut names: Vec<String> = (0..53).map(|i| format!("f{:03}", (i * 37) % 53)).collect();
        for n in &names {
            std::fs::write(dir.0.join(n), "x").unwrap();
        }
        names.sort();
        let ls = Ls::new(Root::new(&dir.0).unwrap());
        let (mut seen, mut after) = (Vec::new(), None::<Value>);
        loop {
            let mut input = json!({"limit": 7});
            if let Some(a) = &after {
                input["after"] = a.clone();
            }
            let out = ls.call(input, codemode_catalog::ToolContext::default()).await.unwrap();
            for e in out.details["entries"].as_array().unwrap() {
                seen.push(e["name"].as_str().unwrap().to_owned());
            }
            match out.details.get("nextAfter") {
                Some(next) => after = Some(next.clone()),
                None => break,
            }
        }
        assert_eq!(seen, names);
    }
}
