//! A JSON Schema validator for the subset tool schemas use.
//!
//! Covers `type` (including `integer` and type lists), `enum`, `const`,
//! `properties`, `required`, `additionalProperties`, `patternProperties`,
//! `items`, `prefixItems`, `minItems`/`maxItems`, `uniqueItems`,
//! `minLength`/`maxLength` (in characters), `pattern`, numeric bounds,
//! `multipleOf`, `minProperties`/`maxProperties`, `anyOf`/`oneOf`/`allOf`/
//! `not`, `nullable` and local `$ref`s (`#/…`). Unknown keywords (`format`,
//! `description`, …) are ignored, as the JSON Schema specification allows.
//! Schemas are compiled once, when a tool is registered: a schema this
//! validator cannot use is a registration error, never a silent pass.

use std::collections::HashMap;

use regex::Regex;
use serde_json::{Map, Value};

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
#[derive(Clone, Debug)]
pub struct Validator {
    root: Value,
    patterns: HashMap<String, Regex>,
    /// `Some(types)` when the root constrains nothing but `type` (tool input
    /// schemas are often just `{type: "object", properties: {}}`): a value of one of these
    /// types (any, when empty) is valid without walking the schema, whose
    /// ~25 keyword lookups per value were ~9 % of a tool call's instructions.
    type_only: Option<Vec<String>>,
}

/// Every keyword [`Validator::check`] reads; any other key is ignored.
const KEYWORDS: &[&str] = &[
    "$ref",
    "nullable",
    "type",
    "enum",
    "const",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "prefixItems",
    "items",
    "required",
    "minProperties",
    "maxProperties",
    "properties",
    "patternProperties",
    "additionalProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
];

/// The allowed types of a root that uses no constraining keyword but `type`, as
/// [`Validator::check`] reads them; `None` when anything else constrains.
fn type_only(schema: &Value) -> Option<Vec<String>> {
    let map = match schema {
        Value::Bool(true) => return Some(Vec::new()),
        Value::Object(map) => map,
        _ => return None,
    };
    // An empty `properties`/`patternProperties` object or `required` list
    // constrains nothing (`{type: "object", properties: {}}` is common).
    let inert = |k: &str, v: &Value| match k {
        "type" => true,
        "properties" | "patternProperties" => v.as_object().is_some_and(Map::is_empty),
        "required" => v.as_array().is_some_and(Vec::is_empty),
        _ => !KEYWORDS.contains(&k),
    };
    if !map.iter().all(|(k, v)| inert(k, v)) {
        return None;
    }
    Some(match map.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => Vec::new(),
    })
}

/// How many violations a validation reports at most.
const MAX_VIOLATIONS: usize = 5;
/// How deep `$ref`s may nest before the schema counts as cyclic.
const MAX_REF_DEPTH: usize = 64;

/// Why a schema cannot be compiled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SchemaError {
    /// The schema is neither an object nor a boolean.
    #[error("a JSON Schema must be an object or a boolean")]
    NotASchema,
    /// A `pattern` is not a regular expression the validator supports.
    #[error("invalid pattern {pattern:?}: {reason}")]
    InvalidPattern {
        /// The pattern.
        pattern: String,
        /// The regex compiler's message.
        reason: String,
    },
    /// A `patternProperties` key is not a supported regular expression.
    #[error("invalid patternProperties key {pattern:?}: {reason}")]
    InvalidPatternProperty {
        /// The key.
        pattern: String,
        /// The regex compiler's message.
        reason: String,
    },
}

fn collect_patterns(schema: &Value, out: &mut HashMap<String, Regex>) -> Result<(), SchemaError> {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(p)) = map.get("pattern") {
                let re = Regex::new(p)
                    .map_err(|e| SchemaError::InvalidPattern { pattern: p.clone(), reason: e.to_string() })?;
                out.insert(p.clone(), re);
            }
            if let Some(Value::Object(pp)) = map.get("patternProperties") {
                for p in pp.keys() {
                    let re = Regex::new(p).map_err(|e| SchemaError::InvalidPatternProperty {
                        pattern: p.clone(),
                        reason: e.to_string(),
                    })?;
                    out.insert(p.clone(), re);
                }
            }
            map.values().try_for_each(|v| collect_patterns(v, out))
        }
        Value::Array(items) => items.iter().try_for_each(|v| collect_patterns(v, out)),
        _ => Ok(()),
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

fn matches_type(value: &Value, ty: &str) -> bool {
    let actual = type_name(value);
    actual == ty || (ty == "number" && actual == "integer")
}

fn short(value: &Value) -> String {
    let s = value.to_string();
    if s.chars().count() > 40 { format!("{}…", s.chars().take(40).collect::<String>()) } else { s }
}

impl Validator {
    /// Compiles `schema`.
    ///
    /// # Errors
    /// [`SchemaError`]: a schema that is not an object or boolean, or has
    /// an invalid regex.
    pub fn new(schema: &Value) -> Result<Self, SchemaError> {
        if !matches!(schema, Value::Object(_) | Value::Bool(_)) {
            return Err(SchemaError::NotASchema);
        }
        let mut patterns = HashMap::new();
        collect_patterns(schema, &mut patterns)?;
        Ok(Self { root: schema.clone(), patterns, type_only: type_only(schema) })
    }

