use std::time::Duration;

use super::*;

#[test]
fn unknown_keys_are_named() {
    let err = Config::parse("[limits]\ntimeout = 5\n").unwrap_err().to_string();
    assert!(err.contains("unknown field `timeout`"), "{err}");
    let err = Config::parse("colour = 1\n").unwrap_err().to_string();
    assert!(err.contains("unknown field `colour`"), "{err}");
}

#[test]
fn out_of_range_values_name_the_key_and_the_range() {
    let err = Config::parse("[limits]\ntimeout_ms = 50\n").unwrap_err().to_string();
    assert_eq!(err, "limits.timeout_ms = 50 is out of range: allowed 100..=60000");
    let err = Config::parse("[limits]\ncpu_ms = 0\n").unwrap_err().to_string();
    assert_eq!(err, "limits.cpu_ms = 0 is out of range: allowed 1..=3600000");
    let err = Config::parse("[limits]\ncpu_ms = 3600001\n").unwrap_err().to_string();
    assert_eq!(err, "limits.cpu_ms = 3600001 is out of range: allowed 1..=3600000");
    for at in [1, 3_600_000] {
        let limits = Config::parse(&format!("[limits]\ncpu_ms = {at}\n")).unwrap().limits.to_limits().unwrap();
        assert_eq!(limits.cpu_budget, Some(Duration::from_millis(at)));
    }
    let err = Config::parse("[limits]\nmax_in_flight = 129\n").unwrap_err().to_string();
    assert_eq!(err, "limits.max_in_flight = 129 is out of range: allowed 1..=128");
    let ok = Config::parse("[limits]\nmax_in_flight = 128\ntimeout_ms = 100\n").unwrap();
    assert_eq!(ok.limits.max_in_flight, 128);
    let err = Config::parse("[limits]\napproval_ttl_ms = 9\n").unwrap_err().to_string();
    assert_eq!(err, "limits.approval_ttl_ms = 9 is out of range: allowed 10..=86400000");
    assert!(Config::parse("[limits]\napproval_ttl_ms = 10\n").is_ok());
    assert!(Config::parse("[limits]\napproval_ttl_ms = 86400000\n").is_ok());
    assert!(Config::parse("[limits]\napproval_ttl_ms = 86400001\n").is_err());
}

/// GA-1.2: cells' local time is one configured zone, checked when the
/// config is read, UTC when unset.
#[test]
fn a_time_zone_is_an_iana_name_checked_at_start_and_utc_by_default_ga_1_2() {
    assert_eq!(Config::parse("").unwrap().limits.to_limits().unwrap().time_zone.name(), "UTC");
    let tokyo = Config::parse("[limits]\ntime_zone = \"Asia/Tokyo\"\n").unwrap();
    assert_eq!(tokyo.limits.to_limits().unwrap().time_zone.name(), "Asia/Tokyo");
    let err = Config::parse("[limits]\ntime_zone = \"Mars/Base\"\n").unwrap_err().to_string();
    assert!(err.starts_with("limits.time_zone: `Mars/Base` is not a time zone"), "{err}");
}

#[test]
fn policy_rules_are_checked_and_bounded() {
    let rule = "[[policy]]\ntool = \"deploy_*\"\naction = \"ask\"\n";
    assert_eq!(Config::parse(rule).unwrap().policy.len(), 1);
    let err = Config::parse("[[policy]]\ntool = \"[\"\naction = \"ask\"\n").unwrap_err().to_string();
    assert!(err.starts_with("policy[0].tool = \"[\" is not a valid glob"), "{err}");
    let err = Config::parse("[[policy]]\naction = \"maybe\"\n").unwrap_err().to_string();
    assert!(err.contains("unknown variant `maybe`"), "{err}");
    let many = rule.repeat(super::policy::MAX_RULES);
    assert!(Config::parse(&many).is_ok(), "exactly at the bound");
    let err = Config::parse(&format!("{many}{rule}")).unwrap_err().to_string();
    assert_eq!(err, "257 [[policy]] rules; at most 256 are allowed");
}

#[test]
fn nodes_settings_are_checked_at_their_edges() {
    let nodes = |extra: &str| Config::parse(&format!("[nodes]\n{extra}\n"));
    assert!(nodes("invoke_timeout_ms = 600000").is_ok());
    assert_eq!(
        nodes("invoke_timeout_ms = 600001").unwrap_err().to_string(),
        "nodes.invoke_timeout_ms = 600001 is out of range: allowed 1..=600000"
    );
    assert!(nodes("invoke_timeout_ms = 0").is_err());
    assert!(nodes("tokens = [\"0123456789abcdef\"]").is_ok(), "16 characters");
    assert_eq!(
        nodes("tokens = [\"0123456789abcde\"]").unwrap_err().to_string(),
        "nodes.tokens[0] is too short: use at least 16 characters"
    );
    assert!(nodes("listen = \"127.0.0.1:0\"\nallow_commands = [\"fs.*\"]").unwrap().nodes.is_some());
}

