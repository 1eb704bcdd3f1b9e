//! `codemode node`: a node host. It connects to a gateway over WebSocket,
//! pairs (with a one-time code or a pre-approved token), keeps the secret
//! it is issued, and runs the commands it advertises:
//!
//! - `device.status`: platform, uptime and load;
//! - `fs.listDir` (only with `--root`): the directories under a path,
//!   confined to the root; files are never listed (GA-10.4);
//! - `--command NAME=PROGRAM ARGS…`: a program run with the params JSON on
//!   stdin, its stdout JSON the result.
//!
//! It reconnects with backoff when the gateway goes away, and stops with a
//! clear message when the gateway refuses it.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use codemode_nodes::host::{CommandHandler, HostEvent, HostOptions, run_host};
use codemode_nodes::protocol::{CommandError, Credentials, LIST_DIR_COMMAND, MAX_FRAME_BYTES};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::config::CommandToolConfig;

/// Directories listed at most per `fs.listDir`.
const MAX_LIST_ENTRIES: usize = 1000;

/// What `codemode node` was asked to do: its arguments.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct NodeOptions {
    /// The gateway's address, `ws://HOST:PORT`.
    #[arg(long)]
    pub gateway: String,
    /// The node's display name.
    #[arg(long)]
    pub name: String,
    /// The node's stable id (default: from --credentials, else a new
    /// random one).
    #[arg(long)]
    pub id: Option<String>,
    /// Offer `fs.listDir` over the directories under DIR.
    #[arg(long)]
    pub root: Option<PathBuf>,
    /// The one-time pairing code the gateway printed.
    #[arg(long)]
    pub code: Option<String>,
    /// A pre-approved token from the gateway's `[nodes] tokens`.
    #[arg(long)]
    pub token: Option<String>,
    /// Keep the node's id and secret in FILE, so a restarted node
    /// reconnects without pairing again.
    #[arg(long)]
    pub credentials: Option<PathBuf>,
    /// Offer NAME, run as PROGRAM ARGS with the params JSON on stdin and
    /// its stdout JSON as the result (repeatable).
    #[arg(long = "command", value_name = "NAME=PROGRAM ARGS")]
    pub commands: Vec<String>,
}

/// What a node keeps between runs (`--credentials FILE`).
#[derive(Debug, Default, Deserialize, Serialize)]
struct Saved {
    id: Option<String>,
    secret: Option<String>,
}

/// A command the node offers.
#[derive(Clone, Debug)]
enum Command {
    Status,
    ListDir(PathBuf),
    Program(Box<CommandToolConfig>),
}

fn parse_program(spec: &str) -> Result<(String, CommandToolConfig)> {
    let Some((name, argv)) = spec.split_once('=') else {
        bail!("--command {spec:?}: expected NAME=PROGRAM [ARGS...]");
    };
    let argv: Vec<String> = argv.split_whitespace().map(str::to_owned).collect();
    if name.trim().is_empty() || argv.is_empty() {
        bail!("--command {spec:?}: expected NAME=PROGRAM [ARGS...]");
    }
    let config = CommandToolConfig {
        name: name.trim().to_owned(),
        description: String::new(),
        label: None,
        command: argv,
        input_schema: json!({"type": "object"}),
        output_schema: None,
        // The gateway bounds each invoke; this only stops a runaway child.
        timeout_ms: 600_000,
        max_output_bytes: MAX_FRAME_BYTES / 2,
        replay_safe: false,
    };
    Ok((name.trim().to_owned(), config))
}

fn commands(options: &NodeOptions) -> Result<Vec<(String, Command)>> {
    let mut out = vec![("device.status".to_owned(), Command::Status)];
    if let Some(root) = &options.root {
        let root = root.canonicalize().with_context(|| format!("--root {}", root.display()))?;
        if !root.is_dir() {
            bail!("--root {} is not a directory", root.display());
        }
        out.push((LIST_DIR_COMMAND.to_owned(), Command::ListDir(root)));
    }
    for spec in &options.commands {
        let (name, config) = parse_program(spec)?;
        if out.iter().any(|(n, _)| *n == name) {
            bail!("--command {name}: the node already offers a command with that name");
        }
        out.push((name, Command::Program(Box::new(config))));
    }
    Ok(out)
}