    /// The schema.
    #[must_use]
    pub fn schema(&self) -> &Value {
        &self.root
    }

    /// Up to five violations of `value`; empty when it is valid.
    #[must_use]
    pub fn validate(&self, value: &Value) -> Vec<Violation> {
        // A mismatch still goes through `check`, which words the violation.
        if let Some(types) = &self.type_only
            && (types.is_empty() || types.iter().any(|t| matches_type(value, t)))
        {
            return Vec::new();
        }
        let mut out = Vec::new();
        self.check(&self.root, value, "$", &mut out, 0);
        out.truncate(MAX_VIOLATIONS);
        out
    }

    fn resolve<'a>(&'a self, reference: &str) -> Option<&'a Value> {
        let pointer = reference.strip_prefix('#')?;
        self.root.pointer(pointer)
    }

    fn check(&self, schema: &Value, value: &Value, path: &str, out: &mut Vec<Violation>, depth: usize) {
        if out.len() >= MAX_VIOLATIONS {
            return;
        }
        let mut fail = |message: String| out.push(Violation { path: path.to_owned(), message });
        let map = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => return fail("no value is allowed here".into()),
            Value::Object(map) => map,
            _ => return,
        };
        if let Some(Value::String(reference)) = map.get("$ref") {
            match self.resolve(reference) {
                Some(target) if depth < MAX_REF_DEPTH => self.check(target, value, path, out, depth + 1),
                _ => fail(format!("unresolvable schema reference {reference}")),
            }
            return;
        }
        if value.is_null() && map.get("nullable") == Some(&Value::Bool(true)) {
            return;
        }
        if let Some(ty) = map.get("type") {
            let allowed: Vec<&str> = match ty {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                _ => vec![],
            };
            if !allowed.is_empty() && !allowed.iter().any(|t| matches_type(value, t)) {
                return fail(format!("expected {}, got {}", allowed.join(" or "), type_name(value)));
            }
        }
        if let Some(Value::Array(options)) = map.get("enum")
            && !options.contains(value)
        {
            let shown: Vec<String> = options.iter().take(8).map(short).collect();
            return fail(format!("expected one of {}, got {}", shown.join(", "), short(value)));
        }
        if let Some(expected) = map.get("const")
            && expected != value
        {
            return fail(format!("expected {}, got {}", short(expected), short(value)));
        }
        match value {
            Value::String(s) => self.check_string(map, s, &mut fail),
            Value::Number(n) => check_number(map, n.as_f64().unwrap_or(0.0), &mut fail),
            Value::Array(items) => self.check_array(map, items, path, out, depth),
            Value::Object(obj) => self.check_object(map, obj, path, out, depth),
            _ => {}
        }
        self.check_combinators(map, value, path, out, depth);
    }

    fn check_string(&self, map: &Map<String, Value>, s: &str, fail: &mut impl FnMut(String)) {
        let len = s.chars().count() as u64;
        if let Some(min) = map.get("minLength").and_then(Value::as_u64)
            && len < min
        {
            fail(format!("expected at least {min} characters, got {len}"));
        }
        if let Some(max) = map.get("maxLength").and_then(Value::as_u64)
            && len > max
        {
            fail(format!("expected at most {max} characters, got {len}"));
        }
        if let Some(Value::String(p)) = map.get("pattern")
            && self.patterns.get(p).is_some_and(|re| !re.is_match(s))
        {
            fail(format!("does not match the pattern {p:?}"));
        }
    }

    fn check_array(
        &self,
        map: &Map<String, Value>,
        items: &[Value],
        path: &str,
        out: &mut Vec<Violation>,
        depth: usize,
    ) {
        let len = items.len() as u64;
        if let Some(min) = map.get("minItems").and_then(Value::as_u64)
            && len < min
        {
            out.push(Violation { path: path.into(), message: format!("expected at least {min} items, got {len}") });
        }
        if let Some(max) = map.get("maxItems").and_then(Value::as_u64)
            && len > max
        {
            out.push(Violation { path: path.into(), message: format!("expected at most {max} items, got {len}") });
        }
        if map.get("uniqueItems") == Some(&Value::Bool(true)) {
            for (i, item) in items.iter().enumerate() {
                if items[..i].contains(item) {
                    out.push(Violation { path: format!("{path}[{i}]"), message: "duplicate item".into() });
                    break;
                }
            }
        }
        let prefix = map.get("prefixItems").and_then(Value::as_array);
        for (i, item) in items.iter().enumerate() {
            let item_schema = prefix.and_then(|p| p.get(i)).or_else(|| map.get("items"));
            if let Some(s) = item_schema {
                self.check(s, item, &format!("{path}[{i}]"), out, depth);
            }
        }
    }

    fn check_object(
        &self,
        map: &Map<String, Value>,
        obj: &Map<String, Value>,
        path: &str,
        out: &mut Vec<Violation>,
        depth: usize,
    ) {
        let props = map.get("properties").and_then(Value::as_object);
        if let Some(Value::Array(required)) = map.get("required") {
            for key in required.iter().filter_map(Value::as_str) {
                if !obj.contains_key(key) {
                    out.push(Violation { path: path.into(), message: format!("missing required property `{key}`") });
                }
            }
        }
        let count = obj.len() as u64;
        if let Some(min) = map.get("minProperties").and_then(Value::as_u64)
            && count < min
        {
            out.push(Violation { path: path.into(), message: format!("expected at least {min} properties") });
        }
        if let Some(max) = map.get("maxProperties").and_then(Value::as_u64)
            && count > max
        {
            out.push(Violation { path: path.into(), message: format!("expected at most {max} properties") });
        }
        let pattern_props = map.get("patternProperties").and_then(Value::as_object);
        for (key, v) in obj {
            let child = format!("{path}.{key}");
            let mut covered = false;
            if let Some(s) = props.and_then(|p| p.get(key)) {
                covered = true;
                self.check(s, v, &child, out, depth);
            }
            for (pattern, s) in pattern_props.into_iter().flatten() {
                if self.patterns.get(pattern).is_some_and(|re| re.is_match(key)) {
                    covered = true;
                    self.check(s, v, &child, out, depth);
                }
            }
            if !covered {
                match map.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        out.push(Violation { path: child, message: "is not an allowed property".into() });
                    }
                    Some(s @ Value::Object(_)) => self.check(s, v, &child, out, depth),
                    _ => {}
                }
            }
        }
    }

    fn check_combinators(
        &self,
        map: &Map<String, Value>,
        value: &Value,
        path: &str,
        out: &mut Vec<Violation>,
        depth: usize,
    ) {
        let passes = |s: &Value| {
            let mut scratch = Vec::new();
            self.check(s, value, path, &mut scratch, depth);
            scratch.is_empty()
        };
        if let Some(Value::Array(all)) = map.get("allOf") {
            for s in all {
                self.check(s, value, path, out, depth);
            }
        }
        if let Some(Value::Array(any)) = map.get("anyOf")
            && !any.iter().any(passes)
        {
            out.push(Violation { path: path.into(), message: "matches none of the allowed shapes (anyOf)".into() });
        }
        if let Some(Value::Array(one)) = map.get("oneOf") {
            let n = one.iter().filter(|s| passes(s)).count();
            if n != 1 {
                out.push(Violation {
                    path: path.into(),
                    message: format!("must match exactly one shape (oneOf), matches {n}"),
                });
            }
        }
        if let Some(not) = map.get("not")
            && passes(not)
        {
            out.push(Violation { path: path.into(), message: "matches a shape that is not allowed (not)".into() });
        }
    }
}

