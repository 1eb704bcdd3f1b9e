//! The run log: how a sled run store makes a journal write survive a
//! process crash without waiting for a disk flush (`Durability::Process`).
//!
//! sled keeps recent writes in its own memory until it flushes, and every
//! flush is an `fsync`-class wait on the disk (hundreds of microseconds).
//! A process crash (`kill -9`) only needs the write *out of the process*:
//! in the kernel's page cache it survives the process, though not a power
//! loss. So each journal write is applied to sled as usual and then
//! appended to this log with one `write(2)` — no flush — before it is
//! acknowledged. sled is flushed in the background (a *checkpoint*: the
//! log is rotated, sled flushed once for everything before the rotation,
//! and the old log deleted), and a store opened after a crash re-applies
//! what the log holds before anything else reads it.
//!
//! Written by hand: the log is a redo list of whole records of one tree,
//! re-applied only where the record is newer than what sled holds (its
//! version), which no write-ahead-log crate offers without its own fsync
//! on every commit — the cost this exists to avoid.
//!
//! An entry is `[length: u32 LE][CRC-32: u32 LE][payload]`; the payload is
//! the run id, the run's record as stored, and the journal chunk written
//! with it (if any). A torn or damaged entry ends the log: an entry is
//! only acknowledged after its `write` returned, so nothing acknowledged
//! follows a torn one.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The live log's file name in the store's directory.
const LIVE: &str = "codemode-runs.log";
/// A rotated log waiting for its checkpoint's flush.
const ROTATED: &str = "codemode-runs.log.old";

/// A rotated log is checkpointed after this many bytes (or `CHECKPOINT_EVERY`).
pub(crate) const CHECKPOINT_BYTES: u64 = 4 << 20;
/// ... or when its oldest entry is this old.
pub(crate) const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// The largest entry: a record plus a chunk; bigger lengths are damage.
const MAX_ENTRY: usize = 64 << 20;

/// One write to re-apply.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub run_id: String,
    /// The run's record as written to the runs tree.
    pub record: Vec<u8>,
    /// The journal chunk written with it: its sequence number and bytes.
    pub chunk: Option<(u32, Vec<u8>)>,
}

impl Entry {
    fn encode(&self) -> Vec<u8> {
        let mut p = Vec::with_capacity(16 + self.run_id.len() + self.record.len());
        let id = self.run_id.as_bytes();
        p.extend_from_slice(&(id.len() as u32).to_le_bytes());
        p.extend_from_slice(id);
        p.extend_from_slice(&(self.record.len() as u32).to_le_bytes());
        p.extend_from_slice(&self.record);
        match &self.chunk {
            Some((seq, bytes)) => {
                p.push(1);
                p.extend_from_slice(&seq.to_le_bytes());
                p.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
                p.extend_from_slice(bytes);
            }
            None => p.push(0),
        }
        let mut out = Vec::with_capacity(8 + p.len());
        out.extend_from_slice(&(p.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&p).to_le_bytes());
        out.extend_from_slice(&p);
        out
    }

    fn decode(mut p: &[u8]) -> Option<Self> {
        fn take<'a>(p: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
            let (head, rest) = p.split_at_checked(n)?;
            *p = rest;
            Some(head)
        }
        fn u32_of(p: &mut &[u8]) -> Option<u32> {
            take(p, 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        }
        let n = u32_of(&mut p)? as usize;
        let run_id = String::from_utf8(take(&mut p, n)?.to_vec()).ok()?;
        let n = u32_of(&mut p)? as usize;
        let record = take(&mut p, n)?.to_vec();
        let chunk = match take(&mut p, 1)?[0] {
            0 => None,
            1 => {
                let seq = u32_of(&mut p)?;
                let n = u32_of(&mut p)? as usize;
                Some((seq, take(&mut p, n)?.to_vec()))
            }
            _ => return None,
        };
        p.is_empty().then_some(Self { run_id, record, chunk })
    }
}

/// Reads every whole entry of `bytes`; a torn or damaged tail is dropped
/// (logged), never guessed at.
pub(crate) fn read_entries(bytes: &[u8], file: &Path) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut at = 0usize;
    while at < bytes.len() {
        let head = bytes.get(at..at + 8);
        let entry = head.and_then(|h| {
            let len = u32::from_le_bytes([h[0], h[1], h[2], h[3]]) as usize;
            let crc = u32::from_le_bytes([h[4], h[5], h[6], h[7]]);
            if len > MAX_ENTRY {
                return None;
            }
            let payload = bytes.get(at + 8..at + 8 + len)?;
            (crc32fast::hash(payload) == crc).then(|| Entry::decode(payload).map(|e| (e, 8 + len))).flatten()
        });
        match entry {
            Some((entry, used)) => {
                out.push(entry);
                at += used;
            }
            None => {
                tracing::warn!(
                    file = %file.display(),
                    offset = at,
                    dropped = bytes.len() - at,
                    "the run log ends in a torn or damaged entry; it was never acknowledged and is dropped"
                );
                break;
            }
        }
    }
    out
}

