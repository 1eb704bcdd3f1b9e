//! Tool schema validation, by the [`jsonschema`] crate.
//!
//! Every keyword of JSON Schema Draft 4, 6, 7, 2019-09 and 2020-12 applies
//! (`if`/`then`/`else`, `dependentRequired`, `dependentSchemas`,
//! `unevaluatedProperties`, `$ref`/`$defs`, …): MCP servers and plugins send
//! all of these drafts, and a keyword silently ignored is an input let
//! through unchecked. On top of the standard, OpenAPI's `nullable: true` still
//! admits `null` (the input hints show it as `| null` too).
//!
//! Schemas are compiled once, when a tool is registered: a schema that does
//! not compile (a keyword of the wrong shape, a bad `pattern`, a `$ref` that
//! does not resolve) is a registration error, never a silent pass. Nothing is
//! ever fetched: a `$ref` to a remote URL, or a `$schema` naming a custom
//! meta-schema, is a registration error.

use std::borrow::Cow;
use std::sync::Arc;

use codemode_protocol::budget::utf8_prefix;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::paths::{Location, LocationSegment};
use jsonschema::{PatternOptions, ValidationError};
use serde_json::Value;

/// One way a value does not match its schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Where, as a JSONPath-like string (`$.items[2].id`).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// A schema ready to validate values.
#[derive(Clone)]
pub struct Validator {
    /// The schema as the tool gave it (`describe()` shows this one).
    root: Value,
    /// Shared: a compiled schema is immutable and not `Clone` itself.
    compiled: Arc<jsonschema::Validator>,
}

impl std::fmt::Debug for Validator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Validator").field("schema", &self.root).finish_non_exhaustive()
    }
}

/// How many violations a validation reports at most: a guest's huge input
/// must not make a huge error message.
const MAX_VIOLATIONS: usize = 5;

/// How many bytes of a compiler message a [`SchemaError`] keeps: the message
/// quotes the offending part of the schema, which can be large.
const MAX_REASON_BYTES: usize = 512;

/// Why a schema cannot be compiled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SchemaError {
    /// The schema is neither an object nor a boolean.
    #[error("a JSON Schema must be an object or a boolean")]
    NotASchema,
    /// A `pattern` or `patternProperties` key is not a regular expression,
    /// or needs backtracking.
    #[error(
        "invalid pattern {pattern:?} at schema location #{location}: not a regular expression, or one that needs \
         backtracking (lookaround, backreferences), which is refused so that matching stays linear-time"
    )]
    InvalidPattern {
        /// The pattern (at most 512 bytes of it).
        pattern: String,
        /// A JSON pointer into the schema.
        location: String,
    },
    /// The schema breaks its draft's rules (its meta-schema), or a keyword
    /// cannot be compiled.
    #[error("{reason} (at schema location #{location})")]
    Invalid {
        /// A JSON pointer into the schema (empty for the root).
        location: String,
        /// The compiler's message.
        reason: String,
    },
    /// A `$ref` (or a custom `$schema`) names a document outside the schema:
    /// nothing is fetched, so it cannot resolve.
    #[error("unresolvable reference: {reason}; only references inside the schema are followed, nothing is fetched")]
    Reference {
        /// The resolver's message, naming the reference.
        reason: String,
    },
}

impl SchemaError {
    fn from_compiler(error: &ValidationError<'_>) -> Self {
        match error.kind() {
            ValidationErrorKind::Referencing(e) => {
                Self::Reference { reason: utf8_prefix(&e.to_string(), MAX_REASON_BYTES).to_owned() }
            }
            ValidationErrorKind::Format { format } if format == "regex" => Self::InvalidPattern {
                pattern: error
                    .instance()
                    .as_str()
                    .map_or_else(|| short(error.instance()), |p| utf8_prefix(p, MAX_REASON_BYTES).to_owned()),
                location: error.instance_path().to_string(),
            },
            _ => Self::Invalid {
                location: error.instance_path().to_string(),
                reason: utf8_prefix(&error.to_string(), MAX_REASON_BYTES).to_owned(),
            },
        }
    }
}

