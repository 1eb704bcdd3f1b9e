//! Host memory per cell is bounded by the cell's limits (GA-4.8). Its own test binary: it reads this process's resident memory,
//! which other tests running beside it would disturb.

use codemode_runtime::Limits;
use codemode_tests::*;
use serde_json::json;
use std::time::Duration;

fn rss_bytes() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kib: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn output_past_the_budget_is_counted_not_buffered_on_the_host_ga_4_8() {
    const MIB: usize = 1024 * 1024;
    let limits = Limits {
        memory_limit_bytes: 64 * MIB,
        max_output_bytes: 65_536,
        timeout: Duration::from_secs(60),
        ..Limits::default()
    };
    let rt = runtime_with(limits).await;
    // Warm up: engines and allocator arenas exist before the measurement.
    let _ = exec(&rt, "text('x'.repeat(1 << 20)); return 1").await;
    let before = rss_bytes();
    // 300 MiB of text through a 64 KiB budget: before the fix every entry
    // was kept until the window ended.
    let r = exec(&rt, "const s = 'x'.repeat(1 << 20); for (let i = 0; i < 300; i++) text(s); return 1").await;
    let after = rss_bytes();
    let model: serde_json::Value = serde_json::from_str(&r.to_model_json()).unwrap();
    assert_eq!(model["status"], "completed", "{}", model["error"]);
    assert_eq!(model["value"], json!(1));
    let growth = after.saturating_sub(before);
    let bound = 64 * MIB + 65_536 + 64 * MIB;
    assert!(growth < bound, "host RSS grew {growth} bytes; bound heap + budget + slack = {bound}");
    let marker = &model["output"];
    assert_eq!(marker["truncated"], true);
    let omitted = marker["omittedBytes"].as_u64().unwrap() as usize;
    let prefix = marker["prefix"].as_str().unwrap().len();
    // Every emitted byte is described: 300 entries of `{"type":"text","text":"x…"}`.
    let one = r#"{"type":"text","text":""}"#.len() + MIB;
    assert_eq!(omitted + prefix, 2 + 300 * one + 299);
}
