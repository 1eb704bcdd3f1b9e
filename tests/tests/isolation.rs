//! Cells in engine worker processes (`isolation = "process"`): the same
//! guest API, confinement that holds against a cell that escaped its
//! engine, and a worker's failure costs only its own cells. The guest
//! suites run in this mode too (`CODEMODE_TEST_ISOLATION=process`,
//! scripts/test.sh); these are the proofs only process mode has.

use std::time::{Duration, Instant};

use codemode_runtime::{
    CellResult, CodeMode, ErrorCode, Exec, Isolation, Limits, McpServerConfig, RunsConfig, StoreBackend,
};
use codemode_tests::{Echo, SleepMs, engine_workers, failure};
use serde_json::json;

async fn process_runtime_with(limits: Limits) -> CodeMode {
    CodeMode::builder()
        .limits(limits)
        .isolation(Isolation::Process)
        .engine_workers(engine_workers())
        .tool(Echo)
        .tool(SleepMs::default())
        .start()
        .await
        .expect("runtime starts")
}

async fn process_runtime() -> CodeMode {
    process_runtime_with(Limits::default()).await
}

async fn exec_as(rt: &CodeMode, principal: &str, code: &str) -> CellResult {
    let session = rt.session(format!("s-{principal}")).for_principal(principal);
    session.reply("r").exec(Exec::code(code)).await.expect("runtime is up")
}

/// The worker process of `principal`'s cells.
fn worker_of(rt: &CodeMode, principal: &str) -> Option<u32> {
    let snapshot = rt.engine_workers().expect("process isolation");
    snapshot.workers.iter().find(|w| w.key == format!("principal:{principal}")).map(|w| w.pid)
}

/// GA-1.2: a cell in a worker runs, calls a tool, reads metadata and the
/// clock, and returns its value.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cell_in_a_worker_process_calls_tools_and_returns_its_value_ga_1_2() {
    let rt = process_runtime().await;
    let code = "text('hi'); const r = await echo_tool({value: 'x'}); await new Promise(r => setTimeout(r, 5)); \
                return [r, typeof Date.now(), echo_tool.name, Math.random() < 1]";
    let result = exec_as(&rt, "a", code).await;
    let CellResult::Completed { value, .. } = &result else { panic!("{}", result.to_model_json()) };
    assert_eq!(value, &json!([{"name": "echo_tool", "input": {"value": "x"}}, "number", "echo_tool", true]));
    assert!(worker_of(&rt, "a").is_some(), "the cell ran in a worker bound to its principal");
    // Its engine's take, as its worker reported it, is counted.
    let takes = rt.engine_takes();
    assert_eq!(takes.spare + takes.inline, 1, "{takes:?}");
    rt.shutdown().await;
}

/// Two principals' cells run at the same time, each in a worker of its
/// own: never one process for both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_principals_cells_run_concurrently_and_never_in_one_worker() {
    let rt = process_runtime().await;
    // Both park on a slow call, so both are alive at once.
    let code = "await sleep_ms({ms: 300}); return 1";
    let (a, b) = tokio::join!(exec_as(&rt, "alice", code), exec_as(&rt, "bob", code));
    let (pa, pb) = (worker_of(&rt, "alice").expect("alice's worker"), worker_of(&rt, "bob").expect("bob's worker"));
    assert_ne!(pa, pb, "two principals never share a worker");
    let snapshot = rt.engine_workers().expect("process isolation");
    for w in &snapshot.workers {
        assert!(w.key == "principal:alice" || w.key == "principal:bob", "{w:?}");
    }
    for r in [a, b] {
        assert!(matches!(&r, CellResult::Completed { value, .. } if value == &json!(1)), "{}", r.to_model_json());
    }
    // A second cell of alice's goes to alice's worker, not to bob's.
    exec_as(&rt, "alice", "return 2").await;
    assert_eq!(worker_of(&rt, "alice"), Some(pa));
    rt.shutdown().await;
}

