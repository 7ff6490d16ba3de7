//! The API fuzzer's corpus (`fuzz/corpus/api`) as a regression test: every body and query
//! string it kept goes through the router again, and every answer is a success or a JSON error,
//! never a 500.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use queens_web::{AppState, ServeLimits, app};
use tower::ServiceExt;

#[path = "../../../fuzz/corpus_files.rs"]
mod corpus_files;

use corpus_files::corpus;

/// The fuzz target's small limits, so that every accepted job finishes at once.
fn state() -> AppState {
    AppState::new(ServeLimits {
        job_time: Duration::from_millis(200),
        configure_max_n: 9,
        solve_max_n: 9,
        solve_max_events: 2_000,
        solve_max_nodes: 20_000,
        count_max_n: 7,
        experiment_max_n: 8,
        experiment_max_cpu_seconds: 0.05,
        experiment_time: Duration::from_millis(200),
        ..ServeLimits::default()
    })
}

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

#[tokio::test]
async fn the_api_corpus() {
    let state = state();
    for input in corpus("api") {
        let Some((&selector, rest)) = input.split_first() else {
            continue;
        };
        let text = String::from_utf8_lossy(rest).into_owned();
        let request = match selector % 4 {
            0 => Request::post("/api/configure")
                .header("host", "localhost")
                .header("content-type", "application/json")
                .body(Body::from(text)),
            1 => Request::post("/api/experiment")
                .header("host", "localhost")
                .header("content-type", "application/json")
                .body(Body::from(text)),
            2 => Request::get(format!("/api/solve?{}", escape(&text)))
                .header("host", "localhost")
                .body(Body::empty()),
            _ => Request::get(format!("/api/count?{}", escape(&text)))
                .header("host", "localhost")
                .body(Body::empty()),
        };
        let Ok(request) = request else {
            continue;
        };
        let response = app(state.clone()).oneshot(request).await.unwrap();
        let status = response.status();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        assert_ne!(status, StatusCode::INTERNAL_SERVER_ERROR);
        if !status.is_success() {
            let error: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert!(error["error"].is_string());
        }
    }
}