fn check_number(map: &Map<String, Value>, n: f64, fail: &mut impl FnMut(String)) {
    let bound = |k: &str| map.get(k).and_then(Value::as_f64);
    if let Some(min) = bound("minimum")
        && n < min
    {
        fail(format!("expected >= {min}, got {n}"));
    }
    if let Some(max) = bound("maximum")
        && n > max
    {
        fail(format!("expected <= {max}, got {n}"));
    }
    if let Some(min) = bound("exclusiveMinimum")
        && n <= min
    {
        fail(format!("expected > {min}, got {n}"));
    }
    if let Some(max) = bound("exclusiveMaximum")
        && n >= max
    {
        fail(format!("expected < {max}, got {n}"));
    }
    if let Some(m) = bound("multipleOf")
        && m > 0.0
        && ((n / m).round() * m - n).abs() > 1e-9 * n.abs().max(1.0)
    {
        fail(format!("expected a multiple of {m}, got {n}"));
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
    fn type_only_schemas_take_the_short_path_with_the_same_answers() {
        assert!(errors(json!({"type": "object", "description": "x"}), json!({"a": 1})).is_empty());
        assert_eq!(errors(json!({"type": "object"}), json!(1)), vec!["$: expected object, got integer"]);
        assert_eq!(errors(json!({"type": "object"}), json!(null)), vec!["$: expected object, got null"]);
        assert!(errors(json!({"type": ["string", "null"]}), json!(null)).is_empty());
        assert!(errors(json!({"type": "number"}), json!(2)).is_empty());
        assert!(errors(json!({}), json!([1])).is_empty());
        assert!(errors(json!(true), json!(1)).is_empty());
        assert_eq!(errors(json!(false), json!(1)), vec!["$: no value is allowed here"]);
        assert!(Validator::new(&json!({"type": "object", "required": ["a"]})).unwrap().type_only.is_none());
        assert!(Validator::new(&json!({"type": "object", "nullable": true})).unwrap().type_only.is_none());
        let empty = json!({"type": "object", "properties": {}, "required": [], "patternProperties": {}});
        assert!(Validator::new(&empty).unwrap().type_only.is_some());
        assert!(errors(empty.clone(), json!({"a": 1})).is_empty());
        assert_eq!(errors(empty, json!("x")), vec!["$: expected object, got string"]);
        let props = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert!(Validator::new(&props).unwrap().type_only.is_none());
    }
}
