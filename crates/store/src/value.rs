//! What a session holds: small JSON values with their provenance, and the
//! limits on keys, values and sessions (GA-7.2, GA-7.3). Saved results and
//! a run's store writes are the same values.

use codemode_protocol::budget::utf16_len;

use crate::error::StoreError;

/// The store's limits (GA-7.2, GA-7.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreLimits {
    /// Longest key, in UTF-16 units.
    pub max_key_units: usize,
    /// Largest value, in bytes of compact JSON.
    pub max_value_bytes: usize,
    /// Largest session: all its values together, in bytes of compact JSON.
    pub max_session_bytes: usize,
}

impl Default for StoreLimits {
    fn default() -> Self {
        Self { max_key_units: 256, max_value_bytes: 256 * 1024, max_session_bytes: 1024 * 1024 }
    }
}

/// A stored value: its JSON and whether it came from network content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredValue {
    /// Compact JSON text.
    pub json: String,
    /// The writing cell had observed network-derived content (GA-7.7).
    pub network: bool,
}

/// Checks a key (GA-7.2).
///
/// # Errors
/// [`StoreError::Key`].
pub fn validate_key(key: &str, limits: &StoreLimits) -> Result<(), StoreError> {
    let units = utf16_len(key);
    if units == 0 || units > limits.max_key_units {
        return Err(StoreError::Key(limits.max_key_units));
    }
    Ok(())
}

/// Checks a value's size (GA-7.3).
///
/// # Errors
/// [`StoreError::ValueTooLarge`].
pub fn validate_value(json: &str, limits: &StoreLimits) -> Result<(), StoreError> {
    if json.len() > limits.max_value_bytes {
        return Err(StoreError::ValueTooLarge(limits.max_value_bytes / 1024));
    }
    Ok(())
}
