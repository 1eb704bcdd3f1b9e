//! `codemode serve` answers task-aware MCP clients with tasks: rmcp's own
//! client, declaring the tasks extension, gets a parked `exec` as a task
//! and polls it to the result `wait` would give; pending approvals are the
//! task's input requests, answered with `tasks/update`; `tasks/cancel`
//! aborts the run (GA-1.3, GA-10.3).

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities, ClientConfig, GetTaskParams,
    Implementation, TaskPayload, UpdateTaskParams,
};
use rmcp::service::{Peer, RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};

/// A client that polls tasks.
#[derive(Clone)]
struct TaskClient;

impl ClientHandler for TaskClient {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(ClientCapabilities::builder().enable_tasks().build(), Implementation::new("tasks-test", "1"))
    }
}

/// Short windows, the counting tools, and `count` asked about.
fn config(dir: &Path) -> PathBuf {
    let tools = common::counting_tools(dir, 3);
    let text = format!(
        "[limits]\ntimeout_ms = 300\n\n{tools}\n[[policy]]\ntool = \"count\"\naction = \"ask\"\nreason = \"a person counts\"\n"
    );
    let path = dir.join("codemode.toml");
    std::fs::write(&path, text).unwrap();
    path
}

async fn serve(dir: &Path) -> RunningService<RoleClient, TaskClient> {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_codemode"));
    cmd.arg("--config").arg(config(dir)).arg("--store").arg(dir.join("store")).arg("serve");
    TaskClient.serve(TokioChildProcess::new(cmd).unwrap()).await.unwrap()
}

fn exec(code: &str) -> CallToolRequestParams {
    CallToolRequestParams::new("exec").with_arguments(json!({ "code": code }).as_object().cloned().unwrap())
}

/// Starts `code` and expects a task: its id.
async fn task_of(peer: &Peer<RoleClient>, code: &str) -> String {
    match peer.call_tool_once(exec(code)).await.unwrap() {
        CallToolResponse::Task(created) => created.task.task_id,
        CallToolResponse::Complete(result) => panic!("not a task: {result:?}"),
        _ => panic!("not a task"),
    }
}

