//! Requests an attacker or a careless client would send: each is refused with a JSON error, or
//! bounded, and no job keeps its slot after its client has gone or its time is up.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use queens_web::{AppState, ServeLimits, app};
use serde_json::Value;
use tower::ServiceExt;

mod common;

use common::{assert_refused, get, post, respond, with_headers};

/// Sends `request`: the status and the body, which must be JSON.
async fn send(state: &AppState, request: Request<Body>) -> (StatusCode, Value) {
    let (status, body) = common::send(state, request).await;
    let json =
        serde_json::from_str(&body).unwrap_or_else(|_| panic!("not JSON ({status}): {body}"));
    (status, json)
}

/// Waits until a request for a small count gets a slot again.
async fn slot_frees_within(state: &AppState, limit: Duration) -> Duration {
    let started = Instant::now();
    loop {
        let response = respond(state, get("/api/count?n=6")).await;
        if response.status() == StatusCode::OK {
            return started.elapsed();
        }
        assert!(started.elapsed() < limit, "the slot was never freed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn sizes_from_a_request_are_checked_before_anything_is_built() {
    let state = common::state();
    let huge_population = get("/api/solve?n=8&solver=genetic&population=4294967295");
    assert_refused(&state, huge_population, "population must be at most").await;
    // A board whose solver would need more than the server gives one job.
    let too_much_memory = get("/api/solve?n=1000&solver=genetic&population=100000");
    assert_refused(&state, too_much_memory, "at most 256.0 MiB").await;
    // Three parameters of 1000 values: 10⁹ combinations, counted, never built.
    let values: Vec<String> = (0..1000).map(|i| format!("0.{i:03}")).collect();
    let list = values.join(",");
    let sweep = format!(
        r#"{{"solvers": ["hill-climbing-decaying-shake"], "sizes": [8], "runs": 1,
            "sweep": {{"p": [{list}], "decay": [{list}], "q": [{list}]}}}}"#
    );
    let started = Instant::now();
    assert_refused(
        &state,
        post("/api/experiment", sweep),
        "at most 100000 cells",
    )
    .await;
    assert!(started.elapsed() < Duration::from_secs(2));
}

