//! A fixture MCP server for the tests, built with rmcp's server side:
//! colliding names, defaults, enums, nested schemas, an erroring tool, a
//! slow tool, non-text content and a reserved name. Speaks MCP on stdio.
//! It counts its own concurrency (`concurrency`), so tests can check what
//! the client really ran at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};

/// `slow` calls running now, the most ever at once, and how many started.
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
static MAX_IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
static STARTED: AtomicUsize = AtomicUsize::new(0);

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
    tools: Arc<std::sync::Mutex<Vec<Tool>>>,
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
            "concurrency",
            "How many `slow` calls started, run now, and ran at most at once.",
            json!({"type": "object"}),
        ),
    ]
}

impl ServerHandler for Fixture {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("fixture", "1.0.0"))
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
        let result = match request.name.as_ref() {
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

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Fixture { tools: Arc::new(std::sync::Mutex::new(fixture_tools())) };
    let running = server.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
