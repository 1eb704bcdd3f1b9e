//! Hardening of command tools (`[[tools]]` with `command = [...]`, GA-6.1)
//! and of the session store's location and lock (GA-7.1), run against the
//! real `codemode` binary and real child processes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn codemode() -> Command {
    Command::new(env!("CARGO_BIN_EXE_codemode"))
}

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-hardening-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `code` with `codemode exec --json -` under `config` in `dir`.
fn exec_with_config(dir: &Path, config: &str, code: &str) -> Output {
    let config_path = dir.join("codemode.toml");
    std::fs::write(&config_path, config).unwrap();
    let mut child = codemode()
        .arg("--config")
        .arg(&config_path)
        .arg("--store")
        .arg(dir.join("store"))
        .args(["exec", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(code.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// The value of the last result line.
fn value(out: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_else(|| panic!("no result; stderr: {}", stderr(out)));
    let line: Value = serde_json::from_str(last).unwrap();
    line["value"].clone()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Whether `pid` is a live (not zombie) process. A killed grandchild is
/// reparented and may linger as a zombie until its new parent reaps it.
fn alive(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with('Z') && !rest.starts_with('X')),
        Err(_) => false,
    }
}

/// Calls `tool` and returns its value or error message.
const CALL: &str = "try { return await TOOL({}) } catch (e) { return 'error: ' + e.message }";

#[test]
fn a_command_tool_printing_ten_megabytes_fails_with_an_output_error_not_a_timeout_ga_6_1() {
    let dir = temp_dir("flood");
    let config = r#"
[[tools]]
name = "flood"
description = "Prints 10 MB."
command = ["sh", "-c", "head -c 10000000 /dev/zero | tr '\\0' a"]
max_output_bytes = 1048576
timeout_ms = 120000
"#;
    let out = exec_with_config(&dir, config, &CALL.replace("TOOL", "flood"));
    let message = value(&out).as_str().unwrap_or_default().to_owned();
    assert!(message.contains("command tool `flood` printed more than 1048576 bytes"), "{message}");
    assert!(!message.contains("timed out"), "{message}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_command_tool_output_exactly_at_the_bound_is_accepted_and_one_byte_over_is_refused_ga_6_1() {
    let dir = temp_dir("bound");
    // `"` + 98 × `a` + `"`: a JSON string of exactly 100 bytes.
    let script = r#"printf '"'; head -c 98 /dev/zero | tr '\0' a; printf '"'"#;
    let config = format!(
        r#"
[[tools]]
name = "at_bound"
description = "Prints 100 bytes."
command = ["sh", "-c", '''{script}''']
max_output_bytes = 100

[[tools]]
name = "over_bound"
description = "Prints 100 bytes."
command = ["sh", "-c", '''{script}''']
max_output_bytes = 99
"#
    );
    let code = "const out = []; for (const t of [at_bound, over_bound]) { \
        try { out.push((await t({})).length) } catch (e) { out.push(e.message) } } return out";
    let out = exec_with_config(&dir, &config, code);
    let v = value(&out);
    assert_eq!(v[0], 98, "{v} {}", stderr(&out));
    assert!(v[1].as_str().unwrap_or_default().contains("printed more than 99 bytes"), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_timed_out_command_tool_leaves_none_of_its_children_running_ga_6_1() {
    let dir = temp_dir("orphans");
    let pidfile = dir.join("bg.pid");
    let config = format!(
        r#"
[[tools]]
name = "spawner"
description = "Starts a background child, then hangs."
command = ["sh", "-c", "sleep 30 & echo $! > {}; sleep 30"]
timeout_ms = 500
"#,
        pidfile.display()
    );
    let out = exec_with_config(&dir, &config, &CALL.replace("TOOL", "spawner"));
    let message = value(&out).as_str().unwrap_or_default().to_owned();
    assert!(message.contains("timed out after 500 ms and was killed"), "{message}");
    let pid = std::fs::read_to_string(&pidfile).unwrap().trim().to_owned();
    // The kill is sent before the call returns; allow the kernel a moment
    // to finish it (this bounds a poll, it does not time the call).
    let deadline = Instant::now() + Duration::from_secs(10);
    while alive(&pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(&pid), "the tool's background child {pid} is still running");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_chatty_command_tool_stderr_is_bounded_and_does_not_block_it_ga_6_1() {
    let dir = temp_dir("stderr");
    let config = r#"
[[tools]]
name = "chatty"
description = "Writes 5 MB to stderr, then fails."
command = ["sh", "-c", "head -c 5000000 /dev/zero | tr '\\0' e >&2; echo last words >&2; exit 4"]
timeout_ms = 120000
"#;
    let out = exec_with_config(&dir, config, &CALL.replace("TOOL", "chatty"));
    let message = value(&out).as_str().unwrap_or_default().to_owned();
    assert!(message.contains("exited with status 4") && message.ends_with("last words"), "{}", &message[..200]);
    assert!(message.len() < 4096, "the quoted stderr is a short tail");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn aborting_a_cell_kills_the_command_tool_it_was_waiting_on_and_its_children_ga_6_1() {
    use std::io::{BufRead, BufReader};
    let dir = temp_dir("abort");
    let pidfile = dir.join("bg.pid");
    let config = format!(
        r#"
[limits]
timeout_ms = 300

[[tools]]
name = "spawner"
description = "Starts a background child, then hangs."
command = ["sh", "-c", "sleep 60 & echo $! > {}; sleep 60"]
timeout_ms = 60000
"#,
        pidfile.display()
    );
    let config_path = dir.join("codemode.toml");
    std::fs::write(&config_path, config).unwrap();
    let mut child = codemode()
        .arg("--config")
        .arg(&config_path)
        .arg("--store")
        .arg(dir.join("store"))
        .arg("session")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |request: &str| -> Value {
        writeln!(stdin, "{request}").unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap()
    };
    let parked = ask(r#"{"op":"exec","code":"await spawner({}); return 1"}"#);
    assert_eq!(parked["status"], "waiting", "{parked}");
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut pid = String::new();
    while pid.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
        pid = std::fs::read_to_string(&pidfile).unwrap_or_default().trim().to_owned();
    }
    assert!(alive(&pid), "the background child {pid} runs while the call does");
    let aborted = ask(&format!(r#"{{"op":"abort","runId":"{}"}}"#, parked["runId"].as_str().unwrap()));
    assert_eq!(aborted["code"], "aborted", "{aborted}");
    let deadline = Instant::now() + Duration::from_secs(10);
    while alive(&pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(&pid), "the aborted tool's background child {pid} is still running");
    drop(stdin);
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `codemode session` on `store`, started and answering, so it holds the
/// store's lock until its stdin closes.
fn store_holder(store: &Path) -> (std::process::Child, std::process::ChildStdin) {
    use std::io::{BufRead, BufReader};
    let mut child = codemode()
        .arg("--store")
        .arg(store)
        .arg("session")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, r#"{{"op":"exec","code":"return 1"}}"#).unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert!(line.contains("completed"), "{line}");
    (child, stdin)
}

#[test]
fn a_second_process_on_a_busy_store_is_told_another_codemode_process_uses_it_not_to_repair_it_ga_7_1() {
    let dir = temp_dir("busy");
    let store = dir.join("store");
    let (mut holder, holder_stdin) = store_holder(&store);
    let out = codemode().arg("--store").arg(&store).arg("session").stdin(Stdio::null()).output().unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains(&store.display().to_string()), "{err}");
    assert!(err.contains("another codemode process") && err.contains("--store PATH"), "{err}");
    assert!(!err.contains("repair") && !err.contains("move it aside"), "{err}");
    // `exec` waits a bounded time, then fails the same way.
    let out = codemode().arg("--store").arg(&store).args(["exec", "-"]).stdin(Stdio::null()).output().unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("another codemode process") && err.contains("after waiting"), "{err}");
    drop(holder_stdin);
    assert!(holder.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exec_waits_for_a_busy_store_that_is_released_soon_instead_of_failing_ga_7_1() {
    let dir = temp_dir("wait");
    let store = dir.join("store");
    let (mut holder, holder_stdin) = store_holder(&store);
    let mut exec = codemode()
        .arg("--store")
        .arg(&store)
        .args(["exec", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    exec.stdin.take().unwrap().write_all(b"return 'ran'").unwrap();
    // Release the store while `exec` is waiting for it (well inside its wait).
    std::thread::sleep(Duration::from_millis(300));
    drop(holder_stdin);
    assert!(holder.wait().unwrap().success());
    let out = exec.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(value(&out), "ran");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exec_in_a_directory_where_the_default_store_cannot_be_created_uses_the_data_directory_and_says_so_ga_7_1() {
    let dir = temp_dir("fallback");
    let cwd = dir.join("project");
    std::fs::create_dir_all(&cwd).unwrap();
    // `.codemode` is a file, so `.codemode/store` cannot be created (this
    // runs as root, where a read-only directory would not stop it).
    std::fs::write(cwd.join(".codemode"), b"in the way").unwrap();
    let data = dir.join("data");
    let mut child = codemode()
        .args(["exec", "--json", "-"])
        .current_dir(&cwd)
        .env("XDG_DATA_HOME", &data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"await store('k', 1); return await load('k')").unwrap();
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert_eq!(value(&out), 1);
    let fallback = data.join("codemode/store");
    assert!(err.contains(".codemode/store") && err.contains(&format!("using {} instead", fallback.display())), "{err}");
    assert!(fallback.join("conf").exists(), "the store lives in the data directory");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_explicit_store_that_cannot_be_created_fails_with_a_clear_error_instead_of_falling_back() {
    let dir = temp_dir("explicit");
    std::fs::write(dir.join("file"), b"in the way").unwrap();
    let store = dir.join("file/store");
    let out = codemode().arg("--store").arg(&store).args(["exec", "-"]).stdin(Stdio::null()).output().unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains(&store.display().to_string()) && err.contains("cannot be created or written"), "{err}");
    assert!(!err.contains("instead"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
