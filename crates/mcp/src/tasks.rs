//! MCP tasks, as a client. A server may answer `tools/call` with a *task*
//! instead of a result; the call then polls the task until it ends and
//! settles with the tool's result exactly as a direct answer would.
//!
//! Two generations of the protocol exist and real servers speak both:
//! - the tasks *extension* (SEP-2663, `io.modelcontextprotocol/tasks`),
//!   which rmcp 3.x speaks: the server decides to answer with
//!   `resultType: "task"`; `tasks/get` carries the result;
//! - the *core* form of protocol 2025-11-25, which the TypeScript SDK's
//!   servers speak (server-everything's `simulate-research-query`): the
//!   caller adds `task: {ttl}` to `tools/call`, polls `tasks/get` and
//!   fetches the result with `tasks/result`. rmcp 3.x has no types for it
//!   (it drops a tool's `execution.taskSupport` and the server's `tasks`
//!   capability), so these requests go out as raw JSON-RPC through rmcp's
//!   custom requests, and a tool is known to need a task once the server
//!   refuses a plain call to it.
//!
//! A task is identified by [`McpTask`], which the runtime journals the
//! moment it is known: a run resumed on another process polls the same
//! task ([`crate::McpHub::resume_task`]) instead of starting the tool again.
//!
//! A task outlives the connection that created it: a poll that fails
//! without an answer from the server (the network, a session that closed,
//! no answer in time) is tried again, on the server's new session once it
//! reconnected, for up to [`MAX_OUTAGE`]; only the server's own refusal or
//! an outage past that ends the call.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

pub use codemode_protocol::{InputAnswer, InputAsk, McpTask, OnInput, OnTask, TaskForm, TaskHooks};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientRequest, CustomRequest, ElicitRequestParams,
    GetTaskParams, InputRequest, InputRequests, InputResponses, TaskPayload, UpdateTaskParams,
};
use rmcp::service::{Peer, RoleClient};
use serde_json::{Map, Value, json};

use crate::error::McpCallError;

/// Polls are never closer than this, whatever the server suggests: a
/// server asking for 0 ms would otherwise be polled in a busy loop.
pub const MIN_POLL: Duration = Duration::from_millis(10);
/// Polls are never further apart than this, so a finished task is seen
/// within 10 s even when a server suggests hours.
pub const MAX_POLL: Duration = Duration::from_secs(10);
/// The interval when the server suggests none.
const DEFAULT_POLL: Duration = Duration::from_millis(500);

/// The lifetime codemode asks for a core-form task (the server may choose
/// another): one day, longer than any run stays parked by default.
const CORE_TTL_MS: u64 = 24 * 60 * 60 * 1000;

/// Longest task id accepted: it is journaled and sent back on every poll.
/// Input request keys, journaled with their approvals, have the same bound.
const MAX_TASK_ID_BYTES: usize = 256;

/// Input requests one task may make: each is a pending approval someone
/// has to answer, so a server asking without end fails the call instead.
pub(crate) const MAX_TASK_INPUTS: usize = 16;

/// How long polls may go on failing without an answer from the server
/// before the call gives up on its task.
pub(crate) const MAX_OUTAGE: Duration = Duration::from_secs(120);

/// A request of a task call that failed; `transient` when the server did
/// not answer it (transport, closed session, timeout), so trying again may
/// succeed, rather than answering with a refusal.
struct Failure {
    error: McpCallError,
    transient: bool,
    /// When the failed request was sent: an outage counts from there.
    since: Instant,
}

impl From<McpCallError> for Failure {
    fn from(error: McpCallError) -> Self {
        Self { error, transient: false, since: Instant::now() }
    }
}

impl From<serde_json::Error> for Failure {
    fn from(error: serde_json::Error) -> Self {
        McpCallError::from(error).into()
    }
}

impl From<Failure> for McpCallError {
    fn from(failure: Failure) -> Self {
        failure.error
    }
}

/// A task's input requests answered, by key: what was answered (each
/// request is put to the caller once) and what the server acknowledged (a
/// poll may list an answered request again for a moment).
#[derive(Default)]
struct Answers {
    given: std::collections::HashMap<String, Value>,
    delivered: std::collections::HashSet<String>,
}

/// Where a task call finds the server's live session now, when it has
/// one: after a reconnect, not the session the task was created on.
pub(crate) trait CurrentSession: Sync {
    fn current_peer(&self) -> Option<Peer<RoleClient>>;
}