/// Many cells of one principal run at once in one worker: cells share
/// its engine threads' lanes, several wait on one lane at the same time
/// (one reads for all), and each gets its own answers, its queries'
/// included (GA-1.2).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_cells_of_one_principal_share_a_workers_lanes_and_each_gets_its_own_answers_ga_1_2() {
    let rt = CodeMode::builder()
        .isolation(Isolation::Process)
        .engine_workers(engine_workers())
        .js_threads(6)
        .tool(Echo)
        .start()
        .await
        .expect("runtime starts");
    let session = rt.session("s-many").for_principal("many");
    let cells: Vec<_> = (0..24)
        .map(|i| {
            let session = session.clone();
            // Sequential calls (a step each) and a metadata read (a query
            // answered mid-step), all naming the cell.
            let code = format!(
                "let seen = []; for (let k = 0; k < 20; k++) {{ const r = await echo_tool({{value: '{i}-' + k}}); \
             seen.push(r.input.value); }} return [seen.join(','), echo_tool.name]"
            );
            tokio::spawn(async move { session.reply(format!("r{i}")).exec(Exec::code(code)).await })
        })
        .collect();
    for (i, cell) in cells.into_iter().enumerate() {
        let result = cell.await.expect("the cell's task ends").expect("runtime is up");
        let expected: Vec<String> = (0..20).map(|k| format!("{i}-{k}")).collect();
        let CellResult::Completed { value, .. } = &result else { panic!("cell {i}: {}", result.to_model_json()) };
        assert_eq!(value, &json!([expected.join(","), "echo_tool"]), "cell {i} got another cell's answers");
    }
    let snapshot = rt.engine_workers().expect("process isolation");
    let theirs: Vec<_> = snapshot.workers.iter().filter(|w| w.key == "principal:many").collect();
    assert_eq!(theirs.len(), 1, "one worker ran them all: {:?}", snapshot.workers);
    rt.shutdown().await;
}

/// A worker killed with `kill -9` fails only its own cells, with
/// `engine_crashed`; another principal's parked cell on another worker
/// goes on; and the killed cell's run, journaled when it parked, resumes
/// from its journal on a fresh worker at the next `wait` (GA-1.3).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_killed_with_sigkill_costs_only_its_cells_and_a_durable_run_resumes_on_a_fresh_one_ga_1_3() {
    let limits = Limits { timeout: Duration::from_millis(300), ..Limits::default() };
    let rt = process_runtime_with(limits).await;
    let doomed = rt.session("s-a").for_principal("a").reply("r");
    let other = rt.session("s-b").for_principal("b").reply("r");
    let parked_a = doomed
        .exec(Exec::code("text('before'); await new Promise(r => setTimeout(r, 800)); return 'resumed'"))
        .await
        .expect("up");
    let parked_b = other.exec(Exec::code("await sleep_ms({ms: 800}); return 'survived'")).await.expect("up");
    assert_eq!((parked_a.status(), parked_b.status()), ("waiting", "waiting"));
    let pid = worker_of(&rt, "a").expect("a's worker");
    assert_ne!(Some(pid), worker_of(&rt, "b"));
    let killed = std::process::Command::new("kill").arg("-9").arg(pid.to_string()).status().expect("kill runs");
    assert!(killed.success());
    let run_a = parked_a.run_id().expect("parked").to_owned();
    // The window that meets the dead engine says so, and keeps the run
    // going: it answers `waiting`, and the next wait resumes it.
    let mut crashed = None;
    let mut outputs = Vec::new();
    let mut last = doomed.wait(&run_a).await.expect("up");
    for _ in 0..10 {
        outputs.push(serde_json::to_value(last.output()).expect("output is JSON"));
        match &last {
            CellResult::Waiting { warnings, .. } if warnings.iter().any(|w| w.contains("engine process")) => {
                crashed = Some(warnings.join("\n"));
            }
            CellResult::Completed { .. } | CellResult::Failed { .. } => break,
            CellResult::Waiting { .. } => {}
        }
        last = doomed.wait(&run_a).await.expect("up");
    }
    let crashed = crashed.expect("a window met the dead engine");
    assert!(crashed.contains("call wait to resume"), "it says how to resume: {crashed}");
    assert!(
        matches!(&last, CellResult::Completed { value, .. } if value == &json!("resumed")),
        "{}",
        last.to_model_json()
    );
    // Output delivered before the crash is not delivered again.
    assert!(!json!(outputs).to_string().contains("before"), "{outputs:?}");
    let fresh = worker_of(&rt, "a").expect("a's new worker");
    assert_ne!(fresh, pid, "the run resumed on a fresh worker");
    // b, on its own worker, never noticed.
    let mut b_end = parked_b;
    while let Some(run_id) = b_end.run_id().map(str::to_owned) {
        b_end = other.wait(&run_id).await.expect("up");
    }
    assert!(
        matches!(&b_end, CellResult::Completed { value, .. } if value == &json!("survived")),
        "{}",
        b_end.to_model_json()
    );
    rt.shutdown().await;
}

