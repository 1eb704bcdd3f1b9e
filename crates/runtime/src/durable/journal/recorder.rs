//! Recording a run while its cell runs, and encoding what is new at each
//! journal write.

use std::collections::BTreeSet;

use super::codec;
use super::model::WriteBuffer;
use super::model::{ApprovalLog, EnvKey, Header, Journal, Snapshot, TaskLog};
use crate::engine::settlement::Settlement;

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
    /// The run has had approvals: every write carries them (an empty list
    /// clears the ones written before).
    approvals: bool,
    /// The run has had MCP tasks: every write carries them.
    tasks: bool,
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
    pub clock: &'a crate::engine::clock::ClockLog,
    pub env: &'a [(EnvKey, String)],
    /// The cell's whole write buffer (only dirty keys are written).
    pub writes: &'a WriteBuffer,
    /// The run's approvals now.
    pub approvals: &'a ApprovalLog,
    /// The run's MCP tasks now.
    pub tasks: &'a TaskLog,
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
            approvals: !journal.approvals.is_empty(),
            tasks: !journal.tasks.records.is_empty(),
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
            super::values::write_settlement(&mut self.steps, s);
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

    /// Whether a write now would add nothing but the host side's snapshot:
    /// no request, step, read or store write since the last one.
    pub(crate) fn is_idle(&self, reads: &Reads<'_>) -> bool {
        self.header_written
            && !self.replace
            && self.requests.is_empty()
            && self.unwritten_steps == 0
            && self.dirty.is_empty()
            && self.clock_written == reads.clock.len()
            && self.env_written == reads.env.len()
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
        let (clock, clock_runs) = codec::clock_fields(reads.clock, self.clock_written);
        let delta = codec::Delta {
            first_request,
            requests: std::mem::take(&mut self.requests),
            first_step: self.step_count - self.unwritten_steps,
            first_clock: self.clock_written,
            clock,
            clock_runs,
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
        self.approvals |= !reads.approvals.is_empty();
        if self.approvals {
            codec::write_approvals(&mut bytes, reads.approvals);
        }
        self.tasks |= !reads.tasks.records.is_empty();
        if self.tasks {
            codec::write_tasks(&mut bytes, reads.tasks);
        }
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