impl Validator {
    /// Compiles `schema`. The draft is the one its `$schema` names (Draft 4,
    /// 6, 7, 2019-09 or 2020-12); without `$schema` it is 2020-12, which is
    /// both the `jsonschema` crate's default and the dialect the MCP
    /// specification (2025-11-25) assumes for a schema without `$schema`.
    ///
    /// # Errors
    /// [`SchemaError`]: a schema that is not an object or boolean, is
    /// invalid for its draft, has a `pattern` that does not compile, or a
    /// `$ref` that does not resolve inside it.
    pub fn new(schema: &Value) -> Result<Self, SchemaError> {
        if !matches!(schema, Value::Object(_) | Value::Bool(_)) {
            return Err(SchemaError::NotASchema);
        }
        let mut compiled_schema = schema.clone();
        allow_nullable(&mut compiled_schema);
        let compiled = jsonschema::options()
            // Never fetch: a remote `$ref` fails to compile instead.
            .offline()
            // `format` is an annotation, as 2019-09 and 2020-12 make it by
            // default: the same schema must not accept an input under one
            // `$schema` and refuse it under another, and tools use `format`
            // as a hint (`uri` for relative links) more than as a contract.
            .should_validate_formats(false)
            // Linear-time matching: a guest's input must not make a pattern
            // backtrack for seconds. Patterns that need backtracking
            // (lookaround, backreferences) are registration errors.
            .with_pattern_options(PatternOptions::regex())
            .build(&compiled_schema)
            .map_err(|e| SchemaError::from_compiler(&e))?;
        Ok(Self { root: schema.clone(), compiled: Arc::new(compiled) })
    }

    /// The schema.
    #[must_use]
    pub fn schema(&self) -> &Value {
        &self.root
    }

    /// Up to five violations of `value`; empty when it is valid.
    #[must_use]
    pub fn validate(&self, value: &Value) -> Vec<Violation> {
        // `is_valid` stops at the first failure and builds no error; only an
        // invalid value pays for collecting and wording its violations.
        if self.compiled.is_valid(value) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for error in self.compiled.iter_errors(value) {
            push_violations(value, &error, &mut out);
            if out.len() >= MAX_VIOLATIONS {
                break;
            }
        }
        if out.is_empty() {
            // `is_valid` said no: never let that turn into a pass.
            out.push(Violation { path: "$".into(), message: "does not match the schema".into() });
        }
        out.truncate(MAX_VIOLATIONS);
        out
    }
}

/// Rewrites OpenAPI's `{type: T, nullable: true}` (which JSON Schema
/// ignores) in place as `{type: [T, "null"]}`, adding `null` to an `enum`
/// too, so that `null` passes as it always has. Only objects whose `type` is
/// a string or a list of strings are touched, so a property that happens to
/// be named `nullable` is left alone; pointers into the schema do not move.
fn allow_nullable(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            let typed = match map.get("type") {
                Some(Value::String(_)) => true,
                Some(Value::Array(types)) => types.iter().all(Value::is_string),
                _ => false,
            };
            if typed && map.get("nullable") == Some(&Value::Bool(true)) {
                let null = Value::String("null".into());
                match map.get_mut("type") {
                    Some(Value::String(t)) if t != "null" => {
                        let t = std::mem::take(t);
                        map.insert("type".into(), Value::Array(vec![Value::String(t), null]));
                    }
                    Some(Value::Array(types)) if !types.contains(&null) => types.push(null),
                    _ => {}
                }
                if let Some(Value::Array(options)) = map.get_mut("enum")
                    && !options.contains(&Value::Null)
                {
                    options.push(Value::Null);
                }
            }
            map.values_mut().for_each(allow_nullable);
        }
        Value::Array(items) => items.iter_mut().for_each(allow_nullable),
        _ => {}
    }
}

/// Words one error as violations (one per unexpected property for
/// `additionalProperties`/`unevaluatedProperties`, so each is named).
fn push_violations(root: &Value, error: &ValidationError<'_>, out: &mut Vec<Violation>) {
    let path = render_path(root, error.instance_path());
    let instance = error.instance();
    let message = match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            // A huge input can have thousands: word only what is reported.
            for key in unexpected.iter().take(MAX_VIOLATIONS.saturating_sub(out.len())) {
                let mut child = path.clone();
                push_key(&mut child, key);
                out.push(Violation { path: child, message: "is not an allowed property".into() });
            }
            return;
        }
        kind => message(kind, instance),
    };
    out.push(Violation { path, message });
}

