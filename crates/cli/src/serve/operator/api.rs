//! The operator API: JSON under `/operator/`, for `codemode runs --server`
//! and scripts. Every request carries an operator's bearer token; a
//! client's token gets 403, anything else 401, and neither touches a run.
//!
//! - `GET /operator/runs?status=&principal=&session=&waiting=&before=&limit=`
//! - `GET /operator/runs/{id}`
//! - `POST /operator/runs/{id}/approve` `{"approvals": [...], "waitMs": n}`
//! - `POST /operator/runs/{id}/deny` `{"approvals": [...], "reason": "…", "waitMs": n}`
//! - `POST /operator/runs/{id}/abort`
//! - `GET /operator/audit?before=&limit=`

use std::time::Duration;

use codemode_runtime::operator::{Operator, OperatorError, RunQuery, SessionShown};
use codemode_store::runs::RunStatus;
use hyper::{Method, StatusCode};
use serde::Deserialize;
use serde_json::{Value, json};

use super::auth::Caller;
use super::endpoints::OperatorEndpoints;
use super::http::{Body, Parsed, Request, json_response, read_body};
use crate::operator_input::{
    DEFAULT_WAIT_MS, MAX_WAIT_MS, STATUSES, check_decision, parse_waiting, run_id_in as parse_run_id,
};

/// The default page size of `GET /operator/runs` and `/operator/audit`.
const DEFAULT_PAGE: usize = 100;

/// A decision's body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct DecisionBody {
    approvals: Vec<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    wait_ms: Option<u64>,
}

/// A 4xx/5xx answer: `{"error": "…"}`.
fn error(status: StatusCode, message: impl Into<String>) -> hyper::Response<Body> {
    json_response(status, &json!({ "error": message.into() }))
}

