//! The node registry as the rest of this crate sees it.
//!
//! With the `nodes` feature this is `codemode_nodes::NodeRegistry`.
//! Without it, an uninhabited [`NodeRegistry`] stands in: the runtime's
//! `Option<NodeRegistry>` is always `None`, so cells take the path they
//! take when nodes are not enabled — `nodes.list()` resolves `[]`,
//! `nodes.get(…)` rejects with "no paired nodes" — and nothing links the
//! WebSocket gateway. Code under `cell/` names the registry through
//! `crate::nodes`, never `codemode_nodes`, so it builds either way without
//! `cfg`s of its own.

#[cfg(feature = "nodes")]
pub(crate) use codemode_nodes::NodeRegistry;

#[cfg(not(feature = "nodes"))]
pub(crate) use off::NodeRegistry;

#[cfg(not(feature = "nodes"))]
mod off {
    use std::convert::Infallible;

    use ractor::ActorCell;
    use serde_json::Value;

    /// The node registry without the `nodes` feature: there is none.
    #[derive(Clone, Debug)]
    pub(crate) enum NodeRegistry {}

    impl NodeRegistry {
        /// Never called.
        pub(crate) fn list(&self) -> Vec<Value> {
            match *self {}
        }

        /// Never called.
        pub(crate) fn resolve(&self, _query: &str) -> Result<Value, Infallible> {
            match *self {}
        }

        /// Never called.
        pub(crate) fn offers(&self, _id: &str, _command: &str) -> bool {
            match *self {}
        }

        /// Never called.
        pub(crate) async fn invoke_allowed(
            &self,
            _id: &str,
            _command: &str,
            _params: Value,
        ) -> Result<Value, Infallible> {
            match *self {}
        }

        /// Never called.
        pub(crate) fn actor_cell(&self) -> ActorCell {
            match *self {}
        }

        /// Never called.
        pub(crate) fn stop(&self) {
            match *self {}
        }

        /// Never called.
        pub(crate) async fn restart(&self, _supervisor: ActorCell) -> Result<ActorCell, Infallible> {
            match *self {}
        }

        /// Never called.
        #[cfg(feature = "test-hooks")]
        pub(crate) fn crash_for_test(&self) -> bool {
            match *self {}
        }
    }
}
