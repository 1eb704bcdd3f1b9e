//! Durable runs when PostgreSQL itself crashes (GA-1.3, runtime-semantics
//! 11.3): a cluster of this test's own, crash-restarted with `pg_ctl
//! restart -m immediate` (no checkpoint: what an OOM kill or a failover
//! looks like), and runs whose journal a crash left empty or damaged.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use codemode_runtime::{CellResult, CodeMode, ErrorCode, Exec, RunsConfig, StoreBackend};
use codemode_store::runs::{PgRuns, RunMeta, RunStatus, RunStore, now_ms};
use codemode_store::{Pg, SessionStore, StoreLimits};
use codemode_tests::*;

/// A PostgreSQL cluster of the test's own (`scripts/postgres.sh`), stopped
/// and deleted on drop.
struct Cluster {
    dir: PathBuf,
    url: String,
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/postgres.sh")
}

impl Cluster {
    fn start(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("codemode-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out = Command::new("bash").arg(script()).arg("start").arg(&dir).output().unwrap();
        assert!(out.status.success(), "the cluster did not start: {}", String::from_utf8_lossy(&out.stderr));
        let url = String::from_utf8(out.stdout).unwrap().trim().to_owned();
        Self { dir, url }
    }

    /// `pg_ctl restart -m immediate`: the server dies without a checkpoint
    /// and recovers from its WAL.
    fn crash(&self) {
        let out = Command::new("bash").arg(script()).arg("crash").arg(&self.dir).output().unwrap();
        assert!(out.status.success(), "the cluster did not come back: {}", String::from_utf8_lossy(&out.stderr));
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("bash").arg(script()).arg("stop").arg(&self.dir).output();
    }
}

async fn runtime(url: &str) -> CodeMode {
    codemode_tests::builder()
        .store_backend(StoreBackend::Postgres { url: url.to_owned(), pool_size: 4 })
        .runs(RunsConfig::default())
        .start()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_park_answered_waiting_survives_a_database_crash_under_the_default_durability_ga_1_3() {
    let cluster = Cluster::start("db-crash");
    let rt = runtime(&cluster.url).await;
    let session = rt.session("crash").reply("r");
    // A burst of parks, each answered `waiting`, then the database dies at
    // once: an asynchronous commit loses the last of them.
    let parks: Vec<_> = (0..40)
        .map(|n| {
            let session = session.clone();
            tokio::spawn(async move {
                let code = format!("await yield_control('park'); return {n}");
                session.exec(Exec::code(code)).await.unwrap()
            })
        })
        .collect();
    let mut runs = Vec::new();
    for (n, park) in parks.into_iter().enumerate() {
        let parked = park.await.unwrap();
        assert!(matches!(parked, CellResult::Waiting { .. }), "{}", parked.to_model_json());
        runs.push((n, parked.run_id().expect("parked durably").to_owned()));
    }
    cluster.crash();
    rt.shutdown().await;
    // Another process resumes every one of them from the recovered database.
    let other = runtime(&cluster.url).await;
    let session = other.session("crash").reply("r");
    for (n, run_id) in runs {
        let done = session.wait(&run_id).await.unwrap();
        match &done {
            CellResult::Completed { value, .. } => assert_eq!(value, &serde_json::json!(n)),
            other => panic!("park {n} ({run_id}) acknowledged, then lost to the crash: {}", other.to_model_json()),
        }
    }
    other.shutdown().await;
}

/// A run record as a crash can leave it: created, its owner gone, its
/// journal `journal` (empty: the first journal write never landed).
async fn stranded(runs: &PgRuns, session: &str, journal: &[u8]) -> String {
    let meta = RunMeta {
        run_id: codemode_protocol::ids::unguessable::<16>("run_").unwrap(),
        session: session.into(),
        reply: "r".into(),
        principal: None,
        title: None,
        created_ms: now_ms(),
    };
    runs.create(&meta, "a-process-that-died", Duration::from_secs(30)).await.unwrap();
    if !journal.is_empty() {
        runs.save(&meta.run_id, "a-process-that-died", RunStatus::Parked, journal.to_vec(), None).await.unwrap();
    } else {
        runs.release(&meta.run_id, "a-process-that-died").await.unwrap();
    }
    meta.run_id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_whose_journal_is_missing_or_damaged_ends_unrecoverable_and_every_wait_says_so_ga_1_3() {
    let url = codemode_store::postgres::test_database().await;
    let pg = Pg::connect(&url, 2).await.unwrap();
    let sessions = SessionStore::postgres(pg, StoreLimits::default(), "stranded".into());
    let runs = PgRuns::start(&sessions).await.unwrap();
    let missing = stranded(&runs, "crash", b"").await;
    let damaged = stranded(&runs, "crash", b"CMJ\x00 not a journal at all").await;
    let rt = runtime(&url).await;
    let session = rt.session("crash").reply("r");
    for run_id in [missing, damaged] {
        let first = session.wait(&run_id).await.unwrap();
        let (code, error) = failure(&first);
        // The wait ends it — unless the runtime's first housekeeping sweep,
        // at start, found the record with no journal first and ended it as
        // an orphan: then the wait finds it ended, as every later one does.
        let ended_by_sweep = error.contains("its journal was never stored whole or is damaged");
        if !ended_by_sweep {
            assert_eq!(code, ErrorCode::RuntimeUnavailable, "{error}");
            assert!(error.contains("ended as unrecoverable"), "{error}");
        }
        // Ended, not left to fail the same way forever.
        let record = runs.get(&run_id).await.unwrap().unwrap();
        assert_eq!(record.status, RunStatus::Ended(codemode_protocol::RunEnd::Unrecoverable));
        for _ in 0..2 {
            let again = session.wait(&run_id).await.unwrap();
            let (_, error) = failure(&again);
            assert!(error.contains("its journal was never stored whole or is damaged"), "{error}");
        }
    }
    rt.shutdown().await;
}
