//! Compact TypeScript-style hints rendered from JSON Schema.
//!
//! Input hints (at most 300 characters, 4 object levels, 16 properties per
//! object) are shown even when incomplete (`{ ... }` marks what was left
//! out). Output hints (800 characters, 6 levels, 22 properties) exist only
//! when complete and closed: every object layer has
//! `additionalProperties: false`, nothing was cut, and the schema uses no
//! `$ref`, `allOf`, `patternProperties`, `if`/`then`/`else`, `not` or
//! `prefixItems`. Required properties come first, each group sorted.

use serde_json::{Map, Value};

struct Bounds {
    max_len: usize,
    max_depth: usize,
    max_props: usize,
    annotate_numbers: bool,
    require_closed: bool,
}

const INPUT: Bounds =
    Bounds { max_len: 300, max_depth: 4, max_props: 16, annotate_numbers: true, require_closed: false };
const OUTPUT: Bounds =
    Bounds { max_len: 800, max_depth: 6, max_props: 22, annotate_numbers: false, require_closed: true };
const DECLARATION: Bounds =
    Bounds { max_len: 32_768, max_depth: 8, max_props: 256, annotate_numbers: true, require_closed: false };
const MAX_NAME: usize = 128;
const MAX_UNION: usize = 5;
const MAX_ENUM: usize = 8;
const MAX_ENUM_CHARS: usize = 96;
const INCOMPLETE_KEYWORDS: &[&str] =
    &["$ref", "allOf", "patternProperties", "if", "then", "else", "not", "prefixItems"];

struct Renderer {
    bounds: Bounds,
    complete: bool,
}

/// The input hint of a tool's input schema.
#[must_use]
pub fn input_hint(schema: &Value) -> String {
    let mut r = Renderer { bounds: INPUT, complete: true };
    let text = r.render(schema, 0);
    if text.chars().count() > r.bounds.max_len { "{ ... }".to_owned() } else { text }
}

/// The TypeScript type of `schema` for a `.d.ts` declaration (8 levels,
/// 32 KiB); `unknown` for what it cannot express.
#[must_use]
pub fn declaration_type(schema: &Value) -> String {
    let mut r = Renderer { bounds: DECLARATION, complete: true };
    let text = r.render(schema, 0);
    if text.chars().count() > r.bounds.max_len { "unknown".to_owned() } else { text }
}

