//! Approvals with real processes on a real sled store: a `[[policy]]`
//! rule asks, the session's `wait` approves or denies, and a pending
//! approval survives `kill -9` — an operator's `codemode runs approve`
//! then has the call run exactly once in the next process (GA-1.3,
//! GA-10.3).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Session;
use serde_json::{Value, json};

/// A configuration with the counting tools, `count` asked about.
fn config(dir: &Path) -> PathBuf {
    let tools = common::counting_tools(dir, 3);
    let text = format!(
        "{tools}\n[[policy]]\ntool = \"count\"\naction = \"ask\"\nreason = \"counting needs a person\"\n\n\
         [[policy]]\ntool = \"slow*\"\naction = \"deny\"\nreason = \"too slow today\"\n"
    );
    let path = dir.join("codemode.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |s| s.lines().count())
}

/// `codemode --config … --store … <args>`: exit code and stdout+stderr.
fn codemode(config: &Path, store: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--config")
        .arg(config)
        .arg("--store")
        .arg(store)
        .args(args)
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// The one pending approval's id of a result parked for approval.
fn pending_id(parked: &Value) -> String {
    assert_eq!((parked["status"].as_str(), parked["reason"].as_str()), (Some("waiting"), Some("approval")), "{parked}");
    let approvals = parked["pendingApprovals"].as_array().unwrap();
    assert_eq!(approvals.len(), 1, "{parked}");
    assert_eq!(approvals[0]["tool"], "count");
    assert_eq!(approvals[0]["reason"], "counting needs a person");
    approvals[0]["id"].as_str().unwrap().to_owned()
}

#[test]
fn policy_rules_ask_and_deny_and_a_session_wait_decides_ga_10_3() {
    let dir = common::temp("approvals", "session");
    let config = config(&dir);
    let (code, shown) = codemode(&config, &dir.join("store"), &["config", "check"]);
    assert_eq!(code, 0, "{shown}");
    assert!(shown.contains("# policy: 2 rules, the first match decides"), "{shown}");
    assert!(shown.contains("tool=count -> ask (counting needs a person)"), "{shown}");
    let mut session = Session::start(&config, &dir.join("store"));
    let denied = session.exec("try { await slow({}) } catch (e) { return [e.code, e.message] }");
    assert_eq!(denied["value"], json!(["policy_denied", "slow was denied by policy: too slow today"]), "{denied}");
    let parked = session.exec("const a = await count({}); return a.n");
    let id = pending_id(&parked);
    assert_eq!(lines(&dir.join("calls")), 0, "the call waits for a decision");
    let run_id = parked["runId"].as_str().unwrap();
    let refused = session.ask(&json!({"op": "wait", "runId": run_id, "approve": ["appr_nope"]}));
    assert_eq!(refused["code"], "invalid_input", "{refused}");
    let done = session.ask(&json!({"op": "wait", "runId": run_id, "approve": [id]}));
    assert_eq!(done["value"], 1, "{done}");
    assert_eq!(lines(&dir.join("calls")), 1);
    let parked = session.exec("try { await count({}) } catch (e) { return [e.code, e.message] }");
    let id = pending_id(&parked);
    let run_id = parked["runId"].as_str().unwrap();
    let done = session.ask(&json!({"op": "wait", "runId": run_id, "deny": [{"id": id, "reason": "enough counting"}]}));
    assert_eq!(done["value"], json!(["denied", "count was denied: enough counting"]), "{done}");
    assert_eq!(lines(&dir.join("calls")), 1);
    session.kill_9();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pending_approval_survives_kill_9_and_an_operators_approval_runs_the_call_once_ga_1_3() {
    let dir = common::temp("approvals", "kill");
    let config = config(&dir);
    let store = dir.join("store");
    let mut first = Session::start(&config, &store);
    let parked = first.exec("text('asked'); const a = await count({}); text('ran'); return a.n");
    let id = pending_id(&parked);
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    first.kill_9();

    let (code, shown) = codemode(&config, &store, &["runs", "show", &run_id]);
    assert_eq!(code, 0, "{shown}");
    assert!(shown.contains(&format!("{id}  count [native]  pending")), "{shown}");
    let (code, out) = codemode(&config, &store, &["runs", "approve", &run_id, "appr_nope"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("appr_nope is not pending"), "{out}");
    let (code, out) = codemode(&config, &store, &["runs", "approve", &run_id, &id]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("approved {id} (count)")), "{out}");
    let (code, out) = codemode(&config, &store, &["runs", "approve", &run_id, &id]);
    assert_eq!(code, 1, "deciding twice is an error: {out}");
    let (_, shown) = codemode(&config, &store, &["runs", "show", &run_id, "--json"]);
    let shown: Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(shown["approvals"]["inbox"][0]["decisions"]["approve"][0], id.as_str(), "{shown}");
    assert_eq!(lines(&dir.join("calls")), 0, "an operator's decision runs nothing by itself");

    let mut second = Session::start(&config, &store);
    let done = second.wait(&run_id);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["value"], 1, "{done}");
    let texts: Vec<&Value> = done["output"].as_array().unwrap().iter().map(|e| &e["text"]).collect();
    assert_eq!(texts, ["ran"], "output delivered once: {done}");
    assert_eq!(lines(&dir.join("calls")), 1, "the approved call ran exactly once");
    second.kill_9();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Copies the (closed) sled store at `from` to `to`.
fn copy_store(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_store(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// `codemode runs approve RUN ID` on `store`, with the crash-point hook's
/// environment.
fn approve_with(config: &Path, store: &Path, run_id: &str, id: &str, env: (&str, String)) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_codemode"))
        .env(env.0, env.1)
        .arg("--config")
        .arg(config)
        .arg("--store")
        .arg(store)
        .args(["runs", "approve", run_id, id])
        .output()
        .unwrap()
}

#[test]
fn an_operators_approval_cut_at_any_crash_point_is_audited_and_runs_the_call_at_most_once_ga_10_3() {
    let dir = common::temp("approvals", "cut");
    let config = config(&dir);
    let parked_store = dir.join("parked");
    let mut first = Session::start(&config, &parked_store);
    let parked = first.exec("const a = await count({}); return a.n");
    let id = pending_id(&parked);
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    first.kill_9();
    // The points an approval passes, from a traced run on a copy.
    let traced = dir.join("traced");
    copy_store(&parked_store, &traced);
    let trace = dir.join("trace");
    let out = approve_with(&config, &traced, &run_id, &id, ("CODEMODE_CRASH_TRACE", trace.display().to_string()));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let names: Vec<String> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once(' ').map(|(_, name)| name.to_owned()))
        .collect();
    assert_eq!(names, ["operator.audited", "operator.acted"]);
    for (k, name) in names.iter().enumerate() {
        let store = dir.join(format!("cut-{k}"));
        copy_store(&parked_store, &store);
        let out = approve_with(&config, &store, &run_id, &id, ("CODEMODE_CRASH_AT", (k + 1).to_string()));
        assert!(!out.status.success(), "cut at {name}");
        let (code, audit) = codemode(&config, &store, &["runs", "audit", "--json"]);
        assert_eq!(code, 0, "{audit}");
        let audit: Value = serde_json::from_str(&audit).unwrap();
        assert_eq!(audit.as_array().map(Vec::len), Some(1), "cut at {name}: audited before anything: {audit}");
        assert_eq!((audit[0]["ok"].as_bool(), audit[0]["action"].as_str()), (Some(false), Some("approve")));
        assert_eq!(audit[0]["outcome"], codemode_store::audit::STARTED, "cut at {name}");
        let (_, shown) = codemode(&config, &store, &["runs", "show", &run_id, "--json"]);
        let shown: Value = serde_json::from_str(&shown).unwrap();
        let decided = shown["approvals"]["inbox"].as_array().is_some_and(|inbox| !inbox.is_empty());
        assert_eq!(decided, name == "operator.acted", "cut at {name}: {shown}");
        // The next process: a decision that was taken runs the call once;
        // one that was not leaves the approval pending.
        let before = lines(&dir.join("calls"));
        let mut next = Session::start(&config, &store);
        let result = next.wait(&run_id);
        if decided {
            assert_eq!(result["value"], 1, "cut at {name}: {result}");
            assert_eq!(lines(&dir.join("calls")), before + 1, "cut at {name}: the approved call ran once");
        } else {
            assert_eq!(pending_id(&result), id, "cut at {name}: still pending");
            assert_eq!(lines(&dir.join("calls")), before, "cut at {name}: nothing ran");
        }
        next.kill_9();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn codemode_exec_has_no_one_to_ask_so_an_asked_call_is_denied_at_once_and_the_cell_goes_on_ga_10_3() {
    let dir = common::temp("approvals", "exec");
    let config = config(&dir);
    let cell = dir.join("cell.js");
    std::fs::write(
        &cell,
        "let r; try { await count({}) } catch (e) { r = [e.code, e.message] }\n\
         await yield_control('after the refusal'); return r",
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--config")
        .arg(&config)
        .arg("--store")
        .arg(dir.join("store"))
        .args(["exec", "--json"])
        .arg(&cell)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Well past a start-up, far short of the approval TTL a spinning
    // `exec` would wait out.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let printed: Vec<&str> = stdout.lines().collect();
    assert!(out.status.success(), "exec ended promptly: {} lines, last {:?}", printed.len(), printed.last());
    assert_eq!(printed.len(), 2, "the yield parked once, the refusal not at all: {stdout}");
    let parked: Value = serde_json::from_str(printed[0]).unwrap();
    assert_eq!(parked["reason"], "yield", "{stdout}");
    let done: Value = serde_json::from_str(printed[1]).unwrap();
    assert_eq!(done["status"], "completed", "{stdout}");
    assert_eq!(done["value"][0], "denied", "{stdout}");
    let message = done["value"][1].as_str().unwrap();
    assert!(message.contains("counting needs a person") && message.contains("no one to ask"), "{message}");
    assert_eq!(lines(&dir.join("calls")), 0, "the asked tool never ran");
    let _ = std::fs::remove_dir_all(&dir);
}

/// One `exec` through `serve` by a client that answers elicitations with
/// `answers`.
fn elicited(dir: &Path, config: &Path, code: &str, answers: &Value) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_elicitation.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_codemode"))
        .arg(config)
        .arg(dir.join("store"))
        .arg(code)
        .arg(answers.to_string())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn serve_asks_a_client_that_declares_elicitation_and_the_cell_goes_on_in_the_same_call_ga_10_3() {
    let dir = common::temp("approvals", "elicit");
    let config = config(&dir);
    let code = "text('start'); const a = await count({}); let b, c; \
                try { await count({}) } catch (e) { b = e.message } \
                try { await count({}) } catch (e) { c = e.code } return [a.n, b, c]";
    let answers = json!([{"approve": true}, {"approve": false, "reason": "twice is enough"}, "decline"]);
    let out = elicited(&dir, &config, code, &answers);
    let result = &out["result"];
    assert_eq!(result["status"], "completed", "{out}");
    assert_eq!(result["value"], json!([1, "count was denied: twice is enough", "denied"]), "{out}");
    assert_eq!(result["output"][0]["text"], "start", "earlier output is kept: {out}");
    let asked = out["asked"].as_array().unwrap();
    assert_eq!(asked.len(), 3, "{out}");
    assert!(
        asked[0].as_str().unwrap().contains("count") && asked[0].as_str().unwrap().contains("counting needs a person")
    );
    assert_eq!(lines(&dir.join("calls")), 1);

    // Cancelled: the approval stays pending and the model gets `waiting`.
    let out = elicited(&dir, &config, "return (await count({})).n", &json!(["cancel"]));
    assert_eq!(out["result"]["reason"], "approval", "{out}");
    assert_eq!(lines(&dir.join("calls")), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_operators_approval_given_in_time_runs_the_call_once_even_when_the_run_resumes_after_the_ttl_ga_10_3() {
    let dir = common::temp("approvals", "in-time");
    let tools = common::counting_tools(&dir, 3);
    let config = dir.join("codemode.toml");
    std::fs::write(
        &config,
        format!("[limits]\napproval_ttl_ms = 2000\n{tools}\n[[policy]]\ntool = \"count\"\naction = \"ask\"\n"),
    )
    .unwrap();
    let store = dir.join("store");
    let mut first = Session::start(&config, &store);
    let parked = first.exec("const a = await count({}); return a.n");
    let id = parked["pendingApprovals"][0]["id"].as_str().unwrap().to_owned();
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    first.kill_9();
    let (code, out) = codemode(&config, &store, &["runs", "approve", &run_id, &id]);
    assert_eq!(code, 0, "approved well before the 2 s expiry: {out}");
    // The run resumes only after the approval would have expired.
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let mut second = Session::start(&config, &store);
    let done = second.wait(&run_id);
    assert_eq!(done["value"], 1, "the decision made in time counts: {done}");
    assert_eq!(lines(&dir.join("calls")), 1);
    second.kill_9();
    let _ = std::fs::remove_dir_all(&dir);
}

/// One MCP `tools/call` on `serve --http` at `url` (the session key `k`):
/// an `exec` of `code`, or `approve:RUN:ID` through the model's `wait`.
fn over_mcp(url: &str, code: &str) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_http_identity.py");
    let out = Command::new("python3").args([script, url, code, "-", "k"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn the_models_wait_on_serve_cannot_approve_its_own_asked_call_unless_the_host_lets_it_ga_10_3() {
    for model_decides in [false, true] {
        let dir = common::temp("approvals", &format!("model-{model_decides}"));
        let tools = common::counting_tools(&dir, 3);
        let text = format!(
            "{tools}\n[approvals]\nmodel_decides = {model_decides}\n\n[[policy]]\ntool = \"count\"\naction = \"ask\"\n"
        );
        let server = common::Server::start("approvals", &format!("serve-{model_decides}"), &text, &[]);
        let parked = over_mcp(&server.mcp, "return (await count({})).n");
        assert_eq!(parked["reason"], "approval", "{parked}");
        let (run_id, id) = (parked["runId"].as_str().unwrap(), parked["pendingApprovals"][0]["id"].as_str().unwrap());
        let answer = over_mcp(&server.mcp, &format!("approve:{run_id}:{id}"));
        let ran = lines(&dir.join("calls"));
        if model_decides {
            assert_eq!(answer["value"], 1, "{answer}");
            assert_eq!(ran, 1);
        } else {
            assert_eq!(answer["code"], "invalid_input", "{answer}");
            assert!(answer["error"].as_str().unwrap().contains("wait takes no decisions from the model"), "{answer}");
            assert_eq!(ran, 0, "the asked call did not run");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
