//! Reference descriptors: what a model sees of a saved result without
//! reading it all (GA-6.5, GA-6.6, reference notes §4.2).
//!
//! `{id, bytes, count, shape, preview, previewTruncated}` within 768 bytes of
//! JSON. `shape` names the largest arrays found by a bounded breadth-first
//! walk (128 visits, depth 5, 16 keys per object) with counts and sampled
//! item shapes (first, middle and last items); `preview` is the whole value
//! when it is at most 256 bytes, otherwise a sample. Samples are not a
//! schema.

use std::collections::VecDeque;

use codemode_protocol::budget::{json_string_prefix, utf8_prefix};
use serde::Serialize;
use serde_json::{Map, Value, json};

const MAX_VISITS: usize = 128;
const MAX_DEPTH: usize = 5;
const MAX_KEYS: usize = 16;
const MAX_PATH_BYTES: usize = 192;
const MAX_ARRAYS: usize = 8;
const SHAPE_KEYS: usize = 6;
const SHAPE_KEY_BYTES: usize = 40;
const WHOLE_PREVIEW_BYTES: usize = 256;
const SAMPLE_STRING_BYTES: usize = 48;
const FIELD_BUDGET_BYTES: usize = 96;
/// The largest descriptor, in bytes of compact JSON.
pub const MAX_DESCRIPTOR_BYTES: usize = 768;

/// A saved result's descriptor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Descriptor {
    /// The id for `results.load`.
    pub id: String,
    /// UTF-8 bytes of the value's compact JSON.
    pub bytes: usize,
    /// Array length, object key count, or 1 for a scalar.
    pub count: usize,
    /// Observed, bounded sample shapes and nested array counts.
    pub shape: String,
    /// The whole value when small, else a bounded sample (JSON text).
    pub preview: String,
    /// Whether `preview` is not the whole value.
    pub preview_truncated: bool,
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn cut_key(key: &str) -> String {
    if key.len() <= SHAPE_KEY_BYTES { key.to_owned() } else { format!("{}…", utf8_prefix(key, SHAPE_KEY_BYTES)) }
}

