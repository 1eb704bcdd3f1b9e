//! `codemode session`: the JSON-lines scripting interface.
//!
//! Each input line is one request object:
//!
//! - `{"op":"exec","code":"…","title":"…","restartSafe":false}`
//! - `{"op":"wait","runId":"…"}`
//! - `{"op":"abort","runId":"…"}`
//!
//! Each request gets exactly one output line: the compact model-facing
//! result JSON (`{"status":…}`). A line that is not a valid request gets a
//! `failed`/`invalid_input` result naming the problem. Requests are handled
//! in order, in one process, so parked cells live across requests.

use anyhow::Result;
use codemode_runtime::{CellResult, CodeMode, ErrorCode, Exec};
use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "lowercase", deny_unknown_fields)]
enum Request {
    Exec {
        code: String,
        #[serde(default)]
        title: Option<String>,
        #[serde(default, rename = "restartSafe")]
        restart_safe: bool,
    },
    Wait {
        #[serde(rename = "runId")]
        run_id: String,
    },
    Abort {
        #[serde(rename = "runId")]
        run_id: String,
    },
}

pub(crate) async fn serve(rt: &CodeMode, session: &str) -> Result<()> {
    let reply = rt.session(session).reply("session");
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut stdout = tokio::io::stdout();
    while let Some(line) = lines.next_line().await? {
        if line.trim().is_empty() {
            continue;
        }
        let result = match serde_json::from_str::<Request>(&line) {
            Ok(Request::Exec { code, title, restart_safe }) => {
                let mut exec = Exec::code(code).restart_safe(restart_safe);
                if let Some(title) = title {
                    exec = exec.title(title);
                }
                reply.exec(exec).await?
            }
            Ok(Request::Wait { run_id }) => reply.wait(&run_id).await?,
            Ok(Request::Abort { run_id }) => reply.abort(&run_id).await?,
            Err(e) => CellResult::input_error(
                ErrorCode::InvalidInput,
                format!("invalid session request: {e}. Send one JSON object per line with op exec, wait or abort."),
            ),
        };
        let mut text = result.to_model_json();
        text.push('\n');
        stdout.write_all(text.as_bytes()).await?;
        stdout.flush().await?;
    }
    Ok(())
}
