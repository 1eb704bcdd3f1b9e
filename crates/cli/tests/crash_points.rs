//! Crash-point testing (GA-1.3, GA-10.3): every durability point of a
//! bounded corpus of durable cells, on sled and on PostgreSQL — the process
//! aborted there as by `kill -9`, resumed by a fresh process, and the
//! guarantees checked from the tools' own logs and the store. See
//! `crash_harness`; `benches/crash_points.rs` runs the whole corpus and
//! random programs.

mod crash_harness;

use crash_harness::{Backend, Rig, corpus};

fn run_on(backend: Backend, only: &[&str]) {
    run_faulting(backend, "thread", only, None);
}

/// Runs the corpus under `fault` (`crash`, `cut`) on a cluster of its own
/// and checks, from the cluster's own record of them, that the fault was
/// made at every point.
fn under_database_fault(fault: &str, isolation: &'static str) {
    let cluster = Cluster::start(&format!("crash-points-pg-{fault}-{isolation}"));
    let command = cluster.fault(fault);
    let kind = format!("pg-{fault}");
    let backend = Backend::Postgres { url: cluster.url.clone() };
    let crashes = run_faulting(backend, isolation, UNDER_DATABASE_FAULTS, Some((&kind, command)));
    assert_eq!(cluster.faults_made(), crashes, "a fault was not made at every point");
}

