-- The operators' audit trail: every approve, deny and abort an operator
-- asked for, from any process on this database. Bounded by the writer
-- (the newest 100,000, none older than 400 days).
CREATE TABLE codemode_operator_audit (
    seq   bigserial PRIMARY KEY,
    -- Milliseconds since the Unix epoch.
    at_ms bigint    NOT NULL,
    -- The entry as codemode_store::audit::AuditEntry serializes it.
    entry text      NOT NULL
);
CREATE INDEX codemode_operator_audit_at ON codemode_operator_audit (at_ms);