#[test]
fn store_retention_days_is_checked_at_its_edges_and_zero_keeps_sessions_forever_ga_7_1() {
    let store = |extra: &str| Config::parse(&format!("[store]\n{extra}\n"));
    assert_eq!(Config::default().store.retention(), Some(codemode_store::DEFAULT_SESSION_RETENTION));
    assert_eq!(store("retention_days = 0").unwrap().store.retention(), None);
    assert_eq!(store("retention_days = 1").unwrap().store.retention(), Some(Duration::from_secs(86_400)));
    assert_eq!(store("retention_days = 3650").unwrap().store.retention(), Some(Duration::from_secs(3650 * 86_400)));
    assert_eq!(
        store("retention_days = 3651").unwrap_err().to_string(),
        "store.retention_days = 3651 is out of range: allowed 0..=3650 (0 keeps sessions forever)"
    );
    assert!(store("retention_days = -1").is_err(), "negative days are refused");
    assert!(store("retention_days = 1.5").is_err(), "whole days only");
}

#[test]
fn the_store_backend_defaults_to_sled_and_postgres_needs_a_url_and_no_sled_path() {
    let store = |extra: &str| Config::parse(&format!("[store]\n{extra}\n"));
    let default = Config::default().store;
    assert_eq!((default.backend, default.pool_size, default.url.as_deref()), (BackendKind::Sled, 8, None));
    assert_eq!(default.backend(Some("db".into())), codemode_runtime::StoreBackend::Sled { path: Some("db".into()) });
    assert_eq!(
        store("backend = \"sled\"\nurl = \"postgres://h/db\"").unwrap_err().to_string(),
        "store.url is for backend = \"postgres\"; the sled backend keeps its database at store.path (remove store.url, or set store.backend = \"postgres\")"
    );
    assert_eq!(
        store("backend = \"postgres\"").unwrap_err().to_string(),
        "store.backend = \"postgres\" needs store.url (postgres://user:password@host:port/db)"
    );
    assert!(store("backend = \"postgres\"\nurl = \" \"").unwrap_err().to_string().contains("store.url is empty"));
    let err = store("backend = \"postgres\"\nurl = \"postgres://h/db\"\npath = \"elsewhere\"").unwrap_err();
    assert!(err.to_string().starts_with("store.path is the sled database directory"), "{err}");
    assert!(store("backend = \"mysql\"").unwrap_err().to_string().contains("unknown variant `mysql`"));
    let pg = store("backend = \"postgres\"\nurl = \"postgres://u:secret@h:5432/db\"\npool_size = 3").unwrap();
    assert_eq!(
        pg.store.backend(Some("ignored".into())),
        codemode_runtime::StoreBackend::Postgres { url: "postgres://u:secret@h:5432/db".into(), pool_size: 3 }
    );
    assert_eq!(pg.store.describe(), "postgres at postgres://u:***@h:5432/db (pool of 3)");
    assert!(!pg.to_toml().contains("secret"), "config check never prints the password");
    assert!(Config::parse(&pg.to_toml()).is_ok(), "the redacted form still parses");
}

#[test]
fn the_pool_size_is_checked_at_its_edges() {
    let pool = |n: &str| Config::parse(&format!("[store]\npool_size = {n}\n"));
    assert_eq!(pool("1").unwrap().store.pool_size, 1);
    assert_eq!(pool("1024").unwrap().store.pool_size, 1024);
    assert_eq!(pool("1025").unwrap_err().to_string(), "store.pool_size = 1025 is out of range: allowed 1..=1024");
    assert_eq!(pool("0").unwrap_err().to_string(), "store.pool_size = 0 is out of range: allowed 1..=1024");
}

#[test]
fn a_store_url_password_is_redacted_in_both_forms() {
    assert_eq!(redact_url("postgres://u:p@ss@h/db?x=1"), "postgres://u:***@h/db?x=1");
    assert_eq!(redact_url("postgresql://u@h/db"), "postgresql://u@h/db");
    assert_eq!(redact_url("postgres://h/a@b"), "postgres://h/a@b");
    assert_eq!(redact_url("postgres://u:pa/ss@h/db"), "postgres://u:***@h/db");
    assert_eq!(redact_url("host=h user=u password=secret dbname=d"), "host=h user=u password=*** dbname=d");
}

