//! A run's journal: what the cell observed, so a fresh context can replay
//! it (issue 17).
//!
//! QuickJS cannot snapshot a heap, so a parked run is made durable by
//! recording everything non-deterministic its cell saw, in order:
//!
//! - every host request it made, as a fingerprint of the method and its
//!   arguments, by request id (ids are handed out in order, so the same
//!   code given the same answers makes the same requests with the same ids);
//! - every *step* — the settlements delivered together before the guest ran
//!   its jobs — with each settlement's reply;
//! - the clock (`Date`, `performance.now`) values it read, and the seed of
//!   its `Math.random`.
//!
//! Replay runs the same code in a fresh context: each request is checked
//! against its fingerprint and answered from the journal's steps, never
//! executed again; past the journal's end the cell runs live. A request,
//! a clock read or a settlement the journal does not account for is a
//! divergence: the run fails with `replay_diverged`, never resumes wrongly.
//!
//! Encoding: a small JSON header, then the steps as one JSON array built
//! incrementally while the cell runs (each step is serialized once, when
//! delivered, from the settlement itself: no copy of the values is kept).

use std::collections::VecDeque;

use codemode_bridge::Telemetry;
use codemode_store::StoredValue;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::requests::HostRequest;
use super::requests::reply::{ErrorName, Fault, Reply, Settlement};

/// The journal format this build writes and reads.
const FORMAT: u32 = 1;
/// The first bytes of every encoded journal.
const MAGIC: &[u8; 4] = b"CMJ1";

/// Why a stored journal cannot be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum JournalError {
    /// Not a journal, or a format this build does not read.
    #[error("the run's journal is not in a format this codemode reads ({0}); it cannot be resumed")]
    Format(String),
}

/// What a run is, fixed when it starts.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct Header {
    pub format: u32,
    /// The cell's wrapped source, exactly as compiled.
    pub wrapped: String,
    pub title: Option<String>,
    pub session: String,
    pub reply: String,
    pub principal: Option<String>,
    pub restart_safe: bool,
    /// `Math.random`'s seed.
    pub seed: u64,
}

/// The host-side state of the cell at the moment the journal was written,
/// restored after a replay (the guest's own state is rebuilt by the replay).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Snapshot {
    /// Steps whose output had been delivered to an observer: output the
    /// replay emits during them is not delivered again.
    pub delivered_steps: usize,
    /// Output budget used so far (GA-4).
    pub output_used: usize,
    pub telemetry: Telemetry,
    /// The cell had observed network-derived content.
    pub network: bool,
    pub envelope_id: Option<String>,
    /// Store writes not yet committed (GA-7.5), as `(key, json, network)`;
    /// `None` deletes.
    pub writes: Vec<(String, Option<(String, bool)>)>,
    /// Live timers and when they are due (ms since the epoch).
    pub timers: Vec<(u64, u64)>,
    /// Settled while parked, not yet delivered: delivered at the next
    /// window, as in memory.
    pub undelivered: Vec<Value>,
}

/// Records a cell's requests and steps while it runs.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    /// Fingerprint of request `id` at index `id - 1`.
    requests: Vec<u64>,
    /// The steps so far: a JSON array's contents, without brackets.
    steps: Vec<u8>,
    step_count: usize,
}

impl Recorder {
    /// A recorder that continues `journal` (a replayed run goes on
    /// recording where its journal ended).
    pub(crate) fn continuing(requests: Vec<u64>, steps: Vec<u8>, step_count: usize) -> Self {
        Self { requests, steps, step_count }
    }

    /// Request `id` was made.
    pub(crate) fn request(&mut self, id: u64, request: &HostRequest) {
        // Ids are consecutive from 1; a gap would be a bridge bug, and the
        // journal then records nothing misleading: it stops matching.
        if id as usize == self.requests.len() + 1 {
            self.requests.push(fingerprint(request));
        }
    }

    /// These settlements are about to be delivered together.
    pub(crate) fn step(&mut self, settlements: &[Settlement]) {
        if settlements.is_empty() {
            return;
        }
        if self.step_count > 0 {
            self.steps.push(b',');
        }
        self.steps.push(b'[');
        for (i, s) in settlements.iter().enumerate() {
            if i > 0 {
                self.steps.push(b',');
            }
            write_settlement(&mut self.steps, s);
        }
        self.steps.push(b']');
        self.step_count += 1;
    }

