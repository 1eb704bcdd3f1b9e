//! JavaScript identifiers for MCP servers and tools (reference notes §7.1).
//!
//! A name is split on runs of characters other than ASCII letters and
//! digits and camel-cased (`list_invoices` → `listInvoices`); leading
//! characters that cannot start an identifier are dropped. A name that
//! collides with one already used, a keyword, `enum`, a reserved guest
//! global or `__proto__`/`constructor`/`prototype` gets `2`, `3`, … appended.

use std::collections::HashSet;

use codemode_catalog::naming::{RESERVED_GLOBALS, RESERVED_WORDS};

const PROTO_NAMES: &[&str] = &["__proto__", "constructor", "prototype"];

/// `raw` as a camel-cased identifier, or `fallback` when nothing is left.
#[must_use]
pub fn to_identifier(raw: &str, fallback: &str) -> String {
    let words: Vec<&str> = raw.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let mut out = String::new();
    for (i, w) in words.iter().enumerate() {
        let mut chars = w.chars();
        let Some(first) = chars.next() else { continue };
        if i == 0 {
            out.push(first.to_ascii_lowercase());
        } else {
            out.push(first.to_ascii_uppercase());
        }
        out.push_str(chars.as_str());
    }
    let trimmed = out.trim_start_matches(|c: char| c.is_ascii_digit());
    if trimmed.is_empty() { fallback.to_owned() } else { trimmed.to_owned() }
}

fn blocked(name: &str, extra: &[&str]) -> bool {
    RESERVED_WORDS.contains(&name) || PROTO_NAMES.contains(&name) || extra.contains(&name)
}

/// A unique identifier: `base`, else `base2`, `base3`, …
#[must_use]
pub fn unique(base: &str, used: &mut HashSet<String>, extra_reserved: &[&str]) -> String {
    let mut candidate = base.to_owned();
    let mut n = 2;
    while used.contains(&candidate) || blocked(&candidate, extra_reserved) {
        candidate = format!("{base}{n}");
        n += 1;
    }
    used.insert(candidate.clone());
    candidate
}

/// The members of a server namespace that are not tools.
pub const SERVER_MEMBERS: &[&str] = &["$api", "$serverName", "resources", "prompts"];

/// Whether `name` cannot be an extra (alias) member of a server namespace:
/// a namespace member, a prototype name, or `then` (which would make the
/// namespace a thenable that `await` calls).
#[must_use]
pub fn reserved_member(name: &str) -> bool {
    SERVER_MEMBERS.contains(&name) || PROTO_NAMES.contains(&name) || name == "then"
}

/// The longest name, in bytes, [`suggestion`] compares: a name past it
/// (no tool name is that long) is matched with nothing, so a query costs
/// at most this much per method, whoever chose its strings.
pub const MAX_SUGGESTION_NAME_BYTES: usize = 256;

/// The method a guest most likely meant by `wanted`, among `methods`: the
/// closest by edit distance over lower-cased letters and digits, when it
/// is close (at most 2 edits, or 1 for names of 4 characters or fewer).
///
/// Its cost is linear in its input whatever the strings (an engine
/// worker may send any): a name longer than
/// [`MAX_SUGGESTION_NAME_BYTES`] is skipped unread, and only the band of
/// the edit-distance table within the limit is computed.
#[must_use]
pub fn suggestion<'a>(wanted: &str, methods: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if wanted.len() > MAX_SUGGESTION_NAME_BYTES {
        return None;
    }
    let key = |s: &str| s.bytes().filter(u8::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect::<Vec<_>>();
    let wanted = key(wanted);
    let limit = if wanted.len() <= 4 { 1 } else { 2 };
    methods
        .into_iter()
        .filter(|m| m.len() <= MAX_SUGGESTION_NAME_BYTES)
        .filter_map(|m| distance_within(&wanted, &key(m), limit).map(|d| (d, m)))
        .min_by_key(|(d, _)| *d)
        .map(|(_, m)| m)
}

