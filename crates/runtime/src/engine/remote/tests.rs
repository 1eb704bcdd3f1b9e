//! The engine protocol's data, checked without a worker process (the
//! worker itself is proved with real processes in `tests/isolation.rs`).

use codemode_protocol::OutputEntry;
use proptest::prelude::*;

use std::collections::{HashMap, VecDeque};

use super::client::{MAX_SUGGESTION_BYTES, MAX_SUGGESTION_METHODS, Opened, route, suggestion_too_large};
use super::protocol::FromWorker;

use super::protocol::{MAX_MESSAGE_DEPTH, decode, encode, nesting};
use crate::engine::clock::{ClockLog, ClockRun, DATE, PERFORMANCE};
use crate::engine::determinism::{Determinism, EnvKey, EnvSource, MAX_ENV_READS, ReplayReads, Setup};
use crate::engine::output::PendingOutput;

fn entry(i: usize, len: usize) -> OutputEntry {
    OutputEntry::text(format!("{i}:{}", "x".repeat(len)))
}

/// The same entries pushed into one output, or pushed per step into a
/// worker's output that the host absorbs, keep the same state: entries,
/// JSON length, and (past the cap) the same leading JSON.
fn same_as_pushed(cap: usize, steps: &[Vec<usize>]) {
    let mut direct = PendingOutput::new(cap);
    let mut mirrored = PendingOutput::new(cap);
    let mut i = 0;
    for step in steps {
        let mut worker = PendingOutput::new(cap);
        for &len in step {
            direct.push(entry(i, len));
            worker.push(entry(i, len));
            i += 1;
        }
        mirrored.absorb(worker);
    }
    assert_eq!(mirrored.json_len(), direct.json_len(), "{steps:?}");
    assert_eq!(mirrored.entries(), direct.entries(), "{steps:?}");
    assert_eq!(mirrored.spilled_prefix(), direct.spilled_prefix(), "{steps:?}");
}

#[test]
fn output_absorbed_step_by_step_is_what_pushing_it_makes_at_and_past_the_cap() {
    // Within the cap, exactly at it, one byte over, and far past it.
    for cap in [8, 40, 41, 42, 200] {
        same_as_pushed(cap, &[vec![3, 4], vec![5], vec![], vec![30, 2]]);
        same_as_pushed(cap, &[vec![100], vec![1, 1]]);
        same_as_pushed(cap, &[vec![1], vec![100, 1], vec![1]]);
    }
}

proptest! {
    #[test]
    fn output_absorbed_in_any_steps_equals_output_pushed(
        cap in 4usize..300,
        steps in prop::collection::vec(prop::collection::vec(0usize..60, 0..5), 0..6),
    ) {
        same_as_pushed(cap, &steps);
    }
}

#[test]
fn a_clock_log_rebuilt_from_reported_pieces_is_the_same_log() {
    let reads: Vec<(u8, f64)> = (0..200)
        .map(|i| if i % 9 == 0 { (PERFORMANCE, f64::from(i) * 0.5) } else { (DATE, 1000.0 + f64::from(i / 20)) })
        .collect();
    let whole: ClockLog = reads.iter().copied().collect();
    for cut in [1, 7, 50, 199] {
        let mut worker: ClockLog = reads[..cut].iter().copied().collect();
        let mut host = ClockLog::default();
        host.extend(worker.runs_from(0));
        for read in &reads[cut..] {
            worker.push(read.0, read.1);
        }
        host.extend(worker.runs_from(cut));
        assert_eq!(host.values(), reads, "cut at {cut}");
        assert_eq!(host.run_count(), whole.run_count(), "pieces join into the same runs (cut at {cut})");
    }
}

#[test]
fn a_clock_log_crosses_as_its_runs_and_its_counts_are_rebuilt() {
    let log: ClockLog = [(DATE, 5.0), (DATE, 5.0), (PERFORMANCE, 1.5)].into_iter().collect();
    let text = serde_json::to_string(&log).expect("serializes");
    let back: ClockLog = serde_json::from_str(&text).expect("deserializes");
    assert_eq!(back.values(), log.values());
    assert_eq!(back.len(), 3);
}

