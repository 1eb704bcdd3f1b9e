//! The soak: mixed cells with session churn, sampled over time, and a
//! check that nothing grows.

use super::*;

/// The soak's mix: each kind with its weight.
pub(crate) const MIX: [(Kind, u64); 9] = [
    (Kind::Trivial, 4),
    (Kind::Throw, 2),
    (Kind::Busy, 1),
    (Kind::Yield, 3),
    (Kind::Store, 3),
    (Kind::Timer, 3),
    (Kind::Large, 1),
    (Kind::Huge, 1),
    (Kind::Output, 2),
];

pub(crate) fn pick(mix: &[(Kind, u64)], r: u64) -> Kind {
    let total: u64 = mix.iter().map(|m| m.1).sum();
    let mut x = r % total.max(1);
    for &(kind, w) in mix {
        if x < w {
            return kind;
        }
        x -= w;
    }
    Kind::Trivial
}

/// xorshift64*: enough randomness for a workload mix.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Sample {
    pub(crate) cells: u64,
    pub(crate) secs: f64,
    pub(crate) stats: ProcStats,
    pub(crate) live: u64,
    pub(crate) parked: u64,
    pub(crate) store_kib: u64,
    pub(crate) sessions: u64,
    pub(crate) failures: u64,
}

pub(crate) fn print_sample_header() {
    println!(
        "| cells | elapsed s | RSS MiB | threads | fds | children | live cells | parked | store KiB | sessions | failures |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
}

pub(crate) fn print_sample(s: &Sample) {
    println!(
        "| {} | {:.0} | {:.1} | {} | {} | {} | {} | {} | {} | {} | {} |",
        s.cells,
        s.secs,
        mib(s.stats.rss_kib),
        s.stats.threads,
        s.stats.fds,
        s.stats.children,
        s.live,
        s.parked,
        s.store_kib,
        s.sessions,
        s.failures
    );
}

/// Least-squares slope of `y` over `x`.
pub(crate) fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    if sxx == 0.0 { 0.0 } else { sxy / sxx }
}

/// What the soak's workers and its sampler share.
struct Soak {
    server: Arc<Server>,
    /// The mix left after `--without`.
    chosen: Vec<(Kind, u64)>,
    cells_done: AtomicU64,
    sessions: AtomicU64,
    /// Sessions that left a parked cell behind.
    abandoned: AtomicU64,
    failures: Failures,
    lat: Latencies,
    /// The rows taken so far; held while a row is taken, so rows come one
    /// at a time.
    samples: Mutex<Vec<Sample>>,
    start: Instant,
    deadline: Instant,
    max_cells: u64,
    /// A row every this many cells.
    every: u64,
}

pub(crate) async fn soak(o: &Options) -> Result<u64> {
    let timeout_ms = 200;
    let grace_ms = 1000;
    let config = format!(
        "# soak: short cell timeout (busy loops end fast), short dispose grace (churned\n\
         # sessions' parked cells are disposed soon); quotas raised for principal `local`.\n\
         [limits]\ntimeout_ms = {timeout_ms}\nmax_live_cells = 4096\nmax_live_cells_per_principal = 4096\n\n\
         [serve]\ndispose_grace_ms = {grace_ms}\n"
    );
    let workers = o.workers;
    println!(
        "## soak: {workers} workers, each connecting an MCP client, running 3-8 mixed cells, sometimes leaving one \
         parked, and disconnecting; for {:.0} s or {} cells\n",
        o.duration.as_secs_f64(),
        o.max_cells
    );
    println!("config: timeout_ms = {timeout_ms}, dispose_grace_ms = {grace_ms}, max_live_cells(_per_principal) = 4096");
    let chosen = chosen_mix(o)?;
    let server = Arc::new(Server::start(o, "soak", &config)?);
    settle(500).await;
    let start = Instant::now();
    let soak = Arc::new(Soak {
        server,
        chosen,
        cells_done: AtomicU64::new(0),
        sessions: AtomicU64::new(0),
        abandoned: AtomicU64::new(0),
        failures: Failures::default(),
        lat: Arc::default(),
        samples: Mutex::default(),
        start,
        deadline: start + o.duration,
        max_cells: o.max_cells,
        every: o.sample_every,
    });
    print_sample_header();
    soak.take_sample(0);
    let mut tasks = tokio::task::JoinSet::new();
    for w in 0..workers {
        tasks.spawn(worker(Arc::clone(&soak), w));
    }
    while let Some(r) = tasks.join_next().await {
        if let Err(e) = r {
            soak.failures.record("worker", &anyhow!("{e}"));
        }
    }
    let elapsed = start.elapsed();
    let total = soak.cells_done.load(Ordering::Relaxed);
    // Let the last sessions' grace pass.
    settle(grace_ms + 2000).await;
    soak.report(total, elapsed, grace_ms);
    Ok(soak.failures.count.load(Ordering::Relaxed))
}

