//! A fixture MCP server for the tests, built with rmcp's server side:
//! colliding names, defaults, enums, nested schemas, an erroring tool, a
//! slow tool, non-text content and a reserved name. Speaks MCP on stdio,
//! or on streamable HTTP with `FIXTURE_HTTP=127.0.0.1:0` (it prints the
//! bound address on its first line of stdout). It counts its own
//! concurrency (`concurrency`), so tests can check what the client really
//! ran at once.
//!
//! With `FIXTURE_TASKS=1` it speaks the MCP tasks extension (SEP-2663):
//! `research` then runs as a task the client polls (`tasks/get`) and may
//! cancel; `research_count` says how many research tasks started and how
//! many were cancelled. Tasks live in the process, shared by every
//! session, so a client on another connection can poll them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, ContentBlock, CreateTaskResult,
    DetailedTask, ErrorData, GetTaskParams, GetTaskResult, Implementation, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Task, TaskPayload, TaskStatus, Tool, UpdateTaskParams,
};
use rmcp::model::{ElicitRequest, ElicitRequestParams, ElicitationSchema, InputRequest};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};

/// `slow` calls running now, the most ever at once, and how many started.
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
static MAX_IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
static STARTED: AtomicUsize = AtomicUsize::new(0);

/// Research tasks started and cancelled.
static RESEARCH_STARTED: AtomicUsize = AtomicUsize::new(0);
static RESEARCH_CANCELLED: AtomicUsize = AtomicUsize::new(0);

/// One research task: where it stands, and its work while it runs.
struct Research {
    status: TaskStatus,
    result: Option<CallToolResult>,
    work: Option<tokio::task::AbortHandle>,
    /// Asking for confirmation first: the work's arguments until answered.
    asking: Option<Map<String, Value>>,
}

/// The input request of a research task that asks first.
fn confirm_request() -> InputRequest {
    let schema: ElicitationSchema = serde_json::from_value(json!({
        "type": "object",
        "properties": {"go": {"type": "boolean", "default": true}, "note": {"type": "string"}},
        "required": ["go"]
    }))
    .unwrap();
    let params = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: "Research this topic for real?".into(),
        requested_schema: schema,
    };
    InputRequest::Elicitation(ElicitRequest::new(params))
}

static TASKS: LazyLock<Mutex<HashMap<String, Research>>> = LazyLock::new(|| Mutex::new(HashMap::new()));

const STAMP: &str = "2026-12-01T00:00:00Z";

fn tasks_enabled() -> bool {
    std::env::var("FIXTURE_TASKS").is_ok_and(|v| v == "1")
}

/// Starts `research` as a task that answers after `ms` (with `ask`, once
/// the client answered its confirmation request).
fn start_research(args: &Map<String, Value>) -> CreateTaskResult {
    let n = RESEARCH_STARTED.fetch_add(1, Ordering::SeqCst) + 1;
    let id = format!("research-{}-{n}", std::process::id());
    if args.get("ask").and_then(Value::as_bool) == Some(true) {
        let asking =
            Research { status: TaskStatus::InputRequired, result: None, work: None, asking: Some(args.clone()) };
        TASKS.lock().unwrap().insert(id.clone(), asking);
        return CreateTaskResult::new(Task::new(id, TaskStatus::InputRequired, STAMP, STAMP).with_poll_interval_ms(20));
    }
    run_research(id.clone(), args, None);
    CreateTaskResult::new(Task::new(id, TaskStatus::Working, STAMP, STAMP).with_poll_interval_ms(20))
}

/// The research work of task `id`, answering with `answer` (the
/// confirmation's, if it asked).
fn run_research(id: String, args: &Map<String, Value>, answer: Option<Value>) {
    let ms = args.get("ms").and_then(Value::as_u64).unwrap_or(0);
    let fail = args.get("fail").and_then(Value::as_bool).unwrap_or(false);
    let topic = args.get("topic").and_then(Value::as_str).unwrap_or("nothing").to_owned();
    let key = id.clone();
    let answer = answer.unwrap_or(Value::Null);
    let work = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(ms)).await;
        let mut tasks = TASKS.lock().unwrap();
        if let Some(t) = tasks.get_mut(&key) {
            if fail {
                t.status = TaskStatus::Failed;
            } else {
                t.status = TaskStatus::Completed;
                let mut r = CallToolResult::success(vec![ContentBlock::text(format!("report on {topic}"))]);
                r.structured_content = Some(json!({"topic": topic, "task": key, "answer": answer}));
                t.result = Some(r);
            }
            t.work = None;
        }
    });
    TASKS.lock().unwrap().insert(
        id,
        Research { status: TaskStatus::Working, result: None, work: Some(work.abort_handle()), asking: None },
    );
}

/// Counts one running `slow` call while it lives.
struct Running;

impl Running {
    fn start() -> Self {
        STARTED.fetch_add(1, Ordering::SeqCst);
        let now = IN_FLIGHT.fetch_add(1, Ordering::SeqCst) + 1;
        MAX_IN_FLIGHT.fetch_max(now, Ordering::SeqCst);
        Self
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
    }
}

