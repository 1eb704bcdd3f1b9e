//! Operators' view, end to end: a real Prometheus (Debian's
//! `prometheus` package; `scripts/test.sh` installs it) scrapes a real
//! `codemode serve --metrics` while mixed cells run — completed, failing,
//! timed out, parked, tool calls, store writes, saved results, console
//! overflow, refused requests. Every expression of the Grafana dashboard,
//! every recording rule and every alert's input is then evaluated through
//! Prometheus's HTTP API and must return data — a series with a number: a
//! pre-initialised counter's 0 counts, a quantile's `NaN` only for the
//! durable-run histograms this test does not observe (`Answer`); `promtool`
//! checks the scrape, the rule files and the rules' unit tests.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{PATIENCE, Server, http};
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tool(name: &str) -> String {
    let found = Command::new("sh").args(["-c", &format!("command -v {name}")]).output().unwrap();
    assert!(
        found.status.success(),
        "`{name}` is missing: install Debian's `prometheus` package (scripts/test.sh does it when missing)"
    );
    String::from_utf8(found.stdout).unwrap().trim().to_owned()
}

/// A Prometheus server scraping `target` every second, with the repo's
/// rule files loaded. Killed when dropped.
struct Prometheus {
    child: Child,
    api: String,
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Prometheus {
    fn start(dir: &Path, target: &str) -> Self {
        let rules = repo().join("deploy/prometheus");
        let config = format!(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - {}\n  - {}\n\
             scrape_configs:\n  - job_name: codemode\n    static_configs:\n      - targets: ['{target}']\n",
            rules.join("rules.yml").display(),
            rules.join("alerts.yml").display()
        );
        std::fs::write(dir.join("prometheus.yml"), config).unwrap();
        // A free port: bound, read, released (Prometheus 2.42 cannot report
        // the port it picked for `:0`).
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let api = format!("127.0.0.1:{port}");
        let child = Command::new(tool("prometheus"))
            .arg(format!("--config.file={}", dir.join("prometheus.yml").display()))
            .arg(format!("--storage.tsdb.path={}", dir.join("tsdb").display()))
            .arg(format!("--web.listen-address={api}"))
            .arg("--log.level=warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let prometheus = Self { child, api };
        let deadline = Instant::now() + PATIENCE;
        while std::net::TcpStream::connect(&prometheus.api).is_err()
            || http(&prometheus.api, "GET", "/-/ready").0 != "HTTP/1.1 200 OK"
        {
            assert!(Instant::now() < deadline, "Prometheus did not become ready");
            std::thread::sleep(Duration::from_millis(100));
        }
        prometheus
    }

    fn get(&self, path: &str, params: &[(&str, &str)]) -> Value {
        let url = reqwest::Url::parse_with_params(&format!("http://{}{path}", self.api), params).unwrap();
        let body = reqwest::blocking::get(url).unwrap().text().unwrap();
        let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
        assert_eq!(v["status"], "success", "{body}");
        v["data"].clone()
    }

    /// The instant vector `expr` evaluates to now.
    fn query(&self, expr: &str) -> Vec<Value> {
        self.get("/api/v1/query", &[("query", expr)])["result"].as_array().cloned().unwrap_or_default()
    }
}

/// Runs each cell through one MCP session of the Python client, then
/// resumes the last one (it parked) with `wait`.
fn exec_all(server: &Server, cells: &[&str]) {
    let mut calls: Vec<Value> = cells.iter().map(|code| serde_json::json!(["exec", {"code": code}])).collect();
    calls.push(serde_json::json!(["wait", {"runId": "$lastRunId"}]));
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_http_client.py");
    let out = Command::new("python3")
        .args([script, &server.mcp, "calls", &Value::Array(calls).to_string()])
        .output()
        .expect("python3 runs (scripts/test.sh installs the `mcp` package)");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let calls = cells.len() + 1;
    assert_eq!(text.lines().count(), calls + 1, "one line per call, then the session summary: {text}");
}

/// One exec (or `wait:RUN`) in the named session `prometheus`.
fn identity_call(server: &Server, code: &str) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_http_identity.py");
    let out = Command::new("python3").args([script, &server.mcp, code, "-", "prometheus"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A dashboard expression as Grafana would send it for one job and every
/// instance.
fn as_grafana_sends(expr: &str) -> String {
    expr.replace("$__rate_interval", "1m").replace("$job", "codemode").replace("$instance", ".+")
}

/// An alert's input: its expression without the final threshold.
fn alert_input(expr: &str) -> String {
    let expr = expr.trim();
    let cut = [" > ", " >= ", " < ", " <= ", " == ", " != "]
        .iter()
        .filter_map(|op| expr.rfind(op))
        .max()
        .unwrap_or_else(|| panic!("alert expression `{expr}` has no threshold"));
    expr[..cut].trim().to_owned()
}

/// What a query answered, by the test's rule: *data* is at least one series
/// with a number. A pre-initialised counter's `0` (or its rate's) is a
/// number; `NaN` (a quantile over a histogram without observations) is not.
#[derive(Debug, PartialEq)]
enum Answer {
    Data,
    Empty,
    OnlyNaN,
}

fn answer(result: &[Value]) -> Answer {
    if result.is_empty() {
        Answer::Empty
    } else if result.iter().all(|s| s["value"][1].as_str().is_some_and(|v| v.parse::<f64>().is_ok_and(f64::is_nan))) {
        Answer::OnlyNaN
    } else {
        Answer::Data
    }
}

fn shown(result: &[Value]) -> String {
    let first = result.first().map_or(String::from("-"), |s| s["value"][1].as_str().unwrap_or("?").to_owned());
    format!("{} series, first = {first}", result.len())
}

#[test]
fn rule_files_pass_promtool_and_their_unit_tests() {
    let dir = repo().join("deploy/prometheus");
    let check = Command::new(tool("promtool"))
        .args(["check", "rules", "rules.yml", "alerts.yml"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    let test = Command::new(tool("promtool")).args(["test", "rules", "tests.yml"]).current_dir(&dir).output().unwrap();
    assert!(
        test.status.success(),
        "{}{}",
        String::from_utf8_lossy(&test.stdout),
        String::from_utf8_lossy(&test.stderr)
    );
}

#[test]
fn every_dashboard_panel_and_rule_returns_data_from_a_real_prometheus_scraping_serve() {
    // An MCP server (the time server from PyPI) and the node gateway, so
    // their gauges exist as they would in production.
    let config = "[limits]\ntimeout_ms = 400\nmax_in_flight = 2\nmax_queued = 4\nmax_output_bytes = 4096\n\n\
                  [[tools]]\nname = \"echo\"\ndescription = \"Echoes its input.\"\ncommand = [\"cat\"]\n\n\
                  [[mcp_servers]]\nname = \"time\"\ncommand = [\"python3\", \"-m\", \"mcp_server_time\"]\n\n\
                  [nodes]\nlisten = \"127.0.0.1:0\"\ntokens = [\"prometheus-test-token\"]\n\n\
                  [runs]\nevict_after_ms = 1000\n";
    let server = Server::start("prometheus", "scrape", config, &[]);
    let prometheus = Prometheus::start(&server.dir, &server.probes);

    // The scrape itself is clean exposition text.
    let (status, _, metrics) = http(&server.probes, "GET", "/metrics");
    assert_eq!(status, "HTTP/1.1 200 OK");
    let mut check = Command::new(tool("promtool"))
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(check.stdin.as_mut().unwrap(), metrics.as_bytes()).unwrap();
    drop(check.stdin.take());
    let checked = check.wait_with_output().unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&checked.stdout), String::from_utf8_lossy(&checked.stderr));
    assert!(checked.status.success() && said.trim().is_empty(), "promtool check metrics: {said}");

    // Mixed cells over several scrapes, so rates have two samples or more.
    let cells = [
        "return 1",
        "throw new Error('boom')",
        "while (true) {}",
        "await echo({n: 1}); await echo({n: 2}); return 2",
        "await store('k', 'v'.repeat(100)); return 3",
        "await results.save({a: 1}); return 4",
        "for (let i = 0; i < 2000; i++) console.log('x'.repeat(100)); return 5",
        "await Promise.all(Array.from({length: 20}, () => echo({n: 1})))",
        "await yield_control('parked for the scrape'); return 6",
        "await yield_control('resumed at once'); return 7",
    ];
    for _ in 0..3 {
        // A run of a named session parks, is evicted to its journal while
        // idle, and is resumed by replay: the durable-run panels see real
        // journal writes, evictions and replays.
        let parked = identity_call(&server, "await yield_control('evict me'); return 8");
        exec_all(&server, &cells);
        std::thread::sleep(Duration::from_millis(1500));
        let resumed = identity_call(&server, &format!("wait:{}", parked["runId"].as_str().unwrap()));
        assert_eq!(resumed["value"], 8, "{resumed}");
    }
    let deadline = Instant::now() + PATIENCE;
    loop {
        let seen = prometheus.query("sum(codemode_cells_total)");
        let ended = seen.first().and_then(|s| s["value"][1].as_str()).and_then(|v| v.parse::<f64>().ok());
        // Every cell but the parked ones ended, and a later scrape saw it.
        if ended.is_some_and(|n| n >= 24.0) {
            break;
        }
        assert!(Instant::now() < deadline, "Prometheus never saw the cells: {seen:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_secs(3)); // rules evaluated on the new samples

    let mut table = Vec::new();
    let mut empty = Vec::new();
    let mut check = |what: String, expr: &str, result: &[Value]| match answer(result) {
        Answer::Data => {}
        Answer::OnlyNaN => empty.push(format!("{what} (only NaN): {expr}")),
        Answer::Empty => empty.push(format!("{what}: {expr}")),
    };
    let dashboard: Value =
        serde_json::from_str(&std::fs::read_to_string(repo().join("deploy/grafana/codemode.json")).unwrap()).unwrap();
    for panel in dashboard["panels"].as_array().unwrap() {
        for target in panel["targets"].as_array().into_iter().flatten() {
            let expr = as_grafana_sends(target["expr"].as_str().unwrap());
            let result = prometheus.query(&expr);
            check(format!("panel {:?}", panel["title"]), &expr, &result);
            table.push(format!("| {} | `{expr}` | {} |", panel["title"].as_str().unwrap_or("?"), shown(&result)));
        }
    }
    let rules = prometheus.get("/api/v1/rules", &[]);
    let mut counted = 0;
    for group in rules["groups"].as_array().unwrap() {
        for rule in group["rules"].as_array().unwrap() {
            counted += 1;
            let (label, expr) = match rule["type"].as_str().unwrap() {
                "recording" => {
                    (format!("record {}", rule["name"].as_str().unwrap()), rule["name"].as_str().unwrap().to_owned())
                }
                _ => (
                    format!("alert {} input", rule["name"].as_str().unwrap()),
                    alert_input(rule["query"].as_str().unwrap()),
                ),
            };
            assert_eq!(rule["health"], "ok", "{label}: {rule}");
            let result = prometheus.query(&expr);
            check(label.clone(), &expr, &result);
            table.push(format!("| {label} | `{expr}` | {} |", shown(&result)));
        }
    }
    eprintln!("| panel / rule | expression | value |\n|---|---|---|\n{}", table.join("\n"));
    assert!(counted >= 10, "the rule files were not loaded: {rules}");
    assert!(empty.is_empty(), "no data for:\n{}", empty.join("\n"));
}

/// With the collector down, lost exports are counted on `/metrics` (an
/// alert watches them), not only logged.
#[test]
fn failed_otlp_exports_and_the_spans_they_lose_are_counted_on_metrics() {
    // A port nothing listens on: every export is refused.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let config = format!("[telemetry]\notlp_endpoint = \"http://127.0.0.1:{port}\"\n");
    // Export each batch within 100 ms instead of the default 5 s.
    let server = Server::start_with_env("prometheus", "otlp-down", &config, &[], &[("OTEL_BSP_SCHEDULE_DELAY", "100")]);
    let (_, _, before) = http(&server.probes, "GET", "/metrics");
    assert!(before.contains("codemode_otlp_export_failures_total{signal=\"spans\"} 0"), "{before}");
    exec_all(&server, &["return 1"]);
    let deadline = Instant::now() + PATIENCE;
    loop {
        let (_, _, text) = http(&server.probes, "GET", "/metrics");
        let read = |name: &str| -> f64 {
            text.lines().find_map(|l| l.strip_prefix(name)).and_then(|v| v.trim().parse().ok()).unwrap_or(0.0)
        };
        if read("codemode_otlp_export_failures_total{signal=\"spans\"}") >= 1.0 {
            assert!(read("codemode_otlp_spans_lost_total") >= 1.0, "{text}");
            return;
        }
        assert!(Instant::now() < deadline, "no failed export counted: {text}");
        std::thread::sleep(Duration::from_millis(100));
    }
}
