//! Unit tests of the node registry: resolution, policy, hello bounds.

use super::*;

#[test]
fn the_command_policy_allows_per_node_lists_prefixes_and_a_default() {
    let mut policy = CommandPolicy::default();
    assert!(policy.allows("a", "anything"), "no policy allows every advertised command");
    policy.default = Some(vec!["device.status".into(), "fs.*".into()]);
    policy.per_node.insert("locked".into(), vec![]);
    assert!(policy.allows("a", "fs.listDir"));
    assert!(policy.allows("a", "device.status"));
    assert!(!policy.allows("a", "camera.snap"));
    assert!(!policy.allows("a", "fsx.read"));
    assert!(!policy.allows("locked", "device.status"));
}

fn hello() -> Hello {
    Hello {
        id: "n".into(),
        name: "n".into(),
        platform: "linux".into(),
        commands: vec![],
        credentials: Credentials::default(),
    }
}

#[test]
fn every_hello_field_is_accepted_exactly_at_its_bound_and_refused_one_over() {
    // A field set to `n` characters; multi-byte characters count as one.
    type Set = fn(&mut Hello, String);
    let fields: [(Set, usize, HelloError); 7] = [
        (|h, v| h.id = v, MAX_ID_CHARS, HelloError::Id),
        (|h, v| h.name = v, MAX_NAME_CHARS, HelloError::Name),
        (|h, v| h.platform = v, MAX_PLATFORM_CHARS, HelloError::Platform),
        (|h, v| h.commands = vec![v], MAX_COMMAND_CHARS, HelloError::Commands),
        (|h, v| h.credentials.secret = Some(v), MAX_SECRET_CHARS, HelloError::Secret),
        (|h, v| h.credentials.code = Some(v), MAX_CODE_CHARS, HelloError::Code),
        (|h, v| h.credentials.token = Some(v), MAX_TOKEN_CHARS, HelloError::Token),
    ];
    for (set, max, error) in fields {
        for ch in ["x", "é", "🦀"] {
            let mut at = hello();
            set(&mut at, ch.repeat(max));
            assert_eq!(check_hello(&at), Ok(()), "{error:?} at {max} × {ch}");
            let mut over = hello();
            set(&mut over, ch.repeat(max + 1));
            assert_eq!(check_hello(&over), Err(error.clone()), "{error:?} at {} × {ch}", max + 1);
        }
    }
    let many = |n: usize| (0..n).map(|i| format!("c{i}")).collect::<Vec<_>>();
    assert_eq!(check_hello(&Hello { commands: many(MAX_COMMANDS), ..hello() }), Ok(()));
    let over = check_hello(&Hello { commands: many(MAX_COMMANDS + 1), ..hello() }).unwrap_err();
    assert_eq!(over.to_string(), "a node advertises at most 256 commands of 1–128 characters");
    assert_eq!(check_hello(&Hello { id: String::new(), ..hello() }), Err(HelloError::Id));
    assert_eq!(check_hello(&Hello { commands: vec![String::new()], ..hello() }), Err(HelloError::Commands));
    assert_eq!(check_hello(&Hello { name: String::new(), platform: String::new(), ..hello() }), Ok(()));
    for (field, error) in [("id", HelloError::Id), ("name", HelloError::Name), ("platform", HelloError::Platform)] {
        let mut h = hello();
        match field {
            "id" => h.id = "a\nb".into(),
            "name" => h.name = "a\u{1b}[2J".into(),
            _ => h.platform = "a\rb".into(),
        }
        assert_eq!(check_hello(&h), Err(error), "control characters in {field} are refused");
    }
}

#[test]
fn remembered_fields_are_cut_to_their_bound_and_lose_control_characters() {
    assert_eq!(bounded("linux", MAX_PLATFORM_CHARS), "linux");
    let at = "é".repeat(MAX_PLATFORM_CHARS);
    assert_eq!(bounded(&at, MAX_PLATFORM_CHARS), at, "exactly at the bound: kept whole");
    let cut = bounded(&"é".repeat(7_000_000), MAX_PLATFORM_CHARS);
    assert_eq!(cut.chars().count(), MAX_PLATFORM_CHARS);
    assert!(cut.ends_with('…'));
    assert_eq!(bounded("a\u{1b}[2Jb\n", 16), "a\u{fffd}[2Jb\u{fffd}");
}

#[test]
fn last_seen_is_shown_as_utc() {
    assert_eq!(last_seen(Some(0)), "1970-01-01T00:00:00Z");
    assert_eq!(last_seen(Some(1_795_000_000_000)), "2026-11-18T11:06:40Z");
    assert_eq!(last_seen(None), "never");
}
