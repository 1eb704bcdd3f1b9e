//! `codemode session`: the JSON-lines scripting interface.
//!
//! Each input line is one request object:
//!
//! - `{"op":"exec","code":"…","title":"…","restartSafe":false}` (`command`
//!   is an alias of `code`, as in `serve`'s `exec`)
//! - `{"op":"wait","runId":"…"}`, with decisions on pending approvals:
//!   `"approve":["appr_…"]`, `"deny":[{"id":"appr_…","reason":"…"}]`
//! - `{"op":"abort","runId":"…"}`
//!
//! Each request gets exactly one output line: the compact model-facing
//! result JSON (`{"status":…}`). A line that is not a valid request —
//! malformed JSON, invalid UTF-8, a byte-order mark, longer than the line
//! bound — gets a `failed`/`invalid_input` result naming the problem, and
//! the process goes on: parked cells survive a bad line. Requests are
//! handled in order, in one process, so parked cells live across requests.

use anyhow::Result;
use codemode_runtime::{CellResult, CodeMode, Decisions, Denial, ErrorCode, Exec, Reply};
use serde::Deserialize;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};

/// The default bound of one request line, in bytes (newline excluded).
pub(crate) const DEFAULT_MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase", deny_unknown_fields)]
enum Request {
    Exec {
        #[serde(default)]
        code: Option<String>,
        /// An alias of `code`, as in `codemode serve`'s `exec`.
        #[serde(default)]
        command: Option<String>,
        #[serde(default)]
        title: Option<String>,
        #[serde(default, rename = "restartSafe")]
        restart_safe: bool,
    },
    Wait {
        #[serde(rename = "runId")]
        run_id: String,
        #[serde(default)]
        approve: Vec<String>,
        #[serde(default)]
        deny: Vec<Denial>,
    },
    Abort {
        #[serde(rename = "runId")]
        run_id: String,
    },
}

/// One line of input, read within the bound.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// The line's bytes, without the newline.
    Bytes(Vec<u8>),
    /// The line was longer than the bound: its first bytes were dropped
    /// as they arrived, never held whole. Carries the line's length.
    TooLong(usize),
}

/// Reads one `\n`-terminated line of at most `max` bytes (a final line
/// without a newline counts). Past `max`, the rest of the line is read and
/// discarded so memory stays bounded by `max`. `None` at end of input.
async fn read_line(input: &mut (impl AsyncBufRead + Unpin), max: usize) -> std::io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut len = 0usize;
    let mut seen_any = false;
    loop {
        let buf = input.fill_buf().await?;
        if buf.is_empty() {
            return Ok(seen_any.then(|| finish(line, len, max)));
        }
        seen_any = true;
        let (chunk, newline) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], true),
            None => (buf, false),
        };
        len = len.saturating_add(chunk.len());
        if len <= max {
            line.extend_from_slice(chunk);
        } else if !line.is_empty() {
            line = Vec::new();
        }
        let used = chunk.len() + usize::from(newline);
        input.consume(used);
        if newline {
            return Ok(Some(finish(line, len, max)));
        }
    }
}

fn finish(mut line: Vec<u8>, len: usize, max: usize) -> Line {
    if len > max {
        return Line::TooLong(len);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Line::Bytes(line)
}

/// Why a line cannot be a request; answered as an `invalid_input` result.
#[derive(Debug, thiserror::Error)]
enum BadLine {
    /// Longer than `--max-line-bytes`.
    #[error(
        "invalid session request: the line is {len} bytes, over the {max}-byte limit (--max-line-bytes). \
         Send smaller requests; for a large input, save it to a file a tool can read."
    )]
    TooLong {
        /// The line's length.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// Starts with a UTF-8 byte-order mark.
    #[error(
        "invalid session request: the line starts with a UTF-8 byte-order mark (EF BB BF); \
         send plain UTF-8 JSON without a BOM."
    )]
    ByteOrderMark,
    /// Not UTF-8.
    #[error("invalid session request: the line is not valid UTF-8 (bad byte at offset {offset}); send UTF-8 JSON.")]
    NotUtf8 {
        /// Where the first bad byte is.
        offset: usize,
    },
    /// Not a request object.
    #[error("invalid session request: {0}. Send one JSON object per line with op exec, wait or abort.")]
    NotARequest(#[source] serde_json::Error),
}

