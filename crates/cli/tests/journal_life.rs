//! A journal's life with real processes on a real sled store (GA-1.3): a
//! run stays journaled however often its cell reads the clock, so a
//! `kill -9` never makes a call that is not replay-safe run twice; a run
//! that outgrows its journal is marked memory-only before its next such
//! call starts, and after a crash it is reported lost, not replayed from a
//! stale journal; a `wait` with nothing to do writes nothing.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Session;
use serde_json::{Value, json};

/// A configuration with the counting tools (`count` is not replay-safe)
/// and `extra`.
fn config(dir: &Path, extra: &str) -> PathBuf {
    let tools = common::counting_tools(dir, 3);
    let path = dir.join("codemode.toml");
    std::fs::write(&path, format!("{tools}\n{extra}\n")).unwrap();
    path
}

fn calls(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("calls")).map_or(0, |s| s.lines().count())
}

/// `codemode runs show RUN --json` on the stopped store.
fn shown(config: &Path, store: &Path, run_id: &str) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--config")
        .arg(config)
        .arg("--store")
        .arg(store)
        .args(["runs", "show", run_id, "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// 70,000 clock reads between two parks (past the 65,536 reads the
/// journal once kept), with a call that is not replay-safe after them.
const BUSY: &str = "await yield_control('first'); let t = 0; for (let i = 0; i < 70000; i++) t = Date.now(); \
                    const c = await count({}); await yield_control('second'); return ['done', c.n, t > 0]";

#[test]
fn a_run_that_read_the_clock_70000_times_stays_journaled_and_its_call_runs_once_across_kill_9_ga_1_3() {
    let dir = common::temp("journal-life", "busy");
    let config = config(&dir, "");
    let store = dir.join("store");
    let mut first = Session::start(&config, &store);
    let parked = first.exec(BUSY);
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    let second = first.wait(&run_id);
    assert_eq!((second["status"].as_str(), second["reason"].as_str()), (Some("waiting"), Some("yield")), "{second}");
    assert!(second.get("warnings").is_none(), "still journaled: {second}");
    assert_eq!(calls(&dir), 1);
    first.kill_9();
    resumes_having_called_once(&dir, &config, &store, &run_id);
}

/// A new process on `store` finishes `run_id` from its journal, the call
/// having run once in all.
fn resumes_having_called_once(dir: &Path, config: &Path, store: &Path, run_id: &str) {
    let mut next = Session::start(config, store);
    let done = next.wait(run_id);
    assert_eq!(done["value"], json!(["done", 1, true]), "replayed from the journal, not asked again: {done}");
    assert_eq!(calls(dir), 1, "the call ran once");
    next.kill_9();
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_approved_call_after_70000_clock_reads_is_asked_and_runs_once_across_kill_9_ga_10_3() {
    let dir = common::temp("journal-life", "asked");
    let config = config(&dir, "[[policy]]\ntool = \"count\"\naction = \"ask\"\nreason = \"counting needs a person\"\n");
    let store = dir.join("store");
    let mut first = Session::start(&config, &store);
    let run_id = first.exec(BUSY)["runId"].as_str().unwrap().to_owned();
    let asked = first.wait(&run_id);
    assert_eq!(asked["reason"], "approval", "{asked}");
    let approval = asked["pendingApprovals"][0]["id"].as_str().unwrap().to_owned();
    let parked = first.ask(&json!({"op": "wait", "runId": run_id, "approve": [approval]}));
    assert_eq!(parked["reason"], "yield", "{parked}");
    assert_eq!(calls(&dir), 1);
    first.kill_9();
    resumes_having_called_once(&dir, &config, &store, &run_id);
}

/// A cell whose journal passes 64 KiB between its two parks.
const OUTGROWING: &str = "await yield_control('small'); await store('big', 'x'.repeat(100000)); \
                          const c = await count({}); await yield_control('memory only'); return c.n";

#[test]
fn a_run_that_outgrows_its_journal_is_marked_before_its_next_call_and_is_lost_after_kill_9_not_replayed_ga_1_3() {
    let dir = common::temp("journal-life", "outgrown");
    let config = config(&dir, "[runs]\nmax_journal_bytes = 65536\n");
    let store = dir.join("store");
    let mut first = Session::start(&config, &store);
    let run_id = first.exec(OUTGROWING)["runId"].as_str().unwrap().to_owned();
    let parked = first.wait(&run_id);
    assert_eq!(parked["reason"], "yield", "{parked}");
    let warning = parked["warnings"][0].as_str().unwrap_or_default();
    assert!(warning.contains("no longer journaled") && warning.contains("65536 bytes"), "{parked}");
    assert_eq!(calls(&dir), 1);
    // In this process the run goes on.
    let again = first.wait(&run_id);
    assert_eq!(again["value"], 1, "{again}");

    // The same again, crashed while memory only.
    let run_id = first.exec(OUTGROWING)["runId"].as_str().unwrap().to_owned();
    assert_eq!(first.wait(&run_id)["reason"], "yield");
    assert_eq!(calls(&dir), 2);
    first.kill_9();
    // The record says so: nothing to replay.
    assert!(shown(&config, &store, &run_id)["journal_bytes"].as_u64().unwrap() < 1024);

    let mut next = Session::start(&config, &store);
    let lost = next.wait(&run_id);
    assert_eq!(lost["status"], "failed", "{lost}");
    assert!(lost["error"].as_str().unwrap().contains("is lost"), "{lost}");
    assert_eq!(calls(&dir), 2, "never run again from a stale journal");
    let later = next.wait(&run_id);
    assert!(later["error"].as_str().unwrap().contains("lived in one codemode process's memory only"), "{later}");
    next.kill_9();
    assert_eq!(shown(&config, &store, &run_id)["status"], "lost");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn waits_on_a_run_parked_for_approval_write_nothing_to_its_journal_ga_10_3() {
    let dir = common::temp("journal-life", "idle");
    let config = config(&dir, "[[policy]]\ntool = \"count\"\naction = \"ask\"\nreason = \"counting needs a person\"\n");
    let store = dir.join("store");
    let mut first = Session::start(&config, &store);
    let parked = first.exec("const a = await count({}); return a.n");
    assert_eq!(parked["reason"], "approval", "{parked}");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    assert_eq!(first.wait(&run_id)["reason"], "approval");
    first.kill_9();
    let before = shown(&config, &store, &run_id);

    let mut next = Session::start(&config, &store);
    for _ in 0..300 {
        let again = next.wait(&run_id);
        assert_eq!(again["reason"], "approval", "{again}");
    }
    next.kill_9();
    let after = shown(&config, &store, &run_id);
    assert_eq!(after["journal_bytes"], before["journal_bytes"], "300 idle waits wrote nothing: {before} / {after}");
    assert_eq!(calls(&dir), 0);
    let _ = std::fs::remove_dir_all(&dir);
}
