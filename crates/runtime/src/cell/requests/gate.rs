//! The one gate every request that leaves the cell passes: native tools,
//! every MCP operation, node commands, `results.save`/`delete` (GA-10.3).
//!
//! A request kind declares where it reaches (`HostOp::Reach`): one that
//! reaches [`Outside`](super::op::Outside) cannot start work of its own —
//! its handler only describes the call as an [`Outbound`], and
//! [`HostCx::pass`](super::op::HostCx::pass) runs it through these steps,
//! in this order, for every kind alike:
//!
//! 1. **replay safety** — a `restartSafe` cell refuses a request a replay
//!    could repeat (and fails);
//! 2. **budget** — counted as a call; a headless cell past its tool budget
//!    fails;
//! 3. **in-flight bound and write-ahead** — queued behind the cell's
//!    `max_in_flight` slots; a request that must never run twice is held
//!    until a stored journal records it;
//! 4. **policy** — the host's `Policy` allows, denies or asks (the call
//!    then waits on its cell's decision, journaled before it is answered);
//! 5. **span and metrics** — a `host_call` span and the call metrics
//!    around the call itself.
//!
//! The policy comes after the write-ahead so that an asked call is already
//! in the journal when a person is asked: a crash then finds it pending,
//! never lost, never asked twice.

use std::sync::Arc;
use std::time::Instant;

use codemode_catalog::policy::{Decision, NestedCall, Policy};
use tokio::sync::oneshot;
use tracing::Instrument;
use tracing::field::Empty;

use super::asked::{Asked, AskedCall, Refusal, Ruling};
use super::done::{Completion, Done};
use super::outbound::{Approval, CallHooks, CallSource, GatedFuture, Landed, Outbound, Refused, Target};
use crate::cell::pending::PendingId;
use crate::telemetry::{CallOutcome, CallSeries, Metrics, UNKNOWN_TOOL};

/// How many call series a cell keeps at hand.
const KEPT_SERIES: usize = 16;

/// The policy, span and metrics part of the gate, one per cell.
pub(crate) struct Gate {
    policy: Arc<dyn Policy>,
    session: Option<String>,
    /// Whom the calls are for: what a tool's context names.
    principal: Option<String>,
    run_id: Arc<str>,
    metrics: Arc<Metrics>,
    /// The cell's span: each outbound call gets a child span.
    span: tracing::Span,
    /// Metrics series of the targets this cell called (a few; looked up by
    /// a short scan instead of the runtime-wide locked map), by source,
    /// server and tool label.
    series: Vec<(CallSource, String, String, Arc<CallSeries>)>,
}

impl Gate {
    pub(crate) fn new(
        policy: Arc<dyn Policy>,
        (session, principal, run_id): (Option<String>, Option<String>, Arc<str>),
        metrics: Arc<Metrics>,
        span: tracing::Span,
    ) -> Self {
        Self { policy, session, principal, run_id, metrics, span, series: Vec::new() }
    }

    /// The hooks of request `request`'s call, reporting through
    /// `completion`.
    pub(crate) fn hooks(&self, request: u64, completion: Completion) -> CallHooks {
        CallHooks {
            request,
            completion,
            policy: Arc::clone(&self.policy),
            session: self.session.clone(),
            principal: self.principal.clone(),
            run_id: Arc::clone(&self.run_id),
        }
    }

    /// The call as a future, past the cell's own checks: the policy decides
    /// first (a policy that never looks at calls costs nothing: no
    /// decision, no copy of the arguments); a denial settles as the
    /// request's `refuse` says and the call does not run; an *ask* reports
    /// the call to its cell through `hooks` and waits for the answer
    /// (approved: it runs; otherwise it is refused). A call approved or
    /// asked before a restart (`approval`) skips the policy. Then the call
    /// runs inside a `host_call` span, and how it ended and its latency
    /// are recorded on the span and in the call metrics.
    pub(crate) fn run(
        &mut self,
        outbound: Outbound,
        approval: Approval,
        hooks: CallHooks,
        pending_id: PendingId,
    ) -> GatedFuture {
        let Outbound { target, arguments, call, refuse, .. } = outbound;
        let source = target.source;
        let span = tracing::info_span!(
            parent: &self.span, "host_call", tool = %target.label, source = source.as_str(), server = Empty, bridge_id = Empty,
            outcome = Empty, otel.status_code = Empty, otel.status_description = Empty
        );
        if let Some(server) = &target.server {
            span.record("server", server.as_str());
        }
        span.record("bridge_id", tracing::field::display(pending_id));
        let what = target.what();
        let (decision, awaiting) = match approval {
            Approval::Policy => {
                let decision = self.policy.inspects_calls().then(|| {
                    self.policy.check(NestedCall {
                        source,
                        server: target.server.clone(),
                        tool: target.tool.clone(),
                        arguments: arguments.clone(),
                        session: self.session.clone(),
                    })
                });
                (decision, None)
            }
            Approval::Awaiting(rx) => (None, Some(rx)),
            Approval::Approved => (None, None),
        };
        let series = self.series(&target);
        let metrics = Arc::clone(&self.metrics);
        let started = Instant::now();
        let (refused_span, refused_series) = (span.clone(), Arc::clone(&series));
        let refused = move |why: Refused| {
            CallOutcome::Denied.record(&refused_span);
            refused_series.record(CallOutcome::Denied, started.elapsed());
            refuse(why)
        };
        let call_span = span.clone();
        Box::pin(
            async move {
                let mut awaiting = awaiting;
                if let Some(decision) = decision {
                    match decision.await {
                        Decision::Allow => {}
                        Decision::Deny(reason) => return refused(Refused::Policy(reason)),
                        Decision::Ask(reason) => {
                            let (answer, rx) = oneshot::channel();
                            let call = AskedCall {
                                source: source.as_str(),
                                server: target.server.clone(),
                                tool: target.tool.clone(),
                                arguments: arguments.clone(),
                                what: what.clone(),
                            };
                            (hooks.completion)(
                                hooks.request,
                                Done::Asked(Asked { call, reason, answer, task_input: None }),
                            );
                            awaiting = Some(rx);
                        }
                    }
                }
                if let Some(rx) = awaiting {
                    // A dropped sender means the cell ended: nothing awaits
                    // this call any more.
                    let refusal = match rx.await {
                        Ok(Ruling::Run) => None,
                        Ok(Ruling::Refuse(refusal)) => Some(refusal),
                        Err(_) => Some(Refusal::Denied(Some("the cell ended before anyone decided".into()))),
                    };
                    if let Some(refusal) = refusal {
                        return refused(Refused::Person(refusal));
                    }
                }
                let running = metrics.nested_call_started();
                crate::crash_points::point("call.start");
                let Landed { outcome, done } = call(arguments, hooks).await;
                crate::crash_points::point("call.settled");
                drop(running);
                series.record(outcome, started.elapsed());
                outcome.record(&call_span);
                done
            }
            .instrument(span),
        )
    }