#[test]
fn a_message_nested_at_the_bound_decodes_and_one_level_more_is_refused() {
    // On a stack like the threads that decode messages (the worker's main
    // thread, the host's reader): decoding recurses per level.
    let checked = std::thread::Builder::new().stack_size(8 * 1024 * 1024).spawn(|| {
        let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let at: serde_json::Value = decode(nested(MAX_MESSAGE_DEPTH).as_bytes()).expect("at the bound");
        assert!(at.is_array());
        let over = decode::<serde_json::Value>(nested(MAX_MESSAGE_DEPTH + 1).as_bytes()).expect_err("past it");
        assert!(over.to_string().contains("past the bound of 1024"), "{over}");
    });
    checked.expect("a thread").join().expect("no failure");
    // Brackets inside strings are text, not nesting.
    assert_eq!(nesting(br#"{"a":"[[[[\"]]]","b":[1]}"#), 2);
}

#[test]
fn a_message_that_is_not_the_protocol_is_refused_with_what_was_wrong() {
    let err = decode::<super::protocol::ToWorker>(br#"{"Launch":{"cell":1}}"#).expect_err("unknown");
    assert!(err.to_string().contains("Launch"), "{err}");
    let err = decode::<super::protocol::ToWorker>(br#"{"Close":{"cell":"one"}}"#).expect_err("mistyped");
    assert!(err.to_string().contains("invalid type"), "{err}");
    let close = encode(&super::protocol::ToWorker::Close { cell: 7 }).expect("encodes");
    assert!(matches!(decode(&close), Ok(super::protocol::ToWorker::Close { cell: 7 })));
}

fn recording(max_runs: usize, replay_env: Vec<(EnvKey, String)>) -> Determinism {
    let mut d = Determinism::new();
    let replay = ReplayReads { clock: ClockLog::default(), env: replay_env, env_journaled: true };
    d.host_side(&Setup { seed: 0, max_runs, replay: Some(replay) });
    d
}

/// Clock runs as a worker reports them: `n` runs that never join.
fn runs(n: usize) -> Vec<ClockRun> {
    let mut log = ClockLog::default();
    for i in 0..n {
        log.push(DATE, (i * i) as f64);
    }
    log.runs_from(0)
}

#[test]
fn a_workers_clock_runs_are_taken_up_to_the_journal_bound_and_refused_one_past_it() {
    let mut d = recording(4, vec![]);
    d.absorb(runs(4), vec![], &mut VecDeque::new(), false).unwrap();
    assert_eq!(d.reads.run_count(), 4);
    let mut d = recording(4, vec![]);
    let err = d.absorb(runs(5), vec![], &mut VecDeque::new(), false).unwrap_err();
    assert!(err.contains("5 runs of clock reads, past the 4"), "{err}");
    // An honest worker past the bound says so: the run keeps no reads.
    let mut d = recording(4, vec![]);
    d.absorb(vec![], vec![], &mut VecDeque::new(), true).unwrap();
    assert!(d.overflow && d.reads.len() == 0);
    let err = d.absorb(runs(1), vec![], &mut VecDeque::new(), false).unwrap_err();
    assert!(err.contains("keeps none"), "{err}");
}

#[test]
fn a_workers_configuration_reads_take_their_values_from_the_host_never_from_the_worker() {
    let meta = |i: u32| (EnvKey::Meta(i), format!("meta {i}"));
    let mut d = recording(8, vec![meta(0)]);
    let mut given = VecDeque::from([meta(1), (EnvKey::McpTree, "tree".to_owned())]);
    let reported = vec![(EnvKey::Meta(0), EnvSource::Journal), (EnvKey::Meta(1), EnvSource::Host)];
    d.absorb(vec![], reported, &mut given, false).unwrap();
    assert_eq!(d.env, vec![meta(0), meta(1)]);
    // A live read the host did not answer so (it answered the tree next).
    let err = d.absorb(vec![], vec![(EnvKey::Meta(2), EnvSource::Host)], &mut given, false).unwrap_err();
    assert!(err.contains("Meta(2) from Host"), "{err}");
    // A replayed read the journal no longer has.
    let mut d = recording(8, vec![]);
    let err = d.absorb(vec![], vec![(EnvKey::McpTree, EnvSource::Journal)], &mut VecDeque::new(), false);
    assert!(err.unwrap_err().contains("McpTree from Journal"));
    // A fresh cell's engine keeps no reads, so reports none.
    let mut d = Determinism::new();
    let mut given = VecDeque::from([meta(0)]);
    assert!(d.absorb(vec![], vec![(EnvKey::Meta(0), EnvSource::Host)], &mut given, false).is_err());
}

#[test]
fn a_workers_configuration_reads_are_taken_up_to_their_bound_and_refused_one_past_it() {
    let read = (EnvKey::McpTree, EnvSource::Host);
    let mut d = recording(8, vec![]);
    let mut given: VecDeque<_> = (0..=MAX_ENV_READS).map(|_| (EnvKey::McpTree, String::new())).collect();
    d.absorb(vec![], vec![read; MAX_ENV_READS], &mut given, false).unwrap();
    assert_eq!(d.env.len(), MAX_ENV_READS);
    let err = d.absorb(vec![], vec![read], &mut given, false).unwrap_err();
    assert!(err.contains(&format!("more than {MAX_ENV_READS}")), "{err}");
}

/// A message for `cell`, as a worker sends it.
fn failed(cell: u64) -> FromWorker<()> {
    FromWorker::Failed { cell, message: format!("for {cell}") }
}

/// Cells 1 and 3 on lane 0, cell 2 on lane 1; cells below 6 were opened
/// (4 and 5 have closed).
fn route_on_lane_0(
    me: u64,
    waiting: &mut HashMap<u64, Option<FromWorker<()>>>,
    message: FromWorker<()>,
) -> Result<Option<FromWorker<()>>, String> {
    let lane_of = |cell: u64| match cell {
        1 | 3 => Some(0),
        2 => Some(1),
        _ => None,
    };
    let opened = Opened { lane_of: &lane_of, next: 6 };
    route(me, 0, waiting, &opened, message).map_err(|broken| format!("{broken:?}"))
}

/// GA-1.2: what a worker sends on a lane reaches only the cell it names,
/// at most one message per waiting cell; a message for a cell that is not
/// waiting, on another cell's lane, never opened, or a second one before
/// the host answered, fails the worker — no cell gets another's message.
#[test]
fn a_lane_routes_each_message_to_its_waiting_cell_and_refuses_any_the_worker_may_not_send() {
    let mut waiting = HashMap::from([(1, None), (3, None)]);
    // Its own, and a waiting neighbour's, put in the neighbour's slot.
    assert!(matches!(route_on_lane_0(1, &mut waiting, failed(1)), Ok(Some(FromWorker::Failed { cell: 1, .. }))));
    assert!(matches!(route_on_lane_0(1, &mut waiting, failed(3)), Ok(None)));
    assert!(matches!(waiting[&3], Some(FromWorker::Failed { cell: 3, .. })));
    // A second one for the neighbour before it took the first.
    let second = route_on_lane_0(1, &mut waiting, failed(3)).expect_err("a second message fails the worker");
    assert!(second.contains("cell 3 a second message before the host answered"), "{second}");
    assert!(matches!(waiting[&3], Some(FromWorker::Failed { cell: 3, .. })), "the first one is kept");
    // Open but not waiting, on this lane and on another.
    waiting.remove(&3);
    let idle = route_on_lane_0(1, &mut waiting, failed(3)).expect_err("a cell not waiting");
    assert!(idle.contains("cell 3, which was not waiting for it"), "{idle}");
    let across = route_on_lane_0(1, &mut waiting, failed(2)).expect_err("another lane's cell");
    assert!(across.contains("cell 2 on another cell's lane"), "{across}");
    // Never opened (the next id, and far past it); a closed one's is moot.
    for never in [6, u64::MAX] {
        let forged = route_on_lane_0(1, &mut waiting, failed(never)).expect_err("a cell never opened");
        assert!(forged.contains(&format!("cell {never}, which the host never opened")), "{forged}");
    }
    assert!(matches!(route_on_lane_0(1, &mut waiting, failed(5)), Ok(None)));
    let ready = FromWorker::Ready { syscalls_allowed: 1, namespaces: Ok(()), threaded: false };
    assert!(route_on_lane_0(1, &mut waiting, ready).expect_err("a second hello").contains("`Ready` twice"));
    assert_eq!(waiting.len(), 1, "nothing was put for a cell not waiting: {:?}", waiting.keys());
}

/// A worker reads the host's prelude bytecode only when the host names
/// this very build (QuickJS, crate version, prelude source); bytes from
/// any other are never loaded, and the worker compiles its own.
#[test]
fn prelude_bytecode_is_adopted_only_from_a_host_of_the_same_build() {
    use crate::engine::vm::{adopt_prelude, prelude_build};
    let build = prelude_build();
    assert_eq!(build, prelude_build(), "one name per build");
    assert_eq!(build.len(), 64, "a SHA-256 in hex: {build}");
    for other in [String::new(), format!("{build}0"), build.replacen(&build[..1], "x", 1)] {
        assert!(!adopt_prelude(&other, b"not bytecode".to_vec()), "bytes of {other:?} were taken");
    }
}

/// A worker chooses the strings of its name-suggestion query: the host
/// refuses one past its bounds before comparing anything, and answers one
/// at them (GA-9.4: an unknown MCP member's message).
#[test]
fn a_workers_suggestion_query_is_refused_unread_past_its_bounds_and_answered_at_them_ga_9_4() {
    let at: Vec<String> = vec![String::new(); MAX_SUGGESTION_METHODS];
    assert_eq!(suggestion_too_large("", &at), None);
    let over: Vec<String> = vec![String::new(); MAX_SUGGESTION_METHODS + 1];
    assert!(suggestion_too_large("", &over).unwrap().contains("at most 16384 methods"));
    let wanted = "w".repeat(MAX_SUGGESTION_BYTES - 10);
    assert_eq!(suggestion_too_large(&wanted, &["m".repeat(10)]), None);
    assert!(suggestion_too_large(&wanted, &["m".repeat(11)]).is_some());
}