/// What a line asks for (`None`: a blank line), or why it cannot be a
/// request.
fn parse(line: &Line, max: usize) -> Result<Option<Request>, BadLine> {
    let bytes = match line {
        Line::TooLong(len) => return Err(BadLine::TooLong { len: *len, max }),
        Line::Bytes(bytes) => bytes,
    };
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(BadLine::ByteOrderMark);
    }
    let text = std::str::from_utf8(bytes).map_err(|e| BadLine::NotUtf8 { offset: e.valid_up_to() })?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    serde_json::from_str::<Request>(text).map(Some).map_err(BadLine::NotARequest)
}

async fn answer(reply: &Reply, request: Request) -> CellResult {
    let outcome = match request {
        Request::Exec { code, command, title, restart_safe } => {
            let code = match codemode_protocol::calls::code_or_command(code.as_deref(), command.as_deref()) {
                Ok(code) => code,
                Err(e) => return CellResult::input_error(ErrorCode::InvalidInput, e.to_string()),
            };
            let mut exec = Exec::code(code).restart_safe(restart_safe);
            if let Some(title) = title {
                exec = exec.title(title);
            }
            reply.exec(exec).await
        }
        Request::Wait { run_id, approve, deny } => reply.wait_with(&run_id, Decisions { approve, deny }).await,
        Request::Abort { run_id } => reply.abort(&run_id).await,
    };
    // The runtime failing one request (it is shutting down, say) is an
    // answer for that request, not the end of the session.
    outcome.unwrap_or_else(|e| CellResult::input_error(ErrorCode::RuntimeUnavailable, e.to_string()))
}

pub(crate) async fn serve(rt: &CodeMode, session: &str, max_line_bytes: usize) -> Result<()> {
    let reply = rt.session(session).reply("session");
    let mut input = BufReader::new(tokio::io::stdin());
    let mut stdout = tokio::io::stdout();
    while let Some(line) = read_line(&mut input, max_line_bytes).await? {
        let result = match parse(&line, max_line_bytes) {
            Ok(None) => continue,
            Ok(Some(request)) => answer(&reply, request).await,
            Err(bad) => CellResult::input_error(ErrorCode::InvalidInput, bad.to_string()),
        };
        let mut text = result.to_model_json();
        text.push('\n');
        stdout.write_all(text.as_bytes()).await?;
        stdout.flush().await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines(input: &[u8], max: usize) -> Vec<Line> {
        let mut reader = BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        while let Some(line) = read_line(&mut reader, max).await.unwrap() {
            out.push(line);
        }
        out
    }

    #[tokio::test]
    async fn lines_exactly_at_the_bound_are_read_and_one_byte_over_is_refused() {
        let input = b"12345\n123456\r\nabc";
        assert_eq!(
            lines(input, 5).await,
            vec![Line::Bytes(b"12345".to_vec()), Line::TooLong(7), Line::Bytes(b"abc".to_vec())]
        );
        assert_eq!(lines(b"", 5).await, Vec::<Line>::new());
        assert_eq!(lines(b"\n", 5).await, vec![Line::Bytes(Vec::new())]);
    }

    #[tokio::test]
    async fn bad_lines_are_named_not_fatal() {
        let bom = parse(&Line::Bytes(b"\xEF\xBB\xBF{}".to_vec()), 10).unwrap_err().to_string();
        assert!(bom.contains("byte-order mark"), "{bom}");
        let utf8 = parse(&Line::Bytes(b"{\"op\":\xff}".to_vec()), 10).unwrap_err().to_string();
        assert!(utf8.contains("not valid UTF-8 (bad byte at offset 6)"), "{utf8}");
        let long = parse(&Line::TooLong(11), 10).unwrap_err().to_string();
        assert!(long.contains("11 bytes, over the 10-byte limit"), "{long}");
        assert!(parse(&Line::Bytes(b"  ".to_vec()), 10).unwrap().is_none());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        /// No input line, however malformed, panics the parser; memory
        /// held per line never passes the bound.
        #[test]
        fn any_bytes_read_and_parse_without_panicking(input in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..512), max in 1usize..64) {
            let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
            let got = runtime.block_on(lines(&input, max));
            for line in &got {
                if let Line::Bytes(bytes) = line {
                    proptest::prop_assert!(bytes.len() <= max);
                }
                let _ = parse(line, max);
            }
        }
    }
}
