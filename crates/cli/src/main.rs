//! `codemode`: run code-mode cells from the command line.

mod session;

use std::io::Read;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use codemode_runtime::{CellResult, CodeMode, Exec, Output, OutputEntry};

#[derive(Parser)]
#[command(name = "codemode", version, about = "Run code-mode cells: small JavaScript programs that call tools.")]
struct Cli {
    /// Where the session store keeps its sled database.
    #[arg(long, global = true, default_value = ".codemode/store")]
    store: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run one cell from FILE (or `-` for stdin) and print its result.
    Exec {
        /// The cell's JavaScript source file, or `-` to read stdin.
        file: PathBuf,
        /// Print the first result only, even if the cell parks.
        #[arg(long)]
        no_wait: bool,
        /// One compact JSON result per line instead of human-readable text.
        #[arg(long)]
        json: bool,
        /// A title for the cell.
        #[arg(long)]
        title: Option<String>,
    },
    /// Serve exec/wait/abort requests as JSON lines on stdin, one result line
    /// per request on stdout (see README "Scripting interface").
    Session {
        /// The session id cells are bound to.
        #[arg(long, default_value = "cli")]
        session: String,
    },
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    // Drive everything from a task: the block_on thread wakes slowly.
    runtime.block_on(async move { tokio::spawn(run(cli)).await? })
}

async fn run(cli: Cli) -> Result<()> {
    let rt = CodeMode::builder().session_store_path(&cli.store).start().await?;
    let outcome = match cli.command {
        Command::Exec { file, no_wait, json, title } => exec(&rt, &file, no_wait, json, title).await,
        Command::Session { session } => session::serve(&rt, &session).await,
    };
    rt.shutdown().await;
    outcome
}

async fn exec(rt: &CodeMode, file: &PathBuf, no_wait: bool, json: bool, title: Option<String>) -> Result<()> {
    let code = if file.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).context("reading the cell from stdin")?;
        s
    } else {
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?
    };
    let reply = rt.session("cli").reply("exec");
    let mut exec = Exec::code(code);
    if let Some(title) = title {
        exec = exec.title(title);
    }
    let mut result = reply.exec(exec).await?;
    loop {
        print_result(&result, json);
        match result.run_id() {
            Some(run_id) if !no_wait => result = reply.wait(run_id).await?,
            _ => break,
        }
    }
    if matches!(result, CellResult::Failed { .. }) {
        std::process::exit(1);
    }
    Ok(())
}

fn print_result(result: &CellResult, json: bool) {
    if json {
        println!("{}", result.to_model_json());
        return;
    }
    print_output(result.output());
    match result {
        CellResult::Completed { value, warnings, .. } => {
            for w in warnings {
                println!("warning: {w}");
            }
            println!("completed: {}", serde_json::to_string_pretty(value).unwrap_or_default());
        }
        CellResult::Waiting { run_id, reason, pending_tool_calls, .. } => {
            let pending: Vec<&str> = pending_tool_calls.iter().map(|p| p.id.as_str()).collect();
            println!("waiting ({reason:?}) run {run_id}; pending: {}", pending.join(", "));
        }
        CellResult::Failed { code, error, phase, .. } => {
            println!(
                "failed [{}] in {phase:?}: {}",
                serde_json::to_value(code).unwrap_or_default().as_str().unwrap_or(""),
                error.trim_end()
            );
        }
    }
}

fn print_output(output: &Output) {
    match output {
        Output::Entries(entries) => {
            for entry in entries {
                match entry {
                    OutputEntry::Text { text } => println!("{text}"),
                    OutputEntry::Json { value } => println!("{value}"),
                }
            }
        }
        Output::Truncated(marker) => {
            println!("[output truncated: {} bytes omitted] {}", marker.omitted_bytes, marker.guidance)
        }
    }
}