/// A worker killed while its cells are parked gives its pool slot back at
/// once: with room for one worker, another principal's cell runs right
/// after the kill, while the killed worker's parked cells live on (their
/// runs resume on a fresh worker at their next `wait`), and the pool's
/// gauge counts processes, not the dead one (GA-1.3).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_workers_slot_is_free_at_once_for_another_principal_while_its_parked_cells_live_on_ga_1_3() {
    let mut workers = engine_workers();
    workers.max_workers = 1;
    workers.warm = 0;
    let rt = CodeMode::builder()
        .isolation(Isolation::Process)
        .engine_workers(workers)
        .tool(SleepMs::default())
        .start()
        .await
        .expect("runtime starts");
    let parked = exec_as(&rt, "a", "await yield_control(); return 'a resumed'").await;
    assert_eq!(parked.status(), "waiting", "{}", parked.to_model_json());
    let refused = exec_as(&rt, "b", "return 'b'").await;
    assert_eq!(
        failure(&refused).0,
        ErrorCode::RuntimeUnavailable,
        "the one worker is a's: {}",
        refused.to_model_json()
    );
    let pid = worker_of(&rt, "a").expect("a's worker");
    let killed = std::process::Command::new("kill").arg("-9").arg(pid.to_string()).status().expect("kill runs");
    assert!(killed.success());
    // The kill is seen as the process exits (a moment, not a TTL).
    let deadline = Instant::now() + Duration::from_secs(5);
    let b = loop {
        let b = exec_as(&rt, "b", "return 'b'").await;
        if b.status() == "completed" || Instant::now() > deadline {
            break b;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(b.status(), "completed", "{}", b.to_model_json());
    assert_eq!(rt.engine_workers().expect("process isolation").workers.len(), 1, "only b's worker is bound");
    rt.shutdown().await;
}

/// A worker's address space is bounded by default, from its cells' limits
/// (`default_address_space`), and what it maps idle is well inside it.
/// At the bound, a cell's allocation fails in the engine — the cell fails
/// out of memory — and the same worker runs the next cell (GA-1.2).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_workers_address_space_is_bounded_by_default_and_a_cell_past_it_fails_out_of_memory_ga_1_2() {
    let rt = process_runtime().await;
    let r = exec_as(&rt, "a", "return 1").await;
    assert_eq!(r.status(), "completed");
    let pid = worker_of(&rt, "a").expect("a's worker");
    let expected = codemode_runtime::default_address_space(&engine_workers(), &Limits::default());
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).expect("its limits");
    let line = limits.lines().find(|l| l.starts_with("Max address space")).expect("the address space line");
    assert!(line.contains(&expected.to_string()), "{line} (expected {expected})");
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("its status");
    let mapped_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmSize");
    assert!(mapped_kib * 1024 < expected / 4, "an idle worker maps {mapped_kib} KiB of {expected} bytes");
    rt.shutdown().await;

    // 512 MiB of address space, while the cell's own limit is 1 GiB: the
    // address space is what stops it.
    let mut workers = engine_workers();
    workers.address_space = Some(512 * 1024 * 1024);
    let limits = Limits { memory_limit_bytes: 1024 * 1024 * 1024, ..Limits::default() };
    let rt = CodeMode::builder()
        .limits(limits)
        .isolation(Isolation::Process)
        .engine_workers(workers)
        .start()
        .await
        .expect("runtime starts");
    let r = exec_as(&rt, "a", "const a = []; for (;;) a.push(new Float64Array(1 << 20))").await;
    let (code, message) = failure(&r);
    assert_ne!(code, ErrorCode::EngineCrashed, "{message}");
    assert!(message.starts_with("InternalError: out of memory"), "{message}");
    let pid = worker_of(&rt, "a").expect("a's worker");
    let r = exec_as(&rt, "a", "return 2").await;
    assert_eq!(r.status(), "completed", "{}", r.to_model_json());
    assert_eq!(worker_of(&rt, "a"), Some(pid), "the same worker ran the next cell");
    rt.shutdown().await;
}

