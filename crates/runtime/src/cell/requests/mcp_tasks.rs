//! What an MCP call gives the hub so that a server's task reaches its
//! cell: the task itself, journaled the moment it is known, and the task's
//! requests for input, each asked like an approval (GA-10.3) — approving
//! accepts the form with its defaults, denying declines it, an expiry
//! cancels it; the call goes on either way.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use codemode_protocol::{InputAnswer, InputAsk, McpTask, OnInput, OnTask, TaskHooks, form_defaults, form_missing};
use serde_json::json;
use tokio::sync::oneshot;

use codemode_catalog::policy::{Decision, NestedCall};

use super::asked::{Asked, AskedCall, Refusal, Ruling};
use super::done::{Done, TaskStarted};
use super::outbound::CallHooks;

/// Longest server text (an input request's message) a pending approval
/// quotes: the server is a third party.
const MAX_MESSAGE_BYTES: usize = 1024;

/// An answer to a task's input request that the journal already had.
#[derive(Debug)]
pub(crate) enum RestoredInput {
    /// Still pending: the restored approval's answer comes here.
    Awaiting(oneshot::Receiver<Ruling>),
    /// Decided before the restart.
    Decided(Ruling),
}

/// A call that already runs as a task (a resumed run): the task, and its
/// input requests as the journal left them, by key.
#[derive(Debug)]
pub(crate) struct ResumedTask {
    pub task: McpTask,
    pub inputs: HashMap<String, RestoredInput>,
}

/// The hooks of a call to `tool` on `server`. An answer to the task's
/// request for input leaves the cell: the policy sees it first (as the
/// tool, with the request as its arguments) and a denial declines it
/// without asking anyone; otherwise a person decides, as for an asked
/// call.
pub(super) fn hooks(
    call: &CallHooks,
    server: String,
    tool: String,
    restored: HashMap<String, RestoredInput>,
) -> TaskHooks {
    let (id, completion) = (call.request, &call.completion);
    let (policy, session) = (Arc::clone(&call.policy), call.session.clone());
    let on_task: OnTask = {
        let (completion, server, tool) = (completion.clone(), server.clone(), tool.clone());
        Box::new(move |task: &McpTask| {
            completion(id, Done::TaskStarted(TaskStarted { server, tool, task: task.clone() }));
        })
    };
    let restored = Arc::new(Mutex::new(restored));
    let completion = completion.clone();
    let on_input: OnInput = Arc::new(move |ask: InputAsk| {
        let (completion, restored) = (completion.clone(), Arc::clone(&restored));
        let (server, tool) = (server.clone(), tool.clone());
        let (policy, session) = (Arc::clone(&policy), session.clone());
        Box::pin(async move {
            let InputAsk { key, message, schema } = ask;
            let earlier = restored.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&key);
            if earlier.is_none() && policy.inspects_calls() {
                let seen = NestedCall {
                    source: codemode_catalog::policy::CallSource::Mcp,
                    server: Some(server.clone()),
                    tool: tool.clone(),
                    arguments: json!({"input": &message, "requestedSchema": &schema}),
                    session,
                };
                if let Decision::Deny(_) = policy.check(seen).await {
                    return InputAnswer::Decline;
                }
            }
            let answer = match earlier {
                Some(RestoredInput::Decided(answer)) => Ok(answer),
                Some(RestoredInput::Awaiting(rx)) => rx.await,
                None => {
                    let message = codemode_protocol::budget::utf8_prefix(&message, MAX_MESSAGE_BYTES);
                    let missing = form_missing(&schema);
                    let left_out = if missing.is_empty() {
                        String::new()
                    } else {
                        format!(" (its required fields without one are left empty: {})", missing.join(", "))
                    };
                    let reason = format!(
                        "the MCP task asks for input: {message} Approving accepts the form with its \
                         defaults{left_out}; denying declines it."
                    );
                    let call = AskedCall {
                        source: "mcp",
                        server: Some(server.clone()),
                        arguments: json!({"input": message, "requestedSchema": &schema}),
                        what: format!("MCP tool {server}.{tool}"),
                        tool,
                    };
                    let (tx, rx) = oneshot::channel();
                    completion(id, Done::Asked(Asked { call, reason, answer: tx, task_input: Some(key) }));
                    rx.await
                }
            };
            match answer {
                Ok(Ruling::Run) => InputAnswer::Accept(form_defaults(&schema)),
                // Nobody decided in time, or the cell ended: no answer.
                Ok(Ruling::Refuse(Refusal::Expired(_))) | Err(_) => InputAnswer::Cancel,
                Ok(Ruling::Refuse(_)) => InputAnswer::Decline,
            }
        })
    });
    TaskHooks { on_task: Some(on_task), on_input: Some(on_input) }
}
