//! Native tools for codemode: what a cell can call and how it finds it.
//!
//! - [`Tool`] is host code a cell calls as an async global (GA-6.1).
//! - [`Registry`] holds a runtime's tools, built once: duplicate names and
//!   unusable schemas are rejected before any cell runs; each tool gets a
//!   stable callable name ([`naming`]), compact TypeScript hints
//!   ([`hints`]) and compiled schemas ([`schema`]).
//! - [`index`] renders the quick index for the model-facing prompt.
//!
//! Everything here is plain data and pure functions; the runtime owns the
//! actors that use them.

mod actor;
pub mod collate;
pub mod files;
pub mod hints;
pub mod index;
pub mod mcp;
pub mod naming;
pub mod policy;
mod registry;
pub mod schema;
pub mod search;
mod tool;
pub mod workspace;

pub use actor::{Catalog, CatalogArgs, McpHandle, SearchConfig, SearchError, SearchHit};
pub use registry::{Registry, RegistryError, ToolEntry, ToolMetadata};
pub use tool::{Tool, ToolError, ToolFuture, ToolOutput, ToolSource};
