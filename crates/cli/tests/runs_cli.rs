//! `codemode runs list|show|abort`, run as a real process on a sled store
//! the test seeds through `SledRuns`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use codemode_store::runs::{RunMeta, RunStatus, RunStore, SledRuns, now_ms};
use codemode_store::{SessionStore, StoreLimits};
use serde_json::Value;

/// A test's own directory (its store inside), removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("codemode-runs-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    fn store(&self) -> PathBuf {
        self.0.join("store")
    }

    /// `codemode --store <store> ARGS` in this directory (so no stray
    /// codemode.toml is read).
    fn codemode(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_codemode"))
            .current_dir(&self.0)
            .arg("--store")
            .arg(self.store())
            .args(args)
            .output()
            .unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn run_id(n: u8) -> String {
    format!("run_{}", format!("{n:02x}").repeat(16))
}

const SECRET_SESSION: &str = "secret-session-key";
const LONG: Duration = Duration::from_secs(600);

/// Seeds three runs in `store` and closes it: `run_01…` running and held
/// by `proc-a`, `run_02…` parked with no owner (a 5-byte journal),
/// `run_03…` completed (newest).
fn seed(store: &Path) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let sessions = SessionStore::open(Some(store), StoreLimits::default(), "seed".into()).unwrap();
        let runs = SledRuns::open(&sessions).unwrap();
        let base = now_ms() - 60_000;
        for n in 1..=3u8 {
            let meta = RunMeta {
                run_id: run_id(n),
                session: if n == 3 { "other-session".into() } else { SECRET_SESSION.into() },
                reply: "reply-1".into(),
                principal: Some("alice".into()),
                title: Some(format!("title {n}\u{1b}[31m")),
                created_ms: base + u64::from(n),
            };
            runs.create(&meta, "proc-a", LONG).await.unwrap();
        }
        runs.save(&run_id(2), "proc-a", RunStatus::Parked, b"12345".to_vec(), None).await.unwrap();
        runs.end(&run_id(3), "proc-a", codemode_protocol::RunEnd::Completed, Vec::new()).await.unwrap();
        sessions.flush().await.unwrap();
    });
}

/// The stored run, read after the CLI exited.
fn stored(store: &Path, n: u8) -> codemode_store::runs::RunRecord {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let sessions = SessionStore::open(Some(store), StoreLimits::default(), "check".into()).unwrap();
        SledRuns::open(&sessions).unwrap().get(&run_id(n)).await.unwrap().unwrap()
    })
}

