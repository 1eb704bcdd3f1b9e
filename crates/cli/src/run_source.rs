//! Where `codemode runs` acts: the configured store directly (a local
//! [`Operator`]), or a running server's operator API (`--server`), which
//! acts through the server's own `Operator`. Both answer with the same
//! types, so every command prints alike either way.

use std::time::Duration;

use anyhow::{Context, Result, bail};
use codemode_runtime::ApprovalRecord;
use codemode_runtime::operator::{AbortOutcome, Operator, RunDetail, RunPage, RunQuery, SessionShown};
use codemode_store::audit::AuditEntry;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// How long one request to the operator API may take, beyond a decision's
/// own wait.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Where the commands act.
pub(crate) enum RunSource {
    /// The store, opened by this command; `name` is what the audit trail
    /// records (`local:<user>`).
    Local { operator: Operator, name: String, shown: SessionShown },
    /// A server's operator API.
    Remote(Remote),
}

/// A server's operator API, with the operator's token.
pub(crate) struct Remote {
    base: String,
    token: String,
    client: reqwest::Client,
}

impl Remote {
    /// The API of the server at `server` (`http://host:port`).
    pub(crate) fn new(server: &str, token: String) -> Result<Self> {
        let base = server.trim_end_matches('/').to_owned();
        if base.starts_with("https://") {
            bail!(
                "--server {server}: this build speaks plain HTTP to the operator API (as `serve --http` serves it); \
                 reach a server behind TLS through a local tunnel"
            );
        }
        if !base.starts_with("http://") {
            bail!("--server {server}: give the server's address as http://HOST:PORT");
        }
        if token.trim().is_empty() {
            bail!("--server needs an operator token: --token TOKEN or CODEMODE_OPERATOR_TOKEN");
        }
        let client = reqwest::Client::builder().build().context("making the HTTP client")?;
        Ok(Self { base, token, client })
    }

    async fn call<T: DeserializeOwned>(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
        wait: Duration,
    ) -> Result<T> {
        let url = format!("{}{path}", self.base);
        let mut request = self.client.request(method, &url).bearer_auth(&self.token).timeout(REQUEST_TIMEOUT + wait);
        if let Some(body) = body {
            request = request.header(reqwest::header::CONTENT_TYPE, "application/json").body(body.to_string());
        }
        let response = request.send().await.with_context(|| format!("reaching the operator API at {url}"))?;
        let status = response.status();
        let bytes = response.bytes().await.with_context(|| format!("reading the answer of {url}"))?;
        if !status.is_success() {
            let said = serde_json::from_slice::<Value>(&bytes)
                .ok()
                .and_then(|v| v.get("error").and_then(Value::as_str).map(str::to_owned))
                .unwrap_or_else(|| crate::output::clean(&String::from_utf8_lossy(&bytes[..bytes.len().min(500)])));
            bail!("the server answered {status}: {said}");
        }
        serde_json::from_slice(&bytes).with_context(|| format!("the answer of {url} is not what this build reads"))
    }
}

/// `key=value&…` of the query's filters.
fn query_string(q: &RunQuery) -> String {
    let mut out = form_urlencoded::Serializer::new(String::new());
    if let Some(s) = &q.status {
        out.append_pair("status", s.as_str());
    }
    if let Some(p) = &q.principal {
        out.append_pair("principal", p);
    }
    if let Some(s) = &q.session {
        out.append_pair("session", s);
    }
    if let Some(w) = &q.waiting {
        out.append_pair("waiting", w.as_str());
    }
    if let Some(b) = &q.before {
        out.append_pair("before", b);
    }
    out.append_pair("limit", &q.limit.to_string());
    out.finish()
}

impl RunSource {
    pub(crate) async fn list(&self, query: &RunQuery) -> Result<RunPage> {
        match self {
            Self::Local { operator, shown, .. } => Ok(operator.list(query, *shown).await?),
            Self::Remote(r) => {
                r.call(reqwest::Method::GET, &format!("/operator/runs?{}", query_string(query)), None, Duration::ZERO)
                    .await
            }
        }
    }

    pub(crate) async fn show(&self, run_id: &str) -> Result<RunDetail> {
        match self {
            Self::Local { operator, shown, .. } => Ok(operator.show(run_id, *shown).await?),
            Self::Remote(r) => {
                r.call(reqwest::Method::GET, &format!("/operator/runs/{run_id}"), None, Duration::ZERO).await
            }
        }
    }

    pub(crate) async fn decide(
        &self,
        run_id: &str,
        ids: Vec<String>,
        deny: bool,
        reason: Option<String>,
        wait: Duration,
    ) -> Result<Vec<ApprovalRecord>> {
        match self {
            Self::Local { operator, name, .. } => {
                let (approve, denied) = if deny { (vec![], ids) } else { (ids, vec![]) };
                Ok(operator.decide(name, run_id, approve, denied, reason, wait).await?)
            }
            Self::Remote(r) => {
                let verb = if deny { "deny" } else { "approve" };
                let wait_ms =
                    u64::try_from(wait.as_millis()).unwrap_or(u64::MAX).min(crate::operator_input::MAX_WAIT_MS);
                let mut body = json!({ "approvals": ids, "waitMs": wait_ms });
                if let Some(reason) = reason {
                    body["reason"] = json!(reason);
                }
                let answer: Value =
                    r.call(reqwest::Method::POST, &format!("/operator/runs/{run_id}/{verb}"), Some(body), wait).await?;
                serde_json::from_value(answer.get("decided").cloned().unwrap_or(Value::Null))
                    .context("the server's answer names no decided approvals")
            }
        }
    }

    pub(crate) async fn abort(&self, run_id: &str) -> Result<AbortOutcome> {
        match self {
            Self::Local { operator, name, .. } => Ok(operator.abort(name, run_id).await?),
            Self::Remote(r) => {
                r.call(reqwest::Method::POST, &format!("/operator/runs/{run_id}/abort"), None, Duration::ZERO).await
            }
        }
    }

    pub(crate) async fn audit(&self, limit: usize) -> Result<Vec<AuditEntry>> {
        match self {
            Self::Local { operator, .. } => Ok(operator.audit(None, limit).await?),
            Self::Remote(r) => {
                let answer: Value = r
                    .call(reqwest::Method::GET, &format!("/operator/audit?limit={limit}"), None, Duration::ZERO)
                    .await?;
                serde_json::from_value(answer.get("entries").cloned().unwrap_or(Value::Null))
                    .context("the server's answer lists no audit entries")
            }
        }
    }
}