fn interval(suggested: Option<u64>) -> u64 {
    let ms = suggested.map_or(DEFAULT_POLL, Duration::from_millis).clamp(MIN_POLL, MAX_POLL);
    u64::try_from(ms.as_millis()).unwrap_or(u64::MAX)
}

/// The wait before the second poll: a quarter of the interval, at least
/// [`MIN_POLL`] (and never longer than the interval).
fn quick_look(interval_ms: u64) -> u64 {
    let min = u64::try_from(MIN_POLL.as_millis()).unwrap_or(10);
    (interval_ms / 4).max(min).min(interval_ms)
}

/// One server connection's view of a task call: its name for messages,
/// the live session and the per-request timeout.
pub(crate) struct TaskCx<'a> {
    pub server: &'a str,
    pub tool: &'a str,
    /// The session requests go out on; replaced by the server's current
    /// one when it closed.
    pub peer: Mutex<Peer<RoleClient>>,
    pub sessions: &'a dyn CurrentSession,
    pub timeout: Duration,
    /// Who answers the task's input requests.
    pub on_input: Option<OnInput>,
    /// Where a 2025-11-25 server's elicitation for a task finds its caller.
    pub inputs: &'a Inputs,
}

/// The callers waiting on 2025-11-25 tasks, by task id: the client handler
/// routes a server's elicitation that names its task here.
#[derive(Clone, Default)]
pub(crate) struct Inputs(std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, (OnInput, u64)>>>);

impl std::fmt::Debug for Inputs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inputs").field("tasks", &self.lock().len()).finish()
    }
}

impl Inputs {
    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, (OnInput, u64)>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The caller of `task_id`, with the key of its request asking
    /// `message` with `schema`; `None` when no caller waits on the task or
    /// it asked [`MAX_TASK_INPUTS`] times already.
    ///
    /// The key comes from what is asked, not from a count: a run resumed
    /// after a crash finds the approval of a question the server asks
    /// again, and never takes another question's answer for it.
    pub(crate) fn take_ask(&self, task_id: &str, message: &str, schema: &Value) -> Option<(OnInput, String)> {
        use sha2::Digest;
        let mut all = self.lock();
        let (on_input, n) = all.get_mut(task_id)?;
        if *n >= MAX_TASK_INPUTS as u64 {
            tracing::warn!(task = task_id, "a task asked for input more than {MAX_TASK_INPUTS} times: declined");
            return None;
        }
        *n += 1;
        let digest =
            sha2::Sha256::new().chain_update(message).chain_update([0]).chain_update(schema.to_string()).finalize();
        let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
        Some((on_input.clone(), format!("elicitation-{hex}")))
    }
}

/// Routes a task's elicitations to its caller while it lives.
struct Listening<'a> {
    inputs: &'a Inputs,
    task_id: String,
}

impl Drop for Listening<'_> {
    fn drop(&mut self) {
        self.inputs.lock().remove(&self.task_id);
    }
}

