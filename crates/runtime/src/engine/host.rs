//! The engine's one dependency on the host that runs it, as a trait: the
//! requests a guest can make (each one's wire name, how it is decoded from
//! the prelude's arguments, the bound that admits it and how it is
//! answered) and the configuration the guest API reads synchronously (tool
//! metadata, the MCP namespace).
//!
//! Everything crosses as plain data — names, JSON text, a decoded request,
//! and [`Settlement`](super::settlement::Settlement)s back — so an engine
//! in another process implements the same seam with messages. The cell
//! implements it in process (`cell::guest_host`); the engine names nothing
//! of the cell, the durable runs or MCP.

use std::collections::HashMap;
use std::sync::Arc;

use super::args::Args;
use super::determinism::{ConfigReadError, McpRoute};

/// Where a replayed cell's MCP servers are in this process, by the index
/// its journaled namespace gave them.
pub(crate) type McpRoutes = HashMap<usize, McpRoute>;

/// Which bound admits a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Admission {
    /// Shares the in-flight and queue bounds (tool calls and the like).
    Ordinary,
    /// A timer: the live-timer bound.
    Timer,
    /// `yield_control`: no bound (one pending per `await`).
    Yield,
}

/// A decoded request says which bound admits it: the engine counts it
/// there, and the host counts a worker's requests again under it.
pub(crate) trait Admitted {
    /// The bound that admits this request.
    fn admission(&self) -> Admission;
}

/// How the guest receives a request's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answering {
    /// A promise the host settles (tool calls, reads, …).
    Promise,
    /// The request's id, returned at once; the host later settles a
    /// callback by that id (a timer), and a refused request throws.
    Id,
}

/// What the engine knows of a kind of request before decoding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RequestForm {
    /// The name the prelude uses (`OP.<name>`), also in decode errors.
    pub name: &'static str,
    /// The bound that admits it.
    pub admission: Admission,
    /// How it is answered.
    pub answering: Answering,
    /// Whether its rejection carries the guest's call site (`.location`):
    /// the nested calls whose errors a model debugs.
    pub call_site: bool,
}

/// Completes an MCP call's arguments from its tool's input schema before
/// the call is admitted (GA-9.4). A synchronous read of the host's
/// configuration, as data in and out: the MCP hub answers it in process,
/// and an engine in another process asks its host.
pub(crate) trait CompleteArguments {
    /// Fills `args` with the schema defaults of `tool` on hub server
    /// `hub`; the error says which required arguments are missing.
    fn complete_arguments(
        &self,
        hub: usize,
        tool: &str,
        args: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), String>;
}

/// The host of a cell's engine. It completes MCP arguments for the
/// decoding of its requests, in process or asked by a worker.
pub(crate) trait GuestHost: CompleteArguments + Clone + Send + Sync + 'static {
    /// A decoded request: plain data, so an engine in a worker can send
    /// it.
    type Request: Admitted + serde::Serialize + serde::de::DeserializeOwned + Send + std::fmt::Debug + 'static;

    /// Every request's form, in wire order (the prelude reads the numbers
    /// from `host.ops`).
    fn requests() -> &'static [RequestForm];

    /// Decodes request number `op` (in [`requests`](Self::requests)) from
    /// the prelude's arguments; `routes` says where a replayed namespace's
    /// MCP servers are now. A malformed request is a guest `TypeError`.
    fn decode(&self, op: usize, args: &Args<'_, '_>, routes: Option<&McpRoutes>) -> rquickjs::Result<Self::Request>;

    /// Checks again what decoding `request` guaranteed: an engine in a
    /// worker decoded it, so the host takes it as untrusted input. `routes`
    /// as for [`decode`](Self::decode).
    ///
    /// # Errors
    /// What decoding would have refused.
    fn recheck(&self, request: &Self::Request, routes: Option<&McpRoutes>) -> Result<(), String>;

    /// How many tool globals the guest has.
    fn tool_count(&self) -> usize;

    /// Tool `index`'s callable name.
    fn callable(&self, index: usize) -> Option<&str>;

    /// Tool `index`'s handle metadata, as JSON text (journaled: a replay
    /// reads what the run read).
    fn tool_meta(&self, index: usize) -> Result<String, ConfigReadError>;

    /// The MCP namespace as JSON text, read when a cell first touches
    /// `MCP` (journaled).
    fn mcp_tree(&self) -> Result<String, ConfigReadError>;

    /// Where a replayed namespace's servers (`tree`, as journaled) are in
    /// this process; `None` when they are where the tree says.
    fn mcp_routes(&self, tree: &str) -> Result<Option<Arc<McpRoutes>>, String>;

    /// An unknown MCP member's closest method, by the rule the
    /// declarations' messages use (`Ok(None)`: no method is close).
    fn mcp_suggestion(&self, wanted: &str, methods: &[String]) -> Result<Option<String>, ConfigReadError>;
}

/// A host with no requests, no tools and no MCP servers, for tests of the
/// engine on its own.
#[cfg(test)]
#[derive(Clone, Debug)]
pub(crate) struct BareHost;

#[cfg(test)]
impl CompleteArguments for BareHost {
    fn complete_arguments(
        &self,
        _: usize,
        _: &str,
        _: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), String> {
        Err("this host has no MCP servers".into())
    }
}

/// The request of a host that has none.
#[cfg(test)]
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) enum NoRequest {}

#[cfg(test)]
impl Admitted for NoRequest {
    fn admission(&self) -> Admission {
        match *self {}
    }
}

#[cfg(test)]
impl GuestHost for BareHost {
    type Request = NoRequest;

    fn requests() -> &'static [RequestForm] {
        &[]
    }

    fn decode(&self, _: usize, args: &Args<'_, '_>, _: Option<&McpRoutes>) -> rquickjs::Result<NoRequest> {
        Err(args.malformed("the request", "one this host has"))
    }

    fn recheck(&self, request: &NoRequest, _: Option<&McpRoutes>) -> Result<(), String> {
        match *request {}
    }

    fn tool_count(&self) -> usize {
        0
    }

    fn callable(&self, _: usize) -> Option<&str> {
        None
    }

    fn tool_meta(&self, _: usize) -> Result<String, ConfigReadError> {
        Err(ConfigReadError { what: "a tool's metadata", reason: "this host has no tools".into() })
    }

    fn mcp_tree(&self) -> Result<String, ConfigReadError> {
        Ok(r#"{"servers":[]}"#.into())
    }

    fn mcp_routes(&self, _: &str) -> Result<Option<Arc<McpRoutes>>, String> {
        Ok(None)
    }

    fn mcp_suggestion(&self, _: &str, _: &[String]) -> Result<Option<String>, ConfigReadError> {
        Ok(None)
    }
}
