//! Scenario (a): load held.

use super::*;

pub(crate) async fn held(o: &Options) -> Result<u64> {
    let clients = o.clients.unwrap_or(50);
    let in_flight = o.in_flight.unwrap_or(20);
    let per_client = o.cells_per_client.unwrap_or(200);
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
        let mut peers = Vec::new();
        let mut handles = Vec::new();
        for _ in 0..clients {
            let c = connect(&server.url, in_flight * 2).await?;
            peers.push(c.peer().clone());
            handles.push(c);
        }
        // One warm-up cell per client binds its session.
        for p in &peers {
            let r = call(p, "exec", json!({"code": "return 0"})).await?;
            if status(&r) != "completed" {
                bail!("warm-up: {r}");
            }
        }
        settle(300).await;
        let before = server.stats();
        print_stats(&format!("round {round}: {clients} clients connected"), before, server.cells().ok());

        let stop = Arc::new(AtomicBool::new(false));
        let (peaks, mon) = monitor(&server, &stop);
        let max_seen = Arc::new(AtomicUsize::new(0));
        let outstanding = Arc::new(AtomicUsize::new(0));
        let start = Instant::now();
        let mut tasks = tokio::task::JoinSet::new();
        for (c, peer) in peers.iter().enumerate() {
            let (peer, failures, lat) = (peer.clone(), Arc::clone(&failures), Arc::clone(&lat));
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
        let elapsed = start.elapsed();
        stop.store(true, Ordering::Relaxed);
        let _ = mon.join();
        print_stats(&format!("round {round}: load done"), server.stats(), server.cells().ok());
        for c in handles {
            let _ = tokio::time::timeout(Duration::from_secs(10), c.cancel()).await;
        }
        settle(2500).await;
        let after = server.stats();
        print_stats(&format!("round {round}: clients gone + 2.5 s"), after, server.cells().ok());
        summary.push((round, elapsed, max_seen.load(Ordering::Relaxed), peaks, before, after));
    }
    println!();
    println!(
        "| round | cells | seconds | cells/s | client in flight peak | server live peak | parked peak | RSS before MiB \
         | RSS peak MiB | RSS after MiB | VmHWM MiB | threads peak | fds peak |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let total = clients * per_client;
    for (round, elapsed, max_seen, peaks, before, after) in &summary {
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
    print_latencies(&lat);
    if !server.alive() {
        println!("the server exited; its stderr:\n{}", server.stderr_tail());
    }
    failures.report();
    println!();
    Ok(failures.count.load(Ordering::Relaxed))
}