#[derive(Clone)]
struct Fixture {
    tools: Arc<Mutex<Vec<Tool>>>,
}

fn tool(name: &'static str, description: &str, schema: Value) -> Tool {
    Tool::new(name, description.to_owned(), Arc::new(schema.as_object().cloned().unwrap_or_default()))
}

fn fixture_tools() -> Vec<Tool> {
    vec![
        tool(
            "list_invoices",
            "List a customer's invoices.\nOverdue ones first.",
            json!({"type": "object", "properties": {
                "customer": {"type": "string", "description": "Customer id."},
                "currency": {"type": "string", "enum": ["EUR", "USD"], "default": "EUR"},
                "filter": {"type": "object", "properties": {"overdue": {"type": "boolean"}, "minAmount": {"type": ["number", "null"]}}}
            }, "required": ["customer", "currency"]}),
        ),
        tool("listInvoices", "The camel-cased twin of list_invoices.", json!({"type": "object", "properties": {}})),
        tool(
            "echo",
            "Echo the arguments back as structured content.",
            json!({"type": "object", "additionalProperties": true}),
        ),
        tool("fail", "Always reports an error in-band.", json!({"type": "object"})),
        tool(
            "slow",
            "Sleeps for ms milliseconds.",
            json!({"type": "object", "properties": {"ms": {"type": "integer"}}, "required": ["ms"]}),
        ),
        // Annotated read-only: replay-safe by default.
        tool("picture", "Returns an image block.", json!({"type": "object"}))
            .annotate(rmcp::model::ToolAnnotations::default().read_only(true)),
        tool("constructor", "A tool with a reserved name.", json!({"type": "object"})),
        tool("crash", "Exits the server process mid-call.", json!({"type": "object"})),
        tool("long_description", &format!("x{}", "🦞".repeat(300)), json!({"type": "object"})),
        tool("add_tool", "Adds `dynamic_tool` and announces tools/list_changed.", json!({"type": "object"})),
        tool(
            "research",
            "Researches a topic for ms milliseconds; a task when the client speaks tasks.",
            json!({"type": "object", "properties": {"topic": {"type": "string"}, "ms": {"type": "integer"}, "fail": {"type": "boolean"}}}),
        ),
        tool("research_count", "How many research tasks started and were cancelled.", json!({"type": "object"})),
        tool(
            "concurrency",
            "How many `slow` calls started, run now, and ran at most at once.",
            json!({"type": "object"}),
        ),
    ]
}