/// The edit distance between `a` and `b` when it is at most `limit`.
/// Only the table's diagonal band `|i - j| <= limit` is computed, so the
/// cost is O(len × limit); strsim (already in the build) computes the
/// whole table, which a long pair of names would make quadratic.
fn distance_within(a: &[u8], b: &[u8], limit: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let far = limit + 1;
    let mut prev: Vec<usize> = (0..=b.len()).map(|j| if j <= limit { j } else { far }).collect();
    let mut cur = vec![far; b.len() + 1];
    for i in 1..=a.len() {
        let lo = i.saturating_sub(limit).max(1);
        let hi = (i + limit).min(b.len());
        cur[lo - 1] = if lo == 1 && i <= limit { i } else { far };
        for j in lo..=hi {
            let replace = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            cur[j] = replace.min(prev[j] + 1).min(cur[j - 1] + 1).min(far);
        }
        if hi < b.len() {
            cur[hi + 1] = far;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    (prev[b.len()] <= limit).then_some(prev[b.len()])
}

/// Server identifiers must also avoid the guest globals.
#[must_use]
pub fn server_reserved() -> Vec<&'static str> {
    RESERVED_GLOBALS.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_allow_one_edit_for_short_names_and_two_for_longer_ones_and_skip_far_lengths() {
        let methods = ["getCurrentTime", "convertTime", "echo"];
        assert_eq!(suggestion("getCurentTime", methods), Some("getCurrentTime"));
        assert_eq!(suggestion("get_current_time", methods), Some("getCurrentTime"), "case and separators do not count");
        assert_eq!(suggestion("ecko", methods), Some("echo"));
        assert_eq!(suggestion("ekko", methods), None, "two edits are too many for a short name");
        // A guest can read any member name: one far longer than every
        // method is no suggestion, without comparing it letter by letter.
        assert_eq!(suggestion(&"x".repeat(1 << 20), methods), None);
        // Past the bound, a name is no match even against an equal one.
        let long = "y".repeat(MAX_SUGGESTION_NAME_BYTES + 1);
        assert_eq!(suggestion(&long, [long.as_str()]), None);
        let at = "y".repeat(MAX_SUGGESTION_NAME_BYTES);
        assert_eq!(suggestion(&at, [at.as_str()]), Some(at.as_str()));
    }

    /// The whole table, to check the band against.
    fn full_distance(a: &[u8], b: &[u8]) -> usize {
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.iter().enumerate() {
            let mut cur = vec![i + 1; b.len() + 1];
            for (j, cb) in b.iter().enumerate() {
                cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
            }
            prev = cur;
        }
        prev[b.len()]
    }

    #[test]
    fn the_banded_distance_agrees_with_the_whole_table_within_the_limit() {
        // Every pair of words of up to 5 letters over {a, b, c}.
        let mut words = vec![Vec::new()];
        for len in 1..=5 {
            let mut next = Vec::new();
            for w in words.iter().filter(|w| w.len() == len - 1) {
                for c in [b'a', b'b', b'c'] {
                    let mut w = w.clone();
                    w.push(c);
                    next.push(w);
                }
            }
            words.extend(next);
        }
        for a in &words {
            for b in &words {
                let full = full_distance(a, b);
                for limit in [1, 2] {
                    assert_eq!(distance_within(a, b, limit), (full <= limit).then_some(full), "{a:?} {b:?} {limit}");
                }
            }
        }
    }

    #[test]
    fn names_are_camel_cased_identifiers() {
        assert_eq!(to_identifier("list_invoices", "tool"), "listInvoices");
        assert_eq!(to_identifier("listInvoices", "tool"), "listInvoices");
        assert_eq!(to_identifier("my-server.v2", "server"), "myServerV2");
        assert_eq!(to_identifier("9lives", "tool"), "lives");
        assert_eq!(to_identifier("---", "tool"), "tool");
    }

    #[test]
    fn collisions_and_reserved_names_get_numbers() {
        let mut used = HashSet::new();
        assert_eq!(unique("listInvoices", &mut used, &[]), "listInvoices");
        assert_eq!(unique("listInvoices", &mut used, &[]), "listInvoices2");
        assert_eq!(unique("constructor", &mut used, &[]), "constructor2");
        assert_eq!(unique("delete", &mut used, &[]), "delete2");
        assert_eq!(unique("enum", &mut used, &[]), "enum2");
        assert_eq!(unique("$api", &mut used, &["$api"]), "$api2");
    }

    #[test]
    fn a_close_misspelling_suggests_the_method_and_a_distant_name_suggests_none() {
        let methods = ["getCurrentTime", "convertTime"];
        assert_eq!(suggestion("getCurentTime", methods), Some("getCurrentTime"));
        assert_eq!(suggestion("GET_CURRENT_TIME", methods), Some("getCurrentTime"));
        assert_eq!(suggestion("convert_times", methods), Some("convertTime"));
        assert_eq!(suggestion("dynamicTool", methods), None);
        assert_eq!(suggestion("ab", ["abcd"]), None);
    }
}
