//! The registry of native tools, built once per runtime.

use std::collections::HashSet;
use std::sync::Arc;

use codemode_protocol::budget::truncate_utf16;
use serde::Serialize;
use serde_json::Value;

use crate::hints::{input_hint, output_hint};
use crate::naming::callable_names;
use crate::schema::{SchemaError, Validator};
use crate::tool::{Tool, ToolSource};

/// Longest description a handle's metadata carries (UTF-16 units); the full
/// text comes from `describe()`.
const METADATA_DESCRIPTION_UNITS: usize = 512;

/// A tool registration that cannot be accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// Two tools share a name.
    #[error("two tools are named `{0}`; tool names must be unique")]
    Duplicate(String),
    /// A tool's name is empty or too long.
    #[error("tool name `{0}` is invalid: names are 1 to 128 characters")]
    InvalidName(String),
    /// A tool's input or output schema cannot be used.
    #[error("tool `{tool}` has an unusable {which} schema: {reason}")]
    InvalidSchema {
        /// The tool.
        tool: String,
        /// `input` or `output`.
        which: &'static str,
        /// What is wrong with it.
        #[source]
        reason: SchemaError,
    },
}

/// The bounded metadata of a catalog handle (GA-8.1): what `toJSON()` and
/// value projection show. No internal ids, no nulls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolMetadata {
    /// The name to call it by in a cell.
    pub callable_name: String,
    /// The tool's own name.
    pub tool_name: String,
    /// A short human label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// What it does (at most 512 UTF-16 units; `describe()` has it all).
    pub description: String,
    /// `native` or `client` ([`ToolSource::guest_name`]).
    pub source: &'static str,
    /// The compact input hint (`unknown` for client tools, GA-8.2).
    pub input: String,
    /// The trusted output hint, when complete (GA-8.3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
}

/// One registered tool with everything derived from it once.
pub struct ToolEntry {
    /// The tool.
    pub tool: Arc<dyn Tool>,
    /// Stable catalog id ([`ToolSource::id_prefix`]: `openclaw:<name>`,
    /// `client:<name>`): internal, never shown to the guest.
    pub id: String,
    /// Handle metadata.
    pub metadata: ToolMetadata,
    /// The input schema, compiled.
    pub input: Validator,
    /// The trusted output schema, compiled (only `native` tools).
    pub output: Option<Validator>,
    /// [`Tool::replay_safe`], asked once: a `restartSafe` cell may call it.
    pub replay_safe: bool,
}

impl std::fmt::Debug for ToolEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolEntry").field("id", &self.id).field("metadata", &self.metadata).finish_non_exhaustive()
    }
}

impl ToolEntry {
    /// The full description for `describe()` (GA-8.2, reference §7.4).
    #[must_use]
    pub fn describe(&self) -> Value {
        let m = &self.metadata;
        let mut d = serde_json::json!({
            "source": m.source,
            "name": m.tool_name,
            "description": self.tool.description(),
            "input": m.input,
            "parameters": self.input.schema(),
            "callableName": m.callable_name,
        });
        if let Some(label) = &m.label {
            d["label"] = Value::String(label.clone());
        }
        if let Some(output) = &m.output {
            d["output"] = Value::String(output.clone());
        }
        if let Some(schema) = &self.output {
            d["outputSchema"] = schema.schema().clone();
        }
        d
    }
}

/// The native tools of one runtime, in registration order.
#[derive(Clone, Default)]
pub struct Registry {
    entries: Arc<Vec<ToolEntry>>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.entries.iter().map(|e| &e.metadata.callable_name)).finish()
    }
}

