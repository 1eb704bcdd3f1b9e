//! `results.save/load/delete` (GA-6.5), in the cell's reply scope.

use serde_json::Value;

use crate::cell::host::BridgeMethod;
use crate::cell::{CellState, services};

impl CellState {
    pub(super) fn result_save(&mut self, id: u64, value: Value, json: String) -> usize {
        // Saving is an effect a replay would repeat (GA-6.5).
        if self.host.refuse_unless_replay_safe(id, "results.save", false) {
            return 1;
        }
        let network = self.network;
        self.spawn_results(id, BridgeMethod::ResultSave, |results, scope| {
            services::result_save(results, scope, id, value, json, network)
        })
    }

    pub(super) fn result_load(&mut self, id: u64, result_id: String) -> usize {
        self.spawn_results(id, BridgeMethod::ResultLoad, |results, scope| {
            services::result_load(results, scope, id, result_id)
        })
    }

    pub(super) fn result_delete(&mut self, id: u64, result_id: String) -> usize {
        self.spawn_results(id, BridgeMethod::ResultDelete, |results, scope| {
            services::result_delete(results, scope, id, result_id)
        })
    }

    /// Runs a results-cache request in the scope the cell's mode allows, or
    /// refuses it at once (headless and restart-safe cells have no results).
    /// Returns how many requests settled inline.
    fn spawn_results<F>(
        &mut self,
        id: u64,
        method: BridgeMethod,
        task: impl FnOnce(codemode_store::ResultsCache, codemode_store::Scope) -> F,
    ) -> usize
    where
        F: std::future::Future<Output = services::Done> + Send + 'static,
    {
        match services::results_scope(&self.mode) {
            Err(refusal) => self.settle_inline(services::refused(id, refusal)),
            Ok(scope) => {
                let task = task(self.results.clone(), scope);
                // A load reads; a save or a delete has an effect a replay
                // must not repeat.
                let replay_safe = method == BridgeMethod::ResultLoad;
                self.spawn_service(id, method, false, replay_safe, task)
            }
        }
    }
}
