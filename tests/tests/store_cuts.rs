//! Durable runs when the connection to PostgreSQL is cut (GA-1.3,
//! runtime-semantics 11.3, 11.12): a real PostgreSQL behind a loopback TCP
//! relay that can drop every connection and refuse new ones, so a park's
//! write fails for real while the database itself stays up for the other
//! runtime that checks what was stored; or hold what the runtime sends, so
//! a write stays in flight for as long as a test needs.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use codemode_runtime::{CellResult, CodeMode, ErrorCode, Exec, Reply, RunsConfig, StoreBackend};
use codemode_tests::*;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::AbortHandle;

/// A TCP relay to PostgreSQL whose connections can be cut, or held.
struct Relay {
    port: u16,
    cut: Arc<AtomicBool>,
    /// While set, nothing the runtime sends reaches the database.
    held: Arc<AtomicBool>,
    links: Arc<std::sync::Mutex<Vec<AbortHandle>>>,
}

impl Relay {
    async fn to(url: &str) -> Self {
        let target = host_port(url);
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let cut = Arc::new(AtomicBool::new(false));
        let held = Arc::new(AtomicBool::new(false));
        let links: Arc<std::sync::Mutex<Vec<AbortHandle>>> = Arc::default();
        let (down, open, holding) = (Arc::clone(&cut), Arc::clone(&links), Arc::clone(&held));
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                if down.load(Ordering::SeqCst) {
                    continue; // dropped: the connection closes at once
                }
                let (target, holding) = (target.clone(), Arc::clone(&holding));
                let link = tokio::spawn(async move {
                    if let Ok(server) = TcpStream::connect(&target).await {
                        relay_link(client, server, &holding).await;
                    }
                });
                open.lock().unwrap().push(link.abort_handle());
            }
        });
        Self { port, cut, held, links }
    }

    /// Holds (`true`) or lets through what the runtime sends.
    fn hold(&self, held: bool) {
        self.held.store(held, Ordering::SeqCst);
    }

    /// The URL of the database through the relay.
    fn url(&self, url: &str) -> String {
        url.replacen(&host_port(url), &format!("127.0.0.1:{}", self.port), 1)
    }

    /// Drops every connection and refuses new ones.
    fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }

    fn restore(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

/// Copies both ways between `client` and `server`; what the client sends
/// waits while `held` is set.
async fn relay_link(client: TcpStream, server: TcpStream, held: &AtomicBool) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (mut from_client, mut to_client) = client.into_split();
    let (mut from_server, mut to_server) = server.into_split();
    let up = async {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            let n = from_client.read(&mut buf).await?;
            if n == 0 {
                return Ok::<_, std::io::Error>(());
            }
            while held.load(Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            to_server.write_all(&buf[..n]).await?;
        }
    };
    let down = tokio::io::copy(&mut from_server, &mut to_client);
    let _ = tokio::join!(up, down);
}

/// `host:port` of a `postgres://user@host:port/db` URL.
fn host_port(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    rest.split(['/', '?']).next().unwrap().to_owned()
}