impl TaskCx<'_> {
    fn peer(&self) -> Peer<RoleClient> {
        self.peer.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Takes the server's new session when the one in use closed.
    fn follow_reconnect(&self) {
        let mut peer = self.peer.lock().unwrap_or_else(PoisonError::into_inner);
        if peer.is_transport_closed()
            && let Some(new) = self.sessions.current_peer().filter(|p| !p.is_transport_closed())
        {
            *peer = new;
        }
    }

    fn failed(&self, reason: impl Into<String>) -> McpCallError {
        McpCallError::CallFailed { server: self.server.to_owned(), tool: self.tool.to_owned(), reason: reason.into() }
    }

    fn task_failed(&self, task: &McpTask, reason: impl std::fmt::Display) -> McpCallError {
        McpCallError::TaskFailed {
            server: self.server.to_owned(),
            tool: self.tool.to_owned(),
            task_id: task.task_id.clone(),
            // Bounded twice (a quoted message inside a bounded reason):
            // cheap, and no server text grows the guest's error unbounded.
            reason: quoted(&reason.to_string()).to_owned(),
        }
    }

    /// One request within the per-request timeout.
    async fn request<T>(
        &self,
        what: &str,
        work: impl Future<Output = Result<T, rmcp::ServiceError>>,
    ) -> Result<T, Failure> {
        let since = Instant::now();
        match tokio::time::timeout(self.timeout, work).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => Err(Failure { transient: unanswered(&e), error: self.failed(format!("{what}: {e}")), since }),
            Err(_) => Err(Failure { error: self.timed_out(what), transient: true, since }),
        }
    }

    fn timed_out(&self, what: &str) -> McpCallError {
        McpCallError::CallTimeout {
            server: self.server.to_owned(),
            tool: format!("{} ({what})", self.tool),
            ms: self.timeout.as_millis(),
        }
    }

    /// The call gives up on `task`: it is cancelled at the server (best
    /// effort) so the server's work does not run on unread.
    async fn give_up(&self, task: &McpTask) {
        self.follow_reconnect();
        if let Err(e) = self.cancel(task).await {
            tracing::warn!(server = self.server, task = task.task_id, "cancelling an abandoned task failed: {e}");
        }
    }

    async fn custom(&self, method: &str, params: Value) -> Result<Value, Failure> {
        let request = ClientRequest::CustomRequest(CustomRequest::new(method, Some(params)));
        let answer = self.request(method, self.peer().send_request(request)).await?;
        Ok(serde_json::to_value(answer)?)
    }

    /// `tools/call` in the extension form: a result, or a task to poll.
    pub(crate) async fn call_extension(
        &self,
        params: CallToolRequestParams,
        on_task: Option<OnTask>,
    ) -> Result<Value, McpCallError> {
        match self.request("tools/call", self.peer().call_tool_once(params)).await? {
            CallToolResponse::Complete(result) => Ok(serde_json::to_value(result)?),
            CallToolResponse::Task(created) => {
                let task = self.task(TaskForm::Extension, created.task.task_id, created.task.poll_interval_ms)?;
                if let Some(on_task) = on_task {
                    on_task(&task);
                }
                self.finish(&task).await
            }
            CallToolResponse::InputRequired(_) => Err(self.failed(
                "the server asked for input before it would run the tool (an MRTR input request), which codemode \
                 does not answer",
            )),
            _ => Err(self.failed("the server answered tools/call with a response codemode does not know")),
        }
    }

    /// `tools/call` with `task: {ttl}` (protocol 2025-11-25): a task to poll,
    /// or a result when the server ran the tool at once.
    pub(crate) async fn call_core(
        &self,
        params: CallToolRequestParams,
        on_task: Option<OnTask>,
    ) -> Result<Value, McpCallError> {
        let mut params = serde_json::to_value(params)?;
        params["task"] = json!({ "ttl": CORE_TTL_MS });
        let answer = self.custom("tools/call", params).await?;
        let Some(created) = answer.get("task") else { return Ok(answer) };
        let task_id = created.get("taskId").and_then(Value::as_str).unwrap_or_default().to_owned();
        let task = self.task(TaskForm::Core, task_id, created.get("pollInterval").and_then(Value::as_u64))?;
        if let Some(on_task) = on_task {
            on_task(&task);
        }
        self.finish(&task).await
    }

    fn task(&self, form: TaskForm, task_id: String, poll: Option<u64>) -> Result<McpTask, McpCallError> {
        if task_id.is_empty() || task_id.len() > MAX_TASK_ID_BYTES {
            return Err(self.failed(format!(
                "the server created a task without a usable id (empty or over {MAX_TASK_ID_BYTES} bytes)"
            )));
        }
        Ok(McpTask { form, task_id, poll_interval_ms: interval(poll) })
    }

    /// Polls `task` until it ends; its result, or why it produced none.
    pub(crate) async fn finish(&self, task: &McpTask) -> Result<Value, McpCallError> {
        let mut task = task.clone();
        // A 2025-11-25 server's elicitations for this task reach its caller.
        let _listening = match (&self.on_input, task.form) {
            (Some(on_input), TaskForm::Core) => {
                self.inputs.lock().insert(task.task_id.clone(), (on_input.clone(), 0));
                Some(Listening { inputs: self.inputs, task_id: task.task_id.clone() })
            }
            _ => None,
        };
        let mut answers = Answers::default();
        let mut first = true;
        // Since when polls have failed without an answer.
        let mut outage: Option<Instant> = None;
        loop {
            let polled = match task.form {
                TaskForm::Extension => self.poll_extension(&mut task, &mut answers).await,
                TaskForm::Core => self.poll_core(&mut task).await,
            };
            let status = match polled {
                Ok(status) => {
                    outage = None;
                    status
                }
                Err(Failure { error, transient: true, since })
                    if within_outage(*outage.get_or_insert(since), Instant::now()) =>
                {
                    tracing::debug!(
                        server = self.server,
                        task = task.task_id,
                        "polling the task failed, trying again: {error}"
                    );
                    self.follow_reconnect();
                    tokio::time::sleep(Duration::from_millis(task.poll_interval_ms)).await;
                    continue;
                }
                Err(failure) => {
                    self.give_up(&task).await;
                    return Err(failure.error);
                }
            };
            if let Some(done) = status {
                return done;
            }
            // Many tasks end within moments of being created, just after
            // the first poll: one quicker look (a quarter of the interval,
            // at least MIN_POLL) halves what such a task waits to be seen;
            // then the server's interval.
            let wait =
                if std::mem::take(&mut first) { quick_look(task.poll_interval_ms) } else { task.poll_interval_ms };
            tokio::time::sleep(Duration::from_millis(wait)).await;
        }
    }

    /// One `tasks/get` in the extension form; `Some` once the task ended.
    async fn poll_extension(
        &self,
        task: &mut McpTask,
        answers: &mut Answers,
    ) -> Result<Option<Result<Value, McpCallError>>, Failure> {
        let got = self.request("tasks/get", self.peer().get_task(GetTaskParams::new(task.task_id.clone()))).await?;
        task.poll_interval_ms = interval(got.task.task.poll_interval_ms.or(Some(task.poll_interval_ms)));
        let message = got.task.task.status_message.clone();
        Ok(match got.task.payload {
            TaskPayload::Completed { result } => Some(Ok(Value::Object(result))),
            TaskPayload::Failed { error } => Some(Err(self.task_failed(task, rpc_error(&error)))),
            TaskPayload::Cancelled => Some(Err(self.task_failed(task, cancelled(message.as_deref())))),
            TaskPayload::InputRequired { input_requests } => {
                match self.answer_inputs(task, input_requests, answers).await? {
                    Ok(()) => None,
                    Err(why) => {
                        // Nobody will answer it: free the server's work.
                        self.give_up(task).await;
                        Some(Err(self.task_failed(task, why)))
                    }
                }
            }
            _ => None,
        })
    }

    /// Puts each new input request of the task to its caller and sends
    /// the answers (`tasks/update`); why not, when it cannot be answered.
    /// Each request is put to the caller once: an answer the server did not
    /// get is sent again while it still lists the request.
    async fn answer_inputs(
        &self,
        task: &McpTask,
        requests: InputRequests,
        answers: &mut Answers,
    ) -> Result<Result<(), String>, Failure> {
        let Some(on_input) = &self.on_input else {
            return Ok(Err(input_required("no one to ask is attached to this call")));
        };
        let mut responses = InputResponses::new();
        for (key, request) in requests {
            if answers.delivered.contains(&key) {
                continue;
            }
            if let Some(answer) = answers.given.get(&key) {
                responses.insert(key, answer.clone());
                continue;
            }
            if key.len() > MAX_TASK_ID_BYTES {
                return Ok(Err(input_required(&format!("an input request key is over {MAX_TASK_ID_BYTES} bytes"))));
            }
            if answers.given.len() >= MAX_TASK_INPUTS {
                return Ok(Err(input_required(&format!("it asked for input more than {MAX_TASK_INPUTS} times"))));
            }
            let answer = match request {
                InputRequest::Elicitation(request) => match request.params {
                    ElicitRequestParams::FormElicitationParams { message, requested_schema, .. } => {
                        let schema = serde_json::to_value(requested_schema)?;
                        on_input(InputAsk { key: key.clone(), message, schema }).await
                    }
                    // A URL to open is for a person at a browser, which a
                    // cell is not: declined, and the server decides.
                    _ => InputAnswer::Decline,
                },
                _ => return Ok(Err(input_required("it asks for sampling or roots, which codemode does not give"))),
            };
            let answer = elicit_result(&answer);
            answers.given.insert(key.clone(), answer.clone());
            responses.insert(key, answer);
        }
        if !responses.is_empty() {
            let keys: Vec<String> = responses.keys().cloned().collect();
            let update = UpdateTaskParams::new(task.task_id.clone(), responses);
            self.request("tasks/update", self.peer().update_task(update)).await?;
            answers.delivered.extend(keys);
        }
        Ok(Ok(()))
    }

    /// One `tasks/get` in the core form; once the task ended, its result
    /// from `tasks/result`.
    async fn poll_core(&self, task: &mut McpTask) -> Result<Option<Result<Value, McpCallError>>, Failure> {
        let got = self.custom("tasks/get", json!({ "taskId": task.task_id })).await?;
        if let Some(ms) = got.get("pollInterval").and_then(Value::as_u64) {
            task.poll_interval_ms = interval(Some(ms));
        }
        let message = got.get("statusMessage").and_then(Value::as_str);
        match got.get("status").and_then(Value::as_str) {
            Some("working") => Ok(None),
            Some("cancelled") => Ok(Some(Err(self.task_failed(task, cancelled(message))))),
            // `tasks/result` delivers what a failed task answers (its
            // JSON-RPC error) and serves an input request the server queued
            // for the task; it blocks until the task ends.
            Some(status @ ("completed" | "failed" | "input_required")) => {
                let params = json!({ "taskId": task.task_id });
                let request = ClientRequest::CustomRequest(CustomRequest::new("tasks/result", Some(params)));
                let since = Instant::now();
                match tokio::time::timeout(self.timeout, self.peer().send_request(request)).await {
                    // The hub strips the result's `_meta` (its related task).
                    Ok(Ok(answer)) => Ok(Some(Ok(serde_json::to_value(answer)?))),
                    Ok(Err(e)) if unanswered(&e) => {
                        Err(Failure { error: self.failed(format!("tasks/result: {e}")), transient: true, since })
                    }
                    Ok(Err(e)) => Ok(Some(Err(self.task_failed(task, e)))),
                    // The server waits on an input request it put to us,
                    // which a person may take hours to answer: poll again.
                    Err(_) if status == "input_required" => Ok(None),
                    Err(_) => Err(Failure { error: self.timed_out("tasks/result"), transient: true, since }),
                }
            }
            other => Err(self.task_failed(task, format!("tasks/get answered an unknown status {other:?}")).into()),
        }
    }

    /// Asks the server to cancel `task` (cooperative: it may still finish).
    pub(crate) async fn cancel(&self, task: &McpTask) -> Result<(), McpCallError> {
        match task.form {
            TaskForm::Extension => Ok(self
                .request("tasks/cancel", self.peer().cancel_task(CancelTaskParams::new(task.task_id.clone())))
                .await?),
            TaskForm::Core => Ok(self.custom("tasks/cancel", json!({ "taskId": task.task_id })).await.map(drop)?),
        }
    }
}

