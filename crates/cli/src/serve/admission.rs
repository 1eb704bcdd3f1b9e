//! Which MCP sessions `serve --http` keeps: at most `[serve]
//! max_sessions_per_principal` open per principal, each closed once idle
//! for `[serve] session_idle_ttl_ms`.
//!
//! rmcp keeps a session (its worker, its channels, and our handler with
//! what its connection holds) until the client ends it with an HTTP
//! `DELETE`. A client that opens a session per request and never ends one
//! piles them up. rmcp's own idle timer cannot be the answer: it counts
//! only messages, so it would also close a session whose call is still
//! running without a word (a long cell, a `wait`, an approval the client is
//! asking a person about).
//!
//! [`Sessions`] wraps rmcp's [`LocalSessionManager`], which does all the
//! session work, and adds:
//!
//! - **A cap per principal.** `create_session` counts each principal's
//!   open sessions and refuses one past the cap with [`Refused`], which the
//!   HTTP endpoint answers with 429 (rmcp answers any error with 500).
//! - **Idle expiry.** A session is idle while none of its answers is being
//!   streamed (a POST's response, or one resumed with `Last-Event-ID`) and
//!   no request names it; [`Sessions::reap`] closes those idle for the TTL.
//!   An open GET event stream alone does not keep a session: it is how a
//!   client listens, not a sign that it still uses the session.
//!
//! rmcp's `create_session` is not told which request it serves. It runs
//! inline in the handling of an `initialize` POST, so the endpoint runs
//! each POST inside [`as_caller`], a task-local naming the principal.

use std::cell::Cell;
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures_util::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, LocalSessionManagerError};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId, SessionManager};

use super::connection::LOCAL_PRINCIPAL;
use crate::config::ServeSection;

tokio::task_local! {
    /// Who the POST being handled comes from, and the refusal if it asked
    /// for a session past the cap.
    static CALLER: Caller;
}

/// What [`as_caller`] sets for one POST.
struct Caller {
    principal: String,
    refused: Cell<Option<Refused>>,
}

/// Runs `handling` (rmcp's handling of one POST) for `principal`, so a
/// session it opens counts as theirs. Also returns the refusal, if it asked
/// for a session past the cap.
pub(super) async fn as_caller<F: Future>(principal: String, handling: F) -> (F::Output, Option<Refused>) {
    let caller = Caller { principal, refused: Cell::new(None) };
    CALLER
        .scope(caller, async move {
            let output = handling.await;
            (output, CALLER.with(|c| c.refused.take()))
        })
        .await
}

/// A principal asked for a session past `[serve] max_sessions_per_principal`.
#[derive(Clone, Debug, thiserror::Error)]
#[error(
    "principal `{principal}` has {open} open MCP sessions, the most `[serve] max_sessions_per_principal` allows \
     ({max}): end the sessions you are done with (HTTP DELETE with their `mcp-session-id` header) or reuse one; \
     a session idle for {idle} closes by itself",
    idle = seconds_or_ms(*.idle_ttl_ms)
)]
pub(super) struct Refused {
    principal: String,
    open: usize,
    max: usize,
    idle_ttl_ms: u64,
}

impl Refused {
    /// The JSON-RPC error an MCP client shows: the message, and the limit
    /// as data a program can read.
    pub(super) fn to_json_rpc(&self) -> serde_json::Value {
        serde_json::json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": {
                "code": -32000,
                "message": self.to_string(),
                "data": {"limit": "max_sessions_per_principal", "max": self.max, "idleTtlMs": self.idle_ttl_ms},
            },
        })
    }

    /// `Retry-After`, in whole seconds: the idle TTL, about when a session
    /// of theirs that is idle now will have closed.
    pub(super) fn retry_after_secs(&self) -> u64 {
        self.idle_ttl_ms.div_ceil(1000)
    }
}

/// `ms` as whole seconds when it is some, else as milliseconds.
fn seconds_or_ms(ms: u64) -> String {
    if ms.is_multiple_of(1000) { format!("{} s", ms / 1000) } else { format!("{ms} ms") }
}

/// Why a session operation failed.
#[derive(Debug, thiserror::Error)]
pub(super) enum SessionsError {
    /// rmcp's session manager failed.
    #[error(transparent)]
    Local(#[from] LocalSessionManagerError),
    /// The principal is at its cap.
    #[error(transparent)]
    Refused(#[from] Refused),
}

/// The open sessions, as counted here.
#[derive(Default)]
struct Open {
    sessions: HashMap<SessionId, Entry>,
    /// Open sessions by principal; a principal with none has no entry.
    per_principal: HashMap<String, usize>,
}

/// One open session.
struct Entry {
    principal: String,
    /// When a request last named it, or one of its answers ended.
    last_seen: Instant,
    /// Its answers being streamed now: it is not idle while any is.
    answering: usize,
}

impl Open {
    /// Uncounts session `id`, if it is counted.
    fn remove(&mut self, id: &SessionId) {
        if let Some(entry) = self.sessions.remove(id) {
            self.release(&entry.principal);
        }
    }

    /// Uncounts one session of `principal`.
    fn release(&mut self, principal: &str) {
        if let Some(count) = self.per_principal.get_mut(principal) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.per_principal.remove(principal);
            }
        }
    }
}

