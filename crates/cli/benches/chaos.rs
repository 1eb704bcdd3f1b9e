//! The long chaos run: `cargo bench -p codemode-cli --bench chaos`, with
//! `CODEMODE_CHAOS_SECS` (default 600), `CODEMODE_CHAOS_CLIENTS` (20) and
//! a PostgreSQL from `scripts/postgres.sh` (`CODEMODE_TEST_POSTGRES_URL`,
//! `CODEMODE_TEST_POSTGRES_DIR`). Prints runs, resumes, kills, divergences,
//! `outcome_unknown`s, latency percentiles and any broken guarantee; exits
//! non-zero when one broke. See `tests/chaos_harness`.

#[path = "../tests/chaos_harness/mod.rs"]
mod chaos_harness;

use std::time::Duration;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    // `cargo bench` passes `--bench`; a plain `cargo test` builds it only.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let (Ok(url), Ok(pg_dir)) =
        (std::env::var("CODEMODE_TEST_POSTGRES_URL"), std::env::var("CODEMODE_TEST_POSTGRES_DIR"))
    else {
        eprintln!(
            "chaos: set CODEMODE_TEST_POSTGRES_URL and CODEMODE_TEST_POSTGRES_DIR (scripts/postgres.sh start DIR)"
        );
        std::process::exit(2);
    };
    let plan = chaos_harness::Plan {
        duration: Duration::from_secs(env_or("CODEMODE_CHAOS_SECS", 600)),
        clients: env_or("CODEMODE_CHAOS_CLIENTS", 20) as usize,
        kill_every: Duration::from_secs(3),
        restart_postgres: true,
        binary: env!("CARGO_BIN_EXE_codemode").into(),
        url,
        pg_dir: pg_dir.into(),
        dir: std::env::temp_dir().join(format!("codemode-chaos-bench-{}", std::process::id())),
    };
    let report = chaos_harness::run(&plan);
    println!("chaos, {} s, {} clients:\n{}", plan.duration.as_secs(), plan.clients, report.render());
    if !report.violations.is_empty() {
        std::process::exit(1);
    }
}
