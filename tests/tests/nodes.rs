//! Nodes embedded in a host (GA-10): the runtime serves the gateway on
//! loopback and an in-process node host connects over a real WebSocket.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use codemode_nodes::host::{CommandHandler, HostEvent, HostOptions, run_host};
use codemode_nodes::protocol::Credentials;
use codemode_runtime::{CodeMode, Decision, DecisionFuture, Exec, NestedCall, NodesConfig, Policy};
use codemode_tests::*;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

const TOKEN: &str = "embedded-token-0123456789";

/// Starts a node host task; returns its events and its end (the refusal).
fn node(
    rt: &CodeMode,
    id: &str,
    commands: &[&str],
    handler: CommandHandler,
) -> (mpsc::UnboundedReceiver<HostEvent>, tokio::task::JoinHandle<String>) {
    let options = HostOptions {
        gateway: format!("ws://{}", rt.node_gateway_addr().expect("the gateway listens")),
        id: id.to_owned(),
        name: format!("{id} name"),
        platform: "test".into(),
        commands: commands.iter().map(|c| (*c).to_owned()).collect(),
        credentials: Credentials { token: Some(TOKEN.into()), ..Credentials::default() },
    };
    let (tx, rx) = mpsc::unbounded_channel();
    let task = tokio::spawn(run_host(options, handler, move |e| {
        let _ = tx.send(e);
    }));
    (rx, task)
}

