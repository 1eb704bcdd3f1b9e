//! The console: server-rendered HTML at `/console` for operators — live
//! runs, pending approvals with approve/deny, recent ends with their
//! receipts, the audit trail, and small charts of the process's figures.
//!
//! No script at all: every page reads and acts without JavaScript (forms
//! post and redirect back), so the Content-Security-Policy allows nothing
//! but this server's own stylesheet and form targets. Every value shown
//! — tool arguments, titles, reasons, receipts come from models and third
//! parties — goes through maud's escaping: markup is only ever written
//! by this file's templates.

use std::time::Duration;

use codemode_runtime::ApprovalRecord;
use codemode_runtime::operator::{Operator, RunDetail, RunQuery, RunView, SessionShown};
use codemode_store::runs::RunStatus;
use hyper::{Method, StatusCode};
use maud::{DOCTYPE, Markup, html};

use super::api::status_of;
use super::auth::{CONSOLE_SESSION_TTL, COOKIE, Caller, ConsoleSession, csrf_matches, same_origin};
use super::endpoints::OperatorEndpoints;
use super::figures::{Point, SERIES};
use super::http::{Body, Request, read_bytes, response};
use crate::operator_input::{DEFAULT_WAIT_MS, check_decision, run_id_in as parse_run_id};

/// Everything a console page may load or post to: this server only.
const CSP: &str = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; \
                   frame-ancestors 'none'; base-uri 'none'";

/// The stylesheet, embedded in the binary.
const STYLESHEET: &str = include_str!("console.css");

/// Runs shown per section.
const SHOWN: usize = 50;

/// Recent ends shown, each with its receipt read.
const RECENT_ENDS: usize = 10;

/// An HTML page with the console's headers.
fn page(status: StatusCode, markup: Markup) -> hyper::Response<Body> {
    let mut r = response(status, "text/html; charset=utf-8", markup.into_string());
    let headers = r.headers_mut();
    headers.insert(hyper::header::CONTENT_SECURITY_POLICY, hyper::header::HeaderValue::from_static(CSP));
    headers.insert(hyper::header::REFERRER_POLICY, hyper::header::HeaderValue::from_static("same-origin"));
    headers.insert(hyper::header::X_FRAME_OPTIONS, hyper::header::HeaderValue::from_static("DENY"));
    r
}

/// A 303 to `to` (this server's own path).
fn see_other(to: &str) -> hyper::Response<Body> {
    let mut r = response(StatusCode::SEE_OTHER, "text/plain", "");
    if let Ok(location) = hyper::header::HeaderValue::from_str(to) {
        r.headers_mut().insert(hyper::header::LOCATION, location);
    }
    r
}

fn layout(title: &str, who: Option<&ConsoleSession>, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · codemode console" }
                link rel="stylesheet" href="/console/console.css";
            }
            body {
                header {
                    h1 { "codemode" }
                    @if let Some(session) = who {
                        nav { a href="/console" { "Runs" } a href="/console/audit" { "Audit" } }
                        span.muted { "signed in as " strong { (session.name) } }
                        form method="post" action="/console/logout" {
                            input type="hidden" name="csrf" value=(session.csrf);
                            button type="submit" { "Sign out" }
                        }
                    }
                }
                main { (body) }
            }
        }
    }
}

fn login(message: Option<&str>) -> Markup {
    layout(
        "Sign in",
        None,
        html! {
            div.login {
                h2 { "Operator sign-in" }
                @if let Some(m) = message { p.flash.bad { (m) } }
                form method="post" action="/console/login" {
                    label for="token" { "Operator token (from [operator] tokens)" }
                    input #token type="password" name="token" autocomplete="current-password" required;
                    button type="submit" { "Sign in" }
                }
            }
        },
    )
}

fn ms(ms: u64) -> String {
    crate::output::human_ms(ms)
}

