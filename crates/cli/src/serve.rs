//! `codemode serve`: code mode as an MCP server.
//!
//! Exposes two tools, `exec` and `wait`, whose descriptions and input
//! schemas are exactly `CodeMode::exec_tool_description()`. One long-lived
//! runtime serves every call, so parked cells, the session store and saved
//! results work across calls. Each connection is one session and one reply.

use std::sync::Arc;

use anyhow::Result;
use codemode_runtime::{CellResult, CodeMode, Exec, Reply};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::{Map, Value};

/// The MCP handler: one runtime, one session and reply per connection.
#[derive(Clone)]
pub(crate) struct CodeModeServer {
    rt: CodeMode,
    reply: Reply,
    tools: Arc<Vec<Tool>>,
}

fn schema_object(v: &Value) -> Arc<Map<String, Value>> {
    Arc::new(v.as_object().cloned().unwrap_or_default())
}

impl CodeModeServer {
    pub(crate) fn new(rt: CodeMode, session: &str) -> Self {
        let d = rt.exec_tool_description();
        let tools = vec![
            Tool::new(d.exec.name, d.exec.description.clone(), schema_object(&d.exec.input_schema)),
            Tool::new(d.wait.name, d.wait.description.clone(), schema_object(&d.wait.input_schema)),
        ];
        let reply = rt.session(session).reply(session);
        Self { rt, reply, tools: Arc::new(tools) }
    }

    async fn call(&self, name: &str, args: &Map<String, Value>) -> Result<CellResult, String> {
        match name {
            "exec" => {
                let code =
                    args.get("code").and_then(Value::as_str).ok_or("exec needs `code`: a string of JavaScript")?;
                let mut exec = Exec::code(code);
                if let Some(title) = args.get("title").and_then(Value::as_str) {
                    exec = exec.title(title);
                }
                if let Some(flag) = args.get("restartSafe") {
                    exec = exec.restart_safe(flag.as_bool().ok_or("restartSafe must be a boolean.")?);
                }
                self.reply.exec(exec).await.map_err(|e| e.to_string())
            }
            "wait" => {
                let run_id = args
                    .get("runId")
                    .or_else(|| args.get("run_id"))
                    .and_then(Value::as_str)
                    .ok_or("runId must be a non-empty string.")?;
                self.reply.wait(run_id).await.map_err(|e| e.to_string())
            }
            other => Err(format!("unknown tool `{other}`; this server has `exec` and `wait`")),
        }
    }
}

impl ServerHandler for CodeModeServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("codemode", env!("CARGO_PKG_VERSION")))
            .with_instructions("Write JavaScript cells with `exec`; resume parked cells with `wait`.")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let _ = &self.rt;
        let result = match self.call(&request.name, &args).await {
            Ok(result) => {
                let failed = matches!(result, CellResult::Failed { .. });
                let mut r = CallToolResult::success(vec![ContentBlock::text(result.to_model_text())]);
                r.is_error = Some(failed);
                r
            }
            Err(message) => {
                let mut r = CallToolResult::success(vec![ContentBlock::text(message)]);
                r.is_error = Some(true);
                r
            }
        };
        Ok(result.into())
    }
}

/// Serves MCP over streamable HTTP at `addr` (path `/mcp`) until the
/// process ends. Each MCP session gets its own code mode session.
pub(crate) async fn http(rt: CodeMode, addr: &str) -> Result<()> {
    use hyper_util::rt::{TokioExecutor, TokioIo};
    use hyper_util::server::conn::auto::Builder;
    use hyper_util::service::TowerToHyperService;
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("codemode: serving MCP over HTTP at http://{}/mcp", listener.local_addr()?);
    let counter = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let service = StreamableHttpService::new(
        move || {
            let n = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok(CodeModeServer::new(rt.clone(), &format!("mcp-http-{n}")))
        },
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    loop {
        let (stream, _) = listener.accept().await?;
        let service = TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let _ =
                Builder::new(TokioExecutor::new()).serve_connection_with_upgrades(TokioIo::new(stream), service).await;
        });
    }
}

/// Serves one MCP client over stdin/stdout until it disconnects.
pub(crate) async fn stdio(rt: CodeMode) -> Result<()> {
    let server = CodeModeServer::new(rt, "mcp");
    let running = server.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
