//! The event stream over a real port: `serve` on a free port, a plain HTTP client reading the
//! server-sent events as they arrive.

mod common;

use http_body_util::{BodyExt, Empty};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solver_events_arrive_as_a_stream_over_http() {
    let addr = common::start_server().await;
    let client = Client::builder(TokioExecutor::new()).build_http::<Empty<bytes::Bytes>>();
    let uri = format!("http://{addr}/api/solve?n=12&solver=min-conflicts-minton&seed=2&fix=a1")
        .parse()
        .unwrap();
    let response = client.get(uri).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut body = response.into_body();
    let mut text = String::new();
    let mut frames = 0;
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame.unwrap().into_data() {
            frames += 1;
            text.push_str(std::str::from_utf8(&data).unwrap());
        }
    }
    let events: Vec<Value> = text
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .map(|data| serde_json::from_str(data).unwrap())
        .collect();
    assert!(frames > 1, "the events came in pieces, as a stream");
    assert_eq!(events.first().unwrap()["type"], "started");
    assert!(events.iter().any(|e| e["type"] == "move"));
    assert!(events.iter().all(|e| e["type"].is_string()));
    let finished = events.last().unwrap();
    assert_eq!(finished["type"], "finished");
    assert_eq!(finished["solved"], true);
    let queens: Vec<queens_core::Square> =
        serde_json::from_value(finished["queens"].clone()).unwrap();
    assert!(
        queens.contains(&queens_core::Square::new(0, 0)),
        "the locked queen stays"
    );
    let board = queens_core::Board::with_queens(12, 12, queens).unwrap();
    assert!(queens_core::verify::verify(&board).is_solution());
}
