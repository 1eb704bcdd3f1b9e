//! MCP servers as typed guest namespaces for codemode:
//! `MCP.<server>.<tool>(args)` (GA-9, reference notes §7).
//!
//! Each configured server has one connection actor ([`server`]) that keeps
//! an `rmcp` client session to it. The [`McpHub`] publishes a read-mostly
//! snapshot of every server's tools — the [`McpTree`] a new cell builds its
//! `MCP` namespace from — and routes calls to the right connection.
//!
//! `config` says how to reach a server, `tree` is the namespace, `hub` the
//! hub, `dts` the declarations and `$api` answers, `error` every failure.

#![deny(clippy::unwrap_used, clippy::expect_used)]

mod config;
mod dts;
mod error;
#[cfg(test)]
mod golden_tests;
mod hub;
pub mod naming;
mod probe;
mod process_group;
mod server;
mod tasks;
mod tree;

pub use config::{McpServerConfig, McpTransport};
pub use dts::{api_response, index_declaration, server_declaration, unknown_tool};
pub use error::{
    McpCallError, McpHubError, McpRestartError, MissingArguments, RequestTooLarge, UnknownTool, UnknownToolHint,
};
pub use hub::{McpHub, McpServerStatus};
pub use probe::{ProbeReport, probe};
pub use process_group::end_all_server_processes;
pub use server::McpStartError;
pub use tasks::{InputAnswer, InputAsk, MAX_POLL, MIN_POLL, McpTask, OnInput, OnTask, TaskForm, TaskHooks};
pub use tree::{McpMethod, McpServerTree, McpToolInfo, McpTree, handles};
