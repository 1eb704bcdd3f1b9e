//! Resident memory per parked cell, with 32 and 1,000 parked cells.
//!
//! Run in a fresh process (`cargo bench -p codemode-benches --bench parked`):
//! RSS deltas are only meaningful from a clean baseline. Prints the RSS
//! growth divided by the number of parked cells, median of 3 rounds.

use codemode_benches::{Noop, on_worker, tokio_runtime};
use codemode_runtime::{CodeMode, Exec, Limits};

fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    pages * 4096
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let rt = tokio_runtime();
    for count in [32_u64, 1_000] {
        let mut per_cell = Vec::new();
        for _ in 0..3 {
            let limits = Limits { max_live_cells: 20_000, max_live_cells_per_session: 20_000, ..Limits::default() };
            let cm = rt.block_on(async { CodeMode::builder().limits(limits).tool(Noop).start().await.unwrap() });
            // Warm up: one cell, so thread-local and allocator state exist.
            let warm = cm.clone();
            on_worker(&rt, move || async move {
                let r = warm.session("s").reply("r").exec(Exec::code("return 1")).await.unwrap();
                assert_eq!(r.status(), "completed");
                std::time::Duration::ZERO
            });
            let before = rss_bytes();
            let parker = cm.clone();
            on_worker(&rt, move || async move {
                let reply = parker.session("s").reply("r");
                for _ in 0..count {
                    let r = reply
                        .exec(Exec::code("const data = [1, 2, 3]; await yield_control(); return data"))
                        .await
                        .unwrap();
                    assert_eq!(r.status(), "waiting");
                }
                std::time::Duration::ZERO
            });
            let after = rss_bytes();
            per_cell.push((after.saturating_sub(before)) / count);
            rt.block_on(cm.shutdown());
        }
        per_cell.sort_unstable();
        println!(
            "rss per parked cell ({count} parked): median {} KiB (rounds: {:?} bytes)",
            per_cell[1] / 1024,
            per_cell
        );
    }
}