/// A runtime whose worker program is not a worker, or hands over after
/// starting threads, does not start, and says how to write its `main`;
/// an embedder who accepts the weaker confinement by name gets it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_program_that_is_not_one_or_hands_over_too_late_is_refused_when_the_runtime_starts() {
    let not_a_worker = codemode_runtime::EngineWorkers::new("/bin/true", std::iter::empty::<&str>());
    let err = CodeMode::builder().isolation(Isolation::Process).engine_workers(not_a_worker).start().await.err();
    let err = err.expect("refused at start").to_string();
    assert!(err.contains("did not start as a worker") && err.contains("engine_worker_if_asked"), "{err}");

    let threaded = || codemode_runtime::EngineWorkers::new(codemode_tests::engine_worker_program(), ["threaded"]);
    let err = CodeMode::builder().isolation(Isolation::Process).engine_workers(threaded()).start().await.err();
    let err = err.expect("refused at start").to_string();
    assert!(err.contains("threads before it handed over") && err.contains("accept_threaded_handoff"), "{err}");

    let mut accepted = threaded();
    accepted.accept_threaded_handoff = true;
    let rt = CodeMode::builder().isolation(Isolation::Process).engine_workers(accepted).start().await.expect("starts");
    assert_eq!(exec_as(&rt, "a", "return 1").await.status(), "completed");
    rt.shutdown().await;
}

/// A worker never keeps its host's root: started by a host running as
/// root, it runs as `nobody` (65534) with no supplementary groups, for
/// good, and — where the kernel offers it — in a user namespace of its
/// own, so even a call its filter wrongly let through could read nothing
/// root owns.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_started_by_a_root_host_runs_as_nobody_in_a_user_namespace_of_its_own() {
    let rt = process_runtime().await;
    assert_eq!(exec_as(&rt, "a", "return 1").await.status(), "completed");
    let pid = worker_of(&rt, "a").expect("a's worker");
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("its status");
    let field =
        |name: &str| status.lines().find_map(|l| l.strip_prefix(name)).map(str::trim).unwrap_or_default().to_owned();
    #[expect(unsafe_code, reason = "geteuid is a libc call")]
    // SAFETY: a plain call.
    let host_is_root = unsafe { libc::geteuid() } == 0;
    if host_is_root {
        let ids = "65534\t65534\t65534\t65534";
        assert_eq!((field("Uid:"), field("Gid:"), field("Groups:")), (ids.to_owned(), ids.to_owned(), String::new()));
    } else {
        assert!(!field("Uid:").starts_with("0\t"), "{status}");
    }
    let ns = |p: &str| std::fs::read_link(format!("/proc/{p}/ns/user")).expect("a user namespace link");
    assert_ne!(ns(&pid.to_string()), ns("self"), "the worker left the host's user namespace");
    rt.shutdown().await;
}

