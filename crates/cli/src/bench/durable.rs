//! Durable-run scenarios: the journal's cost per tool call, a
//! park with its journal written to sled on disk, a resume by replay, a
//! `wait` on another process over PostgreSQL, a PostgreSQL store commit,
//! and the memory a parked run keeps once evicted to its journal.
//!
//! They run only when named (`--only journal,…` or `--only durable` for
//! all six): the PostgreSQL ones need a server, and a default `codemode
//! bench` must not fail without one. Method, per scenario:
//!
//! - `journal`: the same `seq100` cell and the same in-cell loop of 2,000
//!   awaited calls on two runtimes in this process, one with
//!   `journal = "park"` and one with `journal = "off"` (temporary sled
//!   store; no cell parks, so nothing is written: the cost is the in-memory
//!   recording of each request and step). Ten alternating rounds; the
//!   figure is the median over rounds of (park − off) per call.
//! - `park_sled`: exec → `waiting` of a `yield_control` cell on a sled store
//!   in a directory on disk, `park` against `off`, alternating sample by
//!   sample; the `park` time includes the journal's write and sled flush
//!   (the observer hears `waiting` only after both).
//!   `park_sled` runs three runtimes alternating: `durability = "process"`
//!   (the default: the run log's one `write(2)`), `"machine"` (sled
//!   flushed) and journal off.
//! - `park_group`: 100 cells parked at once on a `machine` sled store; the
//!   sled flushes (`fsync`s) they caused, per park (group commit).
//! - `park_growth`: one cell making 2,000 tool calls and yielding after
//!   every 100 (20 parks); the journal bytes written in all and the sled
//!   directory's size: a park writes what happened since the last one.
//! - `replay100`: a cell makes 100 tool calls, then yields. Evicted
//!   (`evict_after` 20 ms, waited for until the run leaves memory) against
//!   resident (`evict_after` none): the `wait` to completed; the replay's
//!   cost is the difference of the medians.
//! - `pg_wait`: two runtimes (two instance ids, as two processes) on one
//!   PostgreSQL database; exec + park on A, then time `wait` on B (claims
//!   the released lease and replays). Alternating with a local `wait` on A.
//! - `pg_commit`: `SessionStore::commit` of one small value on PostgreSQL.
//! - `evicted`: park N runs on sled on disk with `evict_after` 200 ms, wait
//!   until no cell is live, RSS growth over N; then resume 100 of them.
//! - `approval`, `pg_approval`: a decision's way to the call it approves;
//!   `approval_waits`: waits deciding nothing (see `approvals.rs`).
//! - `mcp_task`: an MCP call run as a task against the same call answered
//!   directly (see `mcp_tasks.rs`).

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use codemode_runtime::{CodeMode, HistogramSnapshot, JournalMode, Limits, RunsConfig, StoreBackend};
use codemode_store::{SessionStore, StoreLimits, StoredValue};
use serde::Serialize;

use super::cells::{IN_CELL, Noop, SEQ100, YIELD, cell, expect, timed_exec};
use super::stats::{Quantiles, ms, quantiles, row, settled_rss};

/// The durable scenarios' `--only` names; `durable` names them all.
pub(crate) const DURABLE: [&str; 12] = [
    "journal",
    "park_sled",
    "park_group",
    "park_growth",
    "replay100",
    "pg_wait",
    "pg_commit",
    "evicted",
    "approval",
    "approval_waits",
    "pg_approval",
    "mcp_task",
];

/// 100 sequential tool calls, then a park: a journal of 100 steps.
const REPLAY100: &str = "let n = 0; for (let i = 0; i < 100; i++) { await noop({}); n++; } \
await yield_control('bench'); return n;";

/// A parked cell with a little state, as `benches/parked.rs`.
const PARK_SMALL: &str = "const data = [1, 2, 3]; await yield_control('bench'); return data";

/// Rounds of the alternating journal A/B.
const JOURNAL_ROUNDS: usize = 10;