fn load_saved(path: Option<&Path>) -> Result<Saved> {
    let Some(path) = path else { return Ok(Saved::default()) };
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text).with_context(|| format!("reading credentials {}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Saved::default()),
        Err(e) => Err(e).with_context(|| format!("reading credentials {}", path.display())),
    }
}

fn save(path: &Path, saved: &Saved) -> Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).with_context(|| format!("writing credentials {}", path.display()))?;
    file.write_all(serde_json::to_string(saved)?.as_bytes())?;
    Ok(())
}

/// Runs the node host until the gateway refuses it.
pub(crate) async fn run(options: NodeOptions) -> Result<()> {
    let offered = commands(&options)?;
    let mut saved = load_saved(options.credentials.as_deref())?;
    let id = match options.id.clone().or_else(|| saved.id.clone()) {
        Some(id) => id,
        // A name, not a credential (the secret the gateway issues is): 32
        // random bits tell nodes apart.
        None => codemode_protocol::ids::unguessable::<4>("node-").context("choosing a node id")?,
    };
    if saved.id.as_deref() != Some(id.as_str()) {
        // Another id's secret is of no use.
        saved = Saved { id: Some(id.clone()), secret: None };
    }
    // A secret replaces the one-time code once the node has one.
    let credentials = match &saved.secret {
        Some(secret) => Credentials { secret: Some(secret.clone()), ..Credentials::default() },
        None => Credentials { secret: None, code: options.code.clone(), token: options.token.clone() },
    };
    let host = HostOptions {
        gateway: options.gateway.clone(),
        id: id.clone(),
        name: options.name.clone(),
        platform: std::env::consts::OS.to_owned(),
        commands: offered.iter().map(|(n, _)| n.clone()).collect(),
        credentials,
    };
    let started = Instant::now();
    let offered = Arc::new(offered);
    let handler: CommandHandler = Arc::new(move |command: String, params: Value| {
        let found = offered.iter().find(|(n, _)| *n == command).map(|(_, c)| c.clone());
        Box::pin(async move {
            let done = match found {
                Some(c) => execute(c, params, started).await,
                None => Err(LocalError::NotOffered(command)),
            };
            // The gateway relays the failure's text to the cell.
            done.map_err(|e| CommandError::new(e.to_string()))
        })
    });
    let gateway = options.gateway.clone();
    let refusal = run_host(host, handler, |event| match event {
        HostEvent::Paired(secret) => {
            saved.secret = Some(secret);
            if let Some(path) = &options.credentials
                && let Err(e) = save(path, &saved)
            {
                eprintln!("codemode node: {e:#}");
            }
            eprintln!("codemode node: paired with {gateway} as {id}");
        }
        HostEvent::Connected => eprintln!("codemode node: connected to {gateway} as {id}"),
        HostEvent::Lost { reason, retry_in } => {
            eprintln!("codemode node: {reason}; reconnecting in {} ms", retry_in.as_millis());
        }
    })
    .await;
    bail!("the gateway refused this node: {refusal}")
}

