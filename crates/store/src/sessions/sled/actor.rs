//! The sled store actor: it owns the write path of one database (value
//! sizes, commits in order, group flushes, the retention sweep), so one
//! request at a time changes it. Its messages are private to the sled
//! backend, whose handle asks it.

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};

use super::state::{StoreArgs, StoreState};
use crate::error::StoreError;
use crate::sessions::retention::sweep_interval;
use crate::value::StoredValue;

/// A job the actor runs on its state, in mailbox order: a commit with an
/// attached write, whose error type only its sender knows.
pub(super) type Job = Box<dyn FnOnce(&mut StoreState) + Send>;

pub(super) enum StoreMsg {
    Load {
        session: String,
        key: String,
        reply: RpcReplyPort<Result<Option<StoredValue>, StoreError>>,
    },
    Check {
        session: String,
        changes: Vec<(String, Option<usize>)>,
        reply: RpcReplyPort<Result<(), StoreError>>,
    },
    Commit {
        session: String,
        writes: Vec<(String, Option<StoredValue>)>,
        reply: RpcReplyPort<Result<(), StoreError>>,
    },
    Fork {
        from: String,
        to: String,
        reply: RpcReplyPort<Result<(), StoreError>>,
    },
    /// A commit made in one transaction with a write to another tree (a
    /// run's end record), which may refuse the whole commit; the job
    /// answers its sender itself.
    CommitAttached(Job),
    /// Answers once everything applied so far is on disk, through the
    /// flusher (so concurrent run saves share flushes).
    Flush {
        reply: RpcReplyPort<Result<(), StoreError>>,
    },
    /// Starts a retention sweep unless one is under way.
    Sweep,
    /// Continues the sweep under way by one step.
    SweepStep,
    /// Panics (the supervision tests' crash).
    #[cfg(feature = "test-hooks")]
    Crash,
}

pub(super) struct StoreActor;

/// Runs one sweep step and, while unfinished, queues the next behind the
/// requests already waiting.
fn sweep_and_continue(state: &mut StoreState, myself: &ActorRef<StoreMsg>) {
    match state.sweep_step() {
        Ok(true) => {}
        Ok(false) => {
            if let Err(e) = myself.send_message(StoreMsg::SweepStep) {
                tracing::warn!(error = %e, "session store: a retention sweep could not continue");
                state.retention.abandon_sweep();
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "session store: a retention sweep failed; the next one starts over");
            state.retention.abandon_sweep();
        }
    }
}

/// Answers `reply` with `outcome` at once when it failed, else once the
/// write is on disk.
fn reply_after_flush(
    state: &mut StoreState,
    outcome: Result<(), StoreError>,
    reply: RpcReplyPort<Result<(), StoreError>>,
) {
    match outcome {
        // Applied in commit order; durability is waited for off the
        // mailbox, so other sessions are not held up.
        Ok(()) => state.flusher().reply_after_flush(reply),
        Err(e) => {
            let _ = reply.send(Err(e));
        }
    }
}

impl Actor for StoreActor {
    type Msg = StoreMsg;
    type State = StoreState;
    type Arguments = StoreArgs;

    async fn pre_start(&self, myself: ActorRef<StoreMsg>, args: StoreArgs) -> Result<StoreState, ActorProcessingErr> {
        let mut state = StoreState::new(args)?;
        if let Some(retention) = state.retention.secs() {
            // The first sweep runs once the actor is up, then periodically.
            myself.send_message(StoreMsg::Sweep)?;
            state.timer = Some(myself.send_interval(sweep_interval(retention), || StoreMsg::Sweep));
        }
        Ok(state)
    }

    async fn post_stop(&self, _: ActorRef<StoreMsg>, state: &mut StoreState) -> Result<(), ActorProcessingErr> {
        if let Some(timer) = state.timer.take() {
            timer.abort();
        }
        Ok(())
    }

    async fn handle(
        &self,
        myself: ActorRef<StoreMsg>,
        msg: StoreMsg,
        state: &mut StoreState,
    ) -> Result<(), ActorProcessingErr> {
        match msg {
            StoreMsg::Load { session, key, reply } => {
                let _ = reply.send(state.load(&session, &key));
            }
            StoreMsg::Check { session, changes, reply } => {
                let _ = reply.send(state.check_changes(&session, &changes));
            }
            StoreMsg::Commit { session, writes, reply } => {
                let outcome = state.commit(&session, &writes);
                reply_after_flush(state, outcome, reply);
            }
            StoreMsg::CommitAttached(job) => job(state),
            StoreMsg::Fork { from, to, reply } => {
                let outcome = state.fork(&from, &to);
                reply_after_flush(state, outcome, reply);
            }
            StoreMsg::Flush { reply } => state.flusher().reply_after_flush(reply),
            StoreMsg::Sweep => {
                if state.retention.start_sweep() {
                    sweep_and_continue(state, &myself);
                }
            }
            StoreMsg::SweepStep => sweep_and_continue(state, &myself),
            #[cfg(feature = "test-hooks")]
            StoreMsg::Crash => panic!("session store: crash requested by a test hook"),
        }
        Ok(())
    }
}
