//! One in-flight bound and one FIFO queue for every request that runs as
//! host work — native tool calls, MCP calls and operations, node commands,
//! searches, store and results requests (GA-6 limits: `max_in_flight`, then
//! `max_queued`). Concurrency is counted where the calls land: by the
//! fixture MCP server (a real child process) and by a native tool.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use codemode_runtime::{CellResult, CodeMode, Exec, Limits, McpServerConfig, Tool, ToolFuture, ToolOutput};
use codemode_tests::*;
use serde_json::{Value, json};

fn fixture() -> McpServerConfig {
    McpServerConfig::stdio("fixture", env!("CARGO_BIN_EXE_mcp_fixture"), Vec::new())
        .call_timeout(Duration::from_secs(30))
}

async fn runtime(limits: Limits, gate: Option<Gate>) -> CodeMode {
    let mut builder = codemode_tests::builder().limits(limits).mcp_server(fixture());
    if let Some(gate) = gate {
        builder = builder.tool(gate);
    }
    let rt = builder.start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await, "the fixture server connects");
    rt
}

/// What the fixture server counted of its `slow` calls.
async fn counted(rt: &CodeMode) -> Value {
    let r = exec(rt, "return (await MCP.fixture.concurrency()).structuredContent").await;
    value(&r).clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_calls_started_at_once_run_at_most_max_in_flight_at_a_time_at_the_server_ga_6() {
    let rt = runtime(Limits::default(), None).await;
    assert_eq!(rt.limits().max_in_flight, 16);
    // 100 calls: 16 in flight, 84 queued (within the 128 the queue takes).
    let r = exec(
        &rt,
        "const calls = []; for (let i = 0; i < 100; i++) calls.push(MCP.fixture.slow({ms: 150})); \
         const done = await Promise.all(calls); return done.length",
    )
    .await;
    assert_eq!(value(&r), &json!(100), "{r:?}");
    let counts = counted(&rt).await;
    assert_eq!(counts["started"], json!(100));
    assert_eq!(counts["max"], json!(16), "the server saw more (or fewer) calls at once than the bound: {counts}");
    rt.shutdown().await;
}

/// A native tool that waits until the test opens it, counting callers.
#[derive(Clone)]
struct Gate {
    open: Arc<tokio::sync::Semaphore>,
    started: Arc<AtomicUsize>,
}

impl Default for Gate {
    fn default() -> Self {
        Self { open: Arc::new(tokio::sync::Semaphore::new(0)), started: Arc::default() }
    }
}

impl Tool for Gate {
    fn name(&self) -> &str {
        "gate"
    }
    fn description(&self) -> &str {
        "Waits until the test opens the gate."
    }
    fn call(&self, _input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        self.started.fetch_add(1, Ordering::SeqCst);
        let open = Arc::clone(&self.open);
        Box::pin(async move {
            let _pass = open.acquire().await.map_err(|e| codemode_runtime::ToolError::new(e.to_string()))?;
            Ok(ToolOutput::json(json!("opened")))
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn native_and_mcp_calls_share_one_in_flight_bound_and_start_in_call_order_ga_6() {
    let gate = Gate::default();
    let limits = Limits { max_in_flight: 4, timeout: Duration::from_millis(300), ..Limits::default() };
    let rt = runtime(limits, Some(gate.clone())).await;
    let reply = reply(&rt);
    // Four native calls take every slot; the MCP call and the fifth native
    // call wait behind them, in call order.
    let parked = reply
        .exec(Exec::code(
            "const held = [gate(), gate(), gate(), gate()]; \
             const mcp = MCP.fixture.slow({ms: 1}); const fifth = gate(); \
             return [await Promise.all(held), await mcp, await fifth].length",
        ))
        .await
        .unwrap();
    let CellResult::Waiting { run_id, pending_tool_calls, .. } = &parked else { panic!("{parked:?}") };
    assert_eq!(pending_tool_calls.len(), 6, "{pending_tool_calls:?}");
    assert_eq!(gate.started.load(Ordering::SeqCst), 4, "only four calls got a slot");
    assert_eq!(counted(&rt).await["started"], json!(0), "the queued MCP call must not reach the server yet");
    // Opening the gate frees the slots: the queued calls run, in order.
    gate.open.add_permits(5);
    let done = reply.wait(run_id).await.unwrap();
    assert_eq!(value(&done), &json!(3), "{done:?}");
    assert_eq!(gate.started.load(Ordering::SeqCst), 5);
    assert_eq!(counted(&rt).await["started"], json!(1));
    rt.shutdown().await;
}
