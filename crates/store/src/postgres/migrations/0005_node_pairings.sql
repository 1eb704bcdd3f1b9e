-- Node pairings: which node hosts may connect to the node gateway of any
-- process on this database. Only the SHA-256 of a node's secret is kept
-- (the node keeps the secret). Every change sends
-- `NOTIFY codemode_node_pairings, '<origin>:<node id>'` in the same
-- statement, so the other processes re-read that pairing.
CREATE TABLE codemode_node_pairings (
    id            text   PRIMARY KEY,
    -- As the node last presented them.
    name          text   NOT NULL,
    platform      text   NOT NULL,
    commands      text[] NOT NULL,
    -- Lowercase hex: a secret itself can never be stored here by mistake.
    secret_sha256 text   NOT NULL CHECK (secret_sha256 ~ '^[0-9a-f]{64}$'),
    -- Milliseconds since the Unix epoch.
    paired_at_ms  bigint NOT NULL,
    last_seen_ms  bigint NOT NULL
);
