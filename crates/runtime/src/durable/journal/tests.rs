//! The journal's encoding: round trips, appends, older formats, and damage
//! refused (never a panic, never a wrong replay).

use proptest::prelude::*;
use serde_json::json;

use super::WriteBuffer;
use super::codec::MAX_STORED_BYTES;
use super::*;
use crate::engine::clock::ClockLog;
use crate::engine::determinism::EnvKey;
use crate::engine::settlement::{Answer, ErrorName, Fault, Settlement};
use codemode_store::StoredValue;
use serde_json::Value;

fn header() -> Header {
    Header {
        format: FORMAT,
        wrapped: "(async function () {\nreturn 1\n})".into(),
        title: None,
        session: "s".into(),
        reply: "r".into(),
        principal: None,
        restart_safe: false,
        unattended: false,
        seed: 7,
        tools: ToolRefs(vec![ToolRef("alpha".into(), "openclaw:alpha".into())].into()),
        prelude: 1,
    }
}

fn buffer(entries: &[(&str, Option<&str>)]) -> WriteBuffer {
    entries
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.map(|json| StoredValue { json: json.to_owned(), network: false })))
        .collect()
}

/// A journal written in two parks: the second appends.
fn two_parks() -> (Vec<u8>, Recorder) {
    let mut rec = Recorder::default();
    rec.request(1, 11);
    rec.request(2, 22);
    rec.step(&[
        Settlement::value(1, json!({"ok": [1, 2]})),
        Settlement::fault(2, Fault::new(ErrorName::TypeError, "bad \"x\"", "input_contract")),
    ]);
    rec.wrote("k");
    let first: ClockLog = [(0u8, 1.5e12)].into_iter().collect();
    let clock: ClockLog = [(0u8, 1.5e12), (1, 0.25)].into_iter().collect();
    let env = [(EnvKey::Meta(0), "{\"callableName\":\"alpha\"}".to_owned())];
    let writes = buffer(&[("k", Some("1"))]);
    let snapshot = Snapshot { delivered_steps: 1, output_used: 10, ..Snapshot::default() };
    let mut bytes = rec
        .segments(
            &header(),
            &Reads {
                clock: &first,
                env: &env,
                writes: &writes,
                approvals: &ApprovalLog::default(),
                tasks: &TaskLog::default(),
            },
            &snapshot,
        )
        .bytes;
    rec.request(3, 33);
    rec.step(&[Settlement { id: 3, answer: Answer::Text("{\"found\":true}".into()) }]);
    rec.wrote("gone");
    let writes = buffer(&[("k", Some("1")), ("gone", None)]);
    let snapshot = Snapshot { delivered_steps: 2, output_used: 20, ..Snapshot::default() };
    let second = rec.segments(
        &header(),
        &Reads {
            clock: &clock,
            env: &env,
            writes: &writes,
            approvals: &ApprovalLog::default(),
            tasks: &TaskLog::default(),
        },
        &snapshot,
    );
    assert!(!second.replace);
    bytes.extend(second.bytes);
    (bytes, rec)
}

#[test]
fn a_journal_of_appended_writes_reads_back_whole() {
    let (bytes, _) = two_parks();
    let j = Journal::decode(&bytes).unwrap();
    assert_eq!((j.format, j.header.clone()), (2, header()));
    assert_eq!(j.requests, vec![11, 22, 33]);
    assert_eq!(j.clock.values(), vec![(0, 1.5e12), (1, 0.25)]);
    assert_eq!(j.env, vec![(EnvKey::Meta(0), "{\"callableName\":\"alpha\"}".to_owned())]);
    assert_eq!(j.snapshot.delivered_steps, 2, "the last snapshot wins");
    assert_eq!(j.snapshot.writes, vec![("gone".to_owned(), None), ("k".to_owned(), Some(("1".to_owned(), false)))]);
    assert_eq!(j.steps.len(), 2);
    assert!(matches!(&j.steps[0][0].answer, Answer::Value(v) if *v == json!({"ok": [1, 2]})));
    assert!(
        matches!(&j.steps[0][1].answer, Answer::Fault(f) if f.message == "bad \"x\"" && f.code == "input_contract")
    );
    assert!(matches!(&j.steps[1][0].answer, Answer::Text(t) if t == "{\"found\":true}"));
    assert_eq!(j.stored_bytes, bytes.len());
}

