//! `codemode prompt` and `codemode search`: what the model is shown — the
//! exec tool's description with the quick index, and how a catalog search
//! ranks the tools.

use anyhow::Result;
use codemode_runtime::CodeMode;

/// Prints the exec tool's description, or with `json` the exec and wait
/// definitions as JSON.
///
/// # Errors
/// The definitions cannot be serialized.
pub(crate) fn prompt(rt: &CodeMode, json: bool) -> Result<()> {
    let d = rt.exec_tool_description();
    if json {
        println!("{}", serde_json::to_string_pretty(&d)?);
    } else {
        println!("{}", d.exec.description);
    }
    Ok(())
}

/// Prints the `limit` best tools for `query`, with their scores.
///
/// # Errors
/// The search failed.
pub(crate) async fn search(rt: &CodeMode, query: &str, limit: usize) -> Result<()> {
    let hits = rt.search(query, limit).await?;
    if hits.is_empty() {
        println!("no tool matches {query:?}");
    }
    for hit in hits {
        println!("{:>7.3}  {} {}", hit.score, hit.callable_name, hit.input);
    }
    Ok(())
}
