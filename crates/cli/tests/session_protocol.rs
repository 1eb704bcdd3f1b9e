//! `codemode session` as a real process: bad input lines are answered, never
//! fatal.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::Value;

fn temp_store(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-session-proto-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn bad_session_lines_get_invalid_input_and_parked_cells_survive_them() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--store")
        .arg(temp_store("bad-lines"))
        .args(["session", "--max-line-bytes", "1024"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut send = |bytes: &[u8]| -> Value {
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    };
    let parked = send(br#"{"op":"exec","code":"await yield_control('p'); return 'alive'"}"#);
    assert_eq!(parked["status"], "waiting");
    let run_id = parked["runId"].as_str().unwrap().to_owned();

    let invalid_utf8 = send(b"{\"op\":\"wait\",\"runId\":\"\xff\xfe\"}");
    assert_eq!(invalid_utf8["code"], "invalid_input");
    assert!(invalid_utf8["error"].as_str().unwrap().contains("not valid UTF-8"), "{invalid_utf8}");

    let bom = send(b"\xEF\xBB\xBF{\"op\":\"abort\",\"runId\":\"x\"}");
    assert!(bom["error"].as_str().unwrap().contains("byte-order mark"), "{bom}");

    // Exactly at the bound is a request (here a malformed one: its JSON is
    // read and judged); one byte over is refused unread.
    let at = format!(r#"{{"op":"wait","runId":"{}"}}"#, "r".repeat(1024 - 24));
    assert_eq!(at.len(), 1024);
    let at_bound = send(at.as_bytes());
    assert!(at_bound["error"].as_str().unwrap().contains("unavailable"), "{at_bound}");
    let over = format!(r#"{{"op":"wait","runId":"{}"}}"#, "r".repeat(1024 - 23));
    let over_bound = send(over.as_bytes());
    assert!(over_bound["error"].as_str().unwrap().contains("1025 bytes, over the 1024-byte limit"), "{over_bound}");
    let huge = send(&vec![b'x'; 8 * 1024 * 1024]);
    assert_eq!(huge["code"], "invalid_input");

    let done = send(format!(r#"{{"op":"wait","runId":"{run_id}"}}"#).as_bytes());
    assert_eq!((done["status"].as_str(), done["value"].as_str()), (Some("completed"), Some("alive")));
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// `command` is an alias of `code` in the session protocol as in `serve`'s
/// `exec`; both given must agree. TypeScript cells run here too.
#[test]
fn the_session_protocol_takes_command_as_an_alias_of_code_and_typescript_cells() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--store")
        .arg(temp_store("command-alias"))
        .arg("session")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut send = |bytes: &[u8]| -> Value {
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    };
    let aliased = send(br#"{"op":"exec","command":"return 41 + 1"}"#);
    assert_eq!((aliased["status"].as_str(), aliased["value"].as_i64()), (Some("completed"), Some(42)), "{aliased}");
    let both = send(br#"{"op":"exec","code":"return 1","command":"return 2"}"#);
    assert_eq!(both["code"], "invalid_input");
    assert!(both["error"].as_str().unwrap().contains("code and command must match"), "{both}");
    let neither = send(br#"{"op":"exec","title":"t"}"#);
    assert!(neither["error"].as_str().unwrap().contains("code or command must be a non-empty string"), "{neither}");
    let typed = send(br#"{"op":"exec","code":"const n: number = 2;\nreturn (n as number) * 21;"}"#);
    assert_eq!(typed["value"].as_i64(), Some(42), "{typed}");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}
