//! What decoding a request may consult besides its arguments.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::engine::determinism::McpRoute;
use crate::mcp::McpHub;

/// Completes an MCP call's arguments from its tool's input schema before
/// the call is admitted (GA-9.4). A synchronous read of the host's
/// configuration, as data in and out: the MCP hub answers it in process,
/// and an engine in another process asks its host.
pub(crate) trait CompleteArguments {
    /// Fills `args` with the schema defaults of `tool` on hub server
    /// `hub`; the error says which required arguments are missing.
    fn complete_arguments(&self, hub: usize, tool: &str, args: &mut Map<String, Value>) -> Result<(), String>;
}

impl CompleteArguments for McpHub {
    fn complete_arguments(&self, hub: usize, tool: &str, args: &mut Map<String, Value>) -> Result<(), String> {
        McpHub::complete_arguments(self, hub, tool, args).map_err(|missing| missing.to_string())
    }
}

/// What decoding may consult besides the arguments: the MCP servers (a
/// call's defaults and required arguments are checked before it is
/// admitted) and where a replayed namespace's servers are now.
pub(crate) struct DecodeCx<'a> {
    pub mcp: &'a dyn CompleteArguments,
    pub routes: Option<&'a HashMap<usize, McpRoute>>,
}

impl DecodeCx<'_> {
    /// This process's hub index of the server the guest's namespace calls
    /// `server` (`None`: removed since the run began).
    pub(crate) fn hub_index(&self, server: usize) -> Option<usize> {
        crate::engine::determinism::hub_index(self.routes, server)
    }
}
