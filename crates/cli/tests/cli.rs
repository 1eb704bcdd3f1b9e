//! The `codemode` binary, run as a real process.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::Value;

fn codemode() -> Command {
    Command::new(env!("CARGO_BIN_EXE_codemode"))
}

/// A command with its own temporary store, so parallel tests never share a
/// database.
fn isolated(name: &str) -> Command {
    let mut c = codemode();
    c.arg("--store").arg(temp_store(name));
    c
}

#[test]
fn exec_runs_the_hello_example_to_completion() {
    let out = isolated("hello")
        .args(["exec", "--json", concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/hello.js")])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["status"], "completed");
    assert_eq!(line["value"]["waitedAtLeast10ms"], true);
    assert_eq!(line["output"][0]["text"], "hello from a cell");
}

#[test]
fn exec_keeps_waiting_until_the_cell_settles_and_prints_each_result() {
    let mut child =
        codemode().args(["exec", "--json", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"text('a'); await yield_control('x'); text('b'); return 2").unwrap();
    let out = child.wait_with_output().unwrap();
    let lines: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!((lines[0]["status"].as_str(), lines[1]["status"].as_str()), (Some("waiting"), Some("completed")));
    assert_eq!(lines[1]["value"], 2);
}

#[test]
fn exec_exits_non_zero_when_the_cell_fails() {
    let mut child = isolated("fails").args(["exec", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"ls -la").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("not shell commands"));
}

#[test]
fn session_keeps_parked_cells_alive_across_requests() {
    let mut child = isolated("session").arg("session").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |request: &str| -> Value {
        writeln!(stdin, "{request}").unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap()
    };
    let parked = ask(r#"{"op":"exec","code":"const r = await yield_control('p'); return r.reason","title":"t"}"#);
    assert_eq!(parked["status"], "waiting");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    let done = ask(&format!(r#"{{"op":"wait","runId":"{run_id}"}}"#));
    assert_eq!((done["status"].as_str(), done["value"].as_str()), (Some("completed"), Some("p")));
    let bad = ask(r#"{"op":"launch"}"#);
    assert_eq!(bad["code"], "invalid_input");
    let parked = ask(r#"{"op":"exec","code":"await yield_control(); return 1"}"#);
    let aborted = ask(&format!(r#"{{"op":"abort","runId":"{}"}}"#, parked["runId"].as_str().unwrap()));
    assert_eq!(aborted["code"], "aborted");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

fn temp_store(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn session_process(store: &std::path::Path) -> (std::process::Child, impl FnMut(&str) -> Value) {
    let mut child = codemode()
        .arg("--store")
        .arg(store)
        .arg("session")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let ask = move |request: &str| -> Value {
        writeln!(stdin, "{request}").unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    };
    (child, ask)
}

#[test]
fn a_stored_value_survives_killing_the_process_ga_7_1() {
    let store = temp_store("restart");
    let (mut first, mut ask) = session_process(&store);
    let done = ask(r#"{"op":"exec","code":"await store('summary', {unpaid: 3, tons: 42}); return 'stored'"}"#);
    assert_eq!(done["status"], "completed", "{done}");
    // No clean shutdown: the commit was on disk before `completed` was sent.
    first.kill().unwrap();
    first.wait().unwrap();
    let (mut second, mut ask) = session_process(&store);
    let loaded = ask(r#"{"op":"exec","code":"return await load('summary')"}"#);
    assert_eq!(loaded["value"], serde_json::json!({"unpaid": 3, "tons": 42}), "{loaded}");
    second.kill().unwrap();
    second.wait().unwrap();
    let _ = std::fs::remove_dir_all(&store);
}

#[test]
fn an_unreadable_store_is_reported_and_left_untouched() {
    let store = temp_store("corrupt");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::write(store.join("conf"), b"this is not a sled configuration").unwrap();
    let out = codemode().arg("--store").arg(&store).args(["exec", "-"]).stdin(Stdio::null()).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot be opened") && stderr.contains("was not modified"), "{stderr}");
    assert_eq!(std::fs::read(store.join("conf")).unwrap(), b"this is not a sled configuration");
    let _ = std::fs::remove_dir_all(&store);
}