#[test]
fn a_write_appends_only_what_happened_since_the_last_one() {
    let mut rec = Recorder::default();
    let writes = WriteBuffer::new();
    let (clock, env) = (&ClockLog::default(), Vec::<(EnvKey, String)>::new());
    let first = rec
        .segments(
            &header(),
            &Reads {
                clock,
                env: &env,
                writes: &writes,
                approvals: &ApprovalLog::default(),
                tasks: &TaskLog::default(),
            },
            &Snapshot::default(),
        )
        .bytes;
    let mut sizes = Vec::new();
    let mut all = first.clone();
    for id in 1..=50u64 {
        rec.request(id, id);
        rec.step(&[Settlement::value(id, json!({"ok": true, "n": id}))]);
        let seg = rec
            .segments(
                &header(),
                &Reads {
                    clock,
                    env: &env,
                    writes: &writes,
                    approvals: &ApprovalLog::default(),
                    tasks: &TaskLog::default(),
                },
                &Snapshot::default(),
            )
            .bytes;
        sizes.push(seg.len());
        all.extend(seg);
    }
    // Each park's write is the same size whatever came before it.
    assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 8, "{sizes:?}");
    assert!(sizes[49] < first.len() + 200, "{} bytes for one call", sizes[49]);
    assert_eq!(Journal::decode(&all).unwrap().steps.len(), 50);
}

#[test]
fn recording_goes_on_after_a_replay_where_the_journal_ended() {
    let (mut bytes, _) = two_parks();
    let j = Journal::decode(&bytes).unwrap();
    let mut more = Recorder::continuing(&j);
    more.request(4, 44);
    more.step(&[Settlement::value(4, json!(null))]);
    let writes = WriteBuffer::new();
    let clock = j.clock.clone();
    let seg = more.segments(
        &j.header,
        &Reads {
            clock: &clock,
            env: &j.env,
            writes: &writes,
            approvals: &ApprovalLog::default(),
            tasks: &TaskLog::default(),
        },
        &Snapshot::default(),
    );
    bytes.extend(seg.bytes);
    let again = Journal::decode(&bytes).unwrap();
    assert_eq!(again.requests, vec![11, 22, 33, 44]);
    assert_eq!(again.steps.len(), 3);
    // A delta that does not continue its journal is refused.
    let mut stale = Recorder::continuing(&j);
    stale.request(4, 44);
    let dup = stale.segments(
        &j.header,
        &Reads {
            clock: &clock,
            env: &j.env,
            writes: &writes,
            approvals: &ApprovalLog::default(),
            tasks: &TaskLog::default(),
        },
        &Snapshot::default(),
    );
    bytes.extend(dup.bytes);
    assert!(Journal::decode(&bytes).unwrap_err().to_string().contains("does not continue"));
}

/// Format-1 journals, as format-1 builds wrote them (the golden files of
/// `tests/golden/journals/v1`), read back.
#[test]
#[expect(clippy::disallowed_methods, reason = "the test reads the repository's golden journals")]
fn format_1_journals_written_by_earlier_builds_are_read() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden/journals/v1");
    let mut read = 0;
    for file in std::fs::read_dir(&dir).unwrap().flatten() {
        if file.path().extension().is_some_and(|e| e == "journal") {
            let j = Journal::decode(&std::fs::read(file.path()).unwrap()).unwrap();
            assert_eq!((j.format, j.header.format), (1, 1));
            assert!(!j.requests.is_empty() && j.step_count == j.steps.len());
            // Its steps, as format 2 continues them, parse the same.
            let text = [b"[".as_slice(), &j.steps_text, b"]"].concat();
            assert_eq!(serde_json::from_slice::<Value>(&text).unwrap().as_array().unwrap().len(), j.step_count);
            read += 1;
        }
    }
    assert!(read >= 6, "only {read} golden journals");
}