/// Whether polls that have failed since `since` may go on at `now`.
fn within_outage(since: Instant, now: Instant) -> bool {
    now.saturating_duration_since(since) < MAX_OUTAGE
}

/// Whether a request failed without the server answering it: trying again
/// (on this session or the server's next) may succeed. A refused
/// authorization is an answer: retrying cannot change it.
fn unanswered(error: &rmcp::ServiceError) -> bool {
    match error {
        rmcp::ServiceError::TransportSend(_) => !error.is_authorization_required(),
        rmcp::ServiceError::TransportClosed | rmcp::ServiceError::Timeout { .. } => true,
        _ => false,
    }
}

/// An answer as an elicitation result on the wire.
fn elicit_result(answer: &InputAnswer) -> Value {
    match answer {
        InputAnswer::Accept(content) => json!({"action": "accept", "content": content}),
        InputAnswer::Decline => json!({"action": "decline"}),
        InputAnswer::Cancel => json!({"action": "cancel"}),
    }
}

/// Longest server text (a status message, an error's message) quoted in
/// the guest's error: the server is a third party.
const MAX_QUOTED_BYTES: usize = 1024;

fn quoted(text: &str) -> &str {
    codemode_protocol::budget::utf8_prefix(text, MAX_QUOTED_BYTES)
}

