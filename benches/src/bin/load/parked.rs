//! Scenario (b): 10,000 parked cells.

use super::*;

/// How many clients park how many cells, with how many calls in flight
/// per client.
#[derive(Clone, Copy)]
struct Shape {
    clients: usize,
    per_client: usize,
    concurrency: usize,
}

/// What one round measured, for the summary table.
struct Round {
    round: usize,
    park_time: Duration,
    wait_time: Duration,
    /// Parked cells as the server counted them.
    parked_n: u64,
    base: ProcStats,
    held: ProcStats,
    waited: ProcStats,
    after: ProcStats,
}

/// A parked run: the cell's number and its run id.
type Run = (u64, String);

pub(crate) async fn parked(o: &Options) -> Result<u64> {
    let shape = Shape {
        clients: o.clients.unwrap_or(100),
        per_client: o.cells_per_client.unwrap_or(100),
        concurrency: o.in_flight.unwrap_or(10),
    };
    let Shape { clients, per_client, .. } = shape;
    let total = clients * per_client;
    let cap = (total + 1024).min(100_000);
    let config = format!(
        "# load parked: all clients are principal `local`; {total} parked cells need\n\
         # the global and per-principal quotas raised (per session: {per_client} <= 256).\n\
         [limits]\nmax_live_cells = {cap}\nmax_live_cells_per_principal = {cap}\n\n[serve]\ndispose_grace_ms = 1000\n"
    );
    println!("## load parked: {clients} MCP HTTP clients x {per_client} parked yield_control cells, then wait all\n");
    println!("config: max_live_cells = {cap}, max_live_cells_per_principal = {cap}, dispose_grace_ms = 1000\n");
    let server = Arc::new(Server::start(o, "parked", &config)?);
    settle(500).await;
    stats_header();
    print_stats("server started", server.stats(), server.cells().ok());
    let failures = Arc::new(Failures::default());
    let mut summary = Vec::new();
    for round in 1..=o.rounds {
        summary.push(parked_round(&server, shape, round, &failures).await?);
    }
    print_summary(&summary);
    if !server.alive() {
        println!("the server exited; its stderr:\n{}", server.stderr_tail());
    }
    failures.report();
    println!();
    Ok(failures.count.load(Ordering::Relaxed))
}

/// One round with fresh clients: park every cell, wait them all, then
/// disconnect; the server's stats after each step.
async fn parked_round(server: &Server, shape: Shape, round: usize, failures: &Arc<Failures>) -> Result<Round> {
    let Shape { clients, per_client, concurrency } = shape;
    let (peers, handles) = connect_warm(&server.url, clients, concurrency * 2).await?;
    settle(1000).await;
    let base = server.stats();
    print_stats(&format!("round {round}: {clients} sessions, 1 cell each"), base, server.cells().ok());

    // Park.
    let start = Instant::now();
    let all_runs = park_all(&peers, per_client, concurrency, failures).await;
    let park_time = start.elapsed();
    settle(1000).await;
    let held = server.stats();
    let cells = server.cells().ok();
    print_stats(&format!("round {round}: {} cells parked", all_runs.iter().map(Vec::len).sum::<usize>()), held, cells);
    // Wait them all.
    let start = Instant::now();
    wait_all(&peers, all_runs, concurrency, failures).await;
    let wait_time = start.elapsed();
    settle(1000).await;
    let waited = server.stats();
    print_stats(&format!("round {round}: all waited, clients connected"), waited, server.cells().ok());
    disconnect_all(handles).await;
    settle(2500).await;
    let after = server.stats();
    print_stats(&format!("round {round}: clients gone + 2.5 s"), after, server.cells().ok());
    let parked_n = cells.map_or(0, |c| c.1);
    Ok(Round { round, park_time, wait_time, parked_n, base, held, waited, after })
}

