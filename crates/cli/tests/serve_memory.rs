//! What closed MCP sessions leave behind: a real `codemode serve --http`,
//! driven by the Python MCP client, watched through its `/metrics`. Each
//! session returns a value over the output budget, which is saved
//! automatically (GA-6.6); once its client has gone and the dispose grace
//! has passed, the results it held and the session itself are gone from
//! the gauges, and every save was counted.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;

use common::{PATIENCE, Server, http};

/// A cell whose final array is ~140 KB of JSON: over the default 64 KiB
/// output budget, so it comes back as a reference.
const LARGE: &str = "return Array.from({length: 2000}, (_, i) => ({i, s: 'x'.repeat(52)}));";

/// A short grace, so the test waits little; nothing depends on its length.
const CONFIG: &str = "[serve]\ndispose_grace_ms = 200\n";

/// The gauges and counters this test reads, from one scrape.
#[derive(Debug, PartialEq)]
struct Held {
    results: f64,
    results_bytes: f64,
    open: f64,
    closing: f64,
}

/// The value of the sample named exactly `series` (name and labels).
fn sample(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(series).and_then(|rest| rest.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("no sample {series} in:\n{text}"))
        .trim()
        .parse()
        .unwrap()
}

fn scrape(server: &Server) -> String {
    let (status, _, text) = http(&server.probes, "GET", "/metrics");
    assert_eq!(status, "HTTP/1.1 200 OK", "{text}");
    text
}

fn held(text: &str) -> Held {
    Held {
        results: sample(text, "codemode_results_held"),
        results_bytes: sample(text, "codemode_results_held_bytes"),
        open: sample(text, "codemode_mcp_sessions{state=\"open\"}"),
        closing: sample(text, "codemode_mcp_sessions{state=\"closing\"}"),
    }
}

const NOTHING: Held = Held { results: 0.0, results_bytes: 0.0, open: 0.0, closing: 0.0 };

/// Polls `/metrics` until nothing is held: no result, no session open or
/// closing. The grace is short; PATIENCE only bounds a hang.
fn until_nothing_is_held(server: &Server) -> String {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let text = scrape(server);
        if held(&text) == NOTHING {
            return text;
        }
        assert!(Instant::now() < deadline, "still held after the dispose grace: {:?}", held(&text));
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `n` sequential sessions of `code` in session `key` (`-`: each its own);
/// the parsed result of each.
fn sessions(server: &Server, n: usize, code: &str, key: &str) -> Vec<Value> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_http_sessions.py");
    let out = Command::new("python3")
        .args([script, &server.mcp, &n.to_string(), code, key])
        .output()
        .expect("python3 runs (scripts/test.sh installs the `mcp` package)");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let results: Vec<Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(results.len(), n, "one result per session: {results:?}");
    results
}

/// The bytes of the automatic reference in `result`.
fn reference_bytes(result: &Value) -> f64 {
    assert_eq!((&result["status"], &result["value"]["truncated"]), (&Value::from("completed"), &Value::Bool(true)));
    result["value"]["reference"]["bytes"].as_f64().unwrap_or_else(|| panic!("no reference: {result}"))
}

#[test]
fn closed_sessions_release_their_automatically_saved_results_and_every_save_is_counted_ga_6_6() {
    let server = Server::start("memory", "sequential", CONFIG, &[]);
    let before = scrape(&server);
    assert_eq!(held(&before), NOTHING);
    assert_eq!(sample(&before, "codemode_results_saved_total"), 0.0);

    // While a session is connected, what it saved is held and counted.
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_http_sessions.py");
    let mut holding = Command::new("python3")
        .args([script, &server.mcp, "1", LARGE, "-", "--hold"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs (scripts/test.sh installs the `mcp` package)");
    let mut line = String::new();
    BufReader::new(holding.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let bytes = reference_bytes(&serde_json::from_str(&line).unwrap());
    assert!(bytes > 130_000.0, "the value is over the output budget: {bytes}");
    let text = scrape(&server);
    assert_eq!(held(&text), Held { results: 1.0, results_bytes: bytes, open: 1.0, closing: 0.0 });
    assert_eq!(sample(&text, "codemode_results_saved_total"), 1.0, "the automatic save is counted");
    assert_eq!(sample(&text, "codemode_results_saved_bytes_total"), bytes);
    writeln!(holding.stdin.as_mut().unwrap()).unwrap();
    assert!(holding.wait().unwrap().success());
    until_nothing_is_held(&server);

    // Many sessions, one after another: each saved its value, and once all
    // are closed and past the grace, nothing of them is held.
    const N: usize = 12;
    for result in sessions(&server, N, LARGE, "-") {
        assert_eq!(reference_bytes(&result), bytes);
    }
    let after = until_nothing_is_held(&server);
    assert_eq!(sample(&after, "codemode_results_saved_total"), 1.0 + N as f64);
    assert_eq!(sample(&after, "codemode_results_saved_bytes_total"), bytes * (1.0 + N as f64));
    assert_eq!(sample(&after, "codemode_live_cells"), 0.0);
}

#[test]
fn a_run_finishing_after_its_sessions_reply_ended_keeps_no_result_ga_6_5() {
    let server = Server::start("memory", "late", CONFIG, &[]);
    // A named session's run is durable: it outlives its connection.
    let code = format!("await yield_control('later'); {LARGE}");
    let parked = sessions(&server, 1, &code, "kept").remove(0);
    assert_eq!(parked["status"], "waiting", "{parked}");
    // Its connection is closed and past the grace: its reply has ended.
    until_nothing_is_held(&server);

    // Another connection of the same key resumes it: the final value is
    // over the budget, but the reply it would be saved in has ended, so it
    // is not kept (it would belong to no reply that ever ends).
    let run = parked["runId"].as_str().unwrap();
    let done = sessions(&server, 1, &format!("wait:{run}"), "kept").remove(0);
    assert_eq!((&done["status"], &done["value"]["truncated"]), (&Value::from("completed"), &Value::Bool(true)));
    assert!(done["value"].get("reference").is_none(), "{done}");
    let guidance = done["value"]["guidance"].as_str().unwrap();
    assert!(guidance.contains("Not retained: this cell's reply has ended"), "{guidance}");
    let after = until_nothing_is_held(&server);
    assert_eq!(sample(&after, "codemode_results_saved_total"), 0.0);
}

#[test]
fn on_postgres_saves_are_counted_the_held_gauges_are_absent_and_sessions_still_close_ga_6_6() {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let url = rt.block_on(codemode_store::postgres::test_database());
    let config = format!("{CONFIG}\n[store]\nbackend = \"postgres\"\nurl = \"{url}\"\n");
    let server = Server::start("memory", "postgres", &config, &[]);
    let results = sessions(&server, 3, LARGE, "-");
    let bytes = reference_bytes(&results[0]);
    let deadline = Instant::now() + PATIENCE;
    let text = loop {
        let text = scrape(&server);
        let sessions = |state: &str| sample(&text, &format!("codemode_mcp_sessions{{state=\"{state}\"}}"));
        if sessions("open") == 0.0 && sessions("closing") == 0.0 {
            break text;
        }
        assert!(Instant::now() < deadline, "the sessions never closed:\n{text}");
        std::thread::sleep(Duration::from_millis(50));
    };
    // The results are rows of the shared database: this process holds
    // none, so it reports no figure rather than a misleading 0.
    assert!(!text.contains("codemode_results_held"), "{text}");
    assert_eq!(sample(&text, "codemode_results_saved_total"), 3.0);
    assert_eq!(sample(&text, "codemode_results_saved_bytes_total"), 3.0 * bytes);
}
