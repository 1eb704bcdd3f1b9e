//! Callable-name normalisation: the JavaScript name each tool is called by.
//!
//! Rules (reference notes §2.2): a tool is called by its identifier-safe
//! base name (`llm-task` → `llm_task`) when that is not reserved and still
//! free; otherwise by the base plus `_` and the first 8 hex digits of the
//! SHA-256 of its catalog id (2 more digits at a time while taken). Tools
//! whose exact name is already safe are assigned first — so `llm_task` keeps
//! its name and `llm-task` gets the suffix — then by base name, then by id:
//! the same catalog always yields the same names.

use std::cmp::Ordering;
use std::collections::HashSet;

use sha2::{Digest, Sha256};

use crate::collate::locale_cmp;

/// Guest globals of the contract, host-reserved names and the standard
/// JavaScript globals: a tool named like one of these always gets a suffix.
pub const RESERVED_GLOBALS: &[&str] = &[
    "ALL_TOOLS",
    "API",
    "MCP",
    "agents",
    "catalog",
    "clearTimeout",
    "globalThis",
    "json",
    "load",
    "log",
    "namespaces",
    "nodes",
    "phase",
    "results",
    "setTimeout",
    "skills",
    "store",
    "text",
    "tools",
    "yield_control",
    "AggregateError",
    "Array",
    "ArrayBuffer",
    "Atomics",
    "BigInt",
    "BigInt64Array",
    "BigUint64Array",
    "Boolean",
    "DataView",
    "Date",
    "DOMException",
    "Error",
    "EvalError",
    "FinalizationRegistry",
    "Float32Array",
    "Float64Array",
    "Function",
    "Infinity",
    "Int16Array",
    "Int32Array",
    "Int8Array",
    "Intl",
    "Iterator",
    "JSON",
    "Map",
    "Math",
    "NaN",
    "Number",
    "Object",
    "Promise",
    "Proxy",
    "RangeError",
    "ReferenceError",
    "Reflect",
    "RegExp",
    "Set",
    "SharedArrayBuffer",
    "String",
    "Symbol",
    "SyntaxError",
    "TextDecoder",
    "TextEncoder",
    "TypeError",
    "URIError",
    "Uint16Array",
    "Uint32Array",
    "Uint8Array",
    "Uint8ClampedArray",
    "WeakMap",
    "WeakRef",
    "WeakSet",
    "atob",
    "btoa",
    "console",
    "decodeURI",
    "decodeURIComponent",
    "encodeURI",
    "encodeURIComponent",
    "escape",
    "eval",
    "isFinite",
    "isNaN",
    "parseFloat",
    "parseInt",
    "performance",
    "queueMicrotask",
    "undefined",
    "unescape",
];

/// JavaScript keywords and reserved words.
pub const RESERVED_WORDS: &[&str] = &[
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "let",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

/// Whether `name` may not be used as a tool global as it is.
#[must_use]
pub fn is_reserved(name: &str) -> bool {
    RESERVED_GLOBALS.contains(&name) || RESERVED_WORDS.contains(&name)
}

/// The identifier-safe base of a tool name: `llm-task` → `llm_task`,
/// `9patch` → `tool_9patch`.
#[must_use]
pub fn base_name(name: &str) -> String {
    let safe: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '$' { c } else { '_' }).collect();
    let starts_ok = safe.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$');
    if !starts_ok || safe.starts_with("__openclaw") { format!("tool_{safe}") } else { safe }
}

fn hash_hex(id: &str) -> String {
    Sha256::digest(id.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// The callable name of each `(catalog id, tool name)`, in input order.
#[must_use]
pub fn callable_names(entries: &[(&str, &str)]) -> Vec<String> {
    struct Candidate {
        index: usize,
        base: String,
        exact: bool,
    }
    let mut candidates: Vec<Candidate> = entries
        .iter()
        .enumerate()
        .map(|(index, (_, name))| {
            let base = base_name(name);
            let exact = base == *name && !is_reserved(name);
            Candidate { index, base, exact }
        })
        .collect();
    candidates.sort_by(|a, b| {
        b.exact
            .cmp(&a.exact)
            .then_with(|| locale_cmp(&a.base, &b.base))
            .then_with(|| locale_cmp(entries[a.index].0, entries[b.index].0))
            .then(Ordering::Equal)
    });
    let mut used: HashSet<String> = HashSet::new();
    let mut names = vec![String::new(); entries.len()];
    for c in candidates {
        let name = if !is_reserved(&c.base) && !used.contains(&c.base) {
            c.base
        } else {
            let hash = hash_hex(entries[c.index].0);
            let mut len = 8;
            loop {
                let candidate = format!("{}_{}", c.base, &hash[..len.min(hash.len())]);
                if !used.contains(&candidate) && !is_reserved(&candidate) || len >= hash.len() {
                    break candidate;
                }
                len += 2;
            }
        };
        used.insert(name.clone());
        names[c.index] = name;
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suffixed(name: &str, base: &str) -> bool {
        let Some(rest) = name.strip_prefix(&format!("{base}_")) else { return false };
        rest.len() == 8 && rest.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
    }

    #[test]
    fn base_names_are_identifier_safe() {
        assert_eq!(base_name("llm-task"), "llm_task");
        assert_eq!(base_name("9patch"), "tool_9patch");
        assert_eq!(base_name("__openclawResult"), "tool___openclawResult");
        assert_eq!(base_name("a.b c"), "a_b_c");
    }

    #[test]
    fn reserved_names_get_a_stable_hash_suffix() {
        let names = callable_names(&[
            ("openclaw:catalog", "catalog"),
            ("openclaw:class", "class"),
            ("openclaw:MCP", "MCP"),
            ("openclaw:te", "TextEncoder"),
        ]);
        assert!(suffixed(&names[0], "catalog"), "{}", names[0]);
        assert!(suffixed(&names[1], "class"));
        assert!(suffixed(&names[2], "MCP"));
        assert!(suffixed(&names[3], "TextEncoder"));
        let again = callable_names(&[
            ("openclaw:catalog", "catalog"),
            ("openclaw:class", "class"),
            ("openclaw:MCP", "MCP"),
            ("openclaw:te", "TextEncoder"),
        ]);
        assert_eq!(names, again, "the same catalog yields the same names");
    }

    #[test]
    fn an_exact_safe_name_wins_over_a_normalised_one() {
        let names = callable_names(&[("openclaw:llm-task", "llm-task"), ("openclaw:llm_task", "llm_task")]);
        assert_eq!(names[1], "llm_task");
        assert!(suffixed(&names[0], "llm_task"));
        assert_eq!(callable_names(&[("openclaw:llm-task", "llm-task")]), vec!["llm_task"]);
        let names = callable_names(&[("a", "__openclawResult"), ("b", "tool___openclawResult")]);
        assert_eq!(names[1], "tool___openclawResult");
        assert!(suffixed(&names[0], "tool___openclawResult"));
    }

    #[test]
    fn names_that_differ_only_by_case_both_stay_exact() {
        assert_eq!(callable_names(&[("a", "Fetch"), ("b", "fetch")]), vec!["Fetch", "fetch"]);
    }
}
