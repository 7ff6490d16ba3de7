//! The web API's request bodies and query strings through the whole router, with small limits
//! so that every accepted job finishes at once.
#![no_main]

use std::sync::OnceLock;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use queens_web::{AppState, ServeLimits, app};
use tower::ServiceExt;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

fn state() -> &'static AppState {
    static STATE: OnceLock<AppState> = OnceLock::new();
    STATE.get_or_init(|| {
        AppState::new(ServeLimits {
            job_time: Duration::from_millis(200),
            configure_max_n: 9,
            solve_max_n: 9,
            solve_max_events: 2_000,
            solve_max_nodes: 20_000,
            count_max_n: 7,
            experiment_max_n: 8,
            experiment_max_runs: 20,
            experiment_max_cpu_seconds: 0.05,
            ..ServeLimits::default()
        })
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest).into_owned();
    let request = match selector % 4 {
        0 => Request::post("/api/configure")
            .header("content-type", "application/json")
            .body(Body::from(text)),
        1 => Request::post("/api/experiment")
            .header("content-type", "application/json")
            .body(Body::from(text)),
        2 => Request::get(format!("/api/solve?{}", escape(&text))).body(Body::empty()),
        _ => Request::get(format!("/api/count?{}", escape(&text))).body(Body::empty()),
    };
    let Ok(request) = request else {
        return;
    };
    runtime().block_on(async {
        let response = app(state().clone()).oneshot(request).await.expect("infallible");
        let status = response.status();
        let body = response.into_body().collect().await.expect("a body").to_bytes();
        assert_ne!(status, StatusCode::INTERNAL_SERVER_ERROR, "{}", String::from_utf8_lossy(&body));
        if !status.is_success() {
            let error: serde_json::Value =
                serde_json::from_slice(&body).expect("every error is JSON");
            assert!(error["error"].is_string());
        }
    });
});

/// The query as a URI allows it: bytes outside its character set percent-encoded.
fn escape(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"=&,.-_~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
