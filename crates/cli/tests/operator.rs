//! The operator API and console on a live `codemode serve --http` holding
//! its sled store: an operator approves through `codemode runs --server`
//! while the server runs, the call runs exactly once, and the audit trail
//! lists every action; wrong credentials, malformed input and cross-site
//! forms touch nothing; the console shows tool arguments as text
//! (GA-10.3).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

const CLIENT: &str = "client-token-0123456789abcdef0123456789";
const OPERATOR: &str = "operator-token-0123456789abcdef012345678";

/// A server whose policy asks before `count`, with a client and an
/// operator token, on its own sled store.
fn start(name: &str) -> common::Server {
    start_with(name, "")
}

/// [`start`] with `store` (a `[store]` section) in its configuration.
fn start_with(name: &str, store: &str) -> common::Server {
    let dir = common::temp("operator-tools", name);
    let tools = common::counting_tools(&dir, 1);
    let config = format!(
        "{store}\n{tools}\n[[policy]]\ntool = \"count\"\naction = \"ask\"\nreason = \"counting needs a person\"\n\n\
         [serve]\ntokens = [{{ token = \"{CLIENT}\", principal = \"alice\" }}]\n\n\
         [operator]\ntokens = [{{ token = \"{OPERATOR}\", name = \"ops-alice\" }}]\n"
    );
    let mut server = common::Server::start("operator", name, &config, &[]);
    server.wait_for("console at http://");
    std::fs::write(server.dir.join("tools-dir"), dir.display().to_string()).unwrap();
    server
}

/// How many times `count` ran.
fn calls(server: &common::Server) -> usize {
    let dir = std::fs::read_to_string(server.dir.join("tools-dir")).unwrap();
    std::fs::read_to_string(std::path::Path::new(&dir).join("calls")).map_or(0, |s| s.lines().count())
}

