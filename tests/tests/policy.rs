//! The host policy: hidden tools, denied calls, calls held for approval.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use codemode_runtime::{Decision, DecisionFuture, Exec, McpServerConfig, NestedCall, Policy};
use codemode_tests::*;
use serde_json::json;
use tokio::sync::oneshot;

/// Hides `panic_tool` and MCP `crash`; denies `echo_tool` with value
/// "forbidden" and MCP `fail`; holds `sleep_ms` until approved; records
/// every call it sees.
#[derive(Default)]
struct TestPolicy {
    seen: Arc<Mutex<Vec<NestedCall>>>,
    approval: Arc<Mutex<Option<oneshot::Receiver<bool>>>>,
}

impl Policy for TestPolicy {
    fn visible(&self, _source: codemode_runtime::CallSource, _server: Option<&str>, tool: &str) -> bool {
        tool != "panic_tool" && tool != "crash"
    }

    fn check(&self, call: NestedCall) -> DecisionFuture {
        self.seen.lock().unwrap().push(call.clone());
        if call.tool == "sleep_ms" {
            return held_for_approval(self.approval.lock().unwrap().take());
        }
        let deny = (call.tool == "echo_tool" && call.arguments["value"] == json!("forbidden")) || call.tool == "fail";
        Box::pin(std::future::ready(if deny { Decision::Deny("not for this user".into()) } else { Decision::Allow }))
    }
}

fn fixture() -> McpServerConfig {
    McpServerConfig::stdio("accounting", env!("CARGO_BIN_EXE_mcp_fixture"), Vec::new())
        .call_timeout(Duration::from_secs(5))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_policy_hides_denies_and_holds_nested_calls() {
    let (approve, rx) = oneshot::channel();
    let policy = TestPolicy { approval: Arc::new(Mutex::new(Some(rx))), ..TestPolicy::default() };
    let seen = Arc::clone(&policy.seen);
    let rt = codemode_tests::builder()
        .limits(codemode_runtime::Limits { timeout: Duration::from_millis(300), ..Default::default() })
        .policy(policy)
        .tool(Echo)
        .tool(PanicTool)
        .tool(SleepMs::default())
        .mcp_server(fixture())
        .start()
        .await
        .unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await);
    // Hidden: no global, no handle, no MCP path.
    let r = exec(&rt, "return [typeof panic_tool, (await catalog.search('panic_tool')).filter(h => h.toolName === 'panic_tool').length, \
        typeof MCP.accounting.crash, (await catalog.search('MCP.accounting.crash')).filter(h => h.toolName === 'crash').length]").await;
    assert_eq!(value(&r), &json!(["undefined", 0, "undefined", 0]));
    // Denied: a clear error for native tools, an in-band error for MCP tools.
    let r = exec(&rt, "const ok = await echo_tool({value: 'fine'}); let denied; try { await echo_tool({value: 'forbidden'}) } \
        catch (e) { denied = [e.code, e.message] } const f = await MCP.accounting.fail({}); return [ok.input, denied, f.isError, f.content[0].text]").await;
    assert_eq!(
        value(&r),
        &json!([{"value": "fine"}, ["policy_denied", "echo_tool was denied by policy: not for this user"], true, "denied by policy: not for this user"])
    );
    // Held: the call waits for approval, the cell parks meanwhile.
    let reply = rt.session("s").reply("r");
    let parked = reply.exec(Exec::code("return await sleep_ms({ms: 1})")).await.unwrap();
    assert_eq!(parked.status(), "waiting", "{}", parked.to_model_json());
    approve.send(true).unwrap();
    let done = reply.wait(parked.run_id().unwrap()).await.unwrap();
    assert_eq!(value(&done), &json!({"slept": 1}));
    let calls = seen.lock().unwrap();
    let sources: Vec<(&str, Option<&str>, &str)> =
        calls.iter().map(|c| (c.source.as_str(), c.server.as_deref(), c.tool.as_str())).collect();
    assert!(sources.contains(&("mcp", Some("accounting"), "fail")), "{sources:?}");
    assert!(calls.iter().all(|c| c.session.as_deref() == Some("s")));
}