/// The mix without the kinds `--without` leaves out; prints it.
fn chosen_mix(o: &Options) -> Result<Vec<(Kind, u64)>> {
    let chosen: Vec<(Kind, u64)> =
        MIX.iter().copied().filter(|(k, _)| !o.without.iter().any(|w| k.name().starts_with(w.as_str()))).collect();
    if chosen.is_empty() {
        bail!("--without left no cells to run");
    }
    let total_w: u64 = chosen.iter().map(|m| m.1).sum();
    let mix: Vec<String> = chosen.iter().map(|(k, w)| format!("{} {w}/{total_w}", k.name())).collect();
    println!("mix: {}; 1 in 4 sessions leaves a parked cell behind\n", mix.join(", "));
    Ok(chosen)
}

/// One soak worker: until the deadline or the cell budget, connects a
/// client, runs 3-8 cells of the mix, sometimes leaves a parked cell
/// behind, and disconnects.
async fn worker(soak: Arc<Soak>, w: usize) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ ((w as u64 + 1) << 17));
    let mut i = (w as u64) << 40;
    while Instant::now() < soak.deadline && soak.cells_done.load(Ordering::Relaxed) < soak.max_cells {
        let client = match connect(&soak.server.url, 8).await {
            Ok(c) => c,
            Err(e) => {
                soak.failures.record("connect", &e);
                settle(200).await;
                continue;
            }
        };
        soak.sessions.fetch_add(1, Ordering::Relaxed);
        let peer = client.peer().clone();
        let n = 3 + rng.next() % 6;
        for _ in 0..n {
            let kind = pick(&soak.chosen, rng.next());
            i += 1;
            if let Err(e) = timed_cell(&peer, kind, i, 20, &soak.lat).await {
                soak.failures.record(&format!("cell {i} ({})", kind.name()), &e);
            }
            let done = soak.cells_done.fetch_add(1, Ordering::Relaxed) + 1;
            if done.is_multiple_of(soak.every) {
                let s = Arc::clone(&soak);
                let _ = tokio::task::spawn_blocking(move || s.take_sample(done)).await;
            }
        }
        if rng.next().is_multiple_of(4) {
            // Leave a parked cell behind: serve disposes it after the grace.
            match call(&peer, "exec", json!({"code": "await yield_control('left'); return 1"})).await {
                Ok(r) if status(&r) == "waiting" => {
                    soak.abandoned.fetch_add(1, Ordering::Relaxed);
                }
                Ok(r) => soak.failures.record("abandoned park", &anyhow!("{}", clip(&r.to_string()))),
                Err(e) => soak.failures.record("abandoned park", &e),
            }
        }
        if tokio::time::timeout(Duration::from_secs(10), client.cancel()).await.is_err() {
            soak.failures.record("disconnect", &anyhow!("cancel took over 10 s"));
        }
    }
}

impl Soak {
    /// The server's state after `cells` cells.
    fn sample(&self, cells: u64) -> Sample {
        let (live, parked) = self.server.cells().unwrap_or((u64::MAX, u64::MAX));
        Sample {
            cells,
            secs: self.start.elapsed().as_secs_f64(),
            stats: self.server.stats(),
            live,
            parked,
            store_kib: self.server.store_kib(),
            sessions: self.sessions.load(Ordering::Relaxed),
            failures: self.failures.count.load(Ordering::Relaxed),
        }
    }

