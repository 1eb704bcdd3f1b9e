//! How a run is stored in sled: the record (a format byte, the header's
//! length as a big-endian `u32`, the header as compact JSON, then the
//! journal's first bytes: format-1 records keep their whole journal there,
//! format 2 keeps it empty) and the keys of the chunk and time-index trees.

use std::time::Duration;

use codemode_protocol::RunEnd;
use serde::{Deserialize, Serialize};

use crate::runs::types::{RunMeta, RunRecord, RunStatus, RunStoreError, RunSummary};

/// The sled tree holding run records.
pub const RUNS_TREE: &str = "runs";

/// The sled tree indexing runs by creation time.
pub const RUNS_BY_TIME_TREE: &str = "runs_by_time";

/// The sled tree holding journal chunks.
pub const RUN_CHUNKS_TREE: &str = "run_chunks";

/// The record format written by this version: 2 counts journal chunks;
/// format-1 records (no chunks) are still read.
pub(super) const FORMAT: u8 = 2;

/// A run's record without its journal, as stored (short names: it is
/// written on every save).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Header {
    #[serde(rename = "s")]
    pub(super) session: String,
    #[serde(rename = "r")]
    pub(super) reply: String,
    #[serde(rename = "p", default, skip_serializing_if = "Option::is_none")]
    pub(super) principal: Option<String>,
    #[serde(rename = "t", default, skip_serializing_if = "Option::is_none")]
    pub(super) title: Option<String>,
    #[serde(rename = "c")]
    pub(super) created_ms: u64,
    #[serde(rename = "st")]
    pub(super) status: String,
    #[serde(rename = "o", default, skip_serializing_if = "Option::is_none")]
    pub(super) owner: Option<String>,
    #[serde(rename = "l")]
    pub(super) lease_until_ms: u64,
    #[serde(rename = "v")]
    pub(super) version: u64,
    #[serde(rename = "a", default)]
    pub(super) abort_requested: bool,
    #[serde(rename = "u")]
    pub(super) updated_ms: u64,
    /// Journal chunks (format 2; absent in format 1).
    #[serde(rename = "n", default)]
    pub(super) chunks: u32,
    /// Their bytes.
    #[serde(rename = "b", default)]
    pub(super) chunk_bytes: u64,
}

impl Header {
    /// Whether `owner` holds a live lease at `now`. An expired lease is
    /// nobody's: another process may claim it at any moment.
    pub(super) fn held_by(&self, owner: &str, now: u64) -> bool {
        self.owner.as_deref() == Some(owner) && self.lease_until_ms > now
    }

    /// The live lease's holder and end, if any.
    pub(super) fn live_lease(&self, now: u64) -> Option<(&str, u64)> {
        self.owner.as_deref().filter(|_| self.lease_until_ms > now).map(|o| (o, self.lease_until_ms))
    }

    /// Whether the run may still advance (`running` or `parked`). Any
    /// other status is an end, known or not: nobody advances it.
    pub(super) fn live(&self) -> bool {
        matches!(self.status.as_str(), "running" | "parked")
    }

    /// The stored status.
    ///
    /// # Errors
    /// [`RunStoreError::UnknownStatus`] for a status this codemode does not
    /// know.
    pub(super) fn status(&self, run_id: &str) -> Result<RunStatus, RunStoreError> {
        RunStoreError::status(run_id, &self.status)
    }

    /// How the run ended; `None` while it is live.
    ///
    /// # Errors
    /// As [`status`](Self::status).
    pub(super) fn ended(&self, run_id: &str) -> Result<Option<RunEnd>, RunStoreError> {
        match self.status(run_id)? {
            RunStatus::Ended(end) => Ok(Some(end)),
            RunStatus::Running | RunStatus::Parked => Ok(None),
        }
    }

    /// A journal write: the new status, the lease renewed (or released,
    /// `None`), a new version.
    pub(super) fn advance(&mut self, status: &RunStatus, lease: Option<Duration>, now: u64) {
        self.status = status.as_str().to_owned();
        match lease {
            Some(lease) => self.lease_until_ms = lease_end(now, lease),
            None => {
                self.owner = None;
                self.lease_until_ms = 0;
            }
        }
        self.version += 1;
        self.updated_ms = now;
    }

    /// Ends the run as `end`: no owner, no lease; the journal is dropped
    /// by the caller.
    pub(super) fn end(&mut self, end: RunEnd, now: u64) {
        self.status = end.label().to_owned();
        self.owner = None;
        self.lease_until_ms = 0;
        self.version += 1;
        self.updated_ms = now;
        self.chunks = 0;
        self.chunk_bytes = 0;
    }

    pub(super) fn meta(&self, run_id: &str) -> RunMeta {
        RunMeta {
            run_id: run_id.to_owned(),
            session: self.session.clone(),
            reply: self.reply.clone(),
            principal: self.principal.clone(),
            title: self.title.clone(),
            created_ms: self.created_ms,
        }
    }
}

pub(super) fn encode(header: &Header, journal: &[u8]) -> Result<Vec<u8>, RunStoreError> {
    let json = serde_json::to_vec(header).map_err(|e| RunStoreError::Backend(format!("encoding a run record: {e}")))?;
    let len =
        u32::try_from(json.len()).map_err(|_| RunStoreError::Backend("a run record's header is too large".into()))?;
    let mut out = Vec::with_capacity(1 + 4 + json.len() + journal.len());
    out.push(FORMAT);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&json);
    out.extend_from_slice(journal);
    Ok(out)
}

