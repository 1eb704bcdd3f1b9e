//! The one gate (GA-10.3): every kind of request that leaves a cell — a
//! native tool, an MCP tool, each MCP operation (resources, prompts), a
//! node command, `results.save`/`delete` — meets the host policy (deny and
//! ask alike), counts against the headless tool budget where it is a call,
//! is refused in a `restartSafe` cell when a replay could repeat it, and
//! is measured in the call metrics. One table drives every check, so a
//! kind the gate misses shows up as one failing row.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use codemode_nodes::host::{CommandHandler, HostOptions, run_host};
use codemode_nodes::protocol::Credentials;
use codemode_runtime::{
    CellResult, CodeMode, Decision, DecisionFuture, ErrorCode, Exec, Limits, McpServerConfig, NestedCall, NodesConfig,
    Policy,
};
use codemode_tests::*;
use serde_json::{Value, json};

const TOKEN: &str = "gate-test-token-0123456789";

/// What the policy does with every call it sees.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Allow,
    Deny,
    Ask,
}

/// Records every call and decides them all alike.
struct Recording {
    verdict: Arc<Mutex<Verdict>>,
    seen: Arc<Mutex<Vec<NestedCall>>>,
}

impl Policy for Recording {
    fn check(&self, call: NestedCall) -> DecisionFuture {
        self.seen.lock().unwrap().push(call);
        let decision = match *self.verdict.lock().unwrap() {
            Verdict::Allow => Decision::Allow,
            Verdict::Deny => Decision::Deny("the gate test denies everything".into()),
            Verdict::Ask => Decision::Ask("the gate test asks about everything".into()),
        };
        Box::pin(std::future::ready(decision))
    }
}

/// One kind of outbound request: a cell that makes it (after `setup`,
/// which runs with everything allowed), what the policy must see, and
/// whether a replay could repeat it.
struct Row {
    name: &'static str,
    /// Runs first, under an allowing policy; its value is `setup` in `code`.
    setup: &'static str,
    code: &'static str,
    source: &'static str,
    server: Option<&'static str>,
    tool: &'static str,
    /// Counts against the headless tool budget.
    is_call: bool,
    /// A replay could repeat it: a `restartSafe` cell refuses it.
    once: bool,
}

const ROWS: &[Row] = &[
    Row {
        name: "native tool",
        setup: "return null",
        code: "return await echo_tool({value: 'one'})",
        source: "native",
        server: None,
        tool: "echo_tool",
        is_call: true,
        once: true,
    },
    Row {
        name: "MCP tool",
        setup: "return null",
        code: "return await MCP.everything.echo({message: 'hi'})",
        source: "mcp",
        server: Some("everything"),
        tool: "echo",
        is_call: true,
        once: true,
    },
    Row {
        name: "MCP resources.list",
        setup: "return null",
        code: "return await MCP.everything.resources.list()",
        source: "mcp",
        server: Some("everything"),
        tool: "resources/list",
        is_call: true,
        once: false,
    },
    Row {
        name: "MCP resources.read",
        setup: "return (await MCP.everything.resources.list()).resources[0].uri",
        code: "return await MCP.everything.resources.read({uri: setup})",
        source: "mcp",
        server: Some("everything"),
        tool: "resources/read",
        is_call: true,
        once: false,
    },
    Row {
        name: "MCP prompts.list",
        setup: "return null",
        code: "return await MCP.everything.prompts.list()",
        source: "mcp",
        server: Some("everything"),
        tool: "prompts/list",
        is_call: true,
        once: false,
    },
    Row {
        name: "MCP prompts.get",
        setup: "return (await MCP.everything.prompts.list()).prompts.find(p => !(p.arguments || []).some(a => a.required)).name",
        code: "return await MCP.everything.prompts.get({name: setup})",
        source: "mcp",
        server: Some("everything"),
        tool: "prompts/get",
        is_call: true,
        once: false,
    },
    Row {
        name: "node command",
        setup: "return null",
        code: "return await (await nodes.get('lab')).invoke('echo', {x: 1})",
        source: "nodes",
        server: Some("lab"),
        tool: "echo",
        is_call: true,
        once: true,
    },
    Row {
        name: "results.save",
        setup: "return null",
        code: "return await results.save({big: 'value'})",
        source: "results",
        server: None,
        tool: "save",
        is_call: false,
        once: true,
    },
    Row {
        name: "results.delete",
        setup: "return (await results.save(1)).id",
        code: "return await results.delete(setup)",
        source: "results",
        server: None,
        tool: "delete",
        is_call: false,
        once: true,
    },
];

fn everything() -> McpServerConfig {
    // Every tool of this server is an effect here: `once` above.
    server_everything().replay_safe(false)
}

struct Rig {
    rt: CodeMode,
    verdict: Arc<Mutex<Verdict>>,
    seen: Arc<Mutex<Vec<NestedCall>>>,
    node_calls: Arc<AtomicUsize>,
}

