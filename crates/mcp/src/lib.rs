//! MCP servers as typed guest namespaces for codemode:
//! `MCP.<server>.<tool>(args)` (GA-9, reference notes §7).
//!
//! Each configured server has one connection actor ([`server`]) that keeps
//! an `rmcp` client session to it. The [`McpHub`] publishes a read-mostly
//! snapshot of every server's tools — the [`McpTree`] a new cell builds its
//! `MCP` namespace from — and routes calls to the right connection.

#![deny(clippy::unwrap_used, clippy::expect_used)]

mod dts;
mod error;
#[cfg(test)]
mod golden_tests;
pub mod naming;
mod probe;
mod server;

use std::collections::HashSet;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use codemode_bridge::budget::truncate_utf16;
use codemode_catalog::{McpHandle, McpSource};
use ractor::{Actor, ActorCell};
use serde::Serialize;
use serde_json::{Map, Value};

pub use dts::{api_response, index_declaration, server_declaration, unknown_tool};
pub use error::{McpCallError, McpHubError, McpRestartError, MissingArguments, UnknownTool, UnknownToolHint};
pub use probe::{ProbeReport, probe};
use server::{McpServerActor, ServerHandle, ServerView};
pub use server::{McpStartError, RequestTooLarge};

/// How to reach one MCP server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum McpTransport {
    /// A child process speaking MCP on stdio.
    Stdio {
        /// The program to run.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Extra environment variables. Besides these the server sees only
        /// a short safe list of the host's (`PATH`, `HOME`, `USER`, the
        /// locale…), never its secrets.
        env: Vec<(String, String)>,
    },
    /// A server speaking streamable HTTP at `url`.
    Http {
        /// The MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`.
        url: String,
    },
}

/// One configured MCP server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McpServerConfig {
    /// The server's configured name (`$serverName`).
    pub name: String,
    /// How to reach it.
    pub transport: McpTransport,
    /// How long one call may take.
    pub call_timeout: Duration,
    /// Whether every tool of the server may be re-run by a `restartSafe`
    /// cell: `Some` overrides the tools' own annotations.
    pub replay_safe: Option<bool>,
    /// Raw tool names that are replay-safe whatever the server-wide
    /// setting and the annotations say.
    pub replay_safe_tools: Vec<String>,
}

impl McpServerConfig {
    /// A stdio server run as `command args…`, with a 60 s call timeout.
    pub fn stdio(name: impl Into<String>, command: impl Into<String>, args: Vec<String>) -> Self {
        Self {
            name: name.into(),
            transport: McpTransport::Stdio { command: command.into(), args, env: Vec::new() },
            call_timeout: Duration::from_secs(60),
            replay_safe: None,
            replay_safe_tools: Vec::new(),
        }
    }

    /// A streamable HTTP server at `url`, with a 60 s call timeout.
    pub fn http(name: impl Into<String>, url: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            transport: McpTransport::Http { url: url.into() },
            call_timeout: Duration::from_secs(60),
            replay_safe: None,
            replay_safe_tools: Vec::new(),
        }
    }

    /// Adds an environment variable (stdio servers). A stdio server does
    /// not inherit the host's environment beyond a short safe list
    /// (`HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`, `LANG`,
    /// `LC_ALL`, `TMPDIR`); pass what it needs here.
    #[must_use]
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        if let McpTransport::Stdio { env, .. } = &mut self.transport {
            env.push((key.into(), value.into()));
        }
        self
    }

    /// Sets how long one call may take.
    #[must_use]
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// Declares every tool of the server replay-safe (`true`) or not
    /// (`false`), overriding the tools' `readOnlyHint`/`idempotentHint`
    /// annotations, which decide otherwise.
    #[must_use]
    pub fn replay_safe(mut self, replay_safe: bool) -> Self {
        self.replay_safe = Some(replay_safe);
        self
    }

    /// Declares one tool (by its raw MCP name) replay-safe.
    #[must_use]
    pub fn replay_safe_tool(mut self, tool: impl Into<String>) -> Self {
        self.replay_safe_tools.push(tool.into());
        self
    }
}

/// One tool as the server lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct McpToolInfo {
    /// The raw MCP tool name.
    pub name: String,
    /// Its description (untrusted).
    pub description: String,
    /// Its input JSON Schema.
    pub input_schema: Value,
    /// Its output JSON Schema (`outputSchema`), when it declares one: the
    /// shape of the result's `structuredContent`.
    pub output_schema: Option<Value>,
    /// Its annotations say running it again is harmless (`readOnlyHint`
    /// or `idempotentHint`): the default of its replay safety.
    pub annotated_replay_safe: bool,
}

