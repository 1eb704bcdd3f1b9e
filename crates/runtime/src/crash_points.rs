//! Durability points: the places a crash can cut a run's life (a journal
//! write, a tool call starting or settling, a decision, a commit, an end),
//! numbered in the order a process reaches them, for the crash-point
//! harness (`crates/cli/tests/crash_points.rs`).
//!
//! With the `crash-points` feature (test builds only; never a build that
//! serves users) and `CODEMODE_CRASH_TRACE=<file>`, every point appends
//! `<ordinal> <name>` to the file as it is reached; with
//! `CODEMODE_CRASH_AT=<n>`, the process aborts at the `n`-th point, as a
//! `kill -9` there would stop it (no destructor, no flush, nothing sent).
//! With `CODEMODE_CRASH_FAULT=<shell command>` as well, the process instead
//! runs that command at the `n`-th point and goes on when it returns: the
//! harness crash-restarts the database or cuts its connections there.
//! Without the feature [`point`] is empty and compiles away.
//!
//! Written by hand rather than with a failpoint crate: the harness needs
//! one ordinal across every point (so "the k-th thing that happened" is
//! the cut), which named per-point failpoints do not give.

/// The process reached durability point `name`.
#[inline]
pub(crate) fn point(name: &'static str) {
    #[cfg(feature = "crash-points")]
    armed::reached(name);
    #[cfg(not(feature = "crash-points"))]
    let _ = name;
}

#[cfg(feature = "crash-points")]
mod armed {
    use std::io::Write;
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicU64, Ordering};

    struct Plan {
        crash_at: Option<u64>,
        /// A fault to make at `crash_at` instead of aborting.
        fault: Option<String>,
        trace: Option<std::sync::Mutex<std::fs::File>>,
    }

    static PLAN: OnceLock<Plan> = OnceLock::new();
    static REACHED: AtomicU64 = AtomicU64::new(0);

    // A test build's hook, configured by the harness that starts the
    // process: the one place this crate reads its environment or opens a
    // file of its own, and only with the `crash-points` feature.
    #[expect(clippy::disallowed_methods, reason = "test builds only: the crash-point harness configures the process")]
    fn plan() -> &'static Plan {
        PLAN.get_or_init(|| Plan {
            crash_at: std::env::var("CODEMODE_CRASH_AT").ok().and_then(|n| n.parse().ok()),
            fault: std::env::var("CODEMODE_CRASH_FAULT").ok(),
            trace: std::env::var_os("CODEMODE_CRASH_TRACE").and_then(|path| {
                std::fs::OpenOptions::new().create(true).append(true).open(path).ok().map(std::sync::Mutex::new)
            }),
        })
    }

    pub(super) fn reached(name: &'static str) {
        let plan = plan();
        if plan.crash_at.is_none() && plan.trace.is_none() {
            return;
        }
        let n = REACHED.fetch_add(1, Ordering::SeqCst) + 1;
        if let Some(trace) = &plan.trace {
            let mut file = trace.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            // One `write(2)` per line: the file survives the abort below.
            let _ = file.write_all(format!("{n} {name}\n").as_bytes());
        }
        if plan.crash_at != Some(n) {
            return;
        }
        if let Some(fault) = &plan.fault {
            // The point's own thread waits for the fault to be made: what
            // the process does next meets the database as the fault left it.
            let _ = std::io::stderr().write_all(format!("codemode: crash point {n} ({name}): {fault}\n").as_bytes());
            #[expect(
                clippy::disallowed_methods,
                reason = "test builds only: the crash-point harness makes a database fault at this point"
            )]
            let made = std::process::Command::new("sh").arg("-c").arg(fault).status();
            if !matches!(made, Ok(status) if status.success()) {
                let _ = std::io::stderr().write_all(format!("codemode: the fault failed: {made:?}\n").as_bytes());
            }
            return;
        }
        let _ = std::io::stderr().write_all(format!("codemode: crash point {n} ({name}): aborting\n").as_bytes());
        std::process::abort();
    }
}
