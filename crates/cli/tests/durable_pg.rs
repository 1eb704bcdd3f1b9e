//! Durable runs on PostgreSQL with real processes: two
//! `codemode serve --http` on one database; a run started on one is resumed
//! on the other, also after the first is `kill -9`ed while the run is
//! parked or while a tool call is in flight.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Server;
use serde_json::Value;

/// A fresh database on the test server.
fn database() -> String {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(codemode_store::postgres::test_database())
}

/// The tools' scripts and counters, shared by both servers.
fn tools_dir(name: &str) -> PathBuf {
    common::temp("durable-pg-tools", name)
}

/// Both servers' configuration: the database, a short lease (a crashed
/// owner's runs are claimable after it) and the counting tools.
fn config(url: &str, tools: &Path) -> String {
    let tools = common::counting_tools(tools, 4);
    format!(
        "[store]\nbackend = \"postgres\"\nurl = \"{url}\"\n\n[runs]\nlease_ms = 1500\n\n[limits]\ntimeout_ms = 1000\n{tools}"
    )
}

/// One exec (or `wait:RUN`) as the local principal in session key `key`.
fn call(server: &Server, code: &str, key: &str) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_http_identity.py");
    let out = Command::new("python3").args([script, &server.mcp, code, "-", key]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// Waits on `run_id` at `server` until it is no longer waiting.
fn wait_done(server: &Server, run_id: &str, key: &str) -> Value {
    for _ in 0..40 {
        let r = call(server, &format!("wait:{run_id}"), key);
        if r["status"] != "waiting" {
            return r;
        }
    }
    panic!("run {run_id} never finished");
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |s| s.lines().count())
}

fn kill_9(mut server: Server) {
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}

#[test]
fn a_run_started_on_one_server_is_resumed_on_another_also_after_kill_9() {
    let url = database();
    let tools = tools_dir("handoff");
    let config = config(&url, &tools);
    let a = Server::start("durable-pg", "a1", &config, &[]);
    let b = Server::start("durable-pg", "b1", &config, &[]);
    let code = "const a = await count({}); const b = await count({}); \
                await yield_control('one'); const c = await count({}); \
                await yield_control('two'); return [a.n, b.n, c.n]";

    // Exec on A, wait on B: B claims the run and replays it.
    let parked = call(&a, code, "k");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    let mut parked = parked;
    while parked["reason"] == "pending_tools" {
        parked = call(&a, &format!("wait:{run_id}"), "k");
    }
    assert_eq!(parked["reason"], "yield", "{parked}");
    let on_b = call(&b, &format!("wait:{run_id}"), "k");
    let mut on_b = on_b;
    while on_b["reason"] == "pending_tools" {
        on_b = call(&b, &format!("wait:{run_id}"), "k");
    }
    assert_eq!(on_b["status"], "waiting", "{on_b}");
    assert_eq!(on_b["reason"], "yield", "{on_b}");
    assert_eq!(lines(&tools.join("calls")), 3, "each call ran once, across both servers");

    // B is killed while the run is parked; A resumes it.
    kill_9(b);
    let done = wait_done(&a, &run_id, "k");
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["value"], serde_json::json!([1, 2, 3]), "{done}");
    assert_eq!(lines(&tools.join("calls")), 3);
    drop(a);
    let _ = std::fs::remove_dir_all(&tools);
}

#[test]
fn a_call_in_flight_when_its_server_is_killed_runs_at_most_once_or_is_reissued_when_replay_safe() {
    let url = database();
    let tools = tools_dir("inflight");
    let config = config(&url, &tools);
    let slow_calls = tools.join("slow_calls");

    // Not replay-safe: the guest sees `outcome_unknown`, the tool ran once.
    let a = Server::start("durable-pg", "a2", &config, &[]);
    let b = Server::start("durable-pg", "b2", &config, &[]);
    let code = "try { const r = await slow({}); return {ran: r.n} } catch (e) { return {code: e.code} }";
    let parked = call(&a, code, "k");
    assert_eq!(parked["reason"], "pending_tools", "{parked}");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    assert_eq!(lines(&slow_calls), 1);
    kill_9(a);
    let done = wait_done(&b, &run_id, "k");
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["value"], serde_json::json!({"code": "outcome_unknown"}), "{done}");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(lines(&slow_calls), 1, "the unsafe call was not run again");

    // Replay-safe: re-issued on the surviving server; the cell completes.
    let c = Server::start("durable-pg", "c2", &config, &[]);
    let parked = call(&b, "const r = await slow_safe({}); return r.n", "k");
    assert_eq!(parked["reason"], "pending_tools", "{parked}");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    kill_9(b);
    let done = wait_done(&c, &run_id, "k");
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["value"], 3, "ran on the killed server, then once more here: {done}");
    drop(c);
    let _ = std::fs::remove_dir_all(&tools);
}

