//! The journal's bytes: format 2 (segments) written and read, format 1
//! read.
//!
//! Format 2 is `CMJ2` followed by segments, each
//! `[kind: u8][length: u32 LE][CRC-32 of the payload: u32 LE][payload]`.
//! The first segment is the header (JSON); every later one is a delta:
//! `[head length: u32 LE][head JSON][steps: a JSON array]`. Appending a
//! write is appending bytes, so the store never rewrites what it holds.
//! Every length is checked against what is left and against the journal
//! bound before anything is allocated for it, and a checksum that does not
//! match refuses the whole journal: a damaged journal is never replayed.
//!
//! Format 1 is `CMJ1`, a header length (`u32 LE`), a JSON head (header,
//! every request, every clock read, the snapshot) and every step as one
//! JSON array: written whole at every park by format-1 builds.

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::model::{ApprovalLog, EnvKey, FORMAT, Header, Journal, JournalError, MAX_JOURNAL_BYTES, Snapshot, TaskLog};
use super::values::read_settlement;
use crate::engine::clock::{ClockLog, ClockRun};
use crate::engine::settlement::Settlement;

/// The magic's first three bytes; the fourth is the format's digit.
const MAGIC: &[u8; 3] = b"CMJ";

/// A segment holding the header.
const HEADER: u8 = 1;
/// A segment holding one write's delta.
const DELTA: u8 = 2;
/// A segment holding the run's approvals as of the delta before it (the
/// last one wins).
const APPROVALS: u8 = 3;
/// A segment holding the run's MCP tasks as of the delta before it (the
/// last one wins).
const TASKS: u8 = 4;
/// The only segment of a run that outgrew its journal and lives in one
/// process's memory: why. Nothing resumes it (a build that predates it
/// refuses it as damaged).
const UNRESUMABLE: u8 = 5;

/// The largest stored journal this build reads: the ceiling of the journal
/// bound (a run past its bound stops being journaled) with room for the
/// snapshots of its segments. Anything larger is damaged or not ours.
pub(crate) const MAX_STORED_BYTES: usize = MAX_JOURNAL_BYTES + (4 << 20);

fn damaged(why: impl Into<String>) -> JournalError {
    JournalError::Damaged(why.into())
}

/// The magic of the format this build writes.
pub(super) fn write_magic(out: &mut Vec<u8>) {
    out.extend_from_slice(MAGIC);
    out.push(b'0' + FORMAT as u8);
}

/// Writes one segment: kind, length, checksum, payload.
fn write_segment(out: &mut Vec<u8>, kind: u8, payload: &[u8]) {
    out.push(kind);
    out.extend_from_slice(&u32::try_from(payload.len()).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
}

/// serde_json cannot fail on these types (string keys; the clock never
/// records NaN, and non-finite numbers encode as `null`).
fn json<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_else(|e| {
        tracing::error!(error = %e, "a journal segment did not encode");
        b"null".to_vec()
    })
}

pub(super) fn write_header(out: &mut Vec<u8>, header: &Header) {
    let mut header = header.clone();
    header.format = FORMAT;
    write_segment(out, HEADER, &json(&header));
}

/// What one journal write adds.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Delta {
    /// The id of the first request in `requests`: consecutive with the
    /// journal so far.
    pub first_request: u64,
    pub requests: Vec<u64>,
    /// How many steps the journal held before this segment's.
    pub first_step: usize,
    pub first_clock: usize,
    /// Clock reads as values: written by earlier builds, and by this one
    /// (empty) when there are no new reads. With new reads this build
    /// leaves it out and writes `clock_runs`: a build that predates runs
    /// then refuses the journal (a missing field) instead of replaying it
    /// without its reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Vec<(u8, f64)>>,
    /// Clock reads as runs (see `engine/clock.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clock_runs: Vec<RunJson>,
    pub first_env: usize,
    /// `(key, answer)`: see [`EnvKey`].
    pub env: Vec<(String, String)>,
    /// Store writes since the last segment, in key order.
    pub writes: Vec<(String, Option<(String, bool)>)>,
    /// The host side now (its `writes` empty: they are above).
    pub snapshot: Snapshot,
}

/// Writes a delta segment; `steps` is the new steps' text, comma-separated.
pub(super) fn write_delta(out: &mut Vec<u8>, delta: &Delta, steps: &[u8]) {
    let head = json(delta);
    let mut payload = Vec::with_capacity(4 + head.len() + steps.len() + 2);
    payload.extend_from_slice(&u32::try_from(head.len()).unwrap_or(u32::MAX).to_le_bytes());
    payload.extend_from_slice(&head);
    payload.push(b'[');
    payload.extend_from_slice(steps);
    payload.push(b']');
    write_segment(out, DELTA, &payload);
}

/// Writes the run's approvals as they are now.
pub(crate) fn write_approvals(out: &mut Vec<u8>, approvals: &ApprovalLog) {
    write_segment(out, APPROVALS, &json(&approvals));
}

/// A [`ClockRun`] as JSON: `[tag, step or value, count]`, the tag being
/// the kind for a step run and the kind + 2 for a run of exact values.
#[derive(Debug)]
pub(super) struct RunJson(pub ClockRun);

