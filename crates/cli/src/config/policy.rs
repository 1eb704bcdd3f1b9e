//! `[[policy]]`: rules over every nested call a cell makes (native tools,
//! MCP tools, node commands). The first rule whose globs all match
//! decides: `allow`, `deny` (the model is told the reason) or `ask` (the
//! cell parks with a pending approval a `wait` or an operator decides). No
//! rule matching allows the call.
//!
//! ```toml
//! [[policy]]
//! tool = "deploy_*"
//! action = "ask"
//! reason = "deploys need a person"
//! ```

use anyhow::{Result, bail};
use codemode_runtime::{CALL_SOURCES, Decision, DecisionFuture, NestedCall, Policy};
use globset::{Glob, GlobMatcher};
use serde::{Deserialize, Serialize};

/// The most rules a configuration may have (each is tried per call).
pub(crate) const MAX_RULES: usize = 256;

/// What a rule does with the calls it matches.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Action {
    /// Run the call.
    Allow,
    /// Refuse it; the model is told the reason.
    Deny,
    /// Ask a person first.
    Ask,
}

/// One `[[policy]]` rule. A glob left out matches everything.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PolicyRule {
    /// A glob over the call's source: `native` (the host's tools),
    /// `client`, `mcp`, `nodes` or `results` ([`CALL_SOURCES`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The MCP server's name, or the node's id. A call without one (a
    /// native tool) matches only a rule without `server`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// The tool's own name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    pub action: Action,
    /// Shown to the model (deny) or the approver (ask).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl PolicyRule {
    /// Checks rule `i`'s globs and reason.
    pub(crate) fn check(&self, i: usize) -> Result<()> {
        for (key, glob) in [("source", &self.source), ("server", &self.server), ("tool", &self.tool)] {
            if let Some(glob) = glob
                && let Err(e) = Glob::new(glob)
            {
                bail!("policy[{i}].{key} = {glob:?} is not a valid glob: {e}");
            }
        }
        // A source glob that matches no source would silently never apply;
        // `openclaw` is what native tools were called before `native`.
        if let Some(glob) = &self.source
            && let Ok(glob) = Glob::new(glob)
        {
            let matcher = glob.compile_matcher();
            if !CALL_SOURCES.iter().any(|s| matcher.is_match(s)) {
                let hint = if matcher.is_match("openclaw") {
                    " (native tools were called \"openclaw\" before: write \"native\")"
                } else {
                    ""
                };
                bail!(
                    "policy[{i}].source = {:?} matches no call source{hint}; sources are {}",
                    glob.glob(),
                    CALL_SOURCES.join(", ")
                );
            }
        }
        if self.reason.as_ref().is_some_and(|r| r.len() > 1024) {
            bail!("policy[{i}].reason is longer than 1024 bytes");
        }
        Ok(())
    }

    /// How the rule reads in `config check`.
    pub(crate) fn describe(&self) -> String {
        let glob = |g: &Option<String>| g.clone().unwrap_or_else(|| "*".to_owned());
        let action = match self.action {
            Action::Allow => "allow",
            Action::Deny => "deny",
            Action::Ask => "ask",
        };
        let reason = self.reason.as_ref().map(|r| format!(" ({r})")).unwrap_or_default();
        format!(
            "source={} server={} tool={} -> {action}{reason}",
            glob(&self.source),
            glob(&self.server),
            glob(&self.tool)
        )
    }
}

/// A rule with its globs compiled.
struct Compiled {
    source: Option<GlobMatcher>,
    server: Option<GlobMatcher>,
    tool: Option<GlobMatcher>,
    action: Action,
    reason: String,
}

/// The `[[policy]]` rules as the runtime's [`Policy`].
pub(crate) struct RulesPolicy(Vec<Compiled>);

