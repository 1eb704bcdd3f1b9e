//! Approvals: a policy that asks parks the cell with `reason: "approval"`;
//! a `wait` approves (the call runs once) or denies (`code: "denied"`);
//! approvals expire; bad decisions change nothing; decisions and pending
//! approvals survive eviction and a second runtime on the same store
//! (GA-1.3, GA-10.3).

use std::sync::Arc;
use std::time::Duration;

use codemode_runtime::operator::{Operator, OperatorError};
use codemode_runtime::{
    CellResult, CodeMode, DeciderKind, Decision, DecisionFuture, Decisions, Denial, ErrorCode, Exec, Limits,
    NestedCall, Policy, RunEnd, RunEvent, RunsConfig, StoreBackend, Verdict, WaitReason,
};
use codemode_store::runs::RunStore;
use codemode_tests::*;
use serde_json::json;

/// Asks about every call of a tool whose name starts with `deploy`.
struct AskDeploys;

impl Policy for AskDeploys {
    fn check(&self, call: NestedCall) -> DecisionFuture {
        let decision = if call.tool.starts_with("deploy") {
            Decision::Ask(format!("{} changes production", call.tool))
        } else {
            Decision::Allow
        };
        Box::pin(std::future::ready(decision))
    }
}

fn builder(deploy: &Named, limits: Limits) -> codemode_runtime::CodeModeBuilder {
    codemode_tests::builder().policy(AskDeploys).tool(deploy.clone()).tool(Echo).limits(limits)
}

async fn runtime(deploy: &Named) -> CodeMode {
    builder(deploy, Limits::default()).start().await.unwrap()
}