fn message(kind: &ValidationErrorKind, instance: &Value) -> String {
    use ValidationErrorKind as K;
    let got = || short(instance);
    match kind {
        K::Type { kind } => {
            let expected = match kind {
                TypeKind::Single(t) => t.to_string(),
                TypeKind::Multiple(ts) => ts.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" or "),
            };
            format!("expected {expected}, got {}", type_name(instance))
        }
        K::Enum { options } => {
            let shown: Vec<String> =
                options.as_array().map_or_else(|| vec![short(options)], |o| o.iter().take(8).map(short).collect());
            format!("expected one of {}, got {}", shown.join(", "), got())
        }
        K::Constant { expected_value } => format!("expected {}, got {}", short(expected_value), got()),
        K::Required { property } => {
            let name = property.as_str().map_or_else(|| short(property), |s| utf8_prefix(s, 64).to_owned());
            format!("missing required property `{name}`")
        }
        K::Minimum { limit } => format!("expected >= {limit}, got {}", got()),
        K::Maximum { limit } => format!("expected <= {limit}, got {}", got()),
        K::ExclusiveMinimum { limit } => format!("expected > {limit}, got {}", got()),
        K::ExclusiveMaximum { limit } => format!("expected < {limit}, got {}", got()),
        K::MultipleOf { multiple_of } => format!("expected a multiple of {multiple_of}, got {}", got()),
        K::MinLength { limit } => format!("expected at least {limit} characters, got {}", char_count(instance)),
        K::MaxLength { limit } => format!("expected at most {limit} characters, got {}", char_count(instance)),
        K::Pattern { pattern } => format!("does not match the pattern {:?}", utf8_prefix(pattern, 128)),
        K::MinItems { limit } => format!("expected at least {limit} items, got {}", item_count(instance)),
        K::MaxItems { limit } => format!("expected at most {limit} items, got {}", item_count(instance)),
        K::AdditionalItems { limit } => format!("expected at most {limit} items, got {}", item_count(instance)),
        K::UnevaluatedItems { .. } => "has items that are not allowed (unevaluatedItems)".into(),
        K::UniqueItems => "has duplicate items".into(),
        K::Contains => "has no item of the required shape (contains)".into(),
        K::MinProperties { limit } => format!("expected at least {limit} properties"),
        K::MaxProperties { limit } => format!("expected at most {limit} properties"),
        K::PropertyNames { error } => {
            format!(
                "has an invalid property name {}: {}",
                short(error.instance()),
                message(error.kind(), error.instance())
            )
        }
        K::AnyOf { .. } => "matches none of the allowed shapes (anyOf)".into(),
        K::OneOfNotValid { .. } => "must match exactly one shape (oneOf), matches none".into(),
        K::OneOfMultipleValid { .. } => "must match exactly one shape (oneOf), matches more than one".into(),
        K::Not { .. } => "matches a shape that is not allowed (not)".into(),
        K::FalseSchema => "no value is allowed here".into(),
        K::Format { format } => format!("is not a valid {format}"),
        // The rest (content encodings, regex engine failures, references
        // that only fail at validation) are rare: name the keyword.
        other => format!("does not satisfy `{}`", other.keyword()),
    }
}

/// The instance location as `$.a[2].b`, reading the value to tell an array
/// index from an object key that looks like a number.
fn render_path(root: &Value, location: &Location) -> String {
    let mut out = String::from("$");
    let mut at = Some(root);
    for segment in location.segments() {
        let key: Cow<'_, str> = match segment {
            LocationSegment::Property(p) => p,
            LocationSegment::Index(i) => Cow::Owned(i.to_string()),
        };
        match at {
            Some(Value::Array(items)) => {
                out.push('[');
                out.push_str(&key);
                out.push(']');
                at = key.parse::<usize>().ok().and_then(|i| items.get(i));
            }
            other => {
                push_key(&mut out, &key);
                at = other.and_then(|v| v.get(key.as_ref()));
            }
        }
    }
    out
}

