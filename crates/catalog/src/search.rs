//! `catalog.search` ranking: Okapi BM25 over tool text (GA-8, reference §3).
//!
//! Documents are a tool's name, id, label, description and — for trusted
//! tools only — its input schema's property names and descriptions. Text is
//! split into words and camelCase/underscore/digit parts, stop words are
//! dropped, and words are stemmed. Trigger words add generic terms at a
//! lower weight ("look up" also finds "search"). Exact name matches come
//! first, then hits that matched a literal query term, then by score, then
//! by id.

use std::collections::{HashMap, HashSet};

use crate::collate::locale_cmp;

const K1: f64 = 1.2;
const B: f64 = 0.75;
const EXPANSION_WEIGHT: f64 = 0.35;
const MAX_WORD_CHARS: usize = 1024;

const STOPWORDS: &[&str] = &[
    "a", "about", "all", "an", "and", "any", "are", "as", "at", "be", "by", "can", "could", "do", "does", "for",
    "from", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "need", "of", "on", "or",
    "our", "please", "should", "so", "some", "that", "the", "their", "them", "then", "there", "these", "this", "those",
    "to", "us", "use", "using", "via", "want", "was", "we", "what", "when", "where", "which", "who", "why", "will",
    "with", "would", "you", "your",
];

const NOT_PLURAL: &[&str] = &[
    "news", "status", "alias", "canvas", "focus", "bonus", "virus", "atlas", "lens", "axis", "basis", "analysis",
    "gas", "bus", "plus",
];

const EXPANSIONS: &[(&[&str], &[&str])] = &[
    (&["look", "lookup", "google", "research"], &["search", "web", "find"]),
    (&["current", "today", "latest", "now", "recent", "news", "price", "weather"], &["search", "web"]),
    (&["url", "link", "page", "article", "site", "website"], &["fetch", "web", "browse"]),
    (
        &["remember", "recall", "memory", "earlier", "previously", "discussed", "decided"],
        &["memory", "recall", "history"],
    ),
    (
        &["remind", "reminder", "later", "tomorrow", "daily", "weekly", "recurring"],
        &["schedule", "automations", "cron", "reminder"],
    ),
    (&["say", "tell", "reply", "respond", "answer"], &["message", "send"]),
    (&["picture", "photo", "meme", "screenshot"], &["image"]),
    (&["speak", "say", "voice"], &["audio", "speech"]),
    (&["run", "execute", "command", "shell", "terminal"], &["exec", "process"]),
    (&["directory", "folder", "path"], &["file", "list"]),
];

fn is_vowel(c: u8) -> bool {
    matches!(c, b'a' | b'e' | b'i' | b'o' | b'u')
}

/// Stems of a lowercase word: usually one, two for `-ies` words.
#[must_use]
pub fn stems(word: &str) -> Vec<String> {
    if word.chars().count() <= 3 || NOT_PLURAL.contains(&word) || !word.is_ascii() {
        return vec![word.to_owned()];
    }
    let mut out = Vec::new();
    if let Some(base) = word.strip_suffix("ies")
        && base.len() >= 2
    {
        out.push(format!("{base}i"));
    }
    let mut w = word.to_owned();
    for _ in 0..3 {
        let mut stripped = false;
        for (suffix, replacement) in
            [("ies", "y"), ("ing", ""), ("ed", ""), ("ly", ""), ("es", ""), ("er", ""), ("s", ""), ("e", "")]
        {
            if !w.ends_with(suffix) || (suffix == "s" && w.ends_with("ss")) {
                continue;
            }
            let mut stem = format!("{}{replacement}", &w[..w.len() - suffix.len()]);
            if stem.len() < 3 {
                continue;
            }
            let b = stem.as_bytes();
            if matches!(suffix, "ing" | "ed" | "er")
                && b.len() >= 4
                && b[b.len() - 1] == b[b.len() - 2]
                && !is_vowel(b[b.len() - 1])
                && !matches!(b[b.len() - 1], b'l' | b's' | b'f' | b'z')
            {
                stem.pop();
            }
            w = stem;
            stripped = true;
            break;
        }
        if !stripped || w.len() <= 3 {
            break;
        }
    }
    out.insert(0, w);
    out.dedup();
    out
}

/// Splits one word into camelCase, underscore and digit parts.
fn parts(word: &str) -> Vec<String> {
    let mut out = Vec::new();
    for piece in word.split('_').filter(|p| !p.is_empty()) {
        let chars: Vec<char> = piece.chars().collect();
        // A plural acronym (`URLs`) stays whole.
        if chars.len() >= 3
            && chars[..chars.len() - 1].iter().all(|c| c.is_uppercase())
            && chars[chars.len() - 1] == 's'
        {
            out.push(piece.to_owned());
            continue;
        }
        let mut current = String::new();
        for (i, &c) in chars.iter().enumerate() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1).copied();
            let boundary = match prev {
                None => false,
                Some(p) => {
                    (p.is_lowercase() && c.is_uppercase())
                        || (p.is_alphabetic() != c.is_alphabetic() && (p.is_numeric() || c.is_numeric()))
                        || (p.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase))
                }
            };
            if boundary && !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            current.push(c);
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out
}

