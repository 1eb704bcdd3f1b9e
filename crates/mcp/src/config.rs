//! How to reach each configured MCP server: its transport, call timeout
//! and replay safety.

use std::time::Duration;

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
