//! `codemode exec FILE`: runs one cell and prints each result, waiting on
//! the cell while it parks unless `--no-wait`. The cell is unattended:
//! nobody can decide an approval while this process holds the store, so a
//! call a policy asks about is refused at once instead of parking.

use std::io::Read;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use codemode_runtime::{CellResult, CodeMode, Exec, WaitReason};

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
    let mut exec = Exec::code(code).unattended(true);
    if let Some(title) = title {
        exec = exec.title(title);
    }
    let mut result = reply.exec(exec).await?;
    loop {
        output::print_result(&result, json);
        if let CellResult::Waiting { reason: WaitReason::Approval, run_id, .. } = &result
            && !no_wait
        {
            // Only a decision moves such a run, and none can come here: a
            // wait would return at once, again and again.
            bail!(
                "run {run_id} waits for approvals that no one here can decide; it stays parked (`codemode runs show \
                 {run_id}`)"
            );
        }
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