#[test]
fn an_operator_aborts_a_run_parked_on_another_server_and_its_owner_sees_it_ended() {
    let url = database();
    let tools = tools_dir("abort");
    let config_text = config(&url, &tools);
    let a = Server::start("durable-pg", "a3", &config_text, &[]);
    let parked = call(&a, "await yield_control('hold'); return 'not aborted'", "k");
    assert_eq!(parked["reason"], "yield", "{parked}");
    let run_id = parked["runId"].as_str().unwrap().to_owned();

    // `codemode runs` from anywhere on the same database.
    let runs = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_codemode"))
            .arg("--config")
            .arg(a.dir.join("codemode.toml"))
            .arg("runs")
            .args(args)
            .output()
            .unwrap()
    };
    let listed = runs(&["list", "--json"]);
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(text.contains(&run_id) && text.contains("parked"), "{text}");
    let aborted = runs(&["abort", &run_id]);
    assert!(aborted.status.success(), "{}", String::from_utf8_lossy(&aborted.stderr));

    // The server that parked it keeps a copy in memory; it must not resume it.
    let late = call(&a, &format!("wait:{run_id}"), "k");
    assert_eq!(late["status"], "failed", "{late}");
    assert!(late["error"].as_str().unwrap().contains("aborted"), "{late}");
    let shown = runs(&["show", &run_id, "--json"]);
    assert!(
        String::from_utf8_lossy(&shown.stdout).contains("\"aborted\""),
        "{}",
        String::from_utf8_lossy(&shown.stdout)
    );
    drop(a);
    let _ = std::fs::remove_dir_all(&tools);
}

#[test]
fn a_wait_on_another_server_waits_for_the_holder_to_park_then_resumes_what_it_finished() {
    let url = database();
    let tools = tools_dir("held");
    let config_text = config(&url, &tools);
    let a = Server::start("durable-pg", "a4", &config_text, &[]);
    let b = Server::start("durable-pg", "b4", &config_text, &[]);
    // A parks with `slow` still running there: it keeps the lease.
    let parked = call(&a, "const r = await slow({}); return r.n", "k");
    assert_eq!(parked["reason"], "pending_tools", "{parked}");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    // B waits (each window up to the budget) until A's call finished and A
    // handed the run off with the result; B resumes it from the journal.
    let done = wait_done(&b, &run_id, "k");
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["value"], 1, "{done}");
    assert_eq!(lines(&tools.join("slow_calls")), 1, "the call ran once, on A");
    drop((a, b));
    let _ = std::fs::remove_dir_all(&tools);
}

#[test]
fn a_server_stopped_gracefully_hands_its_runs_leases_over_at_once() {
    let url = database();
    let tools = tools_dir("graceful");
    // A lease far longer than the test: only a hand-over lets B resume now.
    let config_text = config(&url, &tools).replace("lease_ms = 1500", "lease_ms = 600000");
    let mut a = Server::start("durable-pg", "a5", &config_text, &[]);
    let b = Server::start("durable-pg", "b5", &config_text, &[]);
    // A parks with `slow` still running there: it holds the lease.
    let parked = call(&a, "try { return (await slow({})).n } catch (e) { return e.code }", "k");
    assert_eq!(parked["reason"], "pending_tools", "{parked}");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    // SIGTERM: a graceful stop.
    let pid = pid_of(&a);
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let status = a.child.wait().unwrap();
    assert!(status.success(), "graceful exit: {status:?}");
    // B's first window resumes it: the lease was released, not left to expire.
    let done = call(&b, &format!("wait:{run_id}"), "k");
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["value"], "outcome_unknown", "the call A dropped is not run again: {done}");
    drop(b);
    let _ = std::fs::remove_dir_all(&tools);
}

fn pid_of(server: &Server) -> String {
    server.child.id().to_string()
}

