//! How session values are laid out in sled: one tree (the database's
//! default), keyed by the session's length-prefixed name and then the key;
//! each value is a provenance byte and its JSON. Also how a failure to open
//! the database is told to the user.

use crate::error::StoreError;
use crate::value::StoredValue;

pub(super) fn db_key(session: &str, key: &str) -> Vec<u8> {
    let mut k = session_prefix(session);
    k.extend_from_slice(key.as_bytes());
    k
}

pub(super) fn session_prefix(session: &str) -> Vec<u8> {
    raw_prefix(session.as_bytes())
}

/// The key prefix of a session's values: its length (big-endian `u32`),
/// then its bytes.
pub(super) fn raw_prefix(session: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(session.len() + 4 + 16);
    k.extend_from_slice(&u32::try_from(session.len()).unwrap_or(u32::MAX).to_be_bytes());
    k.extend_from_slice(session);
    k
}

pub(super) fn encode(v: &StoredValue) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.json.len() + 1);
    out.push(u8::from(v.network));
    out.extend_from_slice(v.json.as_bytes());
    out
}

pub(super) fn decode(bytes: &[u8]) -> Result<StoredValue, StoreError> {
    let (flag, json) = bytes.split_first().ok_or_else(|| StoreError::Io("an empty stored record".into()))?;
    let json = String::from_utf8(json.to_vec()).map_err(|_| StoreError::Io("a stored record is not UTF-8".into()))?;
    Ok(StoredValue { json, network: *flag == 1 })
}

/// Sorts a failure to open the database at `path` by what the user can do
/// about it: wait (locked), pick another place (unwritable), or repair it.
pub(super) fn open_error(path: &str, e: sled::Error) -> StoreError {
    use std::io::ErrorKind;
    match &e {
        // sled 0.34 reports a held lock only as this `Other` I/O error
        // ("could not acquire lock on …"), with no kind of its own.
        sled::Error::Io(io)
            if io.kind() == ErrorKind::Other && io.to_string().starts_with("could not acquire lock") =>
        {
            StoreError::Locked { path: path.to_owned() }
        }
        sled::Error::Io(io)
            if matches!(
                io.kind(),
                ErrorKind::PermissionDenied
                    | ErrorKind::NotADirectory
                    | ErrorKind::AlreadyExists
                    | ErrorKind::ReadOnlyFilesystem
                    | ErrorKind::NotFound
                    | ErrorKind::StorageFull
            ) =>
        {
            StoreError::Unwritable { path: path.to_owned(), reason: io.to_string() }
        }
        _ => StoreError::Open { path: path.to_owned(), reason: e.to_string() },
    }
}

/// A sled failure as a [`StoreError::Io`].
pub(super) fn io(e: &sled::Error) -> StoreError {
    StoreError::Io(e.to_string())
}
