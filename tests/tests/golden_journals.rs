//! Golden journals: runs parked by earlier builds must resume under this
//! one (GA-1.3 across upgrades).
//!
//! `tests/golden/journals/v<N>/` holds journals written by the build that
//! introduced journal format N, each beside a JSON file naming its run,
//! session and reply, the cell that wrote it, and the result its `wait`
//! must give. The check loads each journal into a fresh sled store as a
//! parked run record, starts a runtime with the same tools (format 1, which
//! named tools by position) or with a deploy's changed tool list (a tool
//! added before them, the others reordered: format 2 names tools by
//! identity), and resumes it. A change to the prelude, the request order or the
//! journal encoding that would break runs parked by an earlier release
//! fails here instead of in production.
//!
//! `v2-native-ids/` holds format 2 journals of the one build whose native
//! tools' catalog ids said `native:<name>` instead of `openclaw:<name>`;
//! they resume too.
//!
//! The files are written by the ignored test
//! `write_golden_journals_of_this_build` (set `CODEMODE_GOLDEN_DIR` to the
//! folder to write); a new format adds a folder, old folders are never
//! rewritten.

use std::path::{Path, PathBuf};
use std::time::Duration;

use codemode_runtime::{CellResult, CodeMode, McpServerConfig, RunsConfig, StoreBackend, Tool, ToolFuture, ToolOutput};
use codemode_store::runs::{RunMeta, RunStatus, RunStore, SledRuns};
use codemode_store::{SessionStore, StoreLimits};
use codemode_tests::Named;
use serde_json::{Value, json};

/// A native tool that never answers within a test (a call in flight at
/// the park); not replay-safe.
struct Hang;

impl Tool for Hang {
    fn name(&self) -> &str {
        "hang"
    }
    fn description(&self) -> &str {
        "Sleeps for an hour."
    }
    fn call(&self, _input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        Box::pin(async {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            Ok(ToolOutput::json(json!("late")))
        })
    }
}

fn fixture() -> McpServerConfig {
    McpServerConfig::stdio("fixture", env!("CARGO_BIN_EXE_mcp_fixture"), Vec::new())
        .call_timeout(Duration::from_secs(5))
}

/// The tools the golden journals were written with, in registration order.
fn writing_tools(builder: codemode_runtime::CodeModeBuilder) -> codemode_runtime::CodeModeBuilder {
    builder.tool(Named::new("alpha")).tool(Named::new("beta")).tool(Hang).mcp_server(fixture())
}

/// The same tools after a deploy: one added before them, the others in
/// another order. Format 1 named tools by position, so only journals of
/// format 2 on resume under it.
fn deployed_tools(builder: codemode_runtime::CodeModeBuilder) -> codemode_runtime::CodeModeBuilder {
    builder
        .tool(Named::new("gamma"))
        .tool(Hang)
        .tool(Named::new("beta"))
        .tool(Named::new("alpha"))
        .mcp_server(fixture())
}

/// The tools a golden journal is checked with.
fn checking_tools(label: &str) -> fn(codemode_runtime::CodeModeBuilder) -> codemode_runtime::CodeModeBuilder {
    if label.starts_with("v1/") { writing_tools } else { deployed_tools }
}

/// One golden case: the cell, and what resuming it must give.
struct Case {
    name: &'static str,
    code: &'static str,
}

