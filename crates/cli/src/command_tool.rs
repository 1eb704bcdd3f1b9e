//! Command tools: a tool declared in `codemode.toml` whose calls run a
//! program with the input JSON on stdin and read a JSON result from stdout.
//!
//! Each call has a timeout and an output cap. Each call runs in its own
//! process group, and the whole group (the command and anything it started)
//! is killed when the call times out, prints more than its cap, or is
//! cancelled (the cell stopped and the call's future was dropped). A
//! non-zero exit or output that is not JSON is a clear error naming the
//! command.

use std::process::Stdio;
use std::time::Duration;

use codemode_runtime::{Tool, ToolError, ToolFuture, ToolOutput};
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Child;

use crate::config::CommandToolConfig;

/// Bytes of stderr quoted in an error.
const STDERR_TAIL: usize = 2048;

/// Bytes of stderr kept while the command runs; the rest is read and
/// dropped, so a chatty command neither blocks on a full pipe nor grows
/// the host's memory.
const STDERR_KEEP: usize = 64 * 1024;

/// Why a command tool call failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CommandToolError {
    /// The program could not be started.
    #[error("command tool `{name}` could not start `{program}`: {source}")]
    Start {
        /// The tool.
        name: String,
        /// The program.
        program: String,
        /// What the OS said.
        source: std::io::Error,
    },
    /// Stdout went past `max_output_bytes`; the command was killed then.
    #[error(
        "command tool `{name}` printed more than {cap} bytes and was killed; make it print less or raise max_output_bytes"
    )]
    OutputTooLarge {
        /// The tool.
        name: String,
        /// Its `max_output_bytes`.
        cap: usize,
    },
    /// The call took longer than `timeout_ms`.
    #[error("command tool `{name}` timed out after {timeout_ms} ms and was killed")]
    TimedOut {
        /// The tool.
        name: String,
        /// Its `timeout_ms`.
        timeout_ms: u64,
    },
    /// Reading its output or waiting for it failed.
    #[error("command tool `{name}`: {what} failed: {source}")]
    Io {
        /// The tool.
        name: String,
        /// What was being done.
        what: &'static str,
        /// What the OS said.
        source: std::io::Error,
    },
    /// It exited unsuccessfully.
    #[error("command tool `{name}` exited with {code}: {stderr}")]
    Exited {
        /// The tool.
        name: String,
        /// `status N` or `a signal`.
        code: String,
        /// The end of its stderr.
        stderr: String,
    },
    /// Its stdout was not one JSON value.
    #[error("command tool `{name}` printed invalid JSON ({source}); it must print one JSON value on stdout")]
    InvalidJson {
        /// The tool.
        name: String,
        /// What the parser said.
        source: serde_json::Error,
    },
}

impl From<CommandToolError> for ToolError {
    fn from(e: CommandToolError) -> Self {
        ToolError::new(e.to_string())
    }
}

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

/// A started command that has not been waited for yet. Dropping it before
/// [`wait`](Self::wait) returns kills the command's whole process group:
/// that covers the timeout, an output overflow and a cancelled call alike.
struct Running {
    child: Child,
    /// The process group, which is the child's pid (`process_group(0)`).
    /// While the child is not reaped its pid cannot be reused, so killing
    /// this group before then never reaches an unrelated process.
    group: Option<u32>,
}

impl Running {
    /// Waits for the command to exit; after that its group is not killed.
    async fn wait(&mut self) -> std::io::Result<std::process::ExitStatus> {
        let status = self.child.wait().await?;
        self.group = None;
        Ok(status)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(group) = self.group.take() {
            kill_group(group);
        }
    }
}

/// Sends SIGKILL to every process in `group`. A group that is already gone
/// is fine; the child itself is also killed by `kill_on_drop`.
#[cfg(unix)]
fn kill_group(group: u32) {
    use nix::sys::signal::{Signal, killpg};
    use nix::unistd::Pid;
    if let Ok(raw) = i32::try_from(group) {
        let _ = killpg(Pid::from_raw(raw), Signal::SIGKILL);
    }
}

#[cfg(not(unix))]
fn kill_group(_group: u32) {}