/// Parks `code` durably, then cuts the store 100 ms into the `wait` that
/// resumes it: the run's id and what that wait answered.
async fn wait_cut_off(session: &Reply, relay: &Relay, code: &str) -> (String, CellResult) {
    let parked = session.exec(Exec::code(code)).await.unwrap();
    let run_id = parked.run_id().expect("parked durably").to_owned();
    let waiting = {
        let (session, run_id) = (session.clone(), run_id.clone());
        tokio::spawn(async move { session.wait(&run_id).await.unwrap() })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    relay.cut();
    (run_id, waiting.await.unwrap())
}

async fn runtime(url: &str, evict_after: Option<Duration>) -> CodeMode {
    codemode_tests::builder()
        .store_backend(StoreBackend::Postgres { url: url.to_owned(), pool_size: 2 })
        .runs(RunsConfig { evict_after, ..RunsConfig::default() })
        .start()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_whose_first_park_the_store_does_not_take_ends_runtime_unavailable_instead_of_waiting_nowhere_ga_1_3() {
    let url = codemode_store::postgres::test_database().await;
    let relay = Relay::to(&url).await;
    let rt = runtime(&relay.url(&url), Some(Duration::from_millis(200))).await;
    let session = rt.session("cut").reply("r");
    // Admitted while the store is up; the cut comes before the park.
    let code = "await new Promise(r => setTimeout(r, 300)); await yield_control('park'); return 1";
    let exec = tokio::spawn(async move { session.exec(Exec::code(code)).await.unwrap() });
    tokio::time::sleep(Duration::from_millis(100)).await;
    relay.cut();
    let result = exec.await.unwrap();
    let (code, error) = failure(&result);
    assert_eq!(code, ErrorCode::RuntimeUnavailable, "{error}");
    assert!(error.contains("the run store did not take its journal"), "{error}");
    assert_eq!(rt.live_cells().await.unwrap(), 0, "the ended run left memory");
    relay.restore();
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_park_the_store_does_not_take_keeps_the_run_in_memory_until_its_record_catches_up_then_any_process_resumes_it_ga_1_3()
 {
    let url = codemode_store::postgres::test_database().await;
    let relay = Relay::to(&url).await;
    let evict = Duration::from_millis(300);
    let rt = runtime(&relay.url(&url), Some(evict)).await;
    let session = rt.session("cut").reply("r");
    let code = "await yield_control('one'); await new Promise(r => setTimeout(r, 300)); \
                await yield_control('two'); return 'done'";
    // The wait re-claims the run; the second park's write then fails: the
    // observer still hears `waiting`, and the run goes on in memory.
    let (run_id, second) = wait_cut_off(&session, &relay, code).await;
    assert!(matches!(second, CellResult::Waiting { .. }), "{}", second.to_model_json());
    // Its record is behind what it told its observer: it is not evicted.
    tokio::time::sleep(evict * 3).await;
    assert_eq!(rt.live_cells().await.unwrap(), 1, "a run whose record is behind left memory");
    // Back: the eviction writes what was unsent, then the run leaves memory.
    relay.restore();
    for _ in 0..100 {
        if rt.live_cells().await.unwrap() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(rt.live_cells().await.unwrap(), 0, "the run never left memory once its record caught up");
    // Another process resumes it from the second park: the next wait ends it.
    let other = runtime(&url, None).await;
    let done = other.session("cut").reply("r").wait(&run_id).await.unwrap();
    match &done {
        CellResult::Completed { value, .. } => assert_eq!(value, &serde_json::json!("done")),
        other => panic!("resumed from a stale journal: {}", other.to_model_json()),
    }
    rt.shutdown().await;
    other.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_whose_end_the_store_does_not_take_is_not_ended_and_the_next_wait_completes_it_ga_1_3() {
    let url = codemode_store::postgres::test_database().await;
    let relay = Relay::to(&url).await;
    let rt = runtime(&relay.url(&url), None).await;
    let session = rt.session("cut").reply("r");
    let code = "await store('k', 1); await yield_control('park'); await new Promise(r => setTimeout(r, 300)); \
                return 'done'";
    // The cell returns while the store is away: its end (with its store
    // write) cannot be committed.
    let (run_id, cut_off) = wait_cut_off(&session, &relay, code).await;
    let (code, error) = failure(&cut_off);
    assert_eq!(code, ErrorCode::RuntimeUnavailable, "{error}");
    assert!(error.contains("The run is not lost: call wait again"), "{error}");
    // Back: the next wait resumes it from its journal and completes it,
    // committing its write once.
    relay.restore();
    let done = session.wait(&run_id).await.unwrap();
    match &done {
        CellResult::Completed { value, .. } => assert_eq!(value, &serde_json::json!("done")),
        other => panic!("the run was not completed: {}", other.to_model_json()),
    }
    let loaded = session.exec(Exec::code("return await load('k')")).await.unwrap();
    assert!(matches!(&loaded, CellResult::Completed { value, .. } if value == &serde_json::json!(1)), "{loaded:?}");
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_that_fails_while_its_end_cannot_be_recorded_is_not_reported_failed_and_then_ends_once_everywhere_ga_1_3()
{
    let url = codemode_store::postgres::test_database().await;
    let relay = Relay::to(&url).await;
    let rt = runtime(&relay.url(&url), None).await;
    let session = rt.session("cut").reply("r");
    let code = "await yield_control('park'); await new Promise(r => setTimeout(r, 300)); throw new Error('boom')";
    // The cell throws while the store is away: its end cannot be recorded,
    // so it is not reported — a `failed` here would be an end no other
    // process knows of.
    let (run_id, cut_off) = wait_cut_off(&session, &relay, code).await;
    let (code, error) = failure(&cut_off);
    assert_eq!(code, ErrorCode::RuntimeUnavailable, "{error}");
    assert!(error.contains("its end could not be recorded"), "{error}");
    assert!(error.contains("call wait again"), "{error}");
    assert_eq!(rt.live_cells().await.unwrap(), 0, "the copy whose end was not recorded left memory");
    // Back: the next wait resumes it from its journal (here, where its
    // lease is; elsewhere once the lease ran out), it fails again, and
    // that end is recorded before it is reported.
    relay.restore();
    let failed = session.wait(&run_id).await.unwrap();
    let (code, error) = failure(&failed);
    assert_eq!(code, ErrorCode::InternalError, "{error}");
    assert!(error.contains("boom"), "{error}");
    // Every process now reports the same end.
    let other = runtime(&url, None).await;
    for rt in [&rt, &other] {
        let again = rt.session("cut").reply("r").wait(&run_id).await.unwrap();
        let (_, error) = failure(&again);
        assert!(error.contains("it already failed"), "{error}");
    }
    rt.shutdown().await;
    other.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guests_store_and_load_ride_out_a_short_database_outage_ga_7_1() {
    let url = codemode_store::postgres::test_database().await;
    let relay = Relay::to(&url).await;
    let rt = runtime(&relay.url(&url), None).await;
    let session = rt.session("cut").reply("r");
    let stored = session.exec(Exec::code("await store('k', 41); return 1")).await.unwrap();
    assert!(matches!(stored, CellResult::Completed { .. }), "{}", stored.to_model_json());
    let code = "await yield_control('park'); await new Promise(r => setTimeout(r, 300)); \
                const v = await load('k'); await store('k2', v + 1); return v + 1";
    let parked = session.exec(Exec::code(code)).await.unwrap();
    let run_id = parked.run_id().expect("parked durably").to_owned();
    let waiting = {
        let (session, run_id) = (session.clone(), run_id.clone());
        tokio::spawn(async move { session.wait(&run_id).await.unwrap() })
    };
    // The store goes away before the cell's `load` and comes back a second
    // later: the load waits for it instead of failing the cell.
    tokio::time::sleep(Duration::from_millis(100)).await;
    relay.cut();
    tokio::time::sleep(Duration::from_secs(1)).await;
    relay.restore();
    let done = waiting.await.unwrap();
    match &done {
        CellResult::Completed { value, .. } => assert_eq!(value, &serde_json::json!(42)),
        other => panic!("a short outage failed the cell: {}", other.to_model_json()),
    }
    let loaded = session.exec(Exec::code("return await load('k2')")).await.unwrap();
    assert!(matches!(&loaded, CellResult::Completed { value, .. } if value == &serde_json::json!(42)), "{loaded:?}");
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_evicted_here_and_resumed_by_another_process_leaves_the_evicted_runs_gauge_here_ga_1_3() {
    let url = codemode_store::postgres::test_database().await;
    let (here, there) = (runtime(&url, Some(Duration::from_millis(50))).await, runtime(&url, None).await);
    let code = "await yield_control('park'); return 'done'";
    let mut runs = Vec::new();
    for _ in 0..3 {
        let parked = here.session("balanced").reply("r").exec(Exec::code(code)).await.unwrap();
        runs.push(parked.run_id().expect("parked durably").to_owned());
    }
    let evicted = async |rt: &CodeMode, want: u64| {
        for _ in 0..200 {
            if rt.metrics().runs.evicted_now == want {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("the evicted-runs gauge stayed at {}, not {want}", rt.metrics().runs.evicted_now);
    };
    evicted(&here, 3).await;
    // Behind a balancer, the waits reach the other process, which resumes
    // the runs: they are no longer evicted here.
    for run_id in &runs {
        let done = there.session("balanced").reply("r").wait(run_id).await.unwrap();
        assert!(matches!(done, CellResult::Completed { .. }), "{}", done.to_model_json());
    }
    evicted(&here, 0).await;
    assert_eq!(there.metrics().runs.evicted_now, 0);
    here.shutdown().await;
    there.shutdown().await;
}

/// A `wait` that comes while a parked run's hand-off write (the one that
/// releases its lease) is still in flight waits for it to land, then
/// re-claims the run: the run completes and its end is recorded, instead
/// of running on the lease it was giving up (GA-1.3).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wait_during_a_hand_off_write_in_flight_re_claims_the_run_once_the_write_lands_ga_1_3() {
    let url = codemode_store::postgres::test_database().await;
    let relay = Relay::to(&url).await;
    let handoff_after = Duration::from_millis(300);
    let rt = codemode_tests::builder()
        .store_backend(StoreBackend::Postgres { url: relay.url(&url), pool_size: 2 })
        .runs(RunsConfig { handoff_after, evict_after: None, ..RunsConfig::default() })
        .start()
        .await
        .unwrap();
    let session = rt.session("held").reply("r");
    let parked = session.exec(Exec::code("await yield_control('park'); return 'done'")).await.unwrap();
    let run_id = parked.run_id().expect("parked durably").to_owned();
    // Held before the hand-off begins: its write leaves, and waits.
    relay.hold(true);
    tokio::time::sleep(handoff_after * 2).await;
    let waiting = {
        let (session, run_id) = (session.clone(), run_id.clone());
        tokio::spawn(async move { session.wait(&run_id).await.unwrap() })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!waiting.is_finished(), "the wait went on while the hand-off's write was in flight");
    relay.hold(false);
    let result = waiting.await.unwrap();
    let CellResult::Completed { value, .. } = &result else { panic!("{}", result.to_model_json()) };
    assert_eq!(value, &serde_json::json!("done"));
    // Ended once, and recorded so: another wait finds the end, not a run.
    let again = session.wait(&run_id).await.unwrap();
    assert!(!matches!(again, CellResult::Waiting { .. }), "{}", again.to_model_json());
    rt.shutdown().await;
}

/// A run whose engine process dies while its store does not answer: the
/// window open on it is answered `waiting` by its deadline (no engine is
/// left to interrupt it there), saying the journal is still being
/// written; once the store answers, the run leaves memory, and the next
/// `wait` resumes it from its journal on a fresh engine process (GA-1.3).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_on_a_run_handed_over_while_the_store_hangs_is_answered_by_its_deadline_then_the_run_resumes_ga_1_3() {
    let url = codemode_store::postgres::test_database().await;
    let relay = Relay::to(&url).await;
    let timeout = Duration::from_millis(800);
    let rt = CodeMode::builder()
        .isolation(codemode_runtime::Isolation::Process)
        .engine_workers(engine_workers())
        .limits(codemode_runtime::Limits { timeout, ..codemode_runtime::Limits::default() })
        .store_backend(StoreBackend::Postgres { url: relay.url(&url), pool_size: 2 })
        // The park keeps its lease: the wait below needs no store to reach
        // the cell, only the hand-over does.
        .runs(RunsConfig { evict_after: None, handoff_after: Duration::from_secs(60), ..RunsConfig::default() })
        .start()
        .await
        .unwrap();
    let session = rt.session("hung").reply("r");
    let parked = session.exec(Exec::code("await yield_control('park'); return 'resumed'")).await.unwrap();
    let run_id = parked.run_id().expect("parked durably").to_owned();
    let snapshot = rt.engine_workers().expect("process isolation");
    let pid = snapshot.workers.first().expect("the cell's worker").pid;
    let killed = std::process::Command::new("kill").arg("-9").arg(pid.to_string()).status().unwrap();
    assert!(killed.success());
    relay.hold(true);
    let start = std::time::Instant::now();
    let answered = tokio::time::timeout(timeout * 5, session.wait(&run_id))
        .await
        .expect("the window was answered while the store hung")
        .unwrap();
    let took = start.elapsed();
    let CellResult::Waiting { warnings, .. } = &answered else { panic!("{}", answered.to_model_json()) };
    assert!(warnings.iter().any(|w| w.contains("still being written")), "{warnings:?}");
    assert!(took < timeout + Duration::from_millis(500), "answered {took:?} into an {timeout:?} window");
    // Another wait meanwhile is answered by its deadline too.
    let again = session.wait(&run_id).await.unwrap();
    assert_eq!(again.status(), "waiting", "{}", again.to_model_json());
    relay.hold(false);
    let mut last = session.wait(&run_id).await.unwrap();
    for _ in 0..10 {
        if last.status() != "waiting" {
            break;
        }
        last = session.wait(&run_id).await.unwrap();
    }
    assert!(
        matches!(&last, CellResult::Completed { value, .. } if value == &serde_json::json!("resumed")),
        "{}",
        last.to_model_json()
    );
    rt.shutdown().await;
}

/// Asks about every call of a tool whose name starts with `deploy`, each
/// answer held until the test lets it through.
struct GatedAsk {
    gate: Arc<tokio::sync::Semaphore>,
    checked: Arc<tokio::sync::Notify>,
}

impl codemode_runtime::Policy for GatedAsk {
    fn check(&self, call: codemode_runtime::NestedCall) -> codemode_runtime::DecisionFuture {
        if !call.tool.starts_with("deploy") {
            return Box::pin(std::future::ready(codemode_runtime::Decision::Allow));
        }
        let (gate, checked) = (Arc::clone(&self.gate), Arc::clone(&self.checked));
        Box::pin(async move {
            checked.notify_one();
            gate.acquire().await.expect("the gate stays open").forget();
            codemode_runtime::Decision::Ask(format!("{} changes production", call.tool))
        })
    }
}

/// A park whose journal write finds the run's lease taken (it ran out,
/// and another process claimed the run) is answered as moved — never
/// `waiting` with an approval id no record holds, whose decision the run's
/// next copy would refuse: the next `wait` resumes the run from its
/// record, the call is asked about once more, and, approved, runs once
/// (GA-1.3, GA-10.3).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_park_whose_write_finds_the_lease_taken_answers_moved_and_shows_no_approval_its_record_lacks_ga_1_3() {
    use codemode_store::runs::{Claim, RunStore};
    let url = codemode_store::postgres::test_database().await;
    let lease = Duration::from_secs(60);
    let deploy = Named::new("deploy_prod");
    let (gate, checked) = (Arc::new(tokio::sync::Semaphore::new(0)), Arc::new(tokio::sync::Notify::new()));
    let rt = codemode_tests::builder()
        .policy(GatedAsk { gate: Arc::clone(&gate), checked: Arc::clone(&checked) })
        .tool(deploy.clone())
        .store_backend(StoreBackend::Postgres { url: url.clone(), pool_size: 2 })
        // Parks keep the lease, renewed only every 20 s: nothing but the
        // park below writes while the lease is elsewhere.
        .runs(RunsConfig { lease, evict_after: None, handoff_after: Duration::from_secs(60), ..RunsConfig::default() })
        .start()
        .await
        .unwrap();
    let mut events = rt.run_events();
    // Another process, whose clock is past the lease.
    let pg = codemode_store::Pg::connect(&url, 2).await.unwrap();
    let store = codemode_store::SessionStore::postgres(pg, codemode_store::StoreLimits::default(), "other".into());
    let later = codemode_store::runs::now_ms() + 10 * 60_000;
    let other = codemode_store::runs::PgRuns::start(&store).await.unwrap().with_clock(Arc::new(move || later));

    let session = rt.session("lapsed").reply("r");
    let code = "await yield_control('p'); try { return await deploy_prod({env: 'prod'}) } catch (e) { return e.code }";
    let parked = session.exec(Exec::code(code)).await.unwrap();
    let run_id = parked.run_id().expect("parked durably").to_owned();
    let asked = {
        let (session, run_id) = (session.clone(), run_id.clone());
        tokio::spawn(async move { session.wait(&run_id).await.unwrap() })
    };
    // The deploy is being asked about: the gate asks the policy only once
    // the deploy's write-ahead has landed, while the lease was here.
    checked.notified().await;
    let claimed = other.claim(&run_id, "other-process", lease).await.unwrap();
    assert!(matches!(claimed, Claim::Claimed(_)), "{claimed:?}");
    gate.add_permits(100);
    let first = asked.await.unwrap();
    if let CellResult::Waiting { pending_approvals, .. } = &first {
        panic!("a park whose write was refused showed approvals {pending_approvals:?}");
    }
    let (code, error) = failure(&first);
    assert_eq!(code, ErrorCode::RuntimeUnavailable, "{error}");
    assert!(error.contains("call wait again"), "{error}");
    // The other process lets the run go: the next wait resumes it here.
    other.release(&run_id, "other-process").await.unwrap();
    let mut result = session.wait(&run_id).await.unwrap();
    let mut shown = Vec::new();
    for _ in 0..20 {
        match &result {
            CellResult::Waiting { pending_approvals, .. } if !pending_approvals.is_empty() => {
                let id = pending_approvals[0].id.clone();
                shown.push(id.clone());
                let decisions = codemode_runtime::Decisions { approve: vec![id], deny: vec![] };
                result = session.wait_with(&run_id, decisions).await.unwrap();
            }
            CellResult::Waiting { .. } => result = session.wait(&run_id).await.unwrap(),
            _ => break,
        }
    }
    let CellResult::Completed { value, .. } = &result else {
        panic!("after approvals {shown:?}: {}", result.to_model_json())
    };
    // The record has the deploy as made (its write-ahead) and not decided:
    // whether it ran cannot be told from it, so it is `outcome_unknown`,
    // not run and not asked about again.
    assert_eq!(value, &serde_json::json!("outcome_unknown"));
    assert_eq!((shown.len(), deploy.calls()), (0, 0), "{shown:?}");
    // Nor did an event announce the approval the refused write held.
    assert_eq!(requested(&drain(&mut events).await), Vec::<String>::new());
    rt.shutdown().await;
}

/// The events emitted so far (none more within 300 ms).
async fn drain(events: &mut codemode_runtime::RunEvents) -> Vec<codemode_runtime::RunEvent> {
    let mut seen = Vec::new();
    while let Ok(event) = tokio::time::timeout(Duration::from_millis(300), events.recv()).await {
        seen.push(event.expect("no event lost"));
    }
    seen
}

/// The approvals `seen` announced, in order.
fn requested(seen: &[codemode_runtime::RunEvent]) -> Vec<String> {
    let ids = seen.iter().filter_map(|e| match e {
        codemode_runtime::RunEvent::ApprovalRequested { approval, .. } => Some(approval.id.clone()),
        _ => None,
    });
    ids.collect()
}

/// A [`Named`] tool a replay may run again (no write-ahead holds it).
struct ReplaySafe(Named);

impl codemode_runtime::Tool for ReplaySafe {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn description(&self) -> &str {
        self.0.description()
    }
    fn replay_safe(&self) -> bool {
        true
    }
    fn call(
        &self,
        input: serde_json::Value,
        context: codemode_runtime::ToolContext,
    ) -> codemode_runtime::ToolFuture<'_> {
        self.0.call(input, context)
    }
}

/// A runtime on the store at `url` whose policy asks about every call of
/// `deploy`, registered replay-safe: no write-ahead holds it, so it is
/// asked about while the store is away. Runs stay in memory.
async fn asking_runtime(url: &str, deploy: &Named, limits: codemode_runtime::Limits) -> CodeMode {
    let (gate, checked) = (Arc::new(tokio::sync::Semaphore::new(1000)), Arc::new(tokio::sync::Notify::new()));
    codemode_tests::builder()
        .limits(limits)
        .policy(GatedAsk { gate, checked })
        .tool(ReplaySafe(deploy.clone()))
        .store_backend(StoreBackend::Postgres { url: url.to_owned(), pool_size: 2 })
        .runs(RunsConfig { evict_after: None, ..RunsConfig::default() })
        .start()
        .await
        .unwrap()
}

/// A park that asks for approval while the store does not take its
/// journal shows no approval id the record lacks: it answers
/// `runtime_unavailable` (the run kept, nothing decided or run), and once
/// the store is back the next `wait` shows the approval, stored, whose
/// decision runs the call once (GA-1.3, GA-10.3).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_park_asking_for_approval_while_the_store_is_away_shows_the_approval_only_once_stored_ga_1_3() {
    use codemode_store::runs::RunStore;
    let url = codemode_store::postgres::test_database().await;
    let relay = Relay::to(&url).await;
    let deploy = Named::new("deploy_prod");
    let rt = asking_runtime(&relay.url(&url), &deploy, codemode_runtime::Limits::default()).await;
    let mut events = rt.run_events();
    let session = rt.session("away").reply("r");
    let code = "await yield_control('one'); await new Promise(r => setTimeout(r, 300)); \
                return await deploy_prod({env: 'prod'})";
    let (run_id, cut_off) = wait_cut_off(&session, &relay, code).await;
    if let CellResult::Waiting { pending_approvals, .. } = &cut_off {
        panic!("a park the store did not take showed approvals {pending_approvals:?}");
    }
    let (code, error) = failure(&cut_off);
    assert_eq!(code, ErrorCode::RuntimeUnavailable, "{error}");
    assert!(error.contains("waiting for approval") && error.contains("Call wait again"), "{error}");
    assert_eq!(deploy.calls(), 0);
    // No event announced it either: no record held it.
    assert_eq!(requested(&drain(&mut events).await), Vec::<String>::new());
    relay.restore();
    let shown = session.wait(&run_id).await.unwrap();
    let CellResult::Waiting { pending_approvals, .. } = &shown else { panic!("{}", shown.to_model_json()) };
    assert_eq!(pending_approvals.len(), 1, "{}", shown.to_model_json());
    // Announced once stored, before the park that shows it.
    let seen = drain(&mut events).await;
    assert_eq!(requested(&seen), vec![pending_approvals[0].id.clone()], "{seen:?}");
    let at = |approvals: bool| {
        seen.iter().position(|e| match e {
            codemode_runtime::RunEvent::ApprovalRequested { .. } => approvals,
            codemode_runtime::RunEvent::Parked { pending_approvals, .. } => !approvals && !pending_approvals.is_empty(),
            _ => false,
        })
    };
    assert!(at(true) < at(false) && at(false).is_some(), "{seen:?}");
    // Stored: a process reading the record sees the approval pending.
    let pg = codemode_store::Pg::connect(&url, 1).await.unwrap();
    let reader = codemode_store::SessionStore::postgres(pg, codemode_store::StoreLimits::default(), "reader".into());
    let runs = codemode_store::runs::PgRuns::start(&reader).await.unwrap();
    let record = runs.get(&run_id).await.unwrap().expect("stored");
    let log = codemode_runtime::operator::approvals_of(&record.journal).unwrap();
    let id = &pending_approvals[0].id;
    assert!(log.records.iter().any(|r| &r.approval.id == id && r.decision.is_none()), "{id} not in {log:?}");
    let decisions = codemode_runtime::Decisions { approve: vec![pending_approvals[0].id.clone()], deny: vec![] };
    let done = session.wait_with(&run_id, decisions).await.unwrap();
    let CellResult::Completed { value, .. } = &done else { panic!("{}", done.to_model_json()) };
    assert_eq!(value["tool"], "deploy_prod");
    assert_eq!(deploy.calls(), 1, "the approved call ran once");
    rt.shutdown().await;
}

/// An approval asked while the store is away, which expires before any
/// record held it, was never announced, and its end is not announced
/// either: the host hears neither `ApprovalRequested` nor
/// `ApprovalDecided` for an id nobody could have been shown. The call is
/// still refused as expired (GA-10.3, runtime-semantics 11.3).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_that_expires_before_any_record_held_it_is_never_announced_nor_its_end_ga_10_3() {
    let url = codemode_store::postgres::test_database().await;
    let relay = Relay::to(&url).await;
    let deploy = Named::new("deploy_prod");
    let limits = codemode_runtime::Limits { approval_ttl: Duration::from_millis(100), ..Default::default() };
    let rt = asking_runtime(&relay.url(&url), &deploy, limits).await;
    let mut events = rt.run_events();
    let session = rt.session("away").reply("r");
    let code = "await yield_control('one'); await new Promise(r => setTimeout(r, 300)); \
                try { return await deploy_prod({env: 'prod'}) } catch (e) { return e.code }";
    // Asked while the store is away: the park that would show it is refused.
    let (run_id, cut_off) = wait_cut_off(&session, &relay, code).await;
    assert_eq!(failure(&cut_off).0, ErrorCode::RuntimeUnavailable, "{}", cut_off.to_model_json());
    // Past its TTL, still away: the next window expires it.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let expired = session.wait(&run_id).await.unwrap();
    assert_eq!(rt.metrics().runs.approvals_expired, 1, "it expired: {}", expired.to_model_json());
    assert_eq!(deploy.calls(), 0);
    let seen = drain(&mut events).await;
    let approvals = seen.iter().filter(|e| {
        matches!(
            e,
            codemode_runtime::RunEvent::ApprovalRequested { .. } | codemode_runtime::RunEvent::ApprovalDecided { .. }
        )
    });
    assert_eq!(approvals.count(), 0, "{seen:?}");
    relay.restore();
    rt.shutdown().await;
}