/// Why a command this node offers failed; the text is what the cell reads.
#[derive(Debug, thiserror::Error)]
enum LocalError {
    /// The gateway asked for a command this node does not advertise.
    #[error("this node does not offer {0:?}")]
    NotOffered(String),
    /// `fs.listDir` params without a string `path`.
    #[error("fs.listDir takes {{path: string}}")]
    ListDirParams,
    /// The path cannot be resolved or read.
    #[error("cannot list {path:?}: {source}")]
    CannotList {
        /// The path as asked.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The path resolves outside `--root`.
    #[error("{0:?} is outside the node's root")]
    OutsideRoot(String),
    /// The path is not a directory.
    #[error("{0:?} is not a directory")]
    NotADirectory(String),
    /// The listing's blocking task panicked or was cancelled.
    #[error(transparent)]
    Listing(#[from] tokio::task::JoinError),
    /// A `--command` program failed.
    #[error(transparent)]
    Program(#[from] codemode_runtime::ToolError),
}

async fn execute(command: Command, params: Value, started: Instant) -> Result<Value, LocalError> {
    match command {
        Command::Status => Ok(device_status(started)),
        Command::ListDir(root) => {
            let path = match params.get("path") {
                None | Some(Value::Null) => ".".to_owned(),
                Some(Value::String(p)) => p.clone(),
                Some(_) => return Err(LocalError::ListDirParams),
            };
            tokio::task::spawn_blocking(move || list_dir(&root, &path)).await?
        }
        Command::Program(config) => Ok(crate::command_tool::run(*config, params).await?.details),
    }
}

fn device_status(started: Instant) -> Value {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let uptime = read("/proc/uptime")
        .and_then(|t| t.split_whitespace().next().and_then(|s| s.parse::<f64>().ok()))
        .map(|s| s.floor());
    let load: Option<Vec<f64>> = read("/proc/loadavg")
        .map(|t| t.split_whitespace().take(3).filter_map(|s| s.parse::<f64>().ok()).collect())
        .filter(|v: &Vec<f64>| v.len() == 3);
    json!({
        "platform": std::env::consts::OS,
        "arch": std::env::consts::ARCH,
        "uptimeSeconds": uptime,
        "load": load,
        "nodeUptimeSeconds": started.elapsed().as_secs(),
    })
}

/// The directories directly under `path`, which must stay inside `root`
/// (symbolic links are resolved before the check).
fn list_dir(root: &Path, path: &str) -> Result<Value, LocalError> {
    let cannot_list = |source| LocalError::CannotList { path: path.to_owned(), source };
    let relative = path.trim_start_matches('/');
    let target = root.join(if relative.is_empty() { "." } else { relative });
    let target = target.canonicalize().map_err(cannot_list)?;
    let Ok(inside) = target.strip_prefix(root) else {
        return Err(LocalError::OutsideRoot(path.to_owned()));
    };
    if !target.is_dir() {
        return Err(LocalError::NotADirectory(path.to_owned()));
    }
    let mut names: Vec<String> = std::fs::read_dir(&target)
        .map_err(cannot_list)?
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let truncated = names.len() > MAX_LIST_ENTRIES;
    names.truncate(MAX_LIST_ENTRIES);
    let shown = if inside.as_os_str().is_empty() { ".".to_owned() } else { inside.to_string_lossy().into_owned() };
    let entries: Vec<Value> = names
        .iter()
        .map(|n| {
            let p = if shown == "." { n.clone() } else { format!("{shown}/{n}") };
            json!({"name": n, "path": p})
        })
        .collect();
    Ok(json!({"path": shown, "entries": entries, "truncated": truncated}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_dir_shows_directories_only_and_stays_inside_the_root_ga_10_4() {
        let root = std::env::temp_dir().join(format!("codemode-node-root-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("a/inner")).unwrap();
        std::fs::create_dir_all(root.join("b")).unwrap();
        std::fs::write(root.join("file.txt"), "x").unwrap();
        let root = root.canonicalize().unwrap();
        let top = list_dir(&root, ".").unwrap();
        assert_eq!(top["path"], ".");
        assert_eq!(top["entries"], json!([{"name": "a", "path": "a"}, {"name": "b", "path": "b"}]));
        assert_eq!(list_dir(&root, "/a").unwrap()["entries"], json!([{"name": "inner", "path": "a/inner"}]));
        assert!(list_dir(&root, "../").unwrap_err().to_string().contains("outside the node's root"));
        assert!(list_dir(&root, "file.txt").unwrap_err().to_string().contains("not a directory"));
        assert!(list_dir(&root, "missing").unwrap_err().to_string().contains("cannot list"));
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn program_commands_are_parsed_as_name_equals_argv() {
        let (name, config) = parse_program("slow.wait=sleep 30").unwrap();
        assert_eq!(name, "slow.wait");
        assert_eq!(config.command, vec!["sleep", "30"]);
        assert!(parse_program("nothing").is_err());
        assert!(parse_program("x=").is_err());
    }
}