/// The header and the journal's bytes of a stored record.
pub(super) fn decode(bytes: &[u8]) -> Result<(Header, &[u8]), RunStoreError> {
    let malformed = |why: &str| RunStoreError::Backend(format!("a stored run record is malformed: {why}"));
    let (&format, rest) = bytes.split_first().ok_or_else(|| malformed("empty"))?;
    if format != FORMAT && format != 1 {
        return Err(malformed(&format!("unknown format {format} (written by a newer codemode?)")));
    }
    let (len, rest) = rest.split_at_checked(4).ok_or_else(|| malformed("truncated"))?;
    let len = u32::from_be_bytes([len[0], len[1], len[2], len[3]]) as usize;
    let (json, journal) = rest.split_at_checked(len).ok_or_else(|| malformed("truncated header"))?;
    let header = serde_json::from_slice(json).map_err(|e| malformed(&e.to_string()))?;
    Ok((header, journal))
}

/// The record of `run_id` stored as `header` and `journal`.
///
/// # Errors
/// [`RunStoreError::UnknownStatus`].
pub(super) fn record(run_id: &str, header: Header, journal: Vec<u8>) -> Result<RunRecord, RunStoreError> {
    Ok(RunRecord {
        meta: header.meta(run_id),
        status: header.status(run_id)?,
        owner: header.owner,
        lease_until_ms: header.lease_until_ms,
        journal,
        version: header.version,
        abort_requested: header.abort_requested,
        updated_ms: header.updated_ms,
    })
}

/// The listing row of `run_id` stored as `header` with `journal_bytes`
/// inline.
///
/// # Errors
/// [`RunStoreError::UnknownStatus`].
pub(super) fn summary(run_id: &str, header: Header, journal_bytes: usize) -> Result<RunSummary, RunStoreError> {
    Ok(RunSummary {
        meta: header.meta(run_id),
        status: header.status(run_id)?,
        owner: header.owner,
        lease_until_ms: header.lease_until_ms,
        journal_bytes: journal_bytes as u64 + header.chunk_bytes,
        updated_ms: header.updated_ms,
        abort_requested: header.abort_requested,
    })
}

/// A sled failure as a [`RunStoreError::Backend`].
pub(super) fn backend(e: &sled::Error) -> RunStoreError {
    RunStoreError::Backend(e.to_string())
}

/// The key of chunk `seq` of `run_id`'s journal.
pub(super) fn chunk_key(run_id: &str, seq: u32) -> Vec<u8> {
    let mut k = Vec::with_capacity(run_id.len() + 5);
    k.extend_from_slice(run_id.as_bytes());
    k.push(0);
    k.extend_from_slice(&seq.to_be_bytes());
    k
}

/// The key of `run_id` in the index by creation time.
pub(super) fn time_key(created_ms: u64, run_id: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(8 + run_id.len());
    k.extend_from_slice(&created_ms.to_be_bytes());
    k.extend_from_slice(run_id.as_bytes());
    k
}

/// When a lease of `lease` taken at `now` ends.
pub(super) fn lease_end(now: u64, lease: Duration) -> u64 {
    now.saturating_add(u64::try_from(lease.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            session: "s".into(),
            reply: "r".into(),
            principal: None,
            title: Some("t".into()),
            created_ms: 1,
            status: "parked".into(),
            owner: None,
            lease_until_ms: 0,
            version: 3,
            abort_requested: false,
            updated_ms: 2,
            chunks: 0,
            chunk_bytes: 0,
        }
    }

    #[test]
    fn a_record_keeps_its_journal_bytes_verbatim_after_a_compact_header() {
        let journal = [0u8, 255, 1, 2];
        let bytes = encode(&header(), &journal).unwrap();
        let (back, stored) = decode(&bytes).unwrap();
        assert_eq!(stored, journal);
        assert_eq!((back.status.as_str(), back.version, back.title.as_deref()), ("parked", 3, Some("t")));
        let json_len = u32::from_be_bytes(bytes[1..5].try_into().unwrap()) as usize;
        assert!(json_len < 100, "short field names, absent options skipped: {json_len} bytes");
    }

    #[test]
    fn a_malformed_or_newer_record_is_a_backend_error_not_a_panic() {
        let bytes = encode(&header(), b"j").unwrap();
        for bad in [&[][..], &[FORMAT][..], &bytes[..7], &[9, 0, 0, 0, 0][..]] {
            assert!(matches!(decode(bad), Err(RunStoreError::Backend(_))), "{bad:?}");
        }
        assert!(decode(&[9, 0, 0, 0, 0]).unwrap_err().to_string().contains("unknown format 9"));
    }

    #[test]
    fn a_stored_status_no_codemode_knows_is_a_typed_error_naming_the_run_and_the_status_never_an_end() {
        let strange = Header { status: "finished".into(), ..header() };
        assert!(!strange.live(), "nobody advances a run in a status it does not know");
        let err = record("run_x", strange, Vec::new()).unwrap_err();
        assert!(
            matches!(&err, RunStoreError::UnknownStatus { run_id, label } if run_id == "run_x" && label == "finished"),
            "{err:?}"
        );
        let parked = record("run_y", header(), Vec::new()).unwrap();
        assert_eq!(parked.status, RunStatus::Parked);
        let mut ended = header();
        ended.end(RunEnd::TimedOut, 9);
        assert_eq!(ended.ended("run_z").unwrap(), Some(RunEnd::TimedOut));
    }
}
