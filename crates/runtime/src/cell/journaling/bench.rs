//! The journal micro-benchmark's hook.

use serde_json::Value;

use super::fingerprint::fingerprint;
use crate::durable::journal::Recorder;
use crate::durable::journal::fnv::Identities;
use crate::engine::settlement::Settlement;

/// Records `calls` sequential tool calls as a cell with `journal = "park"`
/// does while it runs (each request's fingerprint, then the step that
/// delivers its reply `{ok: true}`) and returns the bytes the recorder
/// holds. Only for the journal micro-benchmark (`benches/journal.rs`): it
/// measures the in-memory recording cost per call without a QuickJS
/// context around it. Not part of the API.
#[doc(hidden)]
pub fn bench_record_calls(calls: u64) -> usize {
    struct One;
    impl Identities for One {
        fn tool(&self, _: usize) -> Option<&str> {
            Some("openclaw:noop")
        }
        fn server(&self, _: usize) -> Option<&str> {
            None
        }
    }
    let request = crate::cell::requests::HostRequest::Call(crate::cell::requests::Call {
        tool: 0,
        input: Value::Object(serde_json::Map::new()),
    });
    let mut reply = serde_json::Map::new();
    reply.insert("ok".to_owned(), Value::Bool(true));
    let mut settled = [Settlement::value(0, Value::Object(reply))];
    let mut recorder = Recorder::default();
    for id in 1..=calls {
        recorder.request(id, fingerprint(&request, &One));
        settled[0].id = id;
        recorder.step(&settled);
    }
    recorder.len()
}
