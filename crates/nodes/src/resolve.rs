//! `nodes.get(idOrName)` resolution (GA-10.2): plain logic over the
//! registry's snapshot.

use serde::Serialize;

use crate::protocol::LIST_DIR_COMMAND;
use crate::registry::NodeInfo;

/// What `nodes.get` hands the guest to build its handle from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolvedNode {
    /// The node's id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// `fs.listDir` when the node advertises it (the handle then has
    /// `listDir`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list_dir_command: Option<String>,
}

fn ids(paired: &[NodeInfo]) -> String {
    let mut ids: Vec<&str> = paired.iter().map(|n| n.id.as_str()).collect();
    ids.sort_unstable();
    ids.join(", ")
}

/// Resolves `query` among the paired nodes: an exact id first, then an
/// exact display name, then a display name ignoring case. `unpaired` holds
/// ids that are known but not paired (refused or revoked nodes).
///
/// # Errors
/// The guest-facing message: no paired nodes, an unpaired id, an unknown
/// id or name, or a name shared by several nodes.
pub fn resolve(paired: &[NodeInfo], unpaired: &[String], query: &str) -> Result<ResolvedNode, String> {
    let found = |n: &NodeInfo| ResolvedNode {
        id: n.id.clone(),
        name: n.name.clone(),
        list_dir_command: n.commands.iter().any(|c| c == LIST_DIR_COMMAND).then(|| LIST_DIR_COMMAND.to_owned()),
    };
    if let Some(n) = paired.iter().find(|n| n.id == query) {
        return Ok(found(n));
    }
    if paired.is_empty() {
        return Err("no paired nodes".to_owned());
    }
    for exact in [true, false] {
        let matches: Vec<&NodeInfo> = paired
            .iter()
            .filter(|n| if exact { n.name == query } else { n.name.to_lowercase() == query.to_lowercase() })
            .collect();
        match matches.as_slice() {
            [] => {}
            [one] => return Ok(found(one)),
            many => {
                let mut which: Vec<&str> = many.iter().map(|n| n.id.as_str()).collect();
                which.sort_unstable();
                return Err(format!(
                    "node name \"{query}\" matches several paired nodes: {}; use an id (paired node ids: {})",
                    which.join(", "),
                    ids(paired)
                ));
            }
        }
    }
    if unpaired.iter().any(|id| id == query) {
        return Err(format!("node \"{query}\" is not paired (paired node ids: {})", ids(paired)));
    }
    Err(format!("unknown node \"{query}\" (paired node ids: {})", ids(paired)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: &str, name: &str, commands: &[&str]) -> NodeInfo {
        NodeInfo {
            id: id.into(),
            name: name.into(),
            platform: "linux".into(),
            connected: true,
            commands: commands.iter().map(|c| (*c).to_owned()).collect(),
            last_seen_ms: None,
        }
    }

    #[test]
    fn an_exact_id_wins_over_another_nodes_display_name_ga_10_2() {
        let paired = [node("desk", "Laptop", &[]), node("n2", "desk", &[])];
        assert_eq!(resolve(&paired, &[], "desk").unwrap().id, "desk");
        assert_eq!(resolve(&paired, &[], "Laptop").unwrap().id, "desk");
        assert_eq!(resolve(&paired, &[], "laptop").unwrap().id, "desk", "case-insensitive name as a last resort");
    }

    #[test]
    fn resolution_failures_name_what_was_wrong_ga_10_2() {
        assert_eq!(resolve(&[], &[], "x").unwrap_err(), "no paired nodes");
        let paired = [node("b", "Phone", &[]), node("a", "Phone", &[])];
        assert_eq!(
            resolve(&paired, &[], "Phone").unwrap_err(),
            "node name \"Phone\" matches several paired nodes: a, b; use an id (paired node ids: a, b)"
        );
        assert_eq!(
            resolve(&paired, &["z".into()], "z").unwrap_err(),
            "node \"z\" is not paired (paired node ids: a, b)"
        );
        assert_eq!(resolve(&paired, &[], "q").unwrap_err(), "unknown node \"q\" (paired node ids: a, b)");
    }

    #[test]
    fn list_dir_is_offered_only_when_advertised_ga_10_4() {
        let paired = [node("a", "A", &["device.status"]), node("b", "B", &["fs.listDir"])];
        assert_eq!(resolve(&paired, &[], "a").unwrap().list_dir_command, None);
        assert_eq!(resolve(&paired, &[], "b").unwrap().list_dir_command.as_deref(), Some("fs.listDir"));
    }
}