#[test]
fn runs_settings_default_to_the_runtimes_and_are_checked_at_their_edges() {
    let runs = |extra: &str| Config::parse(&format!("[runs]\n{extra}\n"));
    assert_eq!(Config::default().runs.to_runs_config(), codemode_runtime::RunsConfig::default());
    let every = runs("journal = \"every_call\"").unwrap().runs.to_runs_config();
    assert_eq!(every.journal, codemode_runtime::JournalMode::EveryCall);
    assert_eq!(every.durability, codemode_runtime::Durability::Process, "the default");
    let machine = runs("durability = \"machine\"").unwrap().runs.to_runs_config();
    assert_eq!(machine.durability, codemode_runtime::Durability::Machine);
    assert!(runs("durability = \"disk\"").unwrap_err().to_string().contains("unknown variant `disk`"));
    assert!(runs("journal = \"always\"").unwrap_err().to_string().contains("unknown variant `always`"));
    assert_eq!(runs("lease_ms = 1000").unwrap().runs.to_runs_config().lease, Duration::from_secs(1));
    assert_eq!(runs("lease_ms = 600000").unwrap().runs.lease_ms, 600_000);
    assert_eq!(
        runs("lease_ms = 999").unwrap_err().to_string(),
        "runs.lease_ms = 999 is out of range: allowed 1000..=600000"
    );
    assert_eq!(
        runs("lease_ms = 600001").unwrap_err().to_string(),
        "runs.lease_ms = 600001 is out of range: allowed 1000..=600000"
    );
    assert_eq!(runs("handoff_ms = 0").unwrap().runs.to_runs_config().handoff_after, Duration::ZERO);
    assert_eq!(runs("handoff_ms = 600000").unwrap().runs.handoff_ms, 600_000);
    assert_eq!(
        runs("handoff_ms = 600001").unwrap_err().to_string(),
        "runs.handoff_ms = 600001 is out of range: allowed 0..=600000"
    );
    assert_eq!(runs("evict_after_ms = 0").unwrap().runs.to_runs_config().evict_after, None);
    assert_eq!(runs("evict_after_ms = 1000").unwrap().runs.to_runs_config().evict_after, Some(Duration::from_secs(1)));
    assert_eq!(runs("evict_after_ms = 86400000").unwrap().runs.evict_after_ms, 86_400_000);
    let range = "is out of range: allowed 0 (never evict) or 1000..=86400000";
    assert_eq!(runs("evict_after_ms = 999").unwrap_err().to_string(), format!("runs.evict_after_ms = 999 {range}"));
    assert_eq!(
        runs("evict_after_ms = 86400001").unwrap_err().to_string(),
        format!("runs.evict_after_ms = 86400001 {range}")
    );
    assert_eq!(runs("max_journal_bytes = 65536").unwrap().runs.to_runs_config().max_journal_bytes, 65_536);
    assert_eq!(runs("max_journal_bytes = 67108864").unwrap().runs.max_journal_bytes, 64 << 20);
    assert_eq!(
        runs("max_journal_bytes = 65535").unwrap_err().to_string(),
        "runs.max_journal_bytes = 65535 is out of range: allowed 65536..=67108864"
    );
    assert!(runs("max_journal_bytes = 67108865").is_err());
    assert_eq!(runs("replay_timeout_ms = 1000").unwrap().runs.to_runs_config().replay_timeout, Duration::from_secs(1));
    assert_eq!(runs("replay_timeout_ms = 3600000").unwrap().runs.replay_timeout_ms, 3_600_000);
    assert_eq!(
        runs("replay_timeout_ms = 999").unwrap_err().to_string(),
        "runs.replay_timeout_ms = 999 is out of range: allowed 1000..=3600000"
    );
    assert!(runs("replay_timeout_ms = 3600001").is_err());
    assert!(runs("lease = 5").unwrap_err().to_string().contains("unknown field `lease`"));
}

#[test]
fn the_shutdown_grace_is_checked_at_its_edges() {
    let serve = |extra: &str| Config::parse(&format!("[serve]\n{extra}\n"));
    assert_eq!(Config::default().serve.shutdown_grace_ms, DEFAULT_SHUTDOWN_GRACE_MS);
    assert_eq!(serve("shutdown_grace_ms = 0").unwrap().serve.shutdown_grace_ms, 0);
    assert_eq!(serve("shutdown_grace_ms = 600000").unwrap().serve.shutdown_grace_ms, 600_000);
    assert_eq!(
        serve("shutdown_grace_ms = 600001").unwrap_err().to_string(),
        "serve.shutdown_grace_ms = 600001 is out of range: allowed 0..=600000"
    );
}