fn status(view: &RunView) -> Markup {
    html! {
        span class={ "status-" (view.status) } { (view.status) }
        @if let Some(w) = &view.waiting { " (" (w) ")" }
        @if let Some(note) = &view.note { " " span.muted { "(" (note) ")" } }
    }
}

fn runs_table(runs: &[RunView]) -> Markup {
    html! {
        @if runs.is_empty() { p.muted { "none" } } @else {
            div.table { table {
                thead { tr { th { "run" } th { "status" } th { "principal" } th { "title" } th { "age" } th { "journal" } } }
                tbody { @for r in runs {
                    tr {
                        td.mono { a href={ "/console/runs/" (r.run_id) } { (r.run_id) } }
                        td { (status(r)) }
                        td { (r.principal.as_deref().unwrap_or("-")) }
                        td { (r.title.as_deref().unwrap_or("-")) }
                        td { (ms(r.age_ms)) }
                        td { (crate::output::human_bytes(r.journal_bytes)) }
                    }
                } }
            } }
        }
    }
}

fn approval(run_id: &str, record: &ApprovalRecord, csrf: &str, now: u64) -> Markup {
    let a = &record.approval;
    html! {
        div.approval {
            div {
                strong.mono { @if let Some(server) = &a.server { (server) "." } (a.tool) }
                " " span.muted { "[" (a.source) "] " (a.id) }
            }
            div { "asked: " (a.reason) }
            pre { (a.arguments) @if a.arguments_truncated { "…" } }
            @match &record.decision {
                Some(d) => p { (d.verdict.as_str()) " by " (d.by) @if let Some(r) = &d.reason { ": " (r) } },
                None => {
                    p.muted { "expires in " (ms(a.expires_at_ms.saturating_sub(now))) }
                    form method="post" action={ "/console/runs/" (run_id) "/decide" } {
                        input type="hidden" name="csrf" value=(csrf);
                        input type="hidden" name="approval" value=(a.id);
                        input type="text" name="reason" maxlength="1000" placeholder="reason (for a denial)" aria-label="reason";
                        button.approve type="submit" name="verdict" value="approve" { "Approve" }
                        button.deny type="submit" name="verdict" value="deny" { "Deny" }
                    }
                }
            }
        }
    }
}

/// A sparkline of `values` as inline SVG (presentation attributes only:
/// no style attribute, which the policy would refuse).
fn sparkline(values: &[f64]) -> Markup {
    let (w, h) = (240.0_f64, 48.0_f64);
    let max = values.iter().copied().fold(0.0_f64, f64::max).max(1e-9);
    #[allow(clippy::cast_precision_loss, reason = "chart coordinates")]
    let step = if values.len() > 1 { w / (values.len() - 1) as f64 } else { w };
    #[allow(clippy::cast_precision_loss, reason = "chart coordinates")]
    let points: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, v)| format!("{:.1},{:.1}", i as f64 * step, h - 2.0 - (v / max) * (h - 4.0)))
        .collect();
    html! {
        svg viewBox="0 0 240 48" preserveAspectRatio="none" role="img" {
            polyline points=(points.join(" ")) fill="none" stroke="currentColor" stroke-width="1.5" {}
        }
    }
}

/// A figure as read at a glance: whole numbers without decimals.
fn figure(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 { format!("{value:.0}") } else { format!("{value:.2}") }
}

fn charts(points: &[Point]) -> Markup {
    html! {
        div.charts { @for series in SERIES {
            @let values: Vec<f64> = points.iter().map(series.read).collect();
            @let now = values.last().copied().unwrap_or(0.0);
            div.chart {
                div { (series.title) ": " span.now { (figure(now)) (series.unit) } }
                (sparkline(&values))
            }
        } }
        p.muted { "This process's own figures: a sample every 5 s for the last 10 minutes, and now." }
    }
}

fn receipt_line(detail: &RunDetail) -> Markup {
    html! {
        @match &detail.receipt {
            Some(receipt) => {
                @let text = serde_json::to_string(receipt).unwrap_or_else(|e| format!("(unreadable: {e})"));
                span.mono { (crate::output::truncate(&text, 160)) }
            },
            None => span.muted { "-" },
        }
    }
}

