//! The [`McpHub`]: every configured MCP server's connection actor, the
//! namespace new cells see, and the routing of calls to the right
//! connection.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use codemode_catalog::{McpHandle, McpSource};
use ractor::{Actor, ActorCell};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::config::{McpServerConfig, McpTransport};
use crate::error::{McpCallError, McpHubError, McpRestartError, MissingArguments};
use crate::naming;
use crate::server::{self, McpServerActor, ServerHandle, ServerView};
use crate::tasks::{McpTask, OnInput, TaskHooks};
use crate::tree::{McpServerTree, McpTree, defaults_and_required, handles, methods};

/// The namespace of `servers` — `(index, configured name, what its
/// connection published)` — ordered by configured name, each server's
/// identifier unique among them.
pub(crate) fn tree_of(mut servers: Vec<(usize, &str, ServerView)>) -> McpTree {
    servers.sort_by(|a, b| a.1.cmp(b.1));
    let mut used: HashSet<String> = HashSet::new();
    let reserved = naming::server_reserved();
    let servers = servers
        .into_iter()
        .map(|(index, name, view)| McpServerTree {
            index,
            identifier: naming::unique(&naming::to_identifier(name, "server"), &mut used, &reserved),
            server_name: name.to_owned(),
            up: view.up,
            error: if view.up { None } else { view.last_error.clone() },
            resources: view.resources,
            prompts: view.prompts,
            methods: methods(&view.tools, |tool| view.tasks_extension || view.core_task_tools.contains(tool)),
        })
        .collect();
    McpTree { servers }
}

/// One server's state, for operators (`codemode config check`, logs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct McpServerStatus {
    /// The configured name.
    pub name: String,
    /// Whether it is connected now.
    pub up: bool,
    /// How many tools it lists (before the policy hides any).
    pub tool_count: usize,
    /// Why it is down, when a connection attempt failed.
    pub error: Option<String>,
}

/// Every configured MCP server, connected in the background.
#[derive(Clone, Default)]
pub struct McpHub {
    servers: Vec<(McpServerConfig, ServerHandle)>,
    visible: Option<Arc<dyn codemode_catalog::policy::Policy>>,
}

impl std::fmt::Debug for McpHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpHub").field("servers", &self.servers.len()).finish_non_exhaustive()
    }
}

impl McpHub {
    /// Starts one connection actor per server (each connects and lists its
    /// tools in the background).
    ///
    /// # Errors
    /// An actor could not be spawned.
    pub async fn start(
        configs: Vec<McpServerConfig>,
        policy: Arc<dyn codemode_catalog::policy::Policy>,
    ) -> Result<Self, McpHubError> {
        let mut servers = Vec::new();
        for config in configs {
            let view = Arc::new(RwLock::new(ServerView::default()));
            let inputs = crate::tasks::Inputs::default();
            let (actor, _) = Actor::spawn(None, McpServerActor, (config.clone(), Arc::clone(&view), inputs.clone()))
                .await
                .map_err(|source| McpHubError { server: config.name.clone(), source })?;
            let max_request_bytes = match config.transport {
                McpTransport::Stdio { .. } => Some(server::MAX_STDIO_REQUEST_BYTES),
                // A request is one HTTP body, not a line; a server that
                // refuses its size answers with an error instead of silence.
                McpTransport::Http { .. } => None,
            };
            let actor = Arc::new(Mutex::new(actor));
            servers.push((config, ServerHandle { actor, view, max_request_bytes, inputs }));
        }
        Ok(Self { servers, visible: Some(policy) })
    }

    /// Stops every connection (their child processes end with them).
    pub fn stop(&self) {
        for (_, handle) in &self.servers {
            handle.actor().stop(None);
        }
    }

    /// The current connection actors, in configuration order, for a
    /// supervisor to link.
    #[must_use]
    pub fn actors(&self) -> Vec<ActorCell> {
        self.servers.iter().map(|(_, h)| h.actor().get_cell()).collect()
    }

    /// Starts a new connection actor for server `index` after its last one
    /// crashed, linked to `supervisor`; it reconnects and publishes into
    /// the same view, so the hub's calls reach it.
    ///
    /// # Errors
    /// An unknown server, or the actor could not be spawned.
    pub async fn restart_server(&self, index: usize, supervisor: ActorCell) -> Result<ActorCell, McpRestartError> {
        let (config, handle) = self.servers.get(index).ok_or(McpRestartError::UnknownServer)?;
        let (actor, _) = Actor::spawn_linked(
            None,
            McpServerActor,
            (config.clone(), Arc::clone(&handle.view), handle.inputs.clone()),
            supervisor,
        )
        .await
        .map_err(|source| McpHubError { server: config.name.clone(), source })?;
        let cell = actor.get_cell();
        *handle.actor.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = actor;
        Ok(cell)
    }

