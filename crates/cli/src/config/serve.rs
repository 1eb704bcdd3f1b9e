//! `[serve]`: who may connect to `codemode serve`, how many MCP sessions
//! each principal may hold open and how long an idle one lasts, and how
//! long a closed connection's cells and a shutdown's running calls are
//! given.

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

/// `[serve]`: authentication and connection lifetime of `codemode serve`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct ServeSection {
    /// Bearer tokens, each naming the principal it authenticates. With
    /// none, HTTP serving is only allowed on a loopback address.
    pub tokens: Vec<ServeToken>,
    /// `Host` header values HTTP requests may carry (DNS-rebinding guard);
    /// empty: the loopback names plus the bound address.
    pub allowed_hosts: Vec<String>,
    /// How long a closed connection's live cells are kept (another
    /// connection of the same principal and session key may wait on them)
    /// before they are disposed, in milliseconds.
    pub dispose_grace_ms: u64,
    /// On SIGTERM or SIGINT: how long cells already in a window (a running
    /// `exec` or `wait` call) may take to finish before the runtime is shut
    /// down anyway, in milliseconds. `serve --shutdown-grace-ms` overrides.
    pub shutdown_grace_ms: u64,
    /// Over HTTP: how long an MCP session may stay idle (no request of it
    /// being answered, no message from its client) before the server
    /// closes it, in milliseconds. Clients that never end their sessions
    /// would otherwise hold them, and what each holds, for good.
    pub session_idle_ttl_ms: u64,
    /// Over HTTP: the most MCP sessions one principal may have open at
    /// once; a further `initialize` is refused (HTTP 429) until one closes.
    pub max_sessions_per_principal: usize,
}

/// The default `[serve] shutdown_grace_ms`: a cell's default wall-clock
/// budget (10 s), so a window that started just before the signal can end.
pub(crate) const DEFAULT_SHUTDOWN_GRACE_MS: u64 = 10_000;

/// The longest `[serve] shutdown_grace_ms` accepted: ten minutes (process
/// supervisors rarely wait that long before SIGKILL).
pub(crate) const MAX_SHUTDOWN_GRACE_MS: u64 = 600_000;

/// The default `[serve] session_idle_ttl_ms`: five minutes, as long as
/// rmcp's own idle timeout, which it replaces.
pub(crate) const DEFAULT_SESSION_IDLE_TTL_MS: u64 = 300_000;

/// The range of `[serve] session_idle_ttl_ms`: a second to a day.
const SESSION_IDLE_TTL_MS: std::ops::RangeInclusive<u64> = 1_000..=86_400_000;

/// The default `[serve] max_sessions_per_principal`: far more than an agent
/// keeps open, while bounding what a leaking client can pile up.
pub(crate) const DEFAULT_MAX_SESSIONS_PER_PRINCIPAL: usize = 256;

/// The range of `[serve] max_sessions_per_principal`.
const MAX_SESSIONS_PER_PRINCIPAL: std::ops::RangeInclusive<usize> = 1..=100_000;

impl Default for ServeSection {
    fn default() -> Self {
        Self {
            tokens: Vec::new(),
            allowed_hosts: Vec::new(),
            dispose_grace_ms: 30_000,
            shutdown_grace_ms: DEFAULT_SHUTDOWN_GRACE_MS,
            session_idle_ttl_ms: DEFAULT_SESSION_IDLE_TTL_MS,
            max_sessions_per_principal: DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
        }
    }
}

/// One `[serve] tokens` entry.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ServeToken {
    /// The secret a client presents as `Authorization: Bearer <token>`.
    pub token: String,
    /// Who the token authenticates: its cells, store and runs are its own.
    pub principal: String,
}

/// The shortest `[serve]` token accepted: 128 bits of hex.
const MIN_SERVE_TOKEN_CHARS: usize = 32;

impl ServeSection {
    pub(super) fn check(&self) -> Result<()> {
        if self.dispose_grace_ms > 3_600_000 {
            bail!("serve.dispose_grace_ms = {} is out of range: allowed 0..=3600000", self.dispose_grace_ms);
        }
        if self.shutdown_grace_ms > MAX_SHUTDOWN_GRACE_MS {
            bail!(
                "serve.shutdown_grace_ms = {} is out of range: allowed 0..={MAX_SHUTDOWN_GRACE_MS}",
                self.shutdown_grace_ms
            );
        }
        if !SESSION_IDLE_TTL_MS.contains(&self.session_idle_ttl_ms) {
            bail!(
                "serve.session_idle_ttl_ms = {} is out of range: allowed {}..={}",
                self.session_idle_ttl_ms,
                SESSION_IDLE_TTL_MS.start(),
                SESSION_IDLE_TTL_MS.end()
            );
        }
        if !MAX_SESSIONS_PER_PRINCIPAL.contains(&self.max_sessions_per_principal) {
            bail!(
                "serve.max_sessions_per_principal = {} is out of range: allowed {}..={}",
                self.max_sessions_per_principal,
                MAX_SESSIONS_PER_PRINCIPAL.start(),
                MAX_SESSIONS_PER_PRINCIPAL.end()
            );
        }
        let mut seen = std::collections::HashSet::new();
        for (i, t) in self.tokens.iter().enumerate() {
            if t.token.chars().count() < MIN_SERVE_TOKEN_CHARS {
                bail!("serve.tokens[{i}].token is too short: use at least {MIN_SERVE_TOKEN_CHARS} characters");
            }
            if !seen.insert(&t.token) {
                bail!("serve.tokens[{i}].token repeats an earlier token: each token names one principal");
            }
            super::check_name(&format!("serve.tokens[{i}].principal"), &t.principal)?;
        }
        Ok(())
    }
}
