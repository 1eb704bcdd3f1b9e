//! Turning the guest's host requests into host work: tool calls, timers,
//! yields, catalog and API requests, store and results, MCP.

use std::sync::Arc;
use std::time::Instant;

use codemode_catalog::files;
use codemode_catalog::policy::{Decision, NestedCall};
use codemode_store::StoredValue;
use serde_json::Value;

use super::bridge::Submitted;
use super::{CellMode, CellMsg, CellState, Flow, catalog_api, services, vm_lock};
use crate::runs::EndState;
use codemode_bridge::{ErrorCode, Phase};

impl CellState {
    /// Moves the guest's requests from the bridge into host work.
    pub(super) fn take_submissions(&mut self) -> Option<Flow> {
        let (submitted, cancelled) = {
            let mut bridge = vm_lock(&self.bridge);
            // Metadata read synchronously (`$serverName`) marks later writes too.
            self.network |= bridge.network;
            (std::mem::take(&mut bridge.submitted), std::mem::take(&mut bridge.cancelled))
        };
        for id in cancelled {
            self.host.cancel_timer(id);
        }
        let now = Instant::now();
        let mut settled_inline = 0;
        for request in submitted {
            match request {
                Submitted::Call { id, tool, input } => {
                    self.telemetry.call_count += 1;
                    if self.mode.is_headless() && self.telemetry.call_count > self.limits.headless_max_tool_calls {
                        let message = format!(
                            "headless code mode tool budget exceeded ({} tool calls); make fewer calls per script.",
                            self.limits.headless_max_tool_calls
                        );
                        return Some(self.fail_end(
                            ErrorCode::ToolBudgetExceeded,
                            message,
                            Phase::Guest,
                            EndState::Failed,
                        ));
                    }
                    settled_inline += self.host.submit_call(id, tool, input, &self.notify);
                }
                Submitted::Timer { id, delay_ms } => {
                    self.telemetry.timer_count += 1;
                    self.host.add_timer(id, delay_ms, now);
                }
                Submitted::Yield { id, reason } => {
                    self.telemetry.yield_count += 1;
                    self.host.add_yield(id, reason);
                }
                Submitted::Search { id, query, limit } => {
                    self.telemetry.search_count += 1;
                    let catalog = self.catalog.clone();
                    let me = self.myself.clone();
                    self.host.spawn_other(id, "search", async move {
                        let result = catalog.search(query, limit).await;
                        let _ = me.send_message(CellMsg::SearchDone(id, result));
                    });
                }
                Submitted::Describe { id, tool } => {
                    self.telemetry.describe_count += 1;
                    settled_inline += 1;
                    self.host.settle_now(catalog_api::describe(&self.tools, id, tool));
                }
                Submitted::ApiList { id, prefix } => {
                    settled_inline += 1;
                    let files = self.all_api_files();
                    // Listing MCP declarations shows server-provided text.
                    self.network |=
                        !self.mcp.is_empty() && ("mcp/".starts_with(prefix.as_str()) || prefix.starts_with("mcp/"));
                    self.host.settle_now(catalog_api::list(&self.tools, &files, id, &prefix));
                }
                Submitted::ApiRead { id, path } => {
                    settled_inline += 1;
                    let files = self.all_api_files();
                    self.network |= path.starts_with("mcp/");
                    self.host.settle_now(catalog_api::read(&self.tools, &files, id, &path));
                }
                Submitted::Store { id, key, value } => match services::store_session(&self.mode) {
                    Err(refusal) => {
                        settled_inline += 1;
                        self.host.settle_now(services::refused(id, refusal));
                    }
                    Ok(session) => {
                        let value = value.map(|json| StoredValue { json, network: self.network });
                        let buffered: Vec<(String, Option<usize>)> =
                            self.writes.iter().map(|(k, v)| (k.clone(), v.as_ref().map(|v| v.json.len()))).collect();
                        let task = services::store(self.store.clone(), session.to_owned(), buffered, id, key, value);
                        self.spawn_service(id, "store", task);
                    }
                },
                Submitted::Load { id, key } => match services::store_session(&self.mode) {
                    Err(refusal) => {
                        settled_inline += 1;
                        self.host.settle_now(services::refused(id, refusal));
                    }
                    Ok(session) => match services::load_buffered(&self.writes, id, &key) {
                        Some((settlement, network)) => {
                            settled_inline += 1;
                            self.network |= network;
                            self.host.settle_now(settlement);
                        }
                        None => {
                            let task = services::load(self.store.clone(), session.to_owned(), id, key);
                            self.spawn_service(id, "load", task);
                        }
                    },
                },
                // Saving is an effect a replay would repeat (GA-6.5).
                Submitted::ResultSave { id, .. } if self.host.refuse_unless_replay_safe(id, "results.save", false) => {
                    settled_inline += 1;
                }
                Submitted::ResultSave { id, value, json } => {
                    let network = self.network;
                    settled_inline += self.spawn_results(id, "resultSave", |results, scope| {
                        services::result_save(results, scope, id, value, json, network)
                    });
                }
                Submitted::ResultLoad { id, result_id } => {
                    settled_inline += self.spawn_results(id, "resultLoad", |results, scope| {
                        services::result_load(results, scope, id, result_id)
                    });
                }
                // Replay-safe by configuration or by the tool's annotations.
                Submitted::McpCall { id, server, ref tool, .. }
                    if self.host.refuse_unless_replay_safe(
                        id,
                        &format!("MCP tool `{tool}`"),
                        self.mcp.replay_safe(server, tool),
                    ) =>
                {
                    settled_inline += 1;
                }
                Submitted::McpCall { id, server, tool, args } => {
                    let hub = self.mcp.clone();
                    let policy = Arc::clone(&self.policy);
                    let session = match &self.mode {
                        CellMode::Interactive { session, .. } => Some(session.clone()),
                        CellMode::Headless => None,
                    };
                    self.telemetry.call_count += 1;
                    let span = tracing::info_span!(parent: &self.span, "host_call", tool = %tool, source = "mcp");
                    let metrics = Arc::clone(&self.metrics);
                    let task = async move {
                        let started = Instant::now();
                        let call = NestedCall {
                            source: "mcp",
                            server: hub.server_name(server).map(str::to_owned),
                            tool: tool.clone(),
                            arguments: Value::Object(args.clone()),
                            session,
                        };
                        // A denial resolves like an in-band MCP error (GA-9.4).
                        let result = match policy.check(call).await {
                            Decision::Deny(reason) => Ok(serde_json::json!({
                                "content": [{"type": "text", "text": format!("denied by policy: {reason}")}],
                                "isError": true
                            })),
                            Decision::Allow => hub.call(server, tool.clone(), args).await.map_err(|e| e.to_string()),
                        };
                        metrics.call_finished(&tool, "mcp", started.elapsed());
                        let settlement = services::settle_result(id, result, "tool_error");
                        // MCP results are network-derived content (GA-9.3).
                        services::Done::Loaded { settlement, network: true }
                    };
                    self.spawn_service(id, "callValue", tracing::Instrument::instrument(task, span));
                }
                Submitted::McpOp { id, server, op, args } => {
                    let hub = self.mcp.clone();
                    let task = async move {
                        let result = hub.operation(server, &op, args).await.map_err(|e| e.to_string());
                        let settlement = services::settle_result(id, result, "tool_error");
                        services::Done::Loaded { settlement, network: true }
                    };
                    self.spawn_service(id, "namespace", task);
                }
                Submitted::McpApi { id, server, method, schema } => {
                    settled_inline += 1;
                    self.network = true;
                    let tree = self.mcp.tree();
                    let target = server.and_then(|i| tree.servers.iter().find(|s| s.index == i));
                    let result = crate::mcp::api_response(&tree, target, method.as_deref(), schema);
                    self.host.settle_now(services::settle_result(id, result, "invalid_input"));
                }
                Submitted::NodesList { id } => {
                    settled_inline += 1;
                    let list = self.nodes.as_ref().map(crate::nodes::NodeRegistry::list).unwrap_or_default();
                    // Names and platforms are device-provided text (GA-7.7).
                    self.network |= !list.is_empty();
                    let list =
                        serde_json::to_value(&list).map_err(|e| format!("nodes.list could not be answered: {e}"));
                    self.host.settle_now(services::settle_result(id, list, "node_error"));
                }
                Submitted::NodesGet { id, query } => {
                    settled_inline += 1;
                    let resolved = match &self.nodes {
                        Some(nodes) => nodes.resolve(&query).map_err(|e| e.to_string()),
                        None => Err("no paired nodes".to_owned()),
                    };
                    self.network |= resolved.is_ok();
                    let resolved = resolved.and_then(|node| {
                        serde_json::to_value(node).map_err(|e| format!("nodes.get could not be answered: {e}"))
                    });
                    self.host.settle_now(services::settle_result(id, resolved, "node_error"));
                }
                // A device command is an effect outside the host.
                Submitted::NodesInvoke { id, command, .. }
                    if self.host.refuse_unless_replay_safe(id, &format!("nodes invoke `{command}`"), false) =>
                {
                    settled_inline += 1;
                }
                Submitted::NodesInvoke { id, node, command, params } => {
                    self.telemetry.call_count += 1;
                    let task = self.node_invoke(id, node, command, params);
                    self.spawn_service(id, "nodes", task);
                }
                Submitted::ResultDelete { id, result_id } => {
                    settled_inline += self.spawn_results(id, "resultDelete", |results, scope| {
                        services::result_delete(results, scope, id, result_id)
                    });
                }
            }
        }
        if settled_inline > 0 {
            self.release_call_slot(settled_inline);
        }
        None
    }

