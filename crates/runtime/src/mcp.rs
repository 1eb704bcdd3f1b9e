//! The MCP client as the rest of this crate sees it.
//!
//! With the `mcp` feature this is `codemode_mcp` itself. Without it, an
//! [`McpHub`] that can only be empty stands in: no server can be
//! configured (`CodeModeBuilder::mcp_server` does not exist), so cells see
//! exactly what they see when no server is configured — `MCP` with no
//! namespaces, a root `MCP.$api()` listing none, no `mcp/` API files — and
//! nothing links rmcp or an HTTP client. Code under `cell/` names these
//! items through `crate::mcp`, never `codemode_mcp`, so it builds either
//! way without `cfg`s of its own.

#[cfg(feature = "mcp")]
pub(crate) use codemode_mcp::naming::suggestion;
#[cfg(feature = "mcp")]
pub(crate) use codemode_mcp::{McpHub, api_response, index_declaration, server_declaration};

#[cfg(not(feature = "mcp"))]
pub(crate) use off::{McpHub, UnknownServer, api_response, index_declaration, server_declaration, suggestion};

#[cfg(not(feature = "mcp"))]
mod off {
    use std::convert::Infallible;

    use codemode_catalog::{McpHandle, McpSource};
    use ractor::ActorCell;
    use serde::ser::{Serialize, SerializeStruct, Serializer};
    use serde_json::{Map, Value, json};

    /// `codemode_mcp::McpCallError::UnknownServer`: the answer to a call on
    /// a server that is not configured (with no MCP, every server).
    #[derive(Debug, thiserror::Error)]
    #[error("unknown MCP server")]
    pub(crate) struct UnknownServer;

