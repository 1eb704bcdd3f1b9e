//! A completed cell's last steps: draining the host requests it did not
//! await, delivering its value within the output budget, keeping an
//! oversized one by reference (GA-6.6), committing its store writes
//! (GA-7.6), then reporting.

use std::time::Instant;

use codemode_protocol::{CellResult, ErrorCode, Phase};
use serde_json::Value;

use super::end::services::{self, Finalized};
use super::end::{Delivered, Draining, Ending, Finishing};
use crate::cell::mode::CellMode;
use crate::cell::msg::CellMsg;
use crate::cell::requests::{Answer, session};
use crate::cell::state::{CellState, Flow};
use codemode_protocol::RunEnd;
use codemode_store::StoreError;

impl CellState {
    /// Completes a returned cell once its requests are done, or at the
    /// window's deadline with a warning naming those still running.
    pub(in crate::cell) fn drain(&mut self, deadline: Instant) -> Flow {
        let Some(Ending::Draining(draining)) = self.ending.as_mut() else { return Flow::Live };
        // No guest code awaits these results; a failure must still be seen.
        for settlement in std::mem::take(&mut self.host.ready) {
            if let Answer::Fault(fault) = settlement.answer {
                let message = fault.message;
                draining
                    .warnings
                    .push(format!("A host request the cell did not await failed after it returned: {message}"));
            }
        }
        if self.host.has_calls() && Instant::now() < deadline {
            self.windows.schedule_wake(&self.run.myself, deadline);
            return Flow::Live;
        }
        let Some(Ending::Draining(Draining { value, mut warnings })) = self.ending.take() else { return Flow::Live };
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
    /// store writes (GA-7.6) before reporting `completed`. A run with a
    /// record ends through it before it is reported, with its writes or
    /// without, keeping its final result there: one end, recorded first,
    /// and the answer a crash cuts off is read back by the next `wait`.
    pub(in crate::cell) fn complete(&mut self, value: Value, mut warnings: Vec<String>) -> Flow {
        warnings.extend(self.durability.take_warning());
        // Compact JSON of the value: what the output budget charges and a
        // reference keeps.
        let json = value.to_string();
        let entries = self.take_entries();
        let delivered = self.output.deliver_value(entries, &json, &value);
        let structured = value.is_object() || value.is_array();
        let wants_reference = structured && !matches!(delivered, Ok((_, _, false)));
        self.sync_network();
        let (reference, not_retained) = match session::results_scope(&self.run.mode) {
            Ok(scope) if wants_reference => (Some((scope, value, json, self.effects.network)), None),
            Err(refusal) if wants_reference => (None, Some(services::NotRetained(format!("Not retained: {refusal}")))),
            _ => (None, None),
        };
        let writes = &mut self.effects.writes;
        let commit_bytes: usize = writes.values().flatten().map(|v| v.json.len()).sum();
        let commit = match (&self.run.mode, writes.is_empty()) {
            (CellMode::Interactive { session, restart_safe: false, .. }, false) => {
                Some((session.clone(), std::mem::take(writes).into_iter().collect()))
            }
            _ => None,
        };
        let run = if delivered.is_ok() || commit.is_some() { self.durability.record_commit() } else { None };
        self.ending = Some(Ending::Finishing(Box::new(Finishing {
            delivered: Some(delivered),
            result: None,
            commit,
            through_record: run.is_some(),
            run,
            commit_bytes,
            warnings,
            also_reply: Vec::new(),
        })));
        match reference {
            Some(reference) => {
                let (me, results) = (self.run.myself.clone(), self.services.results.clone());
                tokio::spawn(async move {
                    let _ = me.send_message(CellMsg::Finalized(services::keep_reference(results, reference).await));
                });
                Flow::Live
            }
            None => self.built(not_retained.map(Err)),
        }
    }

    /// The services answered a completing cell's step.
    pub(in crate::cell) fn finalized(&mut self, done: Finalized) -> Flow {
        match done {
            Finalized::Referenced(reference) => self.built(Some(reference)),
            Finalized::Committed(outcome) => self.committed(outcome),
        }
    }

    /// The reference is known (or none was needed): the result is built,
    /// and reported at once, or after the commit when there is one.
    fn built(&mut self, reference: Option<Result<Value, services::NotRetained>>) -> Flow {
        let Some(Ending::Finishing(mut finishing)) = self.ending.take() else { return Flow::Live };
        let Some(delivered) = finishing.delivered.take() else { return Flow::Live };
        let warnings = std::mem::take(&mut finishing.warnings);
        let result = self.completed_result(delivered, reference, warnings);
        if finishing.commit.is_none() && finishing.run.is_none() {
            return self.report(result, finishing.also_reply);
        }
        let kept =
            if matches!(result, CellResult::Completed { .. }) { crate::durable::keep(&result) } else { Vec::new() };
        let (me, store) = (self.run.myself.clone(), self.services.store.clone());
        let task = services::commit(store, finishing.commit.take(), finishing.run.take(), kept);
        tokio::spawn(async move {
            let _ = me.send_message(CellMsg::Finalized(task.await));
        });
        finishing.result = Some(result);
        self.ending = Some(Ending::Finishing(finishing));
        Flow::Live
    }

    /// The commit is done: report the result, or why the cell failed.
    fn committed(&mut self, outcome: Result<(), StoreError>) -> Flow {
        let Some(Ending::Finishing(finishing)) = self.ending.take() else { return Flow::Live };
        let Some(mut result) = finishing.result else { return Flow::Live };
        match outcome {
            Err(e @ StoreError::SessionFull(_)) => {
                let message = format!("RangeError: {e} The cell's store writes were not committed.");
                result = self.fail(ErrorCode::InternalError, message, Phase::Guest);
            }
            // A run's end and its writes commit together: neither happened
            // (the store stayed away, or the lease ran out meanwhile). The
            // record still holds the run, so it is not ended here: this copy
            // leaves memory, and the next `wait`, on any process, resumes
            // the run from its journal and completes it there.
            Err(e @ (StoreError::Io(_) | StoreError::Unavailable | StoreError::Database(_)))
                if finishing.through_record =>
            {
                let message = format!(
                    "code mode run returned, but its end could not be recorded ({e}). The run is not lost: call wait \
                     again, and it resumes from its journal (a call that was running at its last journal write \
                     answers outcome_unknown there)."
                );
                let result = self.fail(ErrorCode::RuntimeUnavailable, message, Phase::Host);
                // Out of the run index first: a wait sent once the observer
                // has the answer finds the record, never this stopping copy.
                self.leave_memory();
                for reply in finishing.also_reply {
                    let _ = reply.send(result.clone());
                }
                if let Some(window) = self.windows.current.take() {
                    let _ = window.reply.send(result);
                }
                return Flow::Ended;
            }
            // Refused for what it is (it would be refused again): it ends.
            Err(e) if finishing.through_record => {
                let message = format!(
                    "the cell returned, but its end (and any store writes) could not be committed ({e}); nothing \
                     it stored was kept."
                );
                result = self.fail(ErrorCode::InternalError, message, Phase::Host);
            }
            Err(_) => {
                if let CellResult::Completed { warnings, .. } = &mut result {
                    warnings.push(services::PERSISTENCE_WARNING.to_owned());
                }
            }
            Ok(()) => {
                self.services.metrics.store_committed(finishing.commit_bytes);
                self.durability.record_committed();
            }
        }
        self.report(result, finishing.also_reply)
    }

    /// Reports a completing cell's result to its observer and to aborts
    /// that arrived meanwhile, and ends it.
    fn report(&mut self, result: CellResult, also_reply: Vec<ractor::RpcReplyPort<CellResult>>) -> Flow {
        let end = if matches!(result, CellResult::Completed { .. }) { RunEnd::Completed } else { RunEnd::Failed };
        for reply in also_reply {
            let _ = reply.send(result.clone());
        }
        self.finish(result, end)
    }

    fn completed_result(
        &mut self,
        delivered: Delivered,
        reference: Option<Result<Value, services::NotRetained>>,
        warnings: Vec<String>,
    ) -> CellResult {
        let telemetry = self.telemetry();
        let untrusted = self.untrusted_id();
        match (delivered, reference) {
            (Ok((output, value, truncated)), reference) => {
                let value = match reference {
                    Some(Ok(descriptor)) if truncated => self.reference_value(descriptor),
                    Some(Err(reason)) if truncated => with_guidance(value, &reason.0),
                    _ => value,
                };
                CellResult::completed(value)
                    .with_output(output)
                    .with_warnings(warnings)
                    .with_telemetry(telemetry)
                    .with_untrusted(untrusted)
            }
            (Err(limit), Some(Ok(descriptor))) => {
                let value = self.reference_value(descriptor);
                CellResult::completed(value)
                    .with_output(limit.output)
                    .with_warnings(warnings)
                    .with_telemetry(telemetry)
                    .with_untrusted(untrusted)
            }
            (Err(limit), reason) => {
                let why = reason.and_then(Result::err).map(|r| format!(" {}", r.0)).unwrap_or_default();
                let error = self.output.fit_error(format!("{}{why}", limit.message));
                CellResult::failed(ErrorCode::OutputLimitExceeded, error, Phase::Guest)
                    .with_output(limit.output)
                    .with_telemetry(telemetry)
                    .with_untrusted(untrusted)
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

/// A truncation marker whose guidance says why it was not kept by reference.
fn with_guidance(mut marker: Value, reason: &str) -> Value {
    if let Some(obj) = marker.as_object_mut() {
        obj.insert("guidance".into(), Value::String(reason.to_owned()));
    }
    marker
}
