//! The TCP stream under a node's WebSocket, with the bounds of the
//! unauthenticated phase.
//!
//! tokio-tungstenite fixes a socket's `WebSocketConfig` when the socket is
//! built and cannot change it later, yet a stranger's hello must be read
//! with a small frame bound and a paired node's results with a large one.
//! So the gateway reads the hello with a small config and then rebuilds the
//! `WebSocketStream` over the same TCP stream with the paired config. That
//! is only sound when the first `WebSocketStream` holds no bytes it read
//! past the hello; [`PeerStream`] guarantees it by handing tungstenite the
//! HTTP request no further than its blank line and the hello one byte at a
//! time (the read-ahead stays here and is handed on after the rebuild).
//! Before pairing it also caps the bytes a peer may send at all.

use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::OwnedSemaphorePermit;

/// The read-ahead of an unpaired peer.
const READ_AHEAD: usize = 4096;

/// What the reader is in the middle of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The HTTP upgrade request: handed on up to each blank line.
    Http,
    /// The hello: handed on one byte at a time.
    Hello,
    /// Paired: unbounded here (the paired `WebSocketConfig` bounds frames).
    Open,
}

/// Counts a peer address's connections that are not paired yet; the count
/// drops when the slot is dropped.
pub(crate) struct HandshakeSlot {
    _permit: OwnedSemaphorePermit,
    addr: IpAddr,
    per_addr: Arc<Mutex<std::collections::HashMap<IpAddr, usize>>>,
}

impl HandshakeSlot {
    /// Takes a slot for `addr` unless it already has `max_per_addr`.
    /// `permit` is the global bound; the per-address map never holds more
    /// entries than there are permits.
    pub(crate) fn take(
        permit: OwnedSemaphorePermit,
        addr: IpAddr,
        per_addr: &Arc<Mutex<std::collections::HashMap<IpAddr, usize>>>,
        max_per_addr: usize,
    ) -> Option<Self> {
        let mut map = per_addr.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // `max_per_addr` is at least one, so a new entry is always taken.
        let count = map.entry(addr).or_insert(0);
        if *count >= max_per_addr {
            return None;
        }
        *count += 1;
        Some(Self { _permit: permit, addr, per_addr: Arc::clone(per_addr) })
    }
}

impl Drop for HandshakeSlot {
    fn drop(&mut self) {
        let mut map = self.per_addr.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(count) = map.get_mut(&self.addr) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                map.remove(&self.addr);
            }
        }
    }
}

/// A node's TCP stream; see the module documentation.
pub(crate) struct PeerStream {
    tcp: TcpStream,
    phase: Phase,
    /// Bytes read from the socket and not yet handed on: `buf[start..end]`.
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    /// Bytes the peer may still send before it is paired.
    budget: usize,
    /// `Http`: whether the bytes handed on so far end at the start of a line.
    line_start: bool,
    /// Held until the node is paired or the connection ends.
    slot: Option<HandshakeSlot>,
}

impl PeerStream {
    /// An unpaired peer that may send at most `budget` bytes before it is
    /// paired.
    pub(crate) fn new(tcp: TcpStream, budget: usize, slot: Option<HandshakeSlot>) -> Self {
        Self {
            tcp,
            phase: Phase::Http,
            buf: vec![0; READ_AHEAD].into_boxed_slice(),
            start: 0,
            end: 0,
            budget,
            line_start: false,
            slot,
        }
    }

    /// The upgrade is done: the next bytes are the hello.
    pub(crate) fn expect_hello(&mut self) {
        if self.phase == Phase::Http {
            self.phase = Phase::Hello;
        }
    }

    /// The node is paired: lift the unpaired bounds and free its slot.
    pub(crate) fn open(&mut self) {
        self.phase = Phase::Open;
        self.slot = None;
    }
}

/// How many bytes of `avail` to hand on in `phase`, at most `room`.
fn hand_on(phase: Phase, line_start: &mut bool, avail: &[u8], room: usize) -> usize {
    let avail = &avail[..avail.len().min(room)];
    match phase {
        Phase::Open => avail.len(),
        Phase::Hello => avail.len().min(1),
        Phase::Http => {
            // httparse ends a request at an empty line (LF or CRLF line
            // ends): stop right after one so nothing past it is read.
            for (i, b) in avail.iter().enumerate() {
                match b {
                    b'\n' if *line_start => {
                        *line_start = false;
                        return i + 1;
                    }
                    b'\n' => *line_start = true,
                    b'\r' => {}
                    _ => *line_start = false,
                }
            }
            avail.len()
        }
    }
}

/// The error a peer gets for sending more than its unpaired budget.
#[derive(Debug, thiserror::Error)]
#[error("the peer sent more than the gateway accepts before pairing")]
pub(crate) struct OverBudget;

impl AsyncRead for PeerStream {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, out: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.start == this.end {
            if this.phase == Phase::Open {
                return Pin::new(&mut this.tcp).poll_read(cx, out);
            }
            if this.budget == 0 {
                return Poll::Ready(Err(io::Error::new(io::ErrorKind::InvalidData, OverBudget)));
            }
            let cap = this.buf.len().min(this.budget);
            let mut into = ReadBuf::new(&mut this.buf[..cap]);
            match Pin::new(&mut this.tcp).poll_read(cx, &mut into) {
                Poll::Ready(Ok(())) => {}
                other => return other,
            }
            let n = into.filled().len();
            if n == 0 {
                return Poll::Ready(Ok(()));
            }
            this.budget -= n;
            this.start = 0;
            this.end = n;
        }
        let avail = &this.buf[this.start..this.end];
        let n = hand_on(this.phase, &mut this.line_start, avail, out.remaining());
        out.put_slice(&avail[..n]);
        this.start += n;
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for PeerStream {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().tcp).poll_write(cx, data)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_shutdown(cx)
    }
}
