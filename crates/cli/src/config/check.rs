//! `codemode config check`: validates the configuration, prints the
//! effective settings, and starts each MCP server once to say which cannot
//! be reached and why — valid is not the same as working.

use std::path::Path;

use anyhow::{Result, bail};

use super::{BackendKind, Config};

/// Prints the effective configuration loaded from `file` (`None`: the
/// defaults), where the store is (`store_flag`: `--store`), and each MCP
/// server's probe.
///
/// # Errors
/// Some configured MCP server cannot be connected.
pub(crate) async fn run(config: &Config, file: Option<&Path>, store_flag: Option<&Path>) -> Result<()> {
    match file {
        Some(f) => println!("# {} is valid; effective configuration:", f.display()),
        None => println!("# no codemode.toml found; effective configuration (defaults):"),
    }
    print!("{}", config.to_toml());
    let backend = match (&config.store.backend, store_flag) {
        (BackendKind::Sled, Some(path)) => format!("sled at {} (--store)", path.display()),
        _ => config.store.describe(),
    };
    println!("# store backend: {backend}");
    if config.policy.is_empty() {
        println!("# policy: no [[policy]] rules; every nested call is allowed");
    } else {
        println!("# policy: {} rules, the first match decides (no match: allow):", config.policy.len());
        for (i, rule) in config.policy.iter().enumerate() {
            println!("#   {}. {}", i + 1, rule.describe());
        }
    }
    let mut failed = 0;
    for server in &config.mcp_servers {
        match codemode_mcp::probe(&server.to_config()).await {
            Ok(found) => println!(
                "# mcp server `{}`: connected to {} ({} tools, {} ms)",
                server.name,
                found.server_info,
                found.tool_count,
                found.elapsed.as_millis()
            ),
            Err(e) => {
                failed += 1;
                println!("# mcp server `{}`: cannot connect: {e}", server.name);
            }
        }
    }
    if failed > 0 {
        bail!("{failed} of {} MCP servers cannot be connected", config.mcp_servers.len());
    }
    Ok(())
}