    /// Steps recorded so far.
    pub(crate) fn step_count(&self) -> usize {
        self.step_count
    }

    /// Bytes held (for the journal bound).
    pub(crate) fn len(&self) -> usize {
        self.steps.len() + self.requests.len() * 8
    }

    /// The journal as stored.
    pub(crate) fn encode(&self, header: &Header, clock: &[(u8, f64)], snapshot: &Snapshot) -> Vec<u8> {
        #[derive(Serialize)]
        struct Head<'a> {
            header: &'a Header,
            requests: &'a [u64],
            clock: &'a [(u8, f64)],
            snapshot: &'a Snapshot,
        }
        let head = serde_json::to_vec(&Head { header, requests: &self.requests, clock, snapshot })
            .unwrap_or_else(|e| unreachable_encoding(&e));
        let mut out = Vec::with_capacity(8 + head.len() + self.steps.len() + 2);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&u32::try_from(head.len()).unwrap_or(u32::MAX).to_le_bytes());
        out.extend_from_slice(&head);
        out.push(b'[');
        out.extend_from_slice(&self.steps);
        out.push(b']');
        out
    }
}

/// Records `calls` sequential tool calls as a cell with `journal = "park"`
/// does while it runs (each request's fingerprint, then the step that
/// delivers its reply `{ok: true}`) and returns the bytes the recorder
/// holds. Only for the journal micro-benchmark (`benches/journal.rs`): it
/// measures the in-memory recording cost per call without a QuickJS
/// context around it. Not part of the API.
#[doc(hidden)]
pub fn bench_record_calls(calls: u64) -> usize {
    let request = HostRequest::Call { tool: 0, input: Value::Object(serde_json::Map::new()) };
    let mut reply = serde_json::Map::new();
    reply.insert("ok".to_owned(), Value::Bool(true));
    let mut settled = [Settlement::value(0, Value::Object(reply))];
    let mut recorder = Recorder::default();
    for id in 1..=calls {
        recorder.request(id, &request);
        settled[0].id = id;
        recorder.step(&settled);
    }
    recorder.len()
}

/// serde_json cannot fail on these types (string keys, finite numbers are
/// written as `null` only for NaN, which the clock never records).
fn unreachable_encoding(e: &serde_json::Error) -> Vec<u8> {
    tracing::error!(error = %e, "journal header did not encode");
    b"{}".to_vec()
}

/// A journal read back for replay.
#[derive(Debug)]
pub(crate) struct Journal {
    pub header: Header,
    pub requests: Vec<u64>,
    pub clock: Vec<(u8, f64)>,
    pub snapshot: Snapshot,
    /// The steps not yet replayed.
    pub steps: VecDeque<Vec<Settlement>>,
    /// The steps' encoded text, to continue recording after the replay.
    pub steps_text: Vec<u8>,
    pub step_count: usize,
}

impl Journal {
    /// Reads an encoded journal.
    pub(crate) fn decode(bytes: &[u8]) -> Result<Self, JournalError> {
        #[derive(Deserialize)]
        struct Head {
            header: Header,
            requests: Vec<u64>,
            clock: Vec<(u8, f64)>,
            snapshot: Snapshot,
        }
        let format = |what: &str| JournalError::Format(what.to_owned());
        if bytes.len() < 8 || &bytes[..4] != MAGIC {
            return Err(format("no journal header"));
        }
        let len = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
        let head_end = 8usize.checked_add(len).filter(|e| *e <= bytes.len()).ok_or_else(|| format("truncated"))?;
        let head: Head = serde_json::from_slice(&bytes[8..head_end]).map_err(|e| format(&format!("header: {e}")))?;
        if head.header.format != FORMAT {
            return Err(format(&format!("format {}, this build reads {FORMAT}", head.header.format)));
        }
        let body = &bytes[head_end..];
        let raw: Vec<Vec<Value>> = serde_json::from_slice(body).map_err(|e| format(&format!("steps: {e}")))?;
        let mut steps = VecDeque::with_capacity(raw.len());
        for step in raw {
            let settlements =
                step.into_iter().map(read_settlement).collect::<Result<Vec<_>, _>>().map_err(|e| format(&e))?;
            steps.push_back(settlements);
        }
        let step_count = steps.len();
        // The text between the brackets, to append to.
        let steps_text = body.get(1..body.len().saturating_sub(1)).unwrap_or_default().to_vec();
        Ok(Self {
            header: head.header,
            requests: head.requests,
            clock: head.clock,
            snapshot: head.snapshot,
            steps,
            steps_text,
            step_count,
        })
    }
}

