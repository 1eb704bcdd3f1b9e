//! A window's output as MCP progress notifications: when an `exec` or
//! `wait` call carries a progress token, each `text`, `json` and console
//! entry the cell emits while the window runs is sent as a
//! `notifications/progress` for that token, so a person watching a long
//! cell sees it move. The result still carries the output in full; the
//! notifications are a preview, bounded, and say so when a slow client
//! missed some.

use codemode_runtime::{OutputEntry, OutputStream, Streamed};
use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::{Peer, RoleServer};
use tokio::task::JoinHandle;

/// Messages a slow client may fall behind by before entries are skipped.
const BUFFERED: usize = 64;

/// Longest message of one notification, in bytes: an entry is cut to it
/// (the result has it whole).
const MAX_MESSAGE_BYTES: usize = 4096;

/// How long the response waits for notifications still queued: a progress
/// notification must not follow the response it belongs to.
const DRAIN: std::time::Duration = std::time::Duration::from_secs(1);

/// A stream whose output goes to `peer` as progress for `token`, and the
/// task that sends it, which ends with the stream (when the window ends).
pub(super) fn notify(peer: Peer<RoleServer>, token: ProgressToken) -> (OutputStream, JoinHandle<()>) {
    let (stream, mut rx) = OutputStream::channel(BUFFERED);
    let sender = tokio::spawn(async move {
        let mut progress = 0.0_f64;
        while let Some(streamed) = rx.recv().await {
            let messages = match streamed {
                Streamed::Entries(entries) => entries.iter().map(message).collect(),
                Streamed::Skipped(n) => {
                    vec![format!("[{n} output entries not shown here: the client fell behind; the result has them]")]
                }
            };
            for text in messages {
                progress += 1.0;
                let mut param = ProgressNotificationParam::new(token.clone(), progress);
                param.message = Some(text);
                if peer.notify_progress(param).await.is_err() {
                    // The client is gone: nobody reads the rest.
                    return;
                }
            }
        }
    });
    (stream, sender)
}

/// Before the response goes out: lets the notifier send what is queued
/// (the window has ended, so its stream has), then stops it; what it could
/// not send within [`DRAIN`] is dropped (the result has it all).
pub(super) async fn finish(mut sender: JoinHandle<()>) {
    if tokio::time::timeout(DRAIN, &mut sender).await.is_err() {
        sender.abort();
    }
}

/// One entry as a notification's text: a text entry as written, a JSON
/// entry as compact JSON; cut to [`MAX_MESSAGE_BYTES`].
fn message(entry: &OutputEntry) -> String {
    let text = match entry {
        OutputEntry::Text { text } => text.clone(),
        OutputEntry::Json { value } => value.to_string(),
    };
    if text.len() <= MAX_MESSAGE_BYTES {
        return text;
    }
    let cut = codemode_protocol::budget::utf8_prefix(&text, MAX_MESSAGE_BYTES);
    format!("{cut}… [cut; the result has it whole]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_become_their_text_and_long_ones_are_cut_saying_so() {
        assert_eq!(message(&OutputEntry::text("hello")), "hello");
        assert_eq!(message(&OutputEntry::Json { value: serde_json::json!({"a": [1, 2]}) }), r#"{"a":[1,2]}"#);
        let exactly = "x".repeat(MAX_MESSAGE_BYTES);
        assert_eq!(message(&OutputEntry::text(exactly.clone())), exactly);
        let over = message(&OutputEntry::text("x".repeat(MAX_MESSAGE_BYTES + 1)));
        assert!(over.starts_with(&exactly) && over.ends_with("[cut; the result has it whole]"), "{over}");
    }
}
