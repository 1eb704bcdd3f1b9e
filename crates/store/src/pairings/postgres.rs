//! Node pairings on PostgreSQL ([`PgPairings`]): one table every gateway
//! process on the database shares, so a node paired through one process
//! reconnects to any other, and a revocation anywhere counts everywhere.
//!
//! Each write is one statement that also sends `NOTIFY
//! codemode_node_pairings, '<origin>:<node id>'` (so it is announced
//! exactly when it is visible); each `PgPairings` keeps one dedicated
//! connection that `LISTEN`s and announces the other handles' changes
//! through [`PairingStore::changes`] — its own it skips by their origin.
//! A reconnect of that connection announces a resync.

use std::sync::Arc;

use codemode_nodes::{Pairing, PairingChange, PairingFuture, PairingStore, PairingStoreError};
use tokio::sync::broadcast;

use crate::error::StoreError;
use crate::postgres::listen::{Heard, Listener};
use crate::postgres::{Cache, Pg, big, describe, unbig};

/// The notification channel (channels are per database, so every process
/// on the database shares it).
const CHANNEL: &str = "codemode_node_pairings";

/// The `application_name` of the `LISTEN` connection.
pub(crate) const LISTENER_NAME: &str = "codemode-pairings-listener";

/// Changes announced but not yet taken by a subscriber; past this a slow
/// subscriber is told to resync instead (the channel never grows).
const ANNOUNCED: usize = 256;

/// The columns of a [`Pairing`], in [`pairing`]'s order.
const COLUMNS: &str = "id, name, platform, commands, secret_sha256, paired_at_ms, last_seen_ms";

/// Node pairings in PostgreSQL (see the module docs).
pub struct PgPairings {
    pg: Pg,
    /// This handle's notification prefix, `<16 hex digits>:`.
    origin: Arc<str>,
    changes: broadcast::Sender<PairingChange>,
    /// The `LISTEN` connection; closed on drop.
    _listener: Listener,
}

impl std::fmt::Debug for PgPairings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgPairings").field("pg", &self.pg).finish_non_exhaustive()
    }
}

impl PgPairings {
    /// The node pairings of `pg`'s database. Opens the dedicated `LISTEN`
    /// connection before returning, so a subscriber of
    /// [`changes`](PairingStore::changes) hears every later change another
    /// handle makes.
    ///
    /// # Errors
    /// [`StoreError::Database`] when the listening connection cannot be
    /// made.
    pub async fn start(pg: &Pg) -> Result<Self, StoreError> {
        let origin = codemode_protocol::ids::random_bytes::<8>().map_err(StoreError::NoRandomness)?;
        let origin: Arc<str> = format!("{}:", codemode_protocol::ids::hex_into(String::new(), &origin)).into();
        let (changes, _) = broadcast::channel(ANNOUNCED);
        let (own, sender) = (Arc::clone(&origin), changes.clone());
        let on = Arc::new(move |heard: Heard<'_>| {
            let change = match heard {
                Heard::Payload(payload) => match payload.split_at_checked(own.len()) {
                    Some((from, _)) if from == &*own => return,
                    // `<origin>:<id>`; the origin is fixed-length hex, the id anything.
                    _ => match payload.split_once(':') {
                        Some((_, id)) => PairingChange::Node(id.to_owned()),
                        None => PairingChange::Resync,
                    },
                },
                Heard::Gap => PairingChange::Resync,
            };
            // No subscriber (no registry running yet): nothing to tell.
            let _ = sender.send(change);
        });
        let listener = Listener::start(pg, CHANNEL, LISTENER_NAME, "node pairings", on).await.map_err(|e| {
            StoreError::Database(format!("cannot listen for node pairing changes on {}: {e}", pg.shown))
        })?;
        Ok(Self { pg: pg.clone(), origin, changes, _listener: listener })
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, PairingStoreError> {
        self.pg.client().await.map_err(PairingStoreError::new)
    }

    async fn do_load(&self) -> Result<Vec<Pairing>, PairingStoreError> {
        let client = self.client().await?;
        let rows = client
            .cached()
            .query(&format!("SELECT {COLUMNS} FROM codemode_node_pairings ORDER BY id"), &[])
            .await
            .map_err(|e| failed(&e))?;
        rows.iter().map(pairing).collect()
    }

