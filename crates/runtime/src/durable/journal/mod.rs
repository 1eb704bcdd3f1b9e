//! A run's journal: what the cell observed, so a fresh context can replay
//! it.
//!
//! QuickJS cannot snapshot a heap, so a parked run is made durable by
//! recording everything non-deterministic its cell saw, in order:
//!
//! - every host request it made, as a fingerprint of the method, what it
//!   refers to (by identity, see `fingerprint.rs`) and its arguments, by
//!   request id (ids are handed out in order, so the same code given the
//!   same answers makes the same requests with the same ids);
//! - every *step* — the settlements delivered together before the guest ran
//!   its jobs — with each settlement's reply;
//! - the clock (`Date`, `performance.now`) values it read, the seed of its
//!   `Math.random`, and the answers to its synchronous reads of the host's
//!   configuration (a tool handle's metadata, the MCP namespace), so a
//!   resume after a deploy sees what the run saw;
//! - the tool table its engine was made with (callable name and catalog id
//!   per global), so a replay installs the same globals even when the
//!   deploy added, removed or reordered tools.
//!
//! Replay runs the same code in a fresh context: each request is checked
//! against its fingerprint and answered from the journal's steps, never
//! executed again; past the journal's end the cell runs live. A request,
//! a read or a settlement the journal does not account for is a
//! divergence: the run fails with `replay_diverged`, never resumes wrongly.
//!
//! Encoding (format 2, `codec.rs`): the magic `CMJ2`, then segments, each
//! with its kind, length and CRC-32. The first is the header; every write
//! of the journal appends one *delta* segment with what is new since the
//! last write, so a park costs what happened since the previous one, not
//! the whole run. Format 1 (`CMJ1`, one JSON header and every step, written
//! whole at each park) is still read; the first write after resuming such
//! a journal replaces it with format 2.

mod codec;
pub(crate) mod fingerprint;
pub(crate) mod fnv;

use std::collections::{BTreeSet, VecDeque};

use codemode_bridge::Telemetry;
use codemode_store::StoredValue;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub(crate) use codec::JournalError;
pub(crate) use fingerprint::{fingerprint, fingerprint_v1};
pub(crate) use fnv::Identities;

use crate::cell::effects::WriteBuffer;
use crate::cell::requests::{Answer, ErrorName, Fault, Settlement};

/// The largest journal a run keeps (16 MiB); past it the run is no longer
/// durable: it goes on in memory, and the reason is logged.
pub(crate) const MAX_JOURNAL_BYTES: usize = 16 * 1024 * 1024;

/// The journal format this build writes.
pub(crate) const FORMAT: u32 = 2;
/// The oldest format this build reads.
pub(crate) const OLDEST_FORMAT: u32 = 1;

/// One global of the engine's tool table: its callable name and the tool's
/// catalog id (`openclaw:<name>`), its identity across deploys.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct ToolRef(pub String, pub String);

/// A journal's tool table, shared by every cell of a runtime (it is the
/// registry's, made once) and stored as a plain JSON array.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ToolRefs(pub std::sync::Arc<[ToolRef]>);

impl Serialize for ToolRefs {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for ToolRefs {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<ToolRef>::deserialize(d).map(|v| Self(v.into()))
    }
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
    /// The engine's tool globals, in index order (format 2; format 1 used
    /// the registry of the resuming process).
    #[serde(default)]
    pub tools: ToolRefs,
}

/// A synchronous read of the host's configuration, journaled with its
/// answer (format 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EnvKey {
    /// `host.meta(index)`: a tool handle's metadata.
    Meta(u32),
    /// `host.mcpTree()`: the MCP namespace, read when a cell first touches
    /// `MCP`.
    McpTree,
}

impl EnvKey {
    fn encode(self) -> String {
        match self {
            Self::Meta(i) => format!("m{i}"),
            Self::McpTree => "t".to_owned(),
        }
    }

    fn decode(text: &str) -> Option<Self> {
        match text.as_bytes().first()? {
            b't' if text.len() == 1 => Some(Self::McpTree),
            b'm' => text[1..].parse().ok().map(Self::Meta),
            _ => None,
        }
    }
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
    /// `None` deletes. Format 1 keeps the whole buffer here; format 2 keeps
    /// the writes since the last segment in each delta, and the decoder
    /// folds them back into this field.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<(String, Option<(String, bool)>)>,
    /// Live timers and when they are due (ms since the epoch).
    pub timers: Vec<(u64, u64)>,
    /// Settled while parked, not yet delivered: delivered at the next
    /// window, as in memory.
    pub undelivered: Vec<Value>,
}

