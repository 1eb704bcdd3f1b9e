-- When each result was saved, in Unix seconds of the server's clock: a
-- reply whose process died is never ended, so the session sweeper deletes
-- results older than the session retention.
ALTER TABLE codemode_results
    ADD COLUMN saved_s bigint NOT NULL DEFAULT extract(epoch FROM now())::bigint;
CREATE INDEX codemode_results_saved ON codemode_results (saved_s);
