//! Catalog benchmarks: search over 10,000 tools, quick-index build for
//! 1,000 tools, and a trivial cell with 100 installed tools versus none.
#![expect(missing_docs, reason = "criterion_group! generates an undocumented function")]

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode_benches::{completed, on_worker, tokio_runtime};
use codemode_catalog::index::quick_index;
use codemode_catalog::search::{SearchDoc, SearchIndex};
use codemode_catalog::{Registry, Tool, ToolFuture, ToolOutput};
use codemode_runtime::{CodeMode, Exec};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};

const WORDS: &[&str] = &[
    "invoice", "customer", "search", "web", "file", "list", "create", "delete", "update", "report", "calendar",
    "event", "message", "send", "image", "audio", "deploy", "build", "ticket", "user", "account", "payment",
];

struct Generated {
    name: String,
    description: String,
}

impl Tool for Generated {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        &self.description
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"id": {"type": "string", "description": "The record id."}, "limit": {"type": "integer", "minimum": 1}}, "required": ["id"]})
    }
    fn call(&self, _input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        Box::pin(async { Ok(ToolOutput::json(json!({"ok": true}))) })
    }
}

fn generated(n: usize) -> Vec<Arc<dyn Tool>> {
    (0..n)
        .map(|i| {
            let (a, b, c) = (WORDS[i % WORDS.len()], WORDS[(i / 3) % WORDS.len()], WORDS[(i / 7) % WORDS.len()]);
            Arc::new(Generated {
                name: format!("{a}_{b}_{i}"),
                description: format!("{a} the {b} records of a {c}, with paging and filters ({i})."),
            }) as Arc<dyn Tool>
        })
        .collect()
}

fn search_10k(c: &mut Criterion) {
    let registry = Registry::new(generated(10_000)).unwrap();
    let docs: Vec<SearchDoc> = registry
        .entries()
        .iter()
        .map(|e| SearchDoc {
            id: e.id.clone(),
            name: e.metadata.tool_name.clone(),
            text: e.tool.description().to_owned(),
        })
        .collect();
    let index = SearchIndex::new(&docs);
    c.bench_function("search over 10,000 tools", |b| b.iter(|| index.search("list overdue customer invoices", 8)));
}

fn index_build_1k(c: &mut Criterion) {
    c.bench_function("registry + quick index for 1,000 tools", |b| {
        b.iter(|| {
            let registry = Registry::new(generated(1_000)).unwrap();
            quick_index(registry.entries().iter().map(|e| &e.metadata))
        });
    });
}

fn trivial_cell_with_tools(c: &mut Criterion) {
    let rt = tokio_runtime();
    let mut group = c.benchmark_group("trivial cell on an idle runtime");
    for tools in [0, 100] {
        let cm = rt.block_on(async {
            let mut b = CodeMode::builder();
            for t in generated(tools) {
                b = b.tool_arc(t);
            }
            b.start().await.unwrap()
        });
        group.bench_function(format!("{tools} tools"), |b| {
            b.iter_custom(|iters| {
                let reply = cm.session("bench").reply("r");
                on_worker(&rt, move || async move {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        tokio::time::sleep(Duration::from_millis(2)).await;
                        let start = Instant::now();
                        completed(&reply.exec(Exec::code("return 1")).await.unwrap());
                        total += start.elapsed();
                    }
                    total
                })
            });
        });
    }
    group.finish();
}

criterion_group!(benches, search_10k, index_build_1k, trivial_cell_with_tools);
criterion_main!(benches);
