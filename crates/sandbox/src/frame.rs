//! Frames on a worker's channel: a 4-byte little-endian length, then that
//! many bytes. What the bytes mean is the engine protocol's; this module
//! only bounds them and says, with a typed error, what was wrong.
//!
//! The host treats everything a worker sends as hostile input: a length
//! past the bound is refused from the header alone (nothing is allocated
//! for it), a stream that ends inside a frame is `Truncated`, a worker
//! that sends nothing by the deadline is `Silent`. After any error the
//! stream cannot be trusted to be at a frame boundary again: the host
//! ends that worker and fails only its cells.
//!
//! Each side's first frame is a hello naming the protocol and its
//! version ([`hello`], [`check_hello`]), so a host and a worker binary of
//! different builds refuse each other with both versions named instead
//! of misreading each other's frames.

use std::io::{self, Read, Write};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// The bytes a hello frame starts with.
const HELLO_MAGIC: &[u8; 8] = b"codemode";

/// A frame that could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// The peer closed the channel between frames.
    #[error("the peer closed the channel")]
    Closed,
    /// The peer closed the channel inside a frame.
    #[error("the channel ended {got} bytes into a {expected}-byte frame")]
    Truncated {
        /// Bytes of the frame (header included) that arrived.
        got: usize,
        /// Bytes the frame should have had.
        expected: usize,
    },
    /// A frame's header claims more than the bound.
    #[error("a frame of {len} bytes is past the bound of {max} bytes")]
    Oversized {
        /// The length the header claims.
        len: u64,
        /// The bound.
        max: usize,
    },
    /// Nothing (or not a whole frame) arrived by the deadline.
    #[error("the peer sent no whole frame within {0:?}")]
    Silent(Duration),
    /// The first frame was not a codemode engine hello.
    #[error("the peer's first frame is not a codemode engine hello ({0})")]
    NotHello(String),
    /// The peer speaks another version of the protocol.
    #[error("the peer speaks engine protocol {theirs}, this build speaks {ours}: run a worker of the same build")]
    Version {
        /// This side's version.
        ours: u32,
        /// The peer's.
        theirs: u32,
    },
    /// The channel failed.
    #[error("the channel failed: {0}")]
    Io(#[from] io::Error),
}

/// The hello frame's payload for protocol `version`.
#[must_use]
pub fn hello(version: u32) -> Vec<u8> {
    let mut out = HELLO_MAGIC.to_vec();
    out.extend_from_slice(&version.to_le_bytes());
    out
}

/// Checks the peer's hello against this side's `version`.
///
/// # Errors
/// Not a hello, or another version.
pub fn check_hello(frame: &[u8], version: u32) -> Result<(), FrameError> {
    let Some(rest) = frame.strip_prefix(HELLO_MAGIC.as_slice()) else {
        let shown: String = frame.iter().take(16).map(|b| format!("{b:02x}")).collect();
        return Err(FrameError::NotHello(format!("it starts {shown}")));
    };
    let theirs: [u8; 4] =
        rest.try_into().map_err(|_| FrameError::NotHello(format!("its version is {} bytes, not 4", rest.len())))?;
    let theirs = u32::from_le_bytes(theirs);
    if theirs != version {
        return Err(FrameError::Version { ours: version, theirs });
    }
    Ok(())
}

/// The header of a `len`-byte payload.
fn header(len: usize, max: usize) -> Result<[u8; 4], FrameError> {
    match u32::try_from(len) {
        Ok(n) if len <= max => Ok(n.to_le_bytes()),
        _ => Err(FrameError::Oversized { len: len as u64, max }),
    }
}

/// The payload length a header claims, if within `max`.
fn claimed(head: [u8; 4], max: usize) -> Result<usize, FrameError> {
    let len = u32::from_le_bytes(head);
    match usize::try_from(len) {
        Ok(n) if n <= max => Ok(n),
        _ => Err(FrameError::Oversized { len: u64::from(len), max }),
    }
}

/// Writes one frame (the worker's side: blocking).
///
/// # Errors
/// `payload` is past `max`, or the channel failed.
pub fn write_frame(to: &mut impl Write, payload: &[u8], max: usize) -> Result<(), FrameError> {
    let head = header(payload.len(), max)?;
    if payload.len() <= ONE_WRITE_BYTES {
        // One write, so the reader wakes once, to a whole frame.
        let mut frame = Vec::with_capacity(head.len() + payload.len());
        frame.extend_from_slice(&head);
        frame.extend_from_slice(payload);
        to.write_all(&frame)?;
    } else {
        to.write_all(&head)?;
        to.write_all(payload)?;
    }
    to.flush()?;
    Ok(())
}

