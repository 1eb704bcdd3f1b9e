//! `exec` as an MCP task, for clients that declare the tasks extension
//! (SEP-2663, `io.modelcontextprotocol/tasks`). A cell that parks is
//! answered with a task whose id is its run id; the run is the task:
//!
//! - `tasks/get` reports it — `working`, `input_required` while approvals
//!   are pending (one elicitation form per approval), `completed` with the
//!   tool result `wait` would give (the output of every window in order),
//!   or `cancelled`. A poll of a working task drives the run: it opens a
//!   `wait` window unless one is open, so a run advances while its client
//!   polls and expires by its parked TTL when nobody does;
//! - `tasks/update` answers approvals (accept with `approve`, decline) and
//!   goes on with the decisions;
//! - `tasks/cancel` aborts the run.
//!
//! What this connection saw of a task is a cache: a task id it does not
//! know is a run id like any other, so after a crash or on another
//! process (PostgreSQL) the client's next poll resumes the run there —
//! once the runtime says the connection's session may observe that run;
//! any other id is an error, and nothing is kept of it.
//! An entry is kept for the runtime's parked TTL after it last changed or
//! was polled (a run left that long has expired anyway), which each task
//! states as its `ttlMs`; an ended task's result goes with its entry.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use codemode_runtime::{
    CellResult, DeciderKind, Decisions, Denial, ErrorCode, Output, PendingApproval, Phase, Reply, RunReach, WaitReason,
};
use rmcp::model::{
    CreateTaskResult, DetailedTask, ElicitRequest, ElicitResult, ErrorData, GetTaskResult, InputRequest,
    InputResponses, JsonObject, Task, TaskPayload, TaskStatus,
};
use serde_json::Value;

use super::calls::tool_result;
use super::elicit::{Answer, answer_of, form, join_output, with_earlier_output};

/// The poll interval suggested to clients.
const POLL_INTERVAL_MS: u64 = 500;

/// Tasks one connection keeps track of; past it, a parked `exec` is
/// answered with its `waiting` result instead of a task (the client then
/// uses `wait`). A task is kept for the TTL it states, even ended.
const MAX_TASKS: usize = 256;

/// Windows in a row the runtime may refuse (`invalid_input` before the
/// cell ran: another `wait` in flight, a run still starting, decisions on
/// approvals that are gone) before the task takes the refusal for its end
/// (a run that does not exist, or not for this client, is refused every
/// time).
const MAX_REFUSALS: u8 = 3;

/// Where a task's run stands, as last seen.
enum State {
    /// Running or parked; `message` says why it waits.
    Working(Option<String>),
    /// Parked for these approvals.
    Approval(Vec<PendingApproval>),
    /// Ended: the result `wait` gave, with the output of every window.
    Done(Box<CellResult>),
    /// Cancelled by the client.
    Cancelled,
}

struct TaskRun {
    state: State,
    /// Output of the windows before the current one.
    output: Output,
    /// A window is open on the run for this task.
    driving: bool,
    /// Windows refused in a row (see [`MAX_REFUSALS`]).
    refusals: u8,
    created: String,
    updated: String,
    /// When the entry was made, and when it was last changed or polled.
    born: Instant,
    touched: Instant,
}

impl TaskRun {
    fn new(state: State, output: Output) -> Self {
        let (created, at) = (now(), Instant::now());
        Self { state, output, driving: false, refusals: 0, updated: created.clone(), created, born: at, touched: at }
    }
}

/// Drops the entries untouched for longer than `keep` at `now`; an entry a
/// window is open for stays (its window touches it when it closes).
fn prune(runs: &mut HashMap<String, TaskRun>, now: Instant, keep: Duration) {
    runs.retain(|_, r| r.driving || now.saturating_duration_since(r.touched) <= keep);
}

/// A window open on a task's run: a window that ends without recording
/// where the run stands (a panic, the runtime stopping) still leaves the
/// task undriven, so a later poll opens another.
struct Window {
    runs: Arc<TaskRuns>,
    run_id: String,
    /// The window recorded its end itself.
    recorded: bool,
}