impl Registry {
    /// Builds a registry: rejects duplicate names, invalid names and
    /// unusable schemas, and derives callable names and hints.
    ///
    /// # Errors
    /// The first problem found.
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
        let ids: Vec<String> = tools.iter().map(|t| format!("{}:{}", t.source().id_prefix(), t.name())).collect();
        let pairs: Vec<(&str, &str)> = ids.iter().map(String::as_str).zip(tools.iter().map(|t| t.name())).collect();
        let names = callable_names(&pairs);
        let mut entries = Vec::with_capacity(tools.len());
        for ((tool, id), callable_name) in tools.into_iter().zip(ids).zip(names) {
            entries.push(Self::entry(tool, id, callable_name)?);
        }
        Ok(Self { entries: Arc::new(entries) })
    }

    fn entry(tool: Arc<dyn Tool>, id: String, callable_name: String) -> Result<ToolEntry, RegistryError> {
        let bad = |which: &'static str| {
            let tool = tool.name().to_owned();
            move |reason: SchemaError| RegistryError::InvalidSchema { tool, which, reason }
        };
        let input_schema = tool.input_schema();
        let input = Validator::new(&input_schema).map_err(bad("input"))?;
        let trusted = tool.source() == ToolSource::Native;
        let output = match tool.output_schema() {
            Some(schema) if trusted => Some(Validator::new(&schema).map_err(bad("output"))?),
            _ => None,
        };
        let metadata = ToolMetadata {
            callable_name,
            tool_name: tool.name().to_owned(),
            label: tool.label().map(str::to_owned),
            description: truncate_utf16(tool.description(), METADATA_DESCRIPTION_UNITS, "…"),
            source: tool.source().guest_name(),
            input: if trusted { input_hint(&input_schema) } else { "unknown".to_owned() },
            output: output.as_ref().and_then(|o| output_hint(o.schema())),
        };
        let replay_safe = tool.replay_safe();
        Ok(ToolEntry { tool, id, metadata, input, output, replay_safe })
    }

    /// The entries, in registration order.
    #[must_use]
    pub fn entries(&self) -> &[ToolEntry] {
        &self.entries
    }

    /// The entry at `index`.
    #[must_use]
    pub fn get(&self, index: usize) -> Option<&ToolEntry> {
        self.entries.get(index)
    }

    /// The index of the tool with this callable name.
    #[must_use]
    pub fn by_callable_name(&self, name: &str) -> Option<usize> {
        self.entries.iter().position(|e| e.metadata.callable_name == name)
    }

    /// How many tools there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::tool::{ToolFuture, ToolOutput};

    struct WithSchemas(Value, Option<Value>);

    impl Tool for WithSchemas {
        fn name(&self) -> &str {
            "schema_tool"
        }
        fn description(&self) -> &str {
            "Has the schemas it is given."
        }
        fn input_schema(&self) -> Value {
            self.0.clone()
        }
        fn output_schema(&self) -> Option<Value> {
            self.1.clone()
        }
        fn call(&self, _input: Value, _context: crate::ToolContext) -> ToolFuture<'_> {
            Box::pin(async { Ok(ToolOutput::json(json!({}))) })
        }
    }

    fn register(input: Value, output: Option<Value>) -> Result<Registry, RegistryError> {
        Registry::new(vec![Arc::new(WithSchemas(input, output))])
    }

    #[test]
    fn a_schema_that_does_not_compile_is_a_registration_error_naming_the_tool_and_which_schema() {
        let err = register(json!({"type": 12}), None).unwrap_err();
        let RegistryError::InvalidSchema { tool, which, reason } = &err else { panic!("{err:?}") };
        assert_eq!((tool.as_str(), *which), ("schema_tool", "input"));
        assert!(matches!(reason, SchemaError::Invalid { location, .. } if location == "/type"), "{reason:?}");
        assert!(err.to_string().starts_with("tool `schema_tool` has an unusable input schema: "), "{err}");
        let err =
            register(json!({"type": "object"}), Some(json!({"$ref": "https://example.invalid/out.json"}))).unwrap_err();
        assert!(
            matches!(&err, RegistryError::InvalidSchema { which: "output", reason: SchemaError::Reference { .. }, .. }),
            "{err:?}"
        );
    }

    #[test]
    fn an_if_then_else_input_schema_is_compiled_once_and_enforced() {
        let schema = json!({"type": "object", "if": {"required": ["a"]}, "then": {"required": ["b"]}});
        let registry = register(schema, None).unwrap();
        let entry = registry.get(0).unwrap();
        assert!(entry.input.validate(&json!({"b": 1})).is_empty());
        assert_eq!(entry.input.validate(&json!({"a": 1}))[0].to_string(), "$: missing required property `b`");
    }
}