    async fn do_get(&self, id: String) -> Result<Option<Pairing>, PairingStoreError> {
        let client = self.client().await?;
        let row = client
            .cached()
            .query_opt(&format!("SELECT {COLUMNS} FROM codemode_node_pairings WHERE id = $1"), &[&id])
            .await
            .map_err(|e| failed(&e))?;
        row.as_ref().map(pairing).transpose()
    }

    async fn do_save(&self, p: Pairing) -> Result<(), PairingStoreError> {
        let client = self.client().await?;
        client
            .cached()
            .execute(
                "WITH s AS (
                     INSERT INTO codemode_node_pairings (id, name, platform, commands, secret_sha256, paired_at_ms, last_seen_ms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)
                     ON CONFLICT (id) DO UPDATE SET
                         name = EXCLUDED.name, platform = EXCLUDED.platform, commands = EXCLUDED.commands,
                         secret_sha256 = EXCLUDED.secret_sha256, paired_at_ms = EXCLUDED.paired_at_ms,
                         last_seen_ms = EXCLUDED.last_seen_ms
                     RETURNING id)
                 SELECT pg_notify($8, $9 || id)::text FROM s",
                &[
                    &p.id,
                    &p.name,
                    &p.platform,
                    &p.commands,
                    &p.secret_sha256,
                    &big(p.paired_at_ms),
                    &big(p.last_seen_ms),
                    &CHANNEL,
                    &&*self.origin,
                ],
            )
            .await
            .map_err(|e| failed(&e))?;
        Ok(())
    }

    async fn do_update(&self, p: Pairing) -> Result<bool, PairingStoreError> {
        let client = self.client().await?;
        let updated = client
            .cached()
            .execute(
                "WITH u AS (
                     UPDATE codemode_node_pairings SET name = $2, platform = $3, commands = $4, last_seen_ms = $5
                     WHERE id = $1 AND secret_sha256 = $6
                     RETURNING id)
                 SELECT pg_notify($7, $8 || id)::text FROM u",
                &[
                    &p.id,
                    &p.name,
                    &p.platform,
                    &p.commands,
                    &big(p.last_seen_ms),
                    &p.secret_sha256,
                    &CHANNEL,
                    &&*self.origin,
                ],
            )
            .await
            .map_err(|e| failed(&e))?;
        Ok(updated > 0)
    }

    async fn do_remove(&self, id: String) -> Result<bool, PairingStoreError> {
        let client = self.client().await?;
        let removed = client
            .cached()
            .execute(
                "WITH d AS (DELETE FROM codemode_node_pairings WHERE id = $1 RETURNING id)
                 SELECT pg_notify($2, $3 || id)::text FROM d",
                &[&id, &CHANNEL, &&*self.origin],
            )
            .await
            .map_err(|e| failed(&e))?;
        Ok(removed > 0)
    }
}

impl PairingStore for PgPairings {
    fn load(&self) -> PairingFuture<'_, Vec<Pairing>> {
        Box::pin(self.do_load())
    }

    fn get(&self, id: &str) -> PairingFuture<'_, Option<Pairing>> {
        Box::pin(self.do_get(id.to_owned()))
    }

    fn save(&self, pairing: &Pairing) -> PairingFuture<'_, ()> {
        Box::pin(self.do_save(pairing.clone()))
    }

    fn update(&self, pairing: &Pairing) -> PairingFuture<'_, bool> {
        Box::pin(self.do_update(pairing.clone()))
    }

    fn remove(&self, id: &str) -> PairingFuture<'_, bool> {
        Box::pin(self.do_remove(id.to_owned()))
    }

    fn changes(&self) -> Option<broadcast::Receiver<PairingChange>> {
        Some(self.changes.subscribe())
    }
}

/// A failed statement, with the server's code and message.
fn failed(e: &tokio_postgres::Error) -> PairingStoreError {
    PairingStoreError::new(StoreError::Database(describe(e)))
}

/// A row of [`COLUMNS`] as a [`Pairing`].
fn pairing(r: &tokio_postgres::Row) -> Result<Pairing, PairingStoreError> {
    let read = |e: tokio_postgres::Error| failed(&e);
    Ok(Pairing {
        id: r.try_get(0).map_err(read)?,
        name: r.try_get(1).map_err(read)?,
        platform: r.try_get(2).map_err(read)?,
        commands: r.try_get(3).map_err(read)?,
        secret_sha256: r.try_get(4).map_err(read)?,
        paired_at_ms: unbig(r.try_get(5).map_err(read)?),
        last_seen_ms: unbig(r.try_get(6).map_err(read)?),
    })
}
