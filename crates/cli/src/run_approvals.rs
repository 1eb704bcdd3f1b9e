//! `codemode runs approve|deny` and the approvals `codemode runs show`
//! lists: an operator's decisions on a stored run's pending approvals,
//! left in its journal for whichever process resumes it next.

use std::time::Duration;

use anyhow::Result;
use codemode_runtime::ApprovalLog;

use crate::output::clean;
use crate::run_source::RunSource;

/// Approves (`deny` false) or denies `ids` of run `run_id` as an operator.
pub(crate) async fn decide(
    source: &RunSource,
    run_id: &str,
    ids: Vec<String>,
    deny: bool,
    reason: Option<String>,
    wait: Duration,
) -> Result<()> {
    let verb = if deny { "denied" } else { "approved" };
    let named = source.decide(run_id, ids, deny, reason, wait).await?;
    for approval in named {
        println!(
            "run {run_id}: {verb} {} ({}); it takes effect when the run next resumes (its next wait, on any process)",
            approval.approval.id,
            clean(&approval.what)
        );
    }
    Ok(())
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
        let by = clean(entry.by.as_deref().unwrap_or("operator"));
        println!("  decisions by {by} at {} ms, taken at the next resume: {}", entry.at_ms, ids.join(", "));
    }
}