/// A scratch directory for one scenario's sled store, removed on drop.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Result<Self> {
        let dir = std::env::temp_dir().join(format!("codemode-bench-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(Self(dir))
    }

    fn sled(&self, name: &str) -> StoreBackend {
        StoreBackend::Sled { path: Some(self.0.join(name)) }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A runtime with the `noop` tool, room for `live` cells, `backend` and `runs`.
async fn runtime(backend: StoreBackend, runs: RunsConfig, live: usize) -> Result<CodeMode> {
    let live = live.clamp(1_024, 100_000);
    let limits = Limits {
        max_live_cells: live,
        max_live_cells_per_session: live,
        max_live_cells_per_principal: live,
        ..Limits::default()
    };
    Ok(CodeMode::builder().limits(limits).store_backend(backend).runs(runs).tool(Noop).start().await?)
}

fn journal_off() -> RunsConfig {
    RunsConfig { journal: JournalMode::Off, ..RunsConfig::default() }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[(v.len() - 1) / 2]
}

/// The PostgreSQL URL for the `pg_*` scenarios.
fn postgres_url(given: Option<&str>) -> Result<String> {
    if let Some(url) = given {
        return Ok(url.to_owned());
    }
    match std::env::var("CODEMODE_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Ok(url),
        _ => bail!(
            "the pg_wait and pg_commit scenarios need PostgreSQL: pass --postgres URL or set \
             CODEMODE_TEST_POSTGRES_URL (`scripts/postgres.sh start DIR` starts a throwaway server and prints its URL)"
        ),
    }
}

/// The runtime's own histogram: (mean, upper bound of the bucket holding
/// the median), in ms; `None` without observations.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Histogram {
    count: u64,
    mean_ms: f64,
    p50_at_most_ms: f64,
}

fn histogram(h: &HistogramSnapshot) -> Option<Histogram> {
    if h.count == 0 {
        return None;
    }
    let half = h.count.div_ceil(2);
    let bound = h.buckets.iter().find(|(_, cumulative)| *cumulative >= half).map_or(f64::INFINITY, |(b, _)| *b);
    Some(Histogram { count: h.count, mean_ms: h.sum_seconds * 1000.0 / h.count as f64, p50_at_most_ms: bound * 1000.0 })
}

/// Polls until no cell of `rt` is live, or fails after `limit`.
async fn until_no_live_cells(rt: &CodeMode, limit: Duration) -> Result<Duration> {
    let start = Instant::now();
    loop {
        if rt.live_cells().await? == 0 {
            return Ok(start.elapsed());
        }
        if start.elapsed() > limit {
            bail!("{} cells still live after {limit:?}: parked runs were not evicted", rt.live_cells().await?);
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// The journal's recording cost per tool call, in memory.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JournalReport {
    rounds: usize,
    seq100_park_p50_ms: Vec<f64>,
    seq100_off_p50_ms: Vec<f64>,
    /// Median over rounds of (park − off) / 100, µs.
    per_call_seq100_us: f64,
    in_cell_park_us: Vec<f64>,
    in_cell_off_us: Vec<f64>,
    /// Median over rounds of (park − off) of the in-cell per-call cost, µs.
    per_call_in_cell_us: f64,
}

async fn in_cell_seq(reply: &codemode_runtime::Reply) -> Result<f64> {
    let (r, _) = timed_exec(reply, IN_CELL).await?;
    expect(&r, "completed", "in-cell calls")?;
    match &r {
        codemode_runtime::CellResult::Completed { value, .. } => Ok(value[0].as_f64().unwrap_or(f64::NAN)),
        _ => Ok(f64::NAN),
    }
}

async fn journal(runs: usize, warmup: usize) -> Result<JournalReport> {
    let park = runtime(StoreBackend::Sled { path: None }, RunsConfig::default(), 0).await?;
    let off = runtime(StoreBackend::Sled { path: None }, journal_off(), 0).await?;
    let (rp, ro) = (park.session("bench").reply("r"), off.session("bench").reply("r"));
    let per_round = (runs / 2).max(20);
    let mut report = JournalReport {
        rounds: JOURNAL_ROUNDS,
        seq100_park_p50_ms: Vec::new(),
        seq100_off_p50_ms: Vec::new(),
        per_call_seq100_us: f64::NAN,
        in_cell_park_us: Vec::new(),
        in_cell_off_us: Vec::new(),
        per_call_in_cell_us: f64::NAN,
    };
    for round in 0..JOURNAL_ROUNDS {
        // Alternate which mode goes first, so drift in machine load is shared.
        let order: [(&codemode_runtime::Reply, bool); 2] =
            if round % 2 == 0 { [(&rp, true), (&ro, false)] } else { [(&ro, false), (&rp, true)] };
        for (reply, is_park) in order {
            let samples = cell(reply, SEQ100, per_round, warmup.min(10), None).await?;
            let seq = in_cell_seq(reply).await?;
            if is_park {
                report.seq100_park_p50_ms.push(quantiles(&samples).p50);
                report.in_cell_park_us.push(seq);
            } else {
                report.seq100_off_p50_ms.push(quantiles(&samples).p50);
                report.in_cell_off_us.push(seq);
            }
        }
    }
    let diff = |a: &[f64], b: &[f64], scale: f64| median(a.iter().zip(b).map(|(a, b)| (a - b) * scale).collect());
    report.per_call_seq100_us = diff(&report.seq100_park_p50_ms, &report.seq100_off_p50_ms, 1000.0 / 100.0);
    report.per_call_in_cell_us = diff(&report.in_cell_park_us, &report.in_cell_off_us, 1.0);
    park.shutdown().await;
    off.shutdown().await;
    Ok(report)
}

/// exec → `waiting` on sled on disk, journal written vs off.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ParkSledReport {
    park_ms: Quantiles,
    /// The same with `durability = "machine"`.
    machine_ms: Quantiles,
    off_ms: Quantiles,
    /// p50(park) − p50(off): the journal write with its flush.
    journal_write_ms: f64,
    /// The runtime's journal-write histogram (encode to durable).
    journal_write_metric: Option<Histogram>,
    /// Mean bytes per journal write.
    journal_bytes_mean: f64,
}

async fn park_sled(runs: usize, warmup: usize) -> Result<ParkSledReport> {
    let scratch = Scratch::new("park-sled")?;
    let machine = RunsConfig { durability: codemode_runtime::Durability::Machine, ..RunsConfig::default() };
    let on = runtime(scratch.sled("park"), RunsConfig::default(), 0).await?;
    let disk = runtime(scratch.sled("machine"), machine, 0).await?;
    let off = runtime(scratch.sled("off"), journal_off(), 0).await?;
    let replies = [on.session("bench").reply("r"), disk.session("bench").reply("r"), off.session("bench").reply("r")];
    let mut samples: [Vec<f64>; 3] = Default::default();
    for i in 0..warmup + runs {
        for k in 0..3 {
            // Rotate which runtime goes first, so drift in load is shared.
            let which = (i + k) % 3;
            let reply = &replies[which];
            let (r, t) = timed_exec(reply, YIELD).await?;
            expect(&r, "waiting", "park")?;
            let done = reply.wait(r.run_id().unwrap_or_default()).await?;
            expect(&done, "completed", "wait after park")?;
            if i >= warmup {
                samples[which].push(t);
            }
        }
    }
    let runs = on.metrics().runs;
    on.shutdown().await;
    disk.shutdown().await;
    off.shutdown().await;
    let [park, machine, plain] = samples;
    let (park_ms, machine_ms, off_ms) = (quantiles(&park), quantiles(&machine), quantiles(&plain));
    let journal_bytes_mean = runs.journal_bytes as f64 / runs.journal_writes.max(1) as f64;
    Ok(ParkSledReport {
        park_ms,
        machine_ms,
        off_ms,
        journal_write_ms: park_ms.p50 - off_ms.p50,
        journal_write_metric: histogram(&runs.journal_write),
        journal_bytes_mean,
    })
}

/// 100 parks at once on a `machine` sled store: flushes per park.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ParkGroupReport {
    parks: usize,
    flushes: u64,
    flushes_per_park: f64,
    /// The same parks on a `process` store (its checkpoints flush).
    process_flushes_per_park: f64,
    /// exec → `waiting` of the slowest of the 100, ms.
    slowest_ms: f64,
}

async fn park_group() -> Result<ParkGroupReport> {
    const PARKS: usize = 100;
    let scratch = Scratch::new("park-group")?;
    let mut per_park = [0.0f64; 2];
    let mut report = ParkGroupReport {
        parks: PARKS,
        flushes: 0,
        flushes_per_park: 0.0,
        process_flushes_per_park: 0.0,
        slowest_ms: 0.0,
    };
    for (i, durability) in
        [codemode_runtime::Durability::Machine, codemode_runtime::Durability::Process].into_iter().enumerate()
    {
        let rt = runtime(scratch.sled(durability.as_str()), RunsConfig { durability, ..RunsConfig::default() }, PARKS)
            .await?;
        let reply = rt.session("bench").reply("r");
        // Warm the store, then measure one burst.
        let (r, _) = timed_exec(&reply, YIELD).await?;
        expect(&r, "waiting", "park_group warm-up")?;
        let before = rt.metrics().runs.store_flushes;
        let start = Instant::now();
        let parks = (0..PARKS).map(|_| {
            let reply = reply.clone();
            async move { timed_exec(&reply, YIELD).await }
        });
        let results = futures_join_all(parks).await?;
        let slowest = ms(start.elapsed());
        for r in results {
            let (r, _) = r?;
            expect(&r, "waiting", "park_group")?;
        }
        let flushes = rt.metrics().runs.store_flushes - before;
        {
            per_park[i] = flushes as f64 / PARKS as f64;
        }
        if i == 0 {
            report.flushes = flushes;
            report.slowest_ms = slowest;
        }
        rt.shutdown().await;
    }
    report.flushes_per_park = per_park[0];
    report.process_flushes_per_park = per_park[1];
    Ok(report)
}

/// Runs futures concurrently and collects their outputs in order.
async fn futures_join_all<F>(futures: impl Iterator<Item = F>) -> Result<Vec<F::Output>>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut out = Vec::with_capacity(handles.len());
    for h in handles {
        out.push(h.await.context("a concurrent park's task failed")?);
    }
    Ok(out)
}

