//! The sled run store's log (`Durability::Process`): a journal write that
//! returned survives the process dying at once — no flush, no destructor —
//! and is re-applied by the next process that opens the store.
//!
//! The dying process is this test binary run again as a child, which
//! writes and then aborts (`SIGABRT`: like `kill -9`, nothing runs after).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use codemode_protocol::RunEnd;
use codemode_store::runs::{Durability, RunMeta, RunStatus, RunStore, SledRuns, now_ms};
use codemode_store::{SessionStore, StoreLimits};

const DIR: &str = "CODEMODE_RUN_LOG_TEST_DIR";
const CHILD: &str = "child_writes_process_durable_journals_then_aborts";

fn meta(n: u32) -> RunMeta {
    RunMeta {
        run_id: format!("run_{n:032x}"),
        session: "s".into(),
        reply: "r".into(),
        principal: None,
        title: None,
        created_ms: now_ms(),
    }
}

/// The journal of run `n` as the child writes it.
fn journal(n: u32) -> Vec<u8> {
    (0..=n).flat_map(|i| format!("chunk {i};").into_bytes()).collect()
}

/// Runs only as the child of the test below.
#[tokio::test]
#[ignore = "the child process of a_process_durable_write_survives_the_process_aborting_right_after"]
async fn child_writes_process_durable_journals_then_aborts() {
    let dir = PathBuf::from(std::env::var(DIR).expect("the parent names the store"));
    let store = SessionStore::open(Some(&dir), StoreLimits::default(), "run-log-child".into()).unwrap();
    let runs = SledRuns::open(&store).unwrap().with_durability(Durability::Process).unwrap();
    for n in 0..5 {
        let m = meta(n);
        runs.create_before_save(&m, "child", Duration::from_secs(30)).await.unwrap();
        for i in 0..=n {
            let chunk = format!("chunk {i};").into_bytes();
            let lease = Some(Duration::from_secs(30));
            runs.append(&m.run_id, "child", RunStatus::Parked, chunk, lease, u64::from(i)).await.unwrap();
        }
    }
    // Every write returned: the process dies with nothing flushed by it.
    std::process::abort();
}

fn run_child(dir: &Path) {
    let status = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", CHILD, "--ignored", "--nocapture", "--test-threads", "1"])
        .env(DIR, dir)
        .status()
        .unwrap();
    assert!(!status.success(), "the child aborts after its writes: {status:?}");
}

fn fresh(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-run-log-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

async fn reopened(dir: &Path) -> SledRuns {
    // Reopened at once, the database's lock can still be held for a moment
    // by a child another test in this process is spawning (between its fork
    // and exec it holds copies of our descriptors). Retry briefly.
    let mut tries = 0;
    let store = loop {
        match SessionStore::open(Some(dir), StoreLimits::default(), "run-log-parent".into()) {
            Ok(store) => break store,
            Err(codemode_store::StoreError::Locked { .. }) if tries < 100 => {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(e) => panic!("the store cannot be reopened: {e}"),
        }
    };
    SledRuns::open(&store).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_durable_write_survives_the_process_aborting_right_after() {
    let dir = fresh("abort");
    run_child(&dir);
    let log = dir.join("codemode-runs.log");
    assert!(std::fs::metadata(&log).unwrap().len() > 0, "the child's writes are in its run log");
    let runs = reopened(&dir).await;
    for n in 0..5 {
        let r = runs.get(&meta(n).run_id).await.unwrap().expect("the run survived");
        assert_eq!((r.status, r.journal), (RunStatus::Parked, journal(n)), "run {n}");
    }
    assert!(!log.exists(), "a re-applied log is deleted once sled holds it");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_torn_last_entry_is_dropped_and_everything_before_it_kept() {
    let dir = fresh("torn");
    run_child(&dir);
    // A write cut short by the crash: it was never acknowledged.
    let log = dir.join("codemode-runs.log");
    let mut bytes = std::fs::read(&log).unwrap();
    bytes.extend_from_slice(&[200, 0, 0, 0, 1, 2, 3, 4, 5, 6]);
    std::fs::write(&log, &bytes).unwrap();
    let runs = reopened(&dir).await;
    for n in 0..5 {
        assert_eq!(runs.get(&meta(n).run_id).await.unwrap().unwrap().journal, journal(n));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logged_record_older_than_what_sled_holds_is_not_re_applied() {
    let dir = fresh("older");
    run_child(&dir);
    let saved_log = std::fs::read(dir.join("codemode-runs.log")).unwrap();
    // A later process advances run 4 (machine-durable, flushed)...
    {
        let runs = reopened(&dir).await;
        // As the runtime does when it opens a store a dead process held.
        assert_eq!(runs.release_stale_leases().unwrap(), 5);
        let Ok(codemode_store::runs::Claim::Claimed(_)) =
            runs.claim(&meta(4).run_id, "later", Duration::from_secs(30)).await
        else {
            panic!("claimable");
        };
        runs.end(&meta(4).run_id, "later", RunEnd::Completed, Vec::new()).await.unwrap();
    }
    // ...and an old log turns up again (a crash between recovery and delete).
    std::fs::write(dir.join("codemode-runs.log"), &saved_log).unwrap();
    let runs = reopened(&dir).await;
    let r = runs.get(&meta(4).run_id).await.unwrap().unwrap();
    assert_eq!(r.status, RunStatus::Ended(RunEnd::Completed), "the end is newer: the old park is not brought back");
    assert_eq!(runs.get(&meta(3).run_id).await.unwrap().unwrap().journal, journal(3));
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "timing probe"]
async fn probe_write_costs() {
    for durability in [Durability::Process, Durability::Machine] {
        let dir = fresh(&format!("probe-{}", durability.as_str()));
        let store =
            SessionStore::open(Some(&dir), StoreLimits::default(), format!("probe-{}", durability.as_str())).unwrap();
        store.start_actor(None).await.unwrap();
        let runs = SledRuns::open(&store).unwrap().with_durability(durability).unwrap();
        let (mut c, mut a) = (Duration::ZERO, Duration::ZERO);
        for n in 0..500 {
            let m = meta(n);
            let t = std::time::Instant::now();
            runs.create_before_save(&m, "p", Duration::from_secs(30)).await.unwrap();
            c += t.elapsed();
            let t = std::time::Instant::now();
            runs.append(&m.run_id, "p", RunStatus::Parked, vec![7; 600], None, 0).await.unwrap();
            a += t.elapsed();
        }
        eprintln!("{}: create {:?}/op, append {:?}/op", durability.as_str(), c / 500, a / 500);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