/// A settlement as `[id, 0, value]`, `[id, 1, "json text"]` or
/// `[id, 2, name, message, code]`.
fn write_settlement(out: &mut Vec<u8>, s: &Settlement) {
    let write = |out: &mut Vec<u8>, v: &dyn erased::Ser| v.to(out);
    out.push(b'[');
    out.extend_from_slice(s.id.to_string().as_bytes());
    match &s.reply {
        Reply::Value(value) => {
            out.extend_from_slice(b",0,");
            write(out, value);
        }
        Reply::Text(text) => {
            out.extend_from_slice(b",1,");
            write(out, text);
        }
        Reply::Fault(fault) => {
            out.extend_from_slice(b",2,");
            write(out, &fault.name.as_str());
            out.push(b',');
            write(out, &fault.message);
            out.push(b',');
            write(out, &fault.code);
        }
    }
    out.push(b']');
}

/// Serializing the three kinds of payload through one call site.
mod erased {
    pub(super) trait Ser {
        fn to(&self, out: &mut Vec<u8>);
    }

    impl<T: serde::Serialize + ?Sized> Ser for T {
        fn to(&self, out: &mut Vec<u8>) {
            // Writing JSON into a Vec cannot fail for these types (string
            // keys only); a failure would leave a malformed step that
            // decoding reports, never a silent wrong value.
            if let Err(e) = serde_json::to_writer(&mut *out, self) {
                tracing::error!(error = %e, "journal step did not encode");
            }
        }
    }
}

/// A settlement as a JSON value (the snapshot's undelivered ones).
pub(crate) fn settlement_value(s: &Settlement) -> Value {
    let mut out = Vec::new();
    write_settlement(&mut out, s);
    serde_json::from_slice(&out).unwrap_or(Value::Null)
}

/// A settlement from its JSON value.
pub(crate) fn read_settlement(v: Value) -> Result<Settlement, String> {
    let Value::Array(mut parts) = v else { return Err("a settlement is not an array".into()) };
    let bad = || "a malformed settlement".to_owned();
    let id = parts.first().and_then(Value::as_u64).ok_or_else(bad)?;
    let kind = parts.get(1).and_then(Value::as_u64).ok_or_else(bad)?;
    let reply = match kind {
        0 if parts.len() == 3 => Reply::Value(parts.swap_remove(2)),
        1 if parts.len() == 3 => Reply::Text(parts[2].as_str().ok_or_else(bad)?.to_owned()),
        2 if parts.len() == 5 => {
            let name = match parts[2].as_str() {
                Some("TypeError") => ErrorName::TypeError,
                Some("RangeError") => ErrorName::RangeError,
                Some("Error") => ErrorName::Error,
                _ => return Err(bad()),
            };
            let text = |i: usize| parts[i].as_str().map(str::to_owned).ok_or_else(bad);
            Reply::Fault(Fault { name, message: text(3)?, code: text(4)? })
        }
        _ => return Err(bad()),
    };
    Ok(Settlement { id, reply })
}

/// A stable 64-bit FNV-1a hash. Written here because it must never change
/// between builds (journals outlive processes and binaries), which std's
/// `DefaultHasher` does not promise, and a cryptographic hash would cost
/// more than the whole recording budget per call. A collision only weakens
/// the divergence check; it cannot make a replay run a request twice.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// A length-prefixed field, so `("ab","c")` and `("a","bc")` differ.
    fn field(&mut self, bytes: &[u8]) {
        self.bytes(&(bytes.len() as u64).to_le_bytes());
        self.bytes(bytes);
    }

    fn value(&mut self, v: &Value) {
        match v {
            Value::Null => self.bytes(b"n"),
            Value::Bool(b) => self.bytes(if *b { b"t" } else { b"f" }),
            Value::Number(n) => {
                self.bytes(b"#");
                self.field(n.to_string().as_bytes());
            }
            Value::String(s) => {
                self.bytes(b"s");
                self.field(s.as_bytes());
            }
            Value::Array(a) => {
                self.bytes(b"[");
                self.bytes(&(a.len() as u64).to_le_bytes());
                a.iter().for_each(|v| self.value(v));
            }
            // In insertion order: the replay runs the same code, which
            // builds its objects in the same order.
            Value::Object(o) => self.map(o),
        }
    }

    fn map(&mut self, o: &serde_json::Map<String, Value>) {
        self.bytes(b"{");
        self.bytes(&(o.len() as u64).to_le_bytes());
        for (k, v) in o {
            self.field(k.as_bytes());
            self.value(v);
        }
    }

    fn opt(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.field(s.as_bytes()),
            None => self.bytes(b"-"),
        }
    }
}