/// One run of 2,000 calls and 20 parks: what its journal writes cost.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ParkGrowthReport {
    parks: u64,
    journal_bytes_written: u64,
    journal_writes: u64,
    /// The first and the last park's write, bytes.
    first_write_bytes: u64,
    last_write_bytes: u64,
    sled_dir_mib: f64,
}

const GROWTH: &str = "let n = 0; for (let k = 0; k < 20; k++) { for (let i = 0; i < 100; i++) { await noop({}); n++; } \
await yield_control('park ' + k); } return n;";

async fn park_growth() -> Result<ParkGrowthReport> {
    let scratch = Scratch::new("park-growth")?;
    let evict = RunsConfig { evict_after: None, ..RunsConfig::default() };
    let rt = runtime(scratch.sled("growth"), evict, 0).await?;
    let reply = rt.session("bench").reply("r");
    let (mut r, _) = timed_exec(&reply, GROWTH).await?;
    let run_id = r.run_id().unwrap_or_default().to_owned();
    let mut writes = Vec::new();
    let mut last = rt.metrics().runs.journal_bytes;
    writes.push(last);
    while matches!(r, codemode_runtime::CellResult::Waiting { .. }) {
        r = reply.wait(&run_id).await?;
        let now = rt.metrics().runs.journal_bytes;
        writes.push(now - last);
        last = now;
    }
    expect(&r, "completed", "park_growth")?;
    let m = rt.metrics().runs;
    rt.shutdown().await;
    drop(rt);
    let sled_dir_mib = dir_bytes(&scratch.0.join("growth")) as f64 / (1024.0 * 1024.0);
    Ok(ParkGrowthReport {
        parks: 20,
        journal_bytes_written: m.journal_bytes,
        journal_writes: m.journal_writes,
        first_write_bytes: writes.first().copied().unwrap_or(0),
        last_write_bytes: writes.get(writes.len().saturating_sub(2)).copied().unwrap_or(0),
        sled_dir_mib,
    })
}