/// Reads `reader` to its end, failing as soon as it yields more than `cap`
/// bytes (`Ok(None)`), without reading the rest.
async fn read_capped(reader: &mut (impl AsyncRead + Unpin), cap: usize) -> std::io::Result<Option<Vec<u8>>> {
    let mut out = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = reader.read(&mut chunk).await?;
        if n == 0 {
            return Ok(Some(out));
        }
        if out.len() + n > cap {
            return Ok(None);
        }
        out.extend_from_slice(&chunk[..n]);
    }
}

/// Reads `reader` to its end, keeping only about the last [`STDERR_KEEP`]
/// bytes. A read error ends the reading; stderr only decorates errors.
async fn read_tail(reader: &mut (impl AsyncRead + Unpin)) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut chunk = vec![0u8; 16 * 1024];
    while let Ok(n) = reader.read(&mut chunk).await {
        if n == 0 {
            break;
        }
        kept.extend_from_slice(&chunk[..n]);
        if kept.len() > 2 * STDERR_KEEP {
            kept.drain(..kept.len() - STDERR_KEEP);
        }
    }
    kept
}

pub(crate) async fn run(config: CommandToolConfig, input: Value) -> Result<ToolOutput, ToolError> {
    let timeout = Duration::from_millis(config.timeout_ms);
    match tokio::time::timeout(timeout, call(&config, input)).await {
        Ok(result) => result.map_err(ToolError::from),
        // The call's future was dropped with its `Running`: the group is dead.
        Err(_) => Err(CommandToolError::TimedOut { name: config.name.clone(), timeout_ms: config.timeout_ms }.into()),
    }
}

async fn call(config: &CommandToolConfig, input: Value) -> Result<ToolOutput, CommandToolError> {
    let name = config.name.as_str();
    let program = &config.command[0];
    let mut command = tokio::process::Command::new(program);
    command
        .args(&config.command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // The leader is killed (and reaped) when dropped; its group by `Running`.
        .kill_on_drop(true);
    // Its own group, so everything it starts can be killed with it.
    #[cfg(unix)]
    command.process_group(0);
    let mut child = command.spawn().map_err(|source| CommandToolError::Start {
        name: name.to_owned(),
        program: program.clone(),
        source,
    })?;
    let pipes = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    let group = child.id();
    let mut running = Running { child, group };
    let (Some(mut stdin), Some(mut stdout), Some(mut stderr)) = pipes else {
        let source = std::io::Error::other("a pipe to the command is missing");
        return Err(CommandToolError::Io { name: name.to_owned(), what: "starting", source });
    };
    let cap = config.max_output_bytes;
    let payload = input.to_string();
    // A command that does not read its input must not block the call.
    let write = async move {
        let _ = stdin.write_all(payload.as_bytes()).await;
        drop(stdin);
        Ok::<(), CommandToolError>(())
    };
    let read_out = async {
        match read_capped(&mut stdout, cap).await {
            Ok(Some(out)) => Ok(out),
            // Stop at once: `running` is dropped on return and kills the group.
            Ok(None) => Err(CommandToolError::OutputTooLarge { name: name.to_owned(), cap }),
            Err(source) => Err(CommandToolError::Io { name: name.to_owned(), what: "reading its output", source }),
        }
    };
    let read_err = async { Ok::<_, CommandToolError>(read_tail(&mut stderr).await) };
    let ((), out, err) = tokio::try_join!(write, read_out, read_err)?;
    let status = running.wait().await.map_err(|source| CommandToolError::Io {
        name: name.to_owned(),
        what: "waiting for it",
        source,
    })?;
    if !status.success() {
        let code = status.code().map_or_else(|| "a signal".to_owned(), |c| format!("status {c}"));
        return Err(CommandToolError::Exited { name: name.to_owned(), code, stderr: tail(&err) });
    }
    let details: Value = serde_json::from_slice(&out)
        .map_err(|source| CommandToolError::InvalidJson { name: name.to_owned(), source })?;
    Ok(ToolOutput::json(details))
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

    fn replay_safe(&self) -> bool {
        self.config.replay_safe
    }

    fn call(&self, input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        Box::pin(run(self.config.clone(), input))
    }
}