impl ServerHandler for Fixture {
    fn get_info(&self) -> ServerConfig {
        let capabilities = if tasks_enabled() {
            ServerCapabilities::builder().enable_tools().enable_tasks().build()
        } else {
            ServerCapabilities::builder().enable_tools().build()
        };
        ServerConfig::new(capabilities).with_server_info(Implementation::new("fixture", "1.0.0"))
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let tasks = TASKS.lock().unwrap();
        let Some(t) = tasks.get(&request.task_id) else {
            return Err(ErrorData::invalid_params(format!("no task {}", request.task_id), None));
        };
        let payload = match (t.status, &t.result) {
            (TaskStatus::Completed, Some(result)) => TaskPayload::Completed {
                result: serde_json::to_value(result).unwrap().as_object().cloned().unwrap_or_default(),
            },
            (TaskStatus::Failed, _) => TaskPayload::Failed {
                error: json!({"code": -32603, "message": "the research failed"})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            },
            (TaskStatus::Cancelled, _) => TaskPayload::Cancelled,
            (TaskStatus::InputRequired, _) => TaskPayload::InputRequired {
                input_requests: [("confirm-1".to_owned(), confirm_request())].into_iter().collect(),
            },
            _ => TaskPayload::Working,
        };
        let task = Task::new(request.task_id, t.status, STAMP, STAMP).with_poll_interval_ms(20);
        Ok(GetTaskResult::new(DetailedTask::new(task, payload)))
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let args = {
            let mut tasks = TASKS.lock().unwrap();
            let Some(t) = tasks.get_mut(&request.task_id) else {
                return Err(ErrorData::invalid_params(format!("no task {}", request.task_id), None));
            };
            let Some(answer) = request.input_responses.get("confirm-1") else {
                return Err(ErrorData::invalid_params("no answer to confirm-1", None));
            };
            if let Ok(path) = std::env::var("FIXTURE_ANSWER_LOG") {
                use std::io::Write;
                let mut log = std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap();
                let _ = writeln!(log, "{answer}");
            }
            let Some(args) = t.asking.take() else { return Ok(()) };
            t.status = TaskStatus::Working;
            (args, answer.clone())
        };
        run_research(request.task_id, &args.0, Some(args.1));
        Ok(())
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let mut tasks = TASKS.lock().unwrap();
        let Some(t) = tasks.get_mut(&request.task_id) else {
            return Err(ErrorData::invalid_params(format!("no task {}", request.task_id), None));
        };
        if let Some(work) = t.work.take() {
            work.abort();
        }
        if matches!(t.status, TaskStatus::Working | TaskStatus::InputRequired) {
            t.status = TaskStatus::Cancelled;
            t.asking = None;
            RESEARCH_CANCELLED.fetch_add(1, Ordering::SeqCst);
        }
        Ok(())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.lock().unwrap().clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args: Map<String, Value> = request.arguments.unwrap_or_default();
        let client_tasks = context.client_capabilities().is_some_and(|c| c.supports_tasks());
        let result = match request.name.as_ref() {
            "research" if tasks_enabled() && client_tasks => return Ok(CallToolResponse::Task(start_research(&args))),
            "research" => {
                RESEARCH_STARTED.fetch_add(1, Ordering::SeqCst);
                let ms = args.get("ms").and_then(Value::as_u64).unwrap_or(0);
                tokio::time::sleep(Duration::from_millis(ms)).await;
                CallToolResult::success(vec![ContentBlock::text("report, at once")])
            }
            "research_count" => {
                let mut r = CallToolResult::success(vec![ContentBlock::text("research counts")]);
                r.structured_content = Some(json!({
                    "started": RESEARCH_STARTED.load(Ordering::SeqCst),
                    "cancelled": RESEARCH_CANCELLED.load(Ordering::SeqCst),
                }));
                r
            }
            "list_invoices" => {
                let mut r =
                    CallToolResult::success(vec![ContentBlock::text(format!("invoices of {}", args["customer"]))]);
                r.structured_content = Some(json!({"args": args, "invoices": [{"id": "inv-1", "amount": 10}]}));
                r
            }
            "listInvoices" => CallToolResult::success(vec![ContentBlock::text("the camel twin")]),
            "echo" => {
                let mut r = CallToolResult::success(vec![ContentBlock::text("echo")]);
                r.structured_content = Some(Value::Object(args));
                r.meta = Some(serde_json::from_value(json!({"private": true})).unwrap_or_default());
                r
            }
            "fail" => {
                let mut r = CallToolResult::success(vec![ContentBlock::text("the upstream service refused")]);
                r.is_error = Some(true);
                r
            }
            "slow" => {
                let _running = Running::start();
                let ms = args.get("ms").and_then(Value::as_u64).unwrap_or(0);
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(ms)) => {}
                    () = context.ct.cancelled() => {
                        // Tests check that an aborted cell cancels its call.
                        if let Ok(path) = std::env::var("FIXTURE_CANCEL_LOG") {
                            let _ = std::fs::write(path, format!("cancelled slow {ms}"));
                        }
                        return Err(ErrorData::internal_error("cancelled", None));
                    }
                }
                CallToolResult::success(vec![ContentBlock::text(format!("slept {ms}"))])
            }
            "picture" => CallToolResult::success(vec![ContentBlock::image("iVBORw0KGgo=", "image/png")]),
            "constructor" => CallToolResult::success(vec![ContentBlock::text("constructed")]),
            "crash" => std::process::exit(3),
            "long_description" => CallToolResult::success(vec![ContentBlock::text("long")]),
            "add_tool" => {
                self.tools.lock().unwrap().push(tool("dynamic_tool", "Added at run time.", json!({"type": "object"})));
                let _ = context.peer.notify_tool_list_changed().await;
                CallToolResult::success(vec![ContentBlock::text("added")])
            }
            "dynamic_tool" => CallToolResult::success(vec![ContentBlock::text("dynamic")]),
            "concurrency" => {
                let mut r = CallToolResult::success(vec![ContentBlock::text("counts")]);
                r.structured_content = Some(json!({
                    "started": STARTED.load(Ordering::SeqCst),
                    "inFlight": IN_FLIGHT.load(Ordering::SeqCst),
                    "max": MAX_IN_FLIGHT.load(Ordering::SeqCst),
                }));
                r
            }
            other => return Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
        };
        Ok(result.into())
    }
}

/// Serves streamable HTTP at `addr` until killed; every session shares the
/// process's tasks.
async fn serve_http(addr: &str, tools: Arc<Mutex<Vec<Tool>>>) -> Result<(), Box<dyn std::error::Error>> {
    use hyper_util::rt::{TokioExecutor, TokioIo};
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

    let listener = tokio::net::TcpListener::bind(addr).await?;
    println!("{}", listener.local_addr()?);
    let service = Arc::new(StreamableHttpService::new(
        move || Ok(Fixture { tools: Arc::clone(&tools) }),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    ));
    loop {
        let (stream, _) = listener.accept().await?;
        let service = Arc::clone(&service);
        tokio::spawn(async move {
            let handler = hyper::service::service_fn(move |request| {
                let service = Arc::clone(&service);
                async move { Ok::<_, std::convert::Infallible>(service.handle(request).await) }
            });
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), handler)
                .await;
        });
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tools = Arc::new(Mutex::new(fixture_tools()));
    if let Ok(addr) = std::env::var("FIXTURE_HTTP") {
        return serve_http(&addr, tools).await;
    }
    let server = Fixture { tools };
    let running = server.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
