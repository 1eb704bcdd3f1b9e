//! The MCP sessions `codemode serve --http` keeps for a client that never
//! ends them: a real server, spoken to in JSON-RPC by hand, watched
//! through its `/metrics`. Past `[serve] max_sessions_per_principal` an
//! `initialize` is refused with 429 saying why; a session idle for
//! `[serve] session_idle_ttl_ms` is closed, freeing its place; a session
//! whose call runs longer than that is kept until the call is answered.

use std::time::{Duration, Instant};

use reqwest::blocking::{Client, Response};
use serde_json::{Value, json};

mod common;

use common::{PATIENCE, Server, http};

const ALICE: &str = "alice-token-0123456789abcdef0123456789";
const BOB: &str = "bob-token-0123456789abcdef0123456789ab";

/// The MCP protocol version the requests speak.
const VERSION: &str = "2025-11-25";

/// Three sessions per principal, idle after `ttl`; alice and bob.
fn config(ttl: Duration) -> String {
    format!(
        "[serve]\nmax_sessions_per_principal = 3\nsession_idle_ttl_ms = {}\ndispose_grace_ms = 0\n\
         tokens = [{{ token = \"{ALICE}\", principal = \"alice\" }}, {{ token = \"{BOB}\", principal = \"bob\" }}]\n",
        ttl.as_millis()
    )
}

/// POSTs `message` to the MCP endpoint as `token`, in `session` if given.
fn post(client: &Client, server: &Server, token: &str, session: Option<&str>, message: &Value) -> Response {
    let mut request = client
        .post(&server.mcp)
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", VERSION)
        .body(message.to_string());
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    request.send().unwrap()
}

/// Opens an MCP session as `token` and never ends it: its id, or the
/// response refusing it.
fn initialize(client: &Client, server: &Server, token: &str) -> Result<String, Box<Response>> {
    let params = json!({"protocolVersion": VERSION, "capabilities": {},
        "clientInfo": {"name": "serve-sessions-test", "version": "1"}});
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params});
    let response = post(client, server, token, None, &init);
    if response.status() != 200 {
        return Err(Box::new(response));
    }
    let id = response.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    let answer = response.text().unwrap();
    assert!(answer.contains("\"result\""), "{answer}");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(post(client, server, token, Some(&id), &initialized).status(), 202);
    Ok(id)
}

/// The status of a `tools/list` in session `id`: 404 once it is closed.
fn list_tools(client: &Client, server: &Server, id: &str) -> reqwest::StatusCode {
    let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"});
    let response = post(client, server, ALICE, Some(id), &list);
    let status = response.status();
    let _ = response.text();
    status
}

/// `codemode_mcp_sessions{state="open"}` now.
fn open_sessions(server: &Server) -> f64 {
    let (status, _, text) = http(&server.probes, "GET", "/metrics");
    assert_eq!(status, "HTTP/1.1 200 OK", "{text}");
    text.lines()
        .find_map(|l| l.strip_prefix("codemode_mcp_sessions{state=\"open\"} "))
        .unwrap_or_else(|| panic!("no open sessions gauge in:\n{text}"))
        .trim()
        .parse()
        .unwrap()
}

/// Polls `/metrics` until no MCP session is open. PATIENCE only bounds a
/// hang.
fn until_no_session_is_open(server: &Server) {
    let deadline = Instant::now() + PATIENCE;
    while open_sessions(server) > 0.0 {
        assert!(Instant::now() < deadline, "sessions still open: {}", open_sessions(server));
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_principal_past_its_session_cap_is_refused_with_429_until_its_idle_sessions_are_closed() {
    // Long enough for the four requests below to fit in it.
    const TTL: Duration = Duration::from_secs(2);
    let server = Server::start("serve-sessions", "cap", &config(TTL), &[]);
    let client = Client::new();
    let mut alice: Vec<String> = (0..3).map(|_| initialize(&client, &server, ALICE).unwrap()).collect();

    let refused = initialize(&client, &server, ALICE).unwrap_err();
    assert_eq!(refused.status(), 429);
    assert_eq!(refused.headers()["content-type"], "application/json");
    assert_eq!(refused.headers()["retry-after"], "2", "the idle TTL, in seconds");
    let body: Value = serde_json::from_str(&refused.text().unwrap()).unwrap();
    assert_eq!((&body["jsonrpc"], &body["id"], &body["error"]["code"]), (&json!("2.0"), &Value::Null, &json!(-32000)));
    let message = body["error"]["message"].as_str().unwrap();
    for part in ["`alice` has 3 open MCP sessions", "max_sessions_per_principal", "HTTP DELETE", "idle for 2 s"] {
        assert!(message.contains(part), "{part:?} in {message}");
    }
    assert_eq!(body["error"]["data"], json!({"limit": "max_sessions_per_principal", "max": 3, "idleTtlMs": 2000}));

    // The cap is per principal; the gauge counts every open session.
    let _bob = initialize(&client, &server, BOB).unwrap();
    assert_eq!(open_sessions(&server), 4.0, "the refused session was never counted");

    // Ending a session frees its place at once.
    let deleted = client
        .delete(&server.mcp)
        .header("authorization", format!("Bearer {ALICE}"))
        .header("mcp-protocol-version", VERSION)
        .header("mcp-session-id", &alice[0])
        .send()
        .unwrap();
    assert_eq!(deleted.status(), 200);
    let last_used = Instant::now();
    alice[0] = initialize(&client, &server, ALICE).unwrap();

    // Nobody uses them: after the TTL every one is closed, the newest too.
    until_no_session_is_open(&server);
    assert!(last_used.elapsed() >= TTL, "not closed before the TTL: {:?}", last_used.elapsed());
    for id in &alice {
        assert_eq!(list_tools(&client, &server, id), 404, "session {id} is gone");
    }
    initialize(&client, &server, ALICE).expect("alice has places again");
    let _ = std::fs::remove_dir_all(&server.dir);
}

#[test]
fn a_call_running_longer_than_the_idle_ttl_keeps_its_session_until_it_is_answered() {
    const TTL: Duration = Duration::from_secs(1);
    let server = Server::start("serve-sessions", "busy", &config(TTL), &[]);
    let client = Client::new();
    let id = initialize(&client, &server, ALICE).unwrap();

    // Nothing passes on the session while the cell sleeps: 2.5 TTLs.
    let code = "await new Promise(r => setTimeout(r, 2500)); return 'still here';";
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "exec", "arguments": {"code": code}}});
    let started = Instant::now();
    let response = post(&client, &server, ALICE, Some(&id), &call);
    assert_eq!(response.status(), 200);
    let answer = response.text().unwrap();
    assert!(started.elapsed() >= Duration::from_millis(2500));
    assert!(answer.contains("still here"), "the call was answered: {answer}");
    assert_eq!(list_tools(&client, &server, &id), 200, "the session is still open");

    // Idle from here: closed after the TTL.
    until_no_session_is_open(&server);
    assert_eq!(list_tools(&client, &server, &id), 404);
    let _ = std::fs::remove_dir_all(&server.dir);
}
