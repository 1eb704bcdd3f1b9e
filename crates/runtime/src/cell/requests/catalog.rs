//! `catalog.search`, a handle's `describe()` and the `API` virtual files
//! (GA-2, GA-8).

use codemode_catalog::files;

use crate::cell::host::BridgeMethod;
use crate::cell::{CellMsg, CellState, catalog_api};

impl CellState {
    pub(super) fn search(&mut self, id: u64, query: String, limit: Option<f64>) -> usize {
        self.telemetry.search_count += 1;
        let catalog = self.catalog.clone();
        let me = self.myself.clone();
        let task = async move {
            let result = catalog.search(query, limit).await;
            let _ = me.send_message(CellMsg::SearchDone(id, result));
        };
        self.host.submit_task(id, BridgeMethod::Search, false, false, task, &self.notify)
    }

    pub(super) fn describe(&mut self, id: u64, tool: usize) -> usize {
        self.telemetry.describe_count += 1;
        self.settle_inline(catalog_api::describe(&self.tools, id, tool))
    }

    pub(super) fn api_list(&mut self, id: u64, prefix: &str) -> usize {
        let files = self.all_api_files();
        // Listing MCP declarations shows server-provided text.
        self.network |= !self.mcp.is_empty() && ("mcp/".starts_with(prefix) || prefix.starts_with("mcp/"));
        self.settle_inline(catalog_api::list(&self.tools, &files, id, prefix))
    }

    pub(super) fn api_read(&mut self, id: u64, path: &str) -> usize {
        let files = self.all_api_files();
        self.network |= path.starts_with("mcp/");
        self.settle_inline(catalog_api::read(&self.tools, &files, id, path))
    }

    /// The virtual files now: the host's, plus one declaration per MCP
    /// server and `mcp/index.d.ts` (GA-2.3, GA-9.6).
    fn all_api_files(&self) -> Vec<files::ApiFile> {
        let mut all = self.api_files.as_ref().clone();
        if self.mcp.is_empty() {
            return all;
        }
        let tree = self.mcp.tree();
        let mut add = |path: String, description: String, content: String| {
            all.push(files::ApiFile { path, description, bytes: content.len(), content });
        };
        add(
            "mcp/index.d.ts".into(),
            "Root MCP namespace declaration and server list.".into(),
            crate::mcp::index_declaration(&tree),
        );
        for s in &tree.servers {
            add(
                format!("mcp/{}.d.ts", s.identifier),
                format!("MCP server declaration for {}.", s.server_name),
                crate::mcp::server_declaration(s),
            );
        }
        all
    }
}