    /// The method `wanted` most likely meant: none, with no server (the
    /// namespace that asks has no members to suggest).
    pub(crate) fn suggestion<'a>(_wanted: &str, _methods: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
        None
    }

    /// Missing MCP arguments: never, with no server to call.
    pub(crate) type MissingArguments = Infallible;

    /// An unknown `$api` selector: never, with no server to select in.
    pub(crate) type UnknownTool = Infallible;

    /// The MCP hub with no servers: the only one there is without the
    /// `mcp` feature.
    #[derive(Clone, Debug, Default)]
    pub(crate) struct McpHub;

    /// One server of the namespace. Never exists: there are no servers.
    pub(crate) struct McpServerTree {
        pub(crate) index: usize,
        pub(crate) identifier: String,
        pub(crate) server_name: String,
        never: Infallible,
    }

    /// The namespace: always empty (`{"servers":[]}`, like
    /// `codemode_mcp::McpTree::default()`).
    #[derive(Default)]
    pub(crate) struct McpTree {
        pub(crate) servers: Vec<McpServerTree>,
    }

    impl Serialize for McpTree {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut s = serializer.serialize_struct("McpTree", 1)?;
            s.serialize_field("servers", &[(); 0])?;
            s.end()
        }
    }

    impl McpHub {
        /// Whether any server is configured: never.
        pub(crate) fn is_empty(&self) -> bool {
            true
        }

        /// The empty namespace.
        pub(crate) fn tree(&self) -> McpTree {
            McpTree::default()
        }

        /// No server, so no tool is replay-safe.
        pub(crate) fn replay_safe(&self, _index: usize, _tool: &str) -> bool {
            false
        }

        /// No server, so nothing to complete: the call fails as a call to
        /// an unknown server.
        pub(crate) fn complete_arguments(
            &self,
            _index: usize,
            _tool: &str,
            _args: &mut Map<String, Value>,
        ) -> Result<(), MissingArguments> {
            Ok(())
        }

        /// No server has a name.
        pub(crate) fn server_name(&self, _index: usize) -> Option<&str> {
            None
        }

        /// No server, so no tool is declared.
        pub(crate) fn declares(&self, _index: usize, _tool: &str) -> bool {
            false
        }

        /// Every call names an unknown server.
        pub(crate) async fn call_with_tasks(
            &self,
            _index: usize,
            _tool: String,
            _args: Map<String, Value>,
            _hooks: codemode_protocol::TaskHooks,
        ) -> Result<Value, UnknownServer> {
            Err(UnknownServer)
        }

        /// There is no task to poll.
        pub(crate) async fn resume_task(
            &self,
            _index: usize,
            _tool: &str,
            _task: &codemode_protocol::McpTask,
            _on_input: Option<codemode_protocol::OnInput>,
        ) -> Result<Value, UnknownServer> {
            Err(UnknownServer)
        }

        /// There is no task to cancel.
        pub(crate) async fn cancel_task(
            &self,
            _index: usize,
            _tool: &str,
            _task: &codemode_protocol::McpTask,
        ) -> Result<(), UnknownServer> {
            Err(UnknownServer)
        }

        /// No server has a name.
        pub(crate) fn index_of(&self, _name: &str) -> Option<usize> {
            None
        }

        /// Every operation names an unknown server.
        pub(crate) async fn operation(
            &self,
            _index: usize,
            _op: &str,
            _args: Map<String, Value>,
        ) -> Result<Value, UnknownServer> {
            Err(UnknownServer)
        }

        /// Nothing to stop.
        pub(crate) fn stop(&self) {}

        /// No connection actors.
        pub(crate) fn actors(&self) -> Vec<ActorCell> {
            Vec::new()
        }

        /// There is no server to restart.
        pub(crate) async fn restart_server(
            &self,
            _index: usize,
            _supervisor: ActorCell,
        ) -> Result<ActorCell, UnknownServer> {
            Err(UnknownServer)
        }
    }

    /// Search finds no MCP tools.
    impl McpSource for McpHub {
        fn handles(&self) -> Vec<McpHandle> {
            Vec::new()
        }
    }

    /// `codemode_mcp::index_declaration` of an empty tree.
    pub(crate) fn index_declaration(_tree: &McpTree) -> String {
        "interface McpRootApiHeader { header: string; servers?: unknown[] }\ndeclare namespace MCP { function $api(): Promise<McpRootApiHeader>; }\n".to_owned()
    }

    /// Never called: there is no server to declare.
    pub(crate) fn server_declaration(server: &McpServerTree) -> String {
        match server.never {}
    }

    /// `codemode_mcp::api_response` of an empty tree: the root header, no
    /// servers.
    pub(crate) fn api_response(
        tree: &McpTree,
        server: Option<&McpServerTree>,
        _selector: Option<&str>,
        _schema: bool,
    ) -> Result<Value, UnknownTool> {
        if let Some(server) = server {
            match server.never {}
        }
        Ok(json!({
            "kind": "mcp_api", "scope": "root", "header": index_declaration(tree), "servers": [],
            "note": "Call MCP.<server>.$api() for a TypeScript-style header, then call tools with one object argument matching the shown input type."
        }))
    }
}

/// Where the servers of a journaled namespace (`tree`, the JSON a replayed
/// cell's `MCP` was built from) are in this process's `hub`, by the index
/// the guest calls them: `None` when every index still names the same
/// server, so calls need no routing.
///
/// # Errors
/// The journaled namespace does not parse (a damaged journal).
pub(crate) fn routes(
    tree: &str,
    hub: &McpHub,
) -> Result<Option<std::collections::HashMap<usize, crate::engine::determinism::McpRoute>>, serde_json::Error> {
    #[derive(serde::Deserialize)]
    struct Tree {
        servers: Vec<Server>,
    }
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Server {
        index: usize,
        server_name: String,
    }
    let tree: Tree = serde_json::from_str(tree)?;
    let now = |name: &str| (0..).map_while(|i| hub.server_name(i).map(|n| (i, n))).find(|(_, n)| *n == name);
    let mut same = true;
    let mut routes = std::collections::HashMap::new();
    for server in tree.servers {
        let hub_index = now(&server.server_name).map(|(i, _)| i);
        same &= hub_index == Some(server.index);
        routes.insert(server.index, crate::engine::determinism::McpRoute { name: server.server_name, hub: hub_index });
    }
    Ok((!same).then_some(routes))
}
