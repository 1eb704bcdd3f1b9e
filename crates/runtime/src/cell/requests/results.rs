//! `results.save/load/delete` (GA-6.5), in the cell's reply scope. A save
//! or a delete changes what a replay would find: it passes the gate (its
//! policy `source` is `results`); a load stays inside.

use codemode_store::Scope;
use serde_json::{Value, json};

use super::decode_cx::DecodeCx;
use super::done::Done;
use super::op::{HandleInside, HandleOutside, Handled, HostCx, HostOp, Inside, InsideCx, Outside, Rerun};
use super::outbound::{CallFuture, CallSource, Landed, Outbound, Refused, Target};
use super::session;
use crate::cell::pending::PendingKind;
use crate::durable::journal::fnv::{Fnv, Refs};
use crate::engine::args::Args;
use crate::engine::settlement::{Fault, Settlement};
use crate::telemetry::CallOutcome;

/// `results.save(value)`: the value and its JSON text.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct ResultSave {
    pub value: Value,
    pub json: String,
}

impl HostOp for ResultSave {
    const NAME: &'static str = "resultSave";
    const WHAT: &'static str = "results.save";
    type Reach = Outside;

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
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

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        // The saved text is the value's: what is kept is what is counted.
        // As decoding wrote it (`Value`'s own `==` with a string would
        // compare it as a JSON string instead).
        let text = serde_json::to_string(&self.value).map_err(|e| e.to_string())?;
        if self.json != text {
            return Err("a saved value whose JSON text is not the value's".into());
        }
        Ok(())
    }
}

impl HandleOutside for ResultSave {
    fn outbound(self, id: u64, cx: &mut HostCx<'_>) -> Result<Outbound, Settlement> {
        let scope = scope(id, cx)?;
        let (results, network, rerun) = (cx.services.results.clone(), cx.effects.network, self.rerun(cx));
        let Self { value, json } = self;
        let call = Box::new(move |value: Value, _| {
            Box::pin(async move { landed(session::result_save(results, scope, id, value, json, network).await) })
                as CallFuture
        });
        Ok(results_call(id, "save", PendingKind::ResultSave, rerun, value, call))
    }
}

/// `results.load(id)`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct ResultLoad {
    pub result_id: String,
}

impl HostOp for ResultLoad {
    const NAME: &'static str = "resultLoad";
    const WHAT: &'static str = "results.load";
    type Reach = Inside;

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        Ok(Self { result_id: a.result_id(0)? })
    }

    fn fingerprint(&self, h: &mut Fnv, _: &Refs<'_>) {
        h.bytes(b"resultLoad");
        h.field(self.result_id.as_bytes());
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        Rerun::Repeatable
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        check_result_id(&self.result_id)
    }
}

impl HandleInside for ResultLoad {
    fn handle(self, id: u64, cx: &mut InsideCx<'_, '_>) -> Handled {
        let scope = match scope(id, cx) {
            Ok(scope) => scope,
            Err(refused) => return Ok(cx.settle_inline(refused)),
        };
        let (results, result_id) = (cx.services.results.clone(), self.result_id);
        Ok(cx.spawn(id, PendingKind::ResultLoad, session::result_load(results, scope, id, result_id)))
    }
}

/// `results.delete(id)`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct ResultDelete {
    pub result_id: String,
}

impl HostOp for ResultDelete {
    const NAME: &'static str = "resultDelete";
    const WHAT: &'static str = "results.delete";
    type Reach = Outside;

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
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

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        check_result_id(&self.result_id)
    }
}

impl HandleOutside for ResultDelete {
    fn outbound(self, id: u64, cx: &mut HostCx<'_>) -> Result<Outbound, Settlement> {
        let scope = scope(id, cx)?;
        let (results, rerun) = (cx.services.results.clone(), self.rerun(cx));
        let call = Box::new(move |arguments: Value, _| {
            Box::pin(async move {
                let result_id = arguments.get("id").and_then(Value::as_str).unwrap_or_default().to_owned();
                landed(session::result_delete(results, scope, id, result_id).await)
            }) as CallFuture
        });
        let arguments = json!({"id": self.result_id});
        Ok(results_call(id, "delete", PendingKind::ResultDelete, rerun, arguments, call))
    }
}

/// The reply scope the cell's mode allows, or its refusal: a headless cell
/// has no results (a `restartSafe` one is refused by the gate, as a
/// request a replay could repeat, or here for a load).
fn scope(id: u64, cx: &HostCx<'_>) -> Result<Scope, Settlement> {
    session::results_scope(cx.mode).map_err(|refusal| session::refused(id, refusal))
}

/// A results request as the gate sees it.
fn results_call(
    id: u64,
    op: &'static str,
    kind: PendingKind,
    rerun: Rerun,
    arguments: Value,
    call: super::outbound::Call,
) -> Outbound {
    let target =
        Target { source: CallSource::Results, server: None, tool: op.to_owned(), label: op.to_owned(), known: true };
    let what = target.what();
    let refuse = Box::new(move |why: Refused| {
        let fault = match why {
            Refused::Policy(reason) => Fault::error(format!("{what} was denied by policy: {reason}"), "policy_denied"),
            Refused::Person(refusal) => Fault::error(refusal.message(&what), refusal.code()),
        };
        Done::Settle(Settlement::fault(id, fault))
    });
    Outbound { target, rerun, kind, arguments, call, refuse, inline: false }
}

/// How a results request ended, for its span.
fn landed(done: Done) -> Landed {
    let ok = match &done {
        Done::Settle(s) | Done::Loaded { settlement: s, .. } => s.is_ok(),
        _ => true,
    };
    Landed { outcome: if ok { CallOutcome::Ok } else { CallOutcome::Error }, done }
}

/// What decoding admits as a results id: a string that is not blank.
fn check_result_id(id: &str) -> Result<(), String> {
    if id.trim().is_empty() {
        return Err("a blank results id".into());
    }
    Ok(())
}
