//! Scenario (a): load held.

use super::*;

/// How many clients run how many cells, with how many in flight per
/// client.
#[derive(Clone, Copy)]
struct Shape {
    clients: usize,
    in_flight: usize,
    per_client: usize,
}

/// What one round measured, for the summary table.
struct Round {
    round: usize,
    elapsed: Duration,
    /// The most cells the clients had in flight at once.
    max_seen: usize,
    peaks: Arc<Peaks>,
    before: ProcStats,
    after: ProcStats,
}

pub(crate) async fn held(o: &Options) -> Result<u64> {
    let shape = Shape {
        clients: o.clients.unwrap_or(50),
        in_flight: o.in_flight.unwrap_or(20),
        per_client: o.cells_per_client.unwrap_or(200),
    };
    let Shape { clients, in_flight, per_client } = shape;
    let rounds = o.rounds;
    let cap = (clients * in_flight * 2).max(1024);
    let config = format!(
        "# load held: every loopback client is principal `local`, so the per-principal\n\
         # quota (default 512) and the global one (default 1,024) are raised.\n\
         [limits]\nmax_live_cells = {cap}\nmax_live_cells_per_principal = {cap}\n\n[serve]\ndispose_grace_ms = 1000\n"
    );
    println!(
        "## load held: {clients} MCP HTTP clients x {in_flight} cells in flight, {per_client} cells each \
         (trivial / 50 ms timer / yield_control + wait), {rounds} rounds with fresh clients on one server\n"
    );
    println!("config: max_live_cells = {cap}, max_live_cells_per_principal = {cap}, dispose_grace_ms = 1000\n");
    let server = Arc::new(Server::start(o, "held", &config)?);
    settle(500).await;
    stats_header();
    print_stats("server started", server.stats(), server.cells().ok());
    let failures = Arc::new(Failures::default());
    let lat: Latencies = Arc::default();
    let mut summary = Vec::new();
    for round in 1..=rounds {
        summary.push(held_round(&server, shape, round, &failures, &lat).await?);
    }
    print_summary(&summary, clients * per_client);
    print_latencies(&lat);
    if !server.alive() {
        println!("the server exited; its stderr:\n{}", server.stderr_tail());
    }
    failures.report();
    println!();
    Ok(failures.count.load(Ordering::Relaxed))
}

/// One round with fresh clients: every client runs its cells, keeping
/// `in_flight` of them going, while the server's peaks are sampled; then
/// the clients disconnect.
async fn held_round(
    server: &Arc<Server>,
    shape: Shape,
    round: usize,
    failures: &Arc<Failures>,
    lat: &Latencies,
) -> Result<Round> {
    let Shape { clients, in_flight, .. } = shape;
    // One warm-up cell per client binds its session.
    let (peers, handles) = connect_warm(&server.url, clients, in_flight * 2).await?;
    settle(300).await;
    let before = server.stats();
    print_stats(&format!("round {round}: {clients} clients connected"), before, server.cells().ok());

    let stop = Arc::new(AtomicBool::new(false));
    let (peaks, mon) = monitor(server, &stop);
    let start = Instant::now();
    let max_seen = run_cells(&peers, shape, round, failures, lat).await;
    let elapsed = start.elapsed();
    stop.store(true, Ordering::Relaxed);
    let _ = mon.join();
    print_stats(&format!("round {round}: load done"), server.stats(), server.cells().ok());
    disconnect_all(handles).await;
    settle(2500).await;
    let after = server.stats();
    print_stats(&format!("round {round}: clients gone + 2.5 s"), after, server.cells().ok());
    Ok(Round { round, elapsed, max_seen, peaks, before, after })
}

/// Runs `per_client` cells (trivial, 50 ms timer, yield + wait in turn) on
/// every peer, `in_flight` at a time per peer; returns the most cells in
/// flight at once across the peers.
async fn run_cells(
    peers: &[Peer<RoleClient>],
    shape: Shape,
    round: usize,
    failures: &Arc<Failures>,
    lat: &Latencies,
) -> usize {
    let Shape { clients, in_flight, per_client } = shape;
    let max_seen = Arc::new(AtomicUsize::new(0));
    let outstanding = Arc::new(AtomicUsize::new(0));
    let mut tasks = tokio::task::JoinSet::new();
    for (c, peer) in peers.iter().enumerate() {
        let (peer, failures, lat) = (peer.clone(), Arc::clone(failures), Arc::clone(lat));
        let (max_seen, outstanding) = (Arc::clone(&max_seen), Arc::clone(&outstanding));
        let base = ((round - 1) * clients + c) * per_client;
        tasks.spawn(async move {
            let mut set = tokio::task::JoinSet::new();
            let mut next = 0usize;
            loop {
                while set.len() < in_flight && next < per_client {
                    let kind = [Kind::Trivial, Kind::Timer, Kind::Yield][next % 3];
                    let i = (base + next) as u64;
                    let (peer, lat) = (peer.clone(), Arc::clone(&lat));
                    let now = outstanding.fetch_add(1, Ordering::Relaxed) + 1;
                    max_seen.fetch_max(now, Ordering::Relaxed);
                    set.spawn(async move { (kind, i, timed_cell(&peer, kind, i, 50, &lat).await) });
                    next += 1;
                }
                let Some(done) = set.join_next().await else { break };
                outstanding.fetch_sub(1, Ordering::Relaxed);
                match done {
                    Ok((_, _, Ok(()))) => {}
                    Ok((kind, i, Err(e))) => failures.record(&format!("cell {i} ({})", kind.name()), &e),
                    Err(e) => failures.record("task", &anyhow!("{e}")),
                }
            }
        });
    }
    while let Some(r) = tasks.join_next().await {
        if let Err(e) = r {
            failures.record("client task", &anyhow!("{e}"));
        }
    }
    max_seen.load(Ordering::Relaxed)
}

/// The per-round table: rate, in-flight and server peaks, memory; `total`
/// cells ran each round.
fn print_summary(summary: &[Round], total: usize) {
    println!();
    println!(
        "| round | cells | seconds | cells/s | client in flight peak | server live peak | parked peak | RSS before MiB \
         | RSS peak MiB | RSS after MiB | VmHWM MiB | threads peak | fds peak |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for Round { round, elapsed, max_seen, peaks, before, after } in summary {
        let rate = total as f64 / elapsed.as_secs_f64();
        println!(
            "| {round} | {total} | {:.1} | {rate:.0} | {max_seen} | {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {} |",
            elapsed.as_secs_f64(),
            peaks.live.load(Ordering::Relaxed),
            peaks.parked.load(Ordering::Relaxed),
            mib(before.rss_kib),
            mib(peaks.rss_kib.load(Ordering::Relaxed)),
            mib(after.rss_kib),
            mib(after.hwm_kib),
            peaks.threads.load(Ordering::Relaxed),
            peaks.fds.load(Ordering::Relaxed)
        );
    }
    println!(
        "\n(live/parked/RSS/threads/fds peaks sampled every 100 ms from /metrics and /proc; VmHWM is the kernel's)\n"
    );
}