#[test]
fn a_journal_of_a_newer_format_is_refused_as_newer_not_as_damaged() {
    let mut bytes = two_parks().0;
    bytes[3] = b'3';
    let err = Journal::decode(&bytes).unwrap_err();
    assert!(matches!(err, JournalError::Newer(3)), "{err}");
    assert!(err.to_string().contains("newer codemode") && err.to_string().contains("stays parked"), "{err}");
    assert!(matches!(Journal::decode(b"nope"), Err(JournalError::Foreign(_))));
    assert!(matches!(Journal::decode(b""), Err(JournalError::Foreign(_))));
}

#[test]
fn every_truncation_and_every_flipped_byte_of_a_journal_is_refused() {
    let bytes = two_parks().0;
    let whole = Journal::decode(&bytes).unwrap();
    for cut in 0..bytes.len() {
        // A cut exactly at a segment boundary is a shorter, valid journal
        // (what a crash between two appends leaves); anything else fails.
        if let Ok(j) = Journal::decode(&bytes[..cut]) {
            assert!(j.requests.len() < whole.requests.len(), "cut at {cut} read as whole");
        }
    }
    for at in 0..bytes.len() {
        for bit in [0x01u8, 0x80] {
            let mut damaged = bytes.clone();
            damaged[at] ^= bit;
            // The magic's digit may turn into another format's; anything
            // past it is covered by a length or a checksum.
            if at >= 4 {
                assert!(Journal::decode(&damaged).is_err(), "a flip at byte {at} went unnoticed");
            }
        }
    }
}

#[test]
fn an_absurd_length_is_refused_before_anything_is_allocated_for_it() {
    let mut bytes = b"CMJ2".to_vec();
    bytes.push(1);
    bytes.extend(u32::MAX.to_le_bytes());
    bytes.extend(0u32.to_le_bytes());
    assert!(Journal::decode(&bytes).unwrap_err().to_string().contains("truncated"));
    let huge = vec![0u8; MAX_STORED_BYTES + 1];
    assert!(Journal::decode(&huge).unwrap_err().to_string().contains("more than a journal can hold"));
    let mut v1 = b"CMJ1".to_vec();
    v1.extend(u32::MAX.to_le_bytes());
    assert!(matches!(Journal::decode(&v1), Err(JournalError::Damaged(_))));
}

#[test]
fn a_settlement_value_round_trips_and_never_becomes_null() {
    let s = Settlement::fault(9, Fault::new(ErrorName::RangeError, "too big", "range"));
    let v = settlement_value(&s).unwrap();
    assert_ne!(v, Value::Null);
    let back = read_settlement(v).unwrap();
    assert!(matches!(back.answer, Answer::Fault(f) if f.message == "too big"));
    assert!(read_settlement(json!(null)).is_err());
    assert!(read_settlement(json!([1, 9, 2])).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// The decoder, fuzzed: random bytes behind each magic never panic.
    #[test]
    fn random_bytes_never_panic_the_decoder(magic in 0usize..3, body in proptest::collection::vec(any::<u8>(), 0..512)) {
        let mut bytes = [b"CMJ1", b"CMJ2", b"CMJ9"][magic].to_vec();
        bytes.extend(body);
        let _ = Journal::decode(&bytes);
    }

    /// A valid journal with random bytes overwritten: refused or read,
    /// never a panic, and a read journal never holds more than the whole.
    #[test]
    fn a_mutated_journal_is_refused_or_read_consistently(edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8)) {
        let mut bytes = two_parks().0;
        let whole = Journal::decode(&bytes).unwrap().requests.len();
        for (at, b) in edits {
            let at = at % bytes.len();
            bytes[at] = b;
        }
        if let Ok(j) = Journal::decode(&bytes) {
            prop_assert!(j.requests.len() <= whole + 1);
        }
    }
}

