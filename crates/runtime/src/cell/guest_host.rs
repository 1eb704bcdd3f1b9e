//! The cell's side of the engine's seam: [`CellHost`] implements the
//! engine's [`GuestHost`] with the request table (`requests`), the tool
//! globals ([`ToolTable`]) and the MCP hub; the aliases name the engine's
//! types as this runtime uses them.

use std::sync::Arc;

use super::requests::{DecodeCx, HostRequest, OpCode};
use super::tools::ToolTable;
use crate::engine::args::Args;
use crate::engine::determinism::ConfigReadError;
use crate::engine::host::{Admission, Admitted, CompleteArguments, GuestHost, McpRoutes, RequestForm};
use crate::mcp::McpHub;
use serde_json::{Map, Value};

/// A cell's engine.
pub(crate) type Engine = crate::engine::Engine<CellHost>;
/// A prepared engine (runtime, context, guest API).
pub(crate) type Vm = crate::engine::vm::Vm<CellHost>;
/// What the guest asked for during a step.
pub(crate) type Requests = crate::engine::Requests<HostRequest>;
/// What a cell's guest read from the clock and the configuration.
pub(crate) type EngineReads<'a> = crate::engine::Reads<'a, HostRequest>;
/// Where a cell's engine runs.
pub(crate) type Backing = crate::engine::Backing<CellHost>;
/// A cell's engine in a worker process.
pub(crate) type RemoteEngine = crate::engine::RemoteEngine<CellHost>;
/// The runtime's pool of prepared engines.
pub(crate) type EnginePool = crate::engine::pool::EnginePool<CellHost>;

/// The request table as an engine worker reads it: the same decoding as
/// [`CellHost`]'s, with MCP arguments completed by asking the host.
pub(crate) struct CellRequests;

impl crate::engine::remote::RequestTable for CellRequests {
    type Request = HostRequest;

    fn forms() -> &'static [RequestForm] {
        OpCode::FORMS
    }

    fn decode(
        op: usize,
        args: &Args<'_, '_>,
        mcp: &dyn CompleteArguments,
        routes: Option<&McpRoutes>,
    ) -> rquickjs::Result<HostRequest> {
        let Some(&op) = OpCode::ALL.get(op) else {
            return Err(args.malformed("the request number", "one of `host.ops`"));
        };
        HostRequest::decode(op, args, &DecodeCx { mcp, routes })
    }
}

impl Admitted for HostRequest {
    fn admission(&self) -> Admission {
        self.form().admission
    }
}

/// What a cell's engine is given: the runtime's tools and MCP servers.
#[derive(Clone)]
pub(crate) struct CellHost {
    pub tools: ToolTable,
    pub mcp: McpHub,
}

impl CompleteArguments for CellHost {
    fn complete_arguments(&self, hub: usize, tool: &str, args: &mut Map<String, Value>) -> Result<(), String> {
        CompleteArguments::complete_arguments(&self.mcp, hub, tool, args)
    }
}

impl GuestHost for CellHost {
    type Request = HostRequest;

    fn requests() -> &'static [RequestForm] {
        OpCode::FORMS
    }

    fn decode(&self, op: usize, args: &Args<'_, '_>, routes: Option<&McpRoutes>) -> rquickjs::Result<HostRequest> {
        let Some(&op) = OpCode::ALL.get(op) else {
            return Err(args.malformed("the request number", "one of `host.ops`"));
        };
        HostRequest::decode(op, args, &DecodeCx { mcp: &self.mcp, routes })
    }

    fn recheck(&self, request: &HostRequest, routes: Option<&McpRoutes>) -> Result<(), String> {
        request.recheck(&DecodeCx { mcp: &self.mcp, routes })
    }

    fn tool_count(&self) -> usize {
        self.tools.len()
    }

    fn callable(&self, index: usize) -> Option<&str> {
        self.tools.callable(index)
    }

    fn tool_meta(&self, index: usize) -> Result<String, ConfigReadError> {
        self.tools.meta_json(index)
    }

    fn mcp_tree(&self) -> Result<String, ConfigReadError> {
        serde_json::to_string(&self.mcp.tree())
            .map_err(|e| ConfigReadError { what: "the MCP namespace", reason: e.to_string() })
    }

    fn mcp_routes(&self, tree: &str) -> Result<Option<Arc<McpRoutes>>, String> {
        crate::mcp::routes(tree, &self.mcp).map(|routes| routes.map(Arc::new)).map_err(|e| e.to_string())
    }

    fn mcp_suggestion(&self, wanted: &str, methods: &[String]) -> Result<Option<String>, ConfigReadError> {
        Ok(crate::mcp::suggestion(wanted, methods.iter().map(String::as_str)).map(str::to_owned))
    }
}
