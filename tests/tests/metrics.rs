//! The runtime's metrics: bounded labels a cell cannot grow,
//! call outcomes, and label values exported from the start. Real
//! runtimes, cells, a real node over the gateway's WebSocket and the MCP
//! fixture server as a child process.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use codemode_nodes::host::{CommandHandler, HostEvent, HostOptions, run_host};
use codemode_nodes::protocol::Credentials;
use codemode_runtime::{Limits, McpServerConfig, MetricsSnapshot, NodesConfig, UNKNOWN_TOOL};
use codemode_tests::*;
use serde_json::{Value, json};
use tokio::sync::mpsc;

const TOKEN: &str = "metrics-token-0123456789";

/// The `(source, server, tool)` of every nested-call series.
fn series(s: &MetricsSnapshot) -> BTreeSet<(String, String, String)> {
    s.nested_calls.iter().map(|c| (c.source.clone(), c.server.clone(), c.tool.clone())).collect()
}

/// The outcome counts of one series, in label order.
fn outcomes(s: &MetricsSnapshot, source: &str, server: &str, tool: &str) -> Vec<(String, u64)> {
    let found = s.nested_calls.iter().find(|c| c.source == source && c.server == server && c.tool == tool);
    let found = found.unwrap_or_else(|| panic!("no series ({source}, {server}, {tool}) in {:?}", series(s)));
    found.outcomes.iter().map(|(k, v)| (k.clone(), *v)).collect()
}

