//! Node pairings shared on PostgreSQL (GA-10.1), with real processes: two
//! `codemode serve --http` on one database, each with its own node gateway,
//! and node hosts (`codemode node`). A node paired through one gateway
//! reconnects to the other with its saved credentials; a revocation from
//! the operator command reaches the gateway the node is connected to.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Instant;

use common::{PATIENCE, Server};
use serde_json::{Value, json};

/// A fresh database on the test server.
fn database() -> String {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(codemode_store::postgres::test_database())
}

/// A server's configuration: the shared database, its own node gateway.
fn config(url: &str) -> String {
    format!("[store]\nbackend = \"postgres\"\nurl = \"{url}\"\n\n[nodes]\nlisten = \"127.0.0.1:0\"\n")
}

/// The `ws://` address a server's node gateway printed.
fn gateway(server: &mut Server) -> String {
    let line = server.wait_for("node gateway listening on ws://");
    line.split_whitespace().find(|w| w.starts_with("ws://")).unwrap().to_owned()
}

/// The pairing code a server printed.
fn code(server: &mut Server) -> String {
    server.wait_for("codemode: node pairing code").split_whitespace().nth(4).unwrap().to_owned()
}

/// One cell on `server` in session key `k`: its value (it must complete)
/// and whether its text came wrapped as untrusted content (a cell that read
/// node-provided data is, GA-9.3).
fn exec_wrapped(server: &Server, code: &str) -> (Value, bool) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_http_identity.py");
    let out = Command::new("python3").args([script, &server.mcp, code, "-", "k"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let wrapped = text.starts_with("SECURITY NOTICE");
    let body = if wrapped {
        let inner = text.split("\n---\n").nth(1).and_then(|b| b.split("\n<<<END_EXTERNAL_UNTRUSTED_CONTENT").next());
        inner.unwrap_or_else(|| panic!("a malformed envelope: {text}"))
    } else {
        &text
    };
    let result: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(result["status"], "completed", "{result}");
    (result["value"].clone(), wrapped)
}

/// [`exec_wrapped`]'s value.
fn exec(server: &Server, code: &str) -> Value {
    exec_wrapped(server, code).0
}

/// Runs `nodes.list()` on `server` until `done` holds for it; returns it.
fn until_listed(server: &Server, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let list = exec(server, "return await nodes.list()");
        if done(&list) {
            return list;
        }
        assert!(Instant::now() < deadline, "nodes.list() never became as expected: {list}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// `codemode pairings ARGS` on `server`'s configuration.
fn pairings(server: &Server, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--config")
        .arg(server.dir.join("codemode.toml"))
        .arg("pairings")
        .args(args)
        .output()
        .unwrap()
}

/// A running `codemode node`, its stderr lines on a channel; killed when
/// dropped.
struct Node {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Node {
    fn start(gateway: &str, args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
            .args(["node", "--gateway", gateway])
            .args(args)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        Self { child, lines, seen: Vec::new() }
    }

    /// Waits for a stderr line containing `needle`; returns it.
    fn expect(&mut self, needle: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(needle) {
                        return line;
                    }
                }
                Err(_) => break,
            }
        }
        panic!("no node line with {needle:?}; saw {:#?}", self.seen);
    }

    /// Waits for the node host to exit; whether it succeeded.
    fn exited_ok(&mut self) -> bool {
        self.child.wait().unwrap().success()
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn credentials(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_node_paired_through_one_server_reconnects_to_another_and_a_revocation_anywhere_refuses_it_ga_10_1() {
    let url = database();
    let mut a = Server::start("nodes-pg", "a", &config(&url), &[]);
    let mut b = Server::start("nodes-pg", "b", &config(&url), &[]);
    let (on_a, on_b) = (gateway(&mut a), gateway(&mut b));
    let creds = a.dir.join("pi.json");
    let creds_arg = creds.to_str().unwrap();
    let node_args = ["--id", "pi", "--name", "Pi", "--credentials", creds_arg, "--command", "echo=cat"];

    // Paired with A's code; the secret is saved, and B learns of the
    // pairing (the node is not connected to B).
    let mut node = Node::start(&on_a, &[&node_args[..], &["--code", &code(&mut a)]].concat());
    node.expect("paired with");
    assert_eq!(credentials(&creds)["id"], "pi");
    let secret = credentials(&creds)["secret"].as_str().unwrap().to_owned();
    let list = until_listed(&b, |l| l.as_array().unwrap().iter().any(|n| n["id"] == "pi"));
    assert_eq!(
        list,
        json!([{"id": "pi", "name": "Pi", "platform": std::env::consts::OS, "connected": false,
                "commands": ["device.status", "echo"]}])
    );
    let listed = pairings(&b, &["list", "--json"]);
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(text.contains("\"pi\""), "{text}");
    assert!(!text.contains(&secret), "the secret is never stored, so never shown");

    // A goes away; the node, restarted with its credentials only, connects
    // to B, and a cell on B runs a command on it.
    drop(a);
    node.expect("reconnecting in");
    drop(node);
    let mut node = Node::start(&on_b, &node_args);
    node.expect("connected to");
    until_listed(&b, |l| l[0]["connected"] == true);
    let (value, wrapped) = exec_wrapped(
        &b,
        "const pi = await nodes.get('pi'); \
         return [await pi.invoke('echo', {hello: 'from B'}), (await pi.invoke('device.status')).platform]",
    );
    assert_eq!(value, json!([{"hello": "from B"}, std::env::consts::OS]));
    assert!(wrapped, "what a node answers is device-provided: the model reads it as untrusted");

    // Revoked by the operator through the database: B disconnects the node
    // at once and refuses its secret when it reconnects.
    let revoked = pairings(&b, &["revoke", "pi"]);
    assert!(revoked.status.success(), "{}", String::from_utf8_lossy(&revoked.stderr));
    assert!(String::from_utf8_lossy(&revoked.stdout).contains("node pi: pairing revoked"));
    node.expect("node \"pi\" is not paired: start it with --code");
    assert!(!node.exited_ok(), "a refused node host exits with an error");
    until_listed(&b, |l| l == &json!([]));
    let again = pairings(&b, &["revoke", "pi"]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("no node \"pi\" is paired in this store"));

    // A secret B never issued, for an id nobody paired, is refused too.
    let ghost = b.dir.join("ghost.json");
    std::fs::write(&ghost, json!({"id": "ghost", "secret": "ab".repeat(32)}).to_string()).unwrap();
    let mut forged = Node::start(&on_b, &["--name", "Ghost", "--credentials", ghost.to_str().unwrap()]);
    forged.expect("node \"ghost\" is not paired: start it with --code");
    assert!(!forged.exited_ok());
    assert_eq!(exec(&b, "return (await nodes.list()).length"), json!(0), "refused nodes stay invisible");
}
