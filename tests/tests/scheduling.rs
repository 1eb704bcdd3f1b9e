//! Scheduling on JS threads: a cell never waits to
//! start behind another cell's CPU loop while a JS thread could take it.
//!
//! Busy loops get a 20 s budget; every bound below is far inside it, so a
//! pass means "the cell finished while the busy cells were still running",
//! not a speed claim.

use std::time::{Duration, Instant};

use codemode_runtime::{CellResult, CodeMode, CodeModeError, Exec, Limits, Reply};
use codemode_tests::*;
use serde_json::json;
use tokio::task::JoinHandle;

const BUSY: &str = "while (true) {}";

fn busy_limits() -> Limits {
    Limits { timeout: Duration::from_secs(20), ..Limits::default() }
}

async fn runtime_with_threads(threads: usize) -> CodeMode {
    codemode_tests::builder()
        .limits(busy_limits())
        .js_threads(threads)
        .tool(Noop)
        .start()
        .await
        .expect("runtime starts")
}

type Busy = Vec<JoinHandle<Result<CellResult, CodeModeError>>>;

/// Sends `n` busy-loop cells, each in its own session, and returns once the
/// runtime has admitted them (placed on threads, maybe not yet running).
async fn send_busy(rt: &CodeMode, n: usize) -> Busy {
    let busy: Vec<_> = (0..n)
        .map(|i| {
            let reply = rt.session(format!("busy-{i}")).reply("r");
            tokio::spawn(async move { reply.exec(Exec::code(BUSY)).await })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(10);
    while rt.live_cells().await.expect("runtime is up") < n {
        assert!(Instant::now() < deadline, "the busy cells were never admitted");
        tokio::task::yield_now().await;
    }
    busy
}

/// Starts `n` busy-loop cells and lets them enter their loops.
async fn start_busy(rt: &CodeMode, n: usize) -> Busy {
    let busy = send_busy(rt, n).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    busy
}

/// Ends the busy cells (shutdown aborts running cells) and checks they were
/// still running until then.
async fn stop_busy(rt: &CodeMode, busy: Busy) {
    assert!(busy.iter().all(|b| !b.is_finished()), "a busy cell ended before the checks were done");
    rt.shutdown().await;
    for b in busy {
        let ended = tokio::time::timeout(Duration::from_secs(10), b).await;
        assert!(ended.is_ok(), "a busy cell outlived the shutdown");
    }
}

async fn trivial(reply: &Reply, n: i64) {
    let r = tokio::time::timeout(Duration::from_secs(10), reply.exec(Exec::code(format!("return {n} + 1"))))
        .await
        .expect("the trivial cell finished while the busy cells run")
        .expect("runtime is up");
    assert_eq!(value(&r), &json!(n + 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trivial_cell_starts_while_every_core_runs_a_busy_loop() {
    let rt = codemode_tests::builder().limits(busy_limits()).tool(Noop).start().await.expect("runtime starts");
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    let busy = start_busy(&rt, cores).await;
    let reply = reply(&rt);
    for n in 0..20 {
        trivial(&reply, n).await;
    }
    stop_busy(&rt, busy).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cells_keep_starting_on_the_idle_thread_while_the_other_one_runs_a_busy_loop() {
    // Two threads, one busy: every new cell, parked or not, must go to the
    // other one, even once it holds more live cells than the busy thread.
    let rt = runtime_with_threads(2).await;
    let busy = start_busy(&rt, 1).await;
    let reply = reply(&rt);
    for n in 0..6 {
        let parked =
            tokio::time::timeout(Duration::from_secs(10), reply.exec(Exec::code("await yield_control(); return 1")))
                .await
                .expect("the parking cell answered while the busy cell runs")
                .expect("runtime is up");
        assert_eq!(parked.status(), "waiting", "{}", parked.to_model_json());
        trivial(&reply, n).await;
    }
    stop_busy(&rt, busy).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_cells_all_find_the_one_thread_not_running_a_busy_loop() {
    // Three of four threads spin; eight cells sent at once queue on the
    // fourth rather than behind a loop.
    let rt = runtime_with_threads(4).await;
    let busy = start_busy(&rt, 3).await;
    let trivials: Vec<_> = (0..8)
        .map(|n| {
            let reply = rt.session(format!("t-{n}")).reply("r");
            tokio::spawn(async move { trivial(&reply, n).await })
        })
        .collect();
    for t in trivials {
        t.await.expect("the trivial cell's task did not panic");
    }
    stop_busy(&rt, busy).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cells_sent_right_after_busy_loops_do_not_queue_behind_them() {
    // Three of four threads are about to spin; cells sent right after,
    // before the loops may have begun, must all run on the fourth.
    let rt = runtime_with_threads(4).await;
    let busy = send_busy(&rt, 3).await;
    let trivials: Vec<_> = (0..8)
        .map(|n| {
            let reply = rt.session(format!("t-{n}")).reply("r");
            tokio::spawn(async move { trivial(&reply, n).await })
        })
        .collect();
    for t in trivials {
        t.await.expect("the trivial cell's task did not panic");
    }
    stop_busy(&rt, busy).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_js_thread_count_is_checked_when_the_runtime_starts() {
    for bad in [0, 1025] {
        let started = codemode_tests::builder().js_threads(bad).start().await;
        let Err(CodeModeError::Limits(e)) = started else { panic!("js_threads({bad}) was accepted") };
        assert_eq!(e.field, "js_threads");
        assert_eq!(e.range, "1..=1024");
    }
    let rt = codemode_tests::builder().js_threads(1).start().await.expect("one thread is enough to run");
    assert_eq!(value(&exec(&rt, "return 2").await), &json!(2));
    rt.shutdown().await;
}

/// GA-1.5: one principal's parked cell, then three CPU loops at once on
/// two engine threads: every loop ends `timeout` at its window's end, in
/// both engine homes — a loop that waited behind another for its engine
/// thread starts with its window's deadline, not a fresh one, and its
/// worker is not taken for hung — and the parked cell then completes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loops_sharing_an_engine_thread_all_end_timeout_and_a_parked_cell_lives_on_ga_1_5() {
    let rt = codemode_tests::builder()
        // Past the report's 1 s grace: a loop that waited behind another
        // and then took a fresh window would be taken for a hung worker.
        .limits(Limits { timeout: Duration::from_millis(1500), ..Limits::default() })
        .js_threads(2)
        .start()
        .await
        .expect("runtime starts");
    let session = rt.session("s-one").for_principal("one");
    let parked = session
        .reply("r")
        .exec(Exec::code("await new Promise((r) => setTimeout(r, 2000)); return 'parked done'"))
        .await
        .expect("up");
    assert_eq!(parked.status(), "waiting", "{}", parked.to_model_json());
    let loops: Vec<_> = (0..3)
        .map(|_| {
            let reply = session.reply("r");
            tokio::spawn(async move { reply.exec(Exec::code(BUSY)).await })
        })
        .collect();
    for ended in loops {
        let r = ended.await.expect("joined").expect("up");
        assert_eq!(failure(&r).0, codemode_runtime::ErrorCode::Timeout, "{}", r.to_model_json());
    }
    let run_id = parked.run_id().expect("parked").to_owned();
    let mut last = session.reply("r").wait(&run_id).await.expect("up");
    while last.status() == "waiting" {
        last = session.reply("r").wait(&run_id).await.expect("up");
    }
    assert_eq!(value(&last), &json!("parked done"));
    rt.shutdown().await;
}

/// GA-1.2: one client's CPU loops hold at most half the JS threads: with
/// every thread's worth of loops sent by one principal, another
/// principal's trivial cell still finishes while they run (in process
/// mode the host's threads that drive workers are the ones shared).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_principals_loops_leave_another_principal_a_thread_ga_1_2() {
    let rt = runtime_with_threads(4).await;
    let hog = rt.session("s-hog").for_principal("hog");
    let busy: Busy = (0..4)
        .map(|_| {
            let reply = hog.reply("r");
            tokio::spawn(async move { reply.exec(Exec::code(BUSY)).await })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let victim = rt.session("s-victim").for_principal("victim").reply("r");
    trivial(&victim, 41).await;
    trivial(&victim, 1).await;
    stop_busy(&rt, busy).await;
}