fn rpc_error(error: &Map<String, Value>) -> String {
    let message = quoted(error.get("message").and_then(Value::as_str).unwrap_or("no message"));
    match error.get("code").and_then(Value::as_i64) {
        Some(code) => format!("the task failed: {message} (JSON-RPC error {code})"),
        None => format!("the task failed: {message}"),
    }
}

fn cancelled(message: Option<&str>) -> String {
    match message {
        Some(m) => format!("the task was cancelled: {}", quoted(m)),
        None => "the task was cancelled".to_owned(),
    }
}

fn input_required(why: &str) -> String {
    format!("the task asks for input that codemode cannot give ({why}); the task is cancelled")
}

#[cfg(test)]
mod tests {
    use rmcp::model::ServerResult;

    use super::*;

    #[test]
    fn a_task_input_is_keyed_by_what_it_asks_and_a_task_asks_at_most_its_bound() {
        let inputs = Inputs::default();
        let on_input: OnInput = std::sync::Arc::new(|_| Box::pin(async { InputAnswer::Decline }));
        inputs.lock().insert("t".into(), (on_input, 0));
        let schema = json!({"type": "object"});
        let key = |message: &str| inputs.take_ask("t", message, &schema).map(|(_, key)| key);
        // The same question has the same key whenever it is asked (a resumed
        // run finds its approval); another question never shares it.
        let first = key("Go on?").unwrap();
        assert_eq!(key("Go on?").unwrap(), first);
        assert_ne!(key("Stop?").unwrap(), first);
        assert!(inputs.take_ask("other", "Go on?", &schema).is_none(), "no caller waits on that task");
        for _ in 3..MAX_TASK_INPUTS {
            assert!(key("Go on?").is_some());
        }
        assert!(key("Go on?").is_none(), "one past the bound is declined");
    }

