//! Approval scenarios: how long a decision takes to reach the call it
//! approves.
//!
//! - `approval`: one runtime on a sled store on disk (journal as
//!   `codemode` runs by default). A cell calls `deploy`, which the policy
//!   asks about; the cell parks with the pending approval; then a `wait`
//!   approves it. Measured from the `wait_with` call to the moment the
//!   tool starts (the tool records it), and to the `completed` result. The
//!   decision's journal write (before the call may start) is inside both.
//! - `approval_waits`: one run parked for approval on sled on disk, and
//!   2,000 `wait`s on it with nothing decided, in 10 batches of 200: each
//!   batch's time (flat when a wait costs the same however old the run)
//!   and the journal bytes they wrote (none: nothing new happened).
//! - `pg_approval`: two runtimes (two instance ids, as two processes) on
//!   one PostgreSQL database; exec and park on A, approve with a `wait` on
//!   B, which claims the run, replays it, journals the decision and starts
//!   the call.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use codemode_runtime::{
    CellResult, CodeMode, Decision, DecisionFuture, Decisions, Exec, Limits, NestedCall, Policy, Reply, StoreBackend,
    Tool, ToolFuture, ToolOutput,
};
use serde::Serialize;
use serde_json::{Value, json};

use super::cells::expect;
use super::stats::{Quantiles, ms, quantiles, row};

/// A cell whose one call needs approval.
const ASKED: &str = "const r = await deploy({}); return r.ok";

/// Asks about `deploy`, allows the rest.
struct AskDeploy;

impl Policy for AskDeploy {
    fn check(&self, call: NestedCall) -> DecisionFuture {
        let decision = if call.tool == "deploy" { Decision::Ask("bench".into()) } else { Decision::Allow };
        Box::pin(std::future::ready(decision))
    }
}

/// Records when it was last called.
struct Deploy(Arc<Mutex<Option<Instant>>>);

impl Tool for Deploy {
    fn name(&self) -> &str {
        "deploy"
    }
    fn description(&self) -> &str {
        "Records when it ran."
    }
    fn call(&self, _input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Instant::now());
        Box::pin(async { Ok(ToolOutput::json(json!({"ok": true}))) })
    }
}

/// A decision's way to its call.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ApprovalReport {
    /// `wait_with` called → the approved tool starts.
    decision_to_call_ms: Quantiles,
    /// `wait_with` called → `completed`.
    decision_to_result_ms: Quantiles,
    /// exec → `waiting` with the pending approval (its journal written).
    park_ms: Quantiles,
}

async fn runtime(backend: StoreBackend, started: &Arc<Mutex<Option<Instant>>>) -> Result<CodeMode> {
    // Room for the runs a bench leaves behind: a run approved on B stays
    // cached on A (as a stale copy) until its eviction.
    let live = 100_000;
    let limits = Limits {
        max_live_cells: live,
        max_live_cells_per_session: live,
        max_live_cells_per_principal: live,
        ..Limits::default()
    };
    Ok(CodeMode::builder()
        .limits(limits)
        .policy(AskDeploy)
        .tool(Deploy(Arc::clone(started)))
        .store_backend(backend)
        .start()
        .await?)
}

/// The pending approval's id of a result parked for approval.
fn approval_id(parked: &CellResult) -> Result<String> {
    match parked {
        CellResult::Waiting { pending_approvals, .. } if pending_approvals.len() == 1 => {
            Ok(pending_approvals[0].id.clone())
        }
        other => bail!("expected one pending approval, got {}", other.to_model_json()),
    }
}

/// Parks on `parker`, approves on `decider`, `runs` times after `warmup`.
async fn measure(
    parker: &Reply,
    decider: &Reply,
    started: &Arc<Mutex<Option<Instant>>>,
    runs: usize,
    warmup: usize,
) -> Result<ApprovalReport> {
    let (mut to_call, mut to_result, mut park) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..warmup + runs {
        let start = Instant::now();
        let parked = parker.exec(Exec::code(ASKED).title("bench")).await?;
        let parked_ms = ms(start.elapsed());
        let id = approval_id(&parked)?;
        let run_id = parked.run_id().unwrap_or_default().to_owned();
        *started.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = None;
        let decided = Instant::now();
        let done = decider.wait_with(&run_id, Decisions { approve: vec![id], deny: vec![] }).await?;
        let result_ms = ms(decided.elapsed());
        expect(&done, "completed", "approved cell")?;
        let call = started.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        let call = call.context("the approved tool never ran")?;
        if i >= warmup {
            to_call.push(ms(call.saturating_duration_since(decided)));
            to_result.push(result_ms);
            park.push(parked_ms);
        }
    }
    Ok(ApprovalReport {
        decision_to_call_ms: quantiles(&to_call),
        decision_to_result_ms: quantiles(&to_result),
        park_ms: quantiles(&park),
    })
}