impl RulesPolicy {
    /// Compiles checked rules.
    pub(crate) fn new(rules: &[PolicyRule]) -> Result<Self> {
        let glob = |g: &Option<String>| -> Result<Option<GlobMatcher>> {
            Ok(match g {
                Some(g) => Some(Glob::new(g)?.compile_matcher()),
                None => None,
            })
        };
        let compiled = rules
            .iter()
            .map(|r| {
                Ok(Compiled {
                    source: glob(&r.source)?,
                    server: glob(&r.server)?,
                    tool: glob(&r.tool)?,
                    action: r.action,
                    reason: r.reason.clone().unwrap_or_else(|| "the host's policy".to_owned()),
                })
            })
            .collect::<Result<_>>()?;
        Ok(Self(compiled))
    }

    /// The decision for one call.
    fn decide(&self, source: &str, server: Option<&str>, tool: &str) -> Decision {
        let matches = |g: &Option<GlobMatcher>, s: Option<&str>| match (g, s) {
            (None, _) => true,
            (Some(g), Some(s)) => g.is_match(s),
            (Some(_), None) => false,
        };
        let rule = self
            .0
            .iter()
            .find(|r| matches(&r.source, Some(source)) && matches(&r.server, server) && matches(&r.tool, Some(tool)));
        match rule {
            None => Decision::Allow,
            Some(r) => match r.action {
                Action::Allow => Decision::Allow,
                Action::Deny => Decision::Deny(r.reason.clone()),
                Action::Ask => Decision::Ask(r.reason.clone()),
            },
        }
    }
}

impl Policy for RulesPolicy {
    fn inspects_calls(&self) -> bool {
        !self.0.is_empty()
    }

    fn check(&self, call: NestedCall) -> DecisionFuture {
        Box::pin(std::future::ready(self.decide(call.source.as_str(), call.server.as_deref(), &call.tool)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(tool: &str, action: Action) -> PolicyRule {
        PolicyRule { source: None, server: None, tool: Some(tool.into()), action, reason: Some(format!("{tool} rule")) }
    }

    #[test]
    fn the_first_matching_rule_decides_and_no_match_allows() {
        let rules = [
            rule("deploy_staging", Action::Allow),
            rule("deploy_*", Action::Ask),
            PolicyRule { server: Some("prod-*".into()), ..rule("*", Action::Deny) },
        ];
        let p = RulesPolicy::new(&rules).unwrap();
        assert_eq!(p.decide("native", None, "deploy_staging"), Decision::Allow);
        assert_eq!(p.decide("native", None, "deploy_prod"), Decision::Ask("deploy_* rule".into()));
        assert_eq!(p.decide("mcp", Some("prod-db"), "query"), Decision::Deny("* rule".into()));
        assert_eq!(p.decide("mcp", Some("dev-db"), "query"), Decision::Allow);
        assert_eq!(
            p.decide("native", None, "query"),
            Decision::Allow,
            "a rule with a server never matches a native tool"
        );
        assert!(!RulesPolicy::new(&[]).unwrap().inspects_calls(), "no rules cost nothing per call");
    }

    #[test]
    fn a_bad_glob_names_its_rule_and_key() {
        let bad = PolicyRule { tool: Some("deploy_[".into()), ..rule("x", Action::Ask) };
        let e = bad.check(3).unwrap_err().to_string();
        assert!(e.starts_with("policy[3].tool = \"deploy_[\" is not a valid glob"), "{e}");
    }

    #[test]
    fn a_source_glob_that_matches_no_call_source_is_refused_and_the_old_native_name_says_what_to_write_ga_8_4() {
        let old = PolicyRule { source: Some("openclaw".into()), ..rule("deploy_*", Action::Ask) };
        let e = old.check(0).unwrap_err().to_string();
        assert!(e.starts_with("policy[0].source = \"openclaw\" matches no call source"), "{e}");
        assert!(e.contains("write \"native\"") && e.contains("native, client, mcp, nodes, results"), "{e}");
        let typo = PolicyRule { source: Some("mpc".into()), ..rule("x", Action::Deny) };
        let e = typo.check(1).unwrap_err().to_string();
        assert!(e.contains("matches no call source;") && !e.contains("openclaw"), "{e}");
        for fine in ["native", "nat*", "{mcp,nodes}", "*"] {
            PolicyRule { source: Some(fine.into()), ..rule("x", Action::Allow) }.check(0).unwrap();
        }
    }
}