/// The sample shape of one value.
fn sample_shape(v: &Value) -> String {
    match v {
        Value::Object(map) => {
            let fields: Vec<String> = map
                .iter()
                .take(SHAPE_KEYS)
                .map(|(k, v)| format!("{}:{}", Value::String(cut_key(k)), kind(v)))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        other => kind(other).to_owned(),
    }
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

fn segment(key: &str) -> String {
    if is_identifier(key) { format!(".{key}") } else { format!("[{}]", Value::String(key.to_owned())) }
}

fn sample_indices(len: usize) -> Vec<usize> {
    let mut idx = vec![0, len / 2, len.saturating_sub(1)];
    idx.retain(|i| *i < len);
    idx.dedup();
    idx
}

struct FoundArray<'a> {
    path: String,
    items: &'a [Value],
}

/// Breadth-first discovery of arrays; returns them and whether a bound cut
/// the walk.
fn discover(root: &Value) -> (Vec<FoundArray<'_>>, bool) {
    let mut limited = false;
    let mut found = Vec::new();
    let mut queue: VecDeque<(String, &Value, usize)> = VecDeque::from([("$".to_owned(), root, 0)]);
    let mut visits = 0;
    while let Some((path, value, depth)) = queue.pop_front() {
        visits += 1;
        if visits > MAX_VISITS {
            limited = true;
            break;
        }
        let mut children: Vec<(String, &Value)> = Vec::new();
        match value {
            Value::Array(items) => {
                found.push(FoundArray { path: path.clone(), items });
                let sampled = sample_indices(items.len());
                if items.len() > sampled.len() {
                    limited = true;
                }
                for i in sampled {
                    if matches!(items[i], Value::Array(_) | Value::Object(_)) {
                        children.push((format!("{path}[{i}]"), &items[i]));
                    }
                }
            }
            Value::Object(map) => {
                if map.len() > MAX_KEYS {
                    limited = true;
                }
                for (k, v) in map.iter().take(MAX_KEYS) {
                    if k.chars().count() > MAX_PATH_BYTES {
                        limited = true;
                        continue;
                    }
                    if matches!(v, Value::Array(_) | Value::Object(_)) {
                        children.push((format!("{path}{}", segment(k)), v));
                    }
                }
            }
            _ => {}
        }
        for (child_path, child) in children {
            if child_path.len() > MAX_PATH_BYTES || depth + 1 > MAX_DEPTH {
                limited = true;
            } else {
                queue.push_back((child_path, child, depth + 1));
            }
        }
    }
    found.sort_by(|a, b| b.items.len().cmp(&a.items.len()).then_with(|| a.path.cmp(&b.path)));
    found.truncate(MAX_ARRAYS);
    (found, limited)
}

fn observed(items: &[Value]) -> String {
    let sampled = sample_indices(items.len());
    let mut shapes: Vec<String> = Vec::new();
    for i in &sampled {
        let s = sample_shape(&items[*i]);
        if !shapes.contains(&s) {
            shapes.push(s);
        }
    }
    let hetero = if shapes.len() > 1 { " heterogeneous" } else { "" };
    format!("sampled {}/{}{hetero}: {}", sampled.len(), items.len(), shapes.join(" | "))
}

/// A bounded copy of `v` for a preview: strings cut to 48 bytes, two levels,
/// two array items, six object keys.
fn sample_value(v: &Value, depth: usize) -> Value {
    match v {
        Value::String(s) if s.len() > SAMPLE_STRING_BYTES => {
            Value::String(format!("{}…", utf8_prefix(s, SAMPLE_STRING_BYTES)))
        }
        Value::Array(items) if depth >= 2 => Value::String(format!("[array: {} items]", items.len())),
        Value::Object(_) if depth >= 2 => Value::String("[object]".into()),
        Value::Array(items) => Value::Array(items.iter().take(2).map(|i| sample_value(i, depth + 1)).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().take(SHAPE_KEYS).map(|(k, v)| (k.clone(), sample_value(v, depth + 1))).collect())
        }
        other => other.clone(),
    }
}

/// Up to four small scalars from the first 16 keys of a root object.
fn envelope_fields(root: &Value) -> Option<Map<String, Value>> {
    let map = root.as_object()?;
    let mut candidates: Vec<(&String, &Value)> = map
        .iter()
        .take(MAX_KEYS)
        .filter(|(_, v)| match v {
            Value::String(s) => s.chars().count() <= SAMPLE_STRING_BYTES,
            Value::Number(_) | Value::Bool(_) | Value::Null => true,
            _ => false,
        })
        .collect();
    candidates.sort_by_key(|(_, v)| v.is_string());
    let mut out = Map::new();
    let mut used = 2;
    for (k, v) in candidates.into_iter().take(4) {
        let cost = k.len() + v.to_string().len() + 4;
        if used + cost > FIELD_BUDGET_BYTES {
            break;
        }
        used += cost;
        out.insert(k.clone(), v.clone());
    }
    (!out.is_empty()).then_some(out)
}

