//! [`OperatorEndpoints`]: what answers `/operator/…` and `/console…` on
//! `serve --http`.

use std::sync::Arc;

use codemode_runtime::CodeMode;

use super::auth::{ConsoleSessions, Tokens};
use super::figures::Figures;
use super::http::{Body, Request};
use crate::config::{OperatorSection, ServeSection};

/// The operator endpoints of one server.
pub(crate) struct OperatorEndpoints {
    pub(super) rt: CodeMode,
    pub(super) tokens: Tokens,
    pub(super) sessions: ConsoleSessions,
    pub(super) figures: Arc<Figures>,
}

impl OperatorEndpoints {
    /// The endpoints, when `[operator] tokens` names anyone (else the
    /// paths are not served at all). Starts sampling the process's figures
    /// for the console's charts until `stop` resolves.
    pub(crate) fn new(
        rt: &CodeMode,
        operator: &OperatorSection,
        serve: &ServeSection,
        stop: impl Future<Output = ()> + Send + 'static,
    ) -> Option<Arc<Self>> {
        let tokens = Tokens::new(operator, serve);
        if !tokens.any() {
            return None;
        }
        let figures = Arc::new(Figures::default());
        tokio::spawn(Arc::clone(&figures).sample(rt.clone(), stop));
        Some(Arc::new(Self { rt: rt.clone(), tokens, sessions: ConsoleSessions::default(), figures }))
    }

    /// Whether `path` is one of these endpoints'.
    pub(crate) fn serves(path: &str) -> bool {
        path == "/operator" || path.starts_with("/operator/") || path == "/console" || path.starts_with("/console/")
    }

    /// Answers a request for one of [`serves`](Self::serves)'s paths.
    pub(crate) async fn handle(&self, request: Request) -> hyper::Response<Body> {
        if request.uri().path().starts_with("/operator") {
            self.api(request).await
        } else {
            self.console(request).await
        }
    }
}
