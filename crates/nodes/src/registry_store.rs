//! How the registry's copy of the pairings follows the store, which is the
//! authority on who is paired. A store several gateway processes share
//! (PostgreSQL) can change under this one at any time, so:
//!
//! - every node presenting a secret is decided on the record the store
//!   returns then, never on the copy alone (a pairing made, replaced or
//!   revoked through another gateway counts at once);
//! - the store's change announcements (`PairingStore::changes`) are
//!   re-read one at a time, so `nodes.list()` shows pairings made
//!   elsewhere, and a connection whose pairing was revoked or replaced
//!   elsewhere ends;
//! - a write that finds the pairing gone or replaced re-reads it.

use std::collections::BTreeSet;

use ractor::ActorRef;
use tokio::sync::broadcast::{self, error::RecvError};

use super::{RegistryMsg, RegistryState, bounded};
use crate::hello::Hello;
use crate::pairing::{Pairing, PairingChange, PairingStoreError};
use crate::protocol::MAX_ID_CHARS;

impl RegistryState {
    /// The pairing a well-formed hello is decided on. A node presenting a
    /// secret is checked against the store, and the copy brought in step
    /// with what it says; other hellos need only the copy (for the wording
    /// of their refusal: a code or token pairs anew either way).
    pub(super) async fn stored_pairing(&mut self, hello: &Hello) -> Result<Option<Pairing>, PairingStoreError> {
        if hello.credentials.secret.is_none() {
            return Ok(self.pairings.get(&hello.id).cloned());
        }
        let stored = self.store.get(&hello.id).await?;
        if self.reconcile(&hello.id, stored.clone()) {
            self.remember(&hello.id, "", "", "revoked");
        }
        Ok(stored)
    }

    /// Brings the copy of `id`'s pairing in step with the store's
    /// `stored`. A connection whose pairing is gone, or was paired again
    /// with another secret, ends: the secret it was admitted with no longer
    /// counts. Returns whether a pairing the copy had is gone.
    pub(super) fn reconcile(&mut self, id: &str, stored: Option<Pairing>) -> bool {
        let ends = match (&stored, self.connections.get(id)) {
            (None, Some(_)) => Some("pairing revoked"),
            (Some(p), Some(c)) if p.secret_sha256 != c.secret_sha256 => Some("paired again with other credentials"),
            _ => None,
        };
        if let Some(reason) = ends
            && let Some(conn) = self.connections.remove(id)
        {
            tracing::info!(node = %bounded(id, MAX_ID_CHARS), "node disconnected: {reason} through another gateway");
            conn.actor.stop(Some(reason.into()));
        }
        match stored {
            Some(p) => {
                self.pending.remove(id);
                self.pairings.insert(id.to_owned(), p);
                false
            }
            None => self.pairings.remove(id).is_some(),
        }
    }

    /// Re-reads `id`'s pairing and reconciles the copy with it.
    pub(super) async fn refresh(&mut self, id: &str) {
        match self.store.get(id).await {
            Ok(stored) => {
                if self.reconcile(id, stored) {
                    self.remember(id, "", "", "revoked");
                }
            }
            Err(e) => tracing::warn!(node = %bounded(id, MAX_ID_CHARS), "cannot re-read a changed node pairing: {e}"),
        }
    }

    /// Applies a change another gateway announced, then publishes.
    pub(super) async fn changed(&mut self, change: PairingChange) {
        match change {
            PairingChange::Node(id) => self.refresh(&id).await,
            PairingChange::Resync => match self.store.load().await {
                Ok(all) => {
                    let mut stored: std::collections::BTreeMap<String, Pairing> =
                        all.into_iter().map(|p| (p.id.clone(), p)).collect();
                    let ids: BTreeSet<String> = self.pairings.keys().chain(stored.keys()).cloned().collect();
                    for id in ids {
                        let record = stored.remove(&id);
                        if self.reconcile(&id, record) {
                            self.remember(&id, "", "", "revoked");
                        }
                    }
                }
                Err(e) => tracing::warn!("cannot re-read the node pairings after missed changes: {e}"),
            },
        }
        self.publish();
    }
}

/// The task handing the store's change announcements to the registry;
/// stopped when the registry's state is dropped (the actor ended, however).
pub(super) struct Forwarder(tokio::task::JoinHandle<()>);

impl Forwarder {
    /// Forwards `changes` to `registry` one at a time, each after the last
    /// was applied: at most one waits in the mailbox, the backlog stays in
    /// the store's bounded channel, and a backlog that overflows it becomes
    /// one resync.
    pub(super) fn start(mut changes: broadcast::Receiver<PairingChange>, registry: ActorRef<RegistryMsg>) -> Self {
        Self(tokio::spawn(async move {
            loop {
                let change = match changes.recv().await {
                    Ok(change) => change,
                    Err(RecvError::Lagged(_)) => PairingChange::Resync,
                    Err(RecvError::Closed) => return,
                };
                match registry.call(|reply| RegistryMsg::Changed(change, reply), None).await {
                    Ok(ractor::rpc::CallResult::Success(())) => {}
                    // The registry stopped (a restarted one forwards anew).
                    _ => return,
                }
            }
        }))
    }
}

impl Drop for Forwarder {
    fn drop(&mut self) {
        self.0.abort();
    }
}