/// The fingerprint of a request: its method and arguments.
pub(crate) fn fingerprint(request: &HostRequest) -> u64 {
    let mut h = Fnv::new();
    let n = |h: &mut Fnv, n: u64| h.bytes(&n.to_le_bytes());
    match request {
        HostRequest::Call { tool, input } => {
            h.bytes(b"call");
            n(&mut h, *tool as u64);
            h.value(input);
        }
        HostRequest::Describe { tool } => {
            h.bytes(b"describe");
            n(&mut h, *tool as u64);
        }
        HostRequest::Search { query, limit } => {
            h.bytes(b"search");
            h.field(query.as_bytes());
            n(&mut h, limit.map_or(u64::MAX, f64::to_bits));
        }
        HostRequest::ApiList { prefix } => {
            h.bytes(b"apiList");
            h.field(prefix.as_bytes());
        }
        HostRequest::ApiRead { path } => {
            h.bytes(b"apiRead");
            h.field(path.as_bytes());
        }
        HostRequest::Yield { reason } => {
            h.bytes(b"yield");
            h.opt(reason.as_deref());
        }
        HostRequest::Timer { delay_ms } => {
            h.bytes(b"timer");
            n(&mut h, *delay_ms);
        }
        HostRequest::Store { key, json } => {
            h.bytes(b"store");
            h.field(key.as_bytes());
            h.opt(json.as_deref());
        }
        HostRequest::Load { key } => {
            h.bytes(b"load");
            h.field(key.as_bytes());
        }
        HostRequest::ResultSave { json, .. } => {
            h.bytes(b"resultSave");
            h.field(json.as_bytes());
        }
        HostRequest::ResultLoad { result_id } => {
            h.bytes(b"resultLoad");
            h.field(result_id.as_bytes());
        }
        HostRequest::ResultDelete { result_id } => {
            h.bytes(b"resultDelete");
            h.field(result_id.as_bytes());
        }
        HostRequest::McpCall { server, tool, args } => {
            h.bytes(b"mcpCall");
            n(&mut h, *server as u64);
            h.field(tool.as_bytes());
            h.map(args);
        }
        HostRequest::McpOp { server, op, args } => {
            h.bytes(b"mcpOp");
            n(&mut h, *server as u64);
            h.field(op.as_bytes());
            h.map(args);
        }
        HostRequest::McpApi { server, method, schema } => {
            h.bytes(b"mcpApi");
            n(&mut h, server.map_or(u64::MAX, |s| s as u64));
            h.opt(method.as_deref());
            h.bytes(if *schema { b"1" } else { b"0" });
        }
        HostRequest::NodesList => h.bytes(b"nodesList"),
        HostRequest::NodesGet { query } => {
            h.bytes(b"nodesGet");
            h.field(query.as_bytes());
        }
        HostRequest::NodesInvoke { node, command, params } => {
            h.bytes(b"nodesInvoke");
            h.field(node.as_bytes());
            h.field(command.as_bytes());
            h.value(params);
        }
    }
    h.0
}

/// A short description of a request for a divergence message (no
/// arguments: they may hold guest data).
pub(crate) fn describe(request: &HostRequest) -> &'static str {
    match request {
        HostRequest::Call { .. } => "a tool call",
        HostRequest::Describe { .. } => "describe()",
        HostRequest::Search { .. } => "catalog.search",
        HostRequest::ApiList { .. } => "API.list",
        HostRequest::ApiRead { .. } => "API.read",
        HostRequest::Yield { .. } => "yield_control",
        HostRequest::Timer { .. } => "setTimeout",
        HostRequest::Store { .. } => "store",
        HostRequest::Load { .. } => "load",
        HostRequest::ResultSave { .. } => "results.save",
        HostRequest::ResultLoad { .. } => "results.load",
        HostRequest::ResultDelete { .. } => "results.delete",
        HostRequest::McpCall { .. } => "an MCP tool call",
        HostRequest::McpOp { .. } => "an MCP operation",
        HostRequest::McpApi { .. } => "MCP $api()",
        HostRequest::NodesList => "nodes.list",
        HostRequest::NodesGet { .. } => "nodes.get",
        HostRequest::NodesInvoke { .. } => "a node invoke",
    }
}

