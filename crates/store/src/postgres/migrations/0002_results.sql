-- Saved results (GA-6.5), scoped to one (session, reply), shared by every
-- process. A deleted result leaves a tombstone (`json` NULL) so loading it
-- says "deleted"; ending the reply deletes its rows, tombstones included.
CREATE TABLE codemode_results (
    id      text    PRIMARY KEY,
    session text    NOT NULL,
    reply   text    NOT NULL,
    json    text,
    network boolean NOT NULL,
    -- Insertion order, to drop the oldest tombstones past the bound.
    seq     bigserial NOT NULL,
    -- Unix seconds (the server's clock) when saved: a reply whose process
    -- died never ends, so the session sweeper deletes results older than
    -- the session retention.
    saved_s bigint  NOT NULL DEFAULT extract(epoch FROM now())::bigint
);
CREATE INDEX codemode_results_saved ON codemode_results (saved_s);
CREATE INDEX codemode_results_scope ON codemode_results (session, reply);