fn approval(id: &str) -> ApprovalRecord {
    ApprovalRecord {
        approval: codemode_protocol::PendingApproval {
            id: id.into(),
            source: "native".into(),
            server: None,
            tool: "deploy".into(),
            arguments: "{}".into(),
            arguments_truncated: false,
            reason: "a person decides".into(),
            expires_at_ms: 2,
        },
        request: 1,
        what: "deploy".into(),
        asked_at_ms: 1,
        decision: None,
        task_input: None,
    }
}

#[test]
fn a_runs_approvals_are_journaled_and_the_last_write_wins() {
    let mut rec = Recorder::default();
    let writes = buffer(&[]);
    let asked = ApprovalLog { records: vec![approval("appr_1")], inbox: vec![] };
    let none = ApprovalLog::default();
    let no_tasks = TaskLog::default();
    let no_clock = ClockLog::default();
    let reads = |approvals| Reads { clock: &no_clock, env: &[], writes: &writes, approvals, tasks: &no_tasks };
    let mut bytes = rec.segments(&header(), &reads(&asked), &Snapshot::default()).bytes;
    assert_eq!(Journal::decode(&bytes).unwrap().approvals, asked);
    let flat = serde_json::to_value(&asked.records[0]).unwrap();
    assert_eq!(
        (flat["id"].as_str(), flat["expiresAtMs"].as_u64(), flat["request"].as_u64()),
        (Some("appr_1"), Some(2), Some(1))
    );
    bytes.extend(rec.segments(&header(), &reads(&none), &Snapshot::default()).bytes);
    assert!(Journal::decode(&bytes).unwrap().approvals.is_empty(), "an empty log clears what was written");
    let mut plain = Recorder::default();
    let bytes = plain.segments(&header(), &reads(&none), &Snapshot::default()).bytes;
    assert!(Journal::decode(&bytes).unwrap().approvals.is_empty());
}

#[test]
fn an_approval_journaled_as_openclaw_by_an_earlier_build_reads_as_native_ga_8_4() {
    let mut stored = serde_json::to_value(ApprovalLog { records: vec![approval("appr_1")], inbox: vec![] }).unwrap();
    stored["records"][0]["source"] = json!("openclaw");
    let read: ApprovalLog = serde_json::from_value(stored.clone()).unwrap();
    assert_eq!(read.records[0].approval.source, "native");
    stored["records"][0]["source"] = json!("mcp");
    let read: ApprovalLog = serde_json::from_value(stored).unwrap();
    assert_eq!(read.records[0].approval.source, "mcp", "other sources are read as they are");
}

#[test]
fn a_runs_mcp_tasks_are_journaled_in_their_own_segment_and_the_last_write_wins() {
    let mut rec = Recorder::default();
    let writes = buffer(&[]);
    let approvals = ApprovalLog::default();
    let running = TaskLog {
        records: vec![TaskRecord {
            request: 3,
            server: "lab".into(),
            tool: "research".into(),
            task: codemode_protocol::McpTask {
                form: codemode_protocol::TaskForm::Core,
                task_id: "t-1".into(),
                poll_interval_ms: 1000,
            },
            started_at_ms: 5,
        }],
    };
    let no_clock = ClockLog::default();
    let reads = |tasks| Reads { clock: &no_clock, env: &[], writes: &writes, approvals: &approvals, tasks };
    let mut bytes = rec.segments(&header(), &reads(&running), &Snapshot::default()).bytes;
    let journal = Journal::decode(&bytes).unwrap();
    assert_eq!(journal.tasks, running);
    assert!(journal.approvals.is_empty(), "tasks are not approvals");
    let flat = serde_json::to_value(&running.records[0]).unwrap();
    assert_eq!((flat["taskId"].as_str(), flat["form"].as_str()), (Some("t-1"), Some("core")));
    bytes.extend(rec.segments(&header(), &reads(&TaskLog::default()), &Snapshot::default()).bytes);
    assert!(Journal::decode(&bytes).unwrap().tasks.records.is_empty(), "a settled call's task is gone");
}