#[test]
fn the_session_idle_ttl_and_the_sessions_per_principal_are_checked_at_their_edges() {
    let serve = |extra: &str| Config::parse(&format!("[serve]\n{extra}\n"));
    let default = Config::default().serve;
    assert_eq!((default.session_idle_ttl_ms, default.max_sessions_per_principal), (300_000, 256));
    assert_eq!(serve("session_idle_ttl_ms = 1000").unwrap().serve.session_idle_ttl_ms, 1_000);
    assert_eq!(serve("session_idle_ttl_ms = 86400000").unwrap().serve.session_idle_ttl_ms, 86_400_000);
    assert_eq!(
        serve("session_idle_ttl_ms = 999").unwrap_err().to_string(),
        "serve.session_idle_ttl_ms = 999 is out of range: allowed 1000..=86400000"
    );
    assert_eq!(
        serve("session_idle_ttl_ms = 86400001").unwrap_err().to_string(),
        "serve.session_idle_ttl_ms = 86400001 is out of range: allowed 1000..=86400000"
    );
    assert_eq!(serve("max_sessions_per_principal = 1").unwrap().serve.max_sessions_per_principal, 1);
    assert_eq!(serve("max_sessions_per_principal = 100000").unwrap().serve.max_sessions_per_principal, 100_000);
    assert_eq!(
        serve("max_sessions_per_principal = 0").unwrap_err().to_string(),
        "serve.max_sessions_per_principal = 0 is out of range: allowed 1..=100000"
    );
    assert_eq!(
        serve("max_sessions_per_principal = 100001").unwrap_err().to_string(),
        "serve.max_sessions_per_principal = 100001 is out of range: allowed 1..=100000"
    );
    assert!(serve("max_sessions_per_principal = -1").is_err(), "a count is never negative");
}

#[test]
fn an_mcp_server_is_optional_unless_marked_required() {
    let entry = |extra: &str| Config::parse(&format!("[[mcp_servers]]\nname = \"a\"\nurl = \"http://x\"\n{extra}\n"));
    assert!(!entry("").unwrap().mcp_servers[0].required);
    assert!(entry("required = true").unwrap().mcp_servers[0].required);
    assert!(entry("required = \"yes\"").is_err(), "a boolean only");
}

#[test]
fn defaults_round_trip_through_toml() {
    let text = Config::default().to_toml();
    let back = Config::parse(&text).unwrap();
    assert_eq!(back.limits.timeout_ms, 10_000);
}

#[test]
fn operator_tokens_are_long_distinct_named_and_never_a_clients_token() {
    let token = "o".repeat(32);
    let operator = |entries: &str| Config::parse(&format!("[operator]\ntokens = [{entries}]\n"));
    let ok = operator(&format!("{{ token = \"{token}\", name = \"ops-alice\" }}")).unwrap();
    assert_eq!(ok.operator.tokens[0].name, "ops-alice");
    assert_eq!(
        operator(&format!("{{ token = \"{}\", name = \"a\" }}", "o".repeat(31))).unwrap_err().to_string(),
        "operator.tokens[0].token is too short: use at least 32 characters",
        "one under the bound"
    );
    assert!(
        operator(&format!("{{ token = \"{token}\", name = \"a\" }}, {{ token = \"{token}\", name = \"b\" }}"))
            .unwrap_err()
            .to_string()
            .contains("repeats an earlier token")
    );
    assert!(operator(&format!("{{ token = \"{token}\", name = \"<b>\" }}")).is_err(), "a name is plain");
    let shared = Config::parse(&format!(
        "[serve]\ntokens = [{{ token = \"{token}\", principal = \"alice\" }}]\n[operator]\ntokens = [{{ token = \"{token}\", name = \"ops\" }}]\n"
    ));
    assert!(shared.unwrap_err().to_string().contains("also a [serve] client token"));
}

#[test]
fn a_clients_principal_and_an_operators_name_are_checked_alike_at_their_edges() {
    let (client, ops) = ("c".repeat(32), "o".repeat(32));
    let config = |principal: &str, name: &str| {
        Config::parse(&format!(
            "[serve]\ntokens = [{{ token = \"{client}\", principal = \"{principal}\" }}]\n\
             [operator]\ntokens = [{{ token = \"{ops}\", name = \"{name}\" }}]\n"
        ))
    };
    let longest = "n".repeat(64);
    assert!(config(&longest, &longest).is_ok(), "exactly 64 characters");
    assert!(config("a.b_c-1", "A.b_C-2").is_ok());
    let too_long = "n".repeat(65);
    for bad in [too_long.as_str(), "", "a b", "<b>", "é"] {
        assert_eq!(
            config(bad, "ops").unwrap_err().to_string(),
            format!(
                "serve.tokens[0].principal = {bad:?} is not a valid name: use 1-64 letters, digits, `_`, `.` or `-`"
            )
        );
        assert_eq!(
            config("alice", bad).unwrap_err().to_string(),
            format!("operator.tokens[0].name = {bad:?} is not a valid name: use 1-64 letters, digits, `_`, `.` or `-`")
        );
    }
}
