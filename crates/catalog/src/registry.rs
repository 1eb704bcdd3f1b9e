//! The registry of native tools, built once per runtime.

use std::collections::HashSet;
use std::sync::Arc;

use crate::tool::Tool;

/// A tool registration that cannot be accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// Two tools share a name.
    #[error("two tools are named `{0}`; tool names must be unique")]
    Duplicate(String),
    /// A tool's name is empty or too long.
    #[error("tool name `{0}` is invalid: names are 1 to 128 characters")]
    InvalidName(String),
}

/// The native tools of one runtime, in registration order.
#[derive(Clone, Default)]
pub struct Registry {
    tools: Vec<Arc<dyn Tool>>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.tools.iter().map(|t| t.name()))
            .finish()
    }
}

impl Registry {
    /// Builds a registry, rejecting duplicate and invalid names.
    ///
    /// # Errors
    /// The first duplicate or invalid name.
    pub fn new(tools: Vec<Arc<dyn Tool>>) -> Result<Self, RegistryError> {
        let mut seen = HashSet::new();
        for tool in &tools {
            let name = tool.name();
            if name.is_empty() || name.chars().count() > 128 {
                return Err(RegistryError::InvalidName(name.to_owned()));
            }
            if !seen.insert(name.to_owned()) {
                return Err(RegistryError::Duplicate(name.to_owned()));
            }
        }
        Ok(Self { tools })
    }

    /// The tools, in registration order.
    #[must_use]
    pub fn tools(&self) -> &[Arc<dyn Tool>] {
        &self.tools
    }

    /// The tool at `index`.
    #[must_use]
    pub fn get(&self, index: usize) -> Option<&Arc<dyn Tool>> {
        self.tools.get(index)
    }
}