/// One MCP session of the client, call by call.
struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Client {
    fn start(url: &str) -> Self {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_calls.py");
        let mut child = Command::new("python3")
            .args([script, url, CLIENT])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut ready = String::new();
        stdout.read_line(&mut ready).unwrap();
        assert!(ready.contains("ready"), "{ready:?}");
        Self { child, stdin, stdout }
    }

    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        writeln!(self.stdin, "{}", json!([tool, arguments])).unwrap();
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request: status code, head (lower case), body.
fn request(addr: &str, method: &str, target: &str, headers: &[(&str, &str)], body: &str) -> (u16, String, String) {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(common::PATIENCE)).unwrap();
    let mut head = format!(
        "{method} {target} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\ncontent-length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    write!(stream, "{head}\r\n{body}").unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let code = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (code, head.to_ascii_lowercase(), body.to_owned())
}

fn api(addr: &str, method: &str, target: &str, body: Option<Value>) -> (u16, Value) {
    let auth = format!("Bearer {OPERATOR}");
    let text = body.map(|b| b.to_string()).unwrap_or_default();
    let (code, _, body) =
        request(addr, method, target, &[("authorization", &auth), ("content-type", "application/json")], &text);
    (code, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body:?}")))
}

/// `codemode runs --server … <args>` with the operator token in the
/// environment: exit code and output.
fn runs(server: &common::Server, addr: &str, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--config")
        .arg(server.dir.join("codemode.toml"))
        .args(["runs", "--server", &format!("http://{addr}")])
        .args(args)
        .env("CODEMODE_OPERATOR_TOKEN", OPERATOR)
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// `codemode runs <args>` on the server's configured store directly (no
/// server in between): exit code and standard output (a failure's output
/// includes standard error).
fn local_runs(server: &common::Server, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--config")
        .arg(server.dir.join("codemode.toml"))
        .arg("runs")
        .args(args)
        .env("USER", "carol")
        .output()
        .unwrap();
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        text.push_str(&String::from_utf8_lossy(&out.stderr));
    }
    (out.status.code().unwrap_or(-1), text)
}

/// Parks a cell on an approval of `count`, its argument carrying markup.
fn park(client: &mut Client) -> (String, String) {
    let parked = client.call("exec", json!({"code": "return await count({note: '<script>alert(1)</script>'})"}));
    assert_eq!((parked["status"].as_str(), parked["reason"].as_str()), (Some("waiting"), Some("approval")), "{parked}");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    let approval = parked["pendingApprovals"][0]["id"].as_str().unwrap().to_owned();
    (run_id, approval)
}

#[test]
fn an_operator_approves_on_a_live_sled_server_through_the_cli_and_the_call_runs_once_ga_10_3() {
    let server = start("approve");
    let addr = server.mcp.trim_start_matches("http://").trim_end_matches("/mcp").to_owned();
    let mut client = Client::start(&server.mcp);
    let (run_id, approval) = park(&mut client);

    // Credentials: none, a client's, an unknown one.
    assert_eq!(request(&addr, "GET", "/operator/runs", &[], "").0, 401);
    assert_eq!(request(&addr, "GET", "/operator/runs", &[("authorization", &format!("Bearer {CLIENT}"))], "").0, 403);
    assert_eq!(
        request(&addr, "GET", "/operator/runs", &[("authorization", "Bearer nope-nope-nope-nope-nope-nope-nope")], "")
            .0,
        401
    );
    let approve = json!({"approvals": [approval]});
    let as_client = request(
        &addr,
        "POST",
        &format!("/operator/runs/{run_id}/approve"),
        &[("authorization", &format!("Bearer {CLIENT}"))],
        &approve.to_string(),
    );
    assert_eq!(as_client.0, 403, "a client token decides nothing");

    // Listing and filters; bad input is a 400 naming it.
    let (code, page) = api(&addr, "GET", "/operator/runs?waiting=approval&principal=alice", None);
    assert_eq!(code, 200, "{page}");
    let listed = page["runs"].as_array().unwrap();
    assert_eq!(listed.len(), 1, "{page}");
    assert_eq!(
        (listed[0]["run_id"].as_str(), listed[0]["waiting"].as_str()),
        (Some(run_id.as_str()), Some("approval"))
    );
    assert!(listed[0]["session"].as_str().unwrap().starts_with("sha256:"), "session keys are never sent");
    assert_eq!(api(&addr, "GET", "/operator/runs?principal=bob", None).1["runs"], json!([]));
    let (code, refused) = api(&addr, "GET", "/operator/runs?colour=red", None);
    assert_eq!(code, 400);
    assert!(refused["error"].as_str().unwrap().contains("colour"), "{refused}");
    assert_eq!(api(&addr, "GET", "/operator/runs/run_nope", None).0, 400);
    assert_eq!(api(&addr, "GET", &format!("/operator/runs/run_{}", "0".repeat(32)), None).0, 404);
    let (code, long) = api(
        &addr,
        "POST",
        &format!("/operator/runs/{run_id}/deny"),
        Some(json!({"approvals": [approval], "reason": "r".repeat(1001)})),
    );
    assert_eq!(code, 400, "{long}");
    assert_eq!(calls(&server), 0, "nothing ran before the decision");

    // A local command cannot open the store the server holds, and says
    // what to do instead.
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--store")
        .arg(server.dir.join("store"))
        .args(["runs", "list"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("--server"), "{}", String::from_utf8_lossy(&out.stderr));

    // The CLI, through the server.
    let (code, shown) = runs(&server, &addr, &["show", &run_id]);
    assert_eq!(code, 0, "{shown}");
    assert!(shown.contains("parked (approval)") && shown.contains(&approval), "{shown}");
    let (code, decided) = runs(&server, &addr, &["approve", &run_id, &approval]);
    assert_eq!(code, 0, "{decided}");
    assert!(decided.contains(&format!("approved {approval}")), "{decided}");
    let (code, again) = runs(&server, &addr, &["approve", &run_id, &approval]);
    assert_ne!(code, 0, "a decision is taken once: {again}");
    assert!(again.contains("409"), "{again}");

    // The run's next wait takes the decision: the call runs once.
    let done = client.call("wait", json!({"runId": run_id}));
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["value"]["n"], 1, "{done}");
    assert_eq!(calls(&server), 1, "the approved call ran exactly once");
    let (_, detail) = api(&addr, "GET", &format!("/operator/runs/{run_id}"), None);
    assert_eq!(detail["status"], "completed", "{detail}");
    assert_eq!(detail["receipt"]["status"], "completed", "a completed run shows its receipt: {detail}");

    // The audit trail, from the API and the CLI.
    let (_, audit) = api(&addr, "GET", "/operator/audit", None);
    let entries = audit["entries"].as_array().unwrap();
    let mine: Vec<&Value> = entries.iter().filter(|e| e["run_id"] == run_id.as_str()).collect();
    assert!(
        mine.iter().any(|e| e["action"] == "approve" && e["ok"] == true && e["operator"] == "ops-alice"),
        "{audit}"
    );
    assert!(
        mine.iter().any(|e| e["action"] == "approve" && e["ok"] == false),
        "a refused decision is recorded too: {audit}"
    );
    let (code, listed) = runs(&server, &addr, &["audit"]);
    assert_eq!(code, 0, "{listed}");
    assert!(listed.contains("ops-alice  approve"), "{listed}");
}

/// Signs in to the console: the cookie header to send.
fn sign_in(addr: &str) -> String {
    let (code, head, body) = request(
        addr,
        "POST",
        "/console/login",
        &[("content-type", "application/x-www-form-urlencoded")],
        &format!("token={OPERATOR}"),
    );
    assert_eq!(code, 303, "{head}{body}");
    let cookie = head.lines().find_map(|l| l.strip_prefix("set-cookie: ")).unwrap();
    assert!(cookie.contains("httponly") && cookie.contains("samesite=strict"), "{cookie}");
    cookie.split(';').next().unwrap().to_owned()
}

#[test]
fn the_console_shows_untrusted_text_as_text_and_refuses_forged_or_cross_site_forms_ga_10_3() {
    let server = start("console");
    let addr = server.mcp.trim_start_matches("http://").trim_end_matches("/mcp").to_owned();
    let mut client = Client::start(&server.mcp);
    let (run_id, approval) = park(&mut client);

    let (code, head, body) = request(&addr, "GET", "/console", &[], "");
    assert_eq!(code, 401, "signed out: the sign-in page");
    assert!(
        body.contains("Operator sign-in") && head.contains("content-security-policy: default-src 'none'"),
        "{head}"
    );
    let (code, _, body) = request(&addr, "POST", "/console/login", &[], &format!("token={CLIENT}"));
    assert_eq!(code, 403, "a client token does not sign in: {body}");

    let cookie = sign_in(&addr);
    let (code, head, page) = request(&addr, "GET", "/console", &[("cookie", &cookie)], "");
    assert_eq!(code, 200);
    assert!(head.contains("content-security-policy: default-src 'none'; style-src 'self'"), "{head}");
    assert!(page.contains(&approval) && page.contains("Approve"), "the pending approval is listed");
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the argument is escaped");
    assert!(!page.contains("<script"), "no markup from a tool argument: {page}");
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_owned();

    let form = |csrf: &str| format!("csrf={csrf}&approval={approval}&verdict=deny&reason=not+today");
    let target = format!("/console/runs/{run_id}/decide");
    let forged = request(&addr, "POST", &target, &[("cookie", &cookie)], &form("0000"));
    assert_eq!(forged.0, 403, "a form without this sign-in's token");
    let cross =
        request(&addr, "POST", &target, &[("cookie", &cookie), ("origin", "http://evil.example")], &form(&csrf));
    assert_eq!(cross.0, 403, "a form posted from another site");
    let signed_out = request(&addr, "POST", &target, &[], &form(&csrf));
    assert_eq!(signed_out.0, 401);
    assert!(
        api(&addr, "GET", "/operator/audit", None).1["entries"].as_array().unwrap().is_empty(),
        "nothing was decided"
    );

    let (code, head, _) =
        request(&addr, "POST", &target, &[("cookie", &cookie), ("origin", &format!("http://{addr}"))], &form(&csrf));
    assert_eq!(code, 303, "{head}");
    let (_, _, run_page) = request(&addr, "GET", &format!("/console/runs/{run_id}"), &[("cookie", &cookie)], "");
    assert!(run_page.contains("Denied"), "the outcome is shown once: {run_page}");
    let done = client.call("wait", json!({"runId": run_id}));
    assert_eq!(done["status"], "failed", "{done}");
    assert!(done.to_string().contains("not today"), "the reason reaches the guest: {done}");
    assert_eq!(calls(&server), 0, "a denied call never runs");
    let (_, audit) = api(&addr, "GET", "/operator/audit", None);
    assert_eq!(audit["entries"][0]["action"], "deny", "{audit}");
    assert_eq!(audit["entries"][0]["reason"], "not today", "{audit}");
}

/// Runs the console's browser script: its JSON line.
fn browser(base: &str, approval: &str, verdict: &str, screenshot: &std::path::Path, reason: &str) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/console_browser.py");
    let out = Command::new("python3")
        .args([script, base, OPERATOR, approval, verdict, &screenshot.display().to_string(), reason])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn an_operator_approves_and_denies_from_the_console_in_headless_chromium_ga_10_3() {
    let server = start("browser");
    let base = server.mcp.trim_end_matches("/mcp").to_owned();
    let addr = base.trim_start_matches("http://").to_owned();
    let mut client = Client::start(&server.mcp);
    // Kept as CI artifacts.
    let artifacts = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();

    let (run_id, approval) = park(&mut client);
    let seen = browser(&base, &approval, "approve", &artifacts.join("console-pending.png"), "");
    assert!(seen["flash"].as_str().unwrap().starts_with(&format!("Approved {approval}")), "{seen}");
    assert!(seen["argument"].as_str().unwrap().contains("<script>alert(1)</script>"), "shown as text: {seen}");
    assert_eq!((seen["alerted"].as_bool(), seen["narrowOverflows"].as_bool()), (Some(false), Some(false)), "{seen}");
    let done = client.call("wait", json!({"runId": run_id}));
    assert_eq!((done["status"].as_str(), done["value"]["n"].as_u64()), (Some("completed"), Some(1)), "{done}");
    assert_eq!(calls(&server), 1, "the approved call ran exactly once");

    let (run_id, approval) = park(&mut client);
    let seen = browser(&base, &approval, "deny", &artifacts.join("console-deny.png"), "not in production");
    assert!(seen["flash"].as_str().unwrap().starts_with(&format!("Denied {approval}")), "{seen}");
    let done = client.call("wait", json!({"runId": run_id}));
    assert_eq!(done["status"], "failed", "{done}");
    assert!(done.to_string().contains("not in production"), "the reason reaches the guest: {done}");
    assert_eq!(calls(&server), 1, "the denied call never ran");

    let (_, audit) = api(&addr, "GET", "/operator/audit", None);
    let entries: Vec<(&str, &str, Option<&str>)> = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["operator"].as_str().unwrap(), e["action"].as_str().unwrap(), e["reason"].as_str()))
        .collect();
    assert_eq!(entries, [("ops-alice", "deny", Some("not in production")), ("ops-alice", "approve", None)]);
}

