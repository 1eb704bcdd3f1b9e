//! `nodes.get(idOrName)` resolution (GA-10.2): plain logic over the
//! registry's snapshot.

use serde::Serialize;

use crate::node::NodeInfo;
use crate::protocol::LIST_DIR_COMMAND;

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

/// Why `nodes.get` found no node. The text is what the guest reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// No node is paired.
    #[error("no paired nodes")]
    NoPairedNodes,
    /// The query is the display name of several paired nodes.
    #[error(
        "node name \"{query}\" matches several paired nodes: {}; use an id (paired node ids: {})",
        .matches.join(", "),
        .paired.join(", ")
    )]
    Ambiguous {
        /// The name asked for.
        query: String,
        /// The ids of the nodes with that name, sorted.
        matches: Vec<String>,
        /// Every paired node's id, sorted.
        paired: Vec<String>,
    },
    /// The query is the id of a known node that is not paired (refused or
    /// revoked).
    #[error("node \"{query}\" is not paired (paired node ids: {})", .paired.join(", "))]
    NotPaired {
        /// The id asked for.
        query: String,
        /// Every paired node's id, sorted.
        paired: Vec<String>,
    },
    /// No node has this id or name.
    #[error("unknown node \"{query}\" (paired node ids: {})", .paired.join(", "))]
    Unknown {
        /// The id or name asked for.
        query: String,
        /// Every paired node's id, sorted.
        paired: Vec<String>,
    },
}

fn ids(paired: &[NodeInfo]) -> Vec<String> {
    let mut ids: Vec<String> = paired.iter().map(|n| n.id.clone()).collect();
    ids.sort_unstable();
    ids
}

/// Resolves `query` among the paired nodes: an exact id first, then an
/// exact display name, then a display name ignoring case. `unpaired` holds
/// ids that are known but not paired (refused or revoked nodes).
///
/// # Errors
/// [`ResolveError`]: no paired nodes, an unpaired id, an unknown id or
/// name, or a name shared by several nodes.
pub fn resolve(paired: &[NodeInfo], unpaired: &[String], query: &str) -> Result<ResolvedNode, ResolveError> {
    let found = |n: &NodeInfo| ResolvedNode {
        id: n.id.clone(),
        name: n.name.clone(),
        list_dir_command: n.commands.iter().any(|c| c == LIST_DIR_COMMAND).then(|| LIST_DIR_COMMAND.to_owned()),
    };
    if let Some(n) = paired.iter().find(|n| n.id == query) {
        return Ok(found(n));
    }
    if paired.is_empty() {
        return Err(ResolveError::NoPairedNodes);
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
                let mut matches: Vec<String> = many.iter().map(|n| n.id.clone()).collect();
                matches.sort_unstable();
                return Err(ResolveError::Ambiguous { query: query.to_owned(), matches, paired: ids(paired) });
            }
        }
    }
    if unpaired.iter().any(|id| id == query) {
        return Err(ResolveError::NotPaired { query: query.to_owned(), paired: ids(paired) });
    }
    Err(ResolveError::Unknown { query: query.to_owned(), paired: ids(paired) })
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
        assert_eq!(resolve(&[], &[], "x").unwrap_err().to_string(), "no paired nodes");
        let paired = [node("b", "Phone", &[]), node("a", "Phone", &[])];
        assert_eq!(
            resolve(&paired, &[], "Phone").unwrap_err().to_string(),
            "node name \"Phone\" matches several paired nodes: a, b; use an id (paired node ids: a, b)"
        );
        assert_eq!(
            resolve(&paired, &["z".into()], "z").unwrap_err().to_string(),
            "node \"z\" is not paired (paired node ids: a, b)"
        );
        assert_eq!(resolve(&paired, &[], "q").unwrap_err().to_string(), "unknown node \"q\" (paired node ids: a, b)");
    }

    #[test]
    fn list_dir_is_offered_only_when_advertised_ga_10_4() {
        let paired = [node("a", "A", &["device.status"]), node("b", "B", &["fs.listDir"])];
        assert_eq!(resolve(&paired, &[], "a").unwrap().list_dir_command, None);
        assert_eq!(resolve(&paired, &[], "b").unwrap().list_dir_command.as_deref(), Some("fs.listDir"));
    }
}