/// The form fields of a console post.
fn fields(body: &[u8]) -> Vec<(String, String)> {
    form_urlencoded::parse(body).map(|(k, v)| (k.into_owned(), v.into_owned())).collect()
}

fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

impl OperatorEndpoints {
    /// Answers a request under `/console`.
    pub(crate) async fn console(&self, request: Request) -> hyper::Response<Body> {
        let (method, path) = (request.method().clone(), request.uri().path().to_owned());
        if path == "/console/console.css" {
            let mut r = response(StatusCode::OK, "text/css; charset=utf-8", STYLESHEET);
            r.headers_mut()
                .insert(hyper::header::CACHE_CONTROL, hyper::header::HeaderValue::from_static("max-age=300"));
            return r;
        }
        if method == Method::POST && path == "/console/login" {
            return self.sign_in(request).await;
        }
        let Some((cookie, session)) = self.sessions.of(request.headers()) else {
            return if method == Method::GET {
                page(StatusCode::UNAUTHORIZED, login(None))
            } else {
                page(StatusCode::UNAUTHORIZED, login(Some("Your sign-in ended; sign in again.")))
            };
        };
        let Some(operator) = self.rt.operator() else {
            return page(StatusCode::SERVICE_UNAVAILABLE, html! { p { "This server keeps no runs." } });
        };
        let segments: Vec<&str> = path.trim_start_matches("/console").split('/').filter(|s| !s.is_empty()).collect();
        if method == Method::POST {
            if !same_origin(request.headers()) {
                return page(
                    StatusCode::FORBIDDEN,
                    html! { p { "Refused: this form was not posted from this console." } },
                );
            }
            let body = match read_bytes(request).await {
                Ok(body) => body,
                Err(message) => return page(StatusCode::BAD_REQUEST, html! { p { (message) } }),
            };
            let fields = fields(&body);
            if !field(&fields, "csrf").is_some_and(|t| csrf_matches(&session, t)) {
                return page(
                    StatusCode::FORBIDDEN,
                    html! { p { "Refused: the form's token does not match your sign-in. Reload the page and try again." } },
                );
            }
            return match segments.as_slice() {
                ["logout"] => {
                    self.sessions.sign_out(&cookie);
                    let mut r = see_other("/console");
                    let expired = format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
                    if let Ok(v) = expired.parse() {
                        r.headers_mut().insert(hyper::header::SET_COOKIE, v);
                    }
                    r
                }
                ["runs", id, "decide"] => self.decide(&operator, &cookie, &session, id, &fields).await,
                ["runs", id, "abort"] => match parse_run_id(id) {
                    Ok(run_id) => {
                        let message = match operator.abort(&session.name, &run_id).await {
                            Ok(outcome) => outcome.describe(&run_id),
                            Err(e) => e.to_string(),
                        };
                        self.sessions.flash(&cookie, message);
                        see_other(&format!("/console/runs/{run_id}"))
                    }
                    Err(e) => page(StatusCode::BAD_REQUEST, layout("Bad run id", Some(&session), html! { p { (e) } })),
                },
                _ => page(StatusCode::NOT_FOUND, html! { p { "No such action." } }),
            };
        }
        if method != Method::GET && method != Method::HEAD {
            return page(StatusCode::METHOD_NOT_ALLOWED, html! { p { "Use GET or a form." } });
        }
        let flash = self.sessions.take_flash(&cookie);
        match segments.as_slice() {
            [] => self.overview(&operator, &session, flash).await,
            ["runs", id] => match parse_run_id(id) {
                Ok(id) => self.run_page(&operator, &session, &id, flash).await,
                Err(e) => page(StatusCode::BAD_REQUEST, layout("Bad run id", Some(&session), html! { p { (e) } })),
            },
            ["audit"] => self.audit_page(&operator, &session).await,
            _ => page(StatusCode::NOT_FOUND, layout("Not found", Some(&session), html! { p { "No such page." } })),
        }
    }

