//! Pairings: which nodes may connect, kept by a [`PairingStore`] so they
//! survive gateway restarts (and are shared by every gateway on a shared
//! store), plus the one-time pairing codes and issued secrets.
//!
//! Only a SHA-256 of a node's secret is stored; the node keeps the secret.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use codemode_protocol::ids::{NoRandomness, hex_into, random_bytes, unguessable};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// One paired node as the gateway remembers it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pairing {
    /// The node's id.
    pub id: String,
    /// Its display name when it last connected.
    pub name: String,
    /// Its platform when it last connected.
    pub platform: String,
    /// The commands it advertised when it last connected.
    pub commands: Vec<String>,
    /// SHA-256 (hex) of the secret issued at pairing.
    pub secret_sha256: String,
    /// When it paired (ms since the epoch).
    pub paired_at_ms: u64,
    /// When it was last connected (ms since the epoch).
    pub last_seen_ms: u64,
}

/// A pairing table that could not be read or written, with the backend's
/// own error as its source.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct PairingStoreError(Box<dyn std::error::Error + Send + Sync>);

impl PairingStoreError {
    /// Wraps the backend's error.
    pub fn new(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self(error.into())
    }
}

/// What a [`PairingStore`] call returns: every backend may do I/O (a
/// database round trip, a flush), so each call is a future the registry
/// awaits without blocking its thread.
pub type PairingFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, PairingStoreError>> + Send + 'a>>;

/// A change someone else made to a shared pairing table (another process
/// on the same database), announced by [`PairingStore::changes`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingChange {
    /// The pairing of this node id was saved, updated or removed: re-read
    /// it.
    Node(String),
    /// Changes may have been missed (the announcements were interrupted):
    /// re-read every pairing.
    Resync,
}

/// Where pairings persist, so they survive gateway restarts — and, for a
/// shared backend, are the same for every gateway process on it.
///
/// The store is the authority on who is paired: the registry keeps a copy
/// for `nodes.list()`, but decides every node presenting a secret on the
/// record [`get`](Self::get) returns then, so a pairing made or removed
/// through another handle counts at once. Each write must be durable when
/// its future resolves. `codemode_store::SledPairings` keeps them in the
/// session store's sled database, `codemode_store::PgPairings` in
/// PostgreSQL; [`MemoryPairings`] in memory only.
///
/// Cancel safety: a dropped write may still have been applied.
pub trait PairingStore: Send + Sync + 'static {
    /// Every stored pairing. A record that cannot be read should be
    /// skipped (with a warning) rather than refuse every node.
    ///
    /// # Errors
    /// The table cannot be read.
    fn load(&self) -> PairingFuture<'_, Vec<Pairing>>;

    /// The pairing of node `id`, if there is one.
    ///
    /// # Errors
    /// The table cannot be read (an unreadable record is an error here:
    /// the caller is deciding whether a node may connect).
    fn get(&self, id: &str) -> PairingFuture<'_, Option<Pairing>>;

    /// Writes `pairing` (keyed by its id), replacing any pairing of that
    /// id: a node paired anew.
    ///
    /// # Errors
    /// The write or its flush failed.
    fn save(&self, pairing: &Pairing) -> PairingFuture<'_, ()>;

    /// Updates the stored pairing of `pairing.id` with `pairing`'s name,
    /// platform, commands and last-seen time — only if it is still paired
    /// with the same secret (`secret_sha256`); its pairing time stays.
    /// Returns whether it was: `false` means it was removed or paired
    /// again meanwhile, and nothing was written.
    ///
    /// # Errors
    /// The write or its flush failed.
    fn update(&self, pairing: &Pairing) -> PairingFuture<'_, bool>;

    /// Forgets `id`; returns whether it was paired.
    ///
    /// # Errors
    /// The removal or its flush failed.
    fn remove(&self, id: &str) -> PairingFuture<'_, bool>;

    /// Announcements of the changes other handles make to the same table
    /// (never this handle's own), for a store several processes share;
    /// `None` when nothing else writes it. Each call subscribes anew, from
    /// now on.
    fn changes(&self) -> Option<tokio::sync::broadcast::Receiver<PairingChange>> {
        None
    }
}

