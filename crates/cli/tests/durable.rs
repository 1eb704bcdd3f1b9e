//! Durable runs with real processes on a real sled store: a
//! parked run survives `kill -9` and is resumed by replaying its journal,
//! journaled calls never run again, a call in flight at the crash is
//! re-issued only when replay-safe, and a replay that diverges is stopped.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// A fresh directory for test `name`.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-durable-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A configuration with a counting command tool `count` (appends a line
/// to `calls` and answers how many lines there are), a slow one `slow`
/// (counts, then sleeps 3 s) and its replay-safe twin `slow_safe`, and a
/// short window budget so a cell waiting on `slow` parks quickly.
fn config(dir: &Path, extra: &str) -> PathBuf {
    config_with(dir, 400, extra)
}

/// As [`config`], with the window budget `timeout_ms`.
fn config_with(dir: &Path, timeout_ms: u64, extra: &str) -> PathBuf {
    let tools = common::counting_tools(dir, 3);
    let text = format!("\n[limits]\ntimeout_ms = {timeout_ms}\n{tools}{extra}\n");
    let path = dir.join("codemode.toml");
    std::fs::write(&path, text).unwrap();
    path
}

use common::Session;

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |s| s.lines().count())
}

#[test]
fn a_parked_run_survives_kill_9_and_its_journaled_calls_never_run_again_ga_1_3() {
    let dir = temp("sled-kill");
    let config = config(&dir, "");
    let store = dir.join("store");
    let mut first = Session::start(&config, &store);
    let parked = first.exec(
        "const a = await count({}); const b = await count({}); text('before'); \
         const t0 = Date.now(); const r = Math.random(); \
         await yield_control('checkpoint'); \
         text('after'); return {a: a.n, b: b.n, sameClock: Date.now() >= t0, r: typeof r}",
    );
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    // The window is short (400 ms): the tool calls may outlast it.
    let mut parked = parked;
    while parked["reason"] == "pending_tools" {
        parked = first.wait(&run_id);
    }
    assert_eq!(parked["status"], "waiting", "{parked}");
    assert_eq!(parked["reason"], "yield", "{parked}");
    assert_eq!(parked["output"][0]["text"], "before", "{parked}");
    assert_eq!(lines(&dir.join("calls")), 2);
    first.kill_9();

    let mut second = Session::start(&config, &store);
    let done = second.wait(&run_id);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["value"], serde_json::json!({"a": 1, "b": 2, "sameClock": true, "r": "number"}), "{done}");
    // Output the first process delivered is not delivered again.
    let texts: Vec<&Value> = done["output"].as_array().unwrap().iter().map(|e| &e["text"]).collect();
    assert_eq!(texts, vec!["after"], "{done}");
    assert_eq!(lines(&dir.join("calls")), 2, "each journaled call ran exactly once");
    // The run ended: a later wait says how.
    let again = second.wait(&run_id);
    assert!(again["error"].as_str().unwrap().contains("completed"), "{again}");
    second.kill_9();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_call_in_flight_at_the_crash_rejects_with_outcome_unknown_unless_replay_safe() {
    let dir = temp("sled-inflight");
    let config = config(&dir, "");
    let store = dir.join("store");
    let mut first = Session::start(&config, &store);
    let code =
        "try { const r = await slow({}); return {ran: r.n} } catch (e) { return {code: e.code, message: e.message} }";
    let parked = first.exec(code);
    assert_eq!(parked["status"], "waiting", "{parked}");
    assert_eq!(parked["reason"], "pending_tools", "{parked}");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    // The command started (it counts before sleeping), then its process died.
    wait_for(|| lines(&dir.join("slow_calls")) == 1);
    first.kill_9();

    let mut second = Session::start(&config, &store);
    let done = second.wait(&run_id);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["value"]["code"], "outcome_unknown", "{done}");
    assert!(done["value"]["message"].as_str().unwrap().contains("slow"), "{done}");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(lines(&dir.join("slow_calls")), 1, "a call that is not replay-safe never runs twice");
    second.kill_9();

    // The replay-safe twin is re-issued and the cell completes.
    let mut third = Session::start(&config, &store);
    let parked = third.exec("const r = await slow_safe({}); return r.n");
    assert_eq!(parked["status"], "waiting", "{parked}");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    wait_for(|| lines(&dir.join("slow_calls")) == 2);
    third.kill_9();
    let mut fourth = Session::start(&config, &store);
    let mut done = fourth.wait(&run_id);
    while done["status"] == "waiting" {
        done = fourth.wait(&run_id);
    }
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["value"], 3, "re-issued once: {done}");
    fourth.kill_9();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Rewrites the first request fingerprint of a format-2 journal, re-sealing
