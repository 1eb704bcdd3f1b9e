//! What every host request declares: the [`HostOp`] trait, and the context
//! its handler acts in.
//!
//! A request is one type implementing `HostOp` in its family's file, so
//! everything about it — its wire name, how it is decoded, which bound
//! admits it, how the journal fingerprints it, whether a crash may run it
//! again, where it reaches, and what the host does with it — is read and
//! changed in one place. The table in `mod.rs` lists the types once and
//! derives the `HostRequest` enum and the wire numbering from them.
//!
//! Where a request reaches decides its handler's powers: an [`Inside`]
//! one gets an [`InsideCx`], which can queue work of its own; an
//! [`Outside`] one can only describe its call ([`HandleOutside`]), which
//! the gate runs — no outbound work starts any other way.

use std::collections::HashMap;
use std::future::Future;
use std::time::Instant;

use codemode_protocol::{ErrorCode, Phase};

use super::decode_cx::DecodeCx;
use super::done::Done;
use super::outbound::Outbound;
pub(crate) use super::rerun::Rerun;
use crate::cell::effects::CellEffects;
use crate::cell::mode::CellMode;
use crate::cell::pending::PendingKind;
use crate::cell::requests::host_work::{HostWork, Submit};
use crate::cell::services::CellServices;
use crate::durable::journal::fnv::{Fnv, Refs};
use crate::engine::args::Args;
use crate::engine::determinism::McpRoute;
pub(crate) use crate::engine::host::Admission;
use crate::engine::host::{Answering, RequestForm};
use crate::engine::settlement::Settlement;
use codemode_protocol::RunEnd;

/// A request that ends the cell instead of settling (a headless cell past
/// its tool budget).
#[derive(Debug)]
pub(crate) struct CellFailure {
    pub code: ErrorCode,
    pub message: String,
    pub phase: Phase,
    pub end: RunEnd,
}

/// What handling a request did: how many ordinary requests settled inline
/// (their call slots are free again), or the failure that ends the cell.
pub(crate) type Handled = Result<usize, CellFailure>;

/// One kind of host request. Implemented once per request, in its
/// family's file (tools, catalog, timers, store, results, MCP, nodes),
/// with its handler: [`HandleInside`] or [`HandleOutside`], as `Reach`
/// says.
pub(crate) trait HostOp: Sized + std::fmt::Debug {
    /// The name the prelude calls it by (`hostRequest(OP.<NAME>, …)`),
    /// also in decode errors.
    const NAME: &'static str;
    /// How a divergence message names it (never its arguments: they may
    /// hold guest data).
    const WHAT: &'static str;
    /// The bound that admits it.
    const ADMISSION: Admission = Admission::Ordinary;
    /// How the guest receives its answer: a promise, or (a timer) its id.
    const ANSWERING: Answering = Answering::Promise;
    /// Whether its rejection carries the guest's call site (`.location`).
    const CALL_SITE: bool = false;
    /// All the engine knows of it before decoding it.
    const FORM: RequestForm = RequestForm {
        name: Self::NAME,
        admission: Self::ADMISSION,
        answering: Self::ANSWERING,
        call_site: Self::CALL_SITE,
    };
    /// Where it reaches: [`Inside`] (the cell, or this runtime's own
    /// services) or [`Outside`] (a third party, or an effect a replay would
    /// repeat: through the gate). No default: a new request does not
    /// compile until it says.
    type Reach: Reach<Self>;

