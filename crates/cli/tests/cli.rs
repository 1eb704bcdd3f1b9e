//! The `codemode` binary, run as a real process.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::Value;

fn codemode() -> Command {
    Command::new(env!("CARGO_BIN_EXE_codemode"))
}

#[test]
fn exec_runs_the_hello_example_to_completion() {
    let out = codemode()
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
    let mut child = codemode().args(["exec", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"ls -la").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("not shell commands"));
}

#[test]
fn session_keeps_parked_cells_alive_across_requests() {
    let mut child = codemode().arg("session").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
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
