//! A stored run decoded once: everything a resumed cell needs, carried
//! unchanged from the router that claimed it to the cell that replays it.

use codemode_catalog::Registry;

use crate::cell::approvals::Decide;
use crate::cell::mode::CellMode;
use crate::cell::tools::ToolTable;
use crate::durable::journal::Journal;
use crate::engine::vm::PreludeGeneration;

/// A stored run this process holds the lease of, to resume by replay.
pub(crate) struct Restored {
    /// The run.
    pub run_id: String,
    /// Its journal, decoded: the source, the tool table and prelude it ran
    /// with, its approvals and tasks, the snapshot to replay to.
    pub journal: Journal,
    /// The journal's stored version: the next write continues it.
    pub version: u64,
    /// Decisions the resuming `wait` brings, taken once the run is live.
    pub decide: Option<Decide>,
}

impl Restored {
    /// How the run's cell was bound when it started.
    pub(crate) fn mode(&self) -> CellMode {
        let header = &self.journal.header;
        CellMode::Interactive {
            session: header.session.clone(),
            reply: header.reply.clone(),
            restart_safe: header.restart_safe,
            unattended: header.unattended,
        }
    }

    /// The cell's wrapped source, exactly as it was compiled.
    pub(crate) fn wrapped(&self) -> &str {
        &self.journal.header.wrapped
    }

    /// The tool globals its journal names, mapped onto `registry` (the
    /// registry's own table when a deploy changed nothing).
    pub(crate) fn tools(&self, registry: &Registry) -> ToolTable {
        if self.journal.format >= 2 {
            ToolTable::replayed(registry.clone(), &self.journal.header.tools.0)
        } else {
            ToolTable::live(registry.clone())
        }
    }

    /// The prelude behaviour the run started with: it replays with it.
    pub(crate) fn prelude(&self) -> PreludeGeneration {
        PreludeGeneration(self.journal.header.prelude)
    }

    /// Who started the run: its approvals belong to them.
    pub(crate) fn owner(&self) -> Option<String> {
        self.journal.header.principal.clone()
    }
}