fn store_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-approvals-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A runtime on the sled store at `path`; retried while a runtime shut
/// down just before still holds the database (its last handles go with its
/// tasks, just after).
async fn durable(deploy: &Named, path: &std::path::Path, evict_after: Option<Duration>) -> CodeMode {
    for _ in 0..100 {
        let started = builder(deploy, Limits::default())
            .store_backend(StoreBackend::Sled { path: Some(path.to_owned()) })
            .runs(RunsConfig { evict_after, ..RunsConfig::default() })
            .start()
            .await;
        match started {
            Ok(rt) => return rt,
            Err(e) if e.to_string().contains("in use") || e.to_string().contains("ocked") => {}
            Err(e) => panic!("{e}"),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the store stayed locked");
}

/// The run store at `path`, as an operator's command opens it.
async fn operator_store(path: &std::path::Path) -> (Operator, Arc<dyn RunStore>) {
    let backend = StoreBackend::Sled { path: Some(path.to_path_buf()) };
    for _ in 0..100 {
        match codemode_store::open(&backend, codemode_store::OpenOptions::named("operator")).await {
            Ok(db) => return (Operator::of(&db), Arc::clone(&db.runs)),
            Err(codemode_store::OpenError::Store(codemode_store::StoreError::Locked { .. })) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(e) => panic!("{e}"),
        }
    }
    panic!("the store stayed locked");
}

/// The pending approvals of a `waiting` result parked for approval.
fn pending(result: &CellResult) -> Vec<codemode_runtime::PendingApproval> {
    match result {
        CellResult::Waiting { reason: WaitReason::Approval, pending_approvals, .. } => pending_approvals.clone(),
        other => panic!("expected waiting for approval, got {}", other.to_model_json()),
    }
}

fn approve(id: &str) -> Decisions {
    Decisions { approve: vec![id.to_owned()], deny: vec![] }
}

fn deny(id: &str, reason: Option<&str>) -> Decisions {
    Decisions { approve: vec![], deny: vec![Denial { id: id.to_owned(), reason: reason.map(str::to_owned) }] }
}

const DEPLOY: &str = "text('asking'); const r = await deploy_prod({env: 'prod'}); return r";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_asked_call_parks_for_approval_and_runs_once_when_approved_ga_10_3() {
    let deploy = Named::new("deploy_prod");
    let rt = runtime(&deploy).await;
    let reply = reply(&rt);
    let parked = reply.exec(Exec::code(DEPLOY)).await.unwrap();
    let asked = pending(&parked);
    assert_eq!(asked.len(), 1);
    let a = &asked[0];
    assert!(a.id.starts_with("appr_") && a.id.len() > 20, "unguessable: {}", a.id);
    assert_eq!(
        (a.source.as_str(), a.tool.as_str(), a.arguments.as_str()),
        ("native", "deploy_prod", r#"{"env":"prod"}"#)
    );
    assert_eq!(a.reason, "deploy_prod changes production");
    let json = parked.to_model_json();
    assert!(json.contains(r#""reason":"approval""#) && json.contains(r#""pendingApprovals":[{"id":"appr_"#), "{json}");
    assert_eq!(deploy.calls(), 0, "the call waits for a decision");
    // A plain wait decides nothing: still parked, the call still not run.
    let again = reply.wait(parked.run_id().unwrap()).await.unwrap();
    assert_eq!(pending(&again)[0].id, a.id);
    assert_eq!(deploy.calls(), 0);
    let done = reply.wait_with(parked.run_id().unwrap(), approve(&a.id)).await.unwrap();
    assert_eq!(value(&done), &json!({"tool": "deploy_prod", "input": {"env": "prod"}}));
    assert_eq!(deploy.calls(), 1);
    let runs = rt.metrics().runs;
    assert_eq!((runs.approvals_requested, runs.approvals_approved), (1, 1));
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_call_rejects_with_code_denied_and_the_reason_ga_10_3() {
    let deploy = Named::new("deploy_prod");
    let rt = runtime(&deploy).await;
    let reply = reply(&rt);
    let code = "try { await deploy_prod({}) } catch (e) { return [e.code, e.message, e.effectStatus] }";
    let parked = reply.exec(Exec::code(code)).await.unwrap();
    let id = pending(&parked)[0].id.clone();
    let done = reply.wait_with(parked.run_id().unwrap(), deny(&id, Some("not on a Friday"))).await.unwrap();
    assert_eq!(value(&done), &json!(["denied", "deploy_prod was denied: not on a Friday", "none"]));
    assert_eq!(deploy.calls(), 0);
    assert_eq!(rt.metrics().runs.approvals_denied, 1);
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_nobody_decides_in_time_expires_ga_10_3() {
    let deploy = Named::new("deploy_prod");
    let limits = Limits { approval_ttl: Duration::from_millis(50), ..Limits::default() };
    let rt = builder(&deploy, limits).start().await.unwrap();
    let reply = reply(&rt);
    let code = "try { await deploy_prod({}) } catch (e) { return [e.code, e.message] }";
    let parked = reply.exec(Exec::code(code)).await.unwrap();
    let id = pending(&parked)[0].id.clone();
    tokio::time::sleep(Duration::from_millis(80)).await;
    // Approving it now is refused: it expired.
    let late = reply.wait_with(parked.run_id().unwrap(), approve(&id)).await.unwrap();
    assert_eq!(failure(&late).0, ErrorCode::InvalidInput, "{}", late.to_model_json());
    let done = reply.wait(parked.run_id().unwrap()).await.unwrap();
    let v = value(&done);
    assert_eq!(v[0], "approval_expired");
    assert!(v[1].as_str().unwrap().contains("was not approved within 50 ms"), "{v}");
    assert_eq!(deploy.calls(), 0);
    assert_eq!(rt.metrics().runs.approvals_expired, 1);
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_repeated_and_foreign_decisions_are_errors_that_change_nothing_ga_10_3() {
    let deploy = Named::new("deploy_prod");
    let rt = runtime(&deploy).await;
    let alice = rt.session("s").for_principal("alice").reply("r");
    let mallory = rt.session("s").for_principal("mallory").reply("r");
    let parked = alice.exec(Exec::code(DEPLOY)).await.unwrap();
    let run_id = parked.run_id().unwrap().to_owned();
    let id = pending(&parked)[0].id.clone();
    let unknown = alice.wait_with(&run_id, approve("appr_0000")).await.unwrap();
    let (code, message) = failure(&unknown);
    assert_eq!(code, ErrorCode::InvalidInput);
    assert!(message.contains("appr_0000 is not pending"), "{message}");
    let twice = Decisions { approve: vec![id.clone()], deny: vec![Denial { id: id.clone(), reason: None }] };
    assert!(failure(&alice.wait_with(&run_id, twice).await.unwrap()).1.contains("twice"));
    let foreign = mallory.wait_with(&run_id, approve(&id)).await.unwrap();
    assert!(failure(&foreign).1.contains("another principal"), "{}", foreign.to_model_json());
    assert_eq!(deploy.calls(), 0, "nothing ran");
    // Still pending, with its output not yet taken: a good decision works.
    let done = alice.wait_with(&run_id, approve(&id)).await.unwrap();
    assert_eq!(value(&done)["tool"], "deploy_prod");
    assert_eq!(unknown.output().entries().map(<[_]>::len), Some(0), "a refused wait takes no output");
    // Deciding it again once it ran: not pending.
    let after = alice.wait_with(&run_id, approve(&id)).await.unwrap();
    assert_eq!(failure(&after).0, ErrorCode::InvalidInput);
    assert_eq!(deploy.calls(), 1);
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_headless_cell_has_no_one_to_ask_so_the_call_is_denied_ga_10_3() {
    let deploy = Named::new("deploy_prod");
    let rt = runtime(&deploy).await;
    let code = "try { await deploy_prod({}) } catch (e) { return [e.code, e.message] }";
    let done = rt.headless().exec(Exec::code(code)).await.unwrap();
    let v = value(&done);
    assert_eq!(v[0], "denied");
    assert!(v[1].as_str().unwrap().contains("headless cell has no one to ask"), "{v}");
    assert_eq!(deploy.calls(), 0);
    rt.shutdown().await;
}

/// An unattended session cell (`Exec::unattended`, as `codemode exec`
/// starts one) is refused an asked call at once, as a headless cell is; it
/// still parks for `yield_control`, and a runtime that resumes it from its
/// journal keeps the mark.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unattended_cell_has_no_one_to_ask_even_when_resumed_elsewhere_so_the_call_is_denied_ga_10_3() {
    let deploy = Named::new("deploy_prod");
    let dir = store_dir("unattended");
    let code = "await yield_control('park'); try { await deploy_prod({}) } catch (e) { return [e.code, e.message] }";
    let refused = |done: &CellResult| {
        let v = value(done).clone();
        assert_eq!(v[0], "denied", "{v}");
        assert!(v[1].as_str().unwrap().contains("has no one to ask"), "{v}");
    };
    let first = durable(&deploy, &dir, None).await;
    let parked = reply(&first).exec(Exec::code(code).unattended(true)).await.unwrap();
    assert!(matches!(&parked, CellResult::Waiting { reason: WaitReason::Yield, .. }), "{}", parked.to_model_json());
    refused(&reply(&first).wait(parked.run_id().unwrap()).await.unwrap());
    let parked = reply(&first).exec(Exec::code(code).unattended(true)).await.unwrap();
    let run_id = parked.run_id().unwrap().to_owned();
    first.shutdown().await;
    drop(first);
    let second = durable(&deploy, &dir, None).await;
    refused(&reply(&second).wait(&run_id).await.unwrap());
    assert_eq!(deploy.calls(), 0);
    assert_eq!(second.metrics().runs.approvals_requested, 0, "nothing was asked");
    second.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_calls_go_on_while_one_waits_for_approval_ga_6() {
    let deploy = Named::new("deploy_prod");
    let rt = runtime(&deploy).await;
    let reply = reply(&rt);
    let code = "const [d, e] = await Promise.all([deploy_prod({n: 1}), echo_tool({value: 'x'})]); return [d.tool, e.input.value]";
    let parked = reply.exec(Exec::code(code)).await.unwrap();
    let id = pending(&parked)[0].id.clone();
    let done = reply.wait_with(parked.run_id().unwrap(), approve(&id)).await.unwrap();
    assert_eq!(value(&done), &json!(["deploy_prod", "x"]));
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pending_approval_survives_eviction_and_the_approved_call_runs_once_ga_1_3() {
    let deploy = Named::new("deploy_prod");
    let dir = store_dir("evicted");
    let rt = durable(&deploy, &dir, Some(Duration::from_millis(50))).await;
    let reply = reply(&rt);
    let parked = reply.exec(Exec::code(DEPLOY)).await.unwrap();
    let id = pending(&parked)[0].id.clone();
    for _ in 0..200 {
        if rt.live_cells().await.unwrap() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(rt.live_cells().await.unwrap(), 0, "a run waiting only on a decision leaves memory");
    // Replayed: the same approval id is pending again.
    let again = reply.wait(parked.run_id().unwrap()).await.unwrap();
    assert_eq!(pending(&again)[0].id, id);
    assert_eq!(again.output().entries().map(<[_]>::len), Some(0), "output delivered once");
    let done = reply.wait_with(parked.run_id().unwrap(), approve(&id)).await.unwrap();
    assert_eq!(value(&done)["tool"], "deploy_prod");
    assert_eq!(deploy.calls(), 1);
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run on the store at `dir` parked for approval of a deploy, and the
/// runtime that parked it gone: the run's id and the approval's.
async fn parked_for_a_deploy(deploy: &Named, dir: &std::path::Path) -> (String, String) {
    let first = durable(deploy, dir, None).await;
    let parked = reply(&first).exec(Exec::code(DEPLOY)).await.unwrap();
    let id = pending(&parked)[0].id.clone();
    let run_id = parked.run_id().unwrap().to_owned();
    first.shutdown().await;
    (run_id, id)
}

/// A second runtime on the store at `dir` approves `id` of run `run_id`
/// through its own wait: the deploy runs, once.
async fn approved_on_a_fresh_runtime(deploy: &Named, dir: &std::path::Path, run_id: &str, id: &str) {
    let second = durable(deploy, dir, None).await;
    let done = reply(&second).wait_with(run_id, approve(id)).await.unwrap();
    assert_eq!(value(&done)["tool"], "deploy_prod");
    assert_eq!(deploy.calls(), 1);
    second.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_runtime_on_the_store_takes_the_decision_and_runs_the_call_once_ga_1_3() {
    let deploy = Named::new("deploy_prod");
    let dir = store_dir("second");
    let (run_id, id) = parked_for_a_deploy(&deploy, &dir).await;
    approved_on_a_fresh_runtime(&deploy, &dir, &run_id, &id).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operators_decision_left_in_the_store_is_taken_by_the_next_wait_ga_1_3() {
    let deploy = Named::new("deploy_prod");
    let dir = store_dir("operator");
    let first = durable(&deploy, &dir, None).await;
    let code = "const a = await deploy_prod({n: 1}); let b; try { await deploy_prod({n: 2}) } catch (e) { b = [e.code, e.message] } return [a.input, b]";
    let parked = reply(&first).exec(Exec::code(code)).await.unwrap();
    let first_id = pending(&parked)[0].id.clone();
    let run_id = parked.run_id().unwrap().to_owned();
    first.shutdown().await;
    drop(first);
    let (operator, store) = operator_store(&dir).await;
    let wait = Duration::from_millis(100);
    let decide = |id: &str| operator.decide("ops-alice", &run_id, vec![id.to_owned()], vec![], None, wait);
    let refused = decide("appr_nope").await;
    assert!(
        matches!(refused, Err(OperatorError::Refused(ref m)) if m.contains("appr_nope is not pending")),
        "{refused:?}"
    );
    let nobody = "run_00000000000000000000000000000000";
    let missing = operator.decide("ops-alice", nobody, vec![first_id.clone()], vec![], None, wait).await;
    assert!(matches!(missing, Err(OperatorError::NoSuchRun(_))), "{missing:?}");
    let named = decide(&first_id).await.unwrap();
    assert_eq!(named[0].approval.tool, "deploy_prod");
    let twice = decide(&first_id).await;
    assert!(matches!(twice, Err(OperatorError::Refused(_))), "an id already in the inbox: {twice:?}");
    let log = codemode_runtime::operator::approvals_of(&store.get(&run_id).await.unwrap().unwrap().journal).unwrap();
    assert_eq!(log.inbox.len(), 1);
    let audit = operator.audit(None, 10).await.unwrap();
    let actions: Vec<(&str, bool)> = audit.iter().map(|e| (e.operator.as_str(), e.ok)).collect();
    assert_eq!(
        actions,
        [("ops-alice", false), ("ops-alice", true), ("ops-alice", false), ("ops-alice", false)],
        "every decision audited, newest first"
    );
    drop((operator, store));
    let second = durable(&deploy, &dir, None).await;
    let reply = reply(&second);
    // The next wait takes the operator's approval: the first call runs,
    // the second asks.
    let next = reply.wait(&run_id).await.unwrap();
    let second_id = pending(&next)[0].id.clone();
    assert_ne!(second_id, first_id);
    assert_eq!(deploy.calls(), 1);
    drop(reply);
    second.shutdown().await;
    drop(second);
    // The run's record keeps its approvals, who decided each included.
    let (operator, store) = operator_store(&dir).await;
    let log = codemode_runtime::operator::approvals_of(&store.get(&run_id).await.unwrap().unwrap().journal).unwrap();
    let by: Vec<(&str, Option<&str>)> =
        log.records.iter().map(|r| (r.approval.id.as_str(), r.decision.as_ref().map(|d| d.by.as_str()))).collect();
    assert_eq!(by, [(first_id.as_str(), Some("ops-alice")), (second_id.as_str(), None)], "the operator is named");
    assert!(log.inbox.is_empty(), "the inbox was taken");
    drop((operator, store));
    let third = durable(&deploy, &dir, None).await;
    let done = codemode_tests::reply(&third).wait_with(&run_id, deny(&second_id, None)).await.unwrap();
    assert_eq!(value(&done)[0], json!({"n": 1}));
    assert_eq!(value(&done)[1][0], "denied");
    assert_eq!(deploy.calls(), 1);
    third.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// An audit trail that records nothing: every write fails.
#[derive(Debug)]
struct BrokenTrail;

impl codemode_store::audit::AuditStore for BrokenTrail {
    fn record(&self, _: codemode_store::audit::AuditEntry) -> codemode_store::audit::AuditFuture<'_, u64> {
        Box::pin(std::future::ready(Err(codemode_store::audit::AuditError("the disk is full".into()))))
    }
    fn settle(&self, _: u64, _: bool, _: String) -> codemode_store::audit::AuditFuture<'_, bool> {
        Box::pin(std::future::ready(Err(codemode_store::audit::AuditError("the disk is full".into()))))
    }
    fn list(
        &self,
        _: Option<u64>,
        _: usize,
    ) -> codemode_store::audit::AuditFuture<'_, Vec<codemode_store::audit::AuditEntry>> {
        Box::pin(std::future::ready(Ok(Vec::new())))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_decision_or_abort_the_audit_trail_cannot_record_is_refused_and_changes_nothing_ga_10_3() {
    let deploy = Named::new("deploy_prod");
    let dir = store_dir("unaudited");
    let (run_id, id) = parked_for_a_deploy(&deploy, &dir).await;
    let (_, store) = operator_store(&dir).await;
    let before = store.get(&run_id).await.unwrap().unwrap();
    let operator = Operator::new(Arc::clone(&store), Arc::new(BrokenTrail));
    let wait = Duration::from_millis(100);
    let decided = operator.decide("ops-alice", &run_id, vec![id.clone()], vec![], None, wait).await;
    assert!(
        matches!(&decided, Err(OperatorError::Audit(m)) if m.contains("the disk is full") && m.contains("nothing was done")),
        "{decided:?}"
    );
    let aborted = operator.abort("ops-alice", &run_id).await;
    assert!(matches!(&aborted, Err(OperatorError::Audit(_))), "{aborted:?}");
    let after = store.get(&run_id).await.unwrap().unwrap();
    assert_eq!((after.status, after.abort_requested, &after.journal), (before.status, false, &before.journal));
    drop((operator, store));
    // The run is as it was: its own wait still decides it.
    approved_on_a_fresh_runtime(&deploy, &dir, &run_id, &id).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_listing_says_what_each_of_many_parked_runs_waits_for_ga_10_3() {
    let deploy = Named::new("deploy_prod");
    let dir = store_dir("listing");
    let rt = durable(&deploy, &dir, None).await;
    // More parked runs than one batch of journals a listing reads: some
    // wait for a person, the others on a yield.
    let mut expected = std::collections::HashMap::new();
    for i in 0..45 {
        let (code, reason) = if i % 3 == 0 { (DEPLOY, "approval") } else { ("await yield_control('later')", "yield") };
        let parked = rt.session(format!("listing-{i}")).reply("r").exec(Exec::code(code)).await.unwrap();
        expected.insert(parked.run_id().unwrap().to_owned(), reason);
    }
    rt.shutdown().await;
    drop(rt);
    let (operator, _store) = operator_store(&dir).await;
    let all = codemode_runtime::operator::RunQuery { limit: 100, ..Default::default() };
    let page = operator.list(&all, codemode_runtime::operator::SessionShown::Hashed).await.unwrap();
    let listed: std::collections::HashMap<String, &str> =
        page.runs.iter().map(|r| (r.run_id.clone(), r.waiting.as_deref().unwrap_or("none"))).collect();
    assert_eq!(listed, expected.iter().map(|(k, v)| (k.clone(), *v)).collect(), "each run's own reason");
    let approvals =
        codemode_runtime::operator::RunQuery { waiting: Some(WaitReason::Approval), limit: 100, ..Default::default() };
    let page = operator.list(&approvals, codemode_runtime::operator::SessionShown::Hashed).await.unwrap();
    assert_eq!(page.runs.len(), 15);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Asks about every MCP tool named `echo` (server `accounting`).
struct AskMcpEcho;

impl Policy for AskMcpEcho {
    fn check(&self, call: NestedCall) -> DecisionFuture {
        let ask = call.source == codemode_runtime::CallSource::Mcp
            && call.server.as_deref() == Some("accounting")
            && call.tool == "echo";
        Box::pin(std::future::ready(if ask { Decision::Ask("it talks to accounting".into()) } else { Decision::Allow }))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_asked_mcp_call_names_its_server_and_runs_once_approved_or_rejects_denied_ga_9_ga_10_3() {
    let server = codemode_runtime::McpServerConfig::stdio("accounting", env!("CARGO_BIN_EXE_mcp_fixture"), Vec::new())
        .call_timeout(Duration::from_secs(5));
    let rt = codemode_tests::builder().policy(AskMcpEcho).mcp_server(server).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await);
    let reply = reply(&rt);
    let code = "const r = await MCP.accounting.echo({n: 1}); let d; \
                try { await MCP.accounting.echo({n: 2}) } catch (e) { d = [e.code, e.message] } \
                return [r.structuredContent, d]";
    let parked = reply.exec(Exec::code(code)).await.unwrap();
    let first = pending(&parked);
    assert_eq!((first[0].source.as_str(), first[0].server.as_deref()), ("mcp", Some("accounting")));
    assert_eq!(first[0].arguments, r#"{"n":1}"#);
    let next = reply.wait_with(parked.run_id().unwrap(), approve(&first[0].id)).await.unwrap();
    let second = pending(&next);
    let done = reply.wait_with(parked.run_id().unwrap(), deny(&second[0].id, None)).await.unwrap();
    assert_eq!(value(&done), &json!([{"n": 1}, ["denied", "MCP tool accounting.echo was denied; it did not run."]]));
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_subscribed_to_run_events_hears_the_park_the_approval_its_decision_and_the_end_ga_1_3() {
    let deploy = Named::new("deploy_prod");
    let rt = runtime(&deploy).await;
    let mut events = rt.run_events();
    let reply = reply(&rt);
    let parked = reply.exec(Exec::code(DEPLOY)).await.unwrap();
    let run_id = parked.run_id().unwrap().to_owned();
    let id = pending(&parked)[0].id.clone();
    reply.wait_with(&run_id, approve(&id)).await.unwrap();
    let mut seen = Vec::new();
    while seen.len() < 5 {
        let event = tokio::time::timeout(Duration::from_secs(5), events.recv()).await.unwrap().unwrap();
        seen.push(event);
    }
    let session = Some("s".to_owned());
    // The cell's output, as it emits it (before the call it asks about).
    match seen.remove(0) {
        RunEvent::Output { run_id: r, session: s, entries } => {
            assert_eq!((&r, &s), (&run_id, &session));
            assert_eq!(entries, vec![codemode_runtime::OutputEntry::text("asking")]);
        }
        other => panic!("{other:?}"),
    }
    match &seen[0] {
        RunEvent::ApprovalRequested { run_id: r, session: s, approval } => {
            assert_eq!((r, s, approval.id.as_str()), (&run_id, &session, id.as_str()));
        }
        other => panic!("{other:?}"),
    }
    match &seen[1] {
        RunEvent::Parked { reason, pending_approvals, .. } => {
            assert_eq!((*reason, pending_approvals.len()), (WaitReason::Approval, 1));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        seen[2],
        RunEvent::ApprovalDecided {
            run_id: run_id.clone(),
            session: session.clone(),
            approval: id,
            verdict: Verdict::Approved,
            by: "session".into(),
            kind: Some(DeciderKind::Host),
        }
    );
    assert_eq!(seen[3], RunEvent::Ended { run_id, session, end: RunEnd::Completed });
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_decides_nothing_unless_the_host_lets_it_and_each_decision_records_its_decider_ga_10_3() {
    for model_decides in [false, true] {
        let deploy = Named::new("deploy");
        let rt = builder(&deploy, Limits::default()).model_decides_approvals(model_decides).start().await.unwrap();
        let mut events = rt.run_events();
        let reply = rt.session("s").reply("r");
        let parked = reply.exec(Exec::code("return (await deploy({})).tool")).await.unwrap();
        let run_id = parked.run_id().unwrap().to_owned();
        let id = pending(&parked)[0].id.clone();
        let decided = reply.wait_decided_by(&run_id, approve(&id), DeciderKind::Model, None).await.unwrap();
        if !model_decides {
            let (code, message) = failure(&decided);
            assert_eq!(code, ErrorCode::InvalidInput);
            assert!(message.contains("wait takes no decisions from the model"), "{message}");
            assert_eq!(deploy.calls(), 0, "nothing ran");
            // A person decides: here the host, through its own API.
            let done = reply.wait_with(&run_id, approve(&id)).await.unwrap();
            assert_eq!(value(&done), &json!("deploy"));
        } else {
            assert_eq!(value(&decided), &json!("deploy"), "{}", decided.to_model_json());
        }
        assert_eq!(deploy.calls(), 1);
        let kind = loop {
            match events.recv().await.unwrap() {
                RunEvent::ApprovalDecided { kind, .. } => break kind,
                _ => continue,
            }
        };
        let expected = if model_decides { DeciderKind::Model } else { DeciderKind::Host };
        assert_eq!(kind, Some(expected));
        rt.shutdown().await;
    }
}