/// A worker that stops answering (stopped with SIGSTOP mid-cell) costs
/// only its cell, within the window's deadline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_worker_fails_its_cell_within_the_window_deadline() {
    let limits = Limits { timeout: Duration::from_millis(500), ..Limits::default() };
    let rt = process_runtime_with(limits).await;
    let started = Instant::now();
    let r = exec_as(&rt, "a", "// codemode-test-hook: stop\nreturn 1").await;
    let took = started.elapsed();
    let (code, message) = failure(&r);
    assert_eq!(code, ErrorCode::EngineCrashed, "{message}");
    assert!(message.contains("did not finish a step"), "{message}");
    // The window (0.5 s) plus the report's grace (1 s), and scheduling.
    assert!(took < Duration::from_secs(5), "{took:?}");
    // Another principal's cell runs meanwhile on a worker of its own.
    assert!(matches!(exec_as(&rt, "b", "return 2").await, CellResult::Completed { .. }));
    // And a's next cell gets a fresh worker.
    assert!(matches!(exec_as(&rt, "a", "return 3").await, CellResult::Completed { .. }));
    rt.shutdown().await;
}

/// A worker that sends garbage, or a frame past the bound, is ended; its
/// cell fails with `engine_crashed`, and the next cell runs on a new one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_sending_garbage_or_an_oversized_frame_costs_only_its_cell() {
    let rt = process_runtime().await;
    for hook in ["garbage", "oversized"] {
        let r = exec_as(&rt, "a", &format!("// codemode-test-hook: {hook}\nreturn 1")).await;
        let (code, message) = failure(&r);
        assert_eq!(code, ErrorCode::EngineCrashed, "{hook}: {message}");
        assert!(message.contains("past the bound"), "{hook}: {message}");
        assert!(matches!(exec_as(&rt, "a", "return 2").await, CellResult::Completed { .. }), "{hook}");
    }
    let pool = rt.engine_workers().expect("process isolation").pool;
    assert!(pool.started >= 3, "{pool:?}");
    // Counted where operators look, once the failed cells have let go of
    // their workers.
    let deadline = Instant::now() + Duration::from_secs(5);
    let counted = loop {
        let counted = rt.metrics().engine_workers.expect("process isolation");
        if counted.crashed >= 2 || Instant::now() > deadline {
            break counted;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(counted.crashed >= 2, "both workers were failed: {counted:?}");
    rt.shutdown().await;
}

/// GA-1.2: a worker that speaks for another cell — one it was never
/// given, one parked on another lane, one parked on the same lane and not
/// waiting — is failed: the speaking cell gets `engine_crashed` naming
/// what the worker did, and no cell takes the message as its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_speaking_for_a_cell_that_is_not_waiting_on_that_lane_is_failed_ga_1_2() {
    let limits = Limits { timeout: Duration::from_millis(200), ..Limits::default() };
    let rt = process_runtime_with(limits).await;
    // Each case on a fresh worker of its own principal: its cells are
    // numbered from 1 and placed on the least loaded of its two lanes.
    let cases = [
        (0, 1000, "cell 1000, which the host never opened on it"),
        (1, 1, "cell 1 on another cell's lane"),
        (2, 1, "cell 1, which was not waiting for it"),
    ];
    for (case, (parked, target, expected)) in cases.into_iter().enumerate() {
        let principal = format!("speaker-{case}");
        let mut sessions = Vec::new();
        for i in 0..parked {
            let session = rt.session(format!("s-{principal}-{i}")).for_principal(&principal).reply("r");
            let r = session
                .exec(Exec::code("await new Promise(r => setTimeout(r, 1500)); return 'slept'"))
                .await
                .expect("up");
            let run = r.run_id().unwrap_or_else(|| panic!("cell {i} parks: {}", r.to_model_json())).to_owned();
            sessions.push((session, run));
        }
        let code = format!("// codemode-test-hook: speak-for {target}\nreturn 1");
        let r = exec_as(&rt, &principal, &code).await;
        let (code, message) = failure(&r);
        assert_eq!(code, ErrorCode::EngineCrashed, "case {case}: {message}");
        assert!(message.contains(expected), "case {case}: {message}");
        assert!(!message.contains("forged by a test hook"), "case {case}: {message}");
        // The parked cells lose their engine with the worker and resume
        // from their journals on a fresh one: each ends with its own
        // value, not the forged message.
        for (i, (session, run)) in sessions.iter().enumerate() {
            let mut last = session.wait(run).await.expect("runtime is up");
            for _ in 0..10 {
                let Some(run) = last.run_id().map(str::to_owned) else { break };
                last = session.wait(&run).await.expect("runtime is up");
            }
            assert!(
                matches!(&last, CellResult::Completed { value, .. } if value == &json!("slept")),
                "case {case} cell {i}: {}",
                last.to_model_json()
            );
        }
    }
    rt.shutdown().await;
}

