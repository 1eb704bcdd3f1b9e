//! `store`/`load` (GA-7): checked against the session, buffered in the
//! cell until it completes.

use codemode_store::{StoreLimits, StoredValue};
use rquickjs::Exception;

use super::decode_cx::DecodeCx;
use super::op::{HandleInside, Handled, HostCx, HostOp, Inside, InsideCx, Rerun};
use super::session;
use crate::cell::pending::PendingKind;
use crate::durable::journal::fnv::{Fnv, Refs};
use crate::engine::args::Args;

/// `store(key, value)`: the value's JSON text (what the store keeps,
/// already checked against the value bound); `None` deletes.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Store {
    pub key: String,
    pub json: Option<String>,
}

impl HostOp for Store {
    type Reach = Inside;
    const NAME: &'static str = "store";
    const WHAT: &'static str = "store";

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        let key = a.store_key(0)?;
        // No value deletes; a value is the prelude's projection.
        let json = match a.get(1) {
            Some(_) => Some(a.projected(1, "the stored value")?.to_string()),
            None => None,
        };
        if let Some(json) = &json
            && let Err(e) = codemode_store::validate_value(json, &StoreLimits::default())
        {
            // GA-7.3: an oversized value is a `RangeError`.
            return Err(Exception::throw_range(a.ctx, &e.to_string()));
        }
        Ok(Self { key, json })
    }

    fn fingerprint(&self, h: &mut Fnv, _: &Refs<'_>) {
        h.bytes(b"store");
        h.field(self.key.as_bytes());
        h.opt(self.json.as_deref());
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        // Buffered in the cell; the buffer is in the journal's snapshot.
        Rerun::Repeatable
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        let limits = StoreLimits::default();
        codemode_store::validate_key(&self.key, &limits).map_err(|e| e.to_string())?;
        if let Some(json) = &self.json {
            codemode_store::validate_value(json, &limits).map_err(|e| e.to_string())?;
            serde_json::from_str::<serde::de::IgnoredAny>(json)
                .map_err(|e| format!("a stored value that is not JSON: {e}"))?;
        }
        Ok(())
    }
}

impl HandleInside for Store {
    fn handle(self, id: u64, cx: &mut InsideCx<'_, '_>) -> Handled {
        let session = match session::store_session(cx.mode) {
            Err(refusal) => return Ok(cx.settle_inline(session::refused(id, refusal))),
            Ok(session) => session.to_owned(),
        };
        let value = self.json.map(|json| StoredValue { json, network: cx.effects.network });
        let buffered: Vec<(String, Option<usize>)> =
            cx.effects.writes.iter().map(|(k, v)| (k.clone(), v.as_ref().map(|v| v.json.len()))).collect();
        let task = session::store(cx.services.store.clone(), session, buffered, id, self.key, value);
        Ok(cx.spawn(id, PendingKind::Store, task))
    }
}

/// `load(key)`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Load {
    pub key: String,
}

impl HostOp for Load {
    type Reach = Inside;
    const NAME: &'static str = "load";
    const WHAT: &'static str = "load";

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        Ok(Self { key: a.store_key(0)? })
    }

    fn fingerprint(&self, h: &mut Fnv, _: &Refs<'_>) {
        h.bytes(b"load");
        h.field(self.key.as_bytes());
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        Rerun::Repeatable
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        codemode_store::validate_key(&self.key, &StoreLimits::default()).map_err(|e| e.to_string())
    }
}

impl HandleInside for Load {
    fn handle(self, id: u64, cx: &mut InsideCx<'_, '_>) -> Handled {
        let session = match session::store_session(cx.mode) {
            Err(refusal) => return Ok(cx.settle_inline(session::refused(id, refusal))),
            Ok(session) => session.to_owned(),
        };
        if let Some((settlement, network)) = session::load_buffered(&cx.effects.writes, id, &self.key) {
            cx.effects.network |= network;
            return Ok(cx.settle_inline(settlement));
        }
        let task = session::load(cx.services.store.clone(), session, id, self.key);
        Ok(cx.spawn(id, PendingKind::Load, task))
    }
}
