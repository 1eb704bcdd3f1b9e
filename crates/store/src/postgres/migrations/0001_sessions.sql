-- Sessions (GA-7): one row per session, one row per stored value.
--
-- The session row is what commits lock (`FOR UPDATE`), so the 1 MiB limit
-- is re-checked in commit order across every process; `last_seen_s` drives
-- retention. Values reference it, so deleting an expired session deletes
-- its values in the same statement.
CREATE TABLE codemode_sessions (
    session     text   PRIMARY KEY,
    -- Unix seconds of the last load, check or commit.
    last_seen_s bigint NOT NULL
);
CREATE INDEX codemode_sessions_last_seen ON codemode_sessions (last_seen_s);

CREATE TABLE codemode_session_values (
    session text    NOT NULL REFERENCES codemode_sessions (session) ON DELETE CASCADE,
    -- UTF-8 bytes: a key may hold any string, NUL included, which `text`
    -- cannot.
    key     bytea   NOT NULL,
    -- Compact JSON text; its octet length is what the limits count.
    json    text    NOT NULL,
    -- The writing cell had observed network-derived content (GA-7.7).
    network boolean NOT NULL,
    PRIMARY KEY (session, key)
);
