//! What the API tests share: requests sent through `app()` without a socket, their refusals,
//! and a server on a free port for the socket tests.
#![allow(
    dead_code,
    reason = "each test binary that includes this module uses only some helpers"
)]

use std::net::SocketAddr;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::response::Response;
use http_body_util::BodyExt;
use queens_web::{AppState, ServeLimits, app, serve};
use tower::ServiceExt;

/// Every route that takes a JSON body by POST.
pub const POST_ROUTES: [&str; 5] = [
    "/api/configure",
    "/api/instance",
    "/api/neighbourhood",
    "/api/experiment",
    "/api/experiment/stream",
];

/// A state with the default limits.
pub fn state() -> AppState {
    AppState::new(ServeLimits::default())
}

/// Sends `request` through the app: its response, the body still to be read.
pub async fn respond(state: &AppState, request: Request<Body>) -> Response {
    app(state.clone()).oneshot(request).await.unwrap()
}

/// Sends `request` through the app: the status and the body as text.
pub async fn send(state: &AppState, request: Request<Body>) -> (StatusCode, String) {
    let response = respond(state, request).await;
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap())
}

/// A JSON `POST` from the page's own host.
pub fn post(uri: &str, body: impl Into<String>) -> Request<Body> {
    Request::post(uri)
        .header("host", "localhost")
        .header("content-type", "application/json")
        .body(Body::from(body.into()))
        .unwrap()
}

/// `request` with each of `headers` set, in place of any it had of that name.
pub fn with_headers(mut request: Request<Body>, headers: &[(&'static str, &str)]) -> Request<Body> {
    for &(name, value) in headers {
        let value = axum::http::HeaderValue::from_str(value).unwrap();
        request.headers_mut().insert(name, value);
    }
    request
}

/// A `GET` from the page's own host.
pub fn get(uri: &str) -> Request<Body> {
    Request::get(uri)
        .header("host", "localhost")
        .body(Body::empty())
        .unwrap()
}

/// Sends `request`, expecting a stream of server-sent events: the JSON object of each event.
pub async fn events_of(state: &AppState, request: Request<Body>) -> Vec<serde_json::Value> {
    let (status, body) = send(state, request).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body.lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .map(|data| serde_json::from_str(data).unwrap())
        .collect()
}

/// Sends `request` and checks that it is refused with a 400 whose JSON `error` says `words`.
pub async fn assert_refused(state: &AppState, request: Request<Body>, words: &str) {
    let what = format!("{} {}", request.method(), request.uri());
    let (status, body) = send(state, request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{what}: {body}");
    let error: serde_json::Value = serde_json::from_str(&body).unwrap();
    let error = error["error"].as_str().unwrap();
    assert!(error.contains(words), "{what}: {error}");
}

/// Serves the page on a free port of 127.0.0.1 for the rest of the test; its address.
pub async fn start_server() -> SocketAddr {
    let (bound, address) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let any_port: SocketAddr = "127.0.0.1:0".parse().unwrap();
        serve(any_port, ServeLimits::default(), |addr| {
            let _ = bound.send(addr);
        })
        .await
        .unwrap();
    });
    address.await.unwrap()
}