/// `wait` of a cell with 100 journaled calls: evicted (replayed) vs resident.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReplayReport {
    evicted_wait_ms: Quantiles,
    resident_wait_ms: Quantiles,
    /// p50(evicted) − p50(resident).
    replay_ms: f64,
    /// The runtime's replay histogram (record read to replay done).
    replay_metric: Option<Histogram>,
}

async fn replay100(runs: usize, warmup: usize) -> Result<ReplayReport> {
    let scratch = Scratch::new("replay100")?;
    let evict = RunsConfig { evict_after: Some(Duration::from_millis(20)), ..RunsConfig::default() };
    let ev = runtime(scratch.sled("evicted"), evict, 0).await?;
    let res = runtime(scratch.sled("resident"), RunsConfig { evict_after: None, ..RunsConfig::default() }, 0).await?;
    let (rev, rres) = (ev.session("bench").reply("r"), res.session("bench").reply("r"));
    let (mut evicted, mut resident) = (Vec::new(), Vec::new());
    for i in 0..warmup + runs {
        for (rt, reply, is_evicted) in [(&ev, &rev, true), (&res, &rres, false)] {
            let (r, _) = timed_exec(reply, REPLAY100).await?;
            expect(&r, "waiting", "replay100 park")?;
            if is_evicted {
                until_no_live_cells(rt, Duration::from_secs(10)).await?;
            } else {
                // The same idle time as the evicted run, so both waits
                // find a cold cache alike.
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
            let start = Instant::now();
            let done = reply.wait(r.run_id().unwrap_or_default()).await?;
            std::hint::black_box(done.to_model_text());
            let t = ms(start.elapsed());
            expect(&done, "completed", "replay100 wait")?;
            if let codemode_runtime::CellResult::Completed { value, .. } = &done
                && value != &serde_json::json!(100)
            {
                bail!("replay100 resumed with {value}, not 100");
            }
            if i >= warmup {
                if is_evicted { evicted.push(t) } else { resident.push(t) }
            }
        }
    }
    let replay_metric = histogram(&ev.metrics().runs.replay);
    ev.shutdown().await;
    res.shutdown().await;
    let (evicted_wait_ms, resident_wait_ms) = (quantiles(&evicted), quantiles(&resident));
    Ok(ReplayReport {
        evicted_wait_ms,
        resident_wait_ms,
        replay_ms: evicted_wait_ms.p50 - resident_wait_ms.p50,
        replay_metric,
    })
}

/// `wait` on another runtime over PostgreSQL vs a local `wait`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PgWaitReport {
    park_exec_ms: Quantiles,
    remote_wait_ms: Quantiles,
    local_wait_ms: Quantiles,
}

