//! The streaming pager behind `read` (GA-12): one page of a UTF-8 text
//! stream in O(page) memory.
//!
//! A page is a run of whole lines starting at `offset` (1-based), at most
//! `limit` lines and `max_bytes`. A line too long for one page is split: the
//! continuation then carries a `cursor` (characters into that line). Pages
//! joined back — with `"\n"` after a line continuation, directly after a
//! cursor continuation — reproduce the stream byte for byte.
//!
//! The whole stream is read once per page: to reach `offset`, to count its
//! lines (`totalLines`) and to refuse a stream that is not UTF-8 anywhere,
//! but only the page itself (and one line of at most `max_bytes`) is held.

use std::io::BufRead;

use super::args::invalid;
use super::blocking::Cancel;
use codemode_catalog::ToolError;

/// What page to cut.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Request {
    /// 1-based first line.
    pub(crate) offset: usize,
    /// Characters to skip in the first line.
    pub(crate) cursor: usize,
    /// Most lines.
    pub(crate) limit: usize,
    /// Most bytes of text.
    pub(crate) max_bytes: usize,
}

/// Where the next page starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Continuation {
    /// 1-based line.
    pub(crate) offset: usize,
    /// Characters into that line, for a split line.
    pub(crate) cursor: Option<usize>,
}

/// One page.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Page {
    /// The page's text.
    pub(crate) content: String,
    /// The next page, when there is more.
    pub(crate) next: Option<Continuation>,
    /// Lines in the whole stream (`\n`-separated, so `"a\n"` has two).
    pub(crate) total_lines: usize,
    /// Bytes in the whole stream.
    pub(crate) bytes: u64,
}

/// Cuts the page `req` asks for out of `reader`; `name` names it in errors.
///
/// # Errors
/// A read failure, a stream that is not UTF-8, an `offset` past the end,
/// or cancellation.
pub(crate) fn page(mut reader: impl BufRead, req: Request, name: &str, cancel: &Cancel) -> Result<Page, ToolError> {
    // A page holds at least one whole character (4 bytes), so paging always
    // progresses.
    let req = Request { offset: req.offset.max(1), limit: req.limit.max(1), max_bytes: req.max_bytes.max(4), ..req };
    let mut pager = Pager::new(req);
    let mut utf8 = Utf8Check::default();
    let mut bytes = 0u64;
    let not_utf8 = || invalid(format!("{name} is not UTF-8 text"));
    loop {
        cancel.check()?;
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ToolError::new(format!("cannot read {name}: {e}"))),
        };
        if chunk.is_empty() {
            break;
        }
        // Validated before use, so page text is always checked text.
        utf8.feed(chunk).map_err(|()| not_utf8())?;
        pager.feed(chunk);
        let n = chunk.len();
        bytes += n as u64;
        reader.consume(n);
    }
    utf8.finish().map_err(|()| not_utf8())?;
    let (content, next, total_lines) = pager.finish()?;
    let content = String::from_utf8(content).map_err(|_| not_utf8())?;
    Ok(Page { content, next, total_lines, bytes })
}

#[derive(Clone, Copy, Debug)]
enum Phase {
    /// Before line `offset`.
    Skip,
    /// Skipping `cursor` characters; this many are left.
    Cursor(usize),
    /// Taking lines into the page.
    Collect,
    /// The page is cut; only counting lines.
    Count,
}

struct Pager {
    req: Request,
    phase: Phase,
    /// The 1-based line the stream is in.
    line_no: usize,
    /// Whole lines taken.
    taken: usize,
    content: Vec<u8>,
    /// The line being taken, at most `max_bytes + 1` bytes.
    line: Vec<u8>,
    next: Option<Continuation>,
}

fn is_continuation_byte(b: u8) -> bool {
    b & 0xC0 == 0x80
}

impl Pager {
    fn new(req: Request) -> Self {
        let phase = if req.offset == 1 { Phase::Cursor(req.cursor) } else { Phase::Skip };
        Self { req, phase, line_no: 1, taken: 0, content: Vec::new(), line: Vec::new(), next: None }
    }

    /// Page bytes if the current line were taken now.
    fn used(&self) -> usize {
        self.content.len() + usize::from(self.taken > 0) + self.line.len()
    }