impl Drop for Window {
    fn drop(&mut self) {
        if !self.recorded
            && let Some(run) = self.runs.lock().get_mut(&self.run_id)
        {
            run.driving = false;
        }
    }
}

/// The tasks of one connection, by run id.
pub(super) struct TaskRuns {
    runs: Mutex<HashMap<String, TaskRun>>,
    /// How long an entry is kept after it was last touched.
    keep: Duration,
}

/// Whether `id` has the shape of a run id (`run_` and 32 hex digits, as the
/// runtime makes them): anything else names no task, and is not tracked.
fn is_run_id(id: &str) -> bool {
    id.strip_prefix("run_").is_some_and(|hex| hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// At most 64 bytes of a client's text, for an error message.
fn quoted(text: &str) -> &str {
    codemode_protocol::budget::utf8_prefix(text, 64)
}

/// Now, in RFC 3339 (UTC), as task times are written.
fn now() -> String {
    jiff::Timestamp::now().to_string()
}

fn state_of(result: CellResult) -> State {
    match result {
        CellResult::Waiting { reason: WaitReason::Approval, pending_approvals, .. } => {
            State::Approval(pending_approvals)
        }
        CellResult::Waiting { reason, .. } => State::Working(Some(format!("the cell is parked ({reason:?})"))),
        done => State::Done(Box::new(done)),
    }
}

impl TaskRuns {
    /// The tasks of a connection to a runtime whose parked runs expire
    /// after `parked_ttl`.
    pub(super) fn new(parked_ttl: Duration) -> Self {
        Self { runs: Mutex::default(), keep: parked_ttl }
    }

    /// The table, without the entries untouched for longer than `keep`.
    fn lock(&self) -> MutexGuard<'_, HashMap<String, TaskRun>> {
        let mut runs = self.runs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        prune(&mut runs, Instant::now(), self.keep);
        runs
    }

    /// A parked `exec`'s result as a task; none when it did not park, or
    /// this connection tracks too many tasks (the client gets the result).
    pub(super) fn start(&self, result: &CellResult) -> Option<CreateTaskResult> {
        let CellResult::Waiting { run_id, output, .. } = result else { return None };
        let mut runs = self.lock();
        if runs.len() >= MAX_TASKS {
            return None;
        }
        let run = TaskRun::new(state_of(result.clone()), output.clone());
        let task = task(run_id, &run, self.keep);
        runs.insert(run_id.clone(), run);
        Some(CreateTaskResult::new(task))
    }

    /// `tasks/get`: the task as it stands; a working one is driven on.
    pub(super) async fn get(self: &Arc<Self>, reply: &Reply, run_id: &str) -> Result<GetTaskResult, ErrorData> {
        if !self.lock().contains_key(run_id) {
            if !is_run_id(run_id) {
                return Err(ErrorData::invalid_params(
                    format!("{:?} is not a task id of codemode", quoted(run_id)),
                    None,
                ));
            }
            self.room_for_one()?;
            // A run this connection did not start (another connection's or
            // another process's), or one it forgot: a task of this client
            // only if its session may observe the run, and nothing is kept
            // of one it may not (another session's, ended, unknown).
            let reach = reply.reach(run_id).await.map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            if let RunReach::Refused { code, error } = reach {
                return Err(no_task(run_id, code, &error));
            }
        }
        let mut runs = self.lock();
        if !runs.contains_key(run_id) && runs.len() >= MAX_TASKS {
            // Filled while the runtime was asked.
            return Err(full());
        }
        let run =
            runs.entry(run_id.to_owned()).or_insert_with(|| TaskRun::new(State::Working(None), Output::default()));
        run.touched = Instant::now();
        let detailed = detailed(run_id, run, self.keep)?;
        if matches!(run.state, State::Working(_)) && !run.driving {
            run.driving = true;
            self.drive(reply.clone(), run_id.to_owned(), None);
        }
        Ok(GetTaskResult::new(detailed))
    }

    /// Refuses a task more when the connection tracks all it may.
    fn room_for_one(&self) -> Result<(), ErrorData> {
        if self.lock().len() >= MAX_TASKS { Err(full()) } else { Ok(()) }
    }

    /// `tasks/update`: the client's answers to the approval forms, by
    /// approval id; the run goes on with the decisions.
    pub(super) fn update(
        self: &Arc<Self>,
        reply: &Reply,
        run_id: &str,
        responses: &InputResponses,
    ) -> Result<(), ErrorData> {
        let mut runs = self.lock();
        let Some(run) = runs.get_mut(run_id) else {
            return Err(ErrorData::invalid_params(format!("no task {run_id} on this connection"), None));
        };
        let State::Approval(pending) = &run.state else {
            return Err(ErrorData::invalid_params(format!("task {run_id} asks for no input now"), None));
        };
        let mut decisions = Decisions::default();
        for (id, response) in responses {
            if !pending.iter().any(|a| &a.id == id) {
                return Err(ErrorData::invalid_params(format!("task {run_id} has no input request {id}"), None));
            }
            let answer: ElicitResult = serde_json::from_value(response.clone()).map_err(|e| {
                ErrorData::invalid_params(format!("the response to {id} is not an elicitation result: {e}"), None)
            })?;
            match answer_of(&answer.action, answer.content.as_ref()) {
                Answer::Approve => decisions.approve.push(id.clone()),
                Answer::Deny(reason) => decisions.deny.push(Denial { id: id.clone(), reason }),
                Answer::Later => {}
            }
        }
        if decisions.is_empty() {
            return Ok(());
        }
        run.state = State::Working(Some("going on with the decisions".to_owned()));
        run.updated = now();
        run.touched = Instant::now();
        run.driving = true;
        self.drive(reply.clone(), run_id.to_owned(), Some(decisions));
        Ok(())
    }

    /// `tasks/cancel`: aborts the run.
    pub(super) async fn cancel(&self, reply: &Reply, run_id: &str) -> Result<(), ErrorData> {
        let aborted = reply.abort(run_id).await.map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let mut runs = self.lock();
        match &aborted {
            CellResult::Failed { code: ErrorCode::Aborted, .. } => {}
            // Not a run of this session, not one at all, or one that
            // ended already: nothing was cancelled.
            CellResult::Failed { error, .. } => return Err(ErrorData::invalid_params(error.clone(), None)),
            _ => return Err(ErrorData::invalid_params(format!("task {run_id} has already ended"), None)),
        }
        if let Some(run) = runs.get_mut(run_id) {
            run.state = State::Cancelled;
            run.updated = now();
            run.touched = Instant::now();
        }
        Ok(())
    }

    /// Opens one window on the run (with decisions, if any) in the
    /// background and records where it stands after.
    fn drive(self: &Arc<Self>, reply: Reply, run_id: String, decisions: Option<Decisions>) {
        let runs = Arc::clone(self);
        tokio::spawn(async move {
            let mut window = Window { runs: Arc::clone(&runs), run_id: run_id.clone(), recorded: false };
            let result = match decisions {
                // The task-aware client's user answered its input requests.
                Some(d) => reply.wait_decided_by(&run_id, d, DeciderKind::User, None).await,
                None => reply.wait(&run_id).await,
            };
            let result =
                result.unwrap_or_else(|e| CellResult::input_error(ErrorCode::RuntimeUnavailable, e.to_string()));
            let mut all = runs.lock();
            // Under the lock: a poll may open the next window right after.
            window.recorded = true;
            let Some(run) = all.get_mut(&run_id) else { return };
            run.driving = false;
            run.updated = now();
            run.touched = Instant::now();
            if matches!(run.state, State::Cancelled) {
                return;
            }
            let refused =
                matches!(&result, CellResult::Failed { code: ErrorCode::InvalidInput, phase: Phase::Input, .. });
            run.refusals = if refused { run.refusals.saturating_add(1) } else { 0 };
            if let CellResult::Failed { error, .. } = &result
                && refused
                && run.refusals < MAX_REFUSALS
            {
                // The run did not move: the next poll opens another window.
                run.state = State::Working(Some(error.clone()));
                return;
            }
            let earlier = std::mem::replace(&mut run.output, Output::Entries(Vec::new()));
            run.state = match result {
                // The store or the runtime could not answer now (a run is
                // never lost to that): the next poll tries again.
                CellResult::Failed { code: ErrorCode::RuntimeUnavailable, error, .. } => {
                    run.output = earlier;
                    State::Working(Some(error))
                }
                CellResult::Waiting { .. } => {
                    let mut output = result.output().clone();
                    join_output(earlier, &mut output);
                    run.output = output;
                    state_of(result)
                }
                done => State::Done(Box::new(with_earlier_output(done, earlier))),
            };
        });
    }
}

/// The error for a connection that tracks [`MAX_TASKS`] tasks.
fn full() -> ErrorData {
    ErrorData::invalid_params(
        format!("this connection tracks {MAX_TASKS} tasks, the most it may; wait for some to expire first"),
        None,
    )
}

/// The error for a task id whose run this client may not observe: the
/// runtime's refusal, as for an unknown task (the store failing is the
/// server's error).
fn no_task(run_id: &str, code: ErrorCode, why: &str) -> ErrorData {
    let message = format!("no task {run_id} for this client: {why}");
    if code == ErrorCode::RuntimeUnavailable {
        ErrorData::internal_error(message, None)
    } else {
        ErrorData::invalid_params(message, None)
    }
}

fn task(run_id: &str, run: &TaskRun, keep: Duration) -> Task {
    let (status, message) = match &run.state {
        State::Working(message) => (TaskStatus::Working, message.clone()),
        State::Approval(pending) => {
            (TaskStatus::InputRequired, Some(format!("{} call(s) wait for approval", pending.len())))
        }
        State::Done(_) => (TaskStatus::Completed, None),
        State::Cancelled => (TaskStatus::Cancelled, None),
    };
    // The TTL counts from creation: how long the entry has lived, and the
    // time it is kept from now.
    let ttl = run.touched.saturating_duration_since(run.born).saturating_add(keep);
    let mut task = Task::new(run_id, status, run.created.clone(), run.updated.clone())
        .with_poll_interval_ms(POLL_INTERVAL_MS)
        .with_ttl_ms(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX));
    if let Some(message) = message {
        task = task.with_status_message(message);
    }
    task
}