    async fn sign_in(&self, request: Request) -> hyper::Response<Body> {
        if !same_origin(request.headers()) {
            return page(StatusCode::FORBIDDEN, login(Some("Refused: this sign-in was not posted from this console.")));
        }
        let body = match read_bytes(request).await {
            Ok(body) => body,
            Err(message) => return page(StatusCode::BAD_REQUEST, login(Some(&message))),
        };
        let fields = fields(&body);
        let token = field(&fields, "token").unwrap_or("");
        let name = match self.tokens.caller(token) {
            Caller::Operator(name) => name,
            Caller::Client => {
                return page(
                    StatusCode::FORBIDDEN,
                    login(Some("That is a client token; the console takes an operator token.")),
                );
            }
            Caller::Nobody => {
                return page(StatusCode::UNAUTHORIZED, login(Some("That token is not an operator token.")));
            }
        };
        let cookie = match self.sessions.sign_in(&name) {
            Ok(cookie) => cookie,
            Err(e) => return page(StatusCode::INTERNAL_SERVER_ERROR, login(Some(&e.to_string()))),
        };
        let mut r = see_other("/console");
        let set =
            format!("{COOKIE}={cookie}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}", CONSOLE_SESSION_TTL.as_secs());
        if let Ok(v) = set.parse() {
            r.headers_mut().insert(hyper::header::SET_COOKIE, v);
        }
        r
    }

    async fn decide(
        &self,
        operator: &Operator,
        cookie: &str,
        session: &ConsoleSession,
        id: &str,
        fields: &[(String, String)],
    ) -> hyper::Response<Body> {
        let run_id = match parse_run_id(id) {
            Ok(id) => id,
            Err(e) => return page(StatusCode::BAD_REQUEST, layout("Bad run id", Some(session), html! { p { (e) } })),
        };
        let approval = field(fields, "approval").unwrap_or("").to_owned();
        let reason = field(fields, "reason").map(str::trim).filter(|r| !r.is_empty()).map(str::to_owned);
        let deny = match field(fields, "verdict") {
            Some("approve") => false,
            Some("deny") => true,
            _ => {
                return page(
                    StatusCode::BAD_REQUEST,
                    layout("Bad form", Some(session), html! { p { "Choose approve or deny." } }),
                );
            }
        };
        let ids = vec![approval];
        let reason = if deny { reason } else { None };
        if let Err(message) = check_decision(&ids, reason.as_deref()) {
            return page(StatusCode::BAD_REQUEST, layout("Bad form", Some(session), html! { p { (message) } }));
        }
        let (approve, denied) = if deny { (vec![], ids) } else { (ids, vec![]) };
        let wait = Duration::from_millis(DEFAULT_WAIT_MS);
        let message = match operator.decide(&session.name, &run_id, approve, denied, reason, wait).await {
            Ok(named) => {
                let what: Vec<String> = named.iter().map(|r| format!("{} ({})", r.approval.id, r.what)).collect();
                format!(
                    "{} {}: taken when the run next resumes (its next wait, on any process).",
                    if deny { "Denied" } else { "Approved" },
                    what.join(", ")
                )
            }
            Err(e) => format!("Nothing was decided ({}): {e}", status_of(&e).as_u16()),
        };
        self.sessions.flash(cookie, message);
        see_other(&format!("/console/runs/{run_id}"))
    }