/// A request a subverted engine forges — one its decoding would refuse —
/// is refused by the host before any handler sees it: the worker is ended
/// and the cell fails `engine_crashed`; nothing is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_request_from_a_worker_is_refused_before_it_is_handled() {
    let rt = process_runtime().await;
    let key = "k".repeat(300);
    let hook = format!("// codemode-test-hook: forge {{\"Store\":{{\"key\":\"{key}\",\"json\":\"1\"}}}}");
    let r = exec_as(&rt, "a", &format!("{hook}\nawait new Promise(r => setTimeout(r, 50)); return 1")).await;
    let (code, message) = failure(&r);
    assert_eq!(code, ErrorCode::EngineCrashed, "{message}");
    assert!(message.contains("decoding refuses"), "{message}");
    let loaded = exec_as(&rt, "a", "return [await load('k'), 2]").await;
    assert!(
        matches!(&loaded, CellResult::Completed { value, .. } if value == &json!([null, 2])),
        "{}",
        loaded.to_model_json()
    );
    rt.shutdown().await;
}

/// A subverted engine that reports more requests than its admission
/// bounds let a cell have (GA-6.1: in flight plus queued) is failed by the
/// host, which counts them again under the same bounds; none is handled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_a_worker_reports_past_the_admission_bound_fail_it_ga_6_1() {
    let limits = Limits { max_in_flight: 2, max_queued: 1, ..Limits::default() };
    let rt = process_runtime_with(limits).await;
    let flood = |n: usize| format!("// codemode-test-hook: flood {n} {{\"Load\":{{\"key\":\"k\"}}}}\nreturn 1");
    let r = exec_as(&rt, "a", &flood(4)).await;
    let (code, message) = failure(&r);
    assert_eq!(code, ErrorCode::EngineCrashed, "{message}");
    assert!(message.contains("4 requests with 0 outstanding, past the 3"), "{message}");
    // The next cell runs on a fresh worker.
    let r = exec_as(&rt, "a", "return 2").await;
    assert!(matches!(&r, CellResult::Completed { value, .. } if value == &json!(2)), "{}", r.to_model_json());
    rt.shutdown().await;
}

