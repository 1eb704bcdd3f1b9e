//! `store`/`load` (GA-7): checked against the session, buffered in the
//! cell until it completes.

use codemode_store::StoredValue;

use crate::cell::host::BridgeMethod;
use crate::cell::{CellState, services};

impl CellState {
    pub(super) fn store(&mut self, id: u64, key: String, json: Option<String>) -> usize {
        let session = match services::store_session(&self.mode) {
            Err(refusal) => return self.settle_inline(services::refused(id, refusal)),
            Ok(session) => session.to_owned(),
        };
        let value = json.map(|json| StoredValue { json, network: self.network });
        let buffered: Vec<(String, Option<usize>)> =
            self.writes.iter().map(|(k, v)| (k.clone(), v.as_ref().map(|v| v.json.len()))).collect();
        let task = services::store(self.store.clone(), session, buffered, id, key, value);
        self.spawn_service(id, BridgeMethod::Store, false, true, task)
    }

    pub(super) fn load(&mut self, id: u64, key: String) -> usize {
        let session = match services::store_session(&self.mode) {
            Err(refusal) => return self.settle_inline(services::refused(id, refusal)),
            Ok(session) => session.to_owned(),
        };
        if let Some((settlement, network)) = services::load_buffered(&self.writes, id, &key) {
            self.network |= network;
            return self.settle_inline(settlement);
        }
        let task = services::load(self.store.clone(), session, id, key);
        self.spawn_service(id, BridgeMethod::Load, false, true, task)
    }
}