    /// Makes server `index`'s connection actor panic, so its supervisor
    /// restarts it (supervision tests only); returns whether it was sent.
    #[doc(hidden)]
    #[cfg(feature = "test-hooks")]
    pub fn crash_server_for_test(&self, index: usize) -> bool {
        self.servers.get(index).is_some_and(|(_, h)| h.actor().send_message(server::McpMsg::Crash).is_ok())
    }

    /// Whether any server is configured.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.servers.is_empty()
    }

    /// Waits until every server is connected, or `timeout` passes, or each
    /// one that is not has failed its latest attempt to start (a stdio
    /// server whose program is missing or exited at once: waiting longer
    /// would not help, and [`status`](Self::status) says why); returns
    /// whether all are up.
    pub async fn ready(&self, timeout: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let views: Vec<(bool, bool)> = self
                .servers
                .iter()
                .map(|(_, h)| {
                    let v = h.view.read().unwrap_or_else(std::sync::PoisonError::into_inner);
                    (v.up, v.attempt_failed)
                })
                .collect();
            let all_up = views.iter().all(|(up, _)| *up);
            let settled = views.iter().all(|(up, failed)| *up || *failed);
            if all_up || settled || tokio::time::Instant::now() >= deadline {
                return all_up;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Every server's state now, in configuration order: connected or
    /// not, its tool count, and why it is down.
    #[must_use]
    pub fn status(&self) -> Vec<McpServerStatus> {
        self.servers
            .iter()
            .map(|(config, handle)| {
                let v = handle.view.read().unwrap_or_else(std::sync::PoisonError::into_inner);
                McpServerStatus {
                    name: config.name.clone(),
                    up: v.up,
                    tool_count: v.tools.len(),
                    error: if v.up { None } else { v.last_error.clone() },
                }
            })
            .collect()
    }

    /// The namespace new cells see now.
    #[must_use]
    pub fn tree(&self) -> McpTree {
        let views = self
            .servers
            .iter()
            .enumerate()
            .map(|(index, (config, handle))| {
                let mut view = handle.view.read().map(|v| v.clone()).unwrap_or_default();
                // Tools the policy hides have no MCP path at all.
                if let Some(policy) = &self.visible {
                    view.tools.retain(|t| {
                        policy.visible(codemode_catalog::policy::CallSource::Mcp, Some(&config.name), &t.name)
                    });
                }
                (index, config.name.as_str(), view)
            })
            .collect();
        tree_of(views)
    }

    /// An MCP operation (`resources/list`, `resources/read`, `prompts/list`,
    /// `prompts/get`) on server `index`.
    ///
    /// # Errors
    /// As for [`call`](Self::call).
    pub async fn operation(&self, index: usize, op: &str, args: Map<String, Value>) -> Result<Value, McpCallError> {
        let (config, handle) = self.servers.get(index).ok_or(McpCallError::UnknownServer)?;
        let result = handle.operation(&config.name, op, args, config.call_timeout).await?;
        Ok(without_meta(result))
    }

    /// Whether a `restartSafe` cell may call `tool` (its raw name) on server
    /// `index`: the configured tool list, else the server-wide setting,
    /// else the tool's own annotations; an unknown tool is not.
    #[must_use]
    pub fn replay_safe(&self, index: usize, tool: &str) -> bool {
        let Some((config, handle)) = self.servers.get(index) else { return false };
        if config.replay_safe_tools.iter().any(|t| t == tool) {
            return true;
        }
        if let Some(all) = config.replay_safe {
            return all;
        }
        handle.view.read().map(|v| v.tools.iter().any(|t| t.name == tool && t.annotated_replay_safe)).unwrap_or(false)
    }

    /// Completes the arguments of a call to `tool` (its raw name) on server
    /// `index` as the namespace promises (GA-9.4): each top-level default
    /// the call left out is filled in, then every required property still
    /// missing is named. A tool the server no longer lists is left as
    /// given: the call itself then fails with the server's answer.
    ///
    /// # Errors
    /// [`MissingArguments`], in the schema's order of `required`.
    pub fn complete_arguments(
        &self,
        index: usize,
        tool: &str,
        args: &mut Map<String, Value>,
    ) -> Result<(), MissingArguments> {
        let Some((_, handle)) = self.servers.get(index) else { return Ok(()) };
        let view = handle.view.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(info) = view.tools.iter().find(|t| t.name == tool) else { return Ok(()) };
        let (defaults, required) = defaults_and_required(&info.input_schema);
        drop(view);
        for (key, value) in defaults {
            args.entry(key).or_insert(value);
        }
        let missing: Vec<String> = required.into_iter().filter(|k| !args.contains_key(k)).collect();
        if missing.is_empty() { Ok(()) } else { Err(MissingArguments(missing)) }
    }

    /// Whether server `index` listed `tool` (its raw name) when last
    /// connected: the host-known tool names (metrics label only these).
    #[must_use]
    pub fn declares(&self, index: usize, tool: &str) -> bool {
        let Some((_, handle)) = self.servers.get(index) else { return false };
        handle.view.read().unwrap_or_else(std::sync::PoisonError::into_inner).tools.iter().any(|t| t.name == tool)
    }

    /// The index of the server configured as `name`.
    #[must_use]
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.servers.iter().position(|(c, _)| c.name == name)
    }

    /// The configured name of server `index`.
    #[must_use]
    pub fn server_name(&self, index: usize) -> Option<&str> {
        self.servers.get(index).map(|(c, _)| c.name.as_str())
    }

    /// Calls `tool` on server `index` with `args`; the native MCP result with
    /// its top-level `_meta` removed (GA-11.3).
    ///
    /// # Errors
    /// [`McpCallError`]: an unknown server, a server that is down, a
    /// request too large, a timeout or a protocol failure; its text is the
    /// message for the model.
    pub async fn call(&self, index: usize, tool: String, args: Map<String, Value>) -> Result<Value, McpCallError> {
        self.call_with_tasks(index, tool, args, TaskHooks::default()).await
    }

    /// [`call`](Self::call), learning the MCP task when the server runs the
    /// call as one: `hooks.on_task` is called with it once, before the
    /// first poll, so the caller can make it durable and later
    /// [`resume_task`](Self::resume_task) or [`cancel_task`](Self::cancel_task);
    /// `hooks.on_input` answers the task's requests for input.
    ///
    /// # Errors
    /// As for [`call`](Self::call), and [`McpCallError::TaskFailed`] when
    /// the task ends without a result.
    pub async fn call_with_tasks(
        &self,
        index: usize,
        tool: String,
        args: Map<String, Value>,
        hooks: TaskHooks,
    ) -> Result<Value, McpCallError> {
        let (config, handle) = self.servers.get(index).ok_or(McpCallError::UnknownServer)?;
        let result = handle.call(&config.name, tool, args, config.call_timeout, hooks).await?;
        Ok(without_meta(result))
    }

    /// Polls a task a call to `tool` on server `index` created, maybe on
    /// another process, until it ends: the call's result, as
    /// [`call`](Self::call) gives it. Waits up to the call timeout for the
    /// server to be connected.
    ///
    /// # Errors
    /// As for [`call_with_tasks`](Self::call_with_tasks).
    pub async fn resume_task(
        &self,
        index: usize,
        tool: &str,
        task: &McpTask,
        on_input: Option<OnInput>,
    ) -> Result<Value, McpCallError> {
        let (config, handle) = self.servers.get(index).ok_or(McpCallError::UnknownServer)?;
        let result = handle.resume_task(&config.name, tool, task, config.call_timeout, on_input).await?;
        Ok(without_meta(result))
    }

    /// Asks server `index` to cancel a task (cooperative: the server may
    /// still finish it).
    ///
    /// # Errors
    /// The server is down or refused.
    pub async fn cancel_task(&self, index: usize, tool: &str, task: &McpTask) -> Result<(), McpCallError> {
        let (config, handle) = self.servers.get(index).ok_or(McpCallError::UnknownServer)?;
        handle.cancel_task(&config.name, tool, task, config.call_timeout).await
    }
}

/// A result without its top-level `_meta` (GA-11.3).
fn without_meta(mut result: Value) -> Value {
    if let Some(obj) = result.as_object_mut() {
        obj.remove("_meta");
    }
    result
}

/// Search sees the namespace new cells see.
impl McpSource for McpHub {
    fn handles(&self) -> Vec<McpHandle> {
        if self.is_empty() {
            return Vec::new();
        }
        handles(&self.tree())
    }
}
