//! Command tools: a tool declared in `codemode.toml` whose calls run a
//! program with the input JSON on stdin and read a JSON result from stdout.
//!
//! Each call has a timeout and an output cap; the child is killed when the
//! call is cancelled (the cell stopped) or times out. A non-zero exit or
//! output that is not JSON is a clear error naming the command.

use std::process::Stdio;
use std::time::Duration;

use codemode_runtime::{Tool, ToolError, ToolFuture, ToolOutput};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::config::CommandToolConfig;

/// Bytes of stderr quoted in an error.
const STDERR_TAIL: usize = 2048;

/// A tool that runs a command.
#[derive(Debug)]
pub(crate) struct CommandTool {
    config: CommandToolConfig,
}

impl CommandTool {
    pub(crate) fn new(config: CommandToolConfig) -> Self {
        Self { config }
    }
}

fn tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let trimmed = text.trim();
    let start = trimmed.len().saturating_sub(STDERR_TAIL);
    let mut start_char = start;
    while !trimmed.is_char_boundary(start_char) {
        start_char += 1;
    }
    trimmed[start_char..].to_owned()
}

pub(crate) async fn run(config: CommandToolConfig, input: Value) -> Result<ToolOutput, ToolError> {
    let name = config.name.clone();
    let program = &config.command[0];
    let mut child = tokio::process::Command::new(program)
        .args(&config.command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Dropping the call (a stopped cell) or the timeout kills the child.
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| ToolError::new(format!("command tool `{name}` could not start `{program}`: {e}")))?;
    let mut stdin = child.stdin.take().ok_or_else(|| ToolError::new("no stdin pipe"))?;
    let mut stdout = child.stdout.take().ok_or_else(|| ToolError::new("no stdout pipe"))?;
    let mut stderr = child.stderr.take().ok_or_else(|| ToolError::new("no stderr pipe"))?;
    let cap = config.max_output_bytes;
    let work = async move {
        let payload = input.to_string();
        // A command that does not read its input must not block the call.
        let write = async move {
            let _ = stdin.write_all(payload.as_bytes()).await;
            drop(stdin);
        };
        let mut out = Vec::new();
        let read_out = async {
            let mut limited = (&mut stdout).take(cap as u64 + 1);
            limited.read_to_end(&mut out).await
        };
        let mut err = Vec::new();
        let read_err = async {
            let mut limited = (&mut stderr).take(64 * 1024);
            limited.read_to_end(&mut err).await
        };
        let ((), out_result, _) = tokio::join!(write, read_out, read_err);
        out_result.map_err(|e| ToolError::new(format!("command tool `{name}`: reading its output failed: {e}")))?;
        if out.len() > cap {
            return Err(ToolError::new(format!(
                "command tool `{name}` printed more than {cap} bytes; make it print less or raise max_output_bytes"
            )));
        }
        let status = child.wait().await.map_err(|e| ToolError::new(format!("command tool `{name}`: {e}")))?;
        if !status.success() {
            let code = status.code().map_or_else(|| "a signal".to_owned(), |c| format!("status {c}"));
            return Err(ToolError::new(format!("command tool `{name}` exited with {code}: {}", tail(&err))));
        }
        let details: Value = serde_json::from_slice(&out).map_err(|e| {
            ToolError::new(format!(
                "command tool `{name}` printed invalid JSON ({e}); it must print one JSON value on stdout"
            ))
        })?;
        Ok(ToolOutput::json(details))
    };
    match tokio::time::timeout(Duration::from_millis(config.timeout_ms), work).await {
        Ok(result) => result,
        Err(_) => Err(ToolError::new(format!(
            "command tool `{}` timed out after {} ms and was killed",
            config.name, config.timeout_ms
        ))),
    }
}

impl Tool for CommandTool {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn description(&self) -> &str {
        &self.config.description
    }

    fn label(&self) -> Option<&str> {
        self.config.label.as_deref()
    }

    fn input_schema(&self) -> Value {
        self.config.input_schema.clone()
    }

    fn output_schema(&self) -> Option<Value> {
        self.config.output_schema.clone()
    }

    fn call(&self, input: Value) -> ToolFuture<'_> {
        Box::pin(run(self.config.clone(), input))
    }
}