#[test]
fn on_postgresql_the_store_and_the_servers_api_show_the_same_run_and_a_decision_is_taken_once_ga_10_3() {
    let url = {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(codemode_store::postgres::test_database())
    };
    let server = start_with("postgres", &format!("[store]\nbackend = \"postgres\"\nurl = \"{url}\"\n"));
    let addr = server.mcp.trim_start_matches("http://").trim_end_matches("/mcp").to_owned();
    let mut client = Client::start(&server.mcp);
    let (run_id, approval) = park(&mut client);

    // Both paths, while the server runs: the same run, the same approval.
    let (code, local) = local_runs(&server, &["show", &run_id, "--json"]);
    assert_eq!(code, 0, "{local}");
    let local: Value = serde_json::from_str(&local).unwrap();
    let (_, remote) = api(&addr, "GET", &format!("/operator/runs/{run_id}"), None);
    for field in ["run_id", "status", "session", "principal", "waiting", "journal_bytes", "version", "approvals"] {
        assert_eq!(local[field], remote[field], "{field}: {local} vs {remote}");
    }
    assert_eq!(remote["waiting"], "approval");
    let (code, listed) = local_runs(&server, &["list", "--waiting", "approval", "--json"]);
    assert_eq!(code, 0, "{listed}");
    let local_ids: Vec<Value> =
        serde_json::from_str::<Vec<Value>>(&listed).unwrap().iter().map(|r| r["run_id"].clone()).collect();
    let (_, page) = api(&addr, "GET", "/operator/runs?waiting=approval", None);
    let remote_ids: Vec<Value> = page["runs"].as_array().unwrap().iter().map(|r| r["run_id"].clone()).collect();
    assert_eq!(local_ids, remote_ids);

    // Decided on the store directly; the API then finds nothing pending.
    let (code, decided) = local_runs(&server, &["approve", &run_id, &approval]);
    assert_eq!(code, 0, "{decided}");
    let (code, again) =
        api(&addr, "POST", &format!("/operator/runs/{run_id}/approve"), Some(json!({"approvals": [approval]})));
    assert_eq!(code, 409, "{again}");
    let done = client.call("wait", json!({"runId": run_id}));
    assert_eq!((done["status"].as_str(), done["value"]["n"].as_u64()), (Some("completed"), Some(1)), "{done}");
    assert_eq!(calls(&server), 1, "the approved call ran exactly once");

    // One audit trail, read alike from both paths.
    let (_, audit) = api(&addr, "GET", "/operator/audit", None);
    let who: Vec<(&str, bool)> = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["operator"].as_str().unwrap(), e["ok"].as_bool().unwrap()))
        .collect();
    assert_eq!(who, [("ops-alice", false), ("local:carol", true)], "{audit}");
    let (code, local_audit) = local_runs(&server, &["audit", "--json"]);
    assert_eq!(code, 0, "{local_audit}");
    assert_eq!(serde_json::from_str::<Value>(&local_audit).unwrap(), audit["entries"]);
}
