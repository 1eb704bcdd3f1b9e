//! The cell actor: one per live or parked cell, pinned to one JS thread.
//! It only dispatches messages to its [`CellState`].

use codemode_protocol::{ErrorCode, Phase};
use ractor::{Actor, ActorProcessingErr, ActorRef};

use super::end::Ending;
use super::msg::CellMsg;
use super::state::{CellArgs, CellState, Flow};
use codemode_protocol::RunEnd;

/// The actor of one cell.
pub(crate) struct CellActor;

/// A cell actor's state: the cell until the actor stops, then nothing.
///
/// ractor hands a stopped actor's state to its supervisor inside the
/// `ActorTerminated` event, so a state left in place would live until the
/// root supervisor handled that event — during a shutdown, never (the root
/// is busy stopping the tree), and under load, as long as the root's
/// mailbox is behind, holding a whole QuickJS engine. `post_stop` drops the
/// cell here instead, on its own JS thread.
pub(crate) struct CellSlot(Option<Box<CellState>>);

impl Actor for CellActor {
    type Msg = CellMsg;
    type State = CellSlot;
    type Arguments = CellArgs;

    async fn pre_start(&self, myself: ActorRef<CellMsg>, args: CellArgs) -> Result<CellSlot, ActorProcessingErr> {
        Ok(CellSlot(Some(Box::new(CellState::new(args, myself)))))
    }

    async fn post_stop(&self, _: ActorRef<CellMsg>, slot: &mut CellSlot) -> Result<(), ActorProcessingErr> {
        slot.0 = None;
        Ok(())
    }

    async fn handle(
        &self,
        myself: ActorRef<CellMsg>,
        msg: CellMsg,
        slot: &mut CellSlot,
    ) -> Result<(), ActorProcessingErr> {
        // Messages that reach a stopping actor find no cell: nothing to do.
        let Some(state) = slot.0.as_deref_mut() else { return Ok(()) };
        if let Flow::Ended = dispatch(state, msg) {
            myself.stop(None);
        }
        Ok(())
    }
}

/// Hands one message to the cell.
fn dispatch(state: &mut CellState, msg: CellMsg) -> Flow {
    if let Some(Ending::Recording(recording)) = state.ending.as_mut() {
        // Its end is being recorded and nothing else runs: every observer
        // gets the end the record says.
        match msg {
            CellMsg::Wait(reply, ..) | CellMsg::Abort(reply) => recording.replies.push(reply),
            CellMsg::EndRecorded(outcome) => return state.end_recorded(outcome),
            _ => {}
        }
        return Flow::Live;
    }
    match msg {
        CellMsg::Start(reply) => state.start(reply),
        CellMsg::Wait(reply, decide, stream) => state.resume(reply, decide, stream),
        CellMsg::Abort(reply) => {
            if let Some(Ending::Finishing(f)) = state.ending.as_mut() {
                // The cell already completed and is committing: the commit
                // cannot be taken back, so the abort gets the final result.
                f.also_reply.push(reply);
                return Flow::Live;
            }
            let result = state.fail(ErrorCode::Aborted, "code mode execution aborted".into(), Phase::Guest);
            state.finish_replying(result, RunEnd::Aborted, vec![reply])
        }
        CellMsg::Dispose => {
            let result = state.fail(ErrorCode::Aborted, "code mode run was disposed by the host".into(), Phase::Host);
            state.finish(result, RunEnd::Disposed)
        }
        CellMsg::Done(id, done) => state.request_done(id, done),
        CellMsg::Finalized(finalized) => state.finalized(finalized),
        // Only an ending cell records its end (above).
        CellMsg::EndRecorded(_) => Flow::Live,
        CellMsg::Wake => {
            state.windows.woken();
            state.advance_if_observed()
        }
        CellMsg::Expire(epoch) if state.windows.idle_in(epoch) => state.finish_unobserved(RunEnd::Expired),
        CellMsg::Expire(_) => Flow::Live,
        CellMsg::Durable(msg) => state.on_durable(msg),
    }
}