    async fn overview(
        &self,
        operator: &Operator,
        session: &ConsoleSession,
        flash: Option<String>,
    ) -> hyper::Response<Body> {
        let now = codemode_store::runs::now_ms();
        let query =
            |status: Option<RunStatus>, waiting| RunQuery { status, waiting, limit: SHOWN, ..RunQuery::default() };
        let asking =
            operator.list(&query(None, Some(codemode_protocol::WaitReason::Approval)), SessionShown::Hashed).await;
        let parked = operator.list(&query(Some(RunStatus::Parked), None), SessionShown::Hashed).await;
        let running = operator.list(&query(Some(RunStatus::Running), None), SessionShown::Hashed).await;
        let recent = operator.list(&query(None, None), SessionShown::Hashed).await;
        let (asking, parked, running, recent) = match (asking, parked, running, recent) {
            (Ok(a), Ok(p), Ok(r), Ok(all)) => (a, p, r, all),
            (Err(e), ..) | (_, Err(e), ..) | (_, _, Err(e), _) | (.., Err(e)) => {
                return page(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    layout("Runs", Some(session), html! { p { "The run store failed: " (e) } }),
                );
            }
        };
        let mut waiting = Vec::new();
        for run in &asking.runs {
            if let Ok(detail) = operator.show(&run.run_id, SessionShown::Hashed).await {
                waiting.push(detail);
            }
        }
        let mut ends = Vec::new();
        for run in recent.runs.iter().filter(|r| !matches!(r.status.as_str(), "running" | "parked")).take(RECENT_ENDS) {
            if let Ok(detail) = operator.show(&run.run_id, SessionShown::Hashed).await {
                ends.push(detail);
            }
        }
        let live: Vec<RunView> = running.runs.into_iter().chain(parked.runs).collect();
        let body = html! {
            @if let Some(f) = &flash { p.flash role="status" { (f) } }
            h2 { "Waiting for a decision (" (waiting.len()) ")" }
            @if waiting.is_empty() { p.muted { "No run waits for an approval." } }
            @for detail in &waiting {
                div {
                    a.mono href={ "/console/runs/" (detail.run.run_id) } { (detail.run.run_id) }
                    " " span.muted { (detail.run.principal.as_deref().unwrap_or("-")) " · " (detail.run.title.as_deref().unwrap_or("untitled")) }
                    @if let Some(log) = &detail.approvals {
                        @for record in log.records.iter().filter(|r| r.decision.is_none()) {
                            (approval(&detail.run.run_id, record, &session.csrf, now))
                        }
                        @for entry in &log.inbox {
                            p.muted { "Decided by " (entry.by.as_deref().unwrap_or("operator")) ", taken at the run's next wait." }
                        }
                    }
                }
            }
            h2 { "Live runs (" (live.len()) ")" }
            (runs_table(&live))
            h2 { "Recent ends" }
            @if ends.is_empty() { p.muted { "none" } } @else {
                div.table { table {
                    thead { tr { th { "run" } th { "end" } th { "age" } th { "receipt" } } }
                    tbody { @for d in &ends { tr {
                        td.mono { a href={ "/console/runs/" (d.run.run_id) } { (d.run.run_id) } }
                        td { (status(&d.run)) }
                        td { (ms(d.run.age_ms)) }
                        td { (receipt_line(d)) }
                    } } }
                } }
            }
            h2 { "This process" }
            (charts(&self.figures.points_and_now(&self.rt)))
        };
        page(StatusCode::OK, layout("Runs", Some(session), body))
    }