/// The raw lowercase words of `text` with their parts, stop words dropped.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()) {
        let word: String = word.chars().take(MAX_WORD_CHARS).collect();
        let lower = word.to_lowercase();
        if !STOPWORDS.contains(&lower.as_str()) {
            out.push(lower.clone());
        }
        let ps = parts(&word);
        if ps.len() >= 2 {
            for p in ps {
                let p = p.to_lowercase();
                if p != lower && !STOPWORDS.contains(&p.as_str()) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// Search terms of `text`: words and parts, stemmed.
#[must_use]
pub fn tokenize(text: &str) -> Vec<String> {
    words(text).iter().flat_map(|w| stems(w)).collect()
}

/// What a search ranks for one tool.
#[derive(Clone, Debug, Default)]
pub struct SearchDoc {
    /// Stable catalog id (tie-breaker, exact matches).
    pub id: String,
    /// The tool's own name.
    pub name: String,
    /// Everything else to index: label, description, parameter text.
    pub text: String,
}

/// A BM25 index over a fixed set of documents: an inverted index from
/// term to `(document, term frequency)`, so a query touches only the
/// documents that contain its terms.
pub struct SearchIndex {
    postings: HashMap<String, Vec<(u32, u32)>>,
    doc_len: Vec<f64>,
    avg_len: f64,
    ids: Vec<String>,
    /// Lowercased names and ids, for exact matches.
    lower_names: Vec<String>,
    lower_ids: Vec<String>,
}

impl std::fmt::Debug for SearchIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchIndex").field("docs", &self.doc_len.len()).finish_non_exhaustive()
    }
}

/// One ranked match.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    /// Index of the document.
    pub index: usize,
    /// BM25 score (0 for an exact match that is not a BM25 hit).
    pub score: f64,
    /// The query equals the tool's name or id, ignoring case.
    pub exact: bool,
    /// A literal (not expanded) query term matched.
    pub matched_literal: bool,
}

impl SearchIndex {
    /// Indexes `docs`.
    #[must_use]
    pub fn new(docs: &[SearchDoc]) -> Self {
        let mut postings: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        let mut doc_len = Vec::with_capacity(docs.len());
        let mut total = 0.0;
        for (i, d) in docs.iter().enumerate() {
            let terms = tokenize(&format!("{} {} {}", d.name, d.id, d.text));
            let mut tf: HashMap<&str, u32> = HashMap::new();
            for t in &terms {
                *tf.entry(t.as_str()).or_default() += 1;
            }
            for (t, n) in tf {
                postings.entry(t.to_owned()).or_default().push((u32::try_from(i).unwrap_or(u32::MAX), n));
            }
            total += terms.len() as f64;
            doc_len.push(terms.len() as f64);
        }
        let avg_len = if docs.is_empty() { 1.0 } else { (total / docs.len() as f64).max(1.0) };
        Self {
            postings,
            doc_len,
            avg_len,
            ids: docs.iter().map(|d| d.id.clone()).collect(),
            lower_names: docs.iter().map(|d| d.name.to_lowercase()).collect(),
            lower_ids: docs.iter().map(|d| d.id.to_lowercase()).collect(),
        }
    }

    fn query_terms(query: &str) -> Vec<(String, f64)> {
        let mut weights: HashMap<String, f64> = HashMap::new();
        let raw = words(query);
        for w in &raw {
            for s in stems(w) {
                weights.insert(s, 1.0);
            }
        }
        let raw_set: HashSet<&str> = raw.iter().map(String::as_str).collect();
        for (triggers, extra) in EXPANSIONS {
            if triggers.iter().any(|t| raw_set.contains(t)) {
                for e in *extra {
                    for s in stems(e) {
                        weights.entry(s).or_insert(EXPANSION_WEIGHT);
                    }
                }
            }
        }
        let mut terms: Vec<(String, f64)> = weights.into_iter().collect();
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        terms
    }