/// `approval`: one runtime on sled on disk.
pub(crate) async fn same_process(runs: usize, warmup: usize) -> Result<ApprovalReport> {
    let dir = std::env::temp_dir().join(format!("codemode-bench-approval-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let started = Arc::new(Mutex::new(None));
    let rt = runtime(StoreBackend::Sled { path: Some(dir.clone()) }, &started).await?;
    let reply = rt.session("bench-approval").reply("r");
    let report = measure(&reply, &reply, &started, runs, warmup).await;
    drop(reply);
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
    report
}

/// `pg_approval`: park on A, approve on B, one PostgreSQL database.
pub(crate) async fn across_processes(url: &str, runs: usize, warmup: usize) -> Result<ApprovalReport> {
    let backend = || StoreBackend::Postgres { url: url.to_owned(), pool_size: 4 };
    let started = Arc::new(Mutex::new(None));
    let a = runtime(backend(), &started).await.context("runtime A on PostgreSQL")?;
    let b = runtime(backend(), &started).await.context("runtime B on PostgreSQL")?;
    let session = format!("bench-pg-approval-{}", std::process::id());
    let (ra, rb) = (a.session(session.clone()).reply("r"), b.session(session).reply("r"));
    let report = measure(&ra, &rb, &started, runs, warmup).await;
    drop((ra, rb));
    a.shutdown().await;
    b.shutdown().await;
    report
}

/// Waits with nothing decided on a run parked for approval.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IdleWaitsReport {
    /// Waits per batch.
    batch: usize,
    /// Each batch's wall-clock time, in order.
    batch_ms: Vec<f64>,
    /// Journal bytes the waits wrote, and writes they skipped.
    bytes_written: u64,
    writes_skipped: u64,
}

/// `approval_waits`: `batches` × `batch` waits on one run parked for
/// approval, deciding nothing.
pub(crate) async fn idle_waits(batches: usize, batch: usize) -> Result<IdleWaitsReport> {
    let dir = std::env::temp_dir().join(format!("codemode-bench-approval-waits-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let started = Arc::new(Mutex::new(None));
    let rt = runtime(StoreBackend::Sled { path: Some(dir.clone()) }, &started).await?;
    let reply = rt.session("bench-approval-waits").reply("r");
    let parked = reply.exec(Exec::code(ASKED).title("bench")).await?;
    approval_id(&parked)?;
    let run_id = parked.run_id().unwrap_or_default().to_owned();
    let before = rt.metrics().runs;
    let mut batch_ms = Vec::with_capacity(batches);
    for _ in 0..batches {
        let start = Instant::now();
        for _ in 0..batch {
            let waiting = reply.wait(&run_id).await?;
            expect(&waiting, "waiting", "an undecided approval")?;
        }
        batch_ms.push(ms(start.elapsed()));
    }
    let after = rt.metrics().runs;
    drop(reply);
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(IdleWaitsReport {
        batch,
        batch_ms,
        bytes_written: after.journal_bytes - before.journal_bytes,
        writes_skipped: after.journal_writes_skipped - before.journal_writes_skipped,
    })
}

/// Prints the idle-waits scenario.
pub(crate) fn print_idle_waits(r: &IdleWaitsReport) {
    let batches: Vec<String> = r.batch_ms.iter().map(|t| format!("{t:.0}")).collect();
    println!(
        "17 approval, {} waits deciding nothing: ms per {} waits [{}]; journal bytes written {}, writes skipped {}",
        r.batch * r.batch_ms.len(),
        r.batch,
        batches.join(", "),
        r.bytes_written,
        r.writes_skipped
    );
}

/// Prints an approval scenario's rows.
pub(crate) fn print(name: &str, r: &ApprovalReport) {
    row(&format!("{name}: decision → approved call starts"), &r.decision_to_call_ms);
    row("  decision → completed", &r.decision_to_result_ms);
    row("  exec → waiting for approval", &r.park_ms);
}