    /// One `invoke` through the nested-call path (GA-10.3): the policy hook
    /// (which may hold it for approval), the registry's command policy and
    /// timeout, a `host_call` span and call metrics. Dropping the task (the
    /// cell stopped) cancels the command on the node.
    fn node_invoke(
        &self,
        id: u64,
        node: String,
        command: String,
        params: Value,
    ) -> impl std::future::Future<Output = services::Done> + Send + 'static {
        let registry = self.nodes.clone();
        let session = match &self.mode {
            CellMode::Interactive { session, .. } => Some(session.clone()),
            CellMode::Headless => None,
        };
        let span =
            tracing::info_span!(parent: &self.span, "host_call", tool = %command, source = "nodes", node = %node);
        let metrics = Arc::clone(&self.metrics);
        let task = async move {
            let started = Instant::now();
            // The registry puts the call to the host policy (GA-10.3).
            let result = match registry {
                None => Err(format!("node \"{node}\" is not paired")),
                Some(registry) => registry.invoke(session, &node, &command, params).await.map_err(|e| e.to_string()),
            };
            metrics.call_finished(&command, "nodes", started.elapsed());
            let settlement = services::settle_result(id, result, "node_error");
            // Device results are content from outside the host (GA-7.7).
            services::Done::Loaded { settlement, network: true }
        };
        tracing::Instrument::instrument(task, span)
    }

    /// The virtual files now: the host's, plus one declaration per MCP
    /// server and `mcp/index.d.ts` (GA-2.3, GA-9.6).
    fn all_api_files(&self) -> Vec<files::ApiFile> {
        let mut all = self.api_files.as_ref().clone();
        if self.mcp.is_empty() {
            return all;
        }
        let tree = self.mcp.tree();
        let mut add = |path: String, description: String, content: String| {
            all.push(files::ApiFile { path, description, bytes: content.len(), content });
        };
        add(
            "mcp/index.d.ts".into(),
            "Root MCP namespace declaration and server list.".into(),
            crate::mcp::index_declaration(&tree),
        );
        for s in &tree.servers {
            add(
                format!("mcp/{}.d.ts", s.identifier),
                format!("MCP server declaration for {}.", s.server_name),
                crate::mcp::server_declaration(s),
            );
        }
        all
    }

    /// Runs a session-bound request as a task; its answer comes back as
    /// `HostDone`.
    /// Runs a results-cache request in the scope the cell's mode allows, or
    /// refuses it at once (headless and restart-safe cells have no results).
    /// Returns how many requests settled inline: 1 for a refusal, else 0.
    fn spawn_results<F>(
        &mut self,
        id: u64,
        method: &str,
        task: impl FnOnce(codemode_store::ResultsCache, codemode_store::Scope) -> F,
    ) -> usize
    where
        F: std::future::Future<Output = services::Done> + Send + 'static,
    {
        match services::results_scope(&self.mode) {
            Err(refusal) => {
                self.host.settle_now(services::refused(id, refusal));
                1
            }
            Ok(scope) => {
                self.spawn_service(id, method, task(self.results.clone(), scope));
                0
            }
        }
    }

    fn spawn_service(
        &mut self,
        id: u64,
        method: &str,
        task: impl std::future::Future<Output = services::Done> + Send + 'static,
    ) {
        let me = self.myself.clone();
        self.host.spawn_other(id, method, async move {
            let done = task.await;
            let _ = me.send_message(CellMsg::HostDone(id, done));
        });
    }
}