/// Every case a build writes: tool calls, MCP, timers, clock reads,
/// randomness, store writes, output, pending yields and a call in flight.
const CASES: &[Case] = &[
    Case {
        name: "tool_calls",
        code: "const a = await alpha({n: 1}); const b = await beta({n: 2, list: [1, 2.5, 'x']}); \
               text('before'); await yield_control('checkpoint'); text('after'); \
               const c = await alpha({n: 3}); return {a, b, c};",
    },
    Case {
        name: "mcp",
        code: "const e = await MCP.fixture.echo({hello: 'world', n: 7}); \
               const inv = await MCP.fixture.list_invoices({customer: 'c-1'}); \
               await yield_control(); \
               const again = await MCP.fixture.echo({after: true}); \
               return {e: e.structuredContent, inv: inv.structuredContent, again: again.structuredContent};",
    },
    Case {
        name: "timers_clock_random",
        code: "const t0 = Date.now(); const d = new Date().toISOString(); const p = performance.now(); \
               const r = [Math.random(), Math.random()]; \
               const fired = []; setTimeout(() => fired.push('short'), 1); \
               await new Promise((res) => setTimeout(res, 5)); \
               const long = new Promise((res) => setTimeout(() => { fired.push('long'); res(); }, 40)); \
               await yield_control('timers'); await long; \
               return {t0, d, p, r, fired, r2: Math.random(), later: Date.now() >= t0, mono: performance.now() >= p};",
    },
    Case {
        name: "store_writes",
        code: "await store('kept', {v: 1}); await store('gone', 2); await store('gone', null); \
               const seen = await load('kept'); await yield_control(); \
               await store('late', [1, 2]); \
               return {seen, kept: await load('kept'), gone: await load('gone'), late: await load('late')};",
    },
    Case {
        name: "pending_yields",
        code: "const results = []; \
               const first = yield_control('one').then((r) => results.push(r)); \
               const second = yield_control('two').then((r) => results.push(r)); \
               const call = alpha({during: true}); \
               await Promise.all([first, second]); \
               return {results, call: await call};",
    },
    Case {
        name: "two_parks",
        code: "const a = await alpha({first: true}); await yield_control('one'); \
               const b = await beta({second: true}); await yield_control('two'); \
               return {a, b, c: await alpha({third: true})};",
    },
    Case {
        name: "in_flight_call",
        code: "const slow = hang({}).then((v) => ({ok: v}), (e) => ({code: e.code})); \
               const fast = await beta({}); \
               await yield_control('with a call in flight'); \
               return {fast, slow: await slow};",
    },
];

/// What a golden file records beside its journal.
fn sidecar(case: &Case, run_id: &str, result: &CellResult) -> Value {
    json!({
        "name": case.name,
        "code": case.code,
        "runId": run_id,
        "session": "golden-session",
        "reply": "golden-reply",
        "expected": comparable(result),
    })
}

