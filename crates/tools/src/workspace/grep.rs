//! `grep`: lines matching a regular expression (GA-11.4).

use std::path::Path;

use regex::{Regex, RegexBuilder};
use serde_json::{Value, json};

use super::args::{invalid, output, required_string, string_arg, usize_arg};
use super::blocking::{Cancel, blocking};
use super::fs::{OpenError, ReadError, open_regular, read_bounded};
use super::glob::{Glob, MAX_GLOB_CHARS};
use super::root::Root;
use super::walk::{Found, Skip, Skipped, walk_files};
use codemode_catalog::{Tool, ToolError, ToolFuture, ToolOutput};

const DEFAULT_LIMIT: usize = 100;
const MAX_LIMIT: usize = 1000;
/// Files larger than this are skipped (and reported).
const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;
/// File bytes read at most per call, so one call's time stays bounded.
const MAX_SCAN_BYTES: u64 = 512 * 1024 * 1024;
/// Characters of a matching line shown.
const MAX_LINE_CHARS: usize = 512;
/// Lines searched between cancellation checks.
const LINES_PER_CHECK: usize = 4096;

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
         lines in `content` and structured `matches`; `truncated` says whether the limit cut the results. Files \
         over 8 MiB, binary (not UTF-8) files, FIFOs, sockets, devices and unreadable files are not searched: \
         `skipped` counts them and lists the first few. Skips .git, node_modules and target; does not follow \
         symlinks."
    }

    fn input_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "pattern": {"type": "string", "description": "Regular expression (Rust regex syntax)."},
                "path": {"type": "string", "description": "Directory or file to search (default \".\")."},
                "glob": {"type": "string", "maxLength": MAX_GLOB_CHARS, "description": "Only files whose name matches this glob, e.g. \"*.rs\"."},
                "ignoreCase": {"type": "boolean"},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "description": "Most matching lines to return."}
            },
            "required": ["pattern"],
            "additionalProperties": false
        })
    }

    fn call(&self, input: Value, _context: codemode_catalog::ToolContext) -> ToolFuture<'_> {
        let root = self.root.clone();
        Box::pin(blocking(move |cancel| {
            let pattern = required_string(&input, "pattern")?;
            let re = RegexBuilder::new(&pattern)
                .case_insensitive(input.get("ignoreCase").and_then(Value::as_bool).unwrap_or(false))
                .size_limit(1 << 20)
                .build()
                .map_err(|e| invalid(format!("invalid pattern: {e}")))?;
            let rel = string_arg(&input, "path").unwrap_or_else(|| ".".into());
            let start = root.resolve(&rel)?;
            let glob = string_arg(&input, "glob").map(|g| Glob::new(&g, "glob")).transpose()?;
            let limit = usize_arg(&input, "limit").unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
            let mut search = Search::new(re, limit);
            let is_dir =
                std::fs::metadata(&start).map_err(|e| ToolError::new(format!("cannot open {rel}: {e}")))?.is_dir();
            let cut = if is_dir {
                let mut skipped = Skipped::default();
                let cut = walk_files(&root, &start, cancel, &mut skipped, &mut |path, relative, found| {
                    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
                    if glob.as_ref().is_some_and(|g| !g.is_match(&name)) {
                        return Ok(true);
                    }
                    match found {
                        Found::File => search.file(path, relative, cancel),
                        Found::Special(what) => {
                            search.skipped.record(relative, Skip::NotRegular(what));
                            Ok(true)
                        }
                    }
                })?;
                search.skipped.merge(skipped);
                cut
            } else {
                // A path naming one file is searched whatever its name.
                !search.file(&start, &root.relative(&start), cancel)?
            };
            Ok(search.finish(&pattern, cut))
        }))
    }
}

/// One call's search state.
struct Search {
    re: Regex,
    limit: usize,
    found: Vec<Value>,
    lines: Vec<String>,
    skipped: Skipped,
    /// File bytes read so far.
    scanned: u64,
    /// The limit cut the results.
    more: bool,
    /// [`MAX_SCAN_BYTES`] ran out.
    spent: bool,
}

impl Search {
    fn new(re: Regex, limit: usize) -> Self {
        Self {
            re,
            limit,
            found: Vec::new(),
            lines: Vec::new(),
            skipped: Skipped::default(),
            scanned: 0,
            more: false,
            spent: false,
        }
    }

    /// Searches one file; `Ok(false)` stops the search (limit or budget).
    fn file(&mut self, path: &Path, relative: &str, cancel: &Cancel) -> Result<bool, ToolError> {
        let file = match open_regular(path) {
            Ok((_, meta)) if meta.len() > MAX_FILE_BYTES => {
                self.skipped.record(relative, Skip::TooLarge(MAX_FILE_BYTES));
                return Ok(true);
            }
            Ok((file, _)) => file,
            Err(OpenError::NotRegular(what)) => {
                self.skipped.record(relative, Skip::NotRegular(what));
                return Ok(true);
            }
            Err(OpenError::Directory) => return Ok(true),
            Err(OpenError::Io(e)) => {
                self.skipped.record(relative, Skip::Unreadable(e.to_string()));
                return Ok(true);
            }
        };
        if self.scanned >= MAX_SCAN_BYTES {
            self.spent = true;
            return Ok(false);
        }
        let bytes = match read_bounded(file, MAX_FILE_BYTES, cancel) {
            Ok(Some(bytes)) => bytes,
            // It grew past the bound while being read.
            Ok(None) => {
                self.skipped.record(relative, Skip::TooLarge(MAX_FILE_BYTES));
                return Ok(true);
            }
            Err(ReadError::Cancelled(e)) => return Err(e),
            Err(ReadError::Io(e)) => {
                self.skipped.record(relative, Skip::Unreadable(e.to_string()));
                return Ok(true);
            }
        };
        self.scanned += bytes.len() as u64;
        let Ok(text) = std::str::from_utf8(&bytes) else {
            self.skipped.record(relative, Skip::NotText);
            return Ok(true);
        };
        for (i, line) in text.lines().enumerate() {
            if i % LINES_PER_CHECK == 0 {
                cancel.check()?;
            }
            if self.re.is_match(line) {
                if self.found.len() == self.limit {
                    self.more = true;
                    return Ok(false);
                }
                let shown: String = line.chars().take(MAX_LINE_CHARS).collect();
                self.lines.push(format!("{relative}:{}: {shown}", i + 1));
                self.found.push(json!({"path": relative, "line": i + 1, "text": shown}));
            }
        }
        Ok(true)
    }

    /// The tool output; `cut` says whether the walk was cut short.
    fn finish(self, pattern: &str, cut: bool) -> ToolOutput {
        let truncated = self.more || cut;
        let mut content =
            if self.lines.is_empty() { format!("No matches for /{pattern}/.") } else { self.lines.join("\n") };
        if self.spent {
            content.push_str(&format!(
                "\n[search stopped after {} MiB of file text; narrow the path or glob]",
                MAX_SCAN_BYTES / (1024 * 1024)
            ));
        } else if truncated {
            content.push_str(&format!("\n[results truncated at {}; narrow the pattern, path or glob]", self.limit));
        }
        if let Some(notice) = self.skipped.notice() {
            content.push('\n');
            content.push_str(&notice);
        }
        let count = self.found.len();
        let details = json!({
            "content": content,
            "matches": self.found,
            "truncated": truncated || self.spent,
            "limit": self.limit,
            "skipped": self.skipped.details(),
        });
        output(details, format!("[grep /{pattern}/: {count} matches]"))
    }
}