/// Polls `task` until it is no longer working.
async fn poll(peer: &Peer<RoleClient>, task: &str) -> TaskPayload {
    for _ in 0..200 {
        let got = peer.get_task(GetTaskParams::new(task)).await.unwrap();
        if !matches!(got.task.payload, TaskPayload::Working) {
            return got.task.payload;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("task {task} kept working");
}

fn completed(payload: TaskPayload) -> Value {
    match payload {
        TaskPayload::Completed { result } => result["structuredContent"].clone(),
        other => panic!("not completed: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parked_exec_is_a_task_polled_to_the_result_wait_gives_with_every_windows_output_ga_1_3() {
    let dir = common::temp("serve-tasks", "poll");
    let client = serve(&dir).await;
    let task =
        task_of(client.peer(), "text('a'); await new Promise(r => setTimeout(r, 900)); text('b'); return 7").await;
    assert!(task.starts_with("run_"), "the task is the run: {task}");
    let done = completed(poll(client.peer(), &task).await);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["value"], 7, "{done}");
    assert_eq!(done["output"], json!([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]), "{done}");
    // A cell that finishes in its window is answered at once.
    match client.peer().call_tool_once(exec("return 1")).await.unwrap() {
        CallToolResponse::Complete(result) => assert_eq!(result.structured_content.unwrap()["value"], 1),
        _ => panic!("a finished cell is not a task"),
    }
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tasks_pending_approvals_are_input_requests_answered_with_tasks_update_ga_10_3() {
    let dir = common::temp("serve-tasks", "approve");
    let client = serve(&dir).await;
    let task = task_of(client.peer(), "const a = await count({}); return a.n").await;
    let TaskPayload::InputRequired { input_requests } = poll(client.peer(), &task).await else {
        panic!("the task does not ask for input")
    };
    assert_eq!(input_requests.len(), 1);
    let (id, request) = input_requests.into_iter().next().unwrap();
    assert!(id.starts_with("appr_"), "{id}");
    let asked = serde_json::to_value(&request).unwrap();
    assert!(asked["params"]["message"].as_str().unwrap().contains("a person counts"), "{asked}");
    assert_eq!(std::fs::read_to_string(dir.join("calls")).unwrap_or_default().lines().count(), 0);
    // An id the task did not ask about is refused, and decides nothing.
    let wrong = [("appr_nope".to_owned(), json!({"action": "accept", "content": {"approve": true}}))];
    assert!(client.peer().update_task(UpdateTaskParams::new(&task, wrong.into_iter().collect())).await.is_err());
    let answer = [(id, json!({"action": "accept", "content": {"approve": true}}))];
    client.peer().update_task(UpdateTaskParams::new(&task, answer.into_iter().collect())).await.unwrap();
    let done = completed(poll(client.peer(), &task).await);
    assert_eq!(done["value"], 1, "{done}");
    assert_eq!(std::fs::read_to_string(dir.join("calls")).unwrap().lines().count(), 1, "the call ran once");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_task_aborts_its_run_ga_1_3() {
    let dir = common::temp("serve-tasks", "cancel");
    let client = serve(&dir).await;
    let task = task_of(client.peer(), "await new Promise(r => setTimeout(r, 60000)); return 1").await;
    client.peer().cancel_task(CancelTaskParams::new(&task)).await.unwrap();
    assert!(matches!(poll(client.peer(), &task).await, TaskPayload::Cancelled));
    // The run is gone: cancelling it again is refused.
    assert!(client.peer().cancel_task(CancelTaskParams::new(&task)).await.is_err());
    client.cancel().await.unwrap();
}

/// A client of `serve --http` speaking JSON-RPC by hand, as one principal
/// (its bearer token), declaring the tasks extension.
struct HttpClient {
    http: reqwest::blocking::Client,
    url: String,
    token: &'static str,
    session: String,
    next_id: u64,
}

impl HttpClient {
    fn connect(url: &str, token: &'static str) -> Self {
        let mut client = Self {
            http: reqwest::blocking::Client::new(),
            url: url.to_owned(),
            token,
            session: String::new(),
            next_id: 0,
        };
        let capabilities = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
        let init = json!({"protocolVersion": "2025-11-25", "capabilities": capabilities,
            "clientInfo": {"name": "tasks-http-test", "version": "1"}});
        client.request("initialize", &init).unwrap();
        client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        client
    }

    fn send(&mut self, body: &Value) -> reqwest::blocking::Response {
        let mut request = self
            .http
            .post(&self.url)
            .header("authorization", format!("Bearer {}", self.token))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body.to_string());
        if !self.session.is_empty() {
            request = request.header("mcp-session-id", &self.session).header("mcp-protocol-version", "2025-11-25");
        }
        request.send().unwrap()
    }

    /// `method`'s result, or its JSON-RPC error.
    fn request(&mut self, method: &str, params: &Value) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        let response = self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        if let Some(session) = response.headers().get("mcp-session-id") {
            self.session = session.to_str().unwrap().to_owned();
        }
        let body = response.text().unwrap();
        // A JSON body, or server-sent events whose data lines carry it.
        let answer = std::iter::once(body.as_str())
            .chain(body.lines().filter_map(|l| l.strip_prefix("data:")))
            .filter_map(|text| serde_json::from_str::<Value>(text.trim()).ok())
            .find(|m| m["id"] == id)
            .unwrap_or_else(|| panic!("no answer to {method}: {body}"));
        match answer.get("error") {
            Some(error) => Err(error.clone()),
            None => Ok(answer["result"].clone()),
        }
    }

    fn get(&mut self, task: &str) -> Result<Value, Value> {
        self.request("tasks/get", &json!({"taskId": task}))
    }
}

#[test]
fn a_poll_of_another_principals_task_is_an_error_and_keeps_nothing_while_its_own_poll_goes_on_ga_1_3() {
    const ALICE: &str = "alice-token-0123456789abcdef0123456789";
    const BOB: &str = "bob-token-0123456789abcdef0123456789ab";
    let config = format!(
        "[limits]\ntimeout_ms = 300\n\n[serve]\ntokens = [{{ token = \"{ALICE}\", principal = \"alice\" }}, \
         {{ token = \"{BOB}\", principal = \"bob\" }}]\n"
    );
    let server = common::Server::start("serve-tasks", "principals", &config, &[]);
    let mut alice = HttpClient::connect(&server.mcp, ALICE);
    let mut bob = HttpClient::connect(&server.mcp, BOB);
    let created = alice
        .request("tools/call", &json!({"name": "exec", "arguments": {"code": "await yield_control(); return 'alice'"}}))
        .unwrap();
    let task = created["taskId"].as_str().unwrap_or_else(|| panic!("not a task: {created}")).to_owned();
    assert!(task.starts_with("run_"), "{created}");

    let made_up = format!("run_{}", "0".repeat(32));
    for id in [&task, &made_up, &task] {
        let refused = bob.get(id).expect_err("another principal's task (or none) is no task of bob's");
        assert_eq!(refused["code"], -32602, "invalid params, as for an unknown task: {refused}");
        assert!(refused["message"].as_str().unwrap().contains(&format!("no task {id}")), "{refused}");
    }

    let mut done = Value::Null;
    for _ in 0..200 {
        let got = alice.get(&task).unwrap();
        if got["status"] != "working" {
            done = got;
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["result"]["structuredContent"]["value"], "alice", "{done}");
    let _ = std::fs::remove_dir_all(&server.dir);
}

/// The official Python client with a progress callback sees the cell's
/// output as it happens, and the result still carries all of it.
#[test]
fn a_long_cells_output_arrives_as_progress_notifications_while_it_runs() {
    let dir = common::temp("serve-tasks", "progress");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_progress.py");
    let out = std::process::Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_codemode")])
        .arg(dir.join("store"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let seen: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(seen["messages"], json!(["step 1", "{\"step\":2}", "step 3"]), "{seen}");
    assert_eq!(seen["progress"], json!([1.0, 2.0, 3.0]), "{seen}");
    assert_eq!(seen["firstBeforeEnd"], true, "the first entry came while the cell ran: {seen}");
    assert_eq!(seen["quiet"], true, "no progress without a token: {seen}");
    assert_eq!(seen["result"]["value"], "done");
    assert_eq!(seen["result"]["output"].as_array().unwrap().len(), 3, "{seen}");
}
