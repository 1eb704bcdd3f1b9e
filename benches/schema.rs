//! Tool schema validation cost per call: a realistic tool input
//! schema (typed properties, `required`, an `enum`, a nested array of
//! objects) with a valid and an invalid input, a `type`-only schema (the
//! common `{type: "object", properties: {}}`), and compiling the realistic
//! schema once, as registration does.
#![expect(missing_docs, reason = "criterion_group! generates an undocumented function")]

use std::hint::black_box;

use codemode_catalog::schema::Validator;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};

fn realistic_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "customer": {"type": "string", "minLength": 1, "description": "The customer id."},
            "status": {"type": "string", "enum": ["draft", "open", "paid", "void"]},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100},
            "includeLines": {"type": "boolean"},
            "lines": {
                "type": "array",
                "maxItems": 50,
                "items": {
                    "type": "object",
                    "properties": {"sku": {"type": "string"}, "quantity": {"type": "integer", "minimum": 1}},
                    "required": ["sku", "quantity"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["customer", "status"],
        "additionalProperties": false
    })
}

fn valid_input() -> Value {
    json!({"customer": "cus_123", "status": "open", "limit": 20, "includeLines": true,
        "lines": [{"sku": "A-1", "quantity": 2}, {"sku": "B-7", "quantity": 1}, {"sku": "C-3", "quantity": 5}]})
}

fn invalid_input() -> Value {
    json!({"customer": "cus_123", "status": "late", "limit": 0,
        "lines": [{"sku": "A-1", "quantity": 2}, {"sku": 7}]})
}

fn validate(c: &mut Criterion) {
    let mut group = c.benchmark_group("schema validate per call");
    let realistic = Validator::new(&realistic_schema()).expect("compiles");
    let (valid, invalid) = (valid_input(), invalid_input());
    assert!(realistic.validate(&valid).is_empty());
    assert!(!realistic.validate(&invalid).is_empty());
    group.bench_function("realistic schema, valid input", |b| b.iter(|| realistic.validate(black_box(&valid))));
    group.bench_function("realistic schema, invalid input", |b| b.iter(|| realistic.validate(black_box(&invalid))));
    let type_only = Validator::new(&json!({"type": "object", "properties": {}})).expect("compiles");
    let input = json!({"path": "src/lib.rs", "limit": 10});
    assert!(type_only.validate(&input).is_empty());
    group.bench_function("type-only schema, valid input", |b| b.iter(|| type_only.validate(black_box(&input))));
    group.finish();
}

fn compile(c: &mut Criterion) {
    let schema = realistic_schema();
    c.bench_function("schema compile (realistic, once per tool at registration)", |b| {
        b.iter(|| Validator::new(black_box(&schema)).expect("compiles"));
    });
}

criterion_group!(benches, validate, compile);
criterion_main!(benches);
