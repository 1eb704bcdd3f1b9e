//! Cells: the kinds of cell the scenarios run, what counts as a failure,
//! latencies and the stats tables.

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Kind {
    /// `return` a small object.
    Trivial,
    /// A 50 ms timer (20 ms in the soak).
    Timer,
    /// `yield_control`, then `wait`.
    Yield,
    /// `throw`: a failed cell.
    Throw,
    /// A busy loop past `[limits] timeout_ms`: failed with a timeout.
    Busy,
    /// `store` then `load` in the session store.
    Store,
    /// A 40 KB string value (fits the output budget).
    Large,
    /// A ~100 KB value (50 strings of 2,000): past the output budget,
    /// saved and returned truncated.
    Huge,
    /// 200 `console.log` lines.
    Output,
}

impl Kind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Trivial => "trivial",
            Self::Timer => "timer",
            Self::Yield => "yield+wait",
            Self::Throw => "throw",
            Self::Busy => "timeout (busy loop)",
            Self::Store => "store+load",
            Self::Large => "large value (40 KB)",
            Self::Huge => "huge value (truncated)",
            Self::Output => "console output",
        }
    }

    pub(crate) fn code(self, i: u64, timer_ms: u64) -> String {
        match self {
            Self::Trivial => format!("return {{ i: {i}, ok: true }}"),
            Self::Timer => format!("await new Promise(r => setTimeout(r, {timer_ms})); return {{ i: {i} }}"),
            Self::Yield => format!("await yield_control('load'); return {{ i: {i} }}"),
            Self::Throw => format!("throw new Error('boom {i}')"),
            Self::Busy => "let n = 0; while (true) { n++; }".to_owned(),
            Self::Store => format!(
                "await store('k{k}', {{ i: {i}, pad: 'y'.repeat(1000) }}); return {{ i: (await load('k{k}')).i }}",
                k = i % 8
            ),
            Self::Large => format!("return {{ i: {i}, s: 'z'.repeat(40000) }}"),
            Self::Huge => format!("return {{ i: {i}, rows: Array(50).fill('v'.repeat(2000)) }}"),
            Self::Output => {
                format!("for (let k = 0; k < 200; k++) console.log('line', k, {{ i: {i} }}); return {{ i: {i} }}")
            }
        }
    }

    /// Runs one cell to its end and checks the result.
    pub(crate) async fn run(self, peer: &Peer<RoleClient>, i: u64, timer_ms: u64) -> Result<()> {
        let first = call(peer, "exec", json!({ "code": self.code(i, timer_ms) })).await?;
        if self == Self::Yield && (status(&first) != "waiting" || first["reason"] != "yield") {
            bail!("yield: expected waiting/yield, got {}", clip(&first.to_string()));
        }
        let end = wait_out(peer, first).await?;
        let want_i = |v: &Value| v["i"].as_u64() == Some(i);
        let ok = match self {
            Self::Trivial | Self::Timer | Self::Yield | Self::Store | Self::Output => {
                status(&end) == "completed" && want_i(&end["value"])
            }
            Self::Large => {
                status(&end) == "completed"
                    && want_i(&end["value"])
                    && end["value"]["s"].as_str().map(str::len) == Some(40_000)
            }
            Self::Huge => {
                status(&end) == "completed"
                    && (end["value"]["truncated"] == true || end["value"]["rows"].as_array().map(Vec::len) == Some(50))
            }
            Self::Throw => status(&end) == "failed" && end["error"].to_string().contains(&format!("boom {i}")),
            Self::Busy => status(&end) == "failed" && end["code"].as_str().is_some_and(|c| c.contains("timeout")),
        };
        if !ok {
            bail!("{}: unexpected result {}", self.name(), clip(&end.to_string()));
        }
        Ok(())
    }
}

/// Counts failures and keeps the first few messages.
#[derive(Default)]
pub(crate) struct Failures {
    pub(crate) count: AtomicU64,
    pub(crate) first: Mutex<Vec<String>>,
}

impl Failures {
    pub(crate) fn record(&self, what: &str, e: &Error) {
        self.count.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if first.len() < 10 {
            first.push(format!("{what}: {e}"));
        }
    }

    pub(crate) fn report(&self) {
        let n = self.count.load(Ordering::Relaxed);
        println!("failures: {n}");
        for f in self.first.lock().unwrap_or_else(std::sync::PoisonError::into_inner).iter() {
            println!("  {f}");
        }
    }
}

/// Latencies per kind, in milliseconds.
pub(crate) type Latencies = Arc<Mutex<BTreeMap<Kind, Vec<f64>>>>;

pub(crate) fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

pub(crate) fn print_latencies(lat: &Latencies) {
    println!("| cell | n | p50 ms | p90 ms | p99 ms | max ms |");
    println!("|---|---|---|---|---|---|");
    for (kind, samples) in lat.lock().unwrap_or_else(std::sync::PoisonError::into_inner).iter_mut() {
        samples.sort_by(f64::total_cmp);
        println!(
            "| {} | {} | {:.1} | {:.1} | {:.1} | {:.1} |",
            kind.name(),
            samples.len(),
            percentile(samples, 0.5),
            percentile(samples, 0.9),
            percentile(samples, 0.99),
            samples.last().copied().unwrap_or(f64::NAN)
        );
    }
}

pub(crate) async fn timed_cell(
    peer: &Peer<RoleClient>,
    kind: Kind,
    i: u64,
    timer_ms: u64,
    lat: &Latencies,
) -> Result<()> {
    let start = Instant::now();
    let r = kind.run(peer, i, timer_ms).await;
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    lat.lock().unwrap_or_else(std::sync::PoisonError::into_inner).entry(kind).or_default().push(ms);
    r
}

pub(crate) fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

pub(crate) fn print_stats(label: &str, st: ProcStats, cells: Option<(u64, u64)>) {
    let (live, parked) = cells.map_or(("?".to_owned(), "?".to_owned()), |(l, p)| (l.to_string(), p.to_string()));
    println!(
        "| {label} | {:.1} | {} | {} | {} | {live} | {parked} |",
        mib(st.rss_kib),
        st.threads,
        st.fds,
        st.children
    );
}

pub(crate) fn stats_header() {
    println!("| moment | RSS MiB | threads | fds | children | live cells | parked cells |");
    println!("|---|---|---|---|---|---|---|");
}

pub(crate) async fn settle(ms: u64) {
    tokio::time::sleep(Duration::from_millis(ms)).await;
}