async fn until_connected(rt: &CodeMode, id: &str) {
    for _ in 0..600 {
        if rt.node_registry().unwrap().list().iter().any(|n| n.id == id && n.connected) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("node {id} never connected");
}

/// Answers `echo` with its params and holds `hang` until dropped, which it
/// reports on `dropped`.
fn handler(dropped: mpsc::UnboundedSender<()>) -> CommandHandler {
    Arc::new(move |command: String, params: Value| {
        let dropped = dropped.clone();
        Box::pin(async move {
            match command.as_str() {
                "echo" => Ok(json!({"params": params})),
                "hang" => {
                    struct Report(mpsc::UnboundedSender<()>);
                    impl Drop for Report {
                        fn drop(&mut self) {
                            let _ = self.0.send(());
                        }
                    }
                    let _report = Report(dropped);
                    std::future::pending::<()>().await;
                    Ok(Value::Null)
                }
                other => Err(format!("no {other}").into()),
            }
        })
    })
}

/// Records node calls; denies `echo` with `{secret: true}`; holds
/// `echo` with `{held: true}` until approved.
#[derive(Default)]
struct NodePolicy {
    seen: Arc<Mutex<Vec<NestedCall>>>,
    approval: Arc<Mutex<Option<oneshot::Receiver<bool>>>>,
    hide_nodes: bool,
}

impl Policy for NodePolicy {
    fn visible(&self, source: codemode_runtime::CallSource, _server: Option<&str>, _tool: &str) -> bool {
        !(self.hide_nodes && source == codemode_runtime::CallSource::Nodes)
    }

    fn check(&self, call: NestedCall) -> DecisionFuture {
        self.seen.lock().unwrap().push(call.clone());
        if call.arguments["held"] == json!(true) {
            return held_for_approval(self.approval.lock().unwrap().take());
        }
        let deny = call.arguments["secret"] == json!(true);
        Box::pin(std::future::ready(if deny { Decision::Deny("secrets stay home".into()) } else { Decision::Allow }))
    }
}

async fn runtime(policy: NodePolicy) -> CodeMode {
    let config = NodesConfig { tokens: vec![TOKEN.into()], ..NodesConfig::default() };
    codemode_tests::builder()
        .limits(codemode_runtime::Limits { timeout: Duration::from_millis(500), ..Default::default() })
        .policy(policy)
        .nodes(config, Some("127.0.0.1:0".into()))
        .start()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invokes_go_through_the_policy_hook_which_may_deny_or_hold_them_ga_10_3() {
    let (approve, rx) = oneshot::channel();
    let policy = NodePolicy { approval: Arc::new(Mutex::new(Some(rx))), ..NodePolicy::default() };
    let seen = Arc::clone(&policy.seen);
    let rt = runtime(policy).await;
    let (dropped, _) = mpsc::unbounded_channel();
    let (mut events, _task) = node(&rt, "n1", &["echo"], handler(dropped));
    assert!(matches!(events.recv().await, Some(HostEvent::Paired(_))));
    until_connected(&rt, "n1").await;
    let r = exec(
        &rt,
        "const n = await nodes.get('n1'); const ok = await n.invoke('echo', {a: 1}); \
         let denied; try { await n.invoke('echo', {secret: true}); } catch (e) { denied = [e.code, e.message]; } \
         return {ok, denied, none: await n.invoke('echo')}",
    )
    .await;
    assert_eq!(
        value(&r),
        &json!({
            "ok": {"params": {"a": 1}},
            "denied": ["node_error", "nodes.invoke \"echo\" on node \"n1\" was denied by policy: secrets stay home"],
            "none": {"params": {}}
        })
    );
    if let codemode_runtime::CellResult::Completed { telemetry, .. } = &r {
        assert_eq!(telemetry.call_count, 3, "each invoke counts as a nested call");
    }
    {
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 3);
        assert_eq!(seen[0].source, codemode_runtime::CallSource::Nodes);
        assert_eq!(seen[0].server.as_deref(), Some("n1"));
        assert_eq!(seen[0].tool, "echo");
        assert_eq!(seen[0].arguments, json!({"a": 1}));
        assert_eq!(seen[0].session.as_deref(), Some("s"));
    }
    // Held for approval: the cell parks like for any slow call.
    let reply = reply(&rt);
    let parked =
        reply.exec(Exec::code("return await (await nodes.get('n1')).invoke('echo', {held: true})")).await.unwrap();
    assert_eq!(parked.status(), "waiting", "{}", parked.to_model_json());
    approve.send(true).unwrap();
    let done = reply.wait(parked.run_id().unwrap()).await.unwrap();
    assert_eq!(value(&done), &json!({"params": {"held": true}}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn aborting_a_cell_cancels_its_command_on_the_node_ga_10_3() {
    let rt = runtime(NodePolicy::default()).await;
    let (dropped_tx, mut dropped) = mpsc::unbounded_channel();
    let (_events, _task) = node(&rt, "n1", &["hang"], handler(dropped_tx));
    until_connected(&rt, "n1").await;
    let reply = reply(&rt);
    let parked = reply.exec(Exec::code("return await (await nodes.get('n1')).invoke('hang')")).await.unwrap();
    assert_eq!(parked.status(), "waiting", "{}", parked.to_model_json());
    let aborted = reply.abort(parked.run_id().unwrap()).await.unwrap();
    assert_eq!(aborted.status(), "failed");
    tokio::time::timeout(Duration::from_secs(10), dropped.recv())
        .await
        .expect("the node stops the command when the cell stops")
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revoked_node_is_disconnected_refused_and_invisible_ga_10_1() {
    let rt = runtime(NodePolicy::default()).await;
    let (dropped, _) = mpsc::unbounded_channel();
    let (_events, task) = node(&rt, "n1", &["echo"], handler(dropped));
    until_connected(&rt, "n1").await;
    assert_eq!(value(&exec(&rt, "return (await nodes.list()).length").await), &json!(1));
    assert!(rt.node_registry().unwrap().revoke("n1").await.unwrap());
    let refusal = tokio::time::timeout(Duration::from_secs(10), task).await.unwrap().unwrap();
    assert!(refusal.contains("\"n1\" is not paired"), "{refusal}");
    let r =
        exec(&rt, "const l = await nodes.list(); try { await nodes.get('n1'); } catch (e) { return [l, e.message]; }")
            .await;
    assert_eq!(value(&r), &json!([[], "no paired nodes"]));
    assert_eq!(rt.node_registry().unwrap().pending().await.unwrap()[0].id, "n1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_nodes_hint_appears_only_when_nodes_are_enabled_and_visible_ga_10_1() {
    let hint = "- nodes: paired Gateway nodes; nodes.list(), (await nodes.get(id)).invoke(command, params)";
    let with = runtime(NodePolicy::default()).await;
    assert!(with.exec_tool_description().exec.description.contains(hint));
    let hidden = runtime(NodePolicy { hide_nodes: true, ..NodePolicy::default() }).await;
    assert!(hidden.node_registry().is_none());
    assert!(!hidden.exec_tool_description().exec.description.contains(hint));
    let r = exec(
        &hidden,
        "const l = await nodes.list(); try { await nodes.get('x'); } catch (e) { return [l, e.message]; }",
    )
    .await;
    assert_eq!(value(&r), &json!([[], "no paired nodes"]));
    let plain = codemode_tests::builder().start().await.unwrap();
    assert!(!plain.exec_tool_description().exec.description.contains(hint));
}
