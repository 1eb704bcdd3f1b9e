//! `setTimeout` (GA-5) and `yield_control`: host-side timers and yields.
//! Both are data a journal restores, never work a crash could repeat.

use super::decode_cx::DecodeCx;
use super::op::{Admission, HandleInside, Handled, HostCx, HostOp, Inside, InsideCx, Rerun};
use crate::durable::journal::fnv::{Fnv, Refs};
use crate::engine::args::Args;
use crate::engine::host::Answering;

/// `yield_control(reason)`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Yield {
    pub reason: Option<String>,
}

impl HostOp for Yield {
    type Reach = Inside;
    const NAME: &'static str = "yield";
    const WHAT: &'static str = "yield_control";
    const ADMISSION: Admission = Admission::Yield;

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        Ok(Self { reason: a.opt_string(0, "the reason")? })
    }

    fn fingerprint(&self, h: &mut Fnv, _: &Refs<'_>) {
        h.bytes(b"yield");
        h.opt(self.reason.as_deref());
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        Rerun::Restored
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        Ok(())
    }
}

impl HandleInside for Yield {
    fn handle(self, id: u64, cx: &mut InsideCx<'_, '_>) -> Handled {
        cx.host.telemetry_mut().yield_count += 1;
        cx.host.add_yield(id, self.reason);
        Ok(0)
    }
}

/// The longest delay a timer is given (longer ones are clamped to it).
const MAX_DELAY_MS: u64 = 1_000_000_000_000_000;

/// `setTimeout`'s host side.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Timer {
    pub delay_ms: u64,
}

impl HostOp for Timer {
    type Reach = Inside;
    const NAME: &'static str = "timer";
    const WHAT: &'static str = "setTimeout";
    const ADMISSION: Admission = Admission::Timer;
    const ANSWERING: Answering = Answering::Id;

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        // The prelude has already made the delay a finite integer ≥ 0.
        let delay = a.number(0).ok_or_else(|| a.malformed("the delay", "a number"))?;
        Ok(Self { delay_ms: delay.clamp(0.0, MAX_DELAY_MS as f64) as u64 })
    }

    fn fingerprint(&self, h: &mut Fnv, _: &Refs<'_>) {
        h.bytes(b"timer");
        h.n(self.delay_ms);
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        Rerun::Restored
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        if self.delay_ms > MAX_DELAY_MS {
            return Err(format!("a timer delay of {} ms, past the {MAX_DELAY_MS} ms decoding allows", self.delay_ms));
        }
        Ok(())
    }
}

impl HandleInside for Timer {
    fn handle(self, id: u64, cx: &mut InsideCx<'_, '_>) -> Handled {
        cx.host.telemetry_mut().timer_count += 1;
        let now = cx.now;
        cx.host.add_timer(id, self.delay_ms, now);
        Ok(0)
    }
}
