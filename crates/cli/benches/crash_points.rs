//! Crash points, the long run: `cargo bench -p codemode-cli --bench
//! crash_points` runs the whole corpus and `CODEMODE_CRASH_RANDOM` (default
//! 20) random programs of `CODEMODE_CRASH_OPS` (8) operations each, seeded
//! from `CODEMODE_CRASH_SEED` (1), crashing each at every durability point,
//! on sled, and on PostgreSQL too when `CODEMODE_TEST_POSTGRES_URL` is set.
//! Prints programs × points and every broken guarantee; exits non-zero
//! when one broke. See `tests/crash_harness`.

#[path = "../tests/crash_harness/mod.rs"]
mod crash_harness;

use crash_harness::{Backend, Rig, corpus, random_program};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    // `cargo bench` passes `--bench`; a plain `cargo test` builds it only.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let binary = std::path::PathBuf::from(env!("CARGO_BIN_EXE_codemode"));
    let (random, ops, seed) = (
        env_or("CODEMODE_CRASH_RANDOM", 20),
        env_or("CODEMODE_CRASH_OPS", 8) as usize,
        env_or("CODEMODE_CRASH_SEED", 1),
    );
    let mut programs = corpus();
    programs.extend((0..random).map(|i| random_program(seed + i, ops)));
    let mut backends = vec![Backend::Sled];
    if let Ok(url) = std::env::var("CODEMODE_TEST_POSTGRES_URL") {
        backends.push(Backend::Postgres { url });
    }
    let mut broken = 0;
    for backend in backends {
        let name = backend.name();
        let dir = std::env::temp_dir().join(format!("codemode-crash-bench-{name}-{}", std::process::id()));
        let rig = Rig::new(binary.clone(), dir.clone(), backend);
        let (mut points, mut crashes, mut unknown, mut violations) = (0, 0, 0, Vec::new());
        let started = std::time::Instant::now();
        for program in &programs {
            let report = rig.run(program);
            points += report.points;
            crashes += report.crashes;
            unknown += report.outcome_unknown;
            violations.extend(report.violations);
        }
        println!(
            "crash points on {name}: {} programs, {points} durability points, {crashes} crashes, {unknown} \
             outcome_unknown, {} violations, in {:.0?}",
            programs.len(),
            violations.len(),
            started.elapsed()
        );
        for v in &violations {
            println!("  violation: {v}");
        }
        broken += violations.len();
        let _ = std::fs::remove_dir_all(&dir);
    }
    if broken > 0 {
        std::process::exit(1);
    }
}