fn detailed(run_id: &str, run: &TaskRun, keep: Duration) -> Result<DetailedTask, ErrorData> {
    let payload = match &run.state {
        State::Working(_) => TaskPayload::Working,
        State::Cancelled => TaskPayload::Cancelled,
        State::Approval(pending) => TaskPayload::InputRequired {
            // A form that cannot be built is an error, never a task that
            // asks for input with nothing to answer.
            input_requests: pending
                .iter()
                .map(|a| {
                    let form = form(a).ok_or_else(|| {
                        ErrorData::internal_error(format!("the approval form for {} could not be built", a.id), None)
                    })?;
                    Ok((a.id.clone(), InputRequest::Elicitation(ElicitRequest::new(form))))
                })
                .collect::<Result<_, ErrorData>>()?,
        },
        State::Done(result) => {
            let answer = serde_json::to_value(tool_result(result)?)
                .map_err(|e| ErrorData::internal_error(format!("the result could not be serialized: {e}"), None))?;
            let Value::Object(result) = answer else {
                return Err(ErrorData::internal_error("a tool result is not an object", None));
            };
            TaskPayload::Completed { result: JsonObject::from_iter(result) }
        }
    };
    Ok(DetailedTask::new(task(run_id, run, keep), payload))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_run_shaped_ids_name_a_task() {
        assert!(is_run_id(&format!("run_{}", "0a".repeat(16))));
        assert!(!is_run_id(&format!("run_{}", "0a".repeat(17))), "one byte too long");
        assert!(!is_run_id(&format!("run_{}z", "0".repeat(31))));
        assert!(!is_run_id("task-1"));
    }

    #[test]
    fn a_connection_tracks_at_most_its_bound_of_tasks_and_refuses_more() {
        let runs = TaskRuns::new(Duration::from_secs(600));
        {
            let mut all = runs.runs.lock().unwrap();
            for i in 0..MAX_TASKS {
                let mut run = TaskRun::new(State::Approval(Vec::new()), Output::default());
                run.driving = true;
                all.insert(format!("run_{i:032x}"), run);
            }
        }
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let runtime = rt.block_on(codemode_runtime::CodeMode::builder().start()).unwrap();
        let reply = runtime.session("s").reply("r");
        let runs = Arc::new(runs);
        let err = rt.block_on(runs.get(&reply, &format!("run_{}", "f".repeat(32)))).unwrap_err();
        assert!(err.message.contains(&format!("tracks {MAX_TASKS} tasks")), "{}", err.message);
        let err = rt.block_on(runs.get(&reply, "not-a-run")).unwrap_err();
        assert!(err.message.contains("is not a task id"), "{}", err.message);
        // A task it tracks is still answered.
        assert!(rt.block_on(runs.get(&reply, &format!("run_{:032x}", 3))).is_ok());
        rt.block_on(runtime.shutdown());
    }

    #[test]
    fn a_poll_of_another_sessions_run_or_an_unknown_one_is_an_error_that_keeps_nothing_ga_1_3() {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let runtime = rt.block_on(codemode_runtime::CodeMode::builder().start()).unwrap();
        let (owner, other) = (runtime.session("a").reply("r"), runtime.session("b").reply("r"));
        let parked = rt.block_on(owner.exec(codemode_runtime::Exec::code("await yield_control(); return 1"))).unwrap();
        let run_id = parked.run_id().unwrap().to_owned();
        let runs = Arc::new(TaskRuns::new(Duration::from_secs(600)));
        for id in [run_id.clone(), format!("run_{}", "f".repeat(32))] {
            let err = rt.block_on(runs.get(&other, &id)).unwrap_err();
            assert!(err.message.contains(&format!("no task {id}")), "{}", err.message);
            assert!(runs.runs.lock().unwrap().is_empty(), "nothing kept of {id}");
        }
        // Its own session's poll is a task.
        assert!(rt.block_on(runs.get(&owner, &run_id)).is_ok());
        assert_eq!(runs.runs.lock().unwrap().len(), 1);
        rt.block_on(runtime.shutdown());
    }

    #[test]
    fn an_entry_untouched_for_the_parked_ttl_is_forgotten_unless_a_window_is_open_and_states_its_ttl() {
        let keep = Duration::from_secs(60);
        let base = Instant::now();
        let mut all = HashMap::new();
        for (i, (state, touched, driving)) in [
            (State::Cancelled, base, false),
            (State::Working(None), base, false),
            (State::Working(None), base, true),
            (State::Cancelled, base + Duration::from_secs(2), false),
        ]
        .into_iter()
        .enumerate()
        {
            let mut run = TaskRun::new(state, Output::default());
            (run.born, run.touched, run.driving) = (base, touched, driving);
            all.insert(format!("run_{i:032x}"), run);
        }
        prune(&mut all, base + keep, keep);
        assert_eq!(all.len(), 4, "exactly at the TTL every entry is kept");
        prune(&mut all, base + keep + Duration::from_secs(1), keep);
        let mut left: Vec<_> = all.keys().cloned().collect();
        left.sort();
        assert_eq!(left, [format!("run_{:032x}", 2), format!("run_{:032x}", 3)]);
        let kept = &all[&format!("run_{:032x}", 3)];
        assert_eq!(task("run", kept, keep).ttl_ms, Some(62_000), "lived 2 s and kept 60 s more");
    }
}