/// Describes `value` (whose compact JSON is `json`) under `id`, within 768
/// bytes; the identity fields are never cut.
#[must_use]
pub fn describe(id: &str, value: &Value, json: &str) -> Descriptor {
    let count = match value {
        Value::Array(a) => a.len(),
        Value::Object(o) => o.len(),
        _ => 1,
    };
    let (arrays, limited) = discover(value);
    let mut shape = if limited { "limited traversal; ".to_owned() } else { String::new() };
    if arrays.is_empty() {
        shape.push_str(&sample_shape(value));
    } else {
        let parts: Vec<String> =
            arrays.iter().map(|a| format!("{}: {} items, {}", a.path, a.items.len(), observed(a.items))).collect();
        shape.push_str(&parts.join("; "));
    }
    let (preview, preview_truncated) = if json.len() <= WHOLE_PREVIEW_BYTES {
        (json.to_owned(), false)
    } else {
        let mut p = json!({"sampled": true, "traversalLimited": limited});
        if let Some(fields) = envelope_fields(value) {
            p["fields"] = Value::Object(fields);
        }
        if arrays.is_empty() {
            p["value"] = sample_value(value, 0);
        } else {
            let listed: Vec<Value> = arrays
                .iter()
                .map(|a| {
                    let items: Vec<Value> = sample_indices(a.items.len())
                        .into_iter()
                        .map(|i| json!({"index": i, "value": sample_value(&a.items[i], 1)}))
                        .collect();
                    json!({"path": a.path, "count": a.items.len(), "items": items})
                })
                .collect();
            p["arrays"] = Value::Array(listed);
        }
        (p.to_string(), true)
    };
    fit(Descriptor { id: id.to_owned(), bytes: json.len(), count, shape, preview, preview_truncated })
}

/// Shrinks `shape` and `preview` until the descriptor fits 768 bytes.
fn fit(mut d: Descriptor) -> Descriptor {
    let len = |d: &Descriptor| serde_json::to_string(d).map_or(0, |s| s.len());
    if len(&d) <= MAX_DESCRIPTOR_BYTES {
        return d;
    }
    d.preview_truncated = true;
    let (shape, preview) = (std::mem::take(&mut d.shape), std::mem::take(&mut d.preview));
    let room = MAX_DESCRIPTOR_BYTES.saturating_sub(len(&d));
    let shape_room = (room / 3).max(2);
    d.shape = json_string_prefix(&shape, shape_room + 2).to_owned();
    let left = MAX_DESCRIPTOR_BYTES.saturating_sub(len(&d));
    d.preview = json_string_prefix(&preview, left + 2).to_owned();
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn describe_value(v: Value) -> Descriptor {
        let json = v.to_string();
        describe("result_x", &v, &json)
    }

    #[test]
    fn a_small_value_previews_whole() {
        let d = describe_value(json!({"a": [1, 2]}));
        assert_eq!((d.count, d.preview.as_str(), d.preview_truncated), (1, r#"{"a":[1,2]}"#, false));
        assert_eq!(d.shape, "$.a: 2 items, sampled 2/2: number");
    }

    #[test]
    fn a_long_astral_string_is_measured_in_utf8_and_never_split() {
        let d = describe_value(Value::String("🦞".repeat(255)));
        assert_eq!((d.bytes, d.count, d.shape.as_str(), d.preview_truncated), (1022, 1, "string", true));
        assert!(serde_json::to_string(&d).unwrap().len() <= MAX_DESCRIPTOR_BYTES);
    }

    #[test]
    fn rows_report_counts_and_heterogeneous_samples() {
        let mut rows: Vec<Value> = (0..180).map(|i| json!({"id": i, "name": format!("row {i}")})).collect();
        rows[90] = json!("odd");
        rows[179] = Value::Null;
        let d = describe_value(json!({"structuredContent": {"rows": rows}}));
        assert!(d.shape.contains("$.structuredContent.rows: 180 items, sampled 3/180 heterogeneous"), "{}", d.shape);
        assert!(d.preview_truncated);
        assert!(serde_json::to_string(&d).unwrap().len() <= MAX_DESCRIPTOR_BYTES);
    }

    #[test]
    fn deep_values_with_huge_keys_are_limited_and_fit() {
        let mut v = json!({"leaf": 1});
        for i in 0..20 {
            v = json!({ format!("k{i}"): v, "x".repeat(10_000): [1, 2, 3] });
        }
        let d = describe_value(v);
        assert!(d.shape.starts_with("limited traversal"));
        assert!(d.preview.contains("\"traversalLimited\":true"));
        assert!(serde_json::to_string(&d).unwrap().len() <= MAX_DESCRIPTOR_BYTES);
    }
}
