//! `read`: paged text reads (GA-12).
//!
//! A page is a run of whole lines starting at `offset` (1-based), at most
//! `limit` lines and 64 KiB. A line too long for one page is split: the
//! continuation then carries a `cursor` (characters into that line). Pages
//! joined back — with `"\n"` after a line continuation, directly after a
//! cursor continuation — reproduce the file byte for byte. A page streams
//! from the file (see `page.rs`): it costs O(page) memory at any offset.

use std::io::{BufReader, Read as _};

use serde_json::{Value, json};

use super::args::{invalid, output, required_string, usize_arg};
use super::blocking::{Cancel, blocking};
use super::fs::{OpenError, open_regular};
use super::page::{Request, page};
use super::root::Root;
use codemode_catalog::{Tool, ToolError, ToolFuture, ToolOutput};

/// Bytes of file text per page at most.
pub(crate) const MAX_PAGE_BYTES: usize = 64 * 1024;
/// Lines per page when no `limit` is given.
pub(crate) const DEFAULT_LINES: usize = 2000;
/// Largest file `read` opens.
const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// The `read` tool.
#[derive(Debug)]
pub struct Read {
    root: Root,
}

impl Read {
    /// `read` over `root`.
    #[must_use]
    pub fn new(root: Root) -> Self {
        Self { root }
    }
}

/// One `read` call, on the blocking pool.
fn read_page(root: &Root, input: &Value, cancel: &Cancel) -> Result<ToolOutput, ToolError> {
    let rel = required_string(input, "path")?;
    let path = root.resolve(&rel)?;
    let (file, meta) = open_regular(&path).map_err(|e| match e {
        OpenError::Directory => invalid(format!("{rel} is a directory; use ls to list it")),
        OpenError::NotRegular(what) => {
            invalid(format!("{rel} is {what}, not a regular file; read opens only regular files"))
        }
        OpenError::Io(e) => ToolError::new(format!("cannot read {rel}: {e}")),
    })?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(invalid(format!("{rel} is larger than {MAX_FILE_BYTES} bytes")));
    }
    let offset = usize_arg(input, "offset").unwrap_or(1).max(1);
    let cursor = usize_arg(input, "cursor").unwrap_or(0);
    let limit = usize_arg(input, "limit").unwrap_or(DEFAULT_LINES).max(1);
    // One byte past the bound shows a file that grew while being read.
    let reader = BufReader::with_capacity(MAX_PAGE_BYTES, file.take(MAX_FILE_BYTES + 1));
    let p = page(reader, Request { offset, cursor, limit, max_bytes: MAX_PAGE_BYTES }, &rel, cancel)?;
    if p.bytes > MAX_FILE_BYTES {
        return Err(invalid(format!("{rel} grew past {MAX_FILE_BYTES} bytes while being read")));
    }
    let total = p.total_lines;
    let mut details = json!({
        "kind": if p.next.is_some() { "truncated" } else { "text" },
        "path": rel,
        "offset": offset,
        "totalLines": total,
        "content": p.content,
    });
    let notice = match &p.next {
        Some(c) => {
            let mut cont = json!({"path": rel, "offset": c.offset});
            if let Some(cursor) = c.cursor {
                cont["cursor"] = json!(cursor);
            }
            if input.get("limit").is_some() {
                cont["limit"] = json!(limit);
            }
            details["continuation"] = cont;
            format!("[{rel}: more content from line {}]", c.offset)
        }
        None => format!("[{rel}: {total} lines]"),
    };
    Ok(output(details, notice))
}

impl Tool for Read {
    fn name(&self) -> &str {
        "read"
    }

    fn description(&self) -> &str {
        "Read a text file in the workspace, a page at a time. Check `kind`: \"truncated\" means more data is \
         available at `continuation`; read it with the same path and the returned offset, cursor and limit. Join \
         line continuations with \"\\n\" and append cursor continuations directly. Only regular UTF-8 files up \
         to 256 MiB are read; FIFOs, sockets and devices are refused."
    }

    fn input_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "File path relative to the workspace root."},
                "offset": {"type": "integer", "minimum": 1, "description": "1-based line to start at."},
                "limit": {"type": "integer", "minimum": 1, "description": "Most lines to return."},
                "cursor": {"type": "integer", "minimum": 0, "description": "Characters to skip in the first line (from a continuation)."}
            },
            "required": ["path"],
            "additionalProperties": false
        })
    }

    fn call(&self, input: Value, _context: codemode_catalog::ToolContext) -> ToolFuture<'_> {
        let root = self.root.clone();
        Box::pin(blocking(move |cancel| read_page(&root, &input, cancel)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::alloc_probe::peak_bytes_during;
    use crate::workspace::tests::TestDir;

    fn call(root: &Root, input: Value) -> Result<ToolOutput, ToolError> {
        read_page(root, &input, &Cancel::default())
    }

    #[test]
    fn reading_a_fifo_is_refused_at_once_instead_of_blocking_ga_12() {
        let dir = TestDir::new("read-fifo");
        dir.mkfifo("pipe");
        let root = Root::new(&dir.0).unwrap();
        // Before: the open blocked until a writer came, forever.
        let e = call(&root, json!({"path": "pipe"})).unwrap_err();
        assert_eq!(e.code, "invalid_input");
        assert_eq!(e.message, "pipe is a FIFO, not a regular file; read opens only regular files");
    }

    #[test]
    fn page_one_of_a_32_mib_file_of_newlines_allocates_under_1_mib_ga_12() {
        let dir = TestDir::new("read-newlines");
        let size = 32 * 1024 * 1024;
        std::fs::write(dir.0.join("nl.txt"), vec![b'\n'; size]).unwrap();
        let root = Root::new(&dir.0).unwrap();
        // Before: the whole file plus a 16-byte slice per line (≈ 544 MiB).
        let (out, peak) = peak_bytes_during(|| call(&root, json!({"path": "nl.txt"})).unwrap());
        assert_eq!(out.details["totalLines"], json!(size + 1));
        assert_eq!(out.details["content"], json!("\n".repeat(DEFAULT_LINES - 1)));
        assert_eq!(out.details["continuation"], json!({"path": "nl.txt", "offset": DEFAULT_LINES + 1}));
        assert!(peak < 1024 * 1024, "peak {peak} bytes");
    }

    #[test]
    fn a_cursor_page_deep_in_a_32_mib_one_line_file_allocates_under_1_mib_ga_12() {
        let dir = TestDir::new("read-line");
        let size = 32 * 1024 * 1024;
        std::fs::write(dir.0.join("line.txt"), "é".repeat(size / 2)).unwrap();
        let root = Root::new(&dir.0).unwrap();
        let cursor = size / 4;
        let (out, peak) =
            peak_bytes_during(|| call(&root, json!({"path": "line.txt", "offset": 1, "cursor": cursor})).unwrap());
        assert_eq!(out.details["content"], json!("é".repeat(MAX_PAGE_BYTES / 2)));
        assert_eq!(out.details["continuation"]["cursor"], json!(cursor + MAX_PAGE_BYTES / 2));
        assert!(peak < 1024 * 1024, "peak {peak} bytes");
    }

    #[test]
    fn a_missing_path_argument_is_an_error_not_the_root() {
        let dir = TestDir::new("read-missing");
        let root = Root::new(&dir.0).unwrap();
        let e = call(&root, json!({})).unwrap_err();
        assert_eq!((e.code.as_str(), e.message.as_str()), ("invalid_input", "`path` is required and must be a string"));
    }
}
