//! The tool globals of one cell's engine, and how they map onto the
//! runtime's registry.
//!
//! A fresh cell's globals are the registry's tools, index for index. A run
//! resumed by replay gets the globals it started with — its journal names
//! them (callable name and catalog id) — so a deploy that added, removed
//! or reordered tools changes nothing the replayed cell can see: a tool
//! that is still configured maps to its new registry index by catalog id;
//! one the deploy removed stays a global whose journaled calls replay from
//! the journal, and whose live calls fail saying it was removed.

use std::sync::Arc;

use codemode_catalog::{Registry, ToolEntry, catalog_id_as_stored, source_as_today};

use crate::durable::journal::{ToolRef, ToolRefs};
use crate::engine::determinism::ConfigReadError;

/// One global of a replayed cell whose table differs from the registry.
#[derive(Debug)]
struct Slot {
    callable: String,
    /// The tool's catalog id (`native:<name>`).
    id: String,
    /// Its index in this runtime's registry, when still configured.
    index: Option<usize>,
}

/// A cell's tool globals (cheap to clone).
#[derive(Clone, Debug)]
pub(crate) struct ToolTable {
    registry: Registry,
    /// `None`: the registry's own tools, index for index.
    slots: Option<Arc<[Slot]>>,
}

impl ToolTable {
    /// The registry's tools: what every fresh cell gets.
    pub(crate) fn live(registry: Registry) -> Self {
        Self { registry, slots: None }
    }

    /// The table a run was journaled with, mapped onto `registry` by catalog
    /// id (an earlier build's `openclaw:<name>` finds today's
    /// `native:<name>`). The registry's own table when they are the same.
    /// A slot keeps its journaled id: the run's fingerprints were made of
    /// it.
    pub(crate) fn replayed(registry: Registry, journaled: &[ToolRef]) -> Self {
        let same = journaled.len() == registry.len()
            && journaled.iter().zip(registry.entries()).all(|(t, e)| t.0 == e.metadata.callable_name && t.1 == e.id);
        if same {
            return Self::live(registry);
        }
        let slots = journaled
            .iter()
            .map(|t| Slot {
                callable: t.0.clone(),
                id: t.1.clone(),
                index: {
                    let id = catalog_id_as_stored(&t.1);
                    registry.entries().iter().position(|e| e.id == id)
                },
            })
            .collect();
        Self { registry, slots: Some(slots) }
    }

    /// The refs a journal's header records for this table.
    pub(crate) fn refs(registry: &Registry) -> ToolRefs {
        ToolRefs(registry.entries().iter().map(|e| ToolRef(e.metadata.callable_name.clone(), e.id.clone())).collect())
    }

    /// Whether these are the registry's own tools, index for index.
    pub(crate) fn is_registry(&self) -> bool {
        self.slots.is_none()
    }

    /// How many globals.
    pub(crate) fn len(&self) -> usize {
        self.slots.as_ref().map_or(self.registry.len(), |s| s.len())
    }

    /// The configured tool behind global `index`; `None` for a tool a deploy
    /// removed since the run started, or no such global.
    pub(crate) fn get(&self, index: usize) -> Option<&ToolEntry> {
        match &self.slots {
            None => self.registry.get(index),
            Some(slots) => slots.get(index)?.index.and_then(|i| self.registry.get(i)),
        }
    }

    /// Global `index`'s callable name.
    pub(crate) fn callable(&self, index: usize) -> Option<&str> {
        match &self.slots {
            None => self.registry.get(index).map(|e| e.metadata.callable_name.as_str()),
            Some(slots) => slots.get(index).map(|s| s.callable.as_str()),
        }
    }

    /// Global `index`'s tool, by catalog id (its identity across deploys).
    pub(crate) fn id(&self, index: usize) -> Option<&str> {
        match &self.slots {
            None => self.registry.get(index).map(|e| e.id.as_str()),
            Some(slots) => slots.get(index).map(|s| s.id.as_str()),
        }
    }

    /// The global of the registry's tool `registry_index`, if this cell has
    /// one (a tool a deploy added after the run started has none).
    pub(crate) fn global_of(&self, registry_index: usize) -> Option<usize> {
        match &self.slots {
            None => (registry_index < self.registry.len()).then_some(registry_index),
            Some(slots) => slots.iter().position(|s| s.index == Some(registry_index)),
        }
    }

    /// The runtime's registry.
    pub(crate) fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Global `index`'s handle metadata (GA-8.1) as JSON. A tool a deploy
    /// removed keeps its name and says, in its description, that it was
    /// removed: listing the cell's tools still works, calling it fails.
    ///
    /// # Errors
    /// No such global, or the metadata did not serialize.
    pub(crate) fn meta_json(&self, index: usize) -> Result<String, ConfigReadError> {
        let what = "a tool handle's metadata";
        if let Some(entry) = self.get(index) {
            return serde_json::to_string(&entry.metadata).map_err(|e| ConfigReadError { what, reason: e.to_string() });
        }
        let (Some(callable), Some(id)) = (self.callable(index), self.id(index)) else {
            return Err(ConfigReadError { what, reason: format!("no tool global #{index}") });
        };
        let (source, name) = id.split_once(':').unwrap_or(("", id));
        let source = source_as_today(source);
        let meta = serde_json::json!({
            "callableName": callable,
            "toolName": name,
            "description": "Removed from this codemode process's configuration after this run started: calling it fails.",
            "source": source,
            "input": "unknown",
        });
        Ok(meta.to_string())
    }

    /// Why global `index` cannot be called live.
    pub(crate) fn missing(&self, index: usize) -> String {
        match self.callable(index) {
            Some(name) => format!(
                "{name} is no longer configured on this codemode process: it was removed after this run started. \
                 Its earlier calls were replayed from the run's journal; a new call cannot run."
            ),
            None => "unknown tool".to_owned(),
        }
    }
}
