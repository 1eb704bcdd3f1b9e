//! Settlements and store writes as the journal's snapshot keeps them.

use codemode_store::StoredValue;
use serde::Serialize;
use serde_json::Value;

use super::model::JournalError;
use super::model::WriteBuffer;
use crate::engine::settlement::{Answer, ErrorName, Fault, Settlement};

/// A settlement as the JSON value a journal keeps (the snapshot's
/// undelivered ones).
///
/// # Errors
/// The settlement's encoding did not parse back (a bug in the encoder):
/// the caller stops journaling the run rather than keep a wrong value.
pub(crate) fn settlement_value(s: &Settlement) -> Result<Value, JournalError> {
    let mut out = Vec::new();
    write_settlement(&mut out, s);
    serde_json::from_slice(&out).map_err(|e| JournalError::Unencodable(format!("settlement {}: {e}", s.id)))
}

/// A settlement from its JSON value.
pub(crate) fn read_settlement(v: Value) -> Result<Settlement, JournalError> {
    let Value::Array(mut parts) = v else { return Err(JournalError::Damaged("a settlement is not an array".into())) };
    let bad = || JournalError::Damaged("a malformed settlement".to_owned());
    let id = parts.first().and_then(Value::as_u64).ok_or_else(bad)?;
    let kind = parts.get(1).and_then(Value::as_u64).ok_or_else(bad)?;
    let answer = match kind {
        0 if parts.len() == 3 => Answer::Value(parts.swap_remove(2)),
        1 if parts.len() == 3 => Answer::Text(parts[2].as_str().ok_or_else(bad)?.to_owned()),
        2 if parts.len() == 5 => {
            let name = match parts[2].as_str() {
                Some("TypeError") => ErrorName::TypeError,
                Some("RangeError") => ErrorName::RangeError,
                Some("Error") => ErrorName::Error,
                _ => return Err(bad()),
            };
            let text = |i: usize| parts[i].as_str().map(str::to_owned).ok_or_else(bad);
            Answer::Fault(Fault { name, message: text(3)?, code: text(4)? })
        }
        _ => return Err(bad()),
    };
    Ok(Settlement { id, answer })
}

/// The cell's buffer from a snapshot's writes.
pub(crate) fn buffer_of(writes: Vec<(String, Option<(String, bool)>)>) -> WriteBuffer {
    writes.into_iter().map(|(k, v)| (k, v.map(|(json, network)| StoredValue { json, network }))).collect()
}

/// A settlement as `[id, 0, value]`, `[id, 1, "json text"]` or
/// `[id, 2, name, message, code]` (the same in both formats).
pub(super) fn write_settlement(out: &mut Vec<u8>, s: &Settlement) {
    fn to<T: Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
        // Writing JSON into a Vec cannot fail for these types (string keys
        // only); a failure would leave a malformed step that decoding
        // reports, never a silent wrong value.
        if let Err(e) = serde_json::to_writer(&mut *out, v) {
            tracing::error!(error = %e, "journal step did not encode");
        }
    }
    out.push(b'[');
    out.extend_from_slice(s.id.to_string().as_bytes());
    match &s.answer {
        Answer::Value(value) => {
            out.extend_from_slice(b",0,");
            to(out, value);
        }
        Answer::Text(text) => {
            out.extend_from_slice(b",1,");
            to(out, text);
        }
        Answer::Fault(fault) => {
            out.extend_from_slice(b",2,");
            to(out, fault.name.as_str());
            out.push(b',');
            to(out, &fault.message);
            out.push(b',');
            to(out, &fault.code);
        }
    }
    out.push(b']');
}