    /// Ranks the documents for `query`, best first, at most `limit`.
    #[must_use]
    pub fn search(&self, query: &str, limit: usize) -> Vec<Hit> {
        let needle = query.trim().to_lowercase();
        if needle.is_empty() || limit == 0 {
            return Vec::new();
        }
        let exact: Vec<usize> =
            (0..self.doc_len.len()).filter(|&i| self.lower_names[i] == needle || self.lower_ids[i] == needle).collect();
        if limit == 1 && exact.len() == 1 {
            return vec![Hit { index: exact[0], score: 0.0, exact: true, matched_literal: true }];
        }
        let n = self.doc_len.len() as f64;
        let mut scores: HashMap<usize, (f64, bool)> = HashMap::new();
        for (term, weight) in Self::query_terms(query) {
            let Some(posting) = self.postings.get(&term) else { continue };
            let df = posting.len() as f64;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for &(doc, tf) in posting {
                let doc = doc as usize;
                let tf = f64::from(tf);
                let s = weight * idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * self.doc_len[doc] / self.avg_len));
                let entry = scores.entry(doc).or_insert((0.0, false));
                entry.0 += s;
                entry.1 |= weight >= 1.0;
            }
        }
        for &i in &exact {
            scores.entry(i).or_insert((0.0, false));
        }
        let mut hits: Vec<Hit> = scores
            .into_iter()
            .filter(|(i, (score, _))| *score > 0.0 || exact.contains(i))
            .map(|(index, (score, matched_literal))| Hit {
                index,
                score,
                exact: exact.contains(&index),
                matched_literal,
            })
            .collect();
        let order = |a: &Hit, b: &Hit| {
            let a_exact_only = a.exact && a.score == 0.0;
            let b_exact_only = b.exact && b.score == 0.0;
            b_exact_only
                .cmp(&a_exact_only)
                .then(b.exact.cmp(&a.exact))
                .then(b.matched_literal.cmp(&a.matched_literal))
                .then(b.score.total_cmp(&a.score))
                .then_with(|| locale_cmp(&self.ids[a.index], &self.ids[b.index]))
        };
        // Only the best `limit` need a full sort.
        if hits.len() > limit {
            hits.select_nth_unstable_by(limit - 1, order);
            hits.truncate(limit);
        }
        hits.sort_by(order);
        hits
    }
}

/// Property names and descriptions of an input schema, depth ≤ 4, for the
/// search document of a trusted tool.
#[must_use]
pub fn parameter_text(schema: &serde_json::Value) -> String {
    fn walk(schema: &serde_json::Value, depth: usize, out: &mut String) {
        if depth > 4 {
            return;
        }
        let Some(map) = schema.as_object() else { return };
        if let Some(props) = map.get("properties").and_then(|p| p.as_object()) {
            for (name, sub) in props {
                out.push_str(name);
                out.push(' ');
                if let Some(d) = sub.get("description").and_then(|d| d.as_str()) {
                    out.push_str(d);
                    out.push(' ');
                }
                walk(sub, depth + 1, out);
            }
        }
        if let Some(items) = map.get("items") {
            walk(items, depth + 1, out);
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            for sub in map.get(key).and_then(|v| v.as_array()).into_iter().flatten() {
                walk(sub, depth + 1, out);
            }
        }
    }
    let mut out = String::new();
    walk(schema, 0, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stemming_follows_the_reference_rules() {
        assert_eq!(stems("running"), vec!["run"]);
        assert_eq!(stems("invoices"), stems("invoice"));
        assert_eq!(stems("files"), stems("file"));
        assert_eq!(stems("users"), vec!["user"]);
        assert_eq!(stems("status"), vec!["status"]);
        assert_eq!(stems("class"), vec!["class"]);
        assert_eq!(stems("get"), vec!["get"]);
        assert_eq!(stems("entries")[0], "entry");
        assert!(stems("entries").contains(&"entri".to_owned()));
        assert_eq!(stems("calling"), vec!["call"]);
    }

    #[test]
    fn tokens_include_camel_case_parts_and_drop_stop_words() {
        assert_eq!(tokenize("listInvoices"), vec!["listinvoic", "list", "invoic"]);
        assert_eq!(tokenize("the URLs to fetch"), vec!["url", "fetch"]);
        assert_eq!(tokenize("web_search2"), vec!["web_search2", "web", "search", "2"]);
    }

    fn index() -> SearchIndex {
        let docs = [
            ("openclaw:web_search", "web_search", "Search the web for current pages."),
            ("openclaw:read", "read", "Read a file from the workspace."),
            ("openclaw:list_invoices", "list_invoices", "List overdue invoices for a customer."),
            ("openclaw:do", "do", "A tool named with a stop word."),
        ];
        SearchIndex::new(&docs.map(|(id, name, text)| SearchDoc {
            id: id.into(),
            name: name.into(),
            text: text.into(),
        }))
    }

    #[test]
    fn bm25_ranks_literal_matches_and_expansions() {
        let idx = index();
        let hits = idx.search("overdue invoices", 8);
        assert_eq!(hits[0].index, 2);
        // "look up" expands to search/web/find at a lower weight.
        let hits = idx.search("look up today's weather", 8);
        assert_eq!(hits[0].index, 0);
        assert!(!hits[0].matched_literal);
        assert!(idx.search("zebra", 8).is_empty());
        assert!(idx.search("  ", 8).is_empty());
    }

    #[test]
    fn an_exact_name_comes_first_even_when_it_is_a_stop_word() {
        let idx = index();
        let hits = idx.search("do", 8);
        assert_eq!(hits[0].index, 3);
        assert!(hits[0].exact);
        assert_eq!(idx.search("READ", 1), vec![Hit { index: 1, score: 0.0, exact: true, matched_literal: true }]);
    }
}