/// A cell that escaped its engine and makes a forbidden system call —
/// open a file, connect a socket, run a program, read the host's
/// environment — kills its worker: the call never runs, the cell fails
/// with `engine_crashed`, and the runtime goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forbidden_system_call_in_a_worker_kills_it_and_fails_only_that_cell() {
    let rt = process_runtime().await;
    let dir = std::env::temp_dir().join(format!("codemode-isolation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let secret = dir.join("secret");
    std::fs::write(&secret, "s3cret").expect("a file");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let host_pid = std::process::id().to_string();
    let attempts = [
        format!("open {}", secret.display()),
        format!("connect {}", listener.local_addr().expect("addr")),
        "exec /bin/true".to_owned(),
        format!("environ {host_pid}"),
    ];
    for attempt in &attempts {
        let r = exec_as(&rt, "a", &format!("// codemode-test-hook: {attempt}\nreturn 'ran'")).await;
        let (code, message) = failure(&r);
        assert_eq!(code, ErrorCode::EngineCrashed, "{attempt}: {message}");
        assert!(message.contains("SIGSYS"), "the filter killed it: {attempt}: {message}");
    }
    listener.set_nonblocking(true).expect("nonblocking");
    assert!(listener.accept().is_err(), "no connection reached the host");
    assert!(matches!(exec_as(&rt, "a", "return 'ok'").await, CellResult::Completed { .. }));
    let _ = std::fs::remove_dir_all(&dir);
    rt.shutdown().await;
}

/// The host's secrets are not in a worker: its memory, read through
/// `/proc/<pid>/mem`, holds no store path, bearer token or MCP server
/// environment value of the host's, while it runs a cell.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_workers_memory_holds_none_of_the_hosts_secrets() {
    let dir = std::env::temp_dir().join(format!("codemode-store-SECRETSTOREPATH-{}", std::process::id()));
    // Not a working server: its configuration, secret included, is what
    // the host holds.
    let server = McpServerConfig::stdio("secretive", "/bin/sh", vec!["-c".into(), "sleep 30".into()])
        .env("API_TOKEN", "SECRETMCPENV-7f3a");
    let rt = CodeMode::builder()
        .limits(Limits { timeout: Duration::from_millis(300), ..Limits::default() })
        .isolation(Isolation::Process)
        .engine_workers(engine_workers())
        .session_store_path(&dir)
        .mcp_server(server)
        .tool(SleepMs::default())
        .start()
        .await
        .expect("runtime starts");
    // A bearer token the host holds in memory, as `serve` does.
    let token = std::hint::black_box(String::from("SECRETBEARER-91c2"));
    let parked = rt.session("s").for_principal("a").reply("r");
    let r = parked.exec(Exec::code("const x = 'cell data'; await sleep_ms({ms: 2000}); return x")).await.expect("up");
    assert_eq!(r.status(), "waiting");
    let pid = worker_of(&rt, "a").expect("a's worker");
    let memory = read_memory(pid);
    assert!(memory.len() > 1024 * 1024, "read the worker's memory: {} bytes", memory.len());
    assert!(contains(&memory, b"cell data"), "the scan sees the cell's own data");
    for secret in ["SECRETSTOREPATH", "SECRETMCPENV-7f3a", token.as_str()] {
        assert!(!contains(&memory, secret.as_bytes()), "{secret} is in the worker's memory");
    }
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every readable mapping of process `pid`.
fn read_memory(pid: u32) -> Vec<u8> {
    use std::io::{Read, Seek, SeekFrom};
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).expect("its maps");
    let mut mem = std::fs::File::open(format!("/proc/{pid}/mem")).expect("its memory");
    let mut out = Vec::new();
    for line in maps.lines() {
        let mut parts = line.split_whitespace();
        let (Some(range), Some(perms)) = (parts.next(), parts.next()) else { continue };
        if !perms.starts_with('r') || line.contains("[vvar]") || line.contains("[vsyscall]") {
            continue;
        }
        let Some((start, end)) = range.split_once('-') else { continue };
        let (Ok(start), Ok(end)) = (u64::from_str_radix(start, 16), u64::from_str_radix(end, 16)) else { continue };
        let mut chunk = vec![0u8; usize::try_from(end - start).unwrap_or(0)];
        if mem.seek(SeekFrom::Start(start)).is_ok() && mem.read_exact(&mut chunk).is_ok() {
            out.extend_from_slice(&chunk);
        }
    }
    out
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Stops worker `pid` (it takes the next cell's start and says nothing)
/// and kills it (`SIGKILL`) 300 ms later; the kill's result.
fn stop_then_kill(pid: u32) -> std::thread::JoinHandle<i32> {
    let pid = libc::pid_t::try_from(pid).expect("a pid");
    #[expect(unsafe_code, reason = "kill is a libc call")]
    // SAFETY: a signal to a worker process the test's runtime started.
    let stopped = unsafe { libc::kill(pid, libc::SIGSTOP) };
    assert_eq!(stopped, 0, "the worker was stopped");
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        #[expect(unsafe_code, reason = "kill is a libc call")]
        // SAFETY: as above.
        unsafe {
            libc::kill(pid, libc::SIGKILL)
        }
    })
}