#[test]
fn a_pending_approval_survives_kill_9_and_is_decided_on_another_server_or_by_an_operator_once_ga_1_3() {
    let url = database();
    let tools = tools_dir("approvals");
    // The model's own wait decides here: this host lets it.
    let config_text = format!(
        "{}\n[approvals]\nmodel_decides = true\n\n[[policy]]\ntool = \"count\"\naction = \"ask\"\n",
        config(&url, &tools)
    );
    let a = Server::start("durable-pg", "a6", &config_text, &[]);
    let b = Server::start("durable-pg", "b6", &config_text, &[]);
    let calls = tools.join("calls");

    // Asked on A; A is killed; B takes the decision and runs the call once.
    let parked = call(&a, "const r = await count({}); return r.n", "k");
    assert_eq!(parked["reason"], "approval", "{parked}");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    let id = parked["pendingApprovals"][0]["id"].as_str().unwrap().to_owned();
    kill_9(a);
    let done = call(&b, &format!("approve:{run_id}:{id}"), "k");
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["value"], 1, "{done}");
    assert_eq!(lines(&calls), 1, "the approved call ran once");

    // Asked on B; an operator denies it from another process while B runs;
    // B's next wait takes the operator's decision.
    let parked = call(&b, "try { await count({}) } catch (e) { return e.code }", "k");
    assert_eq!(parked["reason"], "approval", "{parked}");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    let id = parked["pendingApprovals"][0]["id"].as_str().unwrap().to_owned();
    let denied = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--config")
        .arg(b.dir.join("codemode.toml"))
        .args(["runs", "deny", &run_id, &id, "--reason", "operator says no"])
        .output()
        .unwrap();
    assert!(denied.status.success(), "{}", String::from_utf8_lossy(&denied.stderr));
    let done = wait_done(&b, &run_id, "k");
    assert_eq!(done["value"], "denied", "{done}");
    assert_eq!(lines(&calls), 1, "the denied call never ran");
    drop(b);
    let _ = std::fs::remove_dir_all(&tools);
}

/// A client of task-aware MCP (rmcp's own, declaring the tasks extension).
#[derive(Clone)]
struct TaskClient;

impl rmcp::ClientHandler for TaskClient {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        rmcp::model::ClientConfig::new(
            rmcp::model::ClientCapabilities::builder().enable_tasks().build(),
            rmcp::model::Implementation::new("tasks-test", "1"),
        )
    }
}

/// A task client of `server` in session key `key`.
async fn task_client(server: &Server, key: &str) -> rmcp::service::RunningService<rmcp::RoleClient, TaskClient> {
    use rmcp::ServiceExt;
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let headers = [(
        hyper::header::HeaderName::from_static("codemode-session"),
        hyper::header::HeaderValue::from_str(key).unwrap(),
    )];
    let config = StreamableHttpClientTransportConfig::with_uri(server.mcp.as_str()).custom_headers(headers.into());
    TaskClient.serve(StreamableHttpClientTransport::from_config(config)).await.unwrap()
}

#[test]
fn an_exec_task_started_on_one_server_is_answered_by_another_after_kill_9() {
    use rmcp::model::{CallToolRequestParams, CallToolResponse, GetTaskParams, TaskPayload};
    let url = database();
    let tools = tools_dir("task");
    let config = config(&url, &tools);
    let a = Server::start("durable-pg", "a4", &config, &[]);
    let b = Server::start("durable-pg", "b4", &config, &[]);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        let on_a = task_client(&a, "k").await;
        let code = "const a = await count({}); await new Promise(r => setTimeout(r, 2500)); return a.n";
        let args = serde_json::json!({ "code": code }).as_object().cloned().unwrap();
        let task = match on_a.peer().call_tool_once(CallToolRequestParams::new("exec").with_arguments(args)).await {
            Ok(CallToolResponse::Task(created)) => created.task.task_id,
            other => panic!("not a task: {other:?}"),
        };
        drop(on_a);
        kill_9(a);
        // The task is the run: B answers for it.
        let on_b = task_client(&b, "k").await;
        let mut payload = TaskPayload::Working;
        for _ in 0..200 {
            payload = on_b.peer().get_task(GetTaskParams::new(&task)).await.unwrap().task.payload;
            if !matches!(payload, TaskPayload::Working) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let TaskPayload::Completed { result } = payload else { panic!("not completed: {payload:?}") };
        assert_eq!(result["structuredContent"]["value"], 1, "{result:?}");
        // Another session key cannot read it: its poll is an error.
        let other = task_client(&b, "someone-else").await;
        let foreign = other.peer().get_task(GetTaskParams::new(&task)).await;
        let Err(refused) = foreign else { panic!("{foreign:?}") };
        assert!(!refused.to_string().contains("\"value\":1"), "{refused}");
    });
    assert_eq!(lines(&tools.join("calls")), 1, "the call ran once");
    drop(b);
    let _ = std::fs::remove_dir_all(&tools);
}