#[test]
fn a_busy_wait_of_70000_clock_reads_journals_in_a_few_bytes_and_reads_back_exactly_ga_1_3() {
    let journaled = |clock: &ClockLog| {
        let mut rec = Recorder::default();
        let (writes, no_tasks, approvals) = (WriteBuffer::new(), TaskLog::default(), ApprovalLog::default());
        let reads = Reads { clock, env: &[], writes: &writes, approvals: &approvals, tasks: &no_tasks };
        let bytes = rec.segments(&header(), &reads, &Snapshot::default()).bytes;
        let back = Journal::decode(&bytes).unwrap();
        assert_eq!(back.clock.values(), clock.values(), "every read, the same bits");
        bytes.len()
    };
    // `Date.now()` in a loop: the same millisecond, read again and again.
    let dates: ClockLog = (0..70_000u32).map(|i| (0u8, 1.5e12 + f64::from(i / 10_000))).collect();
    assert!(journaled(&dates) < 1_500, "{} bytes", journaled(&dates));
    // `performance.now()` at a steady rate.
    let perf: ClockLog = (0..70_000u32).map(|i| (1u8, f64::from(i) / 1000.0)).collect();
    assert!(journaled(&perf) < 1_500, "{} bytes", journaled(&perf));
    // Both kinds in turn: no run, a few bytes per read.
    let mixed: ClockLog = (0..70_000u32).flat_map(|i| [(0u8, 1.5e12), (1u8, f64::from(i) / 1000.0)]).collect();
    assert!(journaled(&mixed) < 140_000 * 10, "{} bytes", journaled(&mixed));
}

#[test]
fn clock_reads_journaled_as_values_by_earlier_builds_still_read_back() {
    // A format-2 delta of an earlier build: `clock` as a list of values.
    let head = serde_json::json!({
        "first_request": 1, "requests": [], "first_step": 0, "first_clock": 0,
        "clock": [[0, 1.5e12], [1, 0.123456789]], "first_env": 0, "env": [], "writes": [],
        "snapshot": Snapshot::default()
    });
    let mut bytes = Vec::new();
    codec::write_magic(&mut bytes);
    codec::write_header(&mut bytes, &header());
    let head = serde_json::to_vec(&head).unwrap();
    let mut payload = (head.len() as u32).to_le_bytes().to_vec();
    payload.extend_from_slice(&head);
    payload.extend_from_slice(b"[]");
    bytes.push(2);
    bytes.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    bytes.extend_from_slice(&payload);
    let j = Journal::decode(&bytes).unwrap();
    assert_eq!(j.clock.values(), vec![(0, 1.5e12), (1, 0.123456789)], "a value that is not whole is kept exactly");
}

#[test]
fn a_delta_with_clock_runs_leaves_out_the_field_earlier_builds_need_so_they_refuse_it() {
    let mut rec = Recorder::default();
    let clock: ClockLog = [(0u8, 1.5e12)].into_iter().collect();
    let writes = WriteBuffer::new();
    let no_tasks = TaskLog::default();
    let reads =
        Reads { clock: &clock, env: &[], writes: &writes, approvals: &ApprovalLog::default(), tasks: &no_tasks };
    let with_reads = rec.segments(&header(), &reads, &Snapshot::default()).bytes;
    let text = String::from_utf8_lossy(&with_reads);
    assert!(text.contains("\"clock_runs\"") && !text.contains("\"clock\":"), "{text}");
    // Without new reads the field is written empty: earlier builds read it.
    let empty = rec.segments(&header(), &reads, &Snapshot::default()).bytes;
    assert!(String::from_utf8_lossy(&empty).contains("\"clock\":[]"));
}

#[test]
fn a_memory_only_runs_marker_is_never_a_journal_to_resume_ga_1_3() {
    let marker = codec::unresumable("its journal passed 65536 bytes");
    match Journal::decode(&marker) {
        Err(JournalError::NotResumable(why)) => assert_eq!(why, "its journal passed 65536 bytes"),
        other => panic!("{other:?}"),
    }
    // A marker after a journal's header is damage, not a marker.
    let (mut bytes, _) = two_parks();
    bytes.extend_from_slice(&marker[4..]);
    assert!(matches!(Journal::decode(&bytes), Err(JournalError::Damaged(_))));
}
