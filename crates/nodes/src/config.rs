//! How the registry behaves: which commands may run where, the invoke
//! timeout, the pre-approved tokens and where pairing codes are shown.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// Which commands each node may run, decided at the gateway: a command a
/// node advertises but the policy does not allow never leaves the gateway.
///
/// An entry is a command name, or a prefix ending in `.*` (`fs.*`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandPolicy {
    /// Commands allowed on nodes without their own entry; `None` allows
    /// every advertised command.
    pub default: Option<Vec<String>>,
    /// Per node id: the commands allowed on that node.
    pub per_node: BTreeMap<String, Vec<String>>,
}

impl CommandPolicy {
    /// Whether `command` may run on `node`.
    #[must_use]
    pub fn allows(&self, node: &str, command: &str) -> bool {
        let matches = |list: &Vec<String>| {
            list.iter().any(|p| match p.strip_suffix('*') {
                Some(prefix) if prefix.ends_with('.') => command.starts_with(prefix),
                _ => p == command,
            })
        };
        match self.per_node.get(node).or(self.default.as_ref()) {
            Some(list) => matches(list),
            None => true,
        }
    }
}

/// Shows a new pairing code to the operator.
pub type CodeCallback = Arc<dyn Fn(&str) + Send + Sync>;

/// How the registry behaves.
#[derive(Clone)]
pub struct NodesConfig {
    /// Pre-approved tokens: a node presenting one pairs without a code.
    pub tokens: Vec<String>,
    /// The command policy.
    pub commands: CommandPolicy,
    /// How long one `invoke` may take before it is cancelled.
    pub invoke_timeout: Duration,
    /// Called with each new pairing code (at start, and after one is used,
    /// expires or is replaced after repeated wrong codes, see
    /// [`crate::GatewayLimits::rotate_code_after`]), so the operator can
    /// read it.
    pub on_code: Option<CodeCallback>,
}

impl std::fmt::Debug for NodesConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodesConfig")
            .field("tokens", &self.tokens.len())
            .field("commands", &self.commands)
            .field("invoke_timeout", &self.invoke_timeout)
            .finish_non_exhaustive()
    }
}

impl Default for NodesConfig {
    fn default() -> Self {
        Self {
            tokens: Vec::new(),
            commands: CommandPolicy::default(),
            invoke_timeout: Duration::from_secs(30),
            on_code: None,
        }
    }
}

#[cfg(test)]
mod tests {
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
}