impl Serialize for RunJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let mut t = s.serialize_tuple(3)?;
        match self.0 {
            ClockRun::Step { kind, step, count } => {
                t.serialize_element(&kind)?;
                t.serialize_element(&step)?;
                t.serialize_element(&count)?;
            }
            ClockRun::Exact { kind, value, count } => {
                t.serialize_element(&(kind + 2))?;
                t.serialize_element(&value)?;
                t.serialize_element(&count)?;
            }
        }
        t.end()
    }
}

impl<'de> Deserialize<'de> for RunJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let (tag, number, count): (u8, serde_json::Number, u32) = Deserialize::deserialize(d)?;
        match tag {
            0 | 1 => {
                let step =
                    number.as_i64().ok_or_else(|| D::Error::custom(format!("a step that is not whole: {number}")))?;
                Ok(Self(ClockRun::Step { kind: tag, step, count }))
            }
            2 | 3 => {
                let value =
                    number.as_f64().ok_or_else(|| D::Error::custom(format!("an unreadable value: {number}")))?;
                Ok(Self(ClockRun::Exact { kind: tag - 2, value, count }))
            }
            other => Err(D::Error::custom(format!("an unknown clock run tag {other}"))),
        }
    }
}

/// The clock reads of `clock` from `first` on, as a delta carries them.
pub(super) fn clock_fields(clock: &ClockLog, first: usize) -> (Option<Vec<(u8, f64)>>, Vec<RunJson>) {
    if clock.len() <= first {
        return (Some(Vec::new()), Vec::new());
    }
    (None, clock.runs_from(first).into_iter().map(RunJson).collect())
}

/// What a memory-only run's record holds instead of a journal.
#[derive(Debug, Serialize, Deserialize)]
struct Unresumable {
    why: String,
}

/// The marker a memory-only run's record holds: the magic and one segment
/// saying why it cannot be resumed.
pub(crate) fn unresumable(why: &str) -> Vec<u8> {
    let mut out = Vec::new();
    write_magic(&mut out);
    write_segment(&mut out, UNRESUMABLE, &json(&Unresumable { why: why.to_owned() }));
    out
}

/// Writes the run's MCP tasks as they are now.
pub(crate) fn write_tasks(out: &mut Vec<u8>, tasks: &TaskLog) {
    write_segment(out, TASKS, &json(&tasks));
}

/// Reads a journal of any format this build reads.
pub(super) fn decode(bytes: &[u8]) -> Result<Journal, JournalError> {
    if bytes.len() > MAX_STORED_BYTES {
        return Err(damaged(format!("{} bytes, more than a journal can hold ({MAX_STORED_BYTES})", bytes.len())));
    }
    let Some(magic) = bytes.get(..4) else {
        return Err(JournalError::Foreign(format!("{} bytes, too short for a journal", bytes.len())));
    };
    if &magic[..3] != MAGIC || !magic[3].is_ascii_digit() {
        return Err(JournalError::Foreign("no journal magic".into()));
    }
    match u32::from(magic[3] - b'0') {
        1 => decode_v1(&bytes[4..]),
        2 => decode_v2(&bytes[4..]),
        0 => Err(JournalError::Foreign("format 0".into())),
        newer => Err(JournalError::Newer(newer)),
    }
}

/// Splits `n` bytes off the front of `bytes`, or says what was truncated.
fn take<'a>(bytes: &mut &'a [u8], n: usize, what: &str) -> Result<&'a [u8], JournalError> {
    if n > bytes.len() {
        return Err(damaged(format!("truncated {what}: {n} bytes announced, {} left", bytes.len())));
    }
    let (head, rest) = bytes.split_at(n);
    *bytes = rest;
    Ok(head)
}

