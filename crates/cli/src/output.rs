//! Human-readable result printing, and a spinner for long waits on a
//! terminal (nothing extra when output is piped).

use std::future::Future;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use codemode_runtime::{CellResult, Output, OutputEntry};

/// Prints `result`: with `json`, the model-facing text — compact JSON, or
/// that JSON wrapped in the untrusted-content envelope when the cell
/// observed network-derived content (GA-9.3), since a model reads it;
/// otherwise a human-readable summary.
pub(crate) fn print_result(result: &CellResult, json: bool) {
    if json {
        println!("{}", result.to_model_text());
        return;
    }
    print_output(result.output());
    match result {
        CellResult::Completed { value, warnings, .. } => {
            for w in warnings {
                println!("warning: {w}");
            }
            println!("completed: {}", serde_json::to_string_pretty(value).unwrap_or_default());
        }
        CellResult::Waiting { run_id, reason, pending_tool_calls, .. } => {
            let pending: Vec<&str> = pending_tool_calls.iter().map(|p| p.id.as_str()).collect();
            println!("waiting ({reason}) run {run_id}; pending: {}", pending.join(", "));
        }
        CellResult::Failed { code, error, phase, .. } => {
            println!("failed [{}] in {phase}: {}", code.as_str(), error.trim_end());
        }
    }
}

fn print_output(output: &Output) {
    match output {
        Output::Entries(entries) => {
            for entry in entries {
                match entry {
                    OutputEntry::Text { text } => println!("{text}"),
                    OutputEntry::Json { value } => println!("{value}"),
                }
            }
        }
        Output::Truncated(marker) => {
            println!("[output truncated: {} bytes omitted] {}", marker.omitted_bytes, marker.guidance);
        }
    }
}

/// Awaits `work`, showing a spinner with the elapsed time and the pending
/// calls on stderr when it is a terminal and `json` is off.
pub(crate) async fn with_spinner<T>(waiting: &CellResult, work: impl Future<Output = T>, json: bool) -> T {
    let show = !json && std::io::stderr().is_terminal();
    if !show {
        return work.await;
    }
    let pending = match waiting {
        CellResult::Waiting { pending_tool_calls, .. } => {
            pending_tool_calls.iter().map(|p| p.id.clone()).collect::<Vec<_>>().join(", ")
        }
        _ => String::new(),
    };
    let start = Instant::now();
    let frames = ['|', '/', '-', '\\'];
    let mut tick = tokio::time::interval(Duration::from_millis(120));
    tokio::pin!(work);
    let mut i = 0;
    loop {
        tokio::select! {
            out = &mut work => {
                eprint!("\r\x1b[2K");
                return out;
            }
            _ = tick.tick() => {
                eprint!("\r{} waiting {:.1}s  {pending}", frames[i % 4], start.elapsed().as_secs_f64());
                let _ = std::io::stderr().flush();
                i += 1;
            }
        }
    }
}

/// Text from a model or client, safe for a terminal: control characters
/// (escape sequences) become `?`.
pub(crate) fn clean(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { '?' } else { c }).collect()
}

/// `text` cut to `max` characters, with `…` when cut.
pub(crate) fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max - 1).collect();
    cut.push('…');
    cut
}

/// `12s`, `5m`, `3h`, `2d`.
pub(crate) fn human_ms(ms: u64) -> String {
    let s = ms / 1000;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m", s / 60),
        3600..86_400 => format!("{}h", s / 3600),
        _ => format!("{}d", s / 86_400),
    }
}

/// `512 B`, `12.0 KiB`, `3.4 MiB`.
pub(crate) fn human_bytes(n: u64) -> String {
    let f = n as f64;
    if n < 1024 {
        format!("{n} B")
    } else if n < 1024 * 1024 {
        format!("{:.1} KiB", f / 1024.0)
    } else {
        format!("{:.1} MiB", f / (1024.0 * 1024.0))
    }
}