fn lock(open: &Mutex<Open>) -> MutexGuard<'_, Open> {
    open.lock().unwrap_or_else(PoisonError::into_inner)
}

/// rmcp's in-memory session manager, with a cap on each principal's open
/// sessions and idle sessions closed (see the module docs).
pub(super) struct Sessions {
    inner: LocalSessionManager,
    /// Shared with the [`Answering`] guards of the streams handed out.
    open: Arc<Mutex<Open>>,
    max: usize,
    idle_ttl: Duration,
}

impl Sessions {
    /// The session manager `[serve]` describes.
    pub(super) fn new(config: &ServeSection) -> Self {
        let mut inner = LocalSessionManager::default();
        // rmcp's idle timer would close sessions whose calls are still
        // running; `reap` closes idle sessions instead.
        inner.session_config.keep_alive = None;
        Self {
            inner,
            open: Arc::default(),
            max: config.max_sessions_per_principal,
            idle_ttl: Duration::from_millis(config.session_idle_ttl_ms),
        }
    }

    /// Closes the sessions idle for the TTL, until `stop` completes. It
    /// looks four times per TTL (at most a minute apart), so a session
    /// closes within 1.25 TTLs of its last use.
    pub(super) async fn reap(self: Arc<Self>, stop: impl Future<Output = ()>) {
        let mut ticks = tokio::time::interval((self.idle_ttl / 4).min(Duration::from_secs(60)));
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tokio::pin!(stop);
        loop {
            tokio::select! {
                () = &mut stop => return,
                _ = ticks.tick() => self.close_idle().await,
            }
        }
    }

    /// Closes every session idle for the TTL now.
    async fn close_idle(&self) {
        let now = Instant::now();
        let idle: Vec<SessionId> = {
            let mut open = lock(&self.open);
            let idle: Vec<SessionId> = open
                .sessions
                .iter()
                .filter(|(_, e)| e.answering == 0 && now.duration_since(e.last_seen) >= self.idle_ttl)
                .map(|(id, _)| id.clone())
                .collect();
            // Uncounted under the lock that found them idle: a request
            // arriving from here on finds them gone from the count.
            for id in &idle {
                open.remove(id);
            }
            idle
        };
        for id in idle {
            tracing::debug!(target: "codemode::mcp", session = %id, "closing an idle MCP session");
            // rmcp's worker stops, and with it the session's handler.
            if let Err(e) = self.inner.close_session(&id).await {
                tracing::debug!(target: "codemode::mcp", session = %id, "closing an idle MCP session: {e}");
            }
        }
    }

    /// Counts a session for `principal` about to be made, or refuses it.
    fn reserve(&self, principal: String) -> Result<Reservation<'_>, Refused> {
        let mut open = lock(&self.open);
        let count = open.per_principal.get(&principal).copied().unwrap_or(0);
        if count >= self.max {
            let idle_ttl_ms = u64::try_from(self.idle_ttl.as_millis()).unwrap_or(u64::MAX);
            return Err(Refused { principal, open: count, max: self.max, idle_ttl_ms });
        }
        *open.per_principal.entry(principal.clone()).or_insert(0) += 1;
        Ok(Reservation { open: &self.open, principal: Some(principal) })
    }

    /// A request names session `id`: it is in use now.
    fn touch(&self, id: &SessionId) {
        if let Some(entry) = lock(&self.open).sessions.get_mut(id) {
            entry.last_seen = Instant::now();
        }
    }
}

/// A session counted before rmcp has made it: uncounted again if making it
/// fails or the request is dropped meanwhile (the client went away).
struct Reservation<'a> {
    open: &'a Mutex<Open>,
    /// `None` once the session is made.
    principal: Option<String>,
}

impl Reservation<'_> {
    /// rmcp made the session: it is `id`.
    fn made(mut self, id: &SessionId) {
        if let Some(principal) = self.principal.take() {
            let entry = Entry { principal, last_seen: Instant::now(), answering: 0 };
            lock(self.open).sessions.insert(id.clone(), entry);
        }
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        if let Some(principal) = self.principal.take() {
            lock(self.open).release(&principal);
        }
    }
}

/// Keeps a session from being idle while one of its answers is streamed.
struct Answering {
    open: Arc<Mutex<Open>>,
    id: SessionId,
}

