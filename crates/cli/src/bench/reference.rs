//! `--compare`: the reference benchmark run beside codemode's, and the
//! side-by-side table.

use std::process::Stdio;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use super::options::BenchOptions;

/// Runs the reference benchmark (`bench.mjs` of the oracle) and returns
/// its JSON report.
pub(super) async fn reference(options: &BenchOptions, runs: usize, warmup: usize) -> Result<Value> {
    let (Ok(node), Ok(_project)) = (std::env::var("NODE24"), std::env::var("OPENCLAW_PROJECT")) else {
        bail!(
            "--compare needs NODE24 and OPENCLAW_PROJECT: run `eval \"$({}/setup.sh)\"` first",
            options.oracle.display()
        );
    };
    let script = options.oracle.join("bench.mjs");
    if !script.exists() {
        bail!("{} not found: point --oracle at the reference-oracle directory", script.display());
    }
    let out = std::env::temp_dir().join(format!("codemode-reference-bench-{}.json", std::process::id()));
    // The reference refuses more than 64 live runs; it parks its own 32.
    let parked = 32;
    eprintln!("codemode bench: running the reference benchmark ({})", script.display());
    let status = tokio::process::Command::new(node)
        .arg("--expose-gc")
        .arg(&script)
        .args(["--executor", "both", "--runs", &runs.to_string(), "--warmup", &warmup.to_string()])
        .args(["--parked", &parked.to_string(), "--json"])
        .arg(&out)
        .stdout(Stdio::null())
        .status()
        .await
        .context("running the reference benchmark")?;
    if !status.success() {
        bail!("the reference benchmark failed ({status})");
    }
    let text = std::fs::read_to_string(&out).with_context(|| format!("reading {}", out.display()))?;
    let _ = std::fs::remove_file(&out);
    Ok(serde_json::from_str(&text)?)
}

/// The reference's best (lowest) figure over its executors.
fn best(reference: &Value, path: &[&str]) -> Option<f64> {
    reference["results"]
        .as_array()?
        .iter()
        .filter_map(|r| path.iter().try_fold(r, |v, k| v.get(*k)).and_then(Value::as_f64))
        .min_by(f64::total_cmp)
}

pub(super) fn compare(ours: &Value, reference: &Value) {
    let get = |path: &[&str]| path.iter().try_fold(ours, |v, k| v.get(*k)).and_then(Value::as_f64);
    let parked_32 = ours["parked"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["count"] == 32).or(p.first()))
        .and_then(|p| p["rssPerParkedCellKib"].as_f64());
    let rows: [(&str, Option<f64>, Option<f64>, &str); 6] = [
        ("trivial cell p50", get(&["trivial", "p50"]), best(reference, &["trivial", "p50"]), "ms"),
        ("per sequential call", get(&["perCallOverheadSeqMs"]), best(reference, &["perCallOverheadSeqMs"]), "ms"),
        ("100 calls via Promise.all p50", get(&["par100", "p50"]), best(reference, &["par100", "p50"]), "ms"),
        ("yield + wait p50", get(&["yieldTotal", "p50"]), best(reference, &["yieldTotal", "p50"]), "ms"),
        (
            "RSS per parked cell",
            parked_32,
            best(reference, &["parked", "rssPerParkedCellMiB"]).map(|m| m * 1024.0),
            "KiB",
        ),
        ("first exec", get(&["coldFirstExecMs", "p50"]), best(reference, &["coldFirstExecMs"]), "ms"),
    ];
    println!("\nside by side (reference: its faster executor per row)");
    println!("{:<32} {:>14} {:>14} {:>12}", "scenario", "reference", "codemode", "ratio");
    for (name, ours, theirs, unit) in rows {
        let cell = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |v| format!("{v:.4} {unit}"));
        let ratio = match (theirs, ours) {
            (Some(t), Some(o)) if o > 0.0 => format!("{:.1}x", t / o),
            _ => "—".to_owned(),
        };
        println!("{name:<32} {:>14} {:>14} {:>12}", cell(theirs), cell(ours), ratio);
    }
    println!(
        "(first exec: codemode from process start; the reference from its first exec in a warm process. \
         Reference noise p50 {:.2} ms before, {:.2} ms after.)",
        reference["noiseBefore"]["p50"].as_f64().unwrap_or(f64::NAN),
        reference["noiseAfter"]["p50"].as_f64().unwrap_or(f64::NAN)
    );
}