/// One tool in the guest namespace.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct McpMethod {
    /// The identifier it is called by (`listInvoices`, `listInvoices2`).
    pub method: String,
    /// The raw MCP tool name.
    pub tool_name: String,
    /// Description, as the server gave it.
    pub description: String,
    /// Input schema.
    pub input_schema: Value,
    /// Required top-level properties without a default.
    pub required: Vec<String>,
    /// Top-level defaults, filled in when a call leaves them out.
    pub defaults: Map<String, Value>,
    /// Whether the call may omit its argument (no required field lacks a
    /// default). The declaration's `input?` and the namespace's check of a
    /// no-argument call both read this one field, so they cannot disagree.
    pub input_optional: bool,
    /// Output schema of `structuredContent`, when the tool declares one.
    pub output_schema: Option<Value>,
    /// Other names the tool answers to in the namespace: its raw MCP name
    /// when that differs from `method` and no other method has it.
    /// Non-enumerable in the guest, so `Object.keys` lists methods only.
    pub aliases: Vec<String>,
}

/// One server in the guest namespace.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct McpServerTree {
    /// Position in the hub (the call route).
    pub index: usize,
    /// `MCP.<identifier>`.
    pub identifier: String,
    /// The configured name.
    pub server_name: String,
    /// Whether the server is connected now.
    pub up: bool,
    /// Why it is not connected, when it is not and a connection attempt
    /// failed (the spawn error, the exit, the last lines of its stderr).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// It offers `resources.list/read`.
    pub resources: bool,
    /// It offers `prompts.list/get`.
    pub prompts: bool,
    /// Its tools, sorted by method.
    pub methods: Vec<McpMethod>,
}

/// The whole namespace at one moment.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct McpTree {
    /// Servers, sorted by name.
    pub servers: Vec<McpServerTree>,
}

/// A tool input schema's top-level defaults, and its required properties
/// that have no default (in the schema's order).
fn defaults_and_required(schema: &Value) -> (Map<String, Value>, Vec<String>) {
    let props = schema.get("properties").and_then(Value::as_object);
    let defaults: Map<String, Value> = props
        .map(|p| p.iter().filter_map(|(k, s)| s.get("default").map(|d| (k.clone(), d.clone()))).collect())
        .unwrap_or_default();
    let required: Vec<String> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).filter(|k| !defaults.contains_key(*k)).map(str::to_owned).collect())
        .unwrap_or_default();
    (defaults, required)
}

fn methods(tools: &[McpToolInfo]) -> Vec<McpMethod> {
    let mut sorted: Vec<&McpToolInfo> = tools.iter().collect();
    // localeCompare order: `list_invoices` comes before `listInvoices` and
    // keeps the plain identifier (reference notes §7.1).
    sorted.sort_by(|a, b| codemode_catalog::collate::locale_cmp(&a.name, &b.name));
    let mut used = HashSet::new();
    let mut out: Vec<McpMethod> = sorted
        .into_iter()
        .map(|t| {
            let method = naming::unique(&naming::to_identifier(&t.name, "tool"), &mut used, naming::SERVER_MEMBERS);
            let (defaults, required) = defaults_and_required(&t.input_schema);
            McpMethod {
                method,
                tool_name: t.name.clone(),
                description: t.description.clone(),
                input_schema: t.input_schema.clone(),
                input_optional: required.is_empty(),
                required,
                defaults,
                output_schema: t.output_schema.clone(),
                aliases: Vec::new(),
            }
        })
        .collect();
    // A raw name is an alias only when it is no method's identifier: the
    // normalized name wins a collision (GA-9.5), as in `$api`.
    let taken: HashSet<String> = out.iter().map(|m| m.method.clone()).collect();
    for m in &mut out {
        if m.tool_name != m.method && !taken.contains(&m.tool_name) && !naming::reserved_member(&m.tool_name) {
            m.aliases.push(m.tool_name.clone());
        }
    }
    out.sort_by(|a, b| a.method.cmp(&b.method));
    out
}