/// The corpus with a kill at each point, or (`fault`) the process running
/// that shell command there and going on.
fn run_faulting(backend: Backend, isolation: &'static str, only: &[&str], fault: Option<(&str, String)>) -> usize {
    let kind = fault.as_ref().map_or("kill", |(kind, _)| kind);
    let dir = std::env::temp_dir().join(format!(
        "codemode-crash-{}-{isolation}-{kind}-{}",
        backend.name(),
        std::process::id()
    ));
    let mut rig = Rig::new(env!("CARGO_BIN_EXE_codemode").into(), dir.clone(), backend).isolated(isolation);
    if let Some((_, command)) = fault {
        rig = rig.faulting(command);
    }
    let (mut points, mut crashes, mut violations) = (0, 0, Vec::new());
    let chosen = chosen_programs();
    let runs =
        |name: &str| (only.is_empty() || only.contains(&name)) && chosen.as_ref().is_none_or(|c| c.contains(name));
    for program in corpus().iter().filter(|p| runs(&p.name)) {
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
    eprintln!("{kind}: {} crash points, {crashes} crashes, {} violations", points, violations.len());
    assert!(crashes > 0, "no crash was made");
    assert!(violations.is_empty(), "{} violations:\n{}", violations.len(), violations.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
    crashes
}

/// `CODEMODE_CRASH_PROGRAMS` (names, comma-separated), to run only those
/// programs of the corpus while looking into one.
fn chosen_programs() -> Option<std::collections::BTreeSet<String>> {
    let names = std::env::var("CODEMODE_CRASH_PROGRAMS").ok()?;
    Some(names.split(',').map(|n| n.trim().to_owned()).filter(|n| !n.is_empty()).collect())
}

#[test]
fn on_sled_every_crash_point_of_the_corpus_keeps_every_guarantee_ga_1_3() {
    run_on(Backend::Sled, &[]);
}

/// The same corpus with every cell's engine in a confined worker process:
/// the host killed at each point takes its workers with it, and a fresh
/// host resumes on fresh workers.
#[test]
fn on_sled_with_engines_in_worker_processes_every_crash_point_keeps_every_guarantee_ga_1_3() {
    run_faulting(Backend::Sled, "process", &[], None);
}

/// Each point of the corpus with the host's engine workers killed there
/// (`kill -9` of every `codemode engine-worker` child) while the host goes
/// on: a journaled run resumes from its journal on a fresh worker, and no
/// guarantee is lost.
#[test]
fn on_sled_engine_workers_killed_at_every_crash_point_keep_every_guarantee_ga_1_3() {
    let dir = std::env::temp_dir().join(format!("codemode-worker-kills-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let made = dir.join("kills-made");
    // Run by the host (`sh -c`, so `$PPID` is the host): its children
    // whose argument is `engine-worker` are its engine workers, found in
    // /proc (no procps needed; this shell's own text names them too, so
    // it skips itself); a kill is counted once one was made.
    let kill = format!(
        "killed=0; for p in /proc/[0-9]*; do \
           [ \"${{p#/proc/}}\" != \"$$\" ] || continue; \
           [ \"$(cut -d' ' -f4 \"$p/stat\" 2>/dev/null)\" = \"$PPID\" ] || continue; \
           tr '\\0' '\\n' < \"$p/cmdline\" 2>/dev/null | grep -qx engine-worker || continue; \
           kill -9 \"${{p#/proc/}}\" && killed=1; \
         done; [ $killed = 1 ] && echo kill >> {}",
        made.display()
    );
    let crashes = run_faulting(Backend::Sled, "process", &[], Some(("worker-kill", kill)));
    let kills = std::fs::read_to_string(&made).map_or(0, |made| made.lines().count());
    assert_eq!(kills, crashes, "a worker was not killed at every point");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn on_postgres_every_crash_point_of_the_corpus_keeps_every_guarantee_ga_1_3() {
    let url = test_database();
    // A part of the corpus: a lease held by a crashed process runs out
    // before a resume, which makes each crash on PostgreSQL slower.
    run_on(
        Backend::Postgres { url },
        &["unsafe_calls_around_a_park", "promise_all_around_a_park", "approval_approved", "store_write_commits_once"],
    );
}

/// The same part of the corpus on PostgreSQL with every cell's engine in
/// a confined worker process: the host killed at each point takes its
/// workers with it, and a fresh host resumes on fresh workers.
#[test]
fn on_postgres_with_engines_in_worker_processes_every_crash_point_keeps_every_guarantee_ga_1_3() {
    let url = test_database();
    run_faulting(Backend::Postgres { url }, "process", UNDER_DATABASE_FAULTS, None);
}

/// A fresh database on the test PostgreSQL server.
fn test_database() -> String {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(codemode_store::postgres::test_database())
}

/// A PostgreSQL cluster of the test's own (`scripts/postgres.sh`): its
/// faults would cut every other test's connections. Stopped on drop.
struct Cluster {
    dir: std::path::PathBuf,
    url: String,
}

fn postgres_script() -> String {
    format!("{}/../../scripts/postgres.sh", env!("CARGO_MANIFEST_DIR"))
}

impl Cluster {
    fn start(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("codemode-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out = std::process::Command::new("bash").arg(postgres_script()).arg("start").arg(&dir).output().unwrap();
        assert!(out.status.success(), "the cluster did not start: {}", String::from_utf8_lossy(&out.stderr));
        Self { url: String::from_utf8(out.stdout).unwrap().trim().to_owned(), dir }
    }

    /// The shell command that makes `fault` (`crash`, `cut`) on it, and
    /// counts it once made.
    fn fault(&self, fault: &str) -> String {
        let dir = self.dir.display();
        format!("bash {} {fault} {dir} && echo {fault} >> {dir}/faults-made", postgres_script())
    }

    /// How many faults were made.
    fn faults_made(&self) -> usize {
        std::fs::read_to_string(self.dir.join("faults-made")).map_or(0, |made| made.lines().count())
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = std::process::Command::new("bash").arg(postgres_script()).arg("stop").arg(&self.dir).output();
    }
}

/// The programs a database fault is made under: parks, unsafe calls,
/// approvals and a store commit.
const UNDER_DATABASE_FAULTS: &[&str] =
    &["unsafe_calls_around_a_park", "promise_all_around_a_park", "approval_approved", "store_write_commits_once"];

#[test]
fn on_postgres_a_database_crash_restart_at_every_crash_point_keeps_every_guarantee_ga_1_3() {
    under_database_fault("crash", "thread");
}

#[test]
fn on_postgres_a_connection_cut_at_every_crash_point_keeps_every_guarantee_ga_1_3() {
    under_database_fault("cut", "thread");
}

/// The same database faults with every cell's engine in a confined
/// worker process: the host's store fails under it while its workers
/// hold the cells' engines.
#[test]
fn on_postgres_with_engines_in_worker_processes_a_database_crash_restart_at_every_crash_point_keeps_every_guarantee_ga_1_3()
 {
    under_database_fault("crash", "process");
}

#[test]
fn on_postgres_with_engines_in_worker_processes_a_connection_cut_at_every_crash_point_keeps_every_guarantee_ga_1_3() {
    under_database_fault("cut", "process");
}