    /// Takes, prints and keeps one row.
    fn take_sample(&self, cells: u64) {
        let mut samples = self.samples.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let s = self.sample(cells);
        print_sample(&s);
        samples.push(s);
    }

    /// The idle row after the run, the totals, the trend, the latencies and
    /// the failures.
    fn report(&self, total: u64, elapsed: Duration, grace_ms: u64) {
        let end = self.sample(total);
        println!("\nidle, {} ms after the last disconnect:\n", grace_ms + 2000);
        print_sample_header();
        print_sample(&end);
        let alive = self.server.alive();
        println!();
        let rate = total as f64 / elapsed.as_secs_f64();
        println!(
            "{total} cells in {:.0} s ({rate:.0} cells/s) over {} sessions ({} left a parked cell behind); server \
             alive at the end: {alive}",
            elapsed.as_secs_f64(),
            end.sessions,
            self.abandoned.load(Ordering::Relaxed)
        );
        if !alive {
            println!("server stderr:\n{}", self.server.stderr_tail());
        }
        let samples = self.samples.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        analyse(&samples);
        println!();
        print_latencies(&self.lat);
        if !self.server.alive() {
            println!("the server exited; its stderr:\n{}", self.server.stderr_tail());
        }
        self.failures.report();
        println!();
    }
}

/// Slopes over the second half of the samples: is it flat after warm-up?
pub(crate) fn analyse(samples: &[Sample]) {
    let half: Vec<&Sample> = samples.iter().skip(samples.len() / 2).collect();
    if half.len() < 3 {
        println!("too few samples for a trend (need at least 6 rows; use a longer run)");
        return;
    }
    let series = |f: &dyn Fn(&Sample) -> f64| -> (f64, f64, f64, f64, f64) {
        let pts: Vec<(f64, f64)> = half.iter().map(|s| (s.cells as f64 / 1000.0, f(s))).collect();
        let k = slope(&pts);
        let span = pts.last().map_or(0.0, |p| p.0) - pts[0].0;
        let mean = pts.iter().map(|p| p.1).sum::<f64>() / pts.len() as f64;
        let min = pts.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let max = pts.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        (k, k * span, mean, min, max)
    };
    println!(
        "\ntrend over the second half ({} rows, cells {}..{}): least-squares slope per 1,000 cells, and the fitted \
         change across that half\n",
        half.len(),
        half[0].cells,
        half[half.len() - 1].cells
    );
    println!("| metric | mean | min | max | slope / 1k cells | fitted change | flat? |");
    println!("|---|---|---|---|---|---|---|");
    /// A reported metric: its name, how to read it from a sample, and the
    /// relative tolerance that still counts as flat (0: a count).
    type Row<'a> = (&'a str, &'a dyn Fn(&Sample) -> f64, f64);
    let rows: [Row<'_>; 6] = [
        ("RSS MiB", &|s| mib(s.stats.rss_kib), 0.05),
        ("threads", &|s| s.stats.threads as f64, 0.0),
        ("fds", &|s| s.stats.fds as f64, 0.0),
        ("children", &|s| s.stats.children as f64, 0.0),
        ("live cells", &|s| s.live as f64, 0.0),
        ("store KiB", &|s| s.store_kib as f64, 0.05),
    ];
    for (name, f, rel) in rows {
        let (k, change, mean, min, max) = series(f);
        // Flat: the fitted change is within 5 % of the mean (memory, disk),
        // or under 2 units (counts), or within the spread a count shows.
        let tolerance = if rel > 0.0 { rel * mean } else { 2.0_f64.max((max - min) / 2.0) };
        let flat = if change.abs() <= tolerance { "yes" } else { "NO" };
        println!("| {name} | {mean:.1} | {min:.1} | {max:.1} | {k:+.4} | {change:+.2} | {flat} |");
    }
}