/// Frames up to this size are written with one call (copied behind their
/// header); larger ones, whose copy would cost more than a second call,
/// with two.
const ONE_WRITE_BYTES: usize = 64 * 1024;

/// Reads frames from a stream through a buffer that survives a read that
/// timed out: the partial frame is kept and the next call goes on with
/// it, so a stream with a read timeout (a tick to look at a deadline) can
/// be read without setting the timeout before every read. Reads take as
/// much as the stream has, so a small frame usually costs one call.
#[derive(Debug)]
pub struct FrameReader<S> {
    stream: S,
    /// Bytes read and room to read into (zeroed once, when it grows).
    buf: Vec<u8>,
    /// The unread bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    max: usize,
}

/// What a [`FrameReader`] has room to read at least, when it reads.
const READ_CHUNK: usize = 16 * 1024;

/// A buffer grown past this for one large frame is shrunk back once it
/// empties.
const KEPT_BUFFER: usize = 256 * 1024;

impl<S: Read> FrameReader<S> {
    /// Frames of at most `max` bytes from `stream`.
    pub fn new(stream: S, max: usize) -> Self {
        Self { stream, buf: Vec::new(), start: 0, end: 0, max }
    }

    /// The stream.
    pub fn get_ref(&self) -> &S {
        &self.stream
    }

    /// The next frame. An error of kind `WouldBlock` or `TimedOut` (the
    /// stream's read timeout) keeps what arrived of the frame: call again.
    ///
    /// # Errors
    /// See [`FrameError`]; after any other error the stream cannot be
    /// read on.
    pub fn next_frame(&mut self) -> Result<Vec<u8>, FrameError> {
        loop {
            let unread = &self.buf[self.start..self.end];
            let needed = match unread.first_chunk::<4>() {
                Some(head) => {
                    let len = claimed(*head, self.max)?;
                    if unread.len() >= 4 + len {
                        let frame = unread[4..4 + len].to_vec();
                        self.start += 4 + len;
                        self.compact();
                        return Ok(frame);
                    }
                    4 + len
                }
                None => 4,
            };
            let have = self.end - self.start;
            // Room for the rest of this frame, and a chunk for what follows.
            let room = (needed - have).max(READ_CHUNK);
            if self.buf.len() - self.end < room {
                self.buf.copy_within(self.start..self.end, 0);
                (self.start, self.end) = (0, have);
                if self.buf.len() < have + room {
                    self.buf.resize(have + room, 0);
                }
            }
            match self.stream.read(&mut self.buf[self.end..]) {
                Ok(0) if have == 0 => return Err(FrameError::Closed),
                Ok(0) => return Err(FrameError::Truncated { got: have, expected: needed }),
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(FrameError::Io(e)),
            }
        }
    }

    /// Starts over at the buffer's beginning once it is all read, and
    /// gives back what one large frame grew it to.
    fn compact(&mut self) {
        if self.start == self.end {
            (self.start, self.end) = (0, 0);
            if self.buf.len() > KEPT_BUFFER {
                self.buf.truncate(KEPT_BUFFER);
                self.buf.shrink_to_fit();
            }
        }
    }
}

/// Reads one frame of at most `max` bytes (the worker's side: blocking).
///
/// # Errors
/// See [`FrameError`].
pub fn read_frame(from: &mut impl Read, max: usize) -> Result<Vec<u8>, FrameError> {
    let mut head = [0u8; 4];
    let got = read_full(from, &mut head)?;
    let mut payload = vec![0u8; payload_len(head, got, max)?];
    let got = read_full(from, &mut payload)?;
    whole(payload, got)
}

/// The payload length of a frame whose header read gave `got` bytes of
/// `head`: the stream ended between frames, inside the header, or the
/// header claims too much.
fn payload_len(head: [u8; 4], got: usize, max: usize) -> Result<usize, FrameError> {
    match got {
        0 => Err(FrameError::Closed),
        got if got < head.len() => Err(FrameError::Truncated { got, expected: head.len() }),
        _ => claimed(head, max),
    }
}

/// `payload`, if its read filled it (`got` bytes).
fn whole(payload: Vec<u8>, got: usize) -> Result<Vec<u8>, FrameError> {
    if got < payload.len() {
        return Err(FrameError::Truncated { got: 4 + got, expected: 4 + payload.len() });
    }
    Ok(payload)
}