    fn feed(&mut self, mut buf: &[u8]) {
        while !buf.is_empty() {
            match self.phase {
                Phase::Skip => match memchr::memchr(b'\n', buf) {
                    Some(i) => {
                        self.line_no += 1;
                        buf = &buf[i + 1..];
                        if self.line_no == self.req.offset {
                            self.phase = Phase::Cursor(self.req.cursor);
                        }
                    }
                    None => buf = &[],
                },
                Phase::Cursor(mut left) => {
                    let mut consumed = buf.len();
                    let mut done = false;
                    for (i, &b) in buf.iter().enumerate() {
                        if b == b'\n' || (left == 0 && !is_continuation_byte(b)) {
                            (consumed, done) = (i, true);
                            break;
                        }
                        if !is_continuation_byte(b) {
                            left -= 1;
                        }
                    }
                    buf = &buf[consumed..];
                    self.phase = if done { Phase::Collect } else { Phase::Cursor(left) };
                }
                Phase::Collect => {
                    let end = memchr::memchr(b'\n', buf);
                    let available = end.unwrap_or(buf.len());
                    // One byte past the budget is enough to know it overflows.
                    let room = (self.req.max_bytes + 1).saturating_sub(self.used());
                    let take = available.min(room);
                    self.line.extend_from_slice(&buf[..take]);
                    buf = &buf[take..];
                    if self.used() > self.req.max_bytes {
                        self.cut();
                    } else if end.is_some() {
                        buf = &buf[1..];
                        self.take_line();
                        self.line_no += 1;
                        if self.taken == self.req.limit {
                            self.next = Some(Continuation { offset: self.line_no, cursor: None });
                            self.phase = Phase::Count;
                        }
                    }
                }
                Phase::Count => {
                    self.line_no += memchr::memchr_iter(b'\n', buf).count();
                    buf = &[];
                }
            }
        }
    }

    /// Appends the current (complete) line to the page.
    fn take_line(&mut self) {
        if self.taken > 0 {
            self.content.push(b'\n');
        }
        self.content.append(&mut self.line);
        self.taken += 1;
    }

    /// The current line does not fit: end the page before it, or split it
    /// when it is the page's first line.
    fn cut(&mut self) {
        if self.taken > 0 {
            self.next = Some(Continuation { offset: self.line_no, cursor: None });
        } else {
            let line = &self.line;
            // `line` holds `max_bytes + 1` bytes and `max_bytes >= 4`, so a
            // character boundary is found before reaching 0.
            let mut end = self.req.max_bytes.min(line.len());
            while end > 0 && line.get(end).is_some_and(|&b| is_continuation_byte(b)) {
                end -= 1;
            }
            let chars = line[..end].iter().filter(|&&b| !is_continuation_byte(b)).count();
            self.content.extend_from_slice(&line[..end]);
            self.next = Some(Continuation { offset: self.line_no, cursor: Some(self.req.cursor + chars) });
        }
        self.line = Vec::new();
        self.phase = Phase::Count;
    }

    fn finish(mut self) -> Result<(Vec<u8>, Option<Continuation>, usize), ToolError> {
        match self.phase {
            Phase::Skip => {
                let (offset, total) = (self.req.offset, self.line_no);
                return Err(invalid(format!("offset {offset} is past the end of the file ({total} lines)")));
            }
            Phase::Cursor(_) | Phase::Collect => {
                // The last line has no newline after it.
                if self.used() > self.req.max_bytes {
                    self.cut();
                } else {
                    self.take_line();
                }
            }
            Phase::Count => {}
        }
        Ok((self.content, self.next, self.line_no))
    }
}

/// Checks that a stream fed in arbitrary chunks is UTF-8, carrying a
/// character split across chunks.
#[derive(Default)]
struct Utf8Check {
    carry: Vec<u8>,
}

impl Utf8Check {
    fn feed(&mut self, mut chunk: &[u8]) -> Result<(), ()> {
        while !self.carry.is_empty() {
            let Some((&b, rest)) = chunk.split_first() else { return Ok(()) };
            self.carry.push(b);
            chunk = rest;
            match std::str::from_utf8(&self.carry) {
                Ok(_) => self.carry.clear(),
                Err(e) if e.error_len().is_some() || self.carry.len() >= 4 => return Err(()),
                Err(_) => {}
            }
        }
        match std::str::from_utf8(chunk) {
            Ok(_) => Ok(()),
            // An incomplete character at the end: wait for the next chunk.
            Err(e) if e.error_len().is_none() => {
                self.carry.extend_from_slice(&chunk[e.valid_up_to()..]);
                Ok(())
            }
            Err(_) => Err(()),
        }
    }

    fn finish(&self) -> Result<(), ()> {
        if self.carry.is_empty() { Ok(()) } else { Err(()) }
    }
}

#[cfg(test)]
#[path = "page_tests.rs"]
mod tests;