fn counts(denied: u64, error: u64, ok: u64, timeout: u64) -> Vec<(String, u64)> {
    [("denied", denied), ("error", error), ("ok", ok), ("timeout", timeout)]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_node_commands_add_no_series() {
    let limits = Limits { timeout: Duration::from_secs(30), headless_max_tool_calls: 2_000, ..Limits::default() };
    let config = NodesConfig { tokens: vec![TOKEN.into()], ..NodesConfig::default() };
    let rt = codemode_tests::builder().limits(limits).nodes(config, Some("127.0.0.1:0".into())).start().await.unwrap();
    let handler: CommandHandler = Arc::new(|command: String, params: Value| {
        Box::pin(async move {
            match command.as_str() {
                "echo" => Ok(json!({"params": params})),
                other => Err(format!("no {other}").into()),
            }
        })
    });
    let options = HostOptions {
        gateway: format!("ws://{}", rt.node_gateway_addr().expect("the gateway listens")),
        id: "n1".into(),
        name: "n1 name".into(),
        platform: "test".into(),
        commands: vec!["echo".into()],
        credentials: Credentials { token: Some(TOKEN.into()), ..Credentials::default() },
    };
    let (tx, mut events) = mpsc::unbounded_channel();
    let _host = tokio::spawn(run_host(options, handler, move |e| {
        let _ = tx.send(e);
    }));
    assert!(matches!(events.recv().await, Some(HostEvent::Paired(_))));
    for _ in 0..600 {
        if rt.node_registry().unwrap().list().iter().any(|n| n.id == "n1" && n.connected) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let r = exec(
        &rt,
        "const n = await nodes.get('n1'); await n.invoke('echo', {}); let refused = 0; \
         for (let i = 0; i < 1000; i++) { try { await n.invoke('junk' + i, {}); } catch (e) { refused++; } } \
         return refused",
    )
    .await;
    assert_eq!(value(&r), &json!(1000));
    let s = rt.metrics();
    let expected: BTreeSet<_> = [("nodes", "", "echo"), ("nodes", "", UNKNOWN_TOOL)]
        .into_iter()
        .map(|(a, b, c)| (a.to_owned(), b.to_owned(), c.to_owned()))
        .collect();
    assert_eq!(series(&s), expected, "1,000 unknown commands share one series");
    assert_eq!(outcomes(&s, "nodes", "", "echo"), counts(0, 0, 1, 0));
    assert_eq!(outcomes(&s, "nodes", "", UNKNOWN_TOOL), counts(0, 1000, 0, 0));
    assert_eq!(s.nodes_connected, Some(1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_calls_are_labelled_by_server_tool_and_outcome() {
    let server = McpServerConfig::stdio("accounting", env!("CARGO_BIN_EXE_mcp_fixture"), Vec::new())
        .call_timeout(Duration::from_secs(5));
    let rt = codemode_tests::builder().mcp_server(server).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await, "the fixture server connects");
    let r = exec(
        &rt,
        "const a = await MCP.accounting.echo({x: 1}); const f = await MCP.accounting.fail({}); \
         return [a.isError === true, f.isError]",
    )
    .await;
    assert_eq!(value(&r), &json!([false, true]));
    let s = rt.metrics();
    assert_eq!(outcomes(&s, "mcp", "accounting", "echo"), counts(0, 0, 1, 0));
    assert_eq!(outcomes(&s, "mcp", "accounting", "fail"), counts(0, 1, 0, 0), "an in-band isError is an error");
    assert_eq!(s.nested_calls.len(), 2, "{:?}", series(&s));
    assert_eq!(s.mcp_servers_connected.get("accounting"), Some(&true));
    assert_eq!(s.nested_calls_in_flight, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn native_tools_are_labelled_native_by_registered_name() {
    let rt = runtime().await;
    let r = exec(&rt, "await noop(); try { await fail_tool({}) } catch (e) {} return 1").await;
    assert_eq!(value(&r), &json!(1));
    let s = rt.metrics();
    assert_eq!(outcomes(&s, "native", "", "noop"), counts(0, 0, 1, 0));
    assert_eq!(outcomes(&s, "native", "", "fail_tool"), counts(0, 1, 0, 0));
    assert!(s.nested_calls.iter().all(|c| c.source == "native"), "{:?}", series(&s));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_end_state_and_admission_reason_is_exported_before_its_first_event() {
    let rt = runtime().await;
    let s = rt.metrics();
    let statuses: Vec<&str> = s.cells_by_status.keys().map(String::as_str).collect();
    assert_eq!(statuses, ["aborted", "completed", "crashed", "disposed", "expired", "failed", "timed_out"]);
    assert!(s.cells_by_status.values().all(|n| *n == 0));
    let reasons: Vec<&str> = s.admission_rejections.keys().map(String::as_str).collect();
    assert_eq!(
        reasons,
        [
            "live_cells",
            "principal_journal_bytes",
            "principal_quota",
            "queue_limit",
            "session_journal_bytes",
            "session_quota",
            "timer_limit"
        ]
    );
    assert!(s.actor_restarts.values().all(|n| *n == 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fresh_runtime_reports_every_durable_run_metric_at_zero_with_every_bucket() {
    let rt = runtime().await;
    let runs = rt.metrics().runs;
    let counts = [
        runs.journal_bytes,
        runs.journal_writes,
        runs.journal_write_failures,
        runs.resumed_by_replay,
        runs.replay_diverged,
        runs.lease_handoffs,
        runs.evicted,
        runs.evicted_now,
        runs.reissued,
        runs.outcome_unknown,
    ];
    assert_eq!(counts, [0; 10]);
    for h in [&runs.replay, &runs.journal_write] {
        assert_eq!(h.count, 0);
        assert!(h.buckets.len() > 1 && h.buckets.iter().all(|(_, n)| *n == 0), "{h:?}");
        assert_eq!(h.buckets.last().map(|(le, _)| *le), Some(f64::INFINITY));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parked_cell_reports_active_and_parked_time_apart() {
    let rt = runtime().await;
    let results = run_to_end(&rt, "await yield_control('x'); return 1").await;
    assert!(results.len() >= 2, "the cell parked: {results:?}");
    assert_eq!(value(results.last().unwrap()), &json!(1));
    let s = rt.metrics();
    assert_eq!(s.cell_active.count, 1);
    assert_eq!(s.cell_parked.count, 1, "the parked cell has parked time");
    assert_eq!(s.cell_queue.count, 1, "the cell's start was timed");
    assert_eq!(s.cells_by_status["completed"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn running_and_queued_calls_are_counted_until_they_answer() {
    let limits = Limits { timeout: Duration::from_millis(200), max_in_flight: 1, ..Limits::default() };
    let rt = runtime_with(limits).await;
    let reply = reply(&rt);
    let code = "await Promise.all([sleep_ms({ms: 1000}), sleep_ms({ms: 1000}), sleep_ms({ms: 1000})]); return 1";
    let parked = reply.exec(codemode_runtime::Exec::code(code)).await.unwrap();
    let run_id = parked.run_id().expect("the cell parked on its call").to_owned();
    assert_eq!(rt.metrics().nested_calls_in_flight, 1);
    assert_eq!(rt.metrics().nested_calls_queued, 2, "one slot: the other two calls wait");
    assert_eq!(rt.metrics().parked_cells, 1);
    let mut last = parked;
    while let Some(id) = last.run_id().map(str::to_owned) {
        last = reply.wait(&id).await.unwrap();
    }
    assert_eq!(value(&last), &json!(1), "{run_id} completed");
    assert_eq!(rt.metrics().nested_calls_in_flight, 0);
    assert_eq!(rt.metrics().nested_calls_queued, 0);
    assert_eq!(rt.metrics().js_queue_depth, 0);
}