/// The output hint of a trusted output schema, only when it is complete.
#[must_use]
pub fn output_hint(schema: &Value) -> Option<String> {
    let mut r = Renderer { bounds: OUTPUT, complete: true };
    let text = r.render(schema, 0);
    (r.complete && text.chars().count() <= r.bounds.max_len).then_some(text)
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

fn number_note(map: &Map<String, Value>, integer: bool) -> String {
    let mut notes = Vec::new();
    if integer {
        notes.push("integer".to_owned());
    }
    let fmt = |v: &Value| v.to_string();
    for (key, op) in [("minimum", ">="), ("exclusiveMinimum", ">"), ("maximum", "<="), ("exclusiveMaximum", "<")] {
        if let Some(v) = map.get(key).filter(|v| v.is_number()) {
            notes.push(format!("{op} {}", fmt(v)));
        }
    }
    if notes.is_empty() { "number".to_owned() } else { format!("number /* {} */", notes.join(", ")) }
}

impl Renderer {
    fn render(&mut self, schema: &Value, depth: usize) -> String {
        let map = match schema {
            Value::Bool(true) => return "unknown".into(),
            Value::Object(map) => map,
            _ => {
                self.complete = false;
                return "unknown".into();
            }
        };
        if INCOMPLETE_KEYWORDS.iter().any(|k| map.contains_key(*k)) {
            self.complete = false;
            if map.contains_key("$ref") {
                return "unknown".into();
            }
        }
        let mut text = self.render_inner(map, depth);
        if map.get("nullable") == Some(&Value::Bool(true)) && text != "unknown" && !text.ends_with("| null") {
            text.push_str(" | null");
        }
        text
    }

    fn render_inner(&mut self, map: &Map<String, Value>, depth: usize) -> String {
        if let Some(c) = map.get("const") {
            return c.to_string();
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            let literals: Vec<String> = values.iter().map(Value::to_string).collect();
            if values.len() <= MAX_ENUM && literals.iter().map(String::len).sum::<usize>() <= MAX_ENUM_CHARS {
                return literals.join(" | ");
            }
            self.complete = false;
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(members)) = map.get(key) {
                if members.len() > MAX_UNION {
                    self.complete = false;
                    return "unknown".into();
                }
                let mut parts: Vec<String> = Vec::new();
                for m in members {
                    let p = self.render(m, depth);
                    if !parts.contains(&p) {
                        parts.push(p);
                    }
                }
                return parts.join(" | ");
            }
        }
        match map.get("type") {
            Some(Value::String(t)) => self.render_type(t, map, depth),
            Some(Value::Array(types)) => {
                let parts: Vec<String> =
                    types.iter().filter_map(Value::as_str).map(|t| self.render_type(t, map, depth)).collect();
                if parts.is_empty() { "unknown".into() } else { parts.join(" | ") }
            }
            _ if map.contains_key("properties") => self.render_object(map, depth),
            _ => "unknown".into(),
        }
    }

    fn render_type(&mut self, ty: &str, map: &Map<String, Value>, depth: usize) -> String {
        match ty {
            "string" | "boolean" | "null" => ty.into(),
            "number" | "integer" if self.bounds.annotate_numbers => number_note(map, ty == "integer"),
            "number" | "integer" => "number".into(),
            "array" => match map.get("items") {
                Some(items) => format!("Array<{}>", self.render(items, depth + 1)),
                None => "Array<unknown>".into(),
            },
            "object" => self.render_object(map, depth),
            _ => {
                self.complete = false;
                "unknown".into()
            }
        }
    }

    fn render_object(&mut self, map: &Map<String, Value>, depth: usize) -> String {
        let closed = map.get("additionalProperties") == Some(&Value::Bool(false));
        if self.bounds.require_closed && !closed {
            self.complete = false;
        }
        let empty = Map::new();
        let props = map.get("properties").and_then(Value::as_object).unwrap_or(&empty);
        if props.is_empty() {
            return match map.get("additionalProperties") {
                Some(extra @ Value::Object(_)) => format!("Record<string, {}>", self.render(extra, depth + 1)),
                _ if closed => "{}".into(),
                _ => "Record<string, unknown>".into(),
            };
        }
        if depth >= self.bounds.max_depth {
            self.complete = false;
            return "{ ... }".into();
        }
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut keys: Vec<(&String, bool)> = props.keys().map(|k| (k, required.contains(&k.as_str()))).collect();
        keys.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        let mut fields: Vec<String> = Vec::new();
        let mut used = 4;
        let mut cut = false;
        for (key, is_required) in keys {
            if key.chars().count() > MAX_NAME {
                cut = true;
                continue;
            }
            if fields.len() >= self.bounds.max_props {
                cut = true;
                break;
            }
            let name = if is_identifier(key) { key.clone() } else { Value::String(key.clone()).to_string() };
            let field =
                format!("{name}{}: {}", if is_required { "" } else { "?" }, self.render(&props[key], depth + 1));
            if used + field.chars().count() + 2 > self.bounds.max_len.saturating_sub(8) {
                cut = true;
                break;
            }
            used += field.chars().count() + 2;
            fields.push(field);
        }
        if cut {
            self.complete = false;
            fields.push("...".into());
        }
        format!("{{ {} }}", fields.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn input_hints_sort_required_first_and_annotate_numbers() {
        let schema = json!({"type": "object", "properties": {
            "path": {"type": "string"}, "cursor": {"type": "integer", "minimum": 0}, "limit": {"type": "number"},
            "offset": {"type": "integer", "minimum": 1}, "optional": {"const": true}}, "required": ["path"]});
        assert_eq!(
            input_hint(&schema),
            "{ path: string; cursor?: number /* integer, >= 0 */; limit?: number; offset?: number /* integer, >= 1 */; optional?: true }"
        );
        assert_eq!(
            input_hint(&json!({"type": "object", "properties": {"value": {"type": "string"}}})),
            "{ value?: string }"
        );
        assert_eq!(input_hint(&json!({})), "unknown");
    }

    #[test]
    fn output_hints_exist_only_for_complete_closed_schemas() {
        let closed = json!({"type": "array", "items": {"type": "object", "additionalProperties": false,
            "properties": {"id": {"type": "string"}, "score": {"type": "number"}}, "required": ["id", "score"]}});
        assert_eq!(output_hint(&closed).as_deref(), Some("Array<{ id: string; score: number }>"));
        let open = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}});
        assert_eq!(output_hint(&open), None);
        let with_ref = json!({"type": "object", "additionalProperties": false, "properties": {"a": {"$ref": "#/x"}}});
        assert_eq!(output_hint(&with_ref), None);
        assert_eq!(output_hint(&json!({})).as_deref(), Some("unknown"));
    }

    #[test]
    fn enums_unions_and_limits() {
        assert_eq!(input_hint(&json!({"enum": ["a", "b"]})), "\"a\" | \"b\"");
        assert_eq!(input_hint(&json!({"type": ["string", "null"]})), "string | null");
        let many: serde_json::Map<String, Value> =
            (0..20).map(|i| (format!("k{i:02}"), json!({"type": "string"}))).collect();
        let hint = input_hint(&json!({"type": "object", "properties": many}));
        assert!(hint.ends_with("; ... }") && hint.matches(':').count() == 16, "{hint}");
        let deep = json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "object",
            "properties": {"c": {"type": "object", "properties": {"d": {"type": "object", "properties": {"e": {"type": "string"}}}}}}}}}}});
        assert_eq!(input_hint(&deep), "{ a?: { b?: { c?: { d?: { ... } } } } }");
    }
}