async fn pg_wait(url: &str, runs: usize, warmup: usize) -> Result<PgWaitReport> {
    let backend = || StoreBackend::Postgres { url: url.to_owned(), pool_size: 4 };
    let a = runtime(backend(), RunsConfig::default(), 0).await.context("runtime A on PostgreSQL")?;
    let b = runtime(backend(), RunsConfig::default(), 0).await.context("runtime B on PostgreSQL")?;
    let session = format!("bench-pg-{}", std::process::id());
    let (ra, rb) = (a.session(session.clone()).reply("r"), b.session(session).reply("r"));
    let (mut park, mut remote, mut local) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..warmup + runs {
        for on_b in [true, false] {
            let (r, t) = timed_exec(&ra, YIELD).await?;
            expect(&r, "waiting", "pg park")?;
            let waiter = if on_b { &rb } else { &ra };
            let start = Instant::now();
            let done = waiter.wait(r.run_id().unwrap_or_default()).await?;
            std::hint::black_box(done.to_model_text());
            let w = ms(start.elapsed());
            expect(&done, "completed", if on_b { "wait on the other runtime" } else { "local wait" })?;
            if i >= warmup {
                park.push(t);
                if on_b { remote.push(w) } else { local.push(w) }
            }
        }
    }
    a.shutdown().await;
    b.shutdown().await;
    Ok(PgWaitReport {
        park_exec_ms: quantiles(&park),
        remote_wait_ms: quantiles(&remote),
        local_wait_ms: quantiles(&local),
    })
}

