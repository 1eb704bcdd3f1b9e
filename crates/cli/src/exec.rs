//! `codemode exec FILE`: runs one cell and prints each result, waiting on
//! the cell while it parks unless `--no-wait`.

use std::io::Read;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use codemode_runtime::{CellResult, CodeMode, Exec};

use crate::output;

/// `codemode exec`'s arguments.
#[derive(clap::Args)]
pub(crate) struct ExecArgs {
    /// The cell's JavaScript source file, or `-` to read stdin.
    file: PathBuf,
    /// Print the first result only, even if the cell parks.
    #[arg(long)]
    no_wait: bool,
    /// Print each result as the model reads it instead of human-readable
    /// text: one compact JSON line, wrapped in an untrusted-content
    /// envelope (several lines) when the cell observed MCP or other
    /// network-derived content.
    #[arg(long)]
    json: bool,
    /// A title for the cell.
    #[arg(long)]
    title: Option<String>,
}

/// Runs the cell `args` names on `rt` and prints its results.
///
/// # Errors
/// The file cannot be read, the runtime refuses the cell, or the cell
/// failed (after its result was printed).
pub(crate) async fn run(rt: &CodeMode, args: ExecArgs) -> Result<()> {
    let ExecArgs { file, no_wait, json, title } = args;
    let code = if file.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).context("reading the cell from stdin")?;
        s
    } else {
        std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?
    };
    let reply = rt.session("cli").reply("exec");
    let mut exec = Exec::code(code);
    if let Some(title) = title {
        exec = exec.title(title);
    }
    let mut result = reply.exec(exec).await?;
    loop {
        output::print_result(&result, json);
        match result.run_id() {
            Some(run_id) if !no_wait => {
                let run_id = run_id.to_owned();
                result = output::with_spinner(&result, reply.wait(&run_id), json).await?;
            }
            _ => break,
        }
    }
    if matches!(result, CellResult::Failed { .. }) {
        bail!("the cell failed");
    }
    Ok(())
}