impl Answering {
    fn start(open: &Arc<Mutex<Open>>, id: &SessionId) -> Self {
        if let Some(entry) = lock(open).sessions.get_mut(id) {
            entry.answering += 1;
            entry.last_seen = Instant::now();
        }
        Self { open: Arc::clone(open), id: id.clone() }
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        // The idle time counts from the end of the answer.
        if let Some(entry) = lock(&self.open).sessions.get_mut(&self.id) {
            entry.answering = entry.answering.saturating_sub(1);
            entry.last_seen = Instant::now();
        }
    }
}

/// An answer's event stream, holding its session busy until hyper drops
/// it: written to the end, or the client gone.
struct Streaming<S> {
    stream: Pin<Box<S>>,
    _answering: Answering,
}

impl<S: Stream> Stream for Streaming<S> {
    type Item = S::Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        self.stream.as_mut().poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.stream.size_hint()
    }
}

// Every operation goes to rmcp's manager. No session store is configured,
// so rmcp never restores a session (the trait's default, `NotSupported`,
// stands), and there is no event store.
impl SessionManager for Sessions {
    type Error = SessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        // Outside `as_caller` (no such path today) the local principal.
        let principal = CALLER.try_with(|c| c.principal.clone()).unwrap_or_else(|_| LOCAL_PRINCIPAL.to_owned());
        let reserved = match self.reserve(principal) {
            Ok(reserved) => reserved,
            Err(refused) => {
                let _ = CALLER.try_with(|c| c.refused.set(Some(refused.clone())));
                return Err(refused.into());
            }
        };
        let (id, transport) = self.inner.create_session().await?;
        reserved.made(&id);
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.touch(id);
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        // Also called by rmcp once a session's handler has stopped, however
        // it stopped: uncounting is idempotent.
        lock(&self.open).remove(id);
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        // Busy from before the request reaches the session until its answer
        // is written.
        let answering = Answering::start(&self.open, id);
        let stream = self.inner.create_stream(id, message).await?;
        Ok(Streaming { stream: Box::pin(stream), _answering: answering })
    }

    async fn accept_message(&self, id: &SessionId, message: ClientJsonRpcMessage) -> Result<(), Self::Error> {
        self.touch(id);
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        // A resumed answer is one the client still waits for.
        let answering = Answering::start(&self.open, id);
        let stream = self.inner.resume(id, last_event_id).await?;
        Ok(Streaming { stream: Box::pin(stream), _answering: answering })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sessions capped at `max` per principal, idle after 1.5 s.
    fn sessions(max: usize) -> Sessions {
        Sessions::new(&ServeSection {
            max_sessions_per_principal: max,
            session_idle_ttl_ms: 1_500,
            ..ServeSection::default()
        })
    }

    /// Opens a session as `principal`: its id, or the refusal.
    async fn open(sessions: &Sessions, principal: &str) -> Result<SessionId, Option<Refused>> {
        let (made, refused) = as_caller(principal.to_owned(), sessions.create_session()).await;
        made.map(|(id, _transport)| id).map_err(|_| refused)
    }

    #[tokio::test]
    async fn a_principal_at_its_cap_is_refused_saying_what_to_do_and_others_are_not() {
        let sessions = sessions(2);
        let first = open(&sessions, "alice").await.unwrap();
        open(&sessions, "alice").await.unwrap();
        let refused = open(&sessions, "alice").await.unwrap_err().expect("the refusal reaches the endpoint");
        let message = refused.to_string();
        for part in ["`alice`", "2 open MCP sessions", "max_sessions_per_principal", "DELETE", "1500 ms"] {
            assert!(message.contains(part), "{part:?} in {message}");
        }
        assert_eq!(refused.retry_after_secs(), 2, "whole seconds, rounded up");
        assert_eq!(refused.to_json_rpc()["error"]["data"]["max"], 2);
        open(&sessions, "bob").await.unwrap();
        // Closing (twice: rmcp closes again once the handler stops) frees
        // exactly one place.
        sessions.close_session(&first).await.unwrap();
        sessions.close_session(&first).await.unwrap();
        open(&sessions, "alice").await.unwrap();
        assert!(open(&sessions, "alice").await.is_err());
    }

    #[tokio::test]
    async fn a_session_answering_is_not_idle_and_an_idle_one_is_closed() {
        let sessions = sessions(1);
        let id = open(&sessions, "alice").await.unwrap();
        let answering = Answering::start(&sessions.open, &id);
        lock(&sessions.open).sessions.get_mut(&id).unwrap().last_seen -= sessions.idle_ttl;
        sessions.close_idle().await;
        assert!(lock(&sessions.open).sessions.contains_key(&id), "kept while answering");
        drop(answering);
        lock(&sessions.open).sessions.get_mut(&id).unwrap().last_seen -= sessions.idle_ttl;
        sessions.close_idle().await;
        assert!(lock(&sessions.open).per_principal.is_empty(), "closed once idle for the TTL");
        assert!(!sessions.has_session(&id).await.unwrap());
        open(&sessions, "alice").await.unwrap();
    }
}