/// Pairings kept in memory only, lost when the process ends. Clones share
/// the same table.
#[derive(Clone, Debug, Default)]
pub struct MemoryPairings {
    table: Arc<Mutex<BTreeMap<String, Pairing>>>,
}

impl MemoryPairings {
    fn table(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Pairing>> {
        self.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl PairingStore for MemoryPairings {
    fn load(&self) -> PairingFuture<'_, Vec<Pairing>> {
        let all = self.table().values().cloned().collect();
        Box::pin(async move { Ok(all) })
    }

    fn get(&self, id: &str) -> PairingFuture<'_, Option<Pairing>> {
        let found = self.table().get(id).cloned();
        Box::pin(async move { Ok(found) })
    }

    fn save(&self, pairing: &Pairing) -> PairingFuture<'_, ()> {
        self.table().insert(pairing.id.clone(), pairing.clone());
        Box::pin(async { Ok(()) })
    }

    fn update(&self, pairing: &Pairing) -> PairingFuture<'_, bool> {
        let updated = match self.table().get_mut(&pairing.id) {
            Some(stored) if stored.secret_sha256 == pairing.secret_sha256 => {
                *stored = Pairing { paired_at_ms: stored.paired_at_ms, ..pairing.clone() };
                true
            }
            _ => false,
        };
        Box::pin(async move { Ok(updated) })
    }

    fn remove(&self, id: &str) -> PairingFuture<'_, bool> {
        let removed = self.table().remove(id).is_some();
        Box::pin(async move { Ok(removed) })
    }
}

/// Milliseconds since the epoch.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// SHA-256 of `text`, hex.
pub(crate) fn sha256_hex(text: &str) -> String {
    hex_into(String::new(), &Sha256::digest(text.as_bytes()))
}

/// A new node secret: 32 random bytes, hex.
///
/// # Errors
/// [`NoRandomness`]: an OS without randomness cannot pair safely, and
/// nothing predictable stands in for it.
pub(crate) fn new_secret() -> Result<String, NoRandomness> {
    unguessable::<32>("")
}

/// Letters and digits that cannot be confused when read aloud or typed.
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// A one-time pairing code such as `K7QM-2XRD` (40 bits).
///
/// # Errors
/// [`NoRandomness`], as [`new_secret`].
pub(crate) fn new_code() -> Result<String, NoRandomness> {
    let bytes = random_bytes::<8>()?;
    let chars: String =
        bytes.iter().map(|b| char::from(CODE_ALPHABET[usize::from(*b) % CODE_ALPHABET.len()])).collect();
    Ok(format!("{}-{}", &chars[..4], &chars[4..]))
}

/// Normalises a typed code: case and separators do not matter.
pub(crate) fn normalise_code(code: &str) -> String {
    code.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_uppercase()).collect()
}

/// How long a pairing code stays valid.
pub const CODE_LIFETIME: Duration = Duration::from_secs(600);

/// Compares secrets in constant time.
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Compares a guess with the real text through their SHA-256 digests, in
/// constant time: neither the time taken nor the guess's length says how
/// close it was.
pub(crate) fn same_hashed(real: &str, guess: &str) -> bool {
    same(&sha256_hex(real), &sha256_hex(guess))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_two_groups_of_four_unambiguous_characters_and_typing_is_forgiving() {
        let code = new_code().unwrap();
        assert_eq!(code.len(), 9);
        assert_eq!(&code[4..5], "-");
        assert!(code.chars().filter(|c| *c != '-').all(|c| CODE_ALPHABET.contains(&(c as u8))));
        assert_eq!(normalise_code(&code.to_lowercase().replace('-', " ")), code.replace('-', ""));
    }
}
