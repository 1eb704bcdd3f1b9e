//! Minimal glob matching: `*` (within a path segment), `**` (across
//! segments), `?` (one character).

/// Whether `text` matches `pattern`.
pub(crate) fn matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    matches_at(&p, &t)
}

fn matches_at(p: &[char], t: &[char]) -> bool {
    match p.first() {
        None => t.is_empty(),
        Some('*') if p.get(1) == Some(&'*') => {
            let rest = if p.get(2) == Some(&'/') { &p[3..] } else { &p[2..] };
            (0..=t.len()).any(|i| matches_at(rest, &t[i..]))
        }
        Some('*') => {
            let mut i = 0;
            loop {
                if matches_at(&p[1..], &t[i..]) {
                    return true;
                }
                if i >= t.len() || t[i] == '/' {
                    return false;
                }
                i += 1;
            }
        }
        Some('?') => !t.is_empty() && t[0] != '/' && matches_at(&p[1..], &t[1..]),
        Some(c) => t.first() == Some(c) && matches_at(&p[1..], &t[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_segments_and_recursion() {
        assert!(matches("*.rs", "main.rs"));
        assert!(!matches("*.rs", "src/main.rs"));
        assert!(matches("**/*.rs", "src/a/main.rs"));
        assert!(matches("**/*.rs", "main.rs"));
        assert!(matches("src/?.txt", "src/a.txt"));
        assert!(!matches("src/?.txt", "src/ab.txt"));
    }
}