/// `SessionStore::commit` of one small value on PostgreSQL.
async fn pg_commit(url: &str, runs: usize, warmup: usize) -> Result<Quantiles> {
    let pg = codemode_store::Pg::connect(url, 4).await.context("connecting to PostgreSQL")?;
    let store = SessionStore::postgres(pg, StoreLimits::default(), "bench-pg-commit".into());
    let session = format!("bench-pg-commit-{}", std::process::id());
    let value = StoredValue { json: "{\"n\":1,\"note\":\"small\"}".into(), network: false };
    let mut samples = Vec::with_capacity(runs);
    for i in 0..warmup + runs {
        let start = Instant::now();
        store.commit(&session, vec![(format!("k{}", i % 50), Some(value.clone()))]).await?;
        if i >= warmup {
            samples.push(ms(start.elapsed()));
        }
    }
    Ok(quantiles(&samples))
}

/// Memory of parked runs evicted to their journals.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct EvictedReport {
    count: usize,
    park_seconds: f64,
    evict_seconds: f64,
    rss_before_mib: f64,
    rss_evicted_mib: f64,
    rss_per_evicted_run_kib: f64,
    journal_store_mib: f64,
    resume_sample_wait_ms: Quantiles,
}

/// Clients parking runs at once.
const EVICTED_CLIENTS: usize = 4;
/// Runs resumed after the eviction, to show they still resume.
const EVICTED_RESUMED: usize = 100;

fn dir_bytes(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .filter_map(Result::ok)
            .map(|e| match e.metadata() {
                Ok(m) if m.is_dir() => dir_bytes(&e.path()),
                Ok(m) => m.len(),
                Err(_) => 0,
            })
            .sum()
    })
}

async fn evicted(count: usize) -> Result<EvictedReport> {
    let scratch = Scratch::new(&format!("evicted-{count}"))?;
    let runs = RunsConfig { evict_after: Some(Duration::from_millis(200)), ..RunsConfig::default() };
    let rt = runtime(scratch.sled("store"), runs, count + 64).await?;
    // Warm up: thread-local and allocator state, the engine factory.
    for _ in 0..20 {
        let reply = rt.session("ev-warm").reply("r");
        let (r, _) = timed_exec(&reply, PARK_SMALL).await?;
        expect(&r, "waiting", "evicted warm-up")?;
        expect(&reply.wait(r.run_id().unwrap_or_default()).await?, "completed", "evicted warm-up")?;
    }
    let before = settled_rss().await;
    let start = Instant::now();
    let mut tasks = Vec::new();
    for c in 0..EVICTED_CLIENTS {
        let reply = rt.session(format!("ev-{c}")).reply("r");
        let n = count / EVICTED_CLIENTS + usize::from(c < count % EVICTED_CLIENTS);
        tasks.push(tokio::spawn(async move {
            // Only a sample of run ids is kept: 100,000 ids would be
            // bench memory counted as the runtime's.
            let mut sample = Vec::new();
            for i in 0..n {
                let (r, _) = timed_exec(&reply, PARK_SMALL).await?;
                expect(&r, "waiting", "evicted park")?;
                if i < EVICTED_RESUMED / EVICTED_CLIENTS {
                    sample.push(r.run_id().unwrap_or_default().to_owned());
                }
            }
            anyhow::Ok((reply, sample))
        }));
    }
    let mut sample = Vec::new();
    for task in tasks {
        let (reply, ids) = task.await??;
        sample.extend(ids.into_iter().map(|id| (reply.clone(), id)));
    }
    let park_seconds = start.elapsed().as_secs_f64();
    let evict_start = Instant::now();
    until_no_live_cells(&rt, Duration::from_secs(120)).await?;
    let evict_seconds = evict_start.elapsed().as_secs_f64();
    let after = settled_rss().await;
    let journal_store_mib = dir_bytes(&scratch.0) as f64 / 1_048_576.0;
    let mut resume = Vec::new();
    for (reply, id) in &sample {
        let started = Instant::now();
        let r = reply.wait(id).await?;
        resume.push(ms(started.elapsed()));
        expect(&r, "completed", "resume of an evicted run")?;
    }
    rt.shutdown().await;
    let mib = |b: u64| b as f64 / 1_048_576.0;
    Ok(EvictedReport {
        count,
        park_seconds,
        evict_seconds,
        rss_before_mib: mib(before),
        rss_evicted_mib: mib(after),
        rss_per_evicted_run_kib: after.saturating_sub(before) as f64 / 1024.0 / count as f64,
        journal_store_mib,
        resume_sample_wait_ms: quantiles(&resume),
    })
}

