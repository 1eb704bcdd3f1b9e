//! A dedicated connection that `LISTEN`s on one notification channel, for
//! the tables whose changes other processes must hear of (runs, node
//! pairings) — no polling.
//!
//! The connection is outside the pool (a pooled connection is shared, and
//! `LISTEN` is per connection) and named by its `application_name`, so an
//! operator can tell it apart in `pg_stat_activity`. When it drops it is
//! re-established with a growing pause; the listener is told of the gap
//! both when the connection ends and once it is back, since whatever was
//! announced in between went unheard.

use std::sync::Arc;
use std::time::Duration;

use codemode_protocol::retry::Backoff;
use tokio_postgres::{AsyncMessage, NoTls};

use super::{Pg, describe};

/// What a listener hears.
pub(crate) enum Heard<'a> {
    /// A notification's payload.
    Payload(&'a str),
    /// Notifications may have been missed (the connection dropped, or is
    /// back after dropping).
    Gap,
}

/// Called with everything a listener hears, on its task; must not block.
pub(crate) type OnHeard = Arc<dyn Fn(Heard<'_>) + Send + Sync>;

/// How long the listener waits before its first reconnection attempt…
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
/// …and at most, however often it failed.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// Why a `LISTEN` connection could not be made, or ended.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ListenError {
    /// The connection could not be opened.
    #[error("cannot connect: {0}")]
    Connect(String),
    /// The server refused the `LISTEN`.
    #[error("the LISTEN was refused: {0}")]
    Listen(String),
    /// The connection broke.
    #[error("{0}")]
    Broken(String),
    /// The server closed the connection.
    #[error("the server closed the connection")]
    Closed,
}

/// The listening task; aborted (its connection closed) on drop.
pub(crate) struct Listener(tokio::task::JoinHandle<()>);

impl Drop for Listener {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// What the listener task needs to reconnect.
struct Target {
    config: Arc<tokio_postgres::Config>,
    shown: String,
    channel: &'static str,
    name: &'static str,
    what: &'static str,
    on: OnHeard,
}

type Listening =
    (tokio_postgres::Client, tokio_postgres::Connection<tokio_postgres::Socket, tokio_postgres::tls::NoTlsStream>);

impl Listener {
    /// Opens a connection to `pg`'s database named `name`, `LISTEN`s on
    /// `channel` (a fixed identifier) before returning — so everything
    /// announced after this returns is heard — and hands what it hears to
    /// `on`. `what` names the listener in logs.
    ///
    /// # Errors
    /// [`ListenError`]: the connection or the `LISTEN` failed.
    pub(crate) async fn start(
        pg: &Pg,
        channel: &'static str,
        name: &'static str,
        what: &'static str,
        on: OnHeard,
    ) -> Result<Self, ListenError> {
        let target = Target { config: Arc::clone(&pg.config), shown: pg.shown.clone(), channel, name, what, on };
        let first = target.listen().await?;
        Ok(Self(tokio::spawn(target.run(first))))
    }
}

impl Target {
    async fn listen(&self) -> Result<Listening, ListenError> {
        let mut config = (*self.config).clone();
        config.application_name(self.name);
        let (client, mut connection) = config.connect(NoTls).await.map_err(|e| ListenError::Connect(describe(&e)))?;
        // The connection must be driven while the LISTEN runs.
        let statement = format!("LISTEN {}", self.channel);
        tokio::select! {
            listened = client.batch_execute(&statement) => listened.map_err(|e| ListenError::Listen(describe(&e)))?,
            ended = self.pump(&mut connection) => return Err(ended),
        }
        Ok((client, connection))
    }

    /// Drives the connection, handing each notification on, until it
    /// ends; returns why.
    async fn pump(
        &self,
        connection: &mut tokio_postgres::Connection<tokio_postgres::Socket, tokio_postgres::tls::NoTlsStream>,
    ) -> ListenError {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(n))) => (self.on)(Heard::Payload(n.payload())),
                // Notices (and future message kinds) announce nothing.
                Some(Ok(_)) => {}
                Some(Err(e)) => return ListenError::Broken(describe(&e)),
                None => return ListenError::Closed,
            }
        }
    }

    /// Pumps `first`, then reconnects whenever the connection ends.
    async fn run(self, first: Listening) {
        let mut current = Some(first);
        let mut backoff = Backoff::new(FIRST_BACKOFF, MAX_BACKOFF);
        loop {
            if let Some((client, mut connection)) = current.take() {
                let why = self.pump(&mut connection).await;
                drop(client);
                tracing::warn!(url = %self.shown, reason = %why, "{}: the LISTEN connection ended; reconnecting", self.what);
                (self.on)(Heard::Gap);
            }
            tokio::time::sleep(backoff.next_delay()).await;
            match self.listen().await {
                Ok(listening) => {
                    backoff.reset();
                    (self.on)(Heard::Gap);
                    current = Some(listening);
                }
                Err(e) => {
                    tracing::warn!(url = %self.shown, error = %e, "{}: cannot LISTEN again; retrying", self.what);
                }
            }
        }
    }
}