/// Parks `per_client` cells on each peer, `concurrency` at a time per
/// peer; returns each peer's parked runs, in peer order.
async fn park_all(
    peers: &[Peer<RoleClient>],
    per_client: usize,
    concurrency: usize,
    failures: &Arc<Failures>,
) -> Vec<Vec<Run>> {
    let mut tasks = tokio::task::JoinSet::new();
    for (c, peer) in peers.iter().enumerate() {
        let (peer, failures) = (peer.clone(), Arc::clone(failures));
        tasks.spawn(async move {
            let mut runs = Vec::with_capacity(per_client);
            let mut set = tokio::task::JoinSet::new();
            let mut next = 0usize;
            loop {
                while set.len() < concurrency && next < per_client {
                    let i = (c * per_client + next) as u64;
                    let peer = peer.clone();
                    set.spawn(async move {
                        let code = format!("await yield_control('parked'); return {{ i: {i} }}");
                        (i, call(&peer, "exec", json!({ "code": code })).await)
                    });
                    next += 1;
                }
                let Some(done) = set.join_next().await else { break };
                match done {
                    Ok((i, Ok(r))) if status(&r) == "waiting" && r["reason"] == "yield" => {
                        runs.push((i, r["runId"].as_str().unwrap_or_default().to_owned()));
                    }
                    Ok((i, Ok(r))) => failures.record(&format!("park {i}"), &anyhow!("{}", clip(&r.to_string()))),
                    Ok((i, Err(e))) => failures.record(&format!("park {i}"), &e),
                    Err(e) => failures.record("task", &anyhow!("{e}")),
                }
            }
            (c, runs)
        });
    }
    // Each client waits on its own runs: a run belongs to its session.
    let mut all_runs = vec![Vec::new(); peers.len()];
    while let Some(r) = tasks.join_next().await {
        match r {
            Ok((c, runs)) => all_runs[c] = runs,
            Err(e) => failures.record("client task", &anyhow!("{e}")),
        }
    }
    all_runs
}

/// Waits every parked run to completion on the peer that parked it,
/// `concurrency` at a time per peer, checking each cell's value.
async fn wait_all(peers: &[Peer<RoleClient>], all_runs: Vec<Vec<Run>>, concurrency: usize, failures: &Arc<Failures>) {
    let mut tasks = tokio::task::JoinSet::new();
    for (peer, runs) in peers.iter().zip(all_runs) {
        let (peer, failures) = (peer.clone(), Arc::clone(failures));
        tasks.spawn(async move {
            let mut set = tokio::task::JoinSet::new();
            let mut it = runs.into_iter();
            loop {
                while set.len() < concurrency {
                    let Some((i, run_id)) = it.next() else { break };
                    let peer = peer.clone();
                    set.spawn(async move {
                        let r = call(&peer, "wait", json!({ "runId": run_id })).await;
                        let r = match r {
                            Ok(v) => wait_out(&peer, v).await,
                            Err(e) => Err(e),
                        };
                        (i, r)
                    });
                }
                let Some(done) = set.join_next().await else { break };
                match done {
                    Ok((i, Ok(r))) if status(&r) == "completed" && r["value"]["i"].as_u64() == Some(i) => {}
                    Ok((i, Ok(r))) => failures.record(&format!("wait {i}"), &anyhow!("{}", clip(&r.to_string()))),
                    Ok((i, Err(e))) => failures.record(&format!("wait {i}"), &e),
                    Err(e) => failures.record("task", &anyhow!("{e}")),
                }
            }
        });
    }
    while tasks.join_next().await.is_some() {}
}

/// The per-round table: park and wait times, and the server's memory at
/// each step.
fn print_summary(summary: &[Round]) {
    println!();
    println!(
        "| round | parked (server) | park s | wait s | RSS baseline MiB | RSS parked MiB | KiB per parked cell \
         | RSS after wait MiB | RSS after disconnect MiB | VmHWM MiB |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for Round { round, park_time, wait_time, parked_n, base, held, waited, after } in summary {
        let per_cell = held.rss_kib.saturating_sub(base.rss_kib) as f64 / (*parked_n).max(1) as f64;
        println!(
            "| {round} | {parked_n} | {:.1} | {:.1} | {:.1} | {:.1} | {per_cell:.0} | {:.1} | {:.1} | {:.1} |",
            park_time.as_secs_f64(),
            wait_time.as_secs_f64(),
            mib(base.rss_kib),
            mib(held.rss_kib),
            mib(waited.rss_kib),
            mib(after.rss_kib),
            mib(after.hwm_kib)
        );
    }
    println!();
}