/// Everything the durable scenarios measured.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DurableReport {
    journal: Option<JournalReport>,
    park_sled: Option<ParkSledReport>,
    park_group: Option<ParkGroupReport>,
    park_growth: Option<ParkGrowthReport>,
    replay100: Option<ReplayReport>,
    pg_wait: Option<PgWaitReport>,
    pg_commit_ms: Option<Quantiles>,
    evicted: Vec<EvictedReport>,
    approval: Option<super::approvals::ApprovalReport>,
    approval_waits: Option<super::approvals::IdleWaitsReport>,
    pg_approval: Option<super::approvals::ApprovalReport>,
    mcp_task: Option<super::mcp_tasks::McpTaskReport>,
}

impl DurableReport {
    /// Whether nothing was measured.
    pub(crate) fn is_empty(&self) -> bool {
        self.journal.is_none()
            && self.park_sled.is_none()
            && self.park_group.is_none()
            && self.park_growth.is_none()
            && self.replay100.is_none()
            && self.pg_wait.is_none()
            && self.pg_commit_ms.is_none()
            && self.evicted.is_empty()
            && self.approval.is_none()
            && self.approval_waits.is_none()
            && self.pg_approval.is_none()
            && self.mcp_task.is_none()
    }
}

/// The memory scenario, run first on a fresh heap.
pub(crate) async fn run_memory(
    named: &(dyn Fn(&str) -> bool + Sync),
    counts: &[usize],
    report: &mut DurableReport,
) -> Result<()> {
    if named("evicted") {
        for &count in counts {
            report.evicted.push(evicted(count).await?);
        }
    }
    Ok(())
}

/// The timing scenarios.
pub(crate) async fn run_timing(
    named: &(dyn Fn(&str) -> bool + Sync),
    postgres: Option<&str>,
    runs: usize,
    warmup: usize,
    report: &mut DurableReport,
) -> Result<()> {
    // Fail before any work when a PostgreSQL scenario has no server.
    let url = if named("pg_wait") || named("pg_commit") || named("pg_approval") {
        Some(postgres_url(postgres)?)
    } else {
        None
    };
    if named("journal") {
        report.journal = Some(journal(runs, warmup).await?);
    }
    if named("park_sled") {
        report.park_sled = Some(park_sled(runs, warmup).await?);
    }
    if named("park_group") {
        report.park_group = Some(park_group().await?);
    }
    if named("park_growth") {
        report.park_growth = Some(park_growth().await?);
    }
    if named("replay100") {
        report.replay100 = Some(replay100(runs.min(100), warmup.min(10)).await?);
    }
    if let Some(url) = &url {
        if named("pg_commit") {
            report.pg_commit_ms = Some(pg_commit(url, runs.max(500), warmup).await?);
        }
        if named("pg_wait") {
            report.pg_wait = Some(pg_wait(url, runs, warmup).await?);
        }
        if named("pg_approval") {
            report.pg_approval = Some(super::approvals::across_processes(url, runs, warmup).await?);
        }
    }
    if named("approval") {
        report.approval = Some(super::approvals::same_process(runs, warmup).await?);
    }
    if named("approval_waits") {
        report.approval_waits = Some(super::approvals::idle_waits(10, 200).await?);
    }
    if named("mcp_task") {
        report.mcp_task = Some(super::mcp_tasks::measure(runs, warmup).await?);
    }
    Ok(())
}

