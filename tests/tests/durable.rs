//! Durable runs in one process: an idle parked run leaves memory
//! for its journal and is resumed by replay, with the same clock, the same
//! random sequence, its uncommitted store writes and no output twice; a
//! second runtime on the same sled store resumes what the first parked.

use std::time::Duration;

use codemode_runtime::{CellResult, CodeMode, ErrorCode, Exec, OutputEntry, RunReach, RunsConfig, StoreBackend};
use codemode_tests::*;
use serde_json::json;

fn store_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-durable-rt-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

async fn durable_runtime(path: &std::path::Path, evict_after: Option<Duration>) -> CodeMode {
    codemode_tests::builder()
        .tool(Echo)
        .store_backend(StoreBackend::Sled { path: Some(path.to_owned()) })
        .runs(RunsConfig { evict_after, ..RunsConfig::default() })
        .start()
        .await
        .unwrap()
}

/// Waits until no cell is live (the parked one was evicted).
async fn until_evicted(rt: &CodeMode) {
    for _ in 0..200 {
        if rt.live_cells().await.unwrap() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the parked cell was never evicted");
}

const CELL: &str = "text('one'); \
    const t = Date.now(); const d = new Date().getTime(); const p = performance.now(); \
    const r1 = Math.random(); const e = await echo_tool({value: 'a'}); \
    await store('k', {v: 1}); \
    await yield_control('park'); \
    text('two'); \
    const r2 = Math.random(); \
    return {t, d, p, r1, r2, e, loaded: await load('k'), later: Date.now() >= t}";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_evicted_run_resumes_by_replay_with_its_clock_randomness_writes_and_output_once_ga_1_3_ga_7_5() {
    // The same cell twice: kept in memory, and evicted then replayed.
    let kept_dir = store_dir("kept");
    let kept = durable_runtime(&kept_dir, None).await;
    let evicted_dir = store_dir("evicted");
    let evicting = durable_runtime(&evicted_dir, Some(Duration::from_millis(50))).await;
    for rt in [&kept, &evicting] {
        let reply = reply(rt);
        let parked = reply.exec(Exec::code(CELL)).await.unwrap();
        let CellResult::Waiting { run_id, output, .. } = &parked else { panic!("{parked:?}") };
        assert_eq!(output.entries().unwrap(), &[OutputEntry::text("one")]);
        if std::ptr::eq(rt, &evicting) {
            until_evicted(rt).await;
        }
        let done = reply.wait(run_id).await.unwrap();
        let CellResult::Completed { value, output, .. } = &done else { panic!("{done:?}") };
        assert_eq!(output.entries().unwrap(), &[OutputEntry::text("two")], "output delivered once");
        assert_eq!(value["e"], json!({"name": "echo_tool", "input": {"value": "a"}}));
        assert_eq!(value["loaded"], json!({"v": 1}), "the buffered write survived");
        assert_eq!(value["later"], json!(true));
        assert_ne!(value["r1"], value["r2"], "the random sequence went on, not over");
        // Committed with the run's end.
        let after = reply.exec(Exec::code("return await load('k')")).await.unwrap();
        assert_eq!(value_of(&after), &json!({"v": 1}));
    }
    kept.shutdown().await;
    evicting.shutdown().await;
    let _ = std::fs::remove_dir_all(&kept_dir);
    let _ = std::fs::remove_dir_all(&evicted_dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replayed_cell_sees_the_clock_and_random_values_it_saw_before() {
    let dir = store_dir("clock");
    let rt = durable_runtime(&dir, Some(Duration::from_millis(20))).await;
    let reply = reply(&rt);
    let code = "const a = [Date.now(), new Date().toISOString(), performance.now(), Math.random()]; \
                json(a); await yield_control(); return a";
    let parked = reply.exec(Exec::code(code)).await.unwrap();
    let CellResult::Waiting { run_id, output, .. } = &parked else { panic!("{parked:?}") };
    let OutputEntry::Json { value: seen } = &output.entries().unwrap()[0] else { panic!() };
    until_evicted(&rt).await;
    tokio::time::sleep(Duration::from_millis(30)).await;
    let done = reply.wait(run_id).await.unwrap();
    assert_eq!(value_of(&done), seen, "the replay read the journaled values, not new ones");
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_runtime_on_the_same_store_resumes_what_the_first_parked_ga_1_3() {
    let dir = store_dir("restart");
    let first = durable_runtime(&dir, None).await;
    let parked = reply(&first)
        .exec(Exec::code("const x = await echo_tool({value: 'b'}); await yield_control(); return x.input"))
        .await
        .unwrap();
    let run_id = parked.run_id().unwrap().to_owned();
    first.shutdown().await;
    drop(first);
    // The first runtime's last database handles go with its tasks, just
    // after: a restarted process would simply start later.
    let second = {
        let mut tries = 0;
        loop {
            let started = codemode_tests::builder()
                .tool(Echo)
                .store_backend(StoreBackend::Sled { path: Some(dir.clone()) })
                .start()
                .await;
            match started {
                Ok(rt) => break rt,
                Err(e) if tries < 100 && e.to_string().contains("in use") => tries += 1,
                Err(e) => panic!("{e}"),
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    let done = reply(&second).wait(&run_id).await.unwrap();
    assert_eq!(value_of(&done), &json!({"value": "b"}), "{done:?}");
    // Another session cannot reach it.
    let foreign = second.session("someone-else").reply("r").wait(&run_id).await.unwrap();
    assert!(failure(&foreign).1.contains("unavailable") || failure(&foreign).1.contains("different session"));
    second.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timers_of_an_evicted_run_are_re_armed_and_cleared_ones_stay_cleared_ga_5_1_ga_5_2() {
    let dir = store_dir("timers");
    let rt = durable_runtime(&dir, Some(Duration::from_millis(20))).await;
    let reply = reply(&rt);
    let code = "let cleared = false; const gone = setTimeout(() => { cleared = true }, 100); \
                const p = new Promise(r => setTimeout(() => r('fired'), 300)); \
                clearTimeout(gone); await yield_control(); return [await p, cleared]";
    let parked = reply.exec(Exec::code(code)).await.unwrap();
    let run_id = parked.run_id().unwrap().to_owned();
    until_evicted(&rt).await;
    let mut done = reply.wait(&run_id).await.unwrap();
    while matches!(done, CellResult::Waiting { .. }) {
        done = reply.wait(&run_id).await.unwrap();
    }
    assert_eq!(value_of(&done), &json!(["fired", false]), "{done:?}");
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A runtime on the sled store at `path`, retried while a runtime shut
/// down just before still holds it (its last handles go with its tasks).
async fn restarted_runtime(path: &std::path::Path) -> CodeMode {
    for _ in 0..100 {
        let started = codemode_tests::builder()
            .tool(Echo)
            .store_backend(StoreBackend::Sled { path: Some(path.to_owned()) })
            .start()
            .await;
        match started {
            Ok(rt) => return rt,
            Err(e) if e.to_string().contains("in use") => tokio::time::sleep(Duration::from_millis(20)).await,
            Err(e) => panic!("{e}"),
        }
    }
    panic!("the store stayed locked");
}

fn refused_saying(reach: RunReach, needle: &str) {
    match reach {
        RunReach::Refused { code: ErrorCode::InvalidInput, error } => assert!(error.contains(needle), "{error}"),
        other => panic!("expected a refusal saying {needle:?}, got {other:?}"),
    }
}

/// Session `a` reaches `run_id`; session `b` and an unknown id do not.
async fn only_its_session_reaches(rt: &CodeMode, run_id: &str) {
    let (own, other) = (rt.session("a").reply("r"), rt.session("b").reply("r"));
    assert_eq!(own.reach(run_id).await.unwrap(), RunReach::Reachable);
    refused_saying(other.reach(run_id).await.unwrap(), "different session");
    refused_saying(own.reach(&format!("run_{}", "0".repeat(32))).await.unwrap(), "no durable record");
}

/// `Reply::reach` tells a host whether a session may observe a run — live
/// here, or only in the store after a restart — without opening a window
/// or moving the run: another session's, an unknown and an ended run are
/// refused as a `wait` would refuse them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reach_tells_a_sessions_own_runs_from_others_and_ended_ones_without_opening_a_window_ga_1_3() {
    let dir = store_dir("reach");
    let first = durable_runtime(&dir, None).await;
    let parked = first.session("a").reply("r").exec(Exec::code("await yield_control(); return 'own'")).await.unwrap();
    let run_id = parked.run_id().unwrap().to_owned();
    only_its_session_reaches(&first, &run_id).await;
    first.shutdown().await;
    drop(first);
    let second = restarted_runtime(&dir).await;
    only_its_session_reaches(&second, &run_id).await;
    // Looking it up moved nothing: the run was still parked.
    let done = second.session("a").reply("r").wait(&run_id).await.unwrap();
    assert_eq!(value_of(&done), &json!("own"), "{done:?}");
    refused_saying(second.session("a").reply("r").reach(&run_id).await.unwrap(), "completed");
    second.shutdown().await;
    drop(second);
    let third = restarted_runtime(&dir).await;
    refused_saying(third.session("a").reply("r").reach(&run_id).await.unwrap(), "completed");
    third.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

fn value_of(result: &CellResult) -> &serde_json::Value {
    value(result)
}

/// A runtime on `path` whose parked runs leave memory after 30 ms.
async fn quota_runtime(path: &std::path::Path, limits: codemode_runtime::Limits) -> CodeMode {
    codemode_tests::builder()
        .tool(Echo)
        .limits(limits)
        .store_backend(StoreBackend::Sled { path: Some(path.to_owned()) })
        .runs(RunsConfig { evict_after: Some(Duration::from_millis(30)), ..RunsConfig::default() })
        .start()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sessions_runs_evicted_to_the_store_still_count_against_its_quota_exactly_at_the_bound() {
    let dir = store_dir("quota");
    let limits = codemode_runtime::Limits { max_live_cells_per_session: 8, ..codemode_runtime::Limits::default() };
    let rt = quota_runtime(&dir, limits).await;
    let reply = reply(&rt);
    let mut parked = Vec::new();
    // Eight runs, parked and evicted four at a time: none is live, all
    // are stored, and each exec was admitted.
    for _ in 0..2 {
        for _ in 0..4 {
            let r = reply.exec(Exec::code("await yield_control(); return 'resumed'")).await.unwrap();
            parked.push(r.run_id().expect("parked").to_owned());
        }
        until_evicted(&rt).await;
    }
    // The ninth is refused: 0 live + 8 stored is the quota.
    let refused = reply.exec(Exec::code("return 1")).await.unwrap();
    let (code, message) = failure(&refused);
    assert_eq!(code.as_str(), "invalid_input", "{refused:?}");
    assert!(message.contains("too many code mode runs in this session (8, counting runs parked in the store)"));
    assert_eq!(rt.metrics().admission_rejections.get("session_quota"), Some(&1));
    // Another session is not affected.
    let other = rt.session("other").reply("r").exec(Exec::code("return 2")).await.unwrap();
    assert_eq!(value_of(&other), &json!(2));
    // Resuming a stored run is not a new run; once it ends, one more fits.
    let done = reply.wait(&parked[0]).await.unwrap();
    assert_eq!(value_of(&done), &json!("resumed"), "{done:?}");
    let admitted = reply.exec(Exec::code("return 3")).await.unwrap();
    assert_eq!(value_of(&admitted), &json!(3), "7 stored + 1 new is within the quota");
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_past_the_sessions_journal_quota_ends_its_run_writes_nothing_and_harms_no_other_run_ga_1_3() {
    let dir = store_dir("quota-bytes");
    let limits = codemode_runtime::Limits {
        max_journal_bytes_per_session: 1024 * 1024,
        max_output_bytes: 10 * 1024 * 1024,
        ..codemode_runtime::Limits::default()
    };
    let rt = quota_runtime(&dir, limits).await;
    let reply = reply(&rt);
    // Each run's journal holds its 300 KB tool answer: three fit in 1 MiB.
    let code = "const big = 'x'.repeat(300000); await echo_tool({value: big}); await yield_control(); return 1";
    let mut parked = Vec::new();
    for _ in 0..3 {
        let r = reply.exec(Exec::code(code)).await.unwrap();
        parked.push(r.run_id().expect("parked").to_owned());
        until_evicted(&rt).await;
    }
    // The fourth is admitted (900 KB stored), but its journal would take the
    // session past 1 MiB: it ends, and nothing of it is stored.
    let refused = reply.exec(Exec::code(code)).await.unwrap();
    let (code_seen, message) = failure(&refused);
    assert_eq!(code_seen.as_str(), "quota_exceeded", "{}", refused.to_model_json());
    assert!(message.contains("past its quota of 1048576"), "{message}");
    assert_eq!(rt.metrics().runs.journal_quota_exceeded, 1);
    assert_eq!(rt.live_cells().await.unwrap(), 0, "the refused run ended");
    // The others are whole and resume.
    for run_id in &parked {
        let done = reply.wait(run_id).await.unwrap();
        assert_eq!(value_of(&done), &json!(1), "{}", done.to_model_json());
    }
    // Room again: a new run parks.
    let again = reply.exec(Exec::code(code)).await.unwrap();
    assert!(again.run_id().is_some(), "{}", again.to_model_json());
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A runtime on `path` with a one-second window budget whose parked runs
/// leave memory after 30 ms, replaying within `replay_timeout`.
async fn window_runtime(path: &std::path::Path, replay_timeout: Duration) -> CodeMode {
    codemode_tests::builder()
        .tool(Echo)
        .limits(codemode_runtime::Limits { timeout: Duration::from_millis(1000), ..Default::default() })
        .store_backend(StoreBackend::Sled { path: Some(path.to_owned()) })
        .runs(RunsConfig { evict_after: Some(Duration::from_millis(30)), replay_timeout, ..RunsConfig::default() })
        .start()
        .await
        .unwrap()
}

/// Three windows of ~600 ms of guest work each: every window is within a
/// 1,000 ms budget, the whole run is not.
const THREE_WINDOWS: &str = "const spin = (ms) => { const end = Date.now() + ms; while (Date.now() < end) {} }; \
    spin(600); await yield_control('one'); spin(600); await yield_control('two'); spin(600); return 'done'";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_spends_no_window_budget_so_a_run_longer_than_one_window_resumes_after_eviction_ga_1_3() {
    let dir = store_dir("replay-window");
    let rt = window_runtime(&dir, Duration::from_secs(60)).await;
    let reply = reply(&rt);
    let parked = reply.exec(Exec::code(THREE_WINDOWS)).await.unwrap();
    let run_id = parked.run_id().expect("parked").to_owned();
    until_evicted(&rt).await;
    let second = reply.wait(&run_id).await.unwrap();
    assert_eq!(second.run_id(), Some(run_id.as_str()), "{}", second.to_model_json());
    until_evicted(&rt).await;
    // 1,200 ms of replayed guest work, then a 600 ms window of its own.
    let done = reply.wait(&run_id).await.unwrap();
    assert_eq!(value_of(&done), &json!("done"), "{}", done.to_model_json());
    assert_eq!(rt.metrics().runs.resumed_by_replay, 2);
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_past_its_own_bound_ends_the_run_timed_out_saying_so_ga_1_3() {
    let dir = store_dir("replay-bound");
    let rt = window_runtime(&dir, Duration::from_millis(100)).await;
    let reply = reply(&rt);
    let parked = reply.exec(Exec::code(THREE_WINDOWS)).await.unwrap();
    let run_id = parked.run_id().expect("parked").to_owned();
    until_evicted(&rt).await;
    // Replaying 600 ms of guest work takes longer than 100 ms.
    let ended = reply.wait(&run_id).await.unwrap();
    let (code, message) = failure(&ended);
    assert_eq!(code.as_str(), "timeout");
    assert!(message.contains("replaying its journal took longer than 100 ms"), "{message}");
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replayed_run_goes_on_with_the_costs_its_journal_recorded_and_the_replay_is_not_counted_ga_1_3() {
    let dir = store_dir("cpu");
    let limits =
        codemode_runtime::Limits { cpu_budget: Some(Duration::from_secs(60)), ..codemode_runtime::Limits::default() };
    let rt = quota_runtime(&dir, limits).await;
    let reply = reply(&rt);
    // The loop is most of the run's CPU, and the replay runs it again; the
    // timer's wait is replayed from the journal at once.
    let code = "let n = 0; for (let i = 0; i < 5e6; i++) n += i % 7; \
                await new Promise(r => setTimeout(r, 300)); await yield_control('park'); return n";
    let parked = reply.exec(Exec::code(code)).await.unwrap();
    let run_id = parked.run_id().expect("parked").to_owned();
    until_evicted(&rt).await;
    let done = reply.wait(&run_id).await.unwrap();
    assert!(matches!(done, CellResult::Completed { .. }), "{}", done.to_model_json());
    let (before, after) = (parked.telemetry().guest_cpu_us, done.telemetry().guest_cpu_us);
    assert!(before > 0 && after >= before, "{before} then {after}");
    assert!(after < 2 * before, "the replay's CPU was counted: {before} then {after}");
    // What the journal recorded goes on: the replay did not wait 300 ms.
    assert!(done.telemetry().host_wait_us >= 300_000, "{:?}", done.telemetry());
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

async fn postgres_runtime(url: &str) -> CodeMode {
    codemode_tests::builder()
        .tool(SleepMs::default())
        .limits(codemode_runtime::Limits { timeout: Duration::from_millis(200), ..codemode_runtime::Limits::default() })
        .store_backend(StoreBackend::Postgres { url: url.to_owned(), pool_size: 2 })
        .runs(RunsConfig::default())
        .start()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_another_process_holds_answers_a_foreign_sessions_wait_and_abort_as_not_its_own_ga_1_3_ga_7_7() {
    let url = codemode_store::postgres::test_database().await;
    let holder = postgres_runtime(&url).await;
    let other = postgres_runtime(&url).await;
    // A call still running keeps the run's lease with the holder.
    let parked = holder.session("a").reply("r").exec(Exec::code("await sleep_ms({ms: 3000}); return 1")).await.unwrap();
    let run_id = parked.run_id().expect("parked").to_owned();
    let theirs = other.session("b").reply("r");
    assert_eq!(failure(&theirs.wait(&run_id).await.unwrap()).1, "code mode run belongs to a different session.");
    assert_eq!(failure(&theirs.abort(&run_id).await.unwrap()).1, "code mode run belongs to a different session.");
    // Its own session, on the other process, waits out a window.
    let own = other.session("a").reply("r").wait(&run_id).await.unwrap();
    assert!(matches!(own, CellResult::Waiting { .. }), "{}", own.to_model_json());
    holder.shutdown().await;
    other.shutdown().await;
}

/// Sleeps `{ms}`; declares itself replay-safe, so nothing is journaled
/// around it and only the lease's renewal keeps the run held meanwhile.
struct SafeSleep;

impl codemode_runtime::Tool for SafeSleep {
    fn name(&self) -> &str {
        "safe_sleep"
    }
    fn description(&self) -> &str {
        "Sleeps for {ms} milliseconds; safe to repeat."
    }
    fn replay_safe(&self) -> bool {
        true
    }
    fn call(
        &self,
        input: serde_json::Value,
        _context: codemode_runtime::ToolContext,
    ) -> codemode_runtime::ToolFuture<'_> {
        let ms = input.get("ms").and_then(serde_json::Value::as_u64).unwrap_or(0);
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok(codemode_runtime::ToolOutput::json(json!({"slept": ms})))
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_resumed_on_another_process_keeps_its_lease_through_a_window_longer_than_the_lease_and_ends_once_ga_1_3()
{
    let url = codemode_store::postgres::test_database().await;
    let leased = || async {
        codemode_tests::builder()
            .tool(SafeSleep)
            .limits(codemode_runtime::Limits {
                timeout: Duration::from_secs(10),
                ..codemode_runtime::Limits::default()
            })
            .store_backend(StoreBackend::Postgres { url: url.clone(), pool_size: 2 })
            .runs(RunsConfig { lease: Duration::from_secs(1), ..RunsConfig::default() })
            .start()
            .await
            .unwrap()
    };
    let (a, b) = (leased().await, leased().await);
    let code = "await yield_control('park'); await safe_sleep({ms: 2500}); await store('k', 1); return 'done'";
    let parked = a.session("s").reply("r").exec(Exec::code(code)).await.unwrap();
    let run_id = parked.run_id().expect("parked").to_owned();
    // B resumes it by replay; its window outlives the 1 s lease twice over.
    let done = b.session("s").reply("r").wait(&run_id).await.unwrap();
    assert!(
        matches!(&done, CellResult::Completed { value, .. } if value == &json!("done")),
        "{}",
        done.to_model_json()
    );
    // One end, reported alike by the process that parked it.
    let again = a.session("s").reply("r").wait(&run_id).await.unwrap();
    assert!(
        matches!(&again, CellResult::Completed { value, .. } if value == &json!("done")),
        "{}",
        again.to_model_json()
    );
    let loaded = a.session("s").reply("r").exec(Exec::code("return await load('k')")).await.unwrap();
    assert!(matches!(&loaded, CellResult::Completed { value, .. } if value == &json!(1)), "{}", loaded.to_model_json());
    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timer_rearmed_by_replay_never_fires_before_its_delay_as_the_guest_measures_it_ga_1_3() {
    let dir = store_dir("timers");
    let rt = codemode_tests::builder()
        .store_backend(StoreBackend::Sled { path: Some(dir.clone()) })
        .runs(RunsConfig { evict_after: Some(Duration::from_millis(20)), ..RunsConfig::default() })
        .start()
        .await
        .unwrap();
    // Many runs, so a due time rounded the wrong way shows in some: each
    // parks with a timer pending, leaves memory, and is replayed well
    // before the timer is due.
    let code = "const t0 = Date.now(); const due = new Promise(r => setTimeout(r, 1500)); \
                await yield_control('park'); await due; return Date.now() - t0";
    let mut runs = Vec::new();
    for i in 0..40 {
        let reply = rt.session(format!("timers-{i}")).reply("r");
        let parked = reply.exec(Exec::code(code)).await.unwrap();
        runs.push((reply, parked.run_id().expect("parked").to_owned()));
    }
    until_evicted(&rt).await;
    let waits = runs.into_iter().map(|(reply, run_id)| tokio::spawn(async move { reply.wait(&run_id).await.unwrap() }));
    for wait in waits {
        let done = wait.await.unwrap();
        let CellResult::Completed { value, .. } = &done else { panic!("{}", done.to_model_json()) };
        let elapsed = value.as_u64().expect("milliseconds");
        assert!(elapsed >= 1500, "a 1500 ms timer fired after {elapsed} ms as the guest measured it");
    }
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// GA-1.3: a `wait` that reaches a parked cell just as it leaves memory
/// for its journal (queued behind the eviction in the cell's mailbox) is
/// not dropped: it finds the run where it is now and resumes it by
/// replay. Waits are sent across the eviction moment, many times.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wait_arriving_as_its_parked_cell_is_evicted_resumes_the_run_ga_1_3() {
    let dir = store_dir("evict-race");
    let evict_after = Duration::from_millis(10);
    let rt = durable_runtime(&dir, Some(evict_after)).await;
    let reply = reply(&rt);
    for i in 0..60u64 {
        let parked = reply.exec(Exec::code(format!("await yield_control('p'); return {i}"))).await.unwrap();
        let CellResult::Waiting { run_id, .. } = &parked else { panic!("{parked:?}") };
        // Around the eviction: before it, at it, after it.
        tokio::time::sleep(Duration::from_micros(6_000 + (i % 12) * 800)).await;
        let done = reply.wait(run_id).await.unwrap();
        assert_eq!(value_of(&done), &json!(i), "wait {i}: {}", done.to_model_json());
    }
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}