#[test]
fn runs_list_shows_the_runs_newest_first_with_sessions_hashed_and_titles_made_safe() {
    let dir = Scratch::new("list");
    seed(&dir.store());
    let out = dir.codemode(&["runs", "list"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "a header and three runs:\n{text}");
    for word in ["RUN", "STATUS", "SESSION", "OWNER", "LEASE", "JOURNAL", "AGE", "TITLE"] {
        assert!(lines[0].contains(word), "{}", lines[0]);
    }
    assert!(lines[1].starts_with(&run_id(3)) && lines[1].contains("completed"), "{}", lines[1]);
    assert!(lines[2].starts_with(&run_id(2)) && lines[2].contains("parked") && lines[2].contains("5 B"));
    assert!(lines[3].starts_with(&run_id(1)) && lines[3].contains("running") && lines[3].contains("proc-a"));
    assert!(lines[3].contains("1m") || lines[3].contains("9m"), "age and lease left: {}", lines[3]);
    assert!(!text.contains(SECRET_SESSION), "a session key is a capability:\n{text}");
    assert!(text.contains("sha256:"), "{text}");
    assert!(!text.contains('\u{1b}'), "no escape sequence reaches the terminal");

    let shown = dir.codemode(&["runs", "list", "--show-sessions"]);
    assert!(stdout(&shown).contains(SECRET_SESSION));
}

#[test]
fn runs_list_filters_by_status_session_and_limit_and_prints_json() {
    let dir = Scratch::new("filters");
    seed(&dir.store());
    let json = |args: &[&str]| -> Vec<Value> {
        let out = dir.codemode(&[&["runs", "list", "--json"], args].concat());
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let ids = |rows: &[Value]| rows.iter().map(|r| r["run_id"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
    let all = json(&[]);
    assert_eq!(ids(&all), vec![run_id(3), run_id(2), run_id(1)]);
    let parked = &all[1];
    assert_eq!(parked["status"], "parked");
    assert_eq!(parked["journal_bytes"], 5);
    assert_eq!(parked["owner"], Value::Null);
    assert_eq!(parked["principal"], "alice");
    assert!(parked["session"].as_str().unwrap().starts_with("sha256:"));
    assert!(all[2]["lease_left_ms"].as_u64().unwrap() > 500_000, "{}", all[2]);
    assert_eq!(ids(&json(&["--status", "parked"])), vec![run_id(2)]);
    assert_eq!(ids(&json(&["--session", SECRET_SESSION])), vec![run_id(2), run_id(1)]);
    let hash = parked["session"].as_str().unwrap().to_owned();
    assert_eq!(ids(&json(&["--session", &hash])), vec![run_id(2), run_id(1)], "the shown hash filters too");
    assert_eq!(ids(&json(&["--limit", "1"])), vec![run_id(3)]);
    assert!(json(&["--status", "failed"]).is_empty());
    let raw = json(&["--show-sessions", "--status", "running"]);
    assert_eq!(raw[0]["session"], SECRET_SESSION);
}

#[test]
fn runs_show_prints_everything_but_the_journal_bytes() {
    let dir = Scratch::new("show");
    seed(&dir.store());
    let out = dir.codemode(&["runs", "show", &run_id(2), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let run: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(run["run_id"], run_id(2));
    assert_eq!(run["status"], "parked");
    assert_eq!(run["journal_bytes"], 5);
    assert_eq!(run["reply"], "reply-1");
    assert!(run.get("journal").is_none(), "the journal itself is never printed");
    assert!(run["version"].as_u64().unwrap() >= 1);
    assert!(!stdout(&out).contains(SECRET_SESSION));

    let text = stdout(&dir.codemode(&["runs", "show", &run_id(1)]));
    for line in
        ["status:          running", "owner:           proc-a", "journal:         0 B", "principal:       alice"]
    {
        assert!(text.contains(line), "{line:?} in:\n{text}");
    }
    assert!(text.contains("session:         sha256:") && !text.contains(SECRET_SESSION), "{text}");
}

#[test]
fn runs_abort_ends_a_parked_run_nobody_holds_and_marks_a_held_one_for_its_owner() {
    let dir = Scratch::new("abort");
    seed(&dir.store());
    let out = dir.codemode(&["runs", "abort", &run_id(2)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("ended now as aborted"), "{}", stdout(&out));
    let out = dir.codemode(&["runs", "abort", &run_id(1)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("held by proc-a") && stdout(&out).contains("marked for abort"), "{}", stdout(&out));
    let out = dir.codemode(&["runs", "abort", &run_id(3)]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("already ended (completed)"), "{}", stdout(&out));

    let parked = stored(&dir.store(), 2);
    assert_eq!(parked.status, RunStatus::Ended(codemode_protocol::RunEnd::Aborted));
    let held = stored(&dir.store(), 1);
    assert_eq!(held.status, RunStatus::Running, "its owner ends it");
    assert!(held.abort_requested);
}

/// The audit trail of `store`, newest first, read after the CLI exited.
fn audit_trail(store: &Path) -> Vec<codemode_store::audit::AuditEntry> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let backend = codemode_store::StoreBackend::Sled { path: Some(store.to_path_buf()) };
        let db = codemode_store::open(&backend, codemode_store::OpenOptions::named("check")).await.unwrap();
        db.audit.list(None, 100).await.unwrap()
    })
}

#[test]
fn an_operator_action_cut_at_any_crash_point_is_never_taken_without_its_audit_entry_ga_10_3() {
    // Every durability point `runs abort` reaches, found by a traced run.
    let traced = Scratch::new("audit-trace");
    seed(&traced.store());
    let trace = traced.0.join("trace");
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .current_dir(&traced.0)
        .env("CODEMODE_CRASH_TRACE", &trace)
        .args(["--store", traced.store().to_str().unwrap(), "runs", "abort", &run_id(2)])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let points: Vec<String> = std::fs::read_to_string(&trace).unwrap().lines().map(str::to_owned).collect();
    let names: Vec<&str> = points.iter().filter_map(|l| l.split_once(' ').map(|(_, name)| name)).collect();
    assert_eq!(names, ["operator.audited", "operator.acted"], "the points an operator action passes");
    let settled = audit_trail(&traced.store());
    assert_eq!((settled.len(), settled[0].ok), (1, true), "settled once done: {settled:?}");
    for (k, name) in names.iter().enumerate() {
        let dir = Scratch::new(&format!("audit-cut-{k}"));
        seed(&dir.store());
        let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
            .current_dir(&dir.0)
            .env("CODEMODE_CRASH_AT", (k + 1).to_string())
            .args(["--store", dir.store().to_str().unwrap(), "runs", "abort", &run_id(2)])
            .output()
            .unwrap();
        assert!(!out.status.success(), "cut at {name}");
        let trail = audit_trail(&dir.store());
        let run = stored(&dir.store(), 2);
        assert_eq!(trail.len(), 1, "cut at {name}: the entry was written before anything was done");
        assert_eq!(
            (trail[0].ok, trail[0].outcome.as_str(), trail[0].action.as_str()),
            (false, codemode_store::audit::STARTED, "abort"),
            "cut at {name}: it says the outcome was not recorded"
        );
        let taken = run.status == RunStatus::Ended(codemode_protocol::RunEnd::Aborted);
        assert_eq!(taken, *name == "operator.acted", "cut at {name}: {:?}", run.status);
    }
}

#[test]
fn an_unknown_run_exits_1_and_a_malformed_run_id_or_status_exits_2() {
    let dir = Scratch::new("codes");
    seed(&dir.store());
    for verb in ["show", "abort"] {
        let out = dir.codemode(&["runs", verb, &run_id(9)]);
        assert_eq!(out.status.code(), Some(1), "{verb}: {}", stderr(&out));
        assert!(stderr(&out).contains(&format!("no stored run has id {}", run_id(9))), "{}", stderr(&out));
        let out = dir.codemode(&["runs", verb, "run_nothex"]);
        assert_eq!(out.status.code(), Some(2), "{verb}: {}", stderr(&out));
        assert!(stderr(&out).contains("32 hex digits"), "{}", stderr(&out));
    }
    assert_eq!(dir.codemode(&["runs", "list", "--status", "sleeping"]).status.code(), Some(2));
    assert_eq!(dir.codemode(&["runs", "list", "--limit", "0"]).status.code(), Some(2));
    assert_eq!(dir.codemode(&["runs", "list", "--limit", "1001"]).status.code(), Some(2));
    assert!(dir.codemode(&["runs", "list", "--limit", "1000"]).status.success());
}

#[test]
fn runs_refuses_a_store_another_process_holds_and_says_what_to_do() {
    let dir = Scratch::new("in-use");
    seed(&dir.store());
    // Retried while the seeding handle's last threads let go of the store.
    let held = (0..100)
        .find_map(|_| {
            let opened = SessionStore::open(Some(&dir.store()), StoreLimits::default(), "holder".into()).ok();
            if opened.is_none() {
                std::thread::sleep(Duration::from_millis(20));
            }
            opened
        })
        .expect("the seeded store opens");
    let out = dir.codemode(&["runs", "list"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("is in use by another codemode process"), "{err}");
    assert!(err.contains("codemode runs --server") && err.contains("backend = \"postgres\""), "{err}");
    drop(held);
}

#[test]
fn runs_on_a_store_that_does_not_exist_says_so_and_creates_nothing() {
    let dir = Scratch::new("missing");
    let out = dir.codemode(&["runs", "list"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no session store at"), "{}", stderr(&out));
    assert!(!dir.store().exists(), "listing must not create a database");
}

#[test]
fn config_check_prints_the_store_backend_without_a_password() {
    let dir = Scratch::new("config");
    let config = dir.0.join("codemode.toml");
    std::fs::write(&config, "[store]\nbackend = \"postgres\"\nurl = \"postgres://u:hunter2@db:5432/codemode\"\n")
        .unwrap();
    let out =
        Command::new(env!("CARGO_BIN_EXE_codemode")).current_dir(&dir.0).args(["config", "check"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("# store backend: postgres at postgres://u:***@db:5432/codemode (pool of 8)"), "{text}");
    assert!(!text.contains("hunter2"), "{text}");
    let sled = dir.codemode(&["config", "check"]);
    assert_eq!(sled.status.code(), Some(1), "--store with the postgres backend is refused");
    assert!(stderr(&sled).contains("--store is the sled database directory"), "{}", stderr(&sled));
    std::fs::remove_file(&config).unwrap();
    let out = dir.codemode(&["config", "check"]);
    assert!(stdout(&out).contains("# store backend: sled at"), "{}", stdout(&out));
}

#[test]
fn without_store_the_runs_command_finds_the_store_a_server_fell_back_to_in_the_data_directory() {
    let dir = Scratch::new("fallback");
    let data = dir.0.join("data");
    let fallback = data.join("codemode/store");
    seed(&fallback);
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .current_dir(&dir.0)
        .env("XDG_DATA_HOME", &data)
        .args(["runs", "list", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rows.len(), 3);
    assert!(!dir.0.join(".codemode").exists(), "the default store was not created");
}
