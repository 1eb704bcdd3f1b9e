//! `mcp_task`: what running an MCP call as a task costs over calling it
//! directly, excluding the server's own time.
//!
//! Two MCP servers in this process, on loopback streamable HTTP, run the
//! same tool `work({ms})` (sleep `ms`, then answer): `direct` answers the
//! call itself; `tasks` speaks the tasks extension (SEP-2663), answers with
//! a task, and completes it after `ms`, suggesting a 20 ms poll interval.
//! One runtime calls both, alternating cell by cell; each sample is an
//! `exec` of one call to its result. The overhead is the difference of
//! the p50s, at `ms` = 0 and 50: it should stay within one poll interval
//! (a finished task is seen at the next poll).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use codemode_runtime::{CodeMode, Exec, McpServerConfig};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CreateTaskResult, DetailedTask, ErrorData,
    GetTaskParams, GetTaskResult, Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    ServerConfig, Task, TaskPayload, TaskStatus, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use serde::Serialize;
use serde_json::{Value, json};

use super::cells::expect;
use super::stats::{Quantiles, ms, quantiles, row};

/// The poll interval the task server suggests.
const POLL_MS: u64 = 20;

/// Tasks by id: `None` while working.
type Tasks = Arc<Mutex<HashMap<String, Option<CallToolResult>>>>;

#[derive(Clone)]
struct Worker {
    tasks: Option<Tasks>,
}

fn sleep_ms(args: Option<&serde_json::Map<String, Value>>) -> Duration {
    Duration::from_millis(args.and_then(|a| a.get("ms")).and_then(Value::as_u64).unwrap_or(0))
}

impl rmcp::ServerHandler for Worker {
    fn get_info(&self) -> ServerConfig {
        let caps = ServerCapabilities::builder().enable_tools();
        let caps = if self.tasks.is_some() { caps.enable_tasks().build() } else { caps.build() };
        ServerConfig::new(caps).with_server_info(Implementation::new("bench-worker", "1"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = json!({"type": "object", "properties": {"ms": {"type": "integer"}}});
        let tool =
            Tool::new("work", "Sleeps ms, then answers.", Arc::new(schema.as_object().cloned().unwrap_or_default()));
        Ok(ListToolsResult::with_all_items(vec![tool]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let wait = sleep_ms(request.arguments.as_ref());
        let answer = CallToolResult::success(vec![ContentBlock::text("done")]);
        let Some(tasks) = &self.tasks else {
            tokio::time::sleep(wait).await;
            return Ok(answer.into());
        };
        let id = codemode_protocol::ids::unguessable::<8>("task_")
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        tasks.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(id.clone(), None);
        let done = Arc::clone(tasks);
        let key = id.clone();
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            done.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(key, Some(answer));
        });
        let stamp = "2026-12-03T00:00:00Z";
        Ok(CallToolResponse::Task(CreateTaskResult::new(
            Task::new(id, TaskStatus::Working, stamp, stamp).with_poll_interval_ms(POLL_MS),
        )))
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let tasks = self.tasks.as_ref().ok_or_else(|| ErrorData::invalid_request("no tasks here", None))?;
        let state = tasks.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(&request.task_id).cloned();
        let payload = match state {
            None => return Err(ErrorData::invalid_params(format!("no task {}", request.task_id), None)),
            Some(None) => TaskPayload::Working,
            Some(Some(result)) => {
                let Ok(Value::Object(result)) = serde_json::to_value(result) else {
                    return Err(ErrorData::internal_error("the result is not an object", None));
                };
                TaskPayload::Completed { result: result.into_iter().collect() }
            }
        };
        let stamp = "2026-12-03T00:00:00Z";
        let task = Task::new(request.task_id, payload_status(&payload), stamp, stamp).with_poll_interval_ms(POLL_MS);
        Ok(GetTaskResult::new(DetailedTask::new(task, payload)))
    }
}

fn payload_status(payload: &TaskPayload) -> TaskStatus {
    if matches!(payload, TaskPayload::Working) { TaskStatus::Working } else { TaskStatus::Completed }
}

/// Serves `worker` on a loopback port until the process ends: its URL.
async fn serve(worker: Worker) -> Result<String> {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    let service = Arc::new(StreamableHttpService::new(
        move || Ok(worker.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    ));
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let service = Arc::clone(&service);
            tokio::spawn(async move {
                let handler = hyper::service::service_fn(move |request| {
                    let service = Arc::clone(&service);
                    async move { Ok::<_, std::convert::Infallible>(service.handle(request).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), handler)
                    .await;
            });
        }
    });
    Ok(url)
}

/// One server time's samples.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct McpTaskRow {
    /// The tool's own time.
    server_ms: u64,
    direct_ms: Quantiles,
    task_ms: Quantiles,
    /// p50 task − p50 direct.
    overhead_ms: f64,
}

/// The scenario's rows.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct McpTaskReport {
    poll_interval_ms: u64,
    rows: Vec<McpTaskRow>,
}

/// Runs `mcp_task`.
pub(crate) async fn measure(runs: usize, warmup: usize) -> Result<McpTaskReport> {
    let direct = serve(Worker { tasks: None }).await?;
    let tasks = serve(Worker { tasks: Some(Tasks::default()) }).await?;
    let rt = CodeMode::builder()
        .mcp_server(McpServerConfig::http("direct", direct))
        .mcp_server(McpServerConfig::http("tasks", tasks))
        .start()
        .await?;
    if !rt.mcp_ready(Duration::from_secs(10)).await {
        anyhow::bail!("the bench's MCP servers did not connect");
    }
    let reply = rt.session("bench-mcp-task").reply("r");
    let mut rows = Vec::new();
    for server_ms in [0_u64, 50] {
        let (mut direct, mut task) = (Vec::new(), Vec::new());
        for i in 0..warmup + runs {
            for (server, samples) in [("direct", &mut direct), ("tasks", &mut task)] {
                let code = format!("return (await MCP.{server}.work({{ms: {server_ms}}})).content[0].text");
                let start = Instant::now();
                let result = reply.exec(Exec::code(code)).await?;
                let took = ms(start.elapsed());
                expect(&result, "completed", server).with_context(|| format!("{server} at {server_ms} ms"))?;
                if i >= warmup {
                    samples.push(took);
                }
            }
        }
        let (direct, task) = (quantiles(&direct), quantiles(&task));
        rows.push(McpTaskRow { server_ms, overhead_ms: task.p50 - direct.p50, direct_ms: direct, task_ms: task });
    }
    drop(reply);
    rt.shutdown().await;
    Ok(McpTaskReport { poll_interval_ms: POLL_MS, rows })
}

/// Prints the scenario's rows.
pub(crate) fn print(r: &McpTaskReport) {
    for row_ in &r.rows {
        row(&format!("17 MCP call, server {} ms: direct", row_.server_ms), &row_.direct_ms);
        row("  same, as a task", &row_.task_ms);
        println!(
            "  task overhead (p50 task − direct): {:.3} ms; poll interval {} ms",
            row_.overhead_ms, r.poll_interval_ms
        );
    }
}