/// GA-1.2: a worker killed from outside (`kill -9`) after it was given a
/// cell and before it reported anything for it: the host acted on nothing
/// of the cell, so the cell starts over on another worker and ends with
/// its value, its tool called once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cell_whose_worker_is_killed_before_it_reports_starts_over_on_another_worker_ga_1_2() {
    let rt = process_runtime().await;
    assert!(matches!(exec_as(&rt, "a", "return 1").await, CellResult::Completed { .. }));
    let pid = worker_of(&rt, "a").expect("a worker bound to a");
    let killer = stop_then_kill(pid);
    let r = exec_as(&rt, "a", "return [await echo_tool({value: 'once'})]").await;
    assert_eq!(killer.join().expect("the killer thread"), 0, "the worker was killed");
    let CellResult::Completed { value, .. } = &r else { panic!("{}", r.to_model_json()) };
    assert_eq!(value, &json!([{"name": "echo_tool", "input": {"value": "once"}}]));
    let now = worker_of(&rt, "a").expect("a worker bound to a");
    assert_ne!(now, pid, "it ran on another worker");
    rt.shutdown().await;
}

/// GA-1.3: the same for a run resumed by replay: its worker killed before
/// it reported anything, the replay starts over on another worker with the
/// journal's clock and random values sent again, and the run ends with
/// the values it saw before it left memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_whose_worker_is_killed_before_it_reports_starts_over_with_its_journal_ga_1_3() {
    let dir = std::env::temp_dir().join(format!("codemode-isolation-replay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rt = CodeMode::builder()
        .isolation(Isolation::Process)
        .engine_workers(engine_workers())
        .store_backend(StoreBackend::Sled { path: Some(dir.clone()) })
        .runs(RunsConfig { evict_after: Some(Duration::from_millis(20)), ..RunsConfig::default() })
        .start()
        .await
        .expect("runtime starts");
    let session = rt.session("s-a").for_principal("a").reply("r");
    let code = "const a = [Date.now(), Math.random()]; json(a); await yield_control('p'); return a";
    let parked = session.exec(Exec::code(code)).await.expect("up");
    let CellResult::Waiting { run_id, output, .. } = &parked else { panic!("{}", parked.to_model_json()) };
    let seen = serde_json::to_value(output).expect("output is JSON");
    for _ in 0..300 {
        if rt.live_cells().await.expect("up") == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(rt.live_cells().await.expect("up"), 0, "the parked run left memory for its journal");
    let killer = stop_then_kill(worker_of(&rt, "a").expect("a worker bound to a"));
    let done = session.wait(run_id).await.expect("up");
    assert_eq!(killer.join().expect("the killer thread"), 0, "the worker was killed");
    let CellResult::Completed { value, .. } = &done else { panic!("{}", done.to_model_json()) };
    assert!(seen.to_string().contains(&value.to_string()), "the replay read the journaled {seen}, returned {value}");
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}
