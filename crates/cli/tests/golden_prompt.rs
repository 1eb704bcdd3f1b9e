//! Golden files for the `exec` and `wait` tool definitions a model is given:
//! each `tests/golden/prompt/<case>.toml` is a configuration, and what
//! `codemode prompt --json` prints with it — the definitions `codemode
//! serve` advertises (`cli.rs` checks that serve lists exactly these) —
//! must equal `<case>.json` beside it; the exec description alone, as
//! `codemode prompt` prints it, must equal `<case>.txt`. Run with
//! `UPDATE_GOLDEN=1` to rewrite the expected files, then review the diff.
//!
//! Cases run in the golden directory, so a configuration names files
//! relative to it (the MCP case's server is the pinned reference memory
//! server that `scripts/test.sh` installs).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/prompt")
}

fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(golden_dir())
        .expect("tests/golden/prompt exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    cases.sort();
    cases
}

/// What `codemode prompt --json` prints with `config`, on a store of its own.
fn definitions(config: &Path) -> Value {
    let name = config.file_stem().unwrap().to_string_lossy().into_owned();
    let store = std::env::temp_dir().join(format!("codemode-golden-prompt-{name}-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .current_dir(golden_dir())
        .arg("--config")
        .arg(config)
        .arg("--store")
        .arg(&store)
        .args(["prompt", "--json"])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&store);
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{name}: not JSON ({e})"))
}

#[test]
fn the_exec_and_wait_definitions_match_their_golden_files() {
    if cases().iter().any(|c| c.ends_with("mcp_servers.toml")) {
        let memory = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/.npm/node_modules/@modelcontextprotocol/server-memory/dist/index.js");
        assert!(memory.exists(), "run ./scripts/test.sh: it installs server-memory");
    }
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut mismatches = Vec::new();
    for config in cases() {
        let d = definitions(&config);
        let json = serde_json::to_string_pretty(&d).unwrap() + "\n";
        let text = format!("{}\n", d["exec"]["description"].as_str().expect("an exec description"));
        for (path, actual) in [(config.with_extension("json"), json), (config.with_extension("txt"), text)] {
            if update {
                std::fs::write(&path, &actual).unwrap();
                continue;
            }
            let expected = std::fs::read_to_string(&path).unwrap_or_default();
            if expected != actual {
                mismatches.push(format!("{}:\n--- expected\n{expected}\n+++ actual\n{actual}", path.display()));
            }
        }
    }
    assert!(mismatches.is_empty(), "golden mismatches (UPDATE_GOLDEN=1 rewrites them):\n{}", mismatches.join("\n"));
}