/// A journal read back for replay.
#[derive(Debug)]
pub(crate) struct Journal {
    /// The format it was written in (1 or 2): which fingerprint function
    /// checks its requests, and whether its reads of the configuration
    /// were journaled.
    pub format: u32,
    pub header: Header,
    /// Fingerprint of request `id` at index `id - 1`.
    pub requests: Vec<u64>,
    pub clock: Vec<(u8, f64)>,
    /// Reads of the host's configuration, in order (format 2).
    pub env: Vec<(EnvKey, String)>,
    /// The last snapshot, with every uncommitted write folded in.
    pub snapshot: Snapshot,
    /// The steps not yet replayed.
    pub steps: VecDeque<Vec<Settlement>>,
    pub step_count: usize,
    /// Format 1 only: the steps' encoded text, to rewrite the journal in
    /// format 2 after the replay.
    pub steps_text: Vec<u8>,
    /// The encoded journal's size.
    pub stored_bytes: usize,
}

impl Journal {
    /// Reads an encoded journal of any format this build reads.
    ///
    /// # Errors
    /// [`JournalError`]: not a journal, a newer format, or damaged (a bad
    /// checksum, a truncated or absurd length, an inconsistent segment).
    pub(crate) fn decode(bytes: &[u8]) -> Result<Self, JournalError> {
        codec::decode(bytes)
    }
}

/// Records a cell's requests, steps and reads while it runs, and encodes
/// what is new at each journal write.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    /// Requests made so far, written or not.
    request_count: u64,
    /// Fingerprints of the requests not yet written.
    requests: Vec<u64>,
    /// Steps so far, written or not.
    step_count: usize,
    /// The steps not yet written: a JSON array's contents, without brackets.
    steps: Vec<u8>,
    /// Steps in `steps`.
    unwritten_steps: usize,
    /// Clock and configuration reads already written.
    clock_written: usize,
    env_written: usize,
    /// Store keys written since the last journal write.
    dirty: BTreeSet<String>,
    /// The header segment was written (or the journal exists already).
    header_written: bool,
    /// Bytes encoded so far (written, or on their way).
    encoded_bytes: usize,
    /// The next write replaces the stored journal (one of an older format).
    replace: bool,
}

/// One journal write: bytes to append to the stored journal, or (`replace`)
/// to store instead of it.
#[derive(Debug, Default)]
pub(crate) struct Segments {
    pub bytes: Vec<u8>,
    pub replace: bool,
}

/// What a delta segment carries besides requests and steps.
pub(crate) struct Reads<'a> {
    pub clock: &'a [(u8, f64)],
    pub env: &'a [(EnvKey, String)],
    /// The cell's whole write buffer (only dirty keys are written).
    pub writes: &'a WriteBuffer,
}

impl Recorder {
    /// A recorder that continues a format-2 `journal` (a replayed run goes
    /// on recording where its journal ended).
    pub(crate) fn continuing(journal: &Journal) -> Self {
        Self {
            request_count: journal.requests.len() as u64,
            step_count: journal.step_count,
            clock_written: journal.clock.len(),
            env_written: journal.env.len(),
            header_written: true,
            encoded_bytes: journal.stored_bytes,
            ..Self::default()
        }
    }

    /// A recorder that rewrites a format-1 `journal` in format 2 at its
    /// first write: its steps and writes as they are, its requests as the
    /// replay re-fingerprints them ([`request`](Self::request)).
    pub(crate) fn upgrading(journal: &Journal) -> Self {
        Self {
            step_count: journal.step_count,
            steps: journal.steps_text.clone(),
            unwritten_steps: journal.step_count,
            dirty: journal.snapshot.writes.iter().map(|(k, _)| k.clone()).collect(),
            replace: true,
            ..Self::default()
        }
    }

    /// Request `id` was made, with format-2 fingerprint `fingerprint`.
    pub(crate) fn request(&mut self, id: u64, fingerprint: u64) {
        // Ids are consecutive from 1; a gap would be a bridge bug, and the
        // journal then records nothing misleading: it stops matching.
        if id == self.request_count + 1 {
            self.requests.push(fingerprint);
            self.request_count += 1;
        }
    }

    /// These settlements are about to be delivered together.
    pub(crate) fn step(&mut self, settlements: &[Settlement]) {
        if settlements.is_empty() {
            return;
        }
        if self.unwritten_steps > 0 {
            self.steps.push(b',');
        }
        self.steps.push(b'[');
        for (i, s) in settlements.iter().enumerate() {
            if i > 0 {
                self.steps.push(b',');
            }
            codec::write_settlement(&mut self.steps, s);
        }
        self.steps.push(b']');
        self.step_count += 1;
        self.unwritten_steps += 1;
    }

