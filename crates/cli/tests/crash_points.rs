//! Crash-point testing (GA-1.3, GA-10.3): every durability point of a
//! bounded corpus of durable cells, on sled and on PostgreSQL — the process
//! aborted there as by `kill -9`, resumed by a fresh process, and the
//! guarantees checked from the tools' own logs and the store. See
//! `crash_harness`; `benches/crash_points.rs` runs the whole corpus and
//! random programs.

mod crash_harness;

use crash_harness::{Backend, Rig, corpus};

fn run_on(backend: Backend, only: &[&str]) {
    let dir = std::env::temp_dir().join(format!("codemode-crash-{}-{}", backend.name(), std::process::id()));
    let rig = Rig::new(env!("CARGO_BIN_EXE_codemode").into(), dir.clone(), backend);
    let (mut points, mut crashes, mut violations) = (0, 0, Vec::new());
    for program in corpus().iter().filter(|p| only.is_empty() || only.contains(&p.name.as_str())) {
        let report = rig.run(program);
        eprintln!(
            "{:>9} {:<30} points {:>3}  crashes {:>3}  resumed {:>3}  re-executed {:>2}  outcome_unknown {:>2}  {:?}",
            report.backend,
            report.program,
            report.points,
            report.crashes,
            report.resumed,
            report.re_executed,
            report.outcome_unknown,
            report.point_names
        );
        points += report.points;
        crashes += report.crashes;
        violations.extend(report.violations);
    }
    eprintln!("{} crash points, {crashes} crashes, {} violations", points, violations.len());
    assert!(crashes > 0, "no crash was made");
    assert!(violations.is_empty(), "{} violations:\n{}", violations.len(), violations.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn on_sled_every_crash_point_of_the_corpus_keeps_every_guarantee_ga_1_3() {
    run_on(Backend::Sled, &[]);
}

#[test]
fn on_postgres_every_crash_point_of_the_corpus_keeps_every_guarantee_ga_1_3() {
    let url = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(codemode_store::postgres::test_database());
    // A part of the corpus: a lease held by a crashed process runs out
    // before a resume, which makes each crash on PostgreSQL slower.
    run_on(
        Backend::Postgres { url },
        &["unsafe_calls_around_a_park", "promise_all_around_a_park", "approval_approved", "store_write_commits_once"],
    );
}
