//! Glob matching for `find` and `grep`'s `glob`: `*` (within a path
//! segment), `**` (across segments), `?` (one character), plus `globset`'s
//! `[abc]` classes and `{a,b}` alternatives.
//!
//! `globset` compiles a glob to a linear-time regex, so no pattern can
//! overflow the stack or backtrack exponentially; the length bound keeps
//! compiling one cheap.

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use super::args::invalid;
use codemode_catalog::ToolError;

/// Longest glob accepted, in characters.
pub(crate) const MAX_GLOB_CHARS: usize = 1024;

/// A compiled glob.
#[derive(Debug)]
pub(crate) struct Glob {
    // A one-glob set: unlike `Glob::compile_matcher`, building it returns
    // an error rather than panicking when the regex cannot be compiled.
    set: GlobSet,
}

impl Glob {
    /// Compiles `pattern`; `what` names the argument in errors.
    ///
    /// # Errors
    /// `invalid_input` when the pattern is longer than [`MAX_GLOB_CHARS`]
    /// or is not a valid glob.
    pub(crate) fn new(pattern: &str, what: &str) -> Result<Self, ToolError> {
        // Counting stops just past the limit, so a huge pattern costs little.
        if pattern.chars().nth(MAX_GLOB_CHARS).is_some() {
            return Err(invalid(format!(
                "{what} is longer than {MAX_GLOB_CHARS} characters ({} given); use a shorter glob",
                pattern.chars().count()
            )));
        }
        let glob = GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
            .map_err(|e| invalid(format!("{what} is not a valid glob: {e}")))?;
        let set = GlobSetBuilder::new()
            .add(glob)
            .build()
            .map_err(|e| invalid(format!("{what} could not be compiled: {e}")))?;
        Ok(Self { set })
    }

    /// Whether `text` (a `/`-separated path or a name) matches.
    pub(crate) fn is_match(&self, text: &str) -> bool {
        self.set.is_match(text)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn matches(pattern: &str, text: &str) -> bool {
        Glob::new(pattern, "pattern").unwrap().is_match(text)
    }

    #[test]
    fn globs_match_segments_and_recursion() {
        assert!(matches("*.rs", "main.rs"));
        assert!(!matches("*.rs", "src/main.rs"));
        assert!(matches("**/*.rs", "src/a/main.rs"));
        assert!(matches("**/*.rs", "main.rs"));
        assert!(matches("src/**/*.ts", "src/a/b/c.ts"));
        assert!(matches("src/**/*.ts", "src/c.ts"));
        assert!(matches("src/?.txt", "src/a.txt"));
        assert!(!matches("src/?.txt", "src/ab.txt"));
        assert!(!matches("a?b", "a/b"));
    }

    #[test]
    fn a_200000_star_glob_is_refused_with_the_limit_named_not_a_stack_overflow() {
        let e = Glob::new(&"*".repeat(200_000), "pattern").unwrap_err();
        assert_eq!(e.code, "invalid_input");
        assert!(e.message.contains("1024 characters (200000 given)"), "{}", e.message);
    }

    #[test]
    fn a_glob_of_exactly_the_limit_compiles_and_one_more_character_is_refused() {
        // `*` × 1023 then `x`: exponential for a backtracking matcher.
        let at_limit = format!("{}x", "*".repeat(MAX_GLOB_CHARS - 1));
        let g = Glob::new(&at_limit, "pattern").unwrap();
        assert!(g.is_match(&format!("{}x", "ab".repeat(5000))));
        assert!(!g.is_match(&format!("{}y", "ab".repeat(5000))));
        let over = format!("{at_limit}x");
        let e = Glob::new(&over, "glob").unwrap_err();
        assert!(e.message.starts_with("glob is longer than 1024 characters (1025 given)"), "{}", e.message);
        assert!(Glob::new(&format!("{}x", "*".repeat(10_000)), "pattern").is_err());
    }

    #[test]
    fn an_invalid_glob_is_an_error_not_a_match_nothing_fallback() {
        let e = Glob::new("a[b", "pattern").unwrap_err();
        assert_eq!(e.code, "invalid_input");
        assert!(e.message.starts_with("pattern is not a valid glob"), "{}", e.message);
    }

    proptest! {
        #[test]
        fn glob_matching_never_panics_on_arbitrary_patterns_and_paths(
            pattern in "[*?/a-c\\[\\]{},!\\\\.-]{0,40}|\\PC{0,40}",
            path in "[a-c/.*?]{0,40}|\\PC{0,40}",
        ) {
            if let Ok(g) = Glob::new(&pattern, "pattern") {
                let _ = g.is_match(&path);
            }
        }

        #[test]
        fn a_literal_glob_matches_exactly_itself(name in "[a-z0-9_.-]{1,30}") {
            let g = Glob::new(&name, "pattern").unwrap();
            prop_assert!(g.is_match(&name));
            let other = format!("{name}z");
            prop_assert!(!g.is_match(&other));
        }
    }
}