    /// Store key `key` was written (buffered) in the cell.
    pub(crate) fn wrote(&mut self, key: &str) {
        if !self.dirty.contains(key) {
            self.dirty.insert(key.to_owned());
        }
    }

    /// Requests recorded so far.
    pub(crate) fn request_count(&self) -> u64 {
        self.request_count
    }

    /// Steps recorded so far.
    pub(crate) fn step_count(&self) -> usize {
        self.step_count
    }

    /// The journal's size once what is pending is written (for its bound).
    pub(crate) fn len(&self) -> usize {
        self.encoded_bytes + self.steps.len() + self.requests.len() * 8
    }

    /// Encodes what is new since the last write, and counts it written.
    pub(crate) fn segments(&mut self, header: &Header, reads: &Reads<'_>, snapshot: &Snapshot) -> Segments {
        let mut bytes = Vec::new();
        if !self.header_written {
            codec::write_magic(&mut bytes);
            codec::write_header(&mut bytes, header);
        }
        // A buffered key stays in the buffer (a delete is a `None` value)
        // until the cell commits, after which nothing is journaled: every
        // dirty key is there.
        let writes: Vec<(String, Option<(String, bool)>)> = std::mem::take(&mut self.dirty)
            .into_iter()
            .filter_map(|k| {
                let value = reads.writes.get(&k)?;
                Some((k, value.as_ref().map(|v| (v.json.clone(), v.network))))
            })
            .collect();
        let first_request = self.request_count - self.requests.len() as u64 + 1;
        let delta = codec::Delta {
            first_request,
            requests: std::mem::take(&mut self.requests),
            first_step: self.step_count - self.unwritten_steps,
            first_clock: self.clock_written,
            clock: reads.clock.get(self.clock_written..).unwrap_or_default().to_vec(),
            first_env: self.env_written,
            env: reads
                .env
                .get(self.env_written..)
                .unwrap_or_default()
                .iter()
                .map(|(k, v)| (k.encode(), v.clone()))
                .collect(),
            writes,
            snapshot: snapshot.clone(),
        };
        codec::write_delta(&mut bytes, &delta, &self.steps);
        self.steps.clear();
        self.unwritten_steps = 0;
        self.clock_written = reads.clock.len();
        self.env_written = reads.env.len();
        self.header_written = true;
        self.encoded_bytes += bytes.len();
        let replace = std::mem::take(&mut self.replace);
        if replace {
            // What is stored now is this write alone.
            self.encoded_bytes = bytes.len();
        }
        Segments { bytes, replace }
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

/// A settlement as the JSON value a journal keeps (the snapshot's
/// undelivered ones).
///
/// # Errors
/// The settlement's encoding did not parse back (a bug in the encoder):
/// the caller stops journaling the run rather than keep a wrong value.
pub(crate) fn settlement_value(s: &Settlement) -> Result<Value, String> {
    let mut out = Vec::new();
    codec::write_settlement(&mut out, s);
    serde_json::from_slice(&out).map_err(|e| format!("settlement {} did not encode: {e}", s.id))
}

/// A settlement from its JSON value.
pub(crate) fn read_settlement(v: Value) -> Result<Settlement, String> {
    let Value::Array(mut parts) = v else { return Err("a settlement is not an array".into()) };
    let bad = || "a malformed settlement".to_owned();
    let id = parts.first().and_then(Value::as_u64).ok_or_else(bad)?;
    let kind = parts.get(1).and_then(Value::as_u64).ok_or_else(bad)?;
    let answer = match kind {
        0 if parts.len() == 3 => Answer::Value(parts.swap_remove(2)),
        1 if parts.len() == 3 => Answer::Text(parts[2].as_str().ok_or_else(bad)?.to_owned()),
        2 if parts.len() == 5 => {
            let name = match parts[2].as_str() {
                Some("TypeError") => ErrorName::TypeError,
                Some("RangeError") => ErrorName::RangeError,
                Some("Error") => ErrorName::Error,
                _ => return Err(bad()),
            };
            let text = |i: usize| parts[i].as_str().map(str::to_owned).ok_or_else(bad);
            Answer::Fault(Fault { name, message: text(3)?, code: text(4)? })
        }
        _ => return Err(bad()),
    };
    Ok(Settlement { id, answer })
}

/// The cell's buffer from a snapshot's writes.
pub(crate) fn buffer_of(writes: Vec<(String, Option<(String, bool)>)>) -> WriteBuffer {
    writes.into_iter().map(|(k, v)| (k, v.map(|(json, network)| StoredValue { json, network }))).collect()
}

#[cfg(test)]
mod tests;
