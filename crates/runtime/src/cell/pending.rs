//! How the model sees a pending host request: `bridge:<method>:<n>` in a
//! `waiting` result's `pending_tool_calls` (the reference system's format,
//! kept so transcripts read the same), numbered per kind.

/// What a pending request is, as the model sees it in `pending_tool_calls`
/// (`bridge:<method>:<n>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PendingKind {
    /// A native or MCP tool call.
    CallValue,
    /// A timer.
    Sleep,
    /// A `yield_control`.
    Yield,
    /// `catalog.search`.
    Search,
    /// `store`.
    Store,
    /// `load`.
    Load,
    /// `results.save`.
    ResultSave,
    /// `results.load`.
    ResultLoad,
    /// `results.delete`.
    ResultDelete,
    /// An MCP resources/prompts operation.
    Namespace,
    /// A node command.
    Nodes,
}

/// The numbering a method's pending ids share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Counter {
    Calls,
    Timers,
    Yields,
    Others,
}

impl PendingKind {
    /// The method's name in pending ids.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::CallValue => "callValue",
            Self::Sleep => "sleep",
            Self::Yield => "yield",
            Self::Search => "search",
            Self::Store => "store",
            Self::Load => "load",
            Self::ResultSave => "resultSave",
            Self::ResultLoad => "resultLoad",
            Self::ResultDelete => "resultDelete",
            Self::Namespace => "namespace",
            Self::Nodes => "nodes",
        }
    }

    fn counter(self) -> Counter {
        match self {
            Self::CallValue => Counter::Calls,
            Self::Sleep => Counter::Timers,
            Self::Yield => Counter::Yields,
            _ => Counter::Others,
        }
    }
}

/// A pending request's id as the model sees it: `bridge:<method>:<n>`,
/// formatted only when shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PendingId {
    method: PendingKind,
    n: u32,
}

impl std::fmt::Display for PendingId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bridge:{}:{}", self.method.name(), self.n)
    }
}

/// The last number given per counter.
#[derive(Debug, Default)]
pub(crate) struct PendingCounters {
    calls: u32,
    timers: u32,
    yields: u32,
    others: u32,
}

impl PendingCounters {
    /// The next id of `method`.
    pub(crate) fn next(&mut self, method: PendingKind) -> PendingId {
        let slot = match method.counter() {
            Counter::Calls => &mut self.calls,
            Counter::Timers => &mut self.timers,
            Counter::Yields => &mut self.yields,
            Counter::Others => &mut self.others,
        };
        *slot += 1;
        PendingId { method, n: *slot }
    }
}

impl PendingId {
    /// The request's kind.
    pub(crate) fn kind(self) -> PendingKind {
        self.method
    }
}
