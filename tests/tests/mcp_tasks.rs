//! MCP calls a server runs as tasks (GA-9, GA-1.3): against the fixture
//! server speaking the tasks extension (SEP-2663) — over stdio, and over
//! streamable HTTP as a process of its own for runs that move between
//! runtimes — and npm's server-everything speaking the 2025-11-25 form.

use std::io::BufRead;
use std::time::Duration;

use codemode_runtime::{CellResult, CodeMode, Exec, Limits, McpServerConfig, RunEvent, RunsConfig, StoreBackend};
use codemode_tests::*;
use serde_json::json;

fn tasks_fixture(name: &str) -> McpServerConfig {
    McpServerConfig::stdio(name, env!("CARGO_BIN_EXE_mcp_fixture"), Vec::new())
        .env("FIXTURE_TASKS", "1")
        .call_timeout(Duration::from_secs(5))
}

async fn runtime_with_server(server: McpServerConfig, limits: Limits) -> CodeMode {
    let rt = codemode_tests::builder().mcp_server(server).limits(limits).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await, "the fixture server connects");
    rt
}

/// `research_count`'s counts: tasks started, tasks cancelled.
async fn research_counts(rt: &CodeMode) -> (u64, u64) {
    let r = exec(rt, "return (await MCP.lab.researchCount()).structuredContent").await;
    let v = value(&r);
    (v["started"].as_u64().unwrap(), v["cancelled"].as_u64().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_the_server_runs_as_a_task_settles_with_the_tasks_result_ga_9_4() {
    let rt = runtime_with_server(tasks_fixture("lab"), Limits::default()).await;
    let mut events = rt.run_events();
    let r = exec(&rt, "const r = await MCP.lab.research({topic: 'tides', ms: 50}); return [r.content[0].text, r.structuredContent.topic, r.isError ?? false]").await;
    assert_eq!(value(&r), &json!(["report on tides", "tides", false]));
    assert_eq!(research_counts(&rt).await, (1, 0), "one task, not cancelled");
    // The host hears of the task and of its end.
    let mut seen = Vec::new();
    while let Ok(Ok(event)) = tokio::time::timeout(Duration::from_millis(200), events.recv()).await {
        match event {
            RunEvent::TaskStarted { server, tool, .. } => seen.push(format!("started {server}.{tool}")),
            RunEvent::TaskFinished { server, .. } => seen.push(format!("finished {server}")),
            _ => {}
        }
    }
    assert_eq!(seen, ["started lab.research", "finished lab"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_that_fails_rejects_the_call_naming_the_task_ga_9_4() {
    let rt = runtime_with_server(tasks_fixture("lab"), Limits::default()).await;
    let r = exec(
        &rt,
        "try { await MCP.lab.research({topic: 'x', ms: 10, fail: true}); return 'no error' } catch (e) { return [e.code, e.message] }",
    )
    .await;
    let v = value(&r);
    assert_eq!(v[0], json!("tool_error"));
    let message = v[1].as_str().unwrap();
    assert!(message.contains("ran as MCP task `research-"), "{message}");
    assert!(message.contains("the research failed (JSON-RPC error -32603)"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_runs_past_the_window_and_wait_gets_its_result_ga_1_3() {
    let limits = Limits { timeout: Duration::from_millis(200), ..Limits::default() };
    let rt = runtime_with_server(tasks_fixture("lab"), limits).await;
    let reply = reply(&rt);
    let parked = reply
        .exec(Exec::code("return (await MCP.lab.research({topic: 'slow', ms: 600})).structuredContent.topic"))
        .await
        .unwrap();
    let CellResult::Waiting { run_id, .. } = &parked else { panic!("{parked:?}") };
    let mut done = reply.wait(run_id).await.unwrap();
    while let CellResult::Waiting { .. } = done {
        done = reply.wait(run_id).await.unwrap();
    }
    let CellResult::Completed { value, .. } = &done else { panic!("{done:?}") };
    assert_eq!(value, &json!("slow"));
    assert_eq!(research_counts(&rt).await, (1, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn aborting_a_run_cancels_the_task_its_call_left_running_ga_1_3() {
    let limits = Limits { timeout: Duration::from_millis(200), ..Limits::default() };
    let rt = runtime_with_server(tasks_fixture("lab"), limits).await;
    let reply = reply(&rt);
    let parked = reply.exec(Exec::code("return await MCP.lab.research({topic: 'long', ms: 60000})")).await.unwrap();
    let CellResult::Waiting { run_id, .. } = &parked else { panic!("{parked:?}") };
    let aborted = reply.abort(run_id).await.unwrap();
    assert!(matches!(aborted, CellResult::Failed { .. }), "{aborted:?}");
    for _ in 0..200 {
        if research_counts(&rt).await == (1, 1) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the task was never cancelled: {:?}", research_counts(&rt).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_that_expires_parked_cancels_its_task_ga_1_3() {
    let limits =
        Limits { timeout: Duration::from_millis(200), parked_ttl: Duration::from_millis(300), ..Limits::default() };
    let rt = runtime_with_server(tasks_fixture("lab"), limits).await;
    let parked =
        reply(&rt).exec(Exec::code("return await MCP.lab.research({topic: 'idle', ms: 60000})")).await.unwrap();
    assert!(matches!(parked, CellResult::Waiting { .. }), "{parked:?}");
    for _ in 0..200 {
        if research_counts(&rt).await == (1, 1) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the expired run's task was never cancelled: {:?}", research_counts(&rt).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declarations_and_api_say_which_tools_run_as_tasks_ga_9_2() {
    let rt = runtime_with_server(tasks_fixture("lab"), Limits::default()).await;
    let r = exec(&rt, "const a = await MCP.lab.$api('research'); return [a.tools[0].task, a.header]").await;
    let v = value(&r);
    assert_eq!(v[0], json!(true));
    assert!(v[1].as_str().unwrap().contains("Runs as an MCP task"), "{}", v[1]);
    // A server without tasks says nothing of them.
    let plain = McpServerConfig::stdio("lab", env!("CARGO_BIN_EXE_mcp_fixture"), Vec::new());
    let rt = runtime_with_server(plain, Limits::default()).await;
    let r = exec(&rt, "const a = await MCP.lab.$api('research'); return ['task' in a.tools[0], a.header]").await;
    let v = value(&r);
    assert_eq!(v[0], json!(false));
    assert!(!v[1].as_str().unwrap().contains("MCP task"));
    let r = exec(&rt, "return (await MCP.lab.research({ms: 1})).content[0].text").await;
    assert_eq!(value(&r), &json!("report, at once"), "without tasks the server answers at once");
}

/// The fixture as a process of its own on streamable HTTP, so it outlives
/// the runtimes that call it; killed on drop.
struct HttpFixture {
    child: std::process::Child,
    url: String,
}

impl HttpFixture {
    fn start() -> Self {
        Self::start_with(&[])
    }

    /// The fixture with these environment variables as well.
    fn start_with(envs: &[(&str, &str)]) -> Self {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mcp_fixture"))
            .env("FIXTURE_HTTP", "127.0.0.1:0")
            .env("FIXTURE_TASKS", "1")
            .envs(envs.iter().copied())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        Self { child, url: format!("http://{}/mcp", line.trim()) }
    }
}

impl Drop for HttpFixture {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A runtime on the sled store in `dir`; the store of a runtime just shut
/// down is released with its last tasks, just after, so this retries
/// briefly as a restarted process would simply start later.
async fn durable_runtime(dir: &std::path::Path, url: &str) -> CodeMode {
    let mut tries = 0;
    let rt = loop {
        let started = codemode_tests::builder()
            .mcp_server(McpServerConfig::http("lab", url).call_timeout(Duration::from_secs(5)))
            .limits(Limits { timeout: Duration::from_millis(300), ..Limits::default() })
            .store_backend(StoreBackend::Sled { path: Some(dir.to_owned()) })
            .runs(RunsConfig::default())
            .start()
            .await;
        match started {
            Ok(rt) => break rt,
            Err(e) if tries < 100 && e.to_string().contains("in use") => tries += 1,
            Err(e) => panic!("{e}"),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(rt.mcp_ready(Duration::from_secs(10)).await, "the HTTP fixture connects");
    rt
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_resumed_by_another_runtime_polls_the_same_task_and_never_calls_twice_ga_1_3() {
    let fixture = HttpFixture::start();
    let dir = std::env::temp_dir().join(format!("codemode-mcp-tasks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let first = durable_runtime(&dir, &fixture.url).await;
    let parked = first
        .session("tasks")
        .reply("r1")
        .exec(Exec::code("const r = await MCP.lab.research({topic: 'moved', ms: 1500}); return r.structuredContent"))
        .await
        .unwrap();
    let CellResult::Waiting { run_id, .. } = &parked else { panic!("{parked:?}") };
    // The process holding the run goes away while its task runs.
    first.shutdown().await;
    drop(first);
    let second = durable_runtime(&dir, &fixture.url).await;
    let reply = second.session("tasks").reply("r2");
    let mut done = reply.wait(run_id).await.unwrap();
    while let CellResult::Waiting { .. } = done {
        done = reply.wait(run_id).await.unwrap();
    }
    let CellResult::Completed { value, .. } = &done else { panic!("{done:?}") };
    assert_eq!(value["topic"], json!("moved"));
    let task = value["task"].as_str().unwrap().to_owned();
    let counts = exec(&second, "return (await MCP.lab.researchCount()).structuredContent").await;
    assert_eq!(codemode_tests::value(&counts), &json!({"started": 1, "cancelled": 0}), "the task ran once: {task}");
    second.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// `run_host` holding a run that calls the fixture at `url`, on `store`:
/// its first result, and the process (to kill).
fn hold_run(store: &str, url: &str, code: &str) -> (serde_json::Value, std::process::Child) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_run_host"))
        .args([store, url, "exec", code])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    (serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}")), child)
}

/// Resumes `run_id` with a new `run_host` on `store`: its final result.
fn resume_run(store: &str, url: &str, run_id: &str) -> serde_json::Value {
    let out =
        std::process::Command::new(env!("CARGO_BIN_EXE_run_host")).args([store, url, "wait", run_id]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// A process polling a task is killed (`kill -9`) while the task runs;
/// another process resumes the run from `store` and gets the task's
/// result: the task is polled, not started again, and not cancelled.
async fn a_task_survives_kill_9_of_the_process_polling_it(store: &str) {
    let fixture = HttpFixture::start();
    let code = "const r = await MCP.lab.research({topic: 'survivor', ms: 2500}); return r.structuredContent";
    let (first, mut holder) = hold_run(store, &fixture.url, code);
    assert_eq!(first["status"], "waiting", "{first}");
    let run_id = first["runId"].as_str().unwrap().to_owned();
    holder.kill().unwrap();
    holder.wait().unwrap();
    let done = resume_run(store, &fixture.url, &run_id);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["value"]["topic"], "survivor", "{done}");
    let rt = codemode_tests::builder().mcp_server(McpServerConfig::http("lab", &fixture.url)).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await);
    assert_eq!(research_counts(&rt).await, (1, 0), "started once, never cancelled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_survives_kill_9_of_its_process_on_sled_ga_1_3() {
    let dir = std::env::temp_dir().join(format!("codemode-mcp-tasks-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    a_task_survives_kill_9_of_the_process_polling_it(&format!("sled:{}", dir.display())).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_survives_kill_9_of_its_process_on_postgres_ga_1_3() {
    let url = codemode_store::postgres::test_database().await;
    a_task_survives_kill_9_of_the_process_polling_it(&format!("postgres:{url}")).await;
}

/// The one pending approval of a result parked for a task's input.
fn input_approval(parked: &CellResult) -> codemode_runtime::PendingApproval {
    let CellResult::Waiting { reason, pending_approvals, .. } = parked else { panic!("{parked:?}") };
    assert_eq!(*reason, codemode_runtime::WaitReason::Approval, "{parked:?}");
    assert_eq!(pending_approvals.len(), 1, "{parked:?}");
    pending_approvals[0].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tasks_request_for_input_is_a_pending_approval_approve_accepts_deny_declines_ga_10_3() {
    let log = std::env::temp_dir().join(format!("codemode-task-answers-{}", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let server = tasks_fixture("lab").env("FIXTURE_ANSWER_LOG", log.display().to_string());
    let limits = Limits { timeout: Duration::from_millis(500), ..Limits::default() };
    let rt = runtime_with_server(server, limits).await;
    let reply = reply(&rt);
    let code =
        "const r = await MCP.lab.research({topic: 'tides', ms: 10, ask: true}); return r.structuredContent.answer";
    let parked = reply.exec(Exec::code(code)).await.unwrap();
    let asked = input_approval(&parked);
    assert_eq!((asked.source.as_str(), asked.server.as_deref(), asked.tool.as_str()), ("mcp", Some("lab"), "research"));
    assert!(asked.reason.contains("Research this topic for real?"), "{}", asked.reason);
    assert!(asked.reason.contains("Approving accepts the form with its defaults"), "{}", asked.reason);
    assert!(asked.arguments.contains("requestedSchema"), "{}", asked.arguments);
    let run_id = parked.run_id().unwrap().to_owned();
    let approve = codemode_runtime::Decisions { approve: vec![asked.id.clone()], deny: vec![] };
    let done = reply.wait_with(&run_id, approve).await.unwrap();
    let CellResult::Completed { value, .. } = &done else { panic!("{done:?}") };
    assert_eq!(value, &json!({"action": "accept", "content": {"go": true}}), "accepted with the form's defaults");

    let parked = reply.exec(Exec::code(code)).await.unwrap();
    let asked = input_approval(&parked);
    let deny = codemode_runtime::Decisions {
        approve: vec![],
        deny: vec![codemode_runtime::Denial { id: asked.id, reason: Some("not now".into()) }],
    };
    let done = reply.wait_with(parked.run_id().unwrap(), deny).await.unwrap();
    let CellResult::Completed { value, .. } = &done else { panic!("{done:?}") };
    assert_eq!(value, &json!({"action": "decline"}), "a denial declines; the task goes on");
    let answers = std::fs::read_to_string(&log).unwrap();
    assert_eq!(answers.lines().count(), 2, "each request answered once: {answers}");
    let _ = std::fs::remove_file(&log);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_waiting_for_input_survives_kill_9_with_the_same_approval_id_ga_1_3() {
    let fixture = HttpFixture::start();
    let dir = std::env::temp_dir().join(format!("codemode-mcp-tasks-input-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = format!("sled:{}", dir.display());
    let code = "const r = await MCP.lab.research({topic: 'asked', ms: 10, ask: true}); return r.structuredContent";
    let (first, mut holder) = hold_run(&store, &fixture.url, code);
    assert_eq!((first["status"].as_str(), first["reason"].as_str()), (Some("waiting"), Some("approval")), "{first}");
    let id = first["pendingApprovals"][0]["id"].as_str().unwrap().to_owned();
    let run_id = first["runId"].as_str().unwrap().to_owned();
    holder.kill().unwrap();
    holder.wait().unwrap();
    // Another process: the same approval is pending, and approving it
    // answers the same task.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_run_host"))
        .args([store.as_str(), fixture.url.as_str(), "approve", &run_id, &id])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let done: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["value"]["topic"], "asked", "{done}");
    assert_eq!(done["value"]["answer"], json!({"action": "accept", "content": {"go": true}}), "{done}");
    let rt = codemode_tests::builder().mcp_server(McpServerConfig::http("lab", &fixture.url)).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await);
    assert_eq!(research_counts(&rt).await, (1, 0), "one task, asked once, never cancelled");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A TCP relay to `target` that can drop every connection it carries and
/// refuse new ones until restored (a network outage between a runtime and
/// its MCP server, which keeps running), and drop the first request that
/// contains a given text before it reaches the server.
struct Relay {
    addr: std::net::SocketAddr,
    down: std::sync::Arc<std::sync::atomic::AtomicBool>,
    carried: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::AbortHandle>>>,
    lose_once: std::sync::Arc<std::sync::Mutex<Option<&'static str>>>,
}

impl Relay {
    async fn start(target: std::net::SocketAddr) -> Self {
        use std::sync::atomic::Ordering;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let relay = Self { addr, down: Default::default(), carried: Default::default(), lose_once: Default::default() };
        let (down, carried, lose_once) = (relay.down.clone(), relay.carried.clone(), relay.lose_once.clone());
        tokio::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                if down.load(Ordering::SeqCst) {
                    continue;
                }
                let lose_once = lose_once.clone();
                let link = tokio::spawn(async move {
                    use tokio::io::{AsyncReadExt, AsyncWriteExt};
                    let Ok(outbound) = tokio::net::TcpStream::connect(target).await else { return };
                    let ((mut from_client, mut to_client), (mut from_server, mut to_server)) =
                        (inbound.into_split(), outbound.into_split());
                    let up = async {
                        let mut buf = vec![0u8; 64 * 1024];
                        while let Ok(n @ 1..) = from_client.read(&mut buf).await {
                            let chunk = &buf[..n];
                            let lost = {
                                let mut lose = lose_once.lock().unwrap();
                                let found =
                                    lose.is_some_and(|text| chunk.windows(text.len()).any(|w| w == text.as_bytes()));
                                if found {
                                    *lose = None;
                                }
                                found
                            };
                            if lost {
                                // Both directions close with this task.
                                return;
                            }
                            if to_server.write_all(chunk).await.is_err() {
                                return;
                            }
                        }
                    };
                    tokio::select! {
                        () = up => {}
                        _ = tokio::io::copy(&mut from_server, &mut to_client) => {}
                    }
                });
                carried.lock().unwrap().push(link.abort_handle());
            }
        });
        relay
    }

    fn cut(&self) {
        self.down.store(true, std::sync::atomic::Ordering::SeqCst);
        for link in self.carried.lock().unwrap().drain(..) {
            link.abort();
        }
    }

    fn restore(&self) {
        self.down.store(false, std::sync::atomic::Ordering::SeqCst);
    }

    /// The next request containing `text` is lost on its way.
    fn lose_next(&self, text: &'static str) {
        *self.lose_once.lock().unwrap() = Some(text);
    }
}

/// A runtime reaching the HTTP fixture through a relay, with this window.
async fn behind_relay(fixture: &HttpFixture, window: Duration) -> (Relay, CodeMode) {
    let target = fixture.url.trim_start_matches("http://").trim_end_matches("/mcp").parse().unwrap();
    let relay = Relay::start(target).await;
    let server =
        McpServerConfig::http("lab", format!("http://{}/mcp", relay.addr)).call_timeout(Duration::from_secs(2));
    let rt = runtime_with_server(server, Limits { timeout: window, ..Limits::default() }).await;
    (relay, rt)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_is_polled_through_a_network_outage_and_settles_started_once_never_cancelled_ga_9_4() {
    let fixture = HttpFixture::start();
    let (relay, rt) = behind_relay(&fixture, Duration::from_millis(200)).await;
    let reply = reply(&rt);
    let code = "const r = await MCP.lab.research({topic: 'outage', ms: 2000}); return r.structuredContent.topic";
    let parked = reply.exec(Exec::code(code)).await.unwrap();
    let CellResult::Waiting { run_id, .. } = &parked else { panic!("{parked:?}") };
    // The task runs at the server; its polls (every 20 ms) fail meanwhile.
    relay.cut();
    tokio::time::sleep(Duration::from_millis(700)).await;
    relay.restore();
    let settled = async {
        let mut done = reply.wait(run_id).await.unwrap();
        while let CellResult::Waiting { .. } = done {
            done = reply.wait(run_id).await.unwrap();
        }
        done
    };
    let done = tokio::time::timeout(Duration::from_secs(30), settled).await.expect("the call settles");
    assert_eq!(value(&done), &json!("outage"), "{}", done.to_model_json());
    assert_eq!(research_counts(&rt).await, (1, 0), "started once, never cancelled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_to_a_tasks_input_that_is_lost_on_the_way_is_sent_again_without_asking_again_ga_10_3() {
    let log = std::env::temp_dir().join(format!("codemode-task-lost-answers-{}", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let fixture = HttpFixture::start_with(&[("FIXTURE_ANSWER_LOG", &log.display().to_string())]);
    let (relay, rt) = behind_relay(&fixture, Duration::from_millis(500)).await;
    let reply = reply(&rt);
    let code =
        "const r = await MCP.lab.research({topic: 'lost', ms: 10, ask: true}); return r.structuredContent.answer";
    let parked = reply.exec(Exec::code(code)).await.unwrap();
    let asked = input_approval(&parked);
    let run_id = parked.run_id().unwrap().to_owned();
    relay.lose_next("tasks/update");
    let approve = codemode_runtime::Decisions { approve: vec![asked.id.clone()], deny: vec![] };
    let settled = async {
        let mut done = reply.wait_with(&run_id, approve).await.unwrap();
        // Another approval would be the same question asked again.
        while let CellResult::Waiting { reason: codemode_runtime::WaitReason::PendingTools, .. } = done {
            done = reply.wait(&run_id).await.unwrap();
        }
        done
    };
    let done = tokio::time::timeout(Duration::from_secs(30), settled).await.expect("the call settles");
    let CellResult::Completed { value, .. } = &done else { panic!("{}", done.to_model_json()) };
    assert_eq!(value, &json!({"action": "accept", "content": {"go": true}}));
    assert!(relay.lose_once.lock().unwrap().is_none(), "the first update was lost");
    let answers = std::fs::read_to_string(&log).unwrap();
    assert_eq!(answers.lines().count(), 1, "answered once at the server: {answers}");
    let _ = std::fs::remove_file(&log);
}

/// Denies a task's answers for input (the calls themselves pass), and
/// records what it saw.
struct DenyTaskInput(std::sync::Arc<std::sync::Mutex<Vec<codemode_runtime::NestedCall>>>);

impl codemode_runtime::Policy for DenyTaskInput {
    fn check(&self, call: codemode_runtime::NestedCall) -> codemode_runtime::DecisionFuture {
        let answering = call.arguments.get("requestedSchema").is_some();
        self.0.lock().unwrap().push(call);
        let decision = if answering {
            codemode_runtime::Decision::Deny("no answers to tasks here".into())
        } else {
            codemode_runtime::Decision::Allow
        };
        Box::pin(std::future::ready(decision))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_to_a_tasks_request_for_input_passes_the_policy_which_may_decline_it_unasked_ga_10_3() {
    let seen = std::sync::Arc::default();
    let rt = codemode_tests::builder()
        .mcp_server(tasks_fixture("lab"))
        .policy(DenyTaskInput(std::sync::Arc::clone(&seen)))
        .start()
        .await
        .unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await);
    let code =
        "const r = await MCP.lab.research({topic: 'tides', ms: 10, ask: true}); return r.structuredContent.answer";
    let done = reply(&rt).exec(Exec::code(code)).await.unwrap();
    assert_eq!(value(&done), &json!({"action": "decline"}), "declined without asking anyone: {}", done.to_model_json());
    {
        let seen = seen.lock().unwrap();
        let answer =
            seen.iter().find(|c| c.arguments.get("requestedSchema").is_some()).expect("the policy saw the answer");
        assert_eq!(
            (answer.source.as_str(), answer.server.as_deref(), answer.tool.as_str()),
            ("mcp", Some("lab"), "research")
        );
    }
    rt.shutdown().await;
}