/// How an [`OperatorError`] answers.
pub(crate) fn status_of(e: &OperatorError) -> StatusCode {
    match e {
        OperatorError::NoSuchRun(_) => StatusCode::NOT_FOUND,
        OperatorError::Ended { .. } | OperatorError::Refused(_) => StatusCode::CONFLICT,
        OperatorError::Held(_) => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl OperatorEndpoints {
    /// Answers a request under `/operator/`.
    pub(crate) async fn api(&self, request: Request) -> hyper::Response<Body> {
        let name = match self.tokens.bearer(request.headers()) {
            Caller::Operator(name) => name,
            Caller::Client => {
                return error(
                    StatusCode::FORBIDDEN,
                    "a client token cannot use the operator API: present an [operator] token",
                );
            }
            Caller::Nobody => {
                let mut response = error(
                    StatusCode::UNAUTHORIZED,
                    "the operator API requires `Authorization: Bearer <token>` with a token from [operator] tokens",
                );
                response
                    .headers_mut()
                    .insert(hyper::header::WWW_AUTHENTICATE, hyper::header::HeaderValue::from_static("Bearer"));
                return response;
            }
        };
        let Some(operator) = self.rt.operator() else {
            return error(StatusCode::SERVICE_UNAVAILABLE, "this server keeps no runs (no run store)");
        };
        let (method, path) = (request.method().clone(), request.uri().path().to_owned());
        let query = request.uri().query().unwrap_or("").to_owned();
        let segments: Vec<&str> = path.trim_start_matches("/operator/").split('/').collect();
        match (&method, segments.as_slice()) {
            (&Method::GET, ["runs"]) => self.list(&operator, &query).await,
            (&Method::GET, ["runs", id]) => match parse_run_id(id) {
                Ok(id) => match operator.show(&id, SessionShown::Hashed).await {
                    Ok(detail) => json_response(StatusCode::OK, &detail),
                    Err(e) => error(status_of(&e), e.to_string()),
                },
                Err(e) => error(StatusCode::BAD_REQUEST, e),
            },
            (&Method::POST, ["runs", id, verb @ ("approve" | "deny")]) => {
                let id = match parse_run_id(id) {
                    Ok(id) => id,
                    Err(e) => return error(StatusCode::BAD_REQUEST, e),
                };
                let body: DecisionBody = match read_body(request).await {
                    Parsed::Json(value) => match serde_json::from_value(value) {
                        Ok(body) => body,
                        Err(e) => return error(StatusCode::BAD_REQUEST, format!("the decision's body: {e}")),
                    },
                    Parsed::Refused(message) => return error(StatusCode::BAD_REQUEST, message),
                };
                let deny = *verb == "deny";
                if !deny && body.reason.is_some() {
                    return error(StatusCode::BAD_REQUEST, "a reason goes with a denial only");
                }
                if let Err(message) = check_decision(&body.approvals, body.reason.as_deref()) {
                    return error(StatusCode::BAD_REQUEST, message);
                }
                let wait_ms = body.wait_ms.unwrap_or(DEFAULT_WAIT_MS);
                if wait_ms > MAX_WAIT_MS {
                    return error(StatusCode::BAD_REQUEST, format!("waitMs = {wait_ms}; at most {MAX_WAIT_MS}"));
                }
                let (approve, deny) = if deny { (vec![], body.approvals) } else { (body.approvals, vec![]) };
                let wait = Duration::from_millis(wait_ms);
                match operator.decide(&name, &id, approve, deny, body.reason, wait).await {
                    Ok(named) => json_response(
                        StatusCode::OK,
                        &json!({
                            "runId": id,
                            "decided": named,
                            "takesEffect": "when the run next resumes (its next wait, on any process)",
                        }),
                    ),
                    Err(e) => error(status_of(&e), e.to_string()),
                }
            }
            (&Method::POST, ["runs", id, "abort"]) => match parse_run_id(id) {
                Ok(id) => match operator.abort(&name, &id).await {
                    Ok(outcome) => {
                        let mut v = serde_json::to_value(&outcome).unwrap_or(Value::Null);
                        v["runId"] = json!(id);
                        v["message"] = json!(outcome.describe(&id));
                        json_response(StatusCode::OK, &v)
                    }
                    Err(e) => error(status_of(&e), e.to_string()),
                },
                Err(e) => error(StatusCode::BAD_REQUEST, e),
            },
            (&Method::GET, ["audit"]) => self.audit(&operator, &query).await,
            (_, ["runs"] | ["runs", _] | ["audit"]) => {
                error(StatusCode::METHOD_NOT_ALLOWED, format!("{method} is not allowed here; use GET"))
            }
            (_, ["runs", _, "approve" | "deny" | "abort"]) => {
                error(StatusCode::METHOD_NOT_ALLOWED, format!("{method} is not allowed here; use POST"))
            }
            _ => error(
                StatusCode::NOT_FOUND,
                "no such operator endpoint; try /operator/runs, /operator/runs/{id}, /operator/audit",
            ),
        }
    }

    async fn list(&self, operator: &Operator, query: &str) -> hyper::Response<Body> {
        let query = match parse_run_query(query) {
            Ok(q) => q,
            Err(message) => return error(StatusCode::BAD_REQUEST, message),
        };
        match operator.list(&query, SessionShown::Hashed).await {
            Ok(page) => json_response(StatusCode::OK, &page),
            Err(e @ OperatorError::Refused(_)) => error(StatusCode::BAD_REQUEST, e.to_string()),
            Err(e) => error(status_of(&e), e.to_string()),
        }
    }

    async fn audit(&self, operator: &Operator, query: &str) -> hyper::Response<Body> {
        let (mut before, mut limit) = (None, DEFAULT_PAGE);
        for (key, value) in form_urlencoded::parse(query.as_bytes()) {
            match key.as_ref() {
                "before" => match value.parse::<u64>() {
                    Ok(n) => before = Some(n),
                    Err(_) => return error(StatusCode::BAD_REQUEST, "`before` is an entry's `seq` (a number)"),
                },
                "limit" => match parse_limit(&value) {
                    Ok(n) => limit = n,
                    Err(message) => return error(StatusCode::BAD_REQUEST, message),
                },
                other => return error(StatusCode::BAD_REQUEST, unknown_parameter(other, "before, limit")),
            }
        }
        match operator.audit(before, limit).await {
            Ok(entries) => {
                let next = (entries.len() == limit).then(|| entries.last().map(|e| e.seq)).flatten();
                json_response(StatusCode::OK, &json!({ "entries": entries, "next": next }))
            }
            Err(e) => error(status_of(&e), e.to_string()),
        }
    }
}

fn unknown_parameter(name: &str, known: &str) -> String {
    format!("unknown parameter {:?}; the known ones are {known}", name.chars().take(40).collect::<String>())
}

fn parse_limit(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if (1..=1_000).contains(&n) => Ok(n),
        _ => Err(format!("limit = {:?}; use 1 to 1000", value.chars().take(20).collect::<String>())),
    }
}

/// A listing's query string as a [`RunQuery`]; an unknown parameter or a
/// value out of range is refused, naming it.
pub(crate) fn parse_run_query(query: &str) -> Result<RunQuery, String> {
    let mut q = RunQuery { limit: DEFAULT_PAGE, ..RunQuery::default() };
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        let value = value.into_owned();
        match key.as_ref() {
            "status" => {
                if !STATUSES.contains(&value.as_str()) {
                    return Err(format!("status = {value:?}; use one of {}", STATUSES.join(", ")));
                }
                q.status = Some(RunStatus::parse(&value).map_err(|e| e.to_string())?);
            }
            "principal" => {
                if value.is_empty() || value.len() > 64 {
                    return Err("principal: 1 to 64 characters".into());
                }
                q.principal = Some(value);
            }
            "session" => {
                if value.is_empty() || value.len() > 256 {
                    return Err("session: a key or its `sha256:` prefix, 1 to 256 characters".into());
                }
                q.session = Some(value);
            }
            "waiting" => q.waiting = Some(parse_waiting(&value)?),
            "before" => q.before = Some(value),
            "limit" => q.limit = parse_limit(&value)?,
            other => {
                return Err(unknown_parameter(other, "status, principal, session, waiting, before, limit"));
            }
        }
    }
    Ok(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_query_reads_every_filter_and_refuses_what_it_does_not_know() {
        let q = parse_run_query("status=parked&principal=alice&waiting=approval&limit=5&before=1.run_x").unwrap();
        assert_eq!(q.status, Some(RunStatus::Parked));
        assert_eq!(q.principal.as_deref(), Some("alice"));
        assert_eq!(q.waiting, Some(codemode_protocol::WaitReason::Approval));
        assert_eq!((q.limit, q.before.as_deref()), (5, Some("1.run_x")));
        assert_eq!(parse_run_query("").unwrap().limit, DEFAULT_PAGE);
        assert!(parse_run_query("limit=1000").is_ok(), "exactly at the bound");
        assert!(parse_run_query("limit=1001").unwrap_err().contains("limit"), "one over");
        assert!(parse_run_query("limit=0").is_err());
        assert!(parse_run_query("colour=red").unwrap_err().contains("unknown parameter \"colour\""));
        assert!(parse_run_query("status=sleeping").unwrap_err().contains("status"));
        assert!(parse_run_query("waiting=coffee").unwrap_err().contains("waiting"));
    }
}
