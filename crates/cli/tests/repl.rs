//! `codemode repl` driven through a pipe, as a real process.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-repl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs `codemode repl EXTRA…` with its own store, feeds it `input` through
/// a pipe and returns (stdout, stderr).
fn repl(name: &str, extra: &[&str], input: &str) -> (String, String) {
    let dir = temp_dir(name);
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--store")
        .arg(dir.join("store"))
        .arg("repl")
        .args(extra)
        // Where a default history would go: the tests must never write the
        // user's own.
        .env("XDG_DATA_HOME", dir.join("data"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn lines_with_open_brackets_make_one_cell_through_a_pipe() {
    let (out, _) = repl("multiline", &[], "return (function f() {\n  return 41 +\n    1\n})()\n:history\n");
    assert_eq!(out.matches("completed:").count(), 1, "{out}");
    assert!(out.contains("completed: 42"), "{out}");
    assert!(out.contains("  1  return (function f() {\n       return 41 +\n         1\n     })()"), "{out}");
    assert!(!out.contains('\x1b'), "no escape sequences on a pipe: {out:?}");
    assert!(!out.contains("codemode> ") && !out.contains("...> "), "no prompts on a pipe: {out}");
}

/// GA-1.1: a cell may be TypeScript; an interface over several lines and
/// the code after it are one entry, and an error points at the entry's
/// own line.
#[test]
fn a_multi_line_typescript_entry_is_one_cell_with_its_types_stripped() {
    let input = "interface Row {\n  id: number;\n}\nconst rows: Row[] = [{ id: 41 }]; return rows[0]!.id + 1\n\
                 (function (n: number): never {\n  throw new Error(`at ${n}`);\n})(1)\n";
    let (out, _) = repl("typescript", &[], input);
    assert!(out.contains("completed: 42"), "{out}");
    assert!(out.contains("user.js:2:"), "the error is on the entry's second line: {out}");
}

#[test]
fn a_function_defined_over_two_lines_is_one_entry_and_the_next_line_another() {
    let (out, _) = repl("twoentries", &[], "function f() {\nreturn 1 }\nreturn typeof f\n");
    assert_eq!(out.matches("completed:").count(), 2, "{out}");
    assert!(out.contains("completed: \"undefined\""), "{out}");
}

#[test]
fn brackets_inside_strings_comments_and_templates_do_not_hold_the_entry_open() {
    let input = "text('{ ( [')\n\
                 return 1 // {\n\
                 /* ( */ return `[ ${2} {`\n\
                 return \"}\".length\n";
    let (out, _) = repl("quoted", &[], input);
    assert_eq!(out.matches("completed:").count(), 4, "{out}");
    assert!(out.contains("{ ( [\ncompleted: null"), "{out}");
    assert!(out.contains("completed: \"[ 2 {\""), "{out}");
}

#[test]
fn an_unbalanced_closing_bracket_submits_and_the_engine_reports_it() {
    let (out, _) = repl("unbalanced", &[], "return 1 }\nreturn 2\n");
    assert!(out.contains("failed [invalid_input] in input: "), "{out}");
    assert!(out.contains("completed: 2"), "{out}");
}

#[test]
fn a_reference_error_for_an_earlier_entry_s_name_gets_a_hint_about_the_store() {
    let (out, _) = repl("hint", &[], "const x = 1\nreturn x\nreturn 3\n");
    assert!(out.contains("failed [internal_error] in guest: ReferenceError"), "{out}");
    assert!(out.contains("hint: variables do not carry over between entries"), "{out}");
    assert!(out.contains("await store(\"key\", value)") && out.contains("await load(\"key\")"), "{out}");
    assert_eq!(out.matches("hint:").count(), 1, "{out}");
}

#[test]
fn status_lines_use_the_protocol_names() {
    let (out, _) = repl("names", &[], "await yield_control('p'); return 1\n:wait\nthrow new Error('boom')\n");
    assert!(out.contains("waiting (yield) run "), "{out}");
    assert!(out.contains("failed [internal_error] in guest: Error: boom"), "{out}");
    assert!(!out.contains("Yield") && !out.contains("Guest"), "{out}");
}

#[test]
fn the_history_file_keeps_whole_entries_up_to_its_size() {
    let dir = temp_dir("historyfile");
    let path = dir.join("nested/history");
    let path_arg = path.to_str().unwrap();
    let input = "return 1\nreturn [\n2]\nreturn 3\nreturn 4\n";
    let (out, err) = repl("history", &["--history", path_arg, "--history-size", "3"], input);
    assert_eq!(out.matches("completed:").count(), 4, "{out}");
    assert!(err.is_empty(), "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    let entries: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(entries, ["return [\\n2]", "return 3", "return 4"], "{text}");
    // A second session adds to it, still bounded.
    repl("history", &["--history", path_arg, "--history-size", "3"], "return 5\n");
    let text = std::fs::read_to_string(&path).unwrap();
    let entries: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(entries, ["return 3", "return 4", "return 5"], "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_history_file_is_a_warning_that_says_why() {
    let dir = temp_dir("badhistoryfile");
    // A directory where the file should be.
    let path = dir.join("history");
    std::fs::create_dir_all(&path).unwrap();
    let (out, err) = repl("badhistory", &["--history", path.to_str().unwrap()], "return 1\nreturn 2\n");
    assert!(out.contains("completed: 1") && out.contains("completed: 2"), "{out}");
    assert!(err.contains("cannot read the REPL history"), "{err}");
    assert_eq!(err.matches("cannot write the REPL history").count(), 1, "{err}");
    assert!(err.contains(path.to_str().unwrap()), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_piped_session_writes_no_default_history() {
    let dir = temp_dir("nohistory");
    let (out, _) = repl("nohistory", &[], "return 1\n");
    assert!(out.contains("completed: 1"), "{out}");
    assert!(!dir.join("data").exists(), "nothing under the data directory");
}

#[test]
fn abort_ends_the_parked_cell_and_then_nothing_is_parked() {
    let (out, _) = repl("abort", &[], ":wait\nawait yield_control('p'); return 1\n:abort\n:abort\n");
    assert_eq!(out.matches("no parked cell").count(), 2, "{out}");
    assert!(out.contains("waiting (yield) run "), "{out}");
    assert!(out.contains("failed [aborted]"), "{out}");
}

#[test]
fn an_entry_left_open_at_the_end_of_input_still_runs_and_its_error_is_shown() {
    let (out, _) = repl("openend", &[], "return [1,\n2\n");
    assert!(out.contains("failed [invalid_input] in input: SyntaxError"), "{out}");
}