    /// The call's metrics series. Its labels are bounded: the tool is
    /// host-known or [`UNKNOWN_TOOL`], the server is a configured MCP
    /// server's name (empty for native tools, results and nodes, whose node
    /// ids are not worth a series each).
    fn series(&mut self, target: &Target) -> Arc<CallSeries> {
        let tool = if target.known { target.label.as_str() } else { UNKNOWN_TOOL };
        let server = match target.source {
            CallSource::Mcp => target.server.as_deref().unwrap_or_default(),
            CallSource::Native | CallSource::Client | CallSource::Nodes | CallSource::Results => "",
        };
        let source = target.source;
        if let Some((.., found)) = self.series.iter().find(|(s, sv, t, _)| *s == source && sv == server && t == tool) {
            return Arc::clone(found);
        }
        let found = self.metrics.call_series(source.as_str(), server, tool);
        if self.series.len() < KEPT_SERIES {
            self.series.push((source, server.to_owned(), tool.to_owned(), Arc::clone(&found)));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use codemode_catalog::ToolSource;
    use codemode_catalog::policy::AllowAll;

    use super::*;
    use crate::cell::pending::PendingKind;
    use crate::cell::requests::Rerun;
    use crate::engine::settlement::{Fault, Settlement};
    use serde_json::Value;

    fn outbound(tool: &str, known: bool) -> Outbound {
        Outbound {
            target: Target {
                source: CallSource::Mcp,
                server: Some("files".into()),
                tool: tool.into(),
                label: tool.into(),
                known,
            },
            rerun: Rerun::Repeatable,
            kind: PendingKind::CallValue,
            arguments: Value::Null,
            call: Box::new(move |_, _| {
                Box::pin(async move {
                    let outcome = if known { CallOutcome::Ok } else { CallOutcome::Error };
                    Landed { outcome, done: Done::Settle(Settlement::value(1, Value::Null)) }
                })
            }),
            refuse: Box::new(|_| Done::Settle(Settlement::fault(1, Fault::error("no", "policy_denied")))),
            inline: false,
        }
    }

    fn hooks() -> CallHooks {
        CallHooks {
            request: 1,
            completion: Arc::new(|_, _| {}),
            policy: Arc::new(AllowAll),
            session: None,
            principal: None,
            run_id: Arc::from("run_test"),
        }
    }

    /// MCP tool names reach the host from the cell's request; a name its
    /// server never listed must not become a label (the guest's namespace
    /// only offers listed tools, so this is the host's own guard).
    #[tokio::test]
    async fn unknown_mcp_tool_names_add_no_series() {
        let metrics = Arc::new(Metrics::default());
        let mut gate = Gate::new(
            Arc::new(AllowAll),
            (None, None, Arc::from("run_test")),
            Arc::clone(&metrics),
            tracing::Span::none(),
        );
        let mut counters = crate::cell::pending::PendingCounters::default();
        for i in 0..1000 {
            let id = counters.next(PendingKind::CallValue);
            gate.run(outbound(&format!("junk{i}"), false), Approval::Policy, hooks(), id).await;
        }
        let id = counters.next(PendingKind::CallValue);
        gate.run(outbound("read", true), Approval::Policy, hooks(), id).await;
        let s = metrics.snapshot();
        let keys: Vec<(&str, &str, &str)> =
            s.nested_calls.iter().map(|c| (c.source.as_str(), c.server.as_str(), c.tool.as_str())).collect();
        assert_eq!(keys, [("mcp", "files", UNKNOWN_TOOL), ("mcp", "files", "read")]);
        assert_eq!(s.nested_calls[0].outcomes["error"], 1000);
    }

    #[test]
    fn the_hosts_own_tools_are_labelled_native_ga_8_4() {
        for (tool, call) in [(ToolSource::Native, CallSource::Native), (ToolSource::Client, CallSource::Client)] {
            assert_eq!(CallSource::from(tool), call);
            assert_eq!(call.as_str(), tool.guest_name(), "the policy, the metrics and the guest see one name");
        }
        assert_eq!(CallSource::Native.as_str(), "native");
        let names: Vec<&str> = CallSource::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, codemode_catalog::policy::CALL_SOURCES, "every source is published by name");
    }
}
