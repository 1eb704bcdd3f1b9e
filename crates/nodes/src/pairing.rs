//! Pairings: which nodes may connect, kept by a [`PairingStore`] so they
//! survive gateway restarts, plus the one-time pairing codes and issued
//! secrets.
//!
//! Only a SHA-256 of a node's secret is stored; the node keeps the secret.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

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

/// Where pairings persist, so they survive gateway restarts.
///
/// The registry reads every pairing once at start and then writes through:
/// each call is made from the registry actor, one at a time, and must be
/// durable when it returns. `codemode_store::SledPairings` keeps them in
/// the session store's database; [`MemoryPairings`] keeps none.
pub trait PairingStore: Send + Sync + 'static {
    /// Every stored pairing. A record that cannot be read should be
    /// skipped (with a warning) rather than refuse every node.
    ///
    /// # Errors
    /// The table cannot be read.
    fn load(&self) -> Result<Vec<Pairing>, PairingStoreError>;

    /// Writes `pairing` (keyed by its id) durably.
    ///
    /// # Errors
    /// The write or its flush failed.
    fn save(&self, pairing: &Pairing) -> Result<(), PairingStoreError>;

    /// Forgets `id` durably.
    ///
    /// # Errors
    /// The removal or its flush failed.
    fn remove(&self, id: &str) -> Result<(), PairingStoreError>;
}

/// Pairings kept in the registry's memory only (lost when the process
/// ends): nothing is persisted.
#[derive(Clone, Copy, Debug, Default)]
pub struct MemoryPairings;

impl PairingStore for MemoryPairings {
    fn load(&self) -> Result<Vec<Pairing>, PairingStoreError> {
        Ok(Vec::new())
    }

    fn save(&self, _: &Pairing) -> Result<(), PairingStoreError> {
        Ok(())
    }

    fn remove(&self, _: &str) -> Result<(), PairingStoreError> {
        Ok(())
    }
}

/// Milliseconds since the epoch.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// SHA-256 of `text`, hex.
pub(crate) fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    // An OS without randomness cannot pair safely; all-zero bytes would
    // make guessable codes, so fall back to the clock mixed through SHA-256.
    if getrandom::fill(&mut bytes).is_err() {
        let digest = Sha256::digest(format!("{:?}{}", SystemTime::now(), std::process::id()).as_bytes());
        for (b, d) in bytes.iter_mut().zip(digest.iter().cycle()) {
            *b = *d;
        }
    }
    bytes
}

/// A new node secret: 32 random bytes, hex.
pub(crate) fn new_secret() -> String {
    random_bytes::<32>().iter().map(|b| format!("{b:02x}")).collect()
}

/// Letters and digits that cannot be confused when read aloud or typed.
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// A one-time pairing code such as `K7QM-2XRD` (40 bits).
pub(crate) fn new_code() -> String {
    let bytes = random_bytes::<8>();
    let chars: String = bytes.iter().map(|b| CODE_ALPHABET[usize::from(*b) % CODE_ALPHABET.len()] as char).collect();
    format!("{}-{}", &chars[..4], &chars[4..])
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
        let code = new_code();
        assert_eq!(code.len(), 9);
        assert_eq!(&code[4..5], "-");
        assert!(code.chars().filter(|c| *c != '-').all(|c| CODE_ALPHABET.contains(&(c as u8))));
        assert_eq!(normalise_code(&code.to_lowercase().replace('-', " ")), code.replace('-', ""));
    }
}
