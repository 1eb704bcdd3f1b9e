//! What the operator endpoints share of HTTP: bounded request bodies and
//! JSON answers.

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::StatusCode;
use serde::Serialize;

/// The response body every endpoint of `serve --http` answers with.
pub(crate) type Body = http_body_util::combinators::BoxBody<Bytes, std::convert::Infallible>;

/// A request as hyper hands it over.
pub(crate) type Request = hyper::Request<hyper::body::Incoming>;

/// The largest request body read: a decision or a sign-in is far smaller.
pub(crate) const MAX_BODY_BYTES: usize = 16 * 1024;

/// A body read: JSON, form pairs, or why it was refused.
pub(crate) enum Parsed<T> {
    Json(T),
    Refused(String),
}

/// Reads a bounded body.
pub(crate) async fn read_bytes(request: Request) -> Result<Bytes, String> {
    match http_body_util::Limited::new(request.into_body(), MAX_BODY_BYTES).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => {
            Err(format!("the request body is larger than {MAX_BODY_BYTES} bytes"))
        }
        Err(e) => Err(format!("the request body could not be read: {e}")),
    }
}

/// Reads a bounded JSON body.
pub(crate) async fn read_body(request: Request) -> Parsed<serde_json::Value> {
    match read_bytes(request).await {
        Ok(bytes) => match serde_json::from_slice(&bytes) {
            Ok(value) => Parsed::Json(value),
            Err(e) => Parsed::Refused(format!("the request body is not JSON: {e}")),
        },
        Err(message) => Parsed::Refused(message),
    }
}

/// A response of `status` with `body` and `content_type`, never cached.
pub(crate) fn response(
    status: StatusCode,
    content_type: &'static str,
    body: impl Into<Bytes>,
) -> hyper::Response<Body> {
    let mut response = hyper::Response::new(http_body_util::Full::new(body.into()).boxed());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static(content_type));
    headers.insert(hyper::header::CACHE_CONTROL, hyper::header::HeaderValue::from_static("no-store"));
    headers.insert("x-content-type-options", hyper::header::HeaderValue::from_static("nosniff"));
    response
}

/// `value` as a JSON response.
pub(crate) fn json_response(status: StatusCode, value: &impl Serialize) -> hyper::Response<Body> {
    match serde_json::to_vec(value) {
        Ok(bytes) => response(status, "application/json", bytes),
        Err(e) => response(
            StatusCode::INTERNAL_SERVER_ERROR,
            "application/json",
            serde_json::json!({ "error": format!("the answer could not be written: {e}") }).to_string(),
        ),
    }
}
