//! Output out: what the guest emitted since the last delivery, kept
//! within the cell's output budget (GA-4.8). The engine fills it; the cell's
//! ledger delivers it.

use codemode_protocol::OutputEntry;

pub(crate) fn entries_json(entries: &[OutputEntry]) -> String {
    serde_json::to_string(entries).unwrap_or_default()
}

/// Bytes of `entry` as compact JSON.
pub(crate) fn entry_json_len(entry: &OutputEntry) -> usize {
    codemode_protocol::budget::json_bytes(entry)
}

/// Output emitted since the last delivery, bounded in memory by the cell's
/// output budget (a cell that calls `text` in a loop must not grow the
/// host past its limits).
///
/// Entries are kept while their compact JSON array fits in `cap` bytes.
/// Past it only the array's leading `cap` bytes of JSON are kept, and later
/// entries are counted, not copied: delivery makes them a truncation marker
/// whose counts describe everything that was emitted.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct PendingOutput {
    entries: Vec<OutputEntry>,
    /// Bytes of the compact JSON array of every entry emitted, kept or not
    /// (0 when nothing was emitted).
    json_len: usize,
    cap: usize,
    /// Past `cap`: the leading bytes (at most `cap`) of the array's JSON.
    spilled: Option<String>,
}

impl PendingOutput {
    /// Nothing emitted yet; at most `cap` bytes of JSON will be kept.
    pub(crate) fn new(cap: usize) -> Self {
        Self { entries: Vec::new(), json_len: 0, cap, spilled: None }
    }

    /// Whether nothing was emitted.
    pub(crate) fn is_empty(&self) -> bool {
        self.json_len == 0
    }

    /// Bytes of the compact JSON array of everything emitted.
    pub(crate) fn json_len(&self) -> usize {
        self.json_len
    }

    /// The entries kept so far (all of them, unless the cap was reached).
    pub(crate) fn kept(&self) -> &[OutputEntry] {
        &self.entries
    }

    /// The entries, when all of them were kept.
    #[cfg(test)]
    pub(crate) fn entries(&self) -> Option<&[OutputEntry]> {
        self.spilled.is_none().then_some(self.entries.as_slice())
    }

    /// Past the cap, the leading JSON text kept.
    #[cfg(test)]
    pub(crate) fn spilled_prefix(&self) -> Option<&str> {
        self.spilled.as_deref()
    }

    /// Records one entry.
    pub(crate) fn push(&mut self, entry: OutputEntry) {
        let len = entry_json_len(&entry);
        let total = if self.json_len == 0 { 2 + len } else { self.json_len + 1 + len };
        match &mut self.spilled {
            None if total <= self.cap => self.entries.push(entry),
            None => {
                let mut text = if self.entries.is_empty() {
                    "[".to_owned()
                } else {
                    let mut kept = entries_json(&self.entries);
                    kept.pop(); // the closing `]`
                    kept.push(',');
                    kept
                };
                append_within(&mut text, &entry, self.cap);
                self.entries = Vec::new();
                self.spilled = Some(text);
            }
            Some(text) if text.len() < self.cap => {
                text.push(',');
                append_within(text, &entry, self.cap);
            }
            Some(_) => {}
        }
        self.json_len = total;
    }

    /// Appends what `later` emitted after this (a remote engine's output
    /// of one step), within this cap: the same as pushing its entries
    /// here, for what it kept, and its leading JSON past its own cap.
    pub(crate) fn absorb(&mut self, later: Self) {
        if later.json_len == 0 {
            return;
        }
        let Some(text) = later.spilled else {
            for entry in later.entries {
                self.push(entry);
            }
            return;
        };
        // `later` spilled: so does this (its cap is no larger). Its text
        // is its array's leading JSON: `[` then its entries, comma-joined.
        let tail = text.strip_prefix('[').unwrap_or(&text);
        let mut joined = match self.spilled.take() {
            Some(mine) => mine,
            None if self.entries.is_empty() => "[".to_owned(),
            None => {
                let mut kept = entries_json(&self.entries);
                kept.pop(); // the closing `]`
                kept
            }
        };
        if joined.len() > 1 && joined.len() < self.cap {
            joined.push(',');
        }
        let room = self.cap.saturating_sub(joined.len());
        joined.push_str(codemode_protocol::budget::utf8_prefix(tail, room));
        self.json_len = if self.json_len == 0 { later.json_len } else { self.json_len + later.json_len - 1 };
        self.entries = Vec::new();
        self.spilled = Some(joined);
    }

    /// Takes what was emitted, leaving this empty with the same cap.
    pub(crate) fn take(&mut self) -> Self {
        std::mem::replace(self, Self::new(self.cap))
    }

    /// The kept entries (when nothing spilled), or the leading JSON text.
    pub(crate) fn into_parts(self) -> Emitted {
        match self.spilled {
            None => Emitted::Entries(self.entries),
            Some(text) => Emitted::Spilled(text),
        }
    }
}

/// What a window emitted, as kept.
pub(crate) enum Emitted {
    /// Every entry.
    Entries(Vec<OutputEntry>),
    /// Past the cap: the leading bytes of the entries' JSON array.
    Spilled(String),
}

/// Appends `entry`'s JSON to `text`, cut so `text` stays within `cap` bytes.
fn append_within(text: &mut String, entry: &OutputEntry, cap: usize) {
    let room = cap.saturating_sub(text.len());
    if room == 0 {
        return;
    }
    let json = serde_json::to_string(entry).unwrap_or_default();
    text.push_str(codemode_protocol::budget::utf8_prefix(&json, room));
}