/// The log of one sled run store.
#[derive(Debug)]
pub(crate) struct RunLog {
    dir: PathBuf,
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    file: File,
    /// Bytes in the live log.
    bytes: u64,
    /// When the live log's first entry since the last rotation was written.
    since: Option<std::time::Instant>,
    /// A checkpoint is running: no second rotation until it is done.
    checkpointing: bool,
}

impl RunLog {
    /// The logs left in `dir` by a previous process (rotated first), in
    /// the order they were written.
    pub(crate) fn leftovers(dir: &Path) -> std::io::Result<Vec<(PathBuf, Vec<u8>)>> {
        let mut out = Vec::new();
        for name in [ROTATED, LIVE] {
            let path = dir.join(name);
            match std::fs::read(&path) {
                Ok(bytes) => out.push((path, bytes)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    }

    /// Deletes the logs a recovery re-applied (after sled was flushed).
    pub(crate) fn remove_leftovers(dir: &Path) -> std::io::Result<()> {
        for name in [ROTATED, LIVE] {
            match std::fs::remove_file(dir.join(name)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
        Ok(())
    }

    /// Starts an empty live log in `dir`.
    pub(crate) fn create(dir: &Path) -> std::io::Result<Self> {
        let file = OpenOptions::new().create(true).truncate(true).write(true).open(dir.join(LIVE))?;
        Ok(Self { dir: dir.to_owned(), state: Mutex::new(State { file, bytes: 0, since: None, checkpointing: false }) })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Appends `entry` with one `write(2)` (no flush). Returns whether a
    /// checkpoint is due.
    ///
    /// # Errors
    /// The write failed (the caller fails the journal write).
    pub(crate) fn append(&self, entry: &Entry) -> std::io::Result<bool> {
        let bytes = entry.encode();
        let mut state = self.lock();
        state.file.write_all(&bytes)?;
        state.bytes += bytes.len() as u64;
        let since = *state.since.get_or_insert_with(std::time::Instant::now);
        let due = !state.checkpointing && (state.bytes >= CHECKPOINT_BYTES || since.elapsed() >= CHECKPOINT_EVERY);
        Ok(due)
    }

    /// Starts a checkpoint: the live log becomes the rotated one and a new
    /// live log begins. Entries appended from now on go to the new log.
    /// Returns false when one is already running or there is nothing to do.
    ///
    /// # Errors
    /// The rename or the new file failed (the live log is kept).
    pub(crate) fn rotate(&self) -> std::io::Result<bool> {
        let mut state = self.lock();
        if state.checkpointing || state.bytes == 0 {
            return Ok(false);
        }
        let (live, rotated) = (self.dir.join(LIVE), self.dir.join(ROTATED));
        if rotated.exists() {
            // A checkpoint whose flush failed left its log: add to it, so no
            // entry waits anywhere but in a log the next open re-applies.
            let bytes = std::fs::read(&live)?;
            OpenOptions::new().append(true).open(&rotated)?.write_all(&bytes)?;
        } else {
            std::fs::rename(&live, &rotated)?;
        }
        state.file = OpenOptions::new().create(true).truncate(true).write(true).open(self.dir.join(LIVE))?;
        state.bytes = 0;
        state.since = None;
        state.checkpointing = true;
        Ok(true)
    }

    /// Ends a checkpoint once sled was flushed (`flushed`): the rotated log
    /// is no longer needed. After a failed flush it is kept (the next
    /// rotation adds to it), and re-applied by the next open if the process
    /// dies.
    pub(crate) fn finish_checkpoint(&self, flushed: bool) {
        if flushed && let Err(e) = std::fs::remove_file(self.dir.join(ROTATED)) {
            tracing::warn!(error = %e, "could not delete the checkpointed run log");
        }
        let mut state = self.lock();
        state.checkpointing = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(n: u32) -> Entry {
        Entry {
            run_id: format!("run_{n}"),
            record: vec![n as u8; 5],
            chunk: n.is_multiple_of(2).then(|| (n, vec![7; 3])),
        }
    }

    #[test]
    fn entries_round_trip_and_a_torn_or_damaged_tail_is_dropped() {
        let mut bytes = Vec::new();
        for n in 0..4 {
            bytes.extend(entry(n).encode());
        }
        let all = read_entries(&bytes, Path::new("t"));
        assert_eq!(all, (0..4).map(entry).collect::<Vec<_>>());
        // Every truncation keeps exactly the whole entries before it.
        let first = entry(0).encode().len();
        for cut in 0..bytes.len() {
            let kept = read_entries(&bytes[..cut], Path::new("t"));
            assert!(kept.len() <= 4 && (cut < first) == kept.is_empty(), "cut {cut}");
        }
        // A flipped byte in the second entry keeps only the first.
        let mut flipped = bytes.clone();
        flipped[first + 9] ^= 1;
        assert_eq!(read_entries(&flipped, Path::new("t")), vec![entry(0)]);
        // An absurd length is damage, not an allocation.
        let mut absurd = u32::MAX.to_le_bytes().to_vec();
        absurd.extend([0; 12]);
        assert!(read_entries(&absurd, Path::new("t")).is_empty());
    }
}
