//! `read`: paged text reads (GA-12).
//!
//! A page is a run of whole lines starting at `offset` (1-based), at most
//! `limit` lines and 64 KiB. A line too long for one page is split: the
//! continuation then carries a `cursor` (characters into that line). Pages
//! joined back — with `"\n"` after a line continuation, directly after a
//! cursor continuation — reproduce the file byte for byte.

use serde_json::{Value, json};

use super::{Root, blocking, invalid, output, string_arg, usize_arg};
use crate::tool::{Tool, ToolError, ToolFuture};

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

/// Where the next page starts.
#[derive(Debug, PartialEq, Eq)]
struct Continuation {
    offset: usize,
    cursor: Option<usize>,
}

/// One page of `text`: (content, continuation).
fn page(
    text: &str,
    offset: usize,
    cursor: usize,
    limit: usize,
) -> Result<(String, Option<Continuation>, usize), ToolError> {
    let lines: Vec<&str> = text.split('\n').collect();
    let total = lines.len();
    if offset > total {
        return Err(invalid(format!("offset {offset} is past the end of the file ({total} lines)")));
    }
    let mut content = String::new();
    let mut line_no = offset;
    let mut taken_lines = 0;
    while line_no <= total {
        if taken_lines == limit {
            return Ok((content, Some(Continuation { offset: line_no, cursor: None }), total));
        }
        let mut line = lines[line_no - 1];
        let mut skipped_chars = 0;
        if taken_lines == 0 && cursor > 0 {
            let start = line.char_indices().nth(cursor).map_or(line.len(), |(i, _)| i);
            line = &line[start..];
            skipped_chars = cursor;
        }
        let separator = usize::from(taken_lines > 0);
        if content.len() + separator + line.len() > MAX_PAGE_BYTES {
            if taken_lines > 0 {
                return Ok((content, Some(Continuation { offset: line_no, cursor: None }), total));
            }
            // One line longer than a page: split it.
            let mut end = MAX_PAGE_BYTES;
            while !line.is_char_boundary(end) {
                end -= 1;
            }
            content.push_str(&line[..end]);
            let chars = line[..end].chars().count();
            return Ok((content, Some(Continuation { offset: line_no, cursor: Some(skipped_chars + chars) }), total));
        }
        if separator == 1 {
            content.push('\n');
        }
        content.push_str(line);
        taken_lines += 1;
        line_no += 1;
    }
    Ok((content, None, total))
}

impl Tool for Read {
    fn name(&self) -> &str {
        "read"
    }

    fn description(&self) -> &str {
        "Read a text file in the workspace, a page at a time. Check `kind`: \"truncated\" means more data is \
         available at `continuation`; read it with the same path and the returned offset, cursor and limit. Join \
         line continuations with \"\\n\" and append cursor continuations directly."
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

    fn call(&self, input: Value) -> ToolFuture<'_> {
        let root = self.root.clone();
        Box::pin(blocking(move || {
            let rel = string_arg(&input, "path").unwrap_or_default();
            let path = root.resolve(&rel)?;
            let meta = std::fs::metadata(&path).map_err(|e| ToolError::new(format!("cannot read {rel}: {e}")))?;
            if meta.is_dir() {
                return Err(invalid(format!("{rel} is a directory; use ls to list it")));
            }
            if meta.len() > MAX_FILE_BYTES {
                return Err(invalid(format!("{rel} is larger than {MAX_FILE_BYTES} bytes")));
            }
            let bytes = std::fs::read(&path).map_err(|e| ToolError::new(format!("cannot read {rel}: {e}")))?;
            let text = String::from_utf8(bytes).map_err(|_| invalid(format!("{rel} is not UTF-8 text")))?;
            let offset = usize_arg(&input, "offset").unwrap_or(1).max(1);
            let cursor = usize_arg(&input, "cursor").unwrap_or(0);
            let limit = usize_arg(&input, "limit").unwrap_or(DEFAULT_LINES).max(1);
            let (content, next, total) = page(&text, offset, cursor, limit)?;
            let mut details = json!({
                "kind": if next.is_some() { "truncated" } else { "text" },
                "path": rel,
                "offset": offset,
                "totalLines": total,
                "content": content,
            });
            let notice = match &next {
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
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &str, limit: usize) -> String {
        let (mut offset, mut cursor, mut out) = (1, 0, String::new());
        let mut first = true;
        let mut joined_by_cursor = false;
        loop {
            let (content, next, _) = page(text, offset, cursor, limit).unwrap();
            if !first && !joined_by_cursor {
                out.push('\n');
            }
            out.push_str(&content);
            first = false;
            match next {
                Some(c) => {
                    joined_by_cursor = c.cursor.is_some();
                    offset = c.offset;
                    cursor = c.cursor.unwrap_or(0);
                }
                None => return out,
            }
        }
    }

    #[test]
    fn pages_join_back_to_the_original_text() {
        for text in ["", "a", "a\n", "a\nb\n\nc", &"x".repeat(200_000), &format!("{}\n{}\n", "é".repeat(70_000), "y")]
        {
            assert_eq!(read_all(text, 2), text);
            assert_eq!(read_all(text, 2000), text);
        }
    }

    #[test]
    fn limits_and_offsets_are_respected() {
        let (content, next, total) = page("a\nb\nc", 2, 0, 1).unwrap();
        assert_eq!((content.as_str(), next, total), ("b", Some(Continuation { offset: 3, cursor: None }), 3));
        assert!(page("a", 3, 0, 1).is_err());
    }
}