/// The namespace of `servers` — `(index, configured name, what its
/// connection published)` — ordered by configured name, each server's
/// identifier unique among them.
fn tree_of(mut servers: Vec<(usize, &str, ServerView)>) -> McpTree {
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
            methods: methods(&view.tools),
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
            let (actor, _) = Actor::spawn(None, McpServerActor, (config.clone(), Arc::clone(&view)))
                .await
                .map_err(|source| McpHubError { server: config.name.clone(), source })?;
            let max_request_bytes = match config.transport {
                McpTransport::Stdio { .. } => Some(server::MAX_STDIO_REQUEST_BYTES),
                // A request is one HTTP body, not a line; a server that
                // refuses its size answers with an error instead of silence.
                McpTransport::Http { .. } => None,
            };
            let actor = Arc::new(Mutex::new(actor));
            servers.push((config, ServerHandle { actor, view, max_request_bytes }));
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
        let (actor, _) =
            Actor::spawn_linked(None, McpServerActor, (config.clone(), Arc::clone(&handle.view)), supervisor)
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
                    view.tools.retain(|t| policy.visible("mcp", Some(&config.name), &t.name));
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
        let mut result = handle.operation(&config.name, op, args, config.call_timeout).await?;
        if let Some(obj) = result.as_object_mut() {
            obj.remove("_meta");
        }
        Ok(result)
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
        let (config, handle) = self.servers.get(index).ok_or(McpCallError::UnknownServer)?;
        let mut result = handle.call(&config.name, tool, args, config.call_timeout).await?;
        if let Some(obj) = result.as_object_mut() {
            obj.remove("_meta");
        }
        Ok(result)
    }
}

/// The catalog's search handles of every method in `tree`, in namespace
/// order: no input or output hints, the remote description cut at 512
/// UTF-16 units (GA-9.1, GA-9.2).
#[must_use]
pub fn handles(tree: &McpTree) -> Vec<McpHandle> {
    tree.servers
        .iter()
        .flat_map(|s| {
            s.methods.iter().map(move |m| McpHandle {
                callable_name: format!("MCP.{}.{}", s.identifier, m.method),
                tool_name: m.tool_name.clone(),
                description: truncate_utf16(&m.description, 512, ""),
                source: "mcp",
                api_path: format!("mcp/{}.d.ts", s.identifier),
                server: s.identifier.clone(),
                method: m.method.clone(),
            })
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn colliding_tool_names_both_stay_reachable_with_defaults_and_required() {
        let tools = vec![
            McpToolInfo {
                annotated_replay_safe: false,
                name: "listInvoices".into(),
                description: String::new(),
                input_schema: json!({}),
                output_schema: None,
            },
            McpToolInfo {
                annotated_replay_safe: false,
                name: "list_invoices".into(),
                description: String::new(),
                input_schema: json!({"properties": {"currency": {"default": "EUR"}, "customer": {}}, "required": ["currency", "customer"]}),
                output_schema: None,
            },
        ];
        let m = methods(&tools);
        let pairs: Vec<(&str, &str)> = m.iter().map(|x| (x.method.as_str(), x.tool_name.as_str())).collect();
        assert_eq!(pairs, vec![("listInvoices", "list_invoices"), ("listInvoices2", "listInvoices")]);
        assert_eq!(m[0].required, vec!["customer"]);
        assert_eq!(m[0].defaults.get("currency"), Some(&json!("EUR")));
        // `list_invoices` is no method's name, so it is an alias of
        // `listInvoices`; `listInvoices` (raw) is taken by the normalized
        // name of `list_invoices`, which wins (GA-9.5).
        assert_eq!(m[0].aliases, vec!["list_invoices"]);
        assert!(m[1].aliases.is_empty());
        assert!(!m[0].input_optional && m[1].input_optional);
    }

    #[test]
    fn missing_arguments_are_named_in_the_schema_order_with_the_reference_wording_ga_9_4() {
        let schema = json!({"properties": {"a": {}, "b": {"default": 2}, "c": {}}, "required": ["c", "b", "a"]});
        let (defaults, required) = defaults_and_required(&schema);
        assert_eq!(required, vec!["c", "a"], "a required property with a default is never missing");
        assert_eq!(defaults.get("b"), Some(&json!(2)));
        assert_eq!(
            MissingArguments(vec!["c".into(), "a".into()]).to_string(),
            "Missing required MCP namespace arguments: c, a"
        );
        assert_eq!(MissingArguments(vec!["a".into()]).to_string(), "Missing required MCP namespace argument: a");
    }
}
