//! A window's output as it happens: a host that shows a long cell to a
//! person (MCP progress notifications, a terminal) gets each `text`,
//! `json` and console entry while the window runs, not only in the result.
//!
//! The stream is a preview. The result still carries the window's output
//! in full (within the cell's output budget), and the stream never slows
//! the cell: it is bounded, and entries a slow reader would have had to
//! wait for are counted and reported as [`Streamed::Skipped`], never
//! dropped unsaid. Entries past the cell's output budget are not streamed
//! either; the result's truncation marker describes them.

use codemode_protocol::OutputEntry;
use tokio::sync::mpsc;

/// One message of an output stream.
#[derive(Clone, Debug, PartialEq)]
pub enum Streamed {
    /// Entries the guest emitted, in order.
    Entries(Vec<OutputEntry>),
    /// This many entries were not streamed: the reader fell behind. The
    /// result has them.
    Skipped(usize),
}

/// Where a window sends its output while it runs ([`Exec::stream`](crate::Exec::stream),
/// [`Reply::wait_streaming`](crate::Reply::wait_streaming)).
#[derive(Clone, Debug)]
pub struct OutputStream(mpsc::Sender<Streamed>);

impl OutputStream {
    /// A stream holding up to `capacity` messages (at least 1) the reader
    /// has not taken, and its reading end.
    #[must_use]
    pub fn channel(capacity: usize) -> (Self, mpsc::Receiver<Streamed>) {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        (Self(tx), rx)
    }
}

/// Streams compare as the same channel.
impl PartialEq for OutputStream {
    fn eq(&self, other: &Self) -> bool {
        self.0.same_channel(&other.0)
    }
}

impl Eq for OutputStream {}

/// A window's stream, with how much of its output went out.
#[derive(Debug)]
pub(crate) struct Streaming {
    stream: OutputStream,
    /// Entries of the window's pending output already handled.
    sent: usize,
    /// Entries not streamed since the last message that went out.
    skipped: usize,
}

impl Streaming {
    pub(crate) fn new(stream: OutputStream) -> Self {
        Self { stream, sent: 0, skipped: 0 }
    }

    /// Sends what of `entries` (the window's pending output) is new.
    pub(crate) fn send_new(&mut self, entries: &[OutputEntry]) {
        let Some(new) = entries.get(self.sent..).filter(|n| !n.is_empty()) else { return };
        self.sent = entries.len();
        if self.skipped > 0 {
            if self.stream.0.try_send(Streamed::Skipped(self.skipped)).is_err() {
                self.skipped += new.len();
                return;
            }
            self.skipped = 0;
        }
        if self.stream.0.try_send(Streamed::Entries(new.to_vec())).is_err() {
            self.skipped += new.len();
        }
    }
}

/// The window ended: what was not streamed is reported, if the reader has
/// room.
impl Drop for Streaming {
    fn drop(&mut self) {
        if self.skipped > 0 {
            let _ = self.stream.0.try_send(Streamed::Skipped(self.skipped));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_reader_is_told_how_many_entries_it_missed_never_blocks_the_cell() {
        let (stream, mut rx) = OutputStream::channel(1);
        let mut s = Streaming::new(stream);
        let a = OutputEntry::text("a");
        s.send_new(std::slice::from_ref(&a));
        s.send_new(&[a.clone(), a.clone(), a.clone()]);
        assert_eq!(rx.try_recv().unwrap(), Streamed::Entries(vec![a.clone()]));
        assert!(rx.try_recv().is_err(), "the second batch did not fit");
        s.send_new(&[a.clone(), a.clone(), a.clone(), a.clone()]);
        assert_eq!(rx.try_recv().unwrap(), Streamed::Skipped(2));
        drop(s);
        assert_eq!(rx.try_recv().unwrap(), Streamed::Skipped(1), "the last entry, reported at the end");
    }
}
