//! Tests of the PostgreSQL run store on a real server, beyond the contract
//! every backend passes (`tests/run_store.rs`): a shared clock moved by
//! hand, notifications between processes, a killed listener, and a process
//! killed mid-commit. Each test makes its own database with
//! [`test_database`](crate::postgres::test_database).

use std::io::{BufRead, BufReader, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use codemode_protocol::RunEnd;

use super::{LISTENER_NAME, PgRuns};
use crate::error::StoreError;
use crate::postgres::{Pg, test_database};
use crate::runs::store::RunStore;
use crate::runs::types::{Claim, RunFilter, RunMeta, RunStatus, RunStoreError, RunSummary, RunWrites, now_ms};
use crate::sessions::{SessionStore, StoreLimits, StoredValue};

fn v(json: &str) -> Option<StoredValue> {
    Some(StoredValue { json: json.to_owned(), network: false })
}

/// One "process": its own pool, session store and runs, on a shared clock.
struct Process {
    store: SessionStore,
    runs: PgRuns,
}

/// What the crash child prints once it is connected.
const READY: &str = "crash-child-ready";

const LEASE: Duration = Duration::from_secs(30);
const T0: u64 = 1_800_000_000_000;

fn meta(run_id: &str, session: &str, created_ms: u64) -> RunMeta {
    RunMeta {
        run_id: run_id.to_owned(),
        session: session.to_owned(),
        reply: "reply-1".to_owned(),
        principal: Some("alice".to_owned()),
        title: None,
        created_ms,
    }
}

async fn process(url: &str, clock: &Arc<AtomicU64>) -> Process {
    let pg = Pg::connect(url, 4).await.unwrap();
    let store = SessionStore::postgres(pg, StoreLimits::default(), "runs-test".into());
    let clock = Arc::clone(clock);
    let runs = PgRuns::start(&store).await.unwrap().with_clock(Arc::new(move || clock.load(Ordering::SeqCst)));
    Process { store, runs }
}

fn clock() -> Arc<AtomicU64> {
    Arc::new(AtomicU64::new(T0))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_created_run_is_running_and_leased_to_its_creator_and_its_id_cannot_be_created_twice() {
    let url = test_database().await;
    let c = clock();
    let p = process(&url, &c).await;
    p.runs.create(&meta("run_1", "s", T0), "owner-a", LEASE).await.unwrap();
    let rec = p.runs.get("run_1").await.unwrap().unwrap();
    assert_eq!(rec.meta, meta("run_1", "s", T0));
    assert_eq!(
        (rec.status, rec.owner.as_deref(), rec.lease_until_ms),
        (RunStatus::Running, Some("owner-a"), T0 + 30_000)
    );
    assert_eq!((rec.journal.len(), rec.version, rec.abort_requested, rec.updated_ms), (0, 0, false, T0));
    let twice = p.runs.create(&meta("run_1", "s", T0), "owner-b", LEASE).await.unwrap_err();
    assert!(matches!(&twice, RunStoreError::Exists { run_id } if run_id == "run_1"), "{twice:?}");
    assert_eq!(p.runs.get("run_1").await.unwrap().unwrap().owner.as_deref(), Some("owner-a"));
    assert_eq!(p.runs.get("run_missing").await.unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn save_needs_the_live_lease_bumps_the_version_and_a_released_park_is_claimed_by_another_process() {
    let url = test_database().await;
    let c = clock();
    let (a, b) = (process(&url, &c).await, process(&url, &c).await);
    a.runs.create(&meta("run_1", "s", T0), "a", LEASE).await.unwrap();
    assert_eq!(a.runs.save("run_1", "a", RunStatus::Running, b"j1".to_vec(), Some(LEASE)).await.unwrap(), 1);
    let lost = b.runs.save("run_1", "b", RunStatus::Parked, b"x".to_vec(), Some(LEASE)).await.unwrap_err();
    assert!(matches!(lost, RunStoreError::LeaseLost { .. }), "{lost:?}");
    let missing = b.runs.save("run_2", "b", RunStatus::Parked, b"x".to_vec(), Some(LEASE)).await.unwrap_err();
    assert!(matches!(missing, RunStoreError::Missing { .. }), "{missing:?}");
    assert!(a.runs.save("run_1", "a", RunStatus::Ended(RunEnd::Completed), vec![], None).await.is_err());
    // Parked and handed off: the lease is released with the journal.
    c.fetch_add(1000, Ordering::SeqCst);
    assert_eq!(a.runs.save("run_1", "a", RunStatus::Parked, b"j2".to_vec(), None).await.unwrap(), 2);
    let rec = b.runs.get("run_1").await.unwrap().unwrap();
    assert_eq!((rec.status, rec.owner, rec.lease_until_ms, rec.journal), (RunStatus::Parked, None, 0, b"j2".to_vec()));
    assert_eq!(rec.updated_ms, T0 + 1000);
    let Claim::Claimed(rec) = b.runs.claim("run_1", "b", LEASE).await.unwrap() else {
        panic!("a released run is free")
    };
    assert_eq!((rec.owner.as_deref(), rec.journal, rec.version), (Some("b"), b"j2".to_vec(), 2));
    assert!(matches!(
        a.runs.save("run_1", "a", RunStatus::Running, vec![], Some(LEASE)).await,
        Err(RunStoreError::LeaseLost { .. })
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claim_takes_a_free_expired_or_own_lease_and_reports_held_ended_and_missing_runs() {
    let url = test_database().await;
    let c = clock();
    let (a, b) = (process(&url, &c).await, process(&url, &c).await);
    a.runs.create(&meta("run_1", "s", T0), "a", LEASE).await.unwrap();
    assert_eq!(
        b.runs.claim("run_1", "b", LEASE).await.unwrap(),
        Claim::Held { owner: "a".into(), until_ms: T0 + 30_000 }
    );
    // Own lease: renewed to now + lease.
    c.fetch_add(10_000, Ordering::SeqCst);
    let Claim::Claimed(rec) = a.runs.claim("run_1", "a", LEASE).await.unwrap() else { panic!("own lease") };
    assert_eq!(rec.lease_until_ms, T0 + 40_000);
    // Exactly at the end of the lease it is expired: another takes it.
    c.store(T0 + 40_000, Ordering::SeqCst);
    let Claim::Claimed(rec) = b.runs.claim("run_1", "b", LEASE).await.unwrap() else { panic!("expired lease") };
    assert_eq!(rec.owner.as_deref(), Some("b"));
    b.runs.end("run_1", "b", RunEnd::Completed, vec![]).await.unwrap();
    assert_eq!(a.runs.claim("run_1", "a", LEASE).await.unwrap(), Claim::Ended(RunEnd::Completed));
    assert_eq!(a.runs.claim("run_nope", "a", LEASE).await.unwrap(), Claim::Missing);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn renew_extends_only_a_live_lease_of_its_owner_and_release_clears_only_the_owners() {
    let url = test_database().await;
    let c = clock();
    let p = process(&url, &c).await;
    p.runs.create(&meta("run_1", "s", T0), "a", LEASE).await.unwrap();
    c.fetch_add(20_000, Ordering::SeqCst);
    p.runs.renew("run_1", "a", LEASE).await.unwrap();
    assert_eq!(p.runs.get("run_1").await.unwrap().unwrap().lease_until_ms, T0 + 50_000);
    assert!(matches!(p.runs.renew("run_1", "b", LEASE).await, Err(RunStoreError::LeaseLost { .. })));
    assert!(matches!(p.runs.renew("run_2", "a", LEASE).await, Err(RunStoreError::Missing { .. })));
    p.runs.release("run_1", "b").await.unwrap();
    assert_eq!(p.runs.get("run_1").await.unwrap().unwrap().owner.as_deref(), Some("a"), "not b's to release");
    c.store(T0 + 50_000, Ordering::SeqCst);
    assert!(
        matches!(p.runs.renew("run_1", "a", LEASE).await, Err(RunStoreError::LeaseLost { .. })),
        "an expired lease may already be someone else's"
    );
    p.runs.release("run_1", "a").await.unwrap();
    let rec = p.runs.get("run_1").await.unwrap().unwrap();
    assert_eq!((rec.owner, rec.lease_until_ms, rec.status), (None, 0, RunStatus::Running));
    p.runs.release("run_missing", "a").await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_completed_runs_end_and_its_store_writes_commit_together_and_only_for_the_lease_holder_ga_7_5() {
    let url = test_database().await;
    let c = clock();
    let p = process(&url, &c).await;
    p.store.commit("s", vec![("old".into(), v("0")), ("gone".into(), v("1"))]).await.unwrap();
    p.runs.create(&meta("run_1", "s", T0), "a", LEASE).await.unwrap();
    p.runs.save("run_1", "a", RunStatus::Running, b"journal".to_vec(), Some(LEASE)).await.unwrap();
    let writes = vec![("new".to_owned(), v("2")), ("gone".to_owned(), None)];
    let lost = p.runs.end("run_1", "b", RunEnd::Completed, writes.clone()).await.unwrap_err();
    assert!(matches!(lost, RunStoreError::LeaseLost { .. }), "{lost:?}");
    assert_eq!(p.store.load("s", "new").await.unwrap(), None, "no writes without the end");
    p.runs.end("run_1", "a", RunEnd::Completed, writes.clone()).await.unwrap();
    assert_eq!(p.store.load("s", "new").await.unwrap(), v("2"));
    assert_eq!(p.store.load("s", "gone").await.unwrap(), None);
    let rec = p.runs.get("run_1").await.unwrap().unwrap();
    assert_eq!(
        (rec.status, rec.owner, rec.journal.len(), rec.version),
        (RunStatus::Ended(RunEnd::Completed), None, 0, 2)
    );
    assert!(matches!(p.runs.end("run_1", "a", RunEnd::Completed, writes).await, Err(RunStoreError::LeaseLost { .. })));
    assert!(matches!(p.runs.end("run_2", "a", RunEnd::Failed, vec![]).await, Err(RunStoreError::Missing { .. })));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_whose_writes_do_not_fit_the_session_is_not_ended_and_writes_nothing_ga_7_3() {
    let url = test_database().await;
    let c = clock();
    let p = process(&url, &c).await;
    let quarter = format!("\"{}\"", "x".repeat(256 * 1024 - 2));
    p.store.commit("s", (0..3).map(|i| (format!("k{i}"), v(&quarter))).collect()).await.unwrap();
    p.runs.create(&meta("run_1", "s", T0), "a", LEASE).await.unwrap();
    p.runs.save("run_1", "a", RunStatus::Running, b"journal".to_vec(), Some(LEASE)).await.unwrap();
    // The fourth quarter fills 1 MiB exactly; one byte more is over.
    let over = vec![("small".to_owned(), v("1")), ("k3".to_owned(), v(&quarter))];
    let err = p.runs.end("run_1", "a", RunEnd::Completed, over).await.unwrap_err();
    assert!(matches!(err, RunStoreError::Store(StoreError::SessionFull(1))), "{err:?}");
    let rec = p.runs.get("run_1").await.unwrap().unwrap();
    assert_eq!((rec.status, rec.journal), (RunStatus::Running, b"journal".to_vec()), "nothing of the end was written");
    assert_eq!(p.store.load("s", "small").await.unwrap(), None);
    p.runs.end("run_1", "a", RunEnd::Completed, vec![("k3".to_owned(), v(&quarter))]).await.unwrap();
    assert_eq!(p.store.load("s", "k3").await.unwrap(), v(&quarter));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_filters_by_status_and_session_newest_first_without_journals() {
    let url = test_database().await;
    let c = clock();
    let p = process(&url, &c).await;
    for i in 0..5u64 {
        let session = if i % 2 == 0 { "even" } else { "odd" };
        p.runs.create(&meta(&format!("run_{i}"), session, T0 + i), "a", LEASE).await.unwrap();
    }
    p.runs.save("run_1", "a", RunStatus::Parked, vec![7; 100], None).await.unwrap();
    p.runs.end("run_2", "a", RunEnd::Failed, vec![]).await.unwrap();
    let all = p.runs.list(RunFilter::default()).await.unwrap();
    let ids: Vec<&str> = all.iter().map(|s| s.meta.run_id.as_str()).collect();
    assert_eq!(ids, ["run_4", "run_3", "run_2", "run_1", "run_0"]);
    assert_eq!((all[3].journal_bytes, all[3].status.clone(), all[3].owner.clone()), (100, RunStatus::Parked, None));
    let only = |status: Option<RunStatus>, session: Option<&str>, limit: Option<usize>| RunFilter {
        status,
        session: session.map(str::to_owned),
        limit,
        ..RunFilter::default()
    };
    let ids = |runs: Vec<RunSummary>| runs.into_iter().map(|s| s.meta.run_id).collect::<Vec<_>>();
    assert_eq!(ids(p.runs.list(only(Some(RunStatus::Ended(RunEnd::Failed)), None, None)).await.unwrap()), ["run_2"]);
    assert_eq!(ids(p.runs.list(only(None, Some("even"), None)).await.unwrap()), ["run_4", "run_2", "run_0"]);
    assert_eq!(ids(p.runs.list(only(Some(RunStatus::Running), Some("even"), Some(1))).await.unwrap()), ["run_4"]);
    assert!(p.runs.list(only(Some(RunStatus::Parked), Some("even"), None)).await.unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abort_request_marks_a_held_run_and_ends_an_unleased_one_at_once() {
    let url = test_database().await;
    let c = clock();
    let p = process(&url, &c).await;
    p.runs.create(&meta("run_held", "s", T0), "a", LEASE).await.unwrap();
    assert_eq!(
        p.runs.request_abort("run_held").await.unwrap(),
        Claim::Held { owner: "a".into(), until_ms: T0 + 30_000 }
    );
    let rec = p.runs.get("run_held").await.unwrap().unwrap();
    assert!(rec.abort_requested && rec.status == RunStatus::Running);
    p.runs.create(&meta("run_parked", "s", T0), "a", LEASE).await.unwrap();
    p.runs.save("run_parked", "a", RunStatus::Parked, b"j".to_vec(), None).await.unwrap();
    assert_eq!(p.runs.request_abort("run_parked").await.unwrap(), Claim::Ended(RunEnd::Aborted));
    let rec = p.runs.get("run_parked").await.unwrap().unwrap();
    assert_eq!((rec.status, rec.journal.len(), rec.abort_requested), (RunStatus::Ended(RunEnd::Aborted), 0, true));
    assert_eq!(p.runs.request_abort("run_parked").await.unwrap(), Claim::Ended(RunEnd::Aborted));
    assert_eq!(p.runs.request_abort("run_nope").await.unwrap(), Claim::Missing);
    // A running run whose owner died (lease expired): nobody would end it.
    c.fetch_add(LEASE.as_millis() as u64, Ordering::SeqCst);
    assert_eq!(p.runs.request_abort("run_held").await.unwrap(), Claim::Ended(RunEnd::Aborted));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changed_is_woken_by_a_change_another_process_makes_and_otherwise_times_out() {
    let url = test_database().await;
    let c = clock();
    let (a, b) = (process(&url, &c).await, process(&url, &c).await);
    b.runs.create(&meta("run_1", "s", T0), "b", LEASE).await.unwrap();
    b.runs.create(&meta("run_2", "s", T0), "b", LEASE).await.unwrap();
    // A create sends no notification: it cannot wake the waits below.
    // Registered at the call: a change before the first poll still wakes.
    let waiting = a.runs.changed("run_1", Duration::from_secs(20));
    let other = a.runs.changed("run_2", Duration::from_millis(300));
    b.runs.save("run_1", "b", RunStatus::Parked, b"j".to_vec(), None).await.unwrap();
    let started = Instant::now();
    waiting.await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(5), "woken by NOTIFY, not the timeout");
    // No change of run_2: only its timeout ends the wait.
    let started = Instant::now();
    other.await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(250), "{:?}", started.elapsed());
    // Each kind of change wakes: claim, abort request, end.
    for step in 0..3 {
        let waiting = a.runs.changed("run_1", Duration::from_secs(20));
        let started = Instant::now();
        match step {
            0 => drop(b.runs.claim("run_1", "b", LEASE).await.unwrap()),
            1 => drop(b.runs.request_abort("run_1").await.unwrap()),
            _ => b.runs.end("run_1", "b", RunEnd::Aborted, vec![]).await.unwrap(),
        }
        waiting.await.unwrap();
        assert!(started.elapsed() < Duration::from_secs(5), "step {step}");
    }
    // A cancelled wait leaves no waiter behind.
    drop(a.runs.changed("run_1", Duration::from_secs(20)));
    assert!(a.runs.waiter_count() == 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listener_connection_killed_by_the_server_is_re_established_and_changes_wake_waiters_again() {
    let url = test_database().await;
    let c = clock();
    let (a, b) = (process(&url, &c).await, process(&url, &c).await);
    b.runs.create(&meta("run_1", "s", T0), "b", LEASE).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    // A wait under way when the connection drops is woken (its change may
    // have been missed), not left to its timeout.
    let waiting = a.runs.changed("run_1", Duration::from_secs(20));
    let killed: i64 = b
        .store
        .pg()
        .unwrap()
        .client()
        .await
        .unwrap()
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
             WHERE application_name = $1 AND datname = current_database()",
            &[&LISTENER_NAME],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(killed, 2, "both processes' listeners");
    let started = Instant::now();
    waiting.await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(5), "woken by the reconnect");
    // Once reconnected, notifications flow again.
    let mut woken = false;
    for _ in 0..50 {
        let waiting = a.runs.changed("run_1", Duration::from_millis(500));
        b.runs.renew("run_1", "b", LEASE).await.unwrap();
        b.runs.release("run_1", "b").await.unwrap();
        b.runs.claim("run_1", "b", LEASE).await.unwrap();
        let started = Instant::now();
        waiting.await.unwrap();
        if started.elapsed() < Duration::from_millis(400) {
            woken = true;
            break;
        }
    }
    assert!(woken, "no notification arrived after the reconnect");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prune_deletes_only_ended_runs_last_changed_before_the_cutoff() {
    let url = test_database().await;
    let c = clock();
    let p = process(&url, &c).await;
    for id in ["run_old_end", "run_old_live", "run_new_end"] {
        p.runs.create(&meta(id, "s", T0), "a", LEASE).await.unwrap();
    }
    p.runs.end("run_old_end", "a", RunEnd::Completed, vec![]).await.unwrap();
    c.store(T0 + 5_000, Ordering::SeqCst);
    p.runs.end("run_new_end", "a", RunEnd::Failed, vec![]).await.unwrap();
    assert_eq!(p.runs.prune(T0 + 5_000, usize::MAX).await.unwrap(), 1);
    assert_eq!(p.runs.get("run_old_end").await.unwrap(), None);
    assert!(p.runs.get("run_old_live").await.unwrap().is_some());
    assert!(p.runs.get("run_new_end").await.unwrap().is_some());
    assert_eq!(p.runs.prune(T0 + 5_001, usize::MAX).await.unwrap(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_racing_to_claim_a_run_exactly_one_wins() {
    let url = test_database().await;
    let c = clock();
    let (a, b) = (Arc::new(process(&url, &c).await), Arc::new(process(&url, &c).await));
    for i in 0..30 {
        a.runs.create(&meta(&format!("run_{i}"), "s", T0), "dead", LEASE).await.unwrap();
    }
    // Every lease expired: both race for each run at once.
    c.fetch_add(LEASE.as_millis() as u64, Ordering::SeqCst);
    for i in 0..30 {
        let id = format!("run_{i}");
        let (pa, pb) = (Arc::clone(&a), Arc::clone(&b));
        let (ida, idb) = (id.clone(), id.clone());
        let ta = tokio::spawn(async move { pa.runs.claim(&ida, "a", LEASE).await.unwrap() });
        let tb = tokio::spawn(async move { pb.runs.claim(&idb, "b", LEASE).await.unwrap() });
        let (ra, rb) = (ta.await.unwrap(), tb.await.unwrap());
        let winners: Vec<&str> = [(&ra, "a"), (&rb, "b")]
            .into_iter()
            .filter(|(r, _)| matches!(r, Claim::Claimed(_)))
            .map(|(_, who)| who)
            .collect();
        assert_eq!(winners.len(), 1, "{id}: {ra:?} / {rb:?}");
        let loser = if winners[0] == "a" { &rb } else { &ra };
        assert!(matches!(loser, Claim::Held { owner, .. } if owner == winners[0]), "{loser:?}");
        assert_eq!(a.runs.get(&id).await.unwrap().unwrap().owner.as_deref(), Some(winners[0]));
    }
}

/// The crash test's child: with `CODEMODE_CRASH_CHILD_URL` set, ends runs
/// with store writes in a loop until it is killed, printing `ended <id>`
/// after each end is acknowledged. Without it (a normal test run), it does
/// nothing: it is not a test of its own.
#[test]
fn crash_child_entry_point_ends_runs_with_writes_until_killed() {
    let (Ok(url), Ok(tag)) = (std::env::var("CODEMODE_CRASH_CHILD_URL"), std::env::var("CODEMODE_CRASH_CHILD_TAG"))
    else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async move {
        let pg = Pg::connect(&url, 2).await.unwrap();
        let store = SessionStore::postgres(pg, StoreLimits::default(), "crash-child".into());
        let runs = PgRuns::start(&store).await.unwrap();
        let mut out = std::io::stdout();
        // On a line of its own: the harness's "test … ... " has no newline.
        writeln!(out, "\n{READY}").unwrap();
        for i in 0.. {
            let id = format!("run_{tag}_{i}");
            runs.create(&meta(&id, &format!("crash-{tag}"), now_ms()), "child", LEASE).await.unwrap();
            runs.end(&id, "child", RunEnd::Completed, crash_writes(&id)).await.unwrap();
            writeln!(out, "ended {id}").unwrap();
        }
    });
}

fn crash_writes(run_id: &str) -> RunWrites {
    (0..4).map(|j| (format!("{run_id}/k{j}"), v(&format!("\"{run_id}:{j}\"")))).collect()
}

#[test]
fn killing_a_process_mid_commit_a_hundred_times_loses_no_acknowledged_end_and_half_applies_none_ga_7_6() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let url = runtime.block_on(test_database());
    // Migrated once here, so children only check the version.
    runtime.block_on(Pg::connect(&url, 1)).unwrap();
    let exe = std::env::current_exe().unwrap();
    let mut acknowledged = Vec::new();
    let mut seed = [0u8; 100];
    getrandom::fill(&mut seed).unwrap();
    for (round, r) in seed.iter().enumerate() {
        let mut child = std::process::Command::new(&exe)
            .args([
                "--exact",
                "runs::postgres::tests::crash_child_entry_point_ends_runs_with_writes_until_killed",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("CODEMODE_CRASH_CHILD_URL", &url)
            .env("CODEMODE_CRASH_CHILD_TAG", round.to_string())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Read on a thread, so a child that never gets ready fails the test
        // at a timeout instead of hanging it.
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let ready = loop {
            match rx.recv_timeout(Duration::from_secs(20)) {
                Ok(line) if line == READY => break true,
                Ok(_) => {}
                Err(_) => break false,
            }
        };
        if ready {
            // A random moment within the next ~80 ms of commits.
            std::thread::sleep(Duration::from_micros(u64::from(*r) * 320));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(ready, "crash child {round} never got ready");
        reader.join().unwrap();
        for line in rx.try_iter() {
            if let Some(id) = line.strip_prefix("ended ") {
                acknowledged.push(id.to_owned());
            }
        }
    }
    assert!(acknowledged.len() >= 100, "the children ended only {} runs: too few to test anything", acknowledged.len());
    runtime.block_on(async {
        let pg = Pg::connect(&url, 1).await.unwrap();
        let client = pg.client().await.unwrap();
        let runs: std::collections::HashMap<String, String> = client
            .query("SELECT run_id, status FROM codemode_runs", &[])
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        let mut values: std::collections::HashMap<String, Vec<(String, String)>> = std::collections::HashMap::new();
        for row in client.query("SELECT key, json FROM codemode_session_values", &[]).await.unwrap() {
            let key = String::from_utf8(row.get::<_, Vec<u8>>(0)).unwrap();
            let run = key.split('/').next().unwrap().to_owned();
            values.entry(run).or_default().push((key, row.get(1)));
        }
        for id in &acknowledged {
            assert_eq!(runs.get(id).map(String::as_str), Some("completed"), "{id} was acknowledged, then lost");
        }
        let mut ended = 0;
        for (id, status) in &runs {
            let mut got = values.remove(id).unwrap_or_default();
            got.sort();
            match status.as_str() {
                "completed" => {
                    ended += 1;
                    let want: Vec<(String, String)> =
                        crash_writes(id).into_iter().map(|(k, v)| (k, v.unwrap().json)).collect();
                    assert_eq!(got, want, "{id} ended without all its writes");
                }
                "running" => assert!(got.is_empty(), "{id} did not end, yet {} of its writes are stored", got.len()),
                other => panic!("{id}: unexpected status {other}"),
            }
        }
        assert!(values.is_empty(), "writes of runs that do not exist: {:?}", values.keys().collect::<Vec<_>>());
        assert!(ended >= acknowledged.len());
        eprintln!(
            "crash test: {} runs acknowledged, {ended} ended, {} cut off before or during their end",
            acknowledged.len(),
            runs.len() - ended
        );
    });
}
