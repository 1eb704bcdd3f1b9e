//! A completed cell's last steps: delivering its value within the output
//! budget, keeping an oversized one by reference (GA-6.6), committing its
//! store writes (GA-7.6), then reporting.

use std::time::Instant;

use codemode_bridge::{CellResult, ErrorCode, Output, Phase};
use ractor::RpcReplyPort;
use serde_json::Value;

use super::{CellMode, CellMsg, CellState, Flow, output, services};
use crate::runs::EndState;

/// A returned cell waiting for the host requests it did not await.
pub(super) struct Draining {
    value: Value,
    warnings: Vec<String>,
}

impl CellState {
    /// The top-level promise resolved with `value`. Host requests the guest
    /// started but did not await (`store('k', 1); return 1`) still run to
    /// the end within the window — a store issued before the return commits
    /// with the cell — and then the cell completes. No guest code runs
    /// meanwhile.
    pub(super) fn returned(&mut self, value: Value) -> Flow {
        // Requests made in the step that returned are not host work yet.
        if let Some(flow) = self.take_submissions() {
            return flow;
        }
        self.draining = Some(Draining { value, warnings: Vec::new() });
        let deadline = self.window.as_ref().map_or_else(Instant::now, |w| w.deadline);
        self.drain(deadline)
    }

    /// Completes a returned cell once its requests are done, or at the
    /// window's deadline with a warning naming those still running.
    pub(super) fn drain(&mut self, deadline: Instant) -> Flow {
        let Some(draining) = self.draining.as_mut() else { return Flow::Live };
        // No guest code awaits these results; a failure must still be seen.
        for settlement in std::mem::take(&mut self.host.ready) {
            if let super::requests::reply::Reply::Fault(fault) = settlement.reply {
                let message = fault.message;
                draining
                    .warnings
                    .push(format!("A host request the cell did not await failed after it returned: {message}"));
            }
        }
        if self.host.has_calls() && Instant::now() < deadline {
            let me = self.myself.clone();
            self.schedule_wake(&me, deadline);
            return Flow::Live;
        }
        let Some(Draining { value, mut warnings }) = self.draining.take() else { return Flow::Live };
        let pending: Vec<String> = self
            .host
            .pending_calls()
            .into_iter()
            .filter(|c| c.method != "sleep" && c.method != "yield")
            .map(|c| c.id)
            .collect();
        if !pending.is_empty() {
            warnings.push(format!(
                "The cell returned while {} host request(s) it did not await were still running at the end of \
                 this call's budget ({}); they were cancelled and their results are lost. Await every tool call \
                 and store() before returning.",
                pending.len(),
                pending.join(", ")
            ));
        }
        self.complete(value, warnings)
    }

    /// The top-level promise resolved: deliver the value, keeping an
    /// oversized object or array by reference (GA-6.6), and commit the
    /// store writes (GA-7.6) before reporting `completed`.
    pub(super) fn complete(&mut self, value: Value, warnings: Vec<String>) -> Flow {
        // Compact JSON of the value: what the output budget charges and a
        // reference keeps.
        let json = value.to_string();
        let entries = self.take_entries();
        let delivered = self.output.deliver_value(entries, &json, &value);
        let structured = value.is_object() || value.is_array();
        let wants_reference = structured && !matches!(delivered, Ok((_, _, false)));
        let (reference, not_retained) = match services::results_scope(&self.mode) {
            Ok(scope) if wants_reference => (Some((scope, value, json, self.network)), None),
            Err(refusal) if wants_reference => (None, Some(format!("Not retained: {refusal}"))),
            _ => (None, None),
        };
        let commit_bytes: usize = self.writes.values().flatten().map(|v| v.json.len()).sum();
        let commit = match (&self.mode, self.writes.is_empty()) {
            (CellMode::Interactive { session, restart_safe: false, .. }, false) => {
                Some((session.clone(), std::mem::take(&mut self.writes).into_iter().collect()))
            }
            _ => None,
        };
        if reference.is_none() && commit.is_none() {
            return match delivered {
                Ok(..) | Err(_) => {
                    let result = self.completed_result(delivered, not_retained.map(Err), warnings);
                    let end = if matches!(result, CellResult::Completed { .. }) {
                        EndState::Completed
                    } else {
                        EndState::Failed
                    };
                    self.finish(result, end)
                }
            };
        }
        let me = self.myself.clone();
        let run = commit.as_ref().and_then(|_| self.record_commit());
        self.record_through_commit = run.is_some();
        let task = services::finalize(self.results.clone(), self.store.clone(), reference, commit, run);
        tokio::spawn(async move {
            let _ = me.send_message(CellMsg::Finalized(task.await));
        });
        self.finishing = Some(Finishing { delivered, commit_bytes, warnings, also_reply: Vec::new() });
        Flow::Live
    }