/// the segment's checksum: a journal that no longer matches its cell (as a
/// changed prelude or host would make it) without being damaged.
fn with_first_request_changed(journal: &[u8]) -> Vec<u8> {
    assert_eq!(&journal[..4], b"CMJ2");
    let mut out = journal[..4].to_vec();
    let mut at = 4;
    let mut changed = false;
    while at < journal.len() {
        let kind = journal[at];
        let len = u32::from_le_bytes(journal[at + 1..at + 5].try_into().unwrap()) as usize;
        let mut payload = journal[at + 9..at + 9 + len].to_vec();
        if kind == 2 && !changed {
            let head_len = u32::from_le_bytes(payload[..4].try_into().unwrap()) as usize;
            let mut head: Value = serde_json::from_slice(&payload[4..4 + head_len]).unwrap();
            let first = head["requests"][0].as_u64().unwrap();
            head["requests"][0] = Value::from(first ^ 1);
            let head = serde_json::to_vec(&head).unwrap();
            let steps = payload[4 + head_len..].to_vec();
            payload = [(head.len() as u32).to_le_bytes().to_vec(), head, steps].concat();
            changed = true;
        }
        out.push(kind);
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        at += 9 + len;
    }
    assert!(changed);
    out
}

#[test]
fn a_replay_whose_cell_asks_for_something_its_journal_did_not_record_is_stopped_as_replay_diverged() {
    use codemode_store::runs::{Claim, RunStatus, RunStore, SledRuns};
    let dir = temp("sled-diverge");
    let store = dir.join("store");
    let config = config(&dir, "");
    let mut first = Session::start(&config, &store);
    let parked = first.exec("await count({}); await yield_control('x'); return 'resumed'");
    assert_eq!(parked["status"], "waiting", "{parked}");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    first.kill_9();
    // The stored journal now says the cell's first request was another.
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let sessions =
            codemode_store::SessionStore::open(Some(&store), codemode_store::StoreLimits::default(), "edit".into())
                .unwrap();
        let runs = SledRuns::open(&sessions).unwrap();
        runs.release_stale_leases().unwrap();
        let Claim::Claimed(record) = runs.claim(&run_id, "editor", std::time::Duration::from_secs(30)).await.unwrap()
        else {
            panic!("claimable");
        };
        let edited = with_first_request_changed(&record.journal);
        runs.save(&run_id, "editor", RunStatus::Parked, edited, None).await.unwrap();
        sessions.flush().await.unwrap();
    });
    let mut second = Session::start(&config, &store);
    let done = second.wait(&run_id);
    assert_eq!(done["status"], "failed", "{done}");
    assert_eq!(done["code"], "replay_diverged", "{done}");
    assert!(done["error"].as_str().unwrap().contains("request 1"), "{done}");
    // Ended: never resumed wrongly later either.
    let again = second.wait(&run_id);
    assert_eq!(again["status"], "failed", "{again}");
    assert_eq!(again["code"], "invalid_input", "{again}");
    second.kill_9();
    assert_eq!(lines(&dir.join("calls")), 1, "the journaled call did not run again");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn with_every_call_journaling_a_crash_mid_window_resumes_from_the_last_settlement() {
    for (mode, resumable) in [("every_call", true), ("park", false)] {
        let dir = temp(&format!("sled-every-{mode}"));
        // A long window: the crash comes before any park.
        let config = config_with(&dir, 20_000, &format!("[runs]\njournal = \"{mode}\"\n"));
        let store = dir.join("store");
        let mut first = Session::start(&config, &store);
        let code = "const a = await count({}); const b = await count({}); \
                    try { await slow({}); return 'ran' } catch (e) { return [a.n, b.n, e.code] }";
        writeln!(first.stdin, "{}", serde_json::json!({"op": "exec", "code": code})).unwrap();
        // Both counts settled and `slow` started: the window is still open.
        wait_for(|| lines(&dir.join("slow_calls")) == 1);
        first.kill_9();
        // The run id never reached us (the window never returned); the
        // operator finds it with `codemode runs list`.
        let listed = Command::new(env!("CARGO_BIN_EXE_codemode"))
            .arg("--config")
            .arg(&config)
            .arg("--store")
            .arg(&store)
            .args(["runs", "list", "--json"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&listed.stdout);
        let runs: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"));
        let runs = runs.as_array().cloned().unwrap_or_default();
        if !resumable {
            assert!(runs.is_empty(), "with journal = park nothing is written before the first park: {text}");
            let _ = std::fs::remove_dir_all(&dir);
            continue;
        }
        assert_eq!(runs.len(), 1, "{text}");
        let run_id = runs[0]["runId"].as_str().or_else(|| runs[0]["run_id"].as_str()).unwrap().to_owned();
        let mut second = Session::start(&config, &store);
        let done = second.wait(&run_id);
        assert_eq!(done["status"], "completed", "{done}");
        assert_eq!(done["value"], serde_json::json!([1, 2, "outcome_unknown"]), "{done}");
        assert_eq!(lines(&dir.join("calls")), 2, "the journaled calls did not run again");
        assert_eq!(lines(&dir.join("slow_calls")), 1, "the call in flight did not run again");
        second.kill_9();
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Polls `done` for up to 30 s (a process start on a busy machine).
fn wait_for(done: impl Fn() -> bool) {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !done() {
        assert!(std::time::Instant::now() < until, "timed out");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn codemode_exec_parks_and_exits_and_a_later_session_on_the_same_store_resumes_the_run_ga_1_3() {
    let dir = temp("exec-then-session");
    let store = dir.join("store");
    let cell = dir.join("cell.js");
    std::fs::write(&cell, "text('a'); const t = Date.now(); await yield_control('x'); return Date.now() >= t ? 42 : 0")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--store")
        .arg(&store)
        .args(["exec", "--no-wait", "--json"])
        .arg(&cell)
        .output()
        .unwrap();
    let parked: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(parked["status"], "waiting", "{parked}");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    // `codemode session` binds the same session (`cli`) as `exec`.
    let config = config(&dir, "");
    let mut later = Session::start(&config, &store);
    let done = later.wait(&run_id);
    assert_eq!(done["value"], 42, "{done}");
    assert_eq!(done["output"], serde_json::json!([]), "`a` was delivered by exec, not again: {done}");
    later.kill_9();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A crash in the middle of a window, after a call that is not replay-safe
/// ran: the call was journaled before it started (write-ahead), so the
/// replay never runs it again — it answers it from the journal, or, if the
/// crash came before its answer was written, reports `outcome_unknown`.
#[test]
fn a_call_that_is_not_replay_safe_made_mid_window_never_runs_again_after_a_kill_9_ga_1_3() {
    let dir = temp("sled-write-ahead");
    let store = dir.join("store");
    let config = config_with(&dir, 5000, "");
    let calls = dir.join("calls");
    let mut first = Session::start(&config, &store);
    let code = "await yield_control('before'); let c; try { c = (await count({})).n } catch (e) { c = e.code } \
                await new Promise((r) => setTimeout(r, 3000)); return c";
    let parked = first.exec(code);
    assert_eq!(parked["reason"], "yield", "{parked}");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    // The second window runs `count`, then waits on its timer: killed then.
    writeln!(first.stdin, "{}", serde_json::json!({"op": "wait", "runId": run_id})).unwrap();
    wait_for(|| lines(&calls) == 1);
    std::thread::sleep(std::time::Duration::from_millis(300));
    first.kill_9();
    let mut second = Session::start(&config, &store);
    let mut done = second.wait(&run_id);
    while done["status"] == "waiting" {
        done = second.wait(&run_id);
    }
    assert_eq!(done["status"], "completed", "{done}");
    assert!(done["value"] == 1 || done["value"] == "outcome_unknown", "{done}");
    assert_eq!(lines(&calls), 1, "the call ran once: the replay did not run it again");
    second.kill_9();
    let _ = std::fs::remove_dir_all(&dir);
}