    /// Reads the request from the prelude's arguments. A malformed request
    /// is a guest `TypeError` naming the request and the argument.
    fn decode(args: &Args<'_, '_>, cx: &DecodeCx<'_>) -> rquickjs::Result<Self>;

    /// Feeds what the request asked for into the journal's fingerprint:
    /// what it refers to by identity (through `refs`) and its arguments.
    /// Journals outlive builds: a change here breaks every parked run.
    fn fingerprint(&self, h: &mut Fnv, refs: &Refs<'_>);

    /// Whether a crash may run it again.
    fn rerun(&self, cx: &HostCx<'_>) -> Rerun;

    /// Checks again what [`decode`](Self::decode) guarantees, for a
    /// request that an engine in a worker process decoded (and that the
    /// host so takes as untrusted input): bounds, formats, and that its
    /// parts agree. No default: a new request does not compile until it
    /// says what its decoding promised.
    fn recheck(&self, cx: &DecodeCx<'_>) -> Result<(), String>;
}

/// Where a request reaches, and so how it is handled: a marker type,
/// [`Inside`] or [`Outside`].
pub(crate) trait Reach<Op> {
    /// Which one, for the gate's table test.
    #[cfg(test)]
    const KIND: ReachKind;

    /// Acts on `op`: settles it at once, or queues its work.
    fn handle(op: Op, id: u64, cx: &mut HostCx<'_>) -> Handled;
}

/// Which side of the gate a request is on.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReachKind {
    Inside,
    Outside,
}

/// Stays in the cell or this runtime's own services (timers, the catalog,
/// the session store, reads of the configuration): handled by
/// [`HandleInside`].
pub(crate) enum Inside {}

/// Leaves the cell: handled by [`HandleOutside`], which can only describe
/// the call; the gate runs it.
pub(crate) enum Outside {}

/// The handler of a request that stays inside.
pub(crate) trait HandleInside: HostOp {
    /// Acts on the request: settles it at once, or queues its work.
    fn handle(self, id: u64, cx: &mut InsideCx<'_, '_>) -> Handled;
}

/// The handler of a request that leaves the cell.
pub(crate) trait HandleOutside: HostOp {
    /// Describes the call for the gate, or settles the request at once
    /// (`Err`: it cannot be made, e.g. its server is gone).
    fn outbound(self, id: u64, cx: &mut HostCx<'_>) -> Result<Outbound, Settlement>;
}

impl<Op: HandleInside> Reach<Op> for Inside {
    #[cfg(test)]
    const KIND: ReachKind = ReachKind::Inside;

    fn handle(op: Op, id: u64, cx: &mut HostCx<'_>) -> Handled {
        op.handle(id, &mut InsideCx(cx))
    }
}

impl<Op: HandleOutside> Reach<Op> for Outside {
    #[cfg(test)]
    const KIND: ReachKind = ReachKind::Outside;

    fn handle(op: Op, id: u64, cx: &mut HostCx<'_>) -> Handled {
        // The gate's first step, before the call is even described: a
        // restartSafe cell refuses what a replay could repeat.
        if let Rerun::Once(what) = op.rerun(cx)
            && cx.host.restart_safe()
        {
            cx.host.refuse_replay(id, &what);
            return Ok(1);
        }
        match op.outbound(id, cx) {
            Ok(outbound) => cx.pass(id, outbound),
            Err(settlement) => Ok(cx.settle_inline(settlement)),
        }
    }
}

/// What a request's handler acts on: the cell's host work and effects, the
/// shared services, and the facts of this moment.
pub(crate) struct HostCx<'a> {
    pub services: &'a CellServices,
    pub mode: &'a CellMode,
    pub host: &'a mut HostWork,
    pub effects: &'a mut CellEffects,
    /// Where the MCP servers of a replayed namespace are now (`None`: its
    /// indexes are this process's).
    pub routes: Option<&'a HashMap<usize, McpRoute>>,
    pub now: Instant,
    /// The run has a stored journal: a request that must never run twice
    /// is held until a write records it.
    pub journaled: bool,
}

impl HostCx<'_> {
    /// Whether a request of class `rerun` waits for a journal write
    /// before it starts.
    pub(crate) fn hold(&self, rerun: &Rerun) -> bool {
        self.journaled && rerun.needs_write_ahead()
    }

    /// Settles request `id` at once; one inline settlement.
    pub(crate) fn settle_inline(&mut self, settlement: Settlement) -> usize {
        self.host.settle_now(settlement);
        1
    }

    /// The gate past its first step (see [`gate`](super::gate)): the
    /// budget, the in-flight bound and write-ahead, then — when the call
    /// starts — the policy, its span and metrics. Returns how many requests
    /// settled inline, or the failure that ends the cell.
    fn pass(&mut self, id: u64, outbound: Outbound) -> Handled {
        let source = outbound.target.source;
        if super::outbound::is_call(source) {
            let telemetry = self.host.telemetry_mut();
            telemetry.call_count += 1;
            let budget = self.services.limits.headless_max_tool_calls;
            if self.mode.is_headless() && telemetry.call_count > budget {
                return Err(CellFailure {
                    code: ErrorCode::ToolBudgetExceeded,
                    message: format!(
                        "headless code mode tool budget exceeded ({budget} tool calls); make fewer calls per script."
                    ),
                    phase: Phase::Guest,
                    end: RunEnd::Failed,
                });
            }
        }
        let hold = self.hold(&outbound.rerun);
        let (kind, inline) = (outbound.kind, outbound.inline);
        let approval = self.host.take_approval(id);
        let completion = self.host.completion();
        let submit = Submit { id, kind, counted: super::outbound::is_call(source), hold, inline };
        Ok(self.host.submit(submit, |gate, pending_id| {
            let hooks = gate.hooks(id, completion);
            gate.run(outbound, approval, hooks, pending_id)
        }))
    }
}

/// What an [`Inside`] request's handler acts on: the [`HostCx`], and work
/// of its own to queue (never a call that leaves the cell: that is the
/// gate's).
pub(crate) struct InsideCx<'c, 'a>(&'c mut HostCx<'a>);

impl<'a> std::ops::Deref for InsideCx<'_, 'a> {
    type Target = HostCx<'a>;

    fn deref(&self) -> &HostCx<'a> {
        self.0
    }
}

impl<'a> std::ops::DerefMut for InsideCx<'_, 'a> {
    fn deref_mut(&mut self) -> &mut HostCx<'a> {
        self.0
    }
}

impl InsideCx<'_, '_> {
    /// Queues request `id`'s `task`, run on this thread once a slot is
    /// free; its answer comes back as a [`Done`]. Returns how many requests
    /// settled inline meanwhile.
    pub(crate) fn spawn(
        &mut self,
        id: u64,
        kind: PendingKind,
        task: impl Future<Output = Done> + Send + 'static,
    ) -> usize {
        let submit = Submit { id, kind, counted: false, hold: false, inline: false };
        self.0.host.submit(submit, |_, _| Box::pin(task))
    }
}
