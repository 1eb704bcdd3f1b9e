//! `codemode runs approve|deny` and the approvals `codemode runs show`
//! lists: an operator's decisions on a stored run's pending approvals,
//! left in its journal for whichever process resumes it next.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use codemode_runtime::operator::{self, OperatorError};
use codemode_runtime::{ApprovalLog, Decisions, Denial};
use codemode_store::runs::RunStore;

use crate::output::clean;

/// How long `approve`/`deny` wait by default for a process holding the run
/// to let it go.
pub(crate) const DEFAULT_WAIT_MS: u64 = 10_000;

/// Approves (`deny` false) or denies `ids` of run `run_id` as an operator.
pub(crate) async fn decide(
    runs: &Arc<dyn RunStore>,
    run_id: &str,
    ids: Vec<String>,
    deny: bool,
    reason: Option<String>,
    wait: Duration,
) -> Result<()> {
    let verb = if deny { "denied" } else { "approved" };
    let decisions = if deny {
        Decisions { approve: vec![], deny: ids.into_iter().map(|id| Denial { id, reason: reason.clone() }).collect() }
    } else {
        Decisions { approve: ids, deny: vec![] }
    };
    let named = operator::decide_stored(runs, run_id, decisions, wait).await.map_err(|e| match e {
        OperatorError::Store(e) => anyhow::anyhow!("{e}"),
        other => anyhow::anyhow!("{other}"),
    })?;
    for approval in named {
        println!(
            "run {run_id}: {verb} {} ({}); it takes effect when the run next resumes (its next wait, on any process)",
            approval.approval.id,
            clean(&approval.what)
        );
    }
    Ok(())
}

/// The approvals part of `runs show`, from the run's stored journal.
pub(crate) fn shown(journal: &[u8]) -> Result<ApprovalLog, String> {
    operator::approvals_of(journal)
}

/// Prints a run's approvals as `runs show` text.
pub(crate) fn print(log: &ApprovalLog) {
    if log.is_empty() {
        return;
    }
    println!("approvals:");
    for record in &log.records {
        let r = &record.approval;
        let server = r.server.as_deref().map(|s| format!("{}.", clean(s))).unwrap_or_default();
        let state = match &record.decision {
            None => format!("pending (expires at {} ms)", r.expires_at_ms),
            Some(d) => {
                let reason = d.reason.as_deref().map(|r| format!(": {}", clean(r))).unwrap_or_default();
                format!("{} by {} at {} ms{reason}", d.verdict.as_str(), clean(&d.by), d.at_ms)
            }
        };
        println!("  {}  {}{} [{}]  {state}", r.id, server, clean(&r.tool), clean(&r.source));
        println!("    asked: {}", clean(&r.reason));
        println!("    arguments: {}{}", clean(&r.arguments), if r.arguments_truncated { "…" } else { "" });
    }
    for entry in &log.inbox {
        let ids: Vec<&str> = entry
            .decisions
            .approve
            .iter()
            .chain(entry.decisions.deny.iter().map(|d| &d.id))
            .map(String::as_str)
            .collect();
        println!("  operator decisions at {} ms, taken at the next resume: {}", entry.at_ms, ids.join(", "));
    }
}
