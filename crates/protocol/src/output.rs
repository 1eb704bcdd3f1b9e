//! The ordered output channel.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One entry of a cell's ordered output channel.
///
/// `text(v)` and every `console.*` call produce [`OutputEntry::Text`];
/// `json(v)` produces [`OutputEntry::Json`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum OutputEntry {
    /// Plain text.
    Text {
        /// The text, exactly as emitted.
        text: String,
    },
    /// A JSON value, captured when it was emitted.
    Json {
        /// The projected value.
        value: serde_json::Value,
    },
}

impl OutputEntry {
    /// A text entry.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text { text: text.into() }
    }
}

/// Stands in for output (or a final value) that did not fit the cell's
/// cumulative output budget.
///
/// `prefix` is a UTF-8-safe prefix of the original compact JSON and
/// `omitted_bytes` is the original byte length minus the prefix's: both
/// describe the original, never an earlier marker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TruncationMarker {
    /// Always `true`; lets a reader tell a marker from data.
    pub truncated: bool,
    /// UTF-8 bytes of the original JSON that are not in `prefix`.
    pub omitted_bytes: usize,
    /// What the model should do next.
    pub guidance: String,
    /// The leading part of the original compact JSON.
    pub prefix: String,
}

/// Default guidance of a truncation marker.
pub const TRUNCATED_GUIDANCE: &str = "Output truncated; rerun with narrower args or emit less.";

impl TruncationMarker {
    /// A marker for `original` (compact JSON text) whose own compact JSON
    /// takes at most `max_bytes`, keeping as long a prefix as fits. `None`
    /// when not even an empty prefix fits.
    #[must_use]
    pub fn fit(original: &str, max_bytes: usize, guidance: &str) -> Option<Self> {
        Self::fit_partial(original, original.len(), max_bytes, guidance)
    }

    /// Like [`TruncationMarker::fit`] when only the leading part `known` of
    /// an original of `total_len` bytes was kept (output past the budget is
    /// counted, not copied): the prefix comes from `known`, the omitted count
    /// describes the whole original.
    #[must_use]
    pub fn fit_partial(known: &str, total_len: usize, max_bytes: usize, guidance: &str) -> Option<Self> {
        let total_len = total_len.max(known.len());
        let mut marker =
            Self { truncated: true, omitted_bytes: total_len, guidance: guidance.to_owned(), prefix: String::new() };
        // The omitted count shrinks as the prefix grows; sizing the prefix
        // against the full count's digits keeps the estimate conservative.
        let overhead = marker.json_len();
        if overhead > max_bytes {
            return None;
        }
        let prefix = crate::budget::json_string_prefix(known, max_bytes - overhead + 2);
        marker.omitted_bytes = total_len - prefix.len();
        marker.prefix = prefix.to_owned();
        Some(marker)
    }

    /// Bytes of this marker's compact JSON.
    #[must_use]
    pub fn json_len(&self) -> usize {
        serde_json::to_string(self).map_or(0, |s| s.len())
    }
}

/// The output delivered by one `exec` or `wait` call: the entries produced
/// since the previous observation, or a marker when they did not fit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Output {
    /// Entries in emission order.
    Entries(Vec<OutputEntry>),
    /// The entries were too large for the remaining budget.
    Truncated(TruncationMarker),
}

impl Default for Output {
    fn default() -> Self {
        Self::Entries(Vec::new())
    }
}

impl Output {
    /// The entries, when the output was not truncated.
    #[must_use]
    pub fn entries(&self) -> Option<&[OutputEntry]> {
        match self {
            Self::Entries(entries) => Some(entries),
            Self::Truncated(_) => None,
        }
    }

    /// Whether nothing was delivered.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        matches!(self, Self::Entries(e) if e.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fitted_marker_stays_within_its_budget_and_describes_the_original() {
        let original = serde_json::to_string(&vec![OutputEntry::text("x".repeat(1000))]).unwrap();
        for max in [150, 200, 512, 1000] {
            let m = TruncationMarker::fit(&original, max, TRUNCATED_GUIDANCE).unwrap();
            assert!(m.json_len() <= max, "{} > {max}", m.json_len());
            assert!(original.starts_with(&m.prefix));
            assert_eq!(m.prefix.len() + m.omitted_bytes, original.len());
        }
        assert!(TruncationMarker::fit(&original, 20, TRUNCATED_GUIDANCE).is_none());
    }
}