    #[test]
    fn server_text_quoted_in_errors_is_bounded() {
        let long = "m".repeat(MAX_QUOTED_BYTES + 10);
        let error: Map<String, Value> = [("message".to_owned(), json!(long))].into_iter().collect();
        let said = rpc_error(&error);
        assert!(said.len() < MAX_QUOTED_BYTES + 40, "{}", said.len());
        assert_eq!(cancelled(Some(&long)).len(), "the task was cancelled: ".len() + MAX_QUOTED_BYTES);
    }

    #[test]
    fn polls_failing_without_an_answer_go_on_until_the_outage_bound() {
        let since = Instant::now();
        assert!(within_outage(since, since));
        assert!(within_outage(since, since + MAX_OUTAGE - Duration::from_millis(1)));
        assert!(!within_outage(since, since + MAX_OUTAGE), "exactly at the bound the call gives up");
        assert!(unanswered(&rmcp::ServiceError::TransportClosed));
        assert!(unanswered(&rmcp::ServiceError::Timeout { timeout: Duration::from_secs(1) }));
        let refused = rmcp::ServiceError::McpError(rmcp::model::ErrorData::invalid_params("no task", None));
        assert!(!unanswered(&refused), "a server's refusal ends the call at once");
    }

    #[test]
    fn the_second_poll_comes_sooner_within_bounds() {
        assert_eq!(quick_look(1000), 250);
        assert_eq!(quick_look(20), 10);
        assert_eq!(quick_look(10), 10);
        assert_eq!(quick_look(40), 10);
        assert_eq!(quick_look(44), 11);
    }

    #[test]
    fn poll_intervals_are_bounded_at_both_ends() {
        assert_eq!(interval(None), 500);
        assert_eq!(interval(Some(0)), 10);
        assert_eq!(interval(Some(10)), 10);
        assert_eq!(interval(Some(9)), 10);
        assert_eq!(interval(Some(10_000)), 10_000);
        assert_eq!(interval(Some(10_001)), 10_000);
    }

    /// rmcp has no type for a 2025-11-25 `CreateTaskResult`; it must reach
    /// the caller whole (as a custom result), not be taken for another
    /// result and lose its task.
    #[test]
    fn a_core_form_create_task_result_reaches_the_caller_whole() {
        let wire = json!({"task": {"taskId": "t-1", "status": "working", "createdAt": "2026-01-01T00:00:00Z",
            "lastUpdatedAt": "2026-01-01T00:00:00Z", "ttl": 300_000, "pollInterval": 1000}});
        let parsed: ServerResult = serde_json::from_value(wire.clone()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(serde_json::to_value(parsed).unwrap_or_default(), wire);
    }

    #[test]
    fn a_core_form_task_status_keeps_its_status_and_message() {
        let wire = json!({"taskId": "t-1", "status": "input_required", "statusMessage": "which one?",
            "createdAt": "2026-01-01T00:00:00Z", "lastUpdatedAt": "2026-01-01T00:00:00Z", "ttl": 300_000});
        let parsed: ServerResult = serde_json::from_value(wire).unwrap_or_else(|e| panic!("{e}"));
        let value = serde_json::to_value(parsed).unwrap_or_default();
        assert_eq!(value["status"], "input_required");
        assert_eq!(value["statusMessage"], "which one?");
    }
}