fn take_u32(bytes: &mut &[u8], what: &str) -> Result<u32, JournalError> {
    let b = take(bytes, 4, what)?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Parses a step array into settlements.
fn parse_steps(text: &[u8]) -> Result<Vec<Vec<Settlement>>, JournalError> {
    let raw: Vec<Vec<Value>> = serde_json::from_slice(text).map_err(|e| damaged(format!("steps: {e}")))?;
    raw.into_iter().map(|step| step.into_iter().map(read_settlement).collect::<Result<Vec<_>, _>>()).collect()
}

fn decode_v2(mut bytes: &[u8]) -> Result<Journal, JournalError> {
    let stored_bytes = bytes.len() + 4;
    let mut header: Option<Header> = None;
    let mut requests = Vec::new();
    let mut clock = ClockLog::default();
    let mut env = Vec::new();
    let mut writes: BTreeMap<String, Option<(String, bool)>> = BTreeMap::new();
    let mut snapshot: Option<Snapshot> = None;
    let mut steps = VecDeque::new();
    let mut approvals = ApprovalLog::default();
    let mut tasks = TaskLog::default();
    let mut segment = 0usize;
    while !bytes.is_empty() {
        segment += 1;
        let at = |what: &str| format!("segment {segment}: {what}");
        let kind = take(&mut bytes, 1, &at("kind"))?[0];
        let len = take_u32(&mut bytes, &at("length"))? as usize;
        let crc = take_u32(&mut bytes, &at("checksum"))?;
        let payload = take(&mut bytes, len, &at("payload"))?;
        if crc32fast::hash(payload) != crc {
            return Err(damaged(at("checksum mismatch")));
        }
        match (kind, &header) {
            (UNRESUMABLE, None) if segment == 1 => {
                let marker: Unresumable =
                    serde_json::from_slice(payload).map_err(|e| damaged(at(&format!("marker: {e}"))))?;
                return Err(JournalError::NotResumable(marker.why));
            }
            (HEADER, None) => {
                let h: Header = serde_json::from_slice(payload).map_err(|e| damaged(at(&format!("header: {e}"))))?;
                if h.format != 2 {
                    return Err(damaged(at(&format!("a format-2 journal with a format-{} header", h.format))));
                }
                header = Some(h);
            }
            (HEADER, Some(_)) => return Err(damaged(at("a second header"))),
            (DELTA, None) => return Err(damaged(at("a delta before the header"))),
            (DELTA, Some(_)) => {
                let mut p = payload;
                let head_len = take_u32(&mut p, &at("delta head length"))? as usize;
                let head = take(&mut p, head_len, &at("delta head"))?;
                let delta: Delta =
                    serde_json::from_slice(head).map_err(|e| damaged(at(&format!("delta head: {e}"))))?;
                let consistent = delta.first_request == requests.len() as u64 + 1
                    && delta.first_step == steps.len()
                    && delta.first_clock == clock.len()
                    && delta.first_env == env.len();
                if !consistent {
                    return Err(damaged(at("a delta that does not continue the journal before it")));
                }
                requests.extend(delta.requests);
                for (kind, value) in delta.clock.unwrap_or_default() {
                    clock.push(kind, value);
                }
                clock.extend(delta.clock_runs.into_iter().map(|r| r.0));
                for (key, value) in delta.env {
                    let key = EnvKey::decode(&key).ok_or_else(|| damaged(at(&format!("an unknown read {key:?}"))))?;
                    env.push((key, value));
                }
                writes.extend(delta.writes);
                snapshot = Some(delta.snapshot);
                steps.extend(parse_steps(p)?);
            }
            (APPROVALS, None) => return Err(damaged(at("approvals before the header"))),
            (APPROVALS, Some(_)) => {
                approvals = serde_json::from_slice(payload).map_err(|e| damaged(at(&format!("approvals: {e}"))))?;
            }
            (TASKS, None) => return Err(damaged(at("tasks before the header"))),
            (TASKS, Some(_)) => {
                tasks = serde_json::from_slice(payload).map_err(|e| damaged(at(&format!("tasks: {e}"))))?;
            }
            (other, _) => {
                return Err(damaged(at(&format!("unknown segment kind {other}"))));
            }
        }
    }
    let header = header.ok_or_else(|| damaged("no header"))?;
    let mut snapshot = snapshot.ok_or_else(|| damaged("no delta after the header"))?;
    snapshot.writes = writes.into_iter().collect();
    let step_count = steps.len();
    Ok(Journal {
        format: 2,
        header,
        requests,
        clock,
        env,
        snapshot,
        approvals,
        tasks,
        steps,
        step_count,
        steps_text: Vec::new(),
        stored_bytes,
        parked: false,
    })
}

fn decode_v1(mut bytes: &[u8]) -> Result<Journal, JournalError> {
    #[derive(Deserialize)]
    struct Head {
        header: Header,
        requests: Vec<u64>,
        clock: Vec<(u8, f64)>,
        snapshot: Snapshot,
    }
    let stored_bytes = bytes.len() + 4;
    let len = take_u32(&mut bytes, "header length")? as usize;
    let head = take(&mut bytes, len, "header")?;
    let head: Head = serde_json::from_slice(head).map_err(|e| damaged(format!("header: {e}")))?;
    if head.header.format != 1 {
        return Err(damaged(format!("a format-1 journal with a format-{} header", head.header.format)));
    }
    let steps: VecDeque<Vec<Settlement>> = parse_steps(bytes)?.into();
    let step_count = steps.len();
    // The text between the brackets: the steps as format 2 writes them.
    let steps_text = bytes.get(1..bytes.len().saturating_sub(1)).unwrap_or_default().to_vec();
    Ok(Journal {
        format: 1,
        header: head.header,
        requests: head.requests,
        clock: head.clock.into_iter().collect(),
        env: Vec::new(),
        snapshot: head.snapshot,
        approvals: ApprovalLog::default(),
        tasks: TaskLog::default(),
        steps,
        step_count,
        steps_text,
        stored_bytes,
        parked: false,
    })
}

impl Journal {
    /// Reads an encoded journal of any format this build reads.
    ///
    /// # Errors
    /// [`JournalError`]: not a journal, a newer format, or damaged (a bad
    /// checksum, a truncated or absurd length, an inconsistent segment).
    pub(crate) fn decode(bytes: &[u8]) -> Result<Self, JournalError> {
        decode(bytes)
    }
}
