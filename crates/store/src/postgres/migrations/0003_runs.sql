-- Durable runs (issue 17): each run's metadata, journal, lease and end.
-- Lease changes are compare-and-set `UPDATE`s on the row; every change a
-- waiter cares about also sends `NOTIFY codemode_runs, '<run id>'` in the
-- same transaction.
CREATE TABLE codemode_runs (
    run_id          text    PRIMARY KEY,
    session         text    NOT NULL,
    reply           text    NOT NULL,
    principal       text,
    title           text,
    created_ms      bigint  NOT NULL,
    -- `running`, `parked`, or the end label.
    status          text    NOT NULL,
    owner           text,
    lease_until_ms  bigint  NOT NULL DEFAULT 0,
    journal         bytea   NOT NULL DEFAULT '\x',
    version         bigint  NOT NULL DEFAULT 0,
    abort_requested boolean NOT NULL DEFAULT false,
    updated_ms      bigint  NOT NULL
);
CREATE INDEX codemode_runs_created ON codemode_runs (created_ms DESC, run_id DESC);
CREATE INDEX codemode_runs_session ON codemode_runs (session, created_ms DESC);
-- `prune` walks only ended runs.
CREATE INDEX codemode_runs_ended ON codemode_runs (updated_ms) WHERE status NOT IN ('running', 'parked');
