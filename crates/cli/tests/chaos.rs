//! Durable runs under continuous faults (GA-1.3, GA-7.6), the short run CI
//! makes: about a minute of three `serve --http` on one PostgreSQL, clients
//! through a round-robin front, a server `kill -9`ed every few seconds
//! (some restarts are deploys with a changed tool list), PostgreSQL
//! restarted once and crashed once (`-m immediate`), windows longer than
//! the lease on resumed runs, and clients that never close their MCP
//! sessions. See `chaos_harness` for the workload and the checks;
//! `benches/chaos.rs` is the long run.

mod chaos_harness;

use std::time::Duration;

#[test]
fn under_kills_deploys_and_a_database_restart_and_crash_no_run_is_lost_and_no_unsafe_call_runs_twice_ga_1_3() {
    let Ok(pg_dir) = std::env::var("CODEMODE_TEST_POSTGRES_DIR") else {
        panic!("CODEMODE_TEST_POSTGRES_DIR is not set: run ./scripts/test.sh, which starts PostgreSQL for the tests");
    };
    let url = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(codemode_store::postgres::test_database());
    let plan = chaos_harness::Plan {
        duration: Duration::from_secs(60),
        clients: 20,
        kill_every: Duration::from_secs(3),
        restart_postgres: true,
        binary: env!("CARGO_BIN_EXE_codemode").into(),
        url,
        pg_dir: pg_dir.into(),
        dir: std::env::temp_dir().join(format!("codemode-chaos-{}", std::process::id())),
    };
    let report = chaos_harness::run(&plan);
    eprintln!("{}", report.render());
    assert!(report.violations.is_empty(), "{}", report.render());
    assert!(
        report.kills >= 5 && report.completed >= 50 && report.postgres_crashes == 1,
        "the run did too little to show anything: {}",
        report.render()
    );
    assert!(
        report.long_windows > 0 && report.sessions_left_open > 0,
        "no long window on a resumed run, or no session left open: {}",
        report.render()
    );
    let _ = std::fs::remove_dir_all(&plan.dir);
}
