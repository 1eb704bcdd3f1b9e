-- A run's journal grows by appended chunks: a park writes what happened
-- since the previous one, not the whole journal again (the `journal`
-- column keeps journals written whole, by earlier builds or a rewrite).
-- The run's row counts its chunks and their bytes, so listing sizes a
-- journal without reading it; chunks go with their run.
ALTER TABLE codemode_runs
    ADD COLUMN journal_chunks integer NOT NULL DEFAULT 0,
    ADD COLUMN journal_chunk_bytes bigint NOT NULL DEFAULT 0;
CREATE TABLE codemode_run_chunks (
    run_id text    NOT NULL REFERENCES codemode_runs (run_id) ON DELETE CASCADE,
    seq    integer NOT NULL,
    bytes  bytea   NOT NULL,
    PRIMARY KEY (run_id, seq)
);
-- The quotas count a principal's stored runs that have not ended.
CREATE INDEX codemode_runs_live_principal ON codemode_runs (principal) WHERE status IN ('running', 'parked');