/// Prints the durable rows.
pub(crate) fn print(report: &DurableReport) {
    if report.is_empty() {
        return;
    }
    println!("\ndurable runs (times in ms unless noted)");
    if let Some(j) = &report.journal {
        println!(
            "9 journal overhead per call (park − off, median of {} rounds): {:.3} µs from seq100 p50s, {:.3} µs inside one cell",
            j.rounds, j.per_call_seq100_us, j.per_call_in_cell_us
        );
        println!(
            "  seq100 p50 park {:.3} / off {:.3} ms; in-cell per call park {:.2} / off {:.2} µs (medians)",
            median(j.seq100_park_p50_ms.clone()),
            median(j.seq100_off_p50_ms.clone()),
            median(j.in_cell_park_us.clone()),
            median(j.in_cell_off_us.clone())
        );
    }
    if let Some(p) = &report.park_sled {
        row("10 park on sled (exec→waiting), process", &p.park_ms);
        row("  same, durability = machine", &p.machine_ms);
        row("  same, journal off", &p.off_ms);
        println!("  journal write with flush (p50 park − off): {:.3} ms", p.journal_write_ms);
        if let Some(h) = &p.journal_write_metric {
            println!(
                "  runtime's journal-write histogram: mean {:.3} ms, median in the bucket <= {:.3} ms ({} writes, {:.0} bytes each)",
                h.mean_ms, h.p50_at_most_ms, h.count, p.journal_bytes_mean
            );
        }
    }
    if let Some(g) = &report.park_group {
        println!(
            "10b {} parks at once, machine: {} flushes ({:.3} per park), slowest {:.1} ms; process: {:.3} flushes per park",
            g.parks, g.flushes, g.flushes_per_park, g.slowest_ms, g.process_flushes_per_park
        );
    }
    if let Some(g) = &report.park_growth {
        println!(
            "10c 2,000 calls, {} parks: {} journal bytes in {} writes (first {} B, last park {} B); sled dir {:.2} MiB",
            g.parks, g.journal_bytes_written, g.journal_writes, g.first_write_bytes, g.last_write_bytes, g.sled_dir_mib
        );
    }
    if let Some(r) = &report.replay100 {
        row("11 wait, evicted (replay of 100)", &r.evicted_wait_ms);
        row("  wait, resident", &r.resident_wait_ms);
        println!("  replay of 100 journaled calls (p50 evicted − resident): {:.3} ms", r.replay_ms);
        if let Some(h) = &r.replay_metric {
            println!(
                "  runtime's replay histogram: mean {:.3} ms, median in the bucket <= {:.3} ms ({} replays)",
                h.mean_ms, h.p50_at_most_ms, h.count
            );
        }
    }
    if let Some(p) = &report.pg_wait {
        row("12 pg: wait on the other runtime", &p.remote_wait_ms);
        row("  pg: wait on the parking runtime", &p.local_wait_ms);
        row("  pg: exec to waiting (journal)", &p.park_exec_ms);
    }
    if let Some(q) = &report.pg_commit_ms {
        row("13 pg: store commit, one value", q);
    }
    if let Some(a) = &report.approval {
        super::approvals::print("15 approval, same process (sled)", a);
    }
    if let Some(a) = &report.pg_approval {
        super::approvals::print("16 approval on the other runtime (pg)", a);
    }
    if let Some(w) = &report.approval_waits {
        super::approvals::print_idle_waits(w);
    }
    if let Some(t) = &report.mcp_task {
        super::mcp_tasks::print(t);
    }
    for e in &report.evicted {
        println!(
            "14 evicted x{:<7} RSS per evicted run: {:.2} KiB (before {:.1} MiB, evicted {:.1} MiB; parked in {:.1} s, \
             evicted {:.1} s later; sled dir {:.1} MiB); resume of {} p50 {:.3} ms",
            e.count,
            e.rss_per_evicted_run_kib,
            e.rss_before_mib,
            e.rss_evicted_mib,
            e.park_seconds,
            e.evict_seconds,
            e.journal_store_mib,
            e.resume_sample_wait_ms.n,
            e.resume_sample_wait_ms.p50
        );
    }
}