    async fn run_page(
        &self,
        operator: &Operator,
        session: &ConsoleSession,
        run_id: &str,
        flash: Option<String>,
    ) -> hyper::Response<Body> {
        let now = codemode_store::runs::now_ms();
        let detail = match operator.show(run_id, SessionShown::Hashed).await {
            Ok(d) => d,
            Err(e) => {
                return page(
                    status_of(&e),
                    layout(
                        "Run",
                        Some(session),
                        html! {
                            @if let Some(f) = &flash { p.flash role="status" { (f) } }
                            p { (e) }
                        },
                    ),
                );
            }
        };
        let r = &detail.run;
        let ended = !matches!(r.status.as_str(), "running" | "parked");
        let body = html! {
            @if let Some(f) = &flash { p.flash role="status" { (f) } }
            h2.mono { (r.run_id) }
            div.table { table { tbody {
                tr { th { "status" } td { (status(r)) } }
                tr { th { "principal" } td { (r.principal.as_deref().unwrap_or("-")) } }
                tr { th { "session" } td.mono { (r.session) } }
                tr { th { "title" } td { (r.title.as_deref().unwrap_or("-")) } }
                tr { th { "owner" } td.mono { (r.owner.as_deref().unwrap_or("-")) } }
                tr { th { "age" } td { (ms(r.age_ms)) } }
                tr { th { "journal" } td { (crate::output::human_bytes(r.journal_bytes)) @if let Some(v) = r.version { " (version " (v) ")" } } }
                @if let Some(used) = detail.output_used { tr { th { "output used" } td { (used) " B" } } }
                @if let Some(n) = detail.undelivered { tr { th { "undelivered results" } td { (n) } } }
            } } }
            @if let Some(e) = &detail.journal_error { p.flash.bad { "The journal cannot be read: " (e) } }
            @if let Some(log) = &detail.approvals {
                h2 { "Approvals" }
                @if log.records.is_empty() { p.muted { "none" } }
                @for record in &log.records { (approval(&r.run_id, record, &session.csrf, now)) }
                @for entry in &log.inbox {
                    p.muted { "Decided by " (entry.by.as_deref().unwrap_or("operator")) ", taken at the run's next wait: "
                        @for id in entry.decisions.approve.iter() { "approve " (id) " " }
                        @for d in entry.decisions.deny.iter() { "deny " (d.id) " " } }
                }
            }
            @if !detail.tasks.is_empty() {
                h2 { "MCP tasks" }
                div.table { table {
                    thead { tr { th { "server" } th { "tool" } th { "task" } th { "started" } } }
                    tbody { @for t in &detail.tasks { tr {
                        td { (t.server) } td { (t.tool) }
                        td.mono { (serde_json::to_string(&t.task).unwrap_or_default()) }
                        td { (ms(now.saturating_sub(t.started_at_ms))) " ago" }
                    } } }
                } }
            }
            @if let Some(receipt) = &detail.receipt {
                h2 { "Receipt" }
                pre { (serde_json::to_string_pretty(receipt).unwrap_or_else(|e| format!("(unreadable: {e})"))) }
            }
            @if !ended {
                h2 { "Abort" }
                form method="post" action={ "/console/runs/" (r.run_id) "/abort" } {
                    input type="hidden" name="csrf" value=(session.csrf);
                    button.abort type="submit" { "Abort this run" }
                }
            }
        };
        page(StatusCode::OK, layout(&r.run_id, Some(session), body))
    }

    async fn audit_page(&self, operator: &Operator, session: &ConsoleSession) -> hyper::Response<Body> {
        let entries = match operator.audit(None, 200).await {
            Ok(e) => e,
            Err(e) => {
                return page(StatusCode::INTERNAL_SERVER_ERROR, layout("Audit", Some(session), html! { p { (e) } }));
            }
        };
        let now = codemode_store::runs::now_ms();
        let body = html! {
            h2 { "Audit trail" }
            @if entries.is_empty() { p.muted { "No operator action yet." } } @else {
                div.table { table {
                    thead { tr { th { "when" } th { "operator" } th { "action" } th { "run" } th { "approvals" } th { "outcome" } } }
                    tbody { @for e in &entries { tr {
                        td { (ms(now.saturating_sub(e.at_ms))) " ago" }
                        td { (e.operator) }
                        td { (e.action) }
                        td.mono { a href={ "/console/runs/" (e.run_id) } { (e.run_id) } }
                        td.mono { (e.approvals.join(", ")) }
                        td { @if e.ok { "✓ " } @else if !e.settled() { "? " } @else { "✗ " } (e.outcome) @if let Some(r) = &e.reason { " — reason: " (r) } }
                    } } }
                } }
            }
        };
        page(StatusCode::OK, layout("Audit", Some(session), body))
    }
}
