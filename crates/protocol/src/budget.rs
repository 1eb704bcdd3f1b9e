//! JSON budget helpers.
//!
//! JavaScript measures strings in UTF-16 code units (`"🦞".length === 2`);
//! the contract's byte limits are UTF-8 bytes of compact JSON. These helpers
//! measure and cut Rust strings the way the guest would, never splitting a
//! surrogate pair (a cut that would keep only the high half drops it).

/// The number of UTF-16 code units in `s`: JavaScript's `s.length`.
#[must_use]
pub fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// The longest prefix of `s` of at most `max_units` UTF-16 code units that
/// does not split a surrogate pair.
#[must_use]
pub fn utf16_prefix(s: &str, max_units: usize) -> &str {
    let mut units = 0;
    for (i, c) in s.char_indices() {
        units += c.len_utf16();
        if units > max_units {
            return &s[..i];
        }
    }
    s
}

/// `s` cut to `max_units` UTF-16 code units; when it was cut, `suffix` is
/// appended (the suffix is not counted in `max_units`).
#[must_use]
pub fn truncate_utf16(s: &str, max_units: usize, suffix: &str) -> String {
    let prefix = utf16_prefix(s, max_units);
    if prefix.len() == s.len() {
        s.to_owned()
    } else {
        let mut out = String::with_capacity(prefix.len() + suffix.len());
        out.push_str(prefix);
        out.push_str(suffix);
        out
    }
}

/// The longest prefix of `s` of at most `max_bytes` UTF-8 bytes that ends on
/// a character boundary.
#[must_use]
pub fn utf8_prefix(s: &str, max_bytes: usize) -> &str {
    if s.len() <= max_bytes {
        return s;
    }
    let mut end = max_bytes;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Bytes `c` takes inside a JSON string literal as `serde_json` writes it.
fn escaped_len(c: char) -> usize {
    match c {
        '"' | '\\' | '\n' | '\r' | '\t' | '\u{08}' | '\u{0c}' => 2,
        c if (c as u32) < 0x20 => 6,
        c => c.len_utf8(),
    }
}

/// UTF-8 bytes of `s` once written as a JSON string literal, quotes included.
#[must_use]
pub fn json_string_len(s: &str) -> usize {
    2 + s.chars().map(escaped_len).sum::<usize>()
}

/// The longest prefix of `s` that, written as a JSON string literal (quotes
/// included), takes at most `max_bytes` bytes. Never splits a character.
#[must_use]
pub fn json_string_prefix(s: &str, max_bytes: usize) -> &str {
    let mut used = 2;
    if max_bytes < used {
        return "";
    }
    for (i, c) in s.char_indices() {
        used += escaped_len(c);
        if used > max_bytes {
            return &s[..i];
        }
    }
    s
}

/// UTF-8 byte length of the compact JSON text of `value`, without building
/// the text.
#[must_use]
pub fn json_bytes<T: serde::Serialize + ?Sized>(value: &T) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    // Plain data (values, strings, output entries) into an infallible sink
    // cannot fail.
    let _ = serde_json::to_writer(&mut counter, value);
    counter.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_length_counts_astral_characters_twice() {
        assert_eq!(utf16_len("a🦞"), 3);
        assert_eq!(utf16_len(""), 0);
        assert_eq!(utf16_len("é"), 1);
    }

    #[test]
    fn utf16_prefix_never_splits_a_surrogate_pair() {
        assert_eq!(utf16_prefix("ab🦞", 3), "ab");
        assert_eq!(utf16_prefix("ab🦞", 4), "ab🦞");
        assert_eq!(utf16_prefix("ab🦞c", 2), "ab");
    }

    #[test]
    fn truncation_appends_the_suffix_only_when_cut() {
        assert_eq!(truncate_utf16("abc", 3, "…"), "abc");
        assert_eq!(truncate_utf16("abcd", 3, "…"), "abc…");
    }

    #[test]
    fn utf8_prefix_ends_on_a_character_boundary() {
        assert_eq!(utf8_prefix("a🦞", 4), "a");
        assert_eq!(utf8_prefix("a🦞", 5), "a🦞");
        assert_eq!(utf8_prefix("abc", 2), "ab");
    }

    #[test]
    fn json_string_lengths_match_serde_json() {
        for s in ["plain", "q\"uote\\", "line\nbreak\u{1}", "é🦞"] {
            assert_eq!(json_string_len(s), serde_json::to_string(s).unwrap().len(), "{s:?}");
        }
    }

    #[test]
    fn json_string_prefixes_fit_their_escaped_budget() {
        let s = "ab\"cd";
        assert_eq!(json_string_prefix(s, 4), "ab");
        assert_eq!(json_string_prefix(s, 5), "ab");
        assert_eq!(json_string_prefix(s, 6), "ab\"");
        assert_eq!(json_string_prefix(s, 1), "");
        assert_eq!(json_string_prefix("🦞x", 5), "");
        assert_eq!(json_string_prefix("🦞x", 6), "🦞");
    }

    #[test]
    fn json_bytes_matches_compact_serialization() {
        let v = serde_json::json!({"a": [1, "é", null]});
        assert_eq!(json_bytes(&v), serde_json::to_string(&v).unwrap().len());
    }

    proptest::proptest! {
        /// Every cut of arbitrary text stays within its budget, is a prefix,
        /// and never splits a character or a surrogate pair.
        #[test]
        fn cuts_of_arbitrary_text_fit_their_budgets(s in "\\PC*|[\\x00-\\x1f\"\\\\é🦞]*", max in 0usize..64) {
            let json = json_string_prefix(&s, max);
            proptest::prop_assert!(s.starts_with(json));
            proptest::prop_assert!(max < 2 || json_string_len(json) <= max);
            proptest::prop_assert_eq!(json_string_len(&s), serde_json::to_string(&s).unwrap().len());
            let units = utf16_prefix(&s, max);
            proptest::prop_assert!(s.starts_with(units) && utf16_len(units) <= max);
            let bytes = utf8_prefix(&s, max);
            proptest::prop_assert!(s.starts_with(bytes) && bytes.len() <= max);
        }

        /// A truncation marker of arbitrary JSON text stays within its
        /// budget and describes the whole original.
        #[test]
        fn markers_of_arbitrary_text_fit_and_describe_the_original(s in "\\PC*", extra in 0usize..10_000, max in 0usize..400) {
            let total = s.len() + extra;
            if let Some(m) = crate::TruncationMarker::fit_partial(&s, total, max, crate::TRUNCATED_GUIDANCE) {
                proptest::prop_assert!(m.json_len() <= max);
                proptest::prop_assert!(s.starts_with(&m.prefix));
                proptest::prop_assert_eq!(m.prefix.len() + m.omitted_bytes, total);
            }
        }
    }
}