/// The parts of a result that must match: status, value or error code,
/// and output. Telemetry and timing vary.
fn comparable(result: &CellResult) -> Value {
    let v = serde_json::to_value(result).expect("a result serializes");
    let mut out = serde_json::Map::new();
    for key in ["status", "value", "code", "output", "reason"] {
        if let Some(x) = v.get(key) {
            out.insert(key.to_owned(), x.clone());
        }
    }
    // Clock and random values differ per writing; the checker compares
    // them against the journal's own values through the cell's result, so
    // only their shape is recorded here.
    Value::Object(out)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-golden-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Opens a runtime on the sled store at `dir`, retrying while the last
/// runtime's database handles are still being dropped.
async fn runtime_on(dir: &Path, tools: impl Fn() -> codemode_runtime::CodeModeBuilder) -> CodeMode {
    for _ in 0..100 {
        let started = tools()
            .store_backend(StoreBackend::Sled { path: Some(dir.to_owned()) })
            .runs(RunsConfig { evict_after: None, ..RunsConfig::default() })
            .start()
            .await;
        match started {
            Ok(rt) => return rt,
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    panic!("the store at {} never opened", dir.display());
}

/// Waits until the fixture MCP server is connected, so a cell sees its tools.
async fn mcp_up(rt: &CodeMode) {
    assert!(rt.mcp_ready(Duration::from_secs(10)).await, "the fixture MCP server never connected");
}

/// Opens the sled store at `dir`, retrying while a stopped runtime's last
/// handles are still being dropped.
async fn open_store(dir: &Path) -> SessionStore {
    let mut last = None;
    for _ in 0..100 {
        match SessionStore::open(Some(dir), StoreLimits::default(), "golden-open".into()) {
            Ok(store) => return store,
            Err(e) => last = Some(e.to_string()),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the store at {} never opened: {last:?}", dir.display());
}

/// Reads the journal of `run_id` from the sled store at `dir`.
async fn stored_journal(dir: &Path, run_id: &str) -> Vec<u8> {
    let store = open_store(dir).await;
    let runs = SledRuns::open(&store).expect("run trees");
    let record = runs.get(run_id).await.expect("readable").expect("the run was recorded");
    assert_eq!(record.status, RunStatus::Parked);
    record.journal
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "writes golden files: run with CODEMODE_GOLDEN_DIR=tests/golden/journals/vN"]
async fn write_golden_journals_of_this_build() {
    let out = PathBuf::from(std::env::var("CODEMODE_GOLDEN_DIR").expect("CODEMODE_GOLDEN_DIR names the folder"));
    std::fs::create_dir_all(&out).unwrap();
    for case in CASES {
        let dir = temp_dir(case.name);
        let rt = runtime_on(&dir, || writing_tools(codemode_tests::builder())).await;
        mcp_up(&rt).await;
        // A `Reply` holds the runtime: none may outlive its shutdown below.
        let parked =
            rt.session("golden-session").reply("golden-reply").exec(codemode_runtime::Exec::code(case.code)).await;
        let parked = parked.unwrap();
        let CellResult::Waiting { run_id, .. } = &parked else { panic!("{}: {parked:?}", case.name) };
        // What an uninterrupted run gives, from the same in-memory cell;
        // its journal was written at the park, before this wait.
        let journal = {
            rt.shutdown().await;
            drop(rt);
            stored_journal(&dir, run_id).await
        };
        // Resume it once here to record the expected result.
        let rt = runtime_on(&dir, || writing_tools(codemode_tests::builder())).await;
        mcp_up(&rt).await;
        let mut done = rt.session("golden-session").reply("golden-reply").wait(run_id).await.unwrap();
        while matches!(done, CellResult::Waiting { .. }) {
            done = rt.session("golden-session").reply("golden-reply").wait(run_id).await.unwrap();
        }
        rt.shutdown().await;
        std::fs::write(out.join(format!("{}.journal", case.name)), &journal).unwrap();
        let side = serde_json::to_string_pretty(&sidecar(case, run_id, &done)).unwrap();
        std::fs::write(out.join(format!("{}.json", case.name)), side + "\n").unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Every golden journal under `tests/golden/journals`, by format folder.
fn goldens() -> Vec<(String, PathBuf, Value)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/journals");
    let mut out = Vec::new();
    let mut formats: Vec<_> = std::fs::read_dir(&root).expect("tests/golden/journals exists").flatten().collect();
    formats.sort_by_key(std::fs::DirEntry::file_name);
    for format in formats {
        let mut files: Vec<_> = std::fs::read_dir(format.path()).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for side in files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
            let meta: Value = serde_json::from_str(&std::fs::read_to_string(&side).unwrap()).unwrap();
            let label = format!("{}/{}", format.file_name().to_string_lossy(), meta["name"].as_str().unwrap());
            out.push((label, side.with_extension("journal"), meta));
        }
    }
    out
}

/// Puts `journal` into the sled store at `dir` as a parked run nobody holds.
async fn plant(dir: &Path, meta: &Value, journal: Vec<u8>) {
    let store = SessionStore::open(Some(dir), StoreLimits::default(), "golden-plant".into()).unwrap();
    let runs = SledRuns::open(&store).unwrap();
    let run = RunMeta {
        run_id: meta["runId"].as_str().unwrap().to_owned(),
        session: meta["session"].as_str().unwrap().to_owned(),
        reply: meta["reply"].as_str().unwrap().to_owned(),
        principal: None,
        title: None,
        created_ms: codemode_store::runs::now_ms(),
    };
    runs.create(&run, "golden-writer", Duration::from_secs(30)).await.unwrap();
    runs.save(&run.run_id, "golden-writer", RunStatus::Parked, journal, None).await.unwrap();
    store.flush().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_parked_by_earlier_builds_resume_with_the_results_they_were_written_with_ga_1_3() {
    let all = goldens();
    assert!(all.len() >= CASES.len(), "the golden journals are missing: {all:?}");
    for (label, journal, meta) in all {
        let dir = temp_dir(&label.replace('/', "-"));
        plant(&dir, &meta, std::fs::read(&journal).unwrap()).await;
        let run_id = meta["runId"].as_str().unwrap();
        let (session, reply) = (meta["session"].as_str().unwrap(), meta["reply"].as_str().unwrap());
        let tools = checking_tools(&label);
        let mut rt = runtime_on(&dir, || tools(codemode_tests::builder())).await;
        mcp_up(&rt).await;
        let mut done = rt.session(session).reply(reply).wait(run_id).await.unwrap();
        while matches!(done, CellResult::Waiting { .. }) {
            // Parked again: its journal is now in this build's format, and
            // another process resumes the run from that.
            rt.shutdown().await;
            drop(rt);
            let stored = stored_journal(&dir, run_id).await;
            assert_eq!(&stored[..4], b"CMJ2", "{label}: a resumed run is journaled in the current format");
            rt = runtime_on(&dir, || tools(codemode_tests::builder())).await;
            mcp_up(&rt).await;
            done = rt.session(session).reply(reply).wait(run_id).await.unwrap();
        }
        assert_eq!(comparable(&done), meta["expected"], "{label}: resuming gave another result");
        rt.shutdown().await;
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newer_journal_is_refused_and_stays_parked_and_a_damaged_one_ends_the_run_unrecoverable_ga_1_3() {
    let (_, path, meta) = goldens().into_iter().find(|(label, _, _)| label == "v1/tool_calls").expect("a golden");
    let good = std::fs::read(&path).unwrap();
    let mut flipped = good.clone();
    let at = flipped.len() / 2;
    flipped[at] ^= 0x20;
    let mut newer = good.clone();
    newer[3] = b'9';
    let run_id = meta["runId"].as_str().unwrap();
    // A newer build can resume a newer format: every wait is refused
    // naming the run, and the run stays parked for that build.
    let dir = temp_dir("refused-newer");
    plant(&dir, &meta, newer).await;
    let rt = runtime_on(&dir, || writing_tools(codemode_tests::builder())).await;
    for attempt in 0..2 {
        let r = rt.session("golden-session").reply("golden-reply").wait(run_id).await.unwrap();
        let CellResult::Failed { code, error, .. } = &r else { panic!("newer: {r:?}") };
        assert_eq!(code.as_str(), "runtime_unavailable", "newer {attempt}: {error}");
        assert!(error.contains(run_id) && error.contains("newer codemode"), "newer {attempt}: {error}");
    }
    assert_eq!(rt.metrics().runs.journal_unreadable, 2);
    rt.shutdown().await;
    drop(rt);
    let store = open_store(&dir).await;
    let record = SledRuns::open(&store).unwrap().get(run_id).await.unwrap().unwrap();
    assert_eq!((record.status, record.owner), (RunStatus::Parked, None), "newer: untouched");
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
    // No build can resume a damaged one: it ends, and every wait says so.
    let dir = temp_dir("refused-damaged");
    plant(&dir, &meta, flipped).await;
    let rt = runtime_on(&dir, || writing_tools(codemode_tests::builder())).await;
    let r = rt.session("golden-session").reply("golden-reply").wait(run_id).await.unwrap();
    let CellResult::Failed { code, error, .. } = &r else { panic!("damaged: {r:?}") };
    assert_eq!(code.as_str(), "runtime_unavailable", "{error}");
    assert!(error.contains(run_id) && error.contains("damaged") && error.contains("unrecoverable"), "{error}");
    let again = rt.session("golden-session").reply("golden-reply").wait(run_id).await.unwrap();
    let CellResult::Failed { error, .. } = &again else { panic!("damaged again: {again:?}") };
    assert!(error.contains("its journal was never stored whole or is damaged"), "{error}");
    assert_eq!(rt.metrics().runs.journal_unreadable, 1);
    rt.shutdown().await;
    drop(rt);
    let store = open_store(&dir).await;
    let record = SledRuns::open(&store).unwrap().get(run_id).await.unwrap().unwrap();
    assert_eq!(record.status, RunStatus::Ended(codemode_protocol::RunEnd::Unrecoverable));
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether `needle` occurs in `haystack`.
fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_this_build_parks_names_its_native_tools_as_earlier_builds_did_so_an_older_build_can_resume_it_ga_1_3() {
    // A rolling deploy: an older build sharing the store may claim a run
    // this one parked. It finds the run's tools by the ids it writes
    // itself, `openclaw:<name>` (cells and operators see `native`).
    let case = CASES.iter().find(|c| c.name == "tool_calls").unwrap();
    let dir = temp_dir("native-ids");
    let rt = runtime_on(&dir, || writing_tools(codemode_tests::builder())).await;
    mcp_up(&rt).await;
    let parked = rt.session("golden-session").reply("golden-reply").exec(codemode_runtime::Exec::code(case.code)).await;
    let CellResult::Waiting { run_id, .. } = parked.unwrap() else { panic!("the cell parks") };
    rt.shutdown().await;
    drop(rt);
    let journal = stored_journal(&dir, &run_id).await;
    let (_, earlier, _) = goldens().into_iter().find(|(label, _, _)| label == "v2/tool_calls").expect("a golden");
    let earlier = std::fs::read(earlier).unwrap();
    for id in ["openclaw:alpha", "openclaw:beta", "openclaw:hang"] {
        assert!(contains(&earlier, id.as_bytes()), "the earlier build wrote {id}");
        assert!(contains(&journal, id.as_bytes()), "this build writes {id}, as the earlier one did");
    }
    assert!(!contains(&journal, b"native:"), "no id an earlier build would not find");
    let _ = std::fs::remove_dir_all(&dir);
}