/// The store writes of a snapshot, from the cell's buffer.
pub(crate) fn writes_of(buffer: &super::services::WriteBuffer) -> Vec<(String, Option<(String, bool)>)> {
    buffer.iter().map(|(k, v)| (k.clone(), v.as_ref().map(|v| (v.json.clone(), v.network)))).collect()
}

/// The cell's buffer from a snapshot's writes.
pub(crate) fn buffer_of(writes: Vec<(String, Option<(String, bool)>)>) -> super::services::WriteBuffer {
    writes.into_iter().map(|(k, v)| (k, v.map(|(json, network)| StoredValue { json, network }))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn header() -> Header {
        Header {
            format: FORMAT,
            wrapped: "(async function () {\nreturn 1\n})".into(),
            title: None,
            session: "s".into(),
            reply: "r".into(),
            principal: None,
            restart_safe: false,
            seed: 7,
        }
    }

    #[test]
    fn a_journal_round_trips_requests_steps_clock_and_snapshot() {
        let mut rec = Recorder::default();
        rec.request(1, &HostRequest::Call { tool: 0, input: json!({"a": 1}) });
        rec.request(2, &HostRequest::Yield { reason: None });
        rec.step(&[
            Settlement::value(1, json!({"ok": [1, 2]})),
            Settlement::fault(2, Fault::new(ErrorName::TypeError, "bad \"x\"", "input_contract")),
        ]);
        rec.step(&[Settlement { id: 3, reply: Reply::Text("{\"found\":true}".into()) }]);
        let snapshot = Snapshot { delivered_steps: 2, output_used: 10, ..Snapshot::default() };
        let bytes = rec.encode(&header(), &[(0, 1.5e12), (1, 0.25)], &snapshot);
        let j = Journal::decode(&bytes).unwrap();
        assert_eq!(j.header, header());
        assert_eq!(j.requests.len(), 2);
        assert_eq!(j.clock, vec![(0, 1.5e12), (1, 0.25)]);
        assert_eq!(j.snapshot.delivered_steps, 2);
        assert_eq!(j.steps.len(), 2);
        assert!(matches!(&j.steps[0][0].reply, Reply::Value(v) if *v == json!({"ok": [1, 2]})));
        assert!(
            matches!(&j.steps[0][1].reply, Reply::Fault(f) if f.message == "bad \"x\"" && f.code == "input_contract")
        );
        assert!(matches!(&j.steps[1][0].reply, Reply::Text(t) if t == "{\"found\":true}"));
        // Recording goes on after a replay: the same text, one more step.
        let mut more = Recorder::continuing(j.requests, j.steps_text, j.step_count);
        more.step(&[Settlement::value(4, json!(null))]);
        assert_eq!(Journal::decode(&more.encode(&header(), &[], &snapshot)).unwrap().steps.len(), 3);
    }

    #[test]
    fn fingerprints_tell_methods_and_arguments_apart() {
        let a = fingerprint(&HostRequest::Store { key: "ab".into(), json: Some("1".into()) });
        let b = fingerprint(&HostRequest::Store { key: "a".into(), json: Some("b1".into()) });
        let c = fingerprint(&HostRequest::Load { key: "ab".into() });
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_eq!(a, fingerprint(&HostRequest::Store { key: "ab".into(), json: Some("1".into()) }));
        let call = |v| fingerprint(&HostRequest::Call { tool: 1, input: v });
        assert_ne!(call(json!({"n": 1})), call(json!({"n": 2})));
        assert_ne!(call(json!(["1"])), call(json!([1])));
    }

    #[test]
    fn a_damaged_or_foreign_journal_is_refused_with_why() {
        assert!(Journal::decode(b"nope").is_err());
        let mut bytes = Recorder::default().encode(&header(), &[], &Snapshot::default());
        bytes.truncate(bytes.len() - 1);
        assert!(Journal::decode(&bytes).unwrap_err().to_string().contains("steps"));
        let mut other = header();
        other.format = 99;
        let bytes = Recorder::default().encode(&other, &[], &Snapshot::default());
        assert!(Journal::decode(&bytes).unwrap_err().to_string().contains("format 99"));
    }
}
