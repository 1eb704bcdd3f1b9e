//! `codemode bench`: the reference benchmark's scenarios, run in this
//! process against a native `noop` tool, optionally side by side with the
//! reference system (`--compare`).
//!
//! Every time is measured end to end through the embedding API the way a
//! host uses it: `exec`/`wait` until the model-facing result text exists
//! (the reference measures its `exec` tool's `execute` to result text).
//!
//! The scenarios are here and in `durable`; `cells` holds the cells they
//! run and the timed exec, `stats` the quantiles and report rows.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use codemode_runtime::{CodeMode, Isolation, Limits, Reply};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt;

mod approvals;
mod cells;
mod durable;
mod floor;
mod mcp_tasks;
mod options;
mod reference;
mod stats;

use cells::{
    Noop, PAR100, SEQ100, SMALL_JS, SMALL_TS, TRIVIAL, YIELD, cell, expect, in_cell, socket_round_trip, timed_exec,
};
#[cfg(test)]
use options::parse_counts;
pub(crate) use options::{BenchArgs, BenchOptions};
use reference::{compare, reference};
use stats::{Quantiles, ms, quantiles, row, settled_rss};

/// exec → waiting, wait → completed: (exec, wait, total) samples.
async fn yield_round_trip(reply: &Reply, runs: usize, warmup: usize) -> Result<[Vec<f64>; 3]> {
    let mut out: [Vec<f64>; 3] = Default::default();
    for i in 0..warmup + runs {
        let start = Instant::now();
        let (first, exec_ms) = timed_exec(reply, YIELD).await?;
        expect(&first, "waiting", "yield")?;
        let run_id = first.run_id().unwrap_or_default().to_owned();
        let wait_start = Instant::now();
        let second = reply.wait(&run_id).await?;
        std::hint::black_box(second.to_model_text());
        let wait_ms = ms(wait_start.elapsed());
        let total = ms(start.elapsed());
        expect(&second, "completed", "wait")?;
        if i >= warmup {
            out[0].push(exec_ms);
            out[1].push(wait_ms);
            out[2].push(total);
        }
    }
    Ok(out)
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Parked {
    count: usize,
    rss_before_mib: f64,
    rss_parked_mib: f64,
    rss_after_resume_mib: f64,
    rss_per_parked_cell_kib: f64,
    /// The same by proportional set size, this process and every engine
    /// worker of it (spares too): a page the host and its workers share
    /// (the binary's text) counts once, split among them, where resident
    /// sizes count it in each.
    pss_per_parked_cell_kib: f64,
    /// What the session's first cell (run to completion before the
    /// parked ones) added, by the same measure: in process mode, its
    /// principal's worker bound and a warm one started in its place.
    pss_first_cell_kib: f64,
    park_exec_ms: Quantiles,
    resume_wait_ms: Quantiles,
}

async fn parked(rt: &CodeMode, reply: &Reply, count: usize) -> Result<Parked> {
    // The host's memory, and its engine workers' (process isolation).
    let settled_rss = async || settled_rss().await + workers_rss(rt);
    // The session's first cell, run before measuring: what binding the
    // session's first engine costs (in process mode a worker bound to its
    // principal, and the warm one started to replace it) is the key's,
    // not each parked cell's, and is reported apart.
    let pss_cold = {
        settled_rss().await;
        total_pss()?
    };
    let (r, _) = timed_exec(reply, cells::TRIVIAL).await?;
    expect(&r, "completed", "the session's first cell")?;
    let before = settled_rss().await;
    let pss_before = total_pss()?;
    let mut ids = Vec::with_capacity(count);
    let mut park = Vec::with_capacity(count);
    for _ in 0..count {
        let (r, t) = timed_exec(reply, YIELD).await?;
        expect(&r, "waiting", "park")?;
        ids.push(r.run_id().unwrap_or_default().to_owned());
        park.push(t);
    }
    let at_peak = settled_rss().await;
    let pss_at_peak = total_pss()?;
    let mut resume = Vec::with_capacity(count);
    for id in ids {
        let start = Instant::now();
        let r = reply.wait(&id).await?;
        resume.push(ms(start.elapsed()));
        expect(&r, "completed", "resume")?;
    }
    let after = settled_rss().await;
    let mib = |b: u64| b as f64 / 1_048_576.0;
    Ok(Parked {
        count,
        rss_before_mib: mib(before),
        rss_parked_mib: mib(at_peak),
        rss_after_resume_mib: mib(after),
        rss_per_parked_cell_kib: (at_peak.saturating_sub(before)) as f64 / 1024.0 / count as f64,
        pss_per_parked_cell_kib: (pss_at_peak.saturating_sub(pss_before)) as f64 / 1024.0 / count as f64,
        pss_first_cell_kib: pss_before.saturating_sub(pss_cold) as f64 / 1024.0,
        park_exec_ms: quantiles(&park),
        resume_wait_ms: quantiles(&resume),
    })
}

/// The resident memory of `rt`'s engine workers bound now (none with
/// engines in process).
fn workers_rss(rt: &CodeMode) -> u64 {
    let Some(snapshot) = rt.engine_workers() else { return 0 };
    snapshot
        .workers
        .iter()
        .map(|w| {
            let statm = std::fs::read_to_string(format!("/proc/{}/statm", w.pid)).unwrap_or_default();
            statm.split_whitespace().nth(1).and_then(|s| s.parse::<u64>().ok()).unwrap_or(0) * 4096
        })
        .sum()
}

/// The proportional set size of process `pid` (`self` for this one),
/// from `/proc/<pid>/smaps_rollup` (Linux 4.14 and later).
fn pss(pid: &str) -> Result<u64> {
    let path = format!("/proc/{pid}/smaps_rollup");
    let rollup = std::fs::read_to_string(&path).with_context(|| format!("reading {path} for the PSS figure"))?;
    let kib =
        rollup.lines().find_map(|l| l.strip_prefix("Pss:")).with_context(|| format!("{path} has no `Pss:` line"))?;
    let kib = kib.trim().trim_end_matches("kB").trim();
    Ok(kib.parse::<u64>().with_context(|| format!("{path}'s `Pss:` is not a count of kB: {kib:?}"))? * 1024)
}

/// The proportional set size of this process and of each of its
/// children running `engine-worker` (bound or spare).
fn total_pss() -> Result<u64> {
    let me = std::process::id().to_string();
    let children = std::fs::read_dir("/proc").into_iter().flatten().flatten().filter_map(|entry| {
        let pid = entry.file_name().into_string().ok().filter(|p| p.bytes().all(|b| b.is_ascii_digit()))?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // `pid (comm) state ppid …`: the name may hold spaces and parentheses.
        let ppid = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.to_owned();
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
        let worker = cmdline.split(|b| *b == 0).any(|arg| arg == b"engine-worker");
        (ppid == me && worker).then_some(pid)
    });
    let mut total = pss("self")?;
    for pid in children {
        // A worker that exited since it was listed holds no memory.
        if Path::new(&format!("/proc/{pid}")).exists() {
            total += pss(&pid)?;
        }
    }
    Ok(total)
}

/// Process start to the first completed result, and to the process's exit,
/// spawning this binary on each of `cells` (`(file name, source)`) in
/// turn, `runs` times: one (first exec, exit) sample list per cell.
async fn cold(runs: usize, cells: &[(&str, &str)], isolation: Isolation) -> Result<Vec<(Vec<f64>, Vec<f64>)>> {
    let exe = std::env::current_exe().context("finding the codemode binary")?;
    let dir = std::env::temp_dir().join(format!("codemode-bench-cold-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let config = dir.join("codemode.toml");
    let mode = if isolation == Isolation::Process { "process" } else { "thread" };
    std::fs::write(&config, format!("[limits]\nisolation = \"{mode}\"\n"))?;
    let mut files = Vec::with_capacity(cells.len());
    for (name, code) in cells {
        let file = dir.join(name);
        std::fs::write(&file, code)?;
        files.push(file);
    }
    let mut samples = vec![(Vec::with_capacity(runs), Vec::with_capacity(runs)); cells.len()];
    // Two warm-up rounds fill the page cache with the binary.
    for i in 0..runs + 2 {
        for (n, file) in files.iter().enumerate() {
            let store = dir.join(format!("store-{i}-{n}"));
            let start = Instant::now();
            let mut child = tokio::process::Command::new(&exe)
                .current_dir(&dir)
                .arg("--config")
                .arg(&config)
                .arg("--store")
                .arg(&store)
                .args(["exec", "--json"])
                .arg(file)
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .context("spawning codemode exec")?;
            let stdout = child.stdout.take().context("no stdout")?;
            let mut line = String::new();
            tokio::io::BufReader::new(stdout).read_line(&mut line).await?;
            let elapsed = ms(start.elapsed());
            child.wait().await?;
            let exited = ms(start.elapsed());
            if !line.contains("\"completed\"") {
                bail!("cold exec of {} printed {line:?}", file.display());
            }
            if i >= 2 {
                samples[n].0.push(elapsed);
                samples[n].1.push(exited);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(samples)
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Throughput {
    clients: usize,
    seconds: f64,
    cells: usize,
    cells_per_second: f64,
    latency_ms: Quantiles,
}

/// Trivial cells back to back from many concurrent clients.
async fn throughput(rt: &CodeMode, clients: usize, duration: Duration) -> Result<Throughput> {
    let start = Instant::now();
    let deadline = start + duration;
    let mut tasks = Vec::new();
    for c in 0..clients {
        let reply = rt.session(format!("tp-{c}")).reply("r");
        tasks.push(tokio::spawn(async move {
            let mut samples = Vec::new();
            while Instant::now() < deadline {
                let (r, t) = timed_exec(&reply, TRIVIAL).await?;
                expect(&r, "completed", "throughput")?;
                samples.push(t);
            }
            anyhow::Ok(samples)
        }));
    }
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await??);
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok(Throughput {
        clients,
        seconds,
        cells: all.len(),
        cells_per_second: all.len() as f64 / seconds,
        latency_ms: quantiles(&all),
    })
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct HeadOfLine {
    clients: usize,
    seconds: f64,
    busy_timeout_ms: u64,
    trivial_cells: usize,
    busy_cells: usize,
    /// Admission to completion of the trivial cells.
    latency_ms: Quantiles,
}

/// Clients in the head-of-line scenario: several, fixed so runs compare
/// across machines.
const HOL_CLIENTS: usize = 8;
/// How long the head-of-line scenario runs.
const HOL_DURATION: Duration = Duration::from_secs(10);
/// The busy cells' budget: short, so the run is bounded.
const HOL_BUSY_TIMEOUT: Duration = Duration::from_secs(1);
/// One submitted cell in this many is a busy loop.
const HOL_BUSY_EVERY: usize = 100;
const BUSY: &str = "while (true) {}";

/// Head-of-line blocking: trivial cells from several concurrent clients
/// while 1 % of the submitted cells are `while (true) {}` loops that spin
/// until their 1 s budget ends. Each client waits for its own cells, busy
/// ones included; the latency is that of the trivial cells, from `exec` to
/// the result text. A trivial cell that queued behind a busy loop would
/// take up to the busy budget.
async fn head_of_line(clients: usize, duration: Duration, isolation: Isolation) -> Result<HeadOfLine> {
    let limits = Limits { timeout: HOL_BUSY_TIMEOUT, ..Limits::default() };
    let rt = CodeMode::builder().limits(limits).isolation(isolation).tool(Noop).start().await?;
    let submitted = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let start = Instant::now();
    let deadline = start + duration;
    let mut tasks = Vec::new();
    for c in 0..clients {
        let reply = rt.session(format!("hol-{c}")).reply("r");
        let submitted = std::sync::Arc::clone(&submitted);
        tasks.push(tokio::spawn(async move {
            let (mut samples, mut busy) = (Vec::new(), 0usize);
            while Instant::now() < deadline {
                let k = submitted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if k % HOL_BUSY_EVERY == HOL_BUSY_EVERY - 1 {
                    let (r, _) = timed_exec(&reply, BUSY).await?;
                    expect(&r, "failed", "hol busy loop")?;
                    busy += 1;
                } else {
                    let (r, t) = timed_exec(&reply, TRIVIAL).await?;
                    expect(&r, "completed", "hol")?;
                    samples.push(t);
                }
            }
            anyhow::Ok((samples, busy))
        }));
    }
    let (mut all, mut busy_cells) = (Vec::new(), 0);
    for task in tasks {
        let (samples, busy) = task.await??;
        all.extend(samples);
        busy_cells += busy;
    }
    let seconds = start.elapsed().as_secs_f64();
    rt.shutdown().await;
    Ok(HeadOfLine {
        clients,
        seconds,
        busy_timeout_ms: u64::try_from(HOL_BUSY_TIMEOUT.as_millis()).unwrap_or(u64::MAX),
        trivial_cells: all.len(),
        busy_cells,
        latency_ms: quantiles(&all),
    })
}

/// A fixed CPU loop, as the reference's noise probe: how busy the machine is.
fn noise() -> Quantiles {
    let mut samples = Vec::new();
    for _ in 0..40 {
        let start = Instant::now();
        let mut x = 0.0f64;
        for i in 1..2_000_000u32 {
            x += f64::from(i).sqrt() % 7.0;
        }
        std::hint::black_box(x);
        samples.push(ms(start.elapsed()));
    }
    quantiles(&samples)
}

/// Runs the benchmark and prints (and optionally writes) the report.
pub(crate) async fn run(options: BenchOptions) -> Result<()> {
    let m = measure(&options).await?;
    print_report(&m, &options);
    let mut report = m.to_json(&options);
    if options.compare || options.reference_json.is_some() {
        let reference = match &options.reference_json {
            Some(path) => serde_json::from_str(
                &std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?,
            )
            .with_context(|| format!("{} is not a reference report", path.display()))?,
            None => reference(&options, options.runs, options.warmup).await?,
        };
        compare(&report, &reference);
        report["reference"] = reference;
    }
    if let Some(path) = &options.json {
        std::fs::write(path, serde_json::to_string_pretty(&report)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// What one `codemode bench` measured; a scenario that did not run has
/// empty quantiles or `None`.
struct Measured {
    cpus: usize,
    load: String,
    noise_before: Quantiles,
    noise_after: Quantiles,
    trivial: Quantiles,
    trivial_idle: Quantiles,
    seq100: Quantiles,
    par100: Quantiles,
    /// Per-call µs inside one cell: sequential, concurrent.
    in_cell: Option<(f64, f64)>,
    /// Median µs of a socket round trip between two threads (with engines
    /// in workers: the floor a step adds, two wake-ups over a socket).
    round_trip: Option<f64>,
    yield_exec: Quantiles,
    yield_wait: Quantiles,
    yield_total: Quantiles,
    parked: Vec<Parked>,
    cold: Quantiles,
    cold_exit: Quantiles,
    /// First exec in a fresh process: a small TypeScript cell, and its
    /// JavaScript twin in alternation.
    cold_ts: Quantiles,
    cold_ts_twin: Quantiles,
    throughput: Option<Throughput>,
    hol: Option<HeadOfLine>,
    durable: durable::DurableReport,
    floor: Option<floor::Floor>,
    /// How the scenarios' cells got their engines: (scenario, spare, inline).
    takes: Vec<(&'static str, u64, u64)>,
}

/// Runs the scenarios `options` asks for, on a runtime set up as
/// `codemode` runs by default.
async fn measure(options: &BenchOptions) -> Result<Measured> {
    let largest = options.parked.iter().copied().max().unwrap_or(0);
    let live = (largest + 64).clamp(1_024, 100_000);
    let limits = Limits {
        max_live_cells: live,
        max_live_cells_per_session: live,
        max_live_cells_per_principal: live,
        ..Limits::default()
    };
    // As `codemode` runs by default: a sled store on disk, default `[runs]`
    // (parks are journaled, `durability = "process"`).
    let store_dir = std::env::temp_dir().join(format!("codemode-bench-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&store_dir);
    let rt = CodeMode::builder()
        .limits(limits)
        .isolation(options.isolation)
        .tool(Noop)
        .store_backend(codemode_runtime::StoreBackend::Sled { path: Some(store_dir.clone()) })
        .start()
        .await?;
    let reply = rt.session("bench").reply("r");
    let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    eprintln!("codemode bench: {cpus} cpus, load {}", load.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    let noise_before = tokio::task::spawn_blocking(noise).await?;
    let (runs, warmup) = (options.runs, options.warmup);

    // Parked-cell memory first, on a fresh heap: freed memory from earlier
    // scenarios would be reused and hide the growth.
    let named = |s: &str| options.named(s);
    let mut durable_report = durable::DurableReport::default();
    durable::run_memory(&named, &options.evicted, &mut durable_report).await?;
    let mut parked_reports = Vec::new();
    if options.runs("parked") {
        for &count in &options.parked {
            parked_reports.push(parked(&rt, &reply, count).await?);
        }
    }
    let none = || quantiles(&[]);
    let floor = if options.runs("floor") { Some(floor::floor(&rt, cpus).await?) } else { None };
    let mut takes = Vec::new();
    let cell_or_none = async |name: &str, code: &str, gap: Option<Duration>| -> Result<Quantiles> {
        Ok(if options.runs(name) { quantiles(&cell(&reply, code, runs, warmup, gap).await?) } else { none() })
    };
    let before = rt.engine_takes();
    let trivial = cell_or_none("trivial", TRIVIAL, None).await?;
    let between = rt.engine_takes();
    // With a pause between cells every JS thread has its next engine ready.
    let trivial_idle = cell_or_none("trivial_idle", TRIVIAL, Some(Duration::from_millis(2))).await?;
    let after = rt.engine_takes();
    for (name, q, from, to) in [("trivial", &trivial, before, between), ("trivial_idle", &trivial_idle, between, after)]
    {
        if q.n > 0 {
            takes.push((name, to.spare - from.spare, to.inline - from.inline));
        }
    }
    let seq100 = cell_or_none("seq100", SEQ100, None).await?;
    let par100 = cell_or_none("par100", PAR100, None).await?;
    let in_cell = if options.runs("seq100") || options.runs("par100") { Some(in_cell(&reply).await?) } else { None };
    let round_trip = if in_cell.is_some() && options.isolation == codemode_runtime::Isolation::Process {
        Some(tokio::task::spawn_blocking(socket_round_trip).await??)
    } else {
        None
    };
    let [y_exec, y_wait, y_total] =
        if options.runs("yield") { yield_round_trip(&reply, runs, warmup).await? } else { Default::default() };
    let (cold_first, cold_exit) = if options.runs("cold") {
        let runs = cold(options.cold_runs, &[("cell.js", TRIVIAL)], options.isolation).await?;
        runs.first().map_or_else(|| (none(), none()), |(first, exit)| (quantiles(first), quantiles(exit)))
    } else {
        (none(), none())
    };
    let (cold_ts, cold_ts_twin) = if options.runs("cold_ts") {
        let runs = cold(options.cold_runs, &[("cell.ts", SMALL_TS), ("twin.js", SMALL_JS)], options.isolation).await?;
        match runs.as_slice() {
            [(ts, _), (js, _)] => (quantiles(ts), quantiles(js)),
            _ => (none(), none()),
        }
    } else {
        (none(), none())
    };
    let throughput = if options.runs("throughput") {
        let before = rt.engine_takes();
        let t = throughput(&rt, cpus * 4, Duration::from_millis(options.throughput_ms)).await?;
        let after = rt.engine_takes();
        takes.push(("throughput", after.spare - before.spare, after.inline - before.inline));
        Some(t)
    } else {
        None
    };
    // Its own runtime: the busy loops need a short budget.
    let hol = if options.runs("hol") {
        Some(head_of_line(HOL_CLIENTS, HOL_DURATION, options.isolation).await?)
    } else {
        None
    };
    durable::run_timing(&named, options.postgres.as_deref(), runs, warmup, &mut durable_report).await?;
    let noise_after = tokio::task::spawn_blocking(noise).await?;
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&store_dir);
    Ok(Measured {
        cpus,
        load,
        noise_before,
        noise_after,
        trivial,
        trivial_idle,
        seq100,
        par100,
        in_cell,
        round_trip,
        yield_exec: quantiles(&y_exec),
        yield_wait: quantiles(&y_wait),
        yield_total: quantiles(&y_total),
        parked: parked_reports,
        cold: cold_first,
        cold_exit,
        cold_ts,
        cold_ts_twin,
        throughput,
        hol,
        durable: durable_report,
        floor,
        takes,
    })
}

impl Measured {
    /// Per noop call, from the p50s: (sequential, concurrent) ms.
    fn per_call(&self) -> (f64, f64) {
        ((self.seq100.p50 - self.trivial.p50) / 100.0, (self.par100.p50 - self.trivial.p50) / 100.0)
    }

    /// The throughput scenario's cells/s as a share of the floor's.
    fn floor_share(&self) -> Option<f64> {
        Some(self.throughput.as_ref()?.cells_per_second / self.floor.as_ref()?.floor_cells_per_second)
    }

    /// The JSON report (`--json`), before any reference is added.
    fn to_json(&self, options: &BenchOptions) -> Value {
        let (per_call_seq, per_call_par) = self.per_call();
        json!({
            "meta": {
                "cpus": self.cpus, "loadavg": self.load.trim(), "runs": options.runs, "warmup": options.warmup,
                "isolation": format!("{:?}", options.isolation).to_lowercase(),
            },
            "noiseBefore": self.noise_before, "noiseAfter": self.noise_after,
            "trivial": self.trivial, "trivialIdle": self.trivial_idle, "seq100": self.seq100, "par100": self.par100,
            "perCallOverheadSeqMs": per_call_seq, "perCallOverheadParMs": per_call_par,
            "inCellPerCallMicros": self.in_cell.map(|(s, p)| json!({"sequential": s, "concurrent": p})),
            "socketRoundTripMicros": self.round_trip,
            "yieldExec": self.yield_exec, "yieldWait": self.yield_wait, "yieldTotal": self.yield_total,
            "parked": self.parked, "coldFirstExecMs": self.cold, "coldExitMs": self.cold_exit,
            "coldTypeScriptMs": self.cold_ts, "coldTypeScriptTwinMs": self.cold_ts_twin,
            "throughput": self.throughput, "headOfLine": self.hol, "durable": self.durable,
            "floor": self.floor, "floorShareOfThroughput": self.floor_share(),
            "engineTakes": self.takes.iter().map(|(s, spare, inline)| json!({"scenario": s, "spare": spare, "inline": inline})).collect::<Vec<_>>(),
        })
    }
}

/// Prints the report as a table.
fn print_report(m: &Measured, options: &BenchOptions) {
    let (per_call_seq, per_call_par) = m.per_call();
    println!("\ncodemode bench ({} runs after {} warm-up; times in ms)", options.runs, options.warmup);
    if let Some(f) = &m.floor {
        println!(
            "0 engine floor (µs per engine, p50 of {} alternating batches): bare QuickJS {:.1}, codemode {:.1} \
             ({:.2}x the floor); the floor makes {:.0} engines/s on {} threads",
            f.bare_micros.n, f.bare_micros.p50, f.engine_micros.p50, f.ratio, f.floor_cells_per_second, f.threads
        );
    }
    println!("{:<34} {:>10} {:>10} {:>10} {:>10}", "scenario", "min", "p50", "p90", "p99");
    row("1 trivial cell `return 1`", &m.trivial);
    row("  same, 2 ms between cells", &m.trivial_idle);
    row("2 100 sequential noop calls", &m.seq100);
    if m.trivial.n > 0 && m.seq100.n > 0 {
        println!("  per sequential call (p50 2-1)/100: {per_call_seq:.4} ms");
    }
    row("3 100 noop calls via Promise.all", &m.par100);
    if m.trivial.n > 0 && m.par100.n > 0 {
        println!("  per concurrent call (p50 3-1)/100: {per_call_par:.4} ms");
    }
    if let Some((seq, par)) = m.in_cell {
        println!(
            "  inside one cell (2,000 calls, median of 9): {seq:.2} µs sequential, {par:.2} µs concurrent per call"
        );
    }
    if let Some(rt) = m.round_trip {
        println!(
            "  floor a step adds in a worker: a socket round trip between two threads, {rt:.2} µs (median of 9 × 5,000)"
        );
    }
    row("4 yield_control + wait: total", &m.yield_total);
    row("  exec (to waiting)", &m.yield_exec);
    row("  wait (to completed)", &m.yield_wait);
    for p in &m.parked {
        println!(
            "5 parked x{:<6} RSS per parked cell: {:.1} KiB (before {:.1} MiB, parked {:.1} MiB, after resume {:.1} MiB); PSS {:.1} KiB (the session's first cell: {:.0} KiB)",
            p.count,
            p.rss_per_parked_cell_kib,
            p.rss_before_mib,
            p.rss_parked_mib,
            p.rss_after_resume_mib,
            p.pss_per_parked_cell_kib,
            p.pss_first_cell_kib
        );
    }
    row("6 first exec, fresh process", &m.cold);
    row("  same, to the process's exit", &m.cold_exit);
    row("6b first exec, small TypeScript cell", &m.cold_ts);
    row("  its JavaScript twin, alternating", &m.cold_ts_twin);
    if m.cold_ts.n > 0 && m.cold_ts_twin.n > 0 {
        println!("  TypeScript costs (p50 6b - twin): {:+.3} ms", m.cold_ts.p50 - m.cold_ts_twin.p50);
    }
    if let Some(t) = &m.throughput {
        println!(
            "7 throughput: {:.0} trivial cells/s ({} clients, {} cores, {} cells in {:.1} s; latency p50 {:.3} ms, p99 {:.3} ms)",
            t.cells_per_second, t.clients, m.cpus, t.cells, t.seconds, t.latency_ms.p50, t.latency_ms.p99
        );
    }
    if let Some(share) = m.floor_share() {
        println!("  throughput is {:.0} % of the engine floor's cells/s", share * 100.0);
    }
    for (scenario, spare, inline) in &m.takes {
        println!("  engines in {scenario}: {spare} from a spare, {inline} prepared while the cell waited");
    }
    if let Some(h) = &m.hol {
        println!(
            "8 head-of-line: trivial cells p50 {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms (target p99 <= 50 ms; \
             {} trivial + {} busy-loop cells with a {} ms budget, {} clients, {:.1} s)",
            h.latency_ms.p50,
            h.latency_ms.p90,
            h.latency_ms.p99,
            h.latency_ms.max,
            h.trivial_cells,
            h.busy_cells,
            h.busy_timeout_ms,
            h.clients,
            h.seconds
        );
    }
    durable::print(&m.durable);
    println!(
        "noise (fixed CPU loop p50/p90): before {:.2}/{:.2} ms, after {:.2}/{:.2} ms",
        m.noise_before.p50, m.noise_before.p90, m.noise_after.p50, m.noise_after.p90
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parked_counts_are_a_comma_list() {
        assert_eq!(parse_counts("32, 1000").unwrap(), vec![32, 1000]);
        assert!(parse_counts("32,x").is_err());
    }
}