/// Fills `buf` unless the stream ends first; how many bytes arrived.
fn read_full(from: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match from.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Writes one frame (the host's side), giving up at `deadline`: a worker
/// that stops reading cannot hold the host.
///
/// # Errors
/// `payload` is past `max`, the channel failed, or the deadline passed
/// (`Silent`).
pub async fn send_frame(
    to: &mut (impl AsyncWrite + Unpin),
    payload: &[u8],
    max: usize,
    deadline: Instant,
) -> Result<(), FrameError> {
    let head = header(payload.len(), max)?;
    let write = async {
        to.write_all(&head).await?;
        to.write_all(payload).await?;
        to.flush().await
    };
    let budget = deadline.saturating_duration_since(Instant::now());
    match tokio::time::timeout(budget, write).await {
        Ok(written) => Ok(written?),
        Err(_) => Err(FrameError::Silent(budget)),
    }
}

/// Reads one frame of at most `max` bytes (the host's side), giving up at
/// `deadline`.
///
/// # Errors
/// See [`FrameError`]; `Silent` when no whole frame arrived in time.
pub async fn receive_frame(
    from: &mut (impl AsyncRead + Unpin),
    max: usize,
    deadline: Instant,
) -> Result<Vec<u8>, FrameError> {
    let budget = deadline.saturating_duration_since(Instant::now());
    match tokio::time::timeout(budget, receive(from, max)).await {
        Ok(frame) => frame,
        Err(_) => Err(FrameError::Silent(budget)),
    }
}

async fn receive(from: &mut (impl AsyncRead + Unpin), max: usize) -> Result<Vec<u8>, FrameError> {
    let mut head = [0u8; 4];
    let got = fill(from, &mut head).await?;
    let mut payload = vec![0u8; payload_len(head, got, max)?];
    let got = fill(from, &mut payload).await?;
    whole(payload, got)
}

async fn fill(from: &mut (impl AsyncRead + Unpin), buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match from.read(&mut buf[filled..]).await? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(5)
    }

    #[test]
    fn a_frame_round_trips_and_the_bound_admits_exactly_its_size_and_refuses_one_more() {
        let mut wire = Vec::new();
        write_frame(&mut wire, b"abc", 3).unwrap();
        assert_eq!(read_frame(&mut wire.as_slice(), 3).unwrap(), b"abc");
        assert!(matches!(write_frame(&mut Vec::new(), b"abcd", 3), Err(FrameError::Oversized { len: 4, max: 3 })));
        assert!(matches!(read_frame(&mut wire.as_slice(), 2), Err(FrameError::Oversized { len: 3, max: 2 })));
    }

    /// A reader whose reads hand out `chunks` in turn, with a timeout
    /// between each, as a socket with a read timeout would.
    struct Trickle {
        chunks: Vec<Vec<u8>>,
        timed_out: bool,
    }

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if !std::mem::replace(&mut self.timed_out, true) {
                return Err(io::ErrorKind::WouldBlock.into());
            }
            self.timed_out = false;
            if self.chunks.is_empty() {
                return Ok(0);
            }
            let chunk = self.chunks.remove(0);
            buf[..chunk.len()].copy_from_slice(&chunk);
            Ok(chunk.len())
        }
    }

    #[test]
    fn a_frame_reader_keeps_a_partial_frame_across_timeouts_and_reads_two_frames_from_one_read() {
        let mut wire = Vec::new();
        write_frame(&mut wire, b"first", 16).unwrap();
        write_frame(&mut wire, b"second", 16).unwrap();
        write_frame(&mut wire, b"third!", 16).unwrap();
        // Frames of 9, 10 and 10 bytes. The first read ends inside the
        // first header; the second holds the rest of the first frame, all
        // of the second and two bytes of the third; the third all of the
        // third but its last byte.
        assert_eq!(wire.len(), 29);
        let chunks = vec![wire[..2].to_vec(), wire[2..21].to_vec(), wire[21..28].to_vec(), wire[28..].to_vec()];
        let mut reader = FrameReader::new(Trickle { chunks, timed_out: false }, 16);
        let mut frames = Vec::new();
        let mut timeouts = 0;
        loop {
            match reader.next_frame() {
                Ok(frame) => frames.push(frame),
                Err(FrameError::Io(e)) if e.kind() == io::ErrorKind::WouldBlock => timeouts += 1,
                Err(FrameError::Closed) => break,
                Err(e) => panic!("{e}"),
            }
        }
        assert_eq!(frames, [b"first".to_vec(), b"second".to_vec(), b"third!".to_vec()]);
        assert_eq!(timeouts, 5, "a timeout before each read, the closing one included");
    }

    #[test]
    fn a_frame_reader_refuses_a_header_past_its_bound_and_names_a_stream_ending_inside_a_frame() {
        let mut wire = Vec::new();
        write_frame(&mut wire, b"abcd", 4).unwrap();
        let mut reader = FrameReader::new(&wire[..], 3);
        assert!(matches!(reader.next_frame(), Err(FrameError::Oversized { len: 4, max: 3 })));
        let mut reader = FrameReader::new(&wire[..6], 4);
        assert!(
            matches!(reader.next_frame(), Err(FrameError::Truncated { got: 6, expected: 8 })),
            "inside the payload"
        );
        let mut reader = FrameReader::new(&wire[..2], 4);
        assert!(matches!(reader.next_frame(), Err(FrameError::Truncated { got: 2, expected: 4 })), "inside the header");
        let mut reader = FrameReader::new(&wire[..], 4);
        assert_eq!(reader.next_frame().unwrap(), b"abcd");
        assert!(matches!(reader.next_frame(), Err(FrameError::Closed)), "between frames");
    }

    #[test]
    fn a_header_claiming_gigabytes_is_refused_before_anything_is_allocated() {
        let wire = u32::MAX.to_le_bytes();
        let err = read_frame(&mut wire.as_slice(), 1 << 20).unwrap_err();
        assert!(matches!(err, FrameError::Oversized { len, .. } if len == u64::from(u32::MAX)), "{err}");
    }

    #[test]
    fn an_end_between_frames_is_closed_and_inside_one_is_truncated() {
        assert!(matches!(read_frame(&mut [].as_slice(), 8), Err(FrameError::Closed)));
        assert!(matches!(read_frame(&mut [5u8, 0].as_slice(), 8), Err(FrameError::Truncated { got: 2, expected: 4 })));
        let mut wire = Vec::new();
        write_frame(&mut wire, b"hello", 8).unwrap();
        wire.truncate(6);
        assert!(matches!(read_frame(&mut wire.as_slice(), 8), Err(FrameError::Truncated { got: 6, expected: 9 })));
    }

    #[test]
    fn a_hello_of_another_version_or_none_at_all_is_refused_naming_both() {
        check_hello(&hello(3), 3).unwrap();
        let err = check_hello(&hello(4), 3).unwrap_err();
        assert!(matches!(err, FrameError::Version { ours: 3, theirs: 4 }));
        assert!(err.to_string().contains("protocol 4") && err.to_string().contains("speaks 3"), "{err}");
        assert!(matches!(check_hello(b"GET / HTTP/1.1", 3), Err(FrameError::NotHello(_))));
        assert!(matches!(check_hello(b"codemode\x01", 3), Err(FrameError::NotHello(_))));
    }

    #[tokio::test]
    async fn the_host_side_reads_and_writes_the_same_frames() {
        let (mut a, mut b) = tokio::io::duplex(64);
        send_frame(&mut a, b"ping", 16, far()).await.unwrap();
        assert_eq!(receive_frame(&mut b, 16, far()).await.unwrap(), b"ping");
        let mut wire = Vec::new();
        write_frame(&mut wire, b"pong", 16).unwrap();
        a.write_all(&wire).await.unwrap();
        assert_eq!(receive_frame(&mut b, 16, far()).await.unwrap(), b"pong");
        b.write_all(&u32::MAX.to_le_bytes()).await.unwrap();
        assert!(matches!(receive_frame(&mut a, 16, far()).await, Err(FrameError::Oversized { .. })));
        drop(b);
        assert!(matches!(receive_frame(&mut a, 16, far()).await, Err(FrameError::Closed)));
    }

    #[tokio::test]
    async fn a_peer_that_sends_half_a_frame_and_stops_is_silent_at_the_deadline() {
        let (mut a, mut b) = tokio::io::duplex(64);
        b.write_all(&[10, 0, 0, 0, 1, 2]).await.unwrap();
        let started = Instant::now();
        let err = receive_frame(&mut a, 16, Instant::now() + Duration::from_millis(100)).await.unwrap_err();
        assert!(matches!(err, FrameError::Silent(_)), "{err}");
        assert!(started.elapsed() < Duration::from_secs(3));
        // A peer that stops reading cannot hold a writer either.
        let err = send_frame(&mut a, &[0; 1000], 4096, Instant::now() + Duration::from_millis(100)).await.unwrap_err();
        assert!(matches!(err, FrameError::Silent(_)), "{err}");
    }
}
