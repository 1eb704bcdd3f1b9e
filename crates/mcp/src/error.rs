//! Why an MCP call or operation failed. The text of each is what the guest
//! reads as the error's message.

/// Why [`McpHub::call`](crate::McpHub::call) or
/// [`McpHub::operation`](crate::McpHub::operation) produced no result.
#[derive(Debug, thiserror::Error)]
pub enum McpCallError {
    /// No configured server has this index.
    #[error("unknown MCP server")]
    UnknownServer,
    /// The request is larger than the server can read; it was not sent.
    #[error(transparent)]
    TooLarge(#[from] RequestTooLarge),
    /// The server is not connected (it is being restarted).
    #[error(
        "MCP server `{server}` is down ({}); it is being restarted, retry in a moment.",
        .reason.as_deref().unwrap_or("not connected yet")
    )]
    Down {
        /// The configured server name.
        server: String,
        /// Why, when a connection attempt failed.
        reason: Option<String>,
    },
    /// The server ran the call as an MCP task, and the task ended without
    /// a result (it failed, was cancelled, or asked for input codemode
    /// cannot give), or could no longer be polled.
    #[error("MCP server `{server}`: the call to `{tool}` ran as MCP task `{task_id}`, and {reason}")]
    TaskFailed {
        /// The configured server name.
        server: String,
        /// The raw tool name.
        tool: String,
        /// The server's task id.
        task_id: String,
        /// What happened to the task.
        reason: String,
    },
    /// `tools/call` failed (a protocol error, or the server went away).
    #[error("MCP server `{server}` failed the call to `{tool}`: {reason}")]
    CallFailed {
        /// The configured server name.
        server: String,
        /// The raw tool name.
        tool: String,
        /// rmcp's error.
        reason: String,
    },
    /// The call's result could not be read as JSON.
    #[error(transparent)]
    Unreadable(#[from] serde_json::Error),
    /// The server did not answer the call in time.
    #[error("MCP server `{server}` did not answer `{tool}` within {ms} ms")]
    CallTimeout {
        /// The configured server name.
        server: String,
        /// The raw tool name.
        tool: String,
        /// The call timeout.
        ms: u128,
    },
    /// A `resources/*` or `prompts/*` operation failed: a missing argument,
    /// an unknown operation, or the server's error.
    #[error("MCP server `{server}`: {op} failed: {reason}")]
    OperationFailed {
        /// The configured server name.
        server: String,
        /// The operation (`resources/read`).
        op: String,
        /// What went wrong.
        reason: String,
    },
    /// The server did not answer the operation in time.
    #[error("MCP server `{server}` did not answer {op} within {ms} ms")]
    OperationTimeout {
        /// The configured server name.
        server: String,
        /// The operation.
        op: String,
        /// The call timeout.
        ms: u128,
    },
}

/// Why [`McpHub::start`](crate::McpHub::start) failed.
#[derive(Debug, thiserror::Error)]
#[error("MCP server `{server}`: {source}")]
pub struct McpHubError {
    /// The configured server name.
    pub server: String,
    /// Why its connection actor could not be spawned.
    #[source]
    pub source: ractor::SpawnErr,
}

/// Why [`McpHub::restart_server`](crate::McpHub::restart_server) started
/// no new connection actor.
#[derive(Debug, thiserror::Error)]
pub enum McpRestartError {
    /// No configured server has this index.
    #[error("unknown MCP server")]
    UnknownServer,
    /// Its connection actor could not be spawned.
    #[error(transparent)]
    Spawn(#[from] McpHubError),
}

/// A `$api` selector that names no tool of a server. The text is the
/// guest's error message: the closest method when one is close, and why
/// the list is empty when the server is down.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no tool `{name}` on server `{server}`{hint} Call MCP.{server}.$api() to list its tools.")]
pub struct UnknownTool {
    /// The name asked for.
    pub name: String,
    /// The server's identifier (`MCP.<identifier>`).
    pub server: String,
    /// What might help.
    pub hint: UnknownToolHint,
}

/// What [`UnknownTool`] suggests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnknownToolHint {
    /// The server is down, so it lists no tools; its last error.
    ServerDown(String),
    /// The method the name most likely meant.
    DidYouMean(String),
    /// Nothing comes close.
    None,
}

impl std::fmt::Display for UnknownToolHint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::ServerDown(error) => write!(f, ": the server is not connected ({error})"),
            Self::DidYouMean(method) => write!(f, "; did you mean `{method}`?"),
            Self::None => Ok(()),
        }
    }
}

/// Required top-level arguments of an MCP tool call that are missing after
/// its defaults were filled in (GA-9.4). The text is the guest's
/// `TypeError` message, as the reference system words it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Missing required MCP namespace {}: {}", if .0.len() > 1 { "arguments" } else { "argument" }, .0.join(", "))]
pub struct MissingArguments(pub Vec<String>);

/// A request too large for the server to read; it was not sent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "MCP server `{server}`: the {what} request is {size} bytes of JSON, over the {limit}-byte ({mib} MiB) limit of a stdio MCP server; it was not sent. Pass less data, e.g. a path or an id instead of the content.",
    mib = limit / (1024 * 1024)
)]
pub struct RequestTooLarge {
    /// The configured server name.
    pub server: String,
    /// The tool or operation.
    pub what: String,
    /// The request's size in bytes (params plus envelope).
    pub size: usize,
    /// The limit in bytes.
    pub limit: usize,
}
