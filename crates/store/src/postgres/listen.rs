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

/// How long the listener waits before reconnecting, at most.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

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
    /// The connection or the `LISTEN` failed (the reason as text).
    pub(crate) async fn start(
        pg: &Pg,
        channel: &'static str,
        name: &'static str,
        what: &'static str,
        on: OnHeard,
    ) -> Result<Self, String> {
        let target = Target { config: Arc::clone(&pg.config), shown: pg.shown.clone(), channel, name, what, on };
        let first = target.listen().await?;
        Ok(Self(tokio::spawn(target.run(first))))
    }
}

impl Target {
    async fn listen(&self) -> Result<Listening, String> {
        let mut config = (*self.config).clone();
        config.application_name(self.name);
        let (client, mut connection) = config.connect(NoTls).await.map_err(|e| describe(&e))?;
        // The connection must be driven while the LISTEN runs.
        let statement = format!("LISTEN {}", self.channel);
        tokio::select! {
            listened = client.batch_execute(&statement) => listened.map_err(|e| describe(&e))?,
            ended = self.pump(&mut connection) => return Err(ended),
        }
        Ok((client, connection))
    }

    /// Drives the connection, handing each notification on, until it
    /// ends; returns why.
    async fn pump(
        &self,
        connection: &mut tokio_postgres::Connection<tokio_postgres::Socket, tokio_postgres::tls::NoTlsStream>,
    ) -> String {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(n))) => (self.on)(Heard::Payload(n.payload())),
                // Notices (and future message kinds) announce nothing.
                Some(Ok(_)) => {}
                Some(Err(e)) => return describe(&e),
                None => return "the server closed the connection".to_owned(),
            }
        }
    }

    /// Pumps `first`, then reconnects whenever the connection ends.
    async fn run(self, first: Listening) {
        let mut current = Some(first);
        let mut backoff = Duration::from_millis(100);
        loop {
            if let Some((client, mut connection)) = current.take() {
                let why = self.pump(&mut connection).await;
                drop(client);
                tracing::warn!(url = %self.shown, reason = %why, "{}: the LISTEN connection ended; reconnecting", self.what);
                (self.on)(Heard::Gap);
            }
            tokio::time::sleep(backoff).await;
            match self.listen().await {
                Ok(listening) => {
                    backoff = Duration::from_millis(100);
                    (self.on)(Heard::Gap);
                    current = Some(listening);
                }
                Err(e) => {
                    tracing::warn!(url = %self.shown, error = %e, "{}: cannot LISTEN again; retrying", self.what);
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
        }
    }
}