    /// The services answered a completing cell: report its result.
    pub(super) fn finalized(&mut self, done: services::Finalized) -> Flow {
        let Some(finishing) = self.finishing.take() else { return Flow::Live };
        let mut warnings = finishing.warnings;
        let result = match done.commit {
            Some(Err(e @ codemode_store::StoreError::SessionFull(_))) => {
                let message = format!("RangeError: {e} The cell's store writes were not committed.");
                self.fail(ErrorCode::InternalError, message, Phase::Guest)
            }
            other => {
                match other {
                    Some(Err(_)) => warnings.push(services::PERSISTENCE_WARNING.to_owned()),
                    Some(Ok(())) => {
                        self.metrics.store_committed(finishing.commit_bytes);
                        if self.record_through_commit {
                            self.record_committed();
                        }
                    }
                    None => {}
                }
                self.completed_result(finishing.delivered, done.reference, warnings)
            }
        };
        let end = if matches!(result, CellResult::Completed { .. }) { EndState::Completed } else { EndState::Failed };
        for reply in finishing.also_reply {
            let _ = reply.send(result.clone());
        }
        self.finish(result, end)
    }

    fn completed_result(
        &mut self,
        delivered: Result<(Output, Value, bool), output::OutputLimitExceeded>,
        reference: Option<Result<Value, String>>,
        warnings: Vec<String>,
    ) -> CellResult {
        let telemetry = self.telemetry;
        let untrusted = self.untrusted_id();
        match (delivered, reference) {
            (Ok((output, value, truncated)), reference) => {
                let value = match reference {
                    Some(Ok(descriptor)) if truncated => self.reference_value(descriptor),
                    Some(Err(reason)) if truncated => with_guidance(value, &reason),
                    _ => value,
                };
                CellResult::Completed { value, output, warnings, telemetry, untrusted }
            }
            (Err(limit), Some(Ok(descriptor))) => {
                let value = self.reference_value(descriptor);
                CellResult::Completed { value, output: limit.output, warnings, telemetry, untrusted }
            }
            (Err(limit), reason) => {
                let why = reason.and_then(Result::err).map(|r| format!(" {r}")).unwrap_or_default();
                let error = self.output.fit_error(format!("{}{why}", limit.message));
                CellResult::Failed {
                    code: ErrorCode::OutputLimitExceeded,
                    error,
                    phase: Phase::Guest,
                    output: limit.output,
                    telemetry,
                    untrusted,
                }
            }
        }
    }

    /// `{truncated: true, reference, guidance}`: the descriptor is bounded
    /// metadata (≤ 768 bytes) and is delivered even past the budget.
    fn reference_value(&mut self, descriptor: Value) -> Value {
        let value =
            serde_json::json!({"truncated": true, "reference": descriptor, "guidance": services::REFERENCE_GUIDANCE});
        self.output.charge_metadata(value.to_string().len());
        value
    }
}

/// A completed cell waiting for its reference and commit.
pub(super) struct Finishing {
    delivered: Result<(Output, Value, bool), output::OutputLimitExceeded>,
    /// Bytes of the values being committed, for metrics.
    commit_bytes: usize,
    /// Warnings gathered before the commit (requests drained at the end).
    warnings: Vec<String>,
    /// Aborts that arrived meanwhile: they get the final result too.
    pub(super) also_reply: Vec<RpcReplyPort<CellResult>>,
}

/// A truncation marker whose guidance says why it was not kept by reference.
fn with_guidance(mut marker: Value, reason: &str) -> Value {
    if let Some(obj) = marker.as_object_mut() {
        obj.insert("guidance".into(), Value::String(reason.to_owned()));
    }
    marker
}
