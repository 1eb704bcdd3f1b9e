//! `results.save/load/delete` (GA-6.5), in the cell's reply scope.

use serde_json::Value;

use super::args::Args;
use super::done::Done;
use super::op::{Handled, HostCx, HostOp, Rerun};
use super::session;
use crate::cell::pending::PendingKind;
use crate::durable::journal::fnv::{Fnv, Refs};

/// `results.save(value)`: the value and its JSON text.
#[derive(Debug)]
pub(crate) struct ResultSave {
    pub value: Value,
    pub json: String,
}

impl HostOp for ResultSave {
    const NAME: &'static str = "resultSave";
    const WHAT: &'static str = "results.save";

    fn decode(a: &Args<'_, '_>) -> rquickjs::Result<Self> {
        let value = a.projected(0, "the saved value")?;
        let json = value.to_string();
        Ok(Self { value, json })
    }

    fn fingerprint(&self, h: &mut Fnv, _: &Refs<'_>) {
        h.bytes(b"resultSave");
        h.field(self.json.as_bytes());
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        Rerun::Once("results.save".to_owned())
    }

    fn handle(self, id: u64, cx: &mut HostCx<'_>) -> Handled {
        // Saving is an effect a replay would repeat (GA-6.5).
        if cx.host.refuse_unless_replay_safe(id, "results.save", false) {
            return Ok(1);
        }
        let network = cx.effects.network;
        let hold = cx.hold(&self.rerun(cx));
        let Self { value, json } = self;
        Ok(spawn_results(id, cx, PendingKind::ResultSave, hold, |results, scope| {
            session::result_save(results, scope, id, value, json, network)
        }))
    }
}

/// `results.load(id)`.
#[derive(Debug)]
pub(crate) struct ResultLoad {
    pub result_id: String,
}

impl HostOp for ResultLoad {
    const NAME: &'static str = "resultLoad";
    const WHAT: &'static str = "results.load";

    fn decode(a: &Args<'_, '_>) -> rquickjs::Result<Self> {
        Ok(Self { result_id: a.result_id(0)? })
    }

    fn fingerprint(&self, h: &mut Fnv, _: &Refs<'_>) {
        h.bytes(b"resultLoad");
        h.field(self.result_id.as_bytes());
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        Rerun::Repeatable
    }

    fn handle(self, id: u64, cx: &mut HostCx<'_>) -> Handled {
        let result_id = self.result_id;
        Ok(spawn_results(id, cx, PendingKind::ResultLoad, false, |results, scope| {
            session::result_load(results, scope, id, result_id)
        }))
    }
}

/// `results.delete(id)`.
#[derive(Debug)]
pub(crate) struct ResultDelete {
    pub result_id: String,
}

impl HostOp for ResultDelete {
    const NAME: &'static str = "resultDelete";
    const WHAT: &'static str = "results.delete";

    fn decode(a: &Args<'_, '_>) -> rquickjs::Result<Self> {
        Ok(Self { result_id: a.result_id(0)? })
    }

    fn fingerprint(&self, h: &mut Fnv, _: &Refs<'_>) {
        h.bytes(b"resultDelete");
        h.field(self.result_id.as_bytes());
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        // A second delete would answer "not found" for a delete that worked.
        Rerun::Once("results.delete".to_owned())
    }

    fn handle(self, id: u64, cx: &mut HostCx<'_>) -> Handled {
        let hold = cx.hold(&self.rerun(cx));
        let result_id = self.result_id;
        Ok(spawn_results(id, cx, PendingKind::ResultDelete, hold, |results, scope| {
            session::result_delete(results, scope, id, result_id)
        }))
    }
}

/// Runs a results-cache request in the scope the cell's mode allows, or
/// refuses it at once (headless and restart-safe cells have no results).
/// Returns how many requests settled inline.
fn spawn_results<F>(
    id: u64,
    cx: &mut HostCx<'_>,
    kind: PendingKind,
    hold: bool,
    task: impl FnOnce(codemode_store::ResultsCache, codemode_store::Scope) -> F,
) -> usize
where
    F: std::future::Future<Output = Done> + Send + 'static,
{
    match session::results_scope(cx.mode) {
        Err(refusal) => cx.settle_inline(session::refused(id, refusal)),
        Ok(scope) => {
            let task = task(cx.services.results.clone(), scope);
            cx.spawn(id, kind, false, hold, task)
        }
    }
}