async fn rig(limits: Limits) -> Rig {
    let verdict = Arc::new(Mutex::new(Verdict::Allow));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let policy = Recording { verdict: Arc::clone(&verdict), seen: Arc::clone(&seen) };
    let rt = codemode_tests::builder()
        .limits(limits)
        .policy(policy)
        .tool(Echo)
        .mcp_server(everything())
        .nodes(NodesConfig { tokens: vec![TOKEN.into()], ..NodesConfig::default() }, Some("127.0.0.1:0".into()))
        .start()
        .await
        .unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(20)).await, "server-everything connects");
    let node_calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&node_calls);
    let handler: CommandHandler = Arc::new(move |_command: String, params: Value| {
        counted.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move { Ok(json!({"params": params})) })
    });
    let options = HostOptions {
        gateway: format!("ws://{}", rt.node_gateway_addr().expect("the gateway listens")),
        id: "lab".into(),
        name: "lab".into(),
        platform: "test".into(),
        commands: vec!["echo".into()],
        credentials: Credentials { token: Some(TOKEN.into()), ..Credentials::default() },
    };
    tokio::spawn(run_host(options, handler, |_| {}));
    for _ in 0..600 {
        if rt.node_registry().unwrap().list().iter().any(|n| n.id == "lab" && n.connected) {
            return Rig { rt, verdict, seen, node_calls };
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the node never connected");
}

impl Rig {
    /// The row's cell after its setup, in a fresh reply, under `verdict`;
    /// returns the result and the calls the policy saw for the cell itself.
    async fn run(&self, row: &Row, verdict: Verdict, restart_safe: bool, n: usize) -> (CellResult, Vec<NestedCall>) {
        *self.verdict.lock().unwrap() = Verdict::Allow;
        let reply = self.rt.session("s").reply(format!("r{n}"));
        let setup = reply.exec(Exec::code(row.setup)).await.unwrap();
        let setup = value(&setup).clone();
        *self.verdict.lock().unwrap() = verdict;
        self.seen.lock().unwrap().clear();
        let code = format!("const setup = {setup}; {}", row.code);
        let result = reply.exec(Exec::code(code).restart_safe(restart_safe)).await.unwrap();
        let seen = std::mem::take(&mut *self.seen.lock().unwrap());
        (result, seen)
    }
}

fn guest_error(result: &CellResult) -> Option<String> {
    match result {
        CellResult::Failed { error, .. } => Some(error.clone()),
        CellResult::Completed { value, .. } if value.get("isError") == Some(&json!(true)) => {
            Some(value["content"][0]["text"].as_str().unwrap_or_default().to_owned())
        }
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_outbound_request_meets_the_policy_the_budget_replay_safety_and_the_metrics_ga_10_3() {
    let rig = rig(Limits { timeout: Duration::from_secs(10), ..Limits::default() }).await;
    let mut n = 0;
    for row in ROWS {
        n += 1;
        // Denied: the policy saw exactly this request, and it did not run.
        let node_calls = rig.node_calls.load(Ordering::SeqCst);
        let (result, seen) = rig.run(row, Verdict::Deny, false, n).await;
        let error =
            guest_error(&result).unwrap_or_else(|| panic!("{}: not refused: {}", row.name, result.to_model_json()));
        assert!(error.contains("denied by policy"), "{}: {error}", row.name);
        let seen: Vec<(&str, Option<&str>, &str)> =
            seen.iter().map(|c| (c.source.as_str(), c.server.as_deref(), c.tool.as_str())).collect();
        assert_eq!(seen, [(row.source, row.server, row.tool)], "{}: the policy saw it", row.name);
        assert_eq!(rig.node_calls.load(Ordering::SeqCst), node_calls, "{}: nothing reached the node", row.name);

        // Asked: the cell parks for approval naming the request.
        n += 1;
        let (result, _) = rig.run(row, Verdict::Ask, false, n).await;
        let CellResult::Waiting { reason, pending_approvals, .. } = &result else {
            panic!("{}: not asked: {}", row.name, result.to_model_json())
        };
        assert_eq!(reason.as_str(), "approval", "{}", row.name);
        assert_eq!(
            (
                pending_approvals[0].source.as_str(),
                pending_approvals[0].server.as_deref(),
                pending_approvals[0].tool.as_str()
            ),
            (row.source, row.server, row.tool),
            "{}",
            row.name
        );
        rig.rt.session("s").reply(format!("r{n}")).abort(result.run_id().unwrap()).await.unwrap();

        // restartSafe: refused exactly when a replay could repeat it.
        n += 1;
        let (result, seen) = rig.run(row, Verdict::Allow, true, n).await;
        if row.once {
            let (code, message) = failure(&result);
            assert_eq!(code, ErrorCode::InvalidInput, "{}: {message}", row.name);
            assert!(message.contains("is not replay-safe"), "{}: {message}", row.name);
            assert!(seen.is_empty(), "{}: refused before the policy", row.name);
        } else {
            assert_eq!(result.status(), "completed", "{}: {}", row.name, result.to_model_json());
        }
    }
    // Measured: one series per source.
    let metrics = rig.rt.metrics();
    for source in ["native", "mcp", "nodes", "results"] {
        assert!(
            metrics.nested_calls.iter().any(|c| c.source == source),
            "no {source} series: {:?}",
            metrics.nested_calls
        );
    }
    for op in ["resources/list", "resources/read", "prompts/list", "prompts/get"] {
        assert!(
            metrics.nested_calls.iter().any(|c| c.source == "mcp" && c.tool == op),
            "no series for {op}: {:?}",
            metrics.nested_calls
        );
    }
    rig.rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_outbound_call_counts_against_the_headless_tool_budget_exactly_at_the_bound_ga_10_3() {
    let rig = rig(Limits { headless_max_tool_calls: 1, ..Limits::default() }).await;
    for row in ROWS.iter().filter(|r| r.is_call && r.setup == "return null") {
        // One call is within the budget; a second of the same kind is one over.
        let once = rig.rt.headless().exec(Exec::code(row.code)).await.unwrap();
        assert_eq!(once.status(), "completed", "{}: {}", row.name, once.to_model_json());
        let twice = format!("{}; {}", row.code.replacen("return ", "", 1), row.code);
        let over = rig.rt.headless().exec(Exec::code(twice)).await.unwrap();
        assert_eq!(failure(&over).0, ErrorCode::ToolBudgetExceeded, "{}: {}", row.name, over.to_model_json());
    }
    rig.rt.shutdown().await;
}
