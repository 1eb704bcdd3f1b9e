//! What a cell's journal fingerprints name its tools and MCP servers by:
//! a native tool by its catalog id, an MCP server by its configured name.

use std::collections::HashMap;

use crate::cell::requests::HostRequest;
use crate::cell::tools::ToolTable;
use crate::durable::journal::Identities;
use crate::engine::determinism::McpRoute;
use crate::mcp::McpHub;

/// A cell's identities.
pub(crate) struct CellIds<'a> {
    pub tools: &'a ToolTable,
    pub mcp: &'a McpHub,
    /// Where a replayed namespace's servers are (`None`: this process's).
    pub routes: Option<&'a HashMap<usize, McpRoute>>,
}

impl Identities for CellIds<'_> {
    fn tool(&self, tool: usize) -> Option<&str> {
        self.tools.id(tool)
    }

    fn server(&self, server: usize) -> Option<&str> {
        match self.routes {
            Some(routes) => routes.get(&server).map(|r| r.name.as_str()),
            None => self.mcp.server_name(server),
        }
    }
}

impl CellIds<'_> {
    /// The format-2 fingerprint of `request` in this cell.
    pub(crate) fn fingerprint(&self, request: &HostRequest) -> u64 {
        super::fingerprint(request, self)
    }
}