/// A board side is refused by the limit of where it is asked, however large: in a query and in
/// a posted body alike, past 2³²−1 and below 1 too, never in a number type's words.
#[tokio::test]
async fn a_side_past_the_servers_limit_is_refused_by_it_however_large() {
    let state = common::state();
    let most = ServeLimits::default().configure_max_n;
    // Past every machine number too (forty nines), where a JSON reader would say only that
    // the number is out of range; a long one is quoted as every refusal quotes a long token.
    let forty_nines = "9".repeat(40);
    let past = format!("{forty_nines}9");
    let below = format!("-{forty_nines}");
    for n in [
        "5000000000",
        "-3",
        "0",
        &(most + 1).to_string(),
        &forty_nines,
        &past,
        &below,
    ] {
        let quoted = queens_core::error::excerpt(n);
        let said = if n.starts_with('-') || n == "0" {
            format!("N must be at least 1, got {quoted}")
        } else {
            format!("N must be at most {most}, got {quoted}")
        };
        let body = format!(r#"{{"n": {n}, "queens": []}}"#);
        assert_refused(&state, post("/api/configure", body), &said).await;
    }
    let sizes_most = ServeLimits::default().experiment_max_n;
    for n in [
        "5000000000",
        "-3",
        "0",
        &(sizes_most + 1).to_string(),
        &past,
        &below,
    ] {
        let said = format!(
            "sizes must lie between 1 and {sizes_most} on this server, got {}",
            queens_core::error::excerpt(n)
        );
        let body = format!(r#"{{"solvers": ["min-conflicts"], "sizes": [8, {n}], "runs": 1}}"#);
        assert_refused(&state, post("/api/experiment", body), &said).await;
    }
    let count_most = ServeLimits::default().count_max_n;
    for n in ["5000000000", &"9".repeat(40)] {
        let said = format!("N must be at most {count_most}, got {n}");
        assert_refused(&state, get(&format!("/api/count?n={n}")), &said).await;
    }
}

#[tokio::test]
async fn every_error_is_json() {
    let state = common::state();
    let huge = format!(
        r#"{{"n": 8, "queens": [], "pad": "{}"}}"#,
        "x".repeat(ServeLimits::default().body_bytes)
    );
    let (status, body) = send(&state, post("/api/configure", huge)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(body["error"].as_str().unwrap().contains("too large"));
    let (status, _) = send(&state, get("/api/nothing")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = send(&state, get("/api/configure")).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    // A POST to a route that takes none is refused for its method, whatever its body says.
    for route in ["/api/solve?n=8", "/api/count?n=8", "/api/status", "/"] {
        for content_type in ["text/plain", "application/json"] {
            let request = with_headers(post(route, "{}"), &[("content-type", content_type)]);
            let (status, body) = send(&state, request).await;
            assert_eq!(
                status,
                StatusCode::METHOD_NOT_ALLOWED,
                "{route} {content_type}"
            );
            assert_eq!(
                body["error"], "this route does not take that method",
                "{route}"
            );
        }
    }
    // Every route that takes a POST refuses a body that does not say it is JSON.
    for route in common::POST_ROUTES {
        let form = with_headers(
            post(route, r#"{"n": 8}"#),
            &[("content-type", "application/x-www-form-urlencoded")],
        );
        let (status, body) = send(&state, form).await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{route}");
        assert!(body["error"].as_str().unwrap().contains("application/json"));
    }
}

/// A body that is JSON but not the route's is refused in JSON's words, naming the field: never
/// the Rust types it is read into (`struct ExperimentRequest`, `u64`, `a sequence`).
#[tokio::test]
async fn a_malformed_body_is_refused_in_jsons_words() {
    let state = common::state();
    let rust_words = [
        "struct", "Request", "u32", "u64", "usize", "f64", "sequence", " map",
    ];
    let refusal = |route: &'static str, body: &'static str| {
        let state = state.clone();
        async move {
            let (status, document) = send(&state, post(route, body)).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{route} {body}");
            let error = document["error"].as_str().unwrap().to_owned();
            for word in rust_words {
                assert!(!error.contains(word), "{route} {body}: {error}");
            }
            error
        }
    };
    for route in common::POST_ROUTES {
        for (body, found) in [
            ("[]", "array"),
            ("[1, 2]", "array"),
            ("5", "number"),
            ("-1.5e3", "number"),
            ("\"x\"", "string"),
            ("false", "boolean"),
            ("null", "null"),
        ] {
            let error = refusal(route, body).await;
            assert!(
                error.starts_with(&format!(
                    "malformed request: the body: invalid type: {found}, expected an object"
                )),
                "{route} {body}: {error}"
            );
        }
    }
    for (route, body, says) in [
        (
            "/api/experiment",
            r#"{"solvers": ["backtracking"], "sizes": [8], "runs": "x"}"#,
            "runs: invalid type: string \"x\", expected a whole number of 0 or more",
        ),
        (
            "/api/experiment",
            r#"{"solvers": ["backtracking"], "sizes": "8", "runs": 1}"#,
            "sizes: invalid type: string \"8\", expected an array",
        ),
        (
            "/api/experiment/stream",
            r#"{"solvers": ["genetic"], "sizes": [8], "runs": 1, "sweep": {"pop": "x"}}"#,
            "sweep.pop: invalid type: string \"x\", expected an array",
        ),
        (
            "/api/configure",
            r#"{"n": 8, "queens": [{"row": 1.5, "col": 0}]}"#,
            "queens[0].row: invalid type: number `1.5`, expected a whole number from 0 to",
        ),
        (
            "/api/configure",
            r#"{"n": 8, "queens": [[0]]}"#,
            "queens[0]: invalid type: array, expected an object",
        ),
        (
            "/api/neighbourhood",
            r#"{"rows": [0, -1]}"#,
            "rows[1]: invalid value: integer `-1`, expected a whole number from 0 to",
        ),
        (
            "/api/instance",
            r#"{"text": "x", "diagonals": -2}"#,
            "diagonals: invalid value: integer `-2`, expected a whole number of 0 or more",
        ),
    ] {
        let error = refusal(route, body).await;
        assert!(error.contains(says), "{route} {body}: {error}");
    }
}

#[tokio::test]
async fn other_sites_cannot_use_the_server() {
    let state = common::state();
    let foreign = |origin: &str, host: &str| {
        let request = post("/api/configure", r#"{"n": 6}"#);
        with_headers(request, &[("host", host), ("origin", origin)])
    };
    let (status, body) = send(&state, foreign("https://evil.example", "127.0.0.1:7878")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(body["error"].as_str().unwrap().contains("--allow-origin"));
    // A name rebound to 127.0.0.1: the page is "same-origin", but the host is not ours.
    let (status, _) = send(
        &state,
        foreign("http://evil.example:7878", "evil.example:7878"),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // The server's own page, and an origin the operator allowed.
    let (status, _) = send(&state, foreign("http://127.0.0.1:7878", "127.0.0.1:7878")).await;
    assert_eq!(status, StatusCode::OK);
    let allowed = AppState::new(ServeLimits {
        allowed_origins: vec!["https://queens.example.org".into()],
        ..ServeLimits::default()
    });
    let (status, _) = send(
        &allowed,
        foreign("https://queens.example.org", "queens.example.org"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn an_experiment_whose_client_leaves_frees_its_slot() {
    // No cost bound here: the cancellation is what is tested.
    let state = AppState::new(ServeLimits {
        jobs: 1,
        jobs_per_client: 1,
        experiment_max_cpu_seconds: f64::INFINITY,
        ..ServeLimits::default()
    });
    let endless = post(
        "/api/experiment",
        r#"{"solvers": ["hill-climbing"], "sizes": [60], "runs": 20000, "max_iters": 1000000000000000}"#,
    );
    let client = tokio::spawn(app(state.clone()).oneshot(endless));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, _) = send(&state, get("/api/count?n=6")).await;
    assert_eq!(
        status,
        StatusCode::TOO_MANY_REQUESTS,
        "the experiment holds the slot"
    );
    client.abort();
    let took = slot_frees_within(&state, Duration::from_secs(5)).await;
    assert!(took < Duration::from_secs(2), "freed after {took:?}");
}

#[tokio::test]
async fn a_client_that_never_reads_loses_its_slot_at_the_time_limit() {
    let state = AppState::new(ServeLimits {
        jobs: 1,
        jobs_per_client: 1,
        job_time: Duration::from_secs(1),
        ..ServeLimits::default()
    });
    // Brute force on 9×9 sends events far faster than anyone reads them; this client reads none.
    let response = respond(&state, get("/api/solve?n=9&solver=brute-force")).await;
    assert_eq!(response.status(), StatusCode::OK);
    let took = slot_frees_within(&state, Duration::from_secs(10)).await;
    assert!(took < Duration::from_secs(3), "freed after {took:?}");
    drop(response);
}

#[tokio::test]
async fn an_experiment_stops_at_the_time_limit_with_its_rows() {
    let state = AppState::new(ServeLimits {
        experiment_time: Duration::from_secs(1),
        experiment_max_cpu_seconds: f64::INFINITY,
        ..ServeLimits::default()
    });
    let started = Instant::now();
    let (status, body) = send(
        &state,
        post(
            "/api/experiment",
            r#"{"solvers": ["hill-climbing"], "sizes": [64], "runs": 20000, "max_iters": 100000}"#,
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(started.elapsed() < Duration::from_secs(4));
    assert_eq!(body["complete"], false);
    assert!(
        body["stop_reason"]
            .as_str()
            .unwrap()
            .starts_with("time limit")
    );
}

#[tokio::test]
async fn experiments_are_bounded_by_their_estimated_cost() {
    let state = common::state();
    for body in [
        r#"{"solvers": ["electric-force"], "sizes": [64], "runs": 20000}"#,
        r#"{"solvers": ["genetic"], "sizes": [64], "runs": 20000}"#,
        r#"{"solvers": ["hill-climbing"], "sizes": [60], "runs": 10, "max_iters": 1000000000000000}"#,
    ] {
        let started = Instant::now();
        let (status, error) = send(&state, post("/api/experiment", body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            error["error"].as_str().unwrap().contains("CPU seconds"),
            "{body}: {error}"
        );
        assert!(started.elapsed() < Duration::from_secs(1));
    }
    // The original study's comparison at N = 32 fits.
    let (status, body) = send(
        &state,
        post(
            "/api/experiment",
            r#"{"solvers": ["hill-climbing", "optimized-hill-climbing"], "sizes": [32], "runs": 50}"#,
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["complete"], true);
}

/// A cross-site `<img>` or `<script>` sends no Origin; its Fetch Metadata or Referer tells.
#[tokio::test]
async fn cross_site_gets_without_an_origin_cannot_start_work() {
    let state = common::state();
    let request = |name: &'static str, value: &str| {
        with_headers(
            get("/api/count?n=6"),
            &[("host", "127.0.0.1:7878"), (name, value)],
        )
    };
    for (name, value) in [
        ("sec-fetch-site", "cross-site"),
        ("sec-fetch-site", "same-site"),
        ("referer", "https://evil.example/page.html"),
    ] {
        let (status, body) = send(&state, request(name, value)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{name}: {value}: {body}");
    }
    let response = respond(&state, request("sec-fetch-site", "same-origin")).await;
    assert_eq!(response.status(), StatusCode::OK);
    // The page itself may be linked from any site.
    let response = respond(
        &state,
        Request::get("/")
            .header("host", "localhost")
            .header("sec-fetch-site", "cross-site")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn malformed_and_ambiguous_requests_are_refused() {
    let state = common::state();
    let two_hosts = Request::get("/api/solvers")
        .header("host", "127.0.0.1:7878")
        .header("host", "evil.example")
        .body(Body::empty())
        .unwrap();
    let (status, _) = send(&state, two_hosts).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Without a Host, the check against DNS rebinding would have nothing to check.
    for path in ["/api/solvers", "/"] {
        let no_host = Request::get(path).body(Body::empty()).unwrap();
        let response = respond(&state, no_host).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{path}");
    }
    let twice_in_the_query =
        get("/api/solve?n=8&solver=simulated-annealing&cooling=0.9&cooling=0.5");
    assert_refused(&state, twice_in_the_query, "given twice").await;
    for route in ["/api/solve", "/api/count", "/api/challenge"] {
        for nameless in ["=3", "%20=3"] {
            let request = get(&format!("{route}?n=8&{nameless}"));
            assert_refused(&state, request, "the query gives '3' to no name").await;
        }
    }
    let twice_in_the_body = post(
        "/api/experiment",
        r#"{"solvers": ["hill-climbing-constant-shake"], "sizes": [6], "runs": 1,
            "sweep": {"p": [0.1], "p": [0.2]}}"#,
    );
    assert_refused(&state, twice_in_the_body, "given twice").await;
}

#[tokio::test]
async fn the_event_cap_is_told_as_the_servers_own_stop() {
    let state = AppState::new(ServeLimits {
        solve_max_events: 50,
        ..ServeLimits::default()
    });
    let response = respond(&state, get("/api/solve?n=8&solver=row-brute-force")).await;
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&body);
    let last = text
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("data: "))
        .unwrap();
    let finished: Value = serde_json::from_str(last).unwrap();
    assert_eq!(finished["status"], "stopped");
    let reason = finished["stop_reason"].as_str().unwrap();
    assert!(reason.contains("at most 50 events"), "{reason}");
    assert!(!reason.contains("viewer"), "{reason}");
}

#[test]
fn loopback_addresses_are_one_client() {
    use queens_web::{Client, ClientKey};
    let headers = axum::http::HeaderMap::new();
    let of = |ip: &str| Client::of(&ClientKey::Peer, &headers, Some(ip.parse().unwrap()));
    assert_eq!(of("127.0.0.2"), of("127.0.0.3"));
    assert_eq!(of("127.0.0.1"), of("::1"));
    assert_eq!(of("2001:db8::1"), of("2001:db8::2"));
    assert_ne!(of("10.0.0.1"), of("10.0.0.2"));
    let key: ClientKey = "header:X-Forwarded-For".parse().unwrap();
    let mut forwarded = axum::http::HeaderMap::new();
    forwarded.insert("x-forwarded-for", "203.0.113.9, 10.0.0.1".parse().unwrap());
    assert_eq!(
        Client::of(&key, &forwarded, Some("127.0.0.1".parse().unwrap())),
        of("203.0.113.9")
    );
}

/// A body declared over the limit is refused at once, before any of it is awaited.
#[tokio::test]
async fn a_body_declared_too_large_is_413_at_once() {
    let limits = ServeLimits::default();
    let declared = limits.body_bytes + 1;
    let state = AppState::new(limits);
    // A body that never arrives: only the declared length can answer in time.
    let never = tokio_stream::pending::<Result<axum::body::Bytes, std::io::Error>>();
    let request = Request::post("/api/configure")
        .header("host", "localhost")
        .header("content-type", "application/json")
        .header("content-length", declared.to_string())
        .body(Body::from_stream(never))
        .unwrap();
    let started = Instant::now();
    let (status, body) = send(&state, request).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
    assert!(started.elapsed() < Duration::from_secs(1));
    assert!(
        body["error"].as_str().unwrap().contains("too large"),
        "{body}"
    );
}
