//! What decoding a request may consult besides its arguments.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::engine::determinism::McpRoute;
use crate::mcp::McpHub;

pub(crate) use crate::engine::host::CompleteArguments;

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
