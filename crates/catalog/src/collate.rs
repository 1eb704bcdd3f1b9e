//! A close stand-in for JavaScript's `localeCompare` in the root locale.
//!
//! The reference orders names with ICU root collation. This comparison
//! follows its main rules for identifier-like names: punctuation and
//! symbols (`_`, `$`, `-`) sort before digits, digits before letters,
//! letters compare case-insensitively first, and on a tie lowercase sorts
//! before uppercase; exact ties fall back to code points. It is not full
//! ICU (no contractions or accent weights), which catalog names never need.

use std::cmp::Ordering;

fn primary(c: char) -> (u8, u32) {
    if c.is_alphabetic() {
        (2, c.to_lowercase().next().map_or(c as u32, |l| l as u32))
    } else if c.is_numeric() {
        (1, c as u32)
    } else {
        (0, c as u32)
    }
}

/// Orders `a` and `b` like `a.localeCompare(b)` for identifier-like names.
#[must_use]
pub fn locale_cmp(a: &str, b: &str) -> Ordering {
    let primary_order = a.chars().map(primary).cmp(b.chars().map(primary));
    if primary_order != Ordering::Equal {
        return primary_order;
    }
    // Tertiary: lowercase before uppercase at the first difference.
    let case_order = a.chars().map(char::is_uppercase).cmp(b.chars().map(char::is_uppercase));
    case_order.then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn underscore_sorts_before_digits_and_letters_and_case_is_secondary() {
        let mut names = vec!["b", "B", "a_b", "a1", "aB", "ab", "_x", "Zeta", "alpha"];
        names.sort_by(|a, b| locale_cmp(a, b));
        assert_eq!(names, vec!["_x", "a_b", "a1", "ab", "aB", "alpha", "b", "B", "Zeta"]);
    }
}
