//! What decoding a request may consult besides its arguments.

use std::collections::HashMap;

use crate::engine::determinism::McpRoute;
use crate::mcp::McpHub;

/// What decoding may consult besides the arguments: the MCP servers (a
/// call's defaults and required arguments are checked before it is
/// admitted) and where a replayed namespace's servers are now.
pub(crate) struct DecodeCx<'a> {
    pub mcp: &'a McpHub,
    pub routes: Option<&'a HashMap<usize, McpRoute>>,
}

impl DecodeCx<'_> {
    /// This process's hub index of the server the guest's namespace calls
    /// `server` (`None`: removed since the run began).
    pub(crate) fn hub_index(&self, server: usize) -> Option<usize> {
        crate::engine::determinism::hub_index(self.routes, server)
    }
}
