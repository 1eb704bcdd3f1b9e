//! Native tools for codemode.
//!
//! A [`Tool`] is host code a cell calls as an async global function
//! (GA-6.1). Tools are registered once per runtime in a [`Registry`], which
//! rejects duplicate and uninstallable names before any cell runs.

mod registry;
mod tool;

pub use registry::{Registry, RegistryError};
pub use tool::{Tool, ToolError, ToolFuture, ToolOutput, ToolSource};