/// Appends `.key` for a plain identifier, else `["key"]` (bounded).
fn push_key(out: &mut String, key: &str) {
    let mut chars = key.chars();
    let plain = key.len() <= 64
        && chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if plain {
        out.push('.');
        out.push_str(key);
    } else {
        out.push('[');
        out.push_str(&short(&Value::String(key.to_owned())));
        out.push(']');
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn char_count(value: &Value) -> usize {
    value.as_str().map_or(0, |s| s.chars().count())
}

fn item_count(value: &Value) -> usize {
    value.as_array().map_or(0, Vec::len)
}

/// A value's JSON, cut to 40 characters. Serializing stops early, so a
/// huge value costs no more than a small one.
fn short(value: &Value) -> String {
    const CHARS: usize = 40;
    let mut buf = Bounded { bytes: Vec::new(), limit: CHARS * 4 + 4 };
    // An error here only means the buffer filled up.
    let complete = serde_json::to_writer(&mut buf, value).is_ok();
    let text = match std::str::from_utf8(&buf.bytes) {
        Ok(text) => text,
        // Cut inside a character: keep the whole ones before it.
        Err(e) => std::str::from_utf8(&buf.bytes[..e.valid_up_to()]).unwrap_or_default(),
    };
    let mut out: String = text.chars().take(CHARS).collect();
    if !complete || out.len() < text.len() {
        out.push('…');
    }
    out
}

/// A writer that takes at most `limit` bytes, then fails.
struct Bounded {
    bytes: Vec<u8>,
    limit: usize,
}

impl std::io::Write for Bounded {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let room = self.limit.saturating_sub(self.bytes.len());
        if room == 0 {
            return Err(std::io::Error::other("bounded buffer is full"));
        }
        let n = room.min(data.len());
        self.bytes.extend_from_slice(&data[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errors(schema: Value, value: Value) -> Vec<String> {
        Validator::new(&schema).unwrap().validate(&value).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn types_required_and_additional_properties_are_checked_with_paths() {
        let schema = json!({"type": "object", "properties": {"path": {"type": "string"}, "limit": {"type": "integer", "minimum": 1}},
            "required": ["path"], "additionalProperties": false});
        assert!(errors(schema.clone(), json!({"path": "a", "limit": 2})).is_empty());
        assert_eq!(errors(schema.clone(), json!({"path": 1})), vec!["$.path: expected string, got integer"]);
        assert_eq!(errors(schema.clone(), json!({})), vec!["$: missing required property `path`"]);
        assert_eq!(errors(schema.clone(), json!({"path": "a", "limit": 0})), vec!["$.limit: expected >= 1, got 0"]);
        assert_eq!(
            errors(schema.clone(), json!({"path": "a", "limit": 1.5})),
            vec!["$.limit: expected integer, got number"]
        );
        assert_eq!(errors(schema, json!({"path": "a", "x": 1})), vec!["$.x: is not an allowed property"]);
    }

    #[test]
    fn arrays_enums_patterns_refs_and_combinators() {
        let schema = json!({"$defs": {"id": {"type": "string", "pattern": "^[a-z]+$"}},
            "type": "array", "items": {"$ref": "#/$defs/id"}, "maxItems": 2});
        assert!(errors(schema.clone(), json!(["ab", "c"])).is_empty());
        assert_eq!(errors(schema.clone(), json!(["ab", "C1"])), vec!["$[1]: does not match the pattern \"^[a-z]+$\""]);
        assert_eq!(errors(schema, json!(["a", "b", "c"])), vec!["$: expected at most 2 items, got 3"]);
        assert_eq!(errors(json!({"enum": ["a", "b"]}), json!("c")), vec!["$: expected one of \"a\", \"b\", got \"c\""]);
        assert!(errors(json!({"anyOf": [{"type": "string"}, {"type": "null"}]}), json!(null)).is_empty());
        assert_eq!(errors(json!({"oneOf": [{"type": "number"}, {"type": "integer"}]}), json!(1)).len(), 1);
        assert!(Validator::new(&json!({"pattern": "("})).is_err());
    }

    #[test]
    fn type_only_schemas_give_the_same_answers() {
        assert!(errors(json!({"type": "object", "description": "x"}), json!({"a": 1})).is_empty());
        assert_eq!(errors(json!({"type": "object"}), json!(1)), vec!["$: expected object, got integer"]);
        assert_eq!(errors(json!({"type": "object"}), json!(null)), vec!["$: expected object, got null"]);
        assert!(errors(json!({"type": ["string", "null"]}), json!(null)).is_empty());
        assert!(errors(json!({"type": "number"}), json!(2)).is_empty());
        assert!(errors(json!({}), json!([1])).is_empty());
        assert!(errors(json!(true), json!(1)).is_empty());
        assert_eq!(errors(json!(false), json!(1)), vec!["$: no value is allowed here"]);
        let empty = json!({"type": "object", "properties": {}, "required": [], "patternProperties": {}});
        assert!(errors(empty.clone(), json!({"a": 1})).is_empty());
        assert_eq!(errors(empty, json!("x")), vec!["$: expected object, got string"]);
        let props = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert_eq!(errors(props, json!({"a": 1})), vec!["$.a: expected string, got integer"]);
    }

    #[test]
    fn openapi_nullable_still_admits_null_and_nothing_else_new() {
        let schema = json!({"type": "object", "properties": {
            "a": {"type": "string", "nullable": true},
            "b": {"type": "string", "enum": ["x"], "nullable": true},
            "nullable": {"type": "integer"}}});
        assert!(errors(schema.clone(), json!({"a": null, "b": null, "nullable": 1})).is_empty());
        assert_eq!(errors(schema.clone(), json!({"a": 1})), vec!["$.a: expected null or string, got integer"]);
        assert_eq!(errors(schema.clone(), json!({"nullable": null})), vec!["$.nullable: expected integer, got null"]);
        // `describe()` shows the schema as the tool gave it.
        assert_eq!(
            Validator::new(&schema).unwrap().schema()["properties"]["a"],
            json!({"type": "string", "nullable": true})
        );
    }

    #[test]
    fn if_then_else_applies_then_when_the_condition_holds_and_else_otherwise() {
        let schema = json!({"type": "object",
            "if": {"properties": {"kind": {"const": "file"}}, "required": ["kind"]},
            "then": {"required": ["path"]},
            "else": {"required": ["url"]}});
        assert!(errors(schema.clone(), json!({"kind": "file", "path": "a"})).is_empty());
        assert!(errors(schema.clone(), json!({"kind": "web", "url": "u"})).is_empty());
        assert_eq!(
            errors(schema.clone(), json!({"kind": "file", "url": "u"})),
            vec!["$: missing required property `path`"]
        );
        assert_eq!(errors(schema, json!({"kind": "web"})), vec!["$: missing required property `url`"]);
    }

    #[test]
    fn dependent_required_demands_a_property_when_another_is_present() {
        let schema = json!({"type": "object", "dependentRequired": {"cursor": ["limit"]}});
        assert!(errors(schema.clone(), json!({})).is_empty());
        assert!(errors(schema.clone(), json!({"cursor": "c", "limit": 5})).is_empty());
        assert_eq!(errors(schema, json!({"cursor": "c"})), vec!["$: missing required property `limit`"]);
    }

    #[test]
    fn dependent_schemas_apply_a_schema_when_a_property_is_present() {
        let schema = json!({"type": "object",
            "dependentSchemas": {"since": {"properties": {"until": {"type": "string"}}, "required": ["until"]}}});
        assert!(errors(schema.clone(), json!({"until": 3})).is_empty(), "no `since`, no constraint");
        assert!(errors(schema.clone(), json!({"since": "a", "until": "b"})).is_empty());
        assert_eq!(errors(schema.clone(), json!({"since": "a"})), vec!["$: missing required property `until`"]);
        assert_eq!(errors(schema, json!({"since": "a", "until": 3})), vec!["$.until: expected string, got integer"]);
    }

    #[test]
    fn unevaluated_properties_rejects_what_no_subschema_evaluated() {
        let schema = json!({"type": "object",
            "allOf": [{"properties": {"a": {"type": "string"}}}],
            "properties": {"b": {"type": "integer"}},
            "unevaluatedProperties": false});
        assert!(errors(schema.clone(), json!({"a": "x", "b": 1})).is_empty());
        assert_eq!(errors(schema, json!({"a": "x", "c": true})), vec!["$.c: is not an allowed property"]);
    }

    #[test]
    fn a_draft_4_schema_reads_exclusive_maximum_as_a_boolean() {
        let schema = json!({"$schema": "http://json-schema.org/draft-04/schema#",
            "type": "number", "maximum": 10, "exclusiveMaximum": true});
        assert!(errors(schema.clone(), json!(9.5)).is_empty());
        assert_eq!(errors(schema, json!(10)), vec!["$: expected < 10, got 10"]);
        // Without `$schema` the default draft (2020-12) wants a number there.
        assert!(matches!(
            Validator::new(&json!({"type": "number", "maximum": 10, "exclusiveMaximum": true})),
            Err(SchemaError::Invalid { .. })
        ));
    }

    #[test]
    fn a_draft_7_schema_uses_tuple_items_additional_items_and_dependencies() {
        let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": false}},
            "dependencies": {"a": ["b"]}});
        assert!(errors(schema.clone(), json!({"pair": ["x", 1]})).is_empty());
        assert_eq!(
            errors(schema.clone(), json!({"pair": ["x", "y"]})),
            vec!["$.pair[1]: expected integer, got string"]
        );
        assert_eq!(errors(schema.clone(), json!({"pair": ["x", 1, 2]})).len(), 1);
        assert_eq!(errors(schema, json!({"a": 1})), vec!["$: missing required property `b`"]);
    }

    #[test]
    fn a_schema_with_a_numeric_type_is_a_compile_error_naming_where() {
        let err = Validator::new(&json!({"type": "object", "properties": {"a": {"type": 12}}})).unwrap_err();
        let SchemaError::Invalid { location, .. } = &err else { panic!("{err:?}") };
        assert_eq!(location, "/properties/a/type");
        assert!(err.to_string().contains("#/properties/a/type"), "{err}");
        assert_eq!(Validator::new(&json!(12)).unwrap_err(), SchemaError::NotASchema);
        assert!(Validator::new(&json!({"$ref": "#/$defs/missing"})).is_err());
    }

    #[test]
    fn a_remote_ref_is_a_compile_error_and_is_never_fetched() {
        // A listener the reference points at: it must see no connection.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/schema.json", listener.local_addr().unwrap());
        let err = Validator::new(&json!({"type": "object", "properties": {"a": {"$ref": url}}})).unwrap_err();
        assert!(matches!(err, SchemaError::Reference { .. }), "{err:?}");
        assert!(err.to_string().contains(&url), "{err}");
        listener.set_nonblocking(true).unwrap();
        assert_eq!(listener.accept().unwrap_err().kind(), std::io::ErrorKind::WouldBlock);
        let custom = json!({"$schema": "https://example.invalid/meta", "type": "object"});
        assert!(matches!(Validator::new(&custom), Err(SchemaError::Reference { .. })));
    }

    #[test]
    fn a_pattern_that_needs_backtracking_is_a_compile_error() {
        let err = Validator::new(&json!({"type": "string", "pattern": "^(?!x)"})).unwrap_err();
        assert_eq!(err, SchemaError::InvalidPattern { pattern: "^(?!x)".into(), location: "/pattern".into() });
        assert!(err.to_string().starts_with("invalid pattern \"^(?!x)\" at schema location #/pattern: "), "{err}");
        let key = json!({"type": "object", "patternProperties": {"(": {}}});
        assert!(matches!(Validator::new(&key), Err(SchemaError::InvalidPattern { .. })));
        assert!(Validator::new(&json!({"type": "string", "pattern": "(a)\\1"})).is_err());
        assert!(errors(json!({"type": "string", "pattern": "^\\d+$"}), json!("12")).is_empty());
    }

    #[test]
    fn a_huge_invalid_input_reports_at_most_five_short_violations() {
        let schema = json!({"type": "object", "additionalProperties": {"type": "string"}});
        let input: serde_json::Map<String, Value> =
            (0..10_000).map(|i| (format!("k{i}"), json!([i, "x".repeat(1000)]))).collect();
        let found = Validator::new(&schema).unwrap().validate(&Value::Object(input));
        assert_eq!(found.len(), MAX_VIOLATIONS);
        assert!(found.iter().all(|v| v.to_string().len() < 100), "{found:?}");
        let long_key = json!({"type": "object", "properties": {"a": false}, "additionalProperties": false});
        let found = errors(long_key, json!({"y".repeat(10_000): 1}));
        assert!(found[0].len() < 100, "{found:?}");
        let big_enum = errors(json!({"enum": ["a"]}), json!("z".repeat(10_000)));
        assert!(big_enum[0].len() < 100, "{big_enum:?}");
    }

    #[test]
    fn format_is_an_annotation_under_every_draft() {
        for draft in ["http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"] {
            let schema = json!({"$schema": draft, "type": "string", "format": "email"});
            assert!(errors(schema, json!("not an address")).is_empty(), "{draft}");
        }
    }

    #[test]
    fn short_values_are_cut_to_40_characters_without_serializing_all_of_a_huge_one() {
        assert_eq!(short(&json!("abc")), "\"abc\"");
        assert_eq!(short(&json!("é".repeat(39))), format!("\"{}…", "é".repeat(39)));
        let huge = json!(vec!["ü".repeat(1000); 1000]);
        assert_eq!(short(&huge).chars().count(), 41);
        assert_eq!(short(&json!({"a": [1, 2]})), "{\"a\":[1,2]}");
    }

    #[test]
    fn a_numeric_object_key_is_shown_as_a_key_and_an_array_index_as_an_index() {
        let schema = json!({"type": "object", "properties": {"0": {"type": "array", "items": {"type": "string"}}}});
        assert_eq!(errors(schema, json!({"0": ["a", 1]})), vec!["$[\"0\"][1]: expected string, got integer"]);
    }
}
