//! The tool catalog of codemode: what a cell can call, how it finds it and
//! who may call it.
//!
//! - [`Tool`] is host code a cell calls as an async global (GA-6.1).
//! - [`Registry`] holds a runtime's tools, built once: duplicate names and
//!   unusable schemas are rejected before any cell runs; each tool gets a
//!   stable callable name ([`naming`]), compact TypeScript hints
//!   ([`hints`]) and compiled schemas ([`schema`]).
//! - [`policy`]: the host [`Policy`](policy::Policy) that hides tools and
//!   sees every nested call — native, MCP or node — before it runs.
//! - [`Catalog`]: the typed handle of the catalog actor, one per runtime,
//!   which owns the BM25 [`search`] index over the native tools and the
//!   MCP tools an [`McpSource`] publishes.
//! - [`index`] renders the quick index for the model-facing prompt;
//!   [`files`] the `API` virtual files (GA-2).
//!
//! The catalog neither connects to MCP servers (`codemode-mcp`) nor
//! touches the filesystem (`codemode-tools`); both build on it.

#![deny(clippy::unwrap_used, clippy::expect_used)]

mod actor;
pub mod collate;
pub mod files;
pub mod hints;
pub mod index;
pub mod naming;
pub mod policy;
mod registry;
pub mod schema;
pub mod search;
mod tool;
mod typed;

pub use actor::{Catalog, CatalogArgs, McpHandle, McpSource, SearchConfig, SearchError, SearchHit};
pub use registry::{Registry, RegistryError, ToolEntry, ToolMetadata};
pub use tool::{
    Tool, ToolContext, ToolError, ToolFuture, ToolOutput, ToolSource, catalog_id_as_stored, source_as_today,
};
pub use typed::{TypedTool, typed_tool};
