//! The API without a socket: every route through `app()`, bad input as 400 with a JSON error,
//! and the job limits.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use queens_api::configure::{Configurator, Engine, Position};
use queens_core::{Budget, NoObserver, Square};
use queens_web::{AppState, ServeLimits, app};
use serde_json::{Value, json};
use tower::ServiceExt;

mod common;

use common::{assert_refused, events_of, get, post, respond, send, state};

/// A `POST` of `request` to the configurator.
fn configure(request: &Value) -> Request<Body> {
    post("/api/configure", request.to_string())
}

/// A state that runs at most `jobs` jobs, `per_client` for each client.
fn with_jobs(jobs: usize, per_client: usize) -> AppState {
    AppState::new(ServeLimits {
        jobs,
        jobs_per_client: per_client,
        ..ServeLimits::default()
    })
}

/// The configurator's documents, whole and compact, are the shared ones the command line and
/// Python print.
#[tokio::test]
async fn configure_answers_with_the_shared_documents() {
    let documents =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../queens-api/tests/documents");
    let state = state();
    for (request, file) in [
        (
            json!({"n": 5, "queens": [{"row": 0, "col": 1}]}),
            "configure-5-b1.json",
        ),
        (
            json!({"n": 5, "queens": [{"row": 0, "col": 1}], "compact": true}),
            "configure-5-b1-compact.json",
        ),
    ] {
        let (status, body) = send(&state, configure(&request)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let shared = std::fs::read_to_string(documents.join(file)).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            serde_json::from_str::<Value>(&shared).unwrap(),
            "{file}"
        );
    }
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let state = state();
    let (status, html) = send(&state, get("/")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<script type=\"module\" src=\"/js/main.js\">"));
    let (status, script) = send(&state, get("/js/main.js")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(script.contains("./configure.js"));
    let (status, script) = send(&state, get("/js/api.js")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(script.contains("/api/configure"));
    let (status, _) = send(&state, get("/favicon.ico")).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = send(&state, get("/js/missing.js")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body.contains("\"error\""));
    let (status, solvers) = send(&state, get("/api/solvers")).await;
    assert_eq!(status, StatusCode::OK);
    let solvers: Value = serde_json::from_str(&solvers).unwrap();
    assert_eq!(
        solvers["solvers"].as_array().unwrap().len(),
        queens_api::catalogue::STANDARD.len()
    );
}

#[tokio::test]
async fn configure_returns_exactly_the_cli_document() {
    let state = state();
    let request = json!({"n": 8, "queens": [{"row": 0, "col": 3}, {"row": 6, "col": 4}]});
    let (status, body) = send(&state, configure(&request)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let position = Position::new(8, [Square::new(0, 3), Square::new(6, 4)]).unwrap();
    let expected = Configurator::new()
        .analyse(&position, Engine::Auto, &Budget::unlimited())
        .unwrap();
    assert_eq!(body, serde_json::to_string(&expected).unwrap());
    let document: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(document["completions"], 3);
}

#[tokio::test]
async fn a_compact_analysis_of_200_by_200_is_small_and_gives_the_reasons_asked_for() {
    let state = state();
    let n = 200;
    let queens = json!([{"row": 0, "col": 3}]);
    let request = json!({"n": n, "queens": queens, "compact": true});
    let (status, body) = send(&state, configure(&request)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body.len() <= 200_000, "{} bytes", body.len());
    let compact: Value = serde_json::from_str(&body).unwrap();
    let statuses = compact["statuses"].as_str().unwrap();
    assert_eq!(statuses.chars().count(), n * n);
    assert_eq!(compact["all_reasons"], false);
    assert!(compact["reasons"].as_object().unwrap().is_empty());
    // The whole document of the same position (kept, so not analysed again) agrees square by
    // square, and a square's reason asked for is the whole document's.
    let whole_request = json!({"n": n, "queens": queens});
    let (status, whole) = send(&state, configure(&whole_request)).await;
    assert_eq!(status, StatusCode::OK);
    let whole: Value = serde_json::from_str(&whole).unwrap();
    assert_eq!(
        whole["nodes"], compact["nodes"],
        "one analysis answered both"
    );
    let cells = whole["cells"].as_array().unwrap();
    for (index, symbol) in statuses.chars().enumerate() {
        assert_eq!(
            compact["legend"][symbol.to_string()],
            cells[index]["status"]
        );
    }
    let attacked = 150; // c151 on the first rank: attacked along d1's rank
    let request = json!({"n": n, "queens": queens, "compact": true,
                         "explain": [{"row": 0, "col": attacked}]});
    let (status, body) = send(&state, configure(&request)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let explained: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        explained["reasons"][attacked.to_string()],
        cells[attacked]["reason"]
    );
    // Reasons are asked of the compact document only.
    let request = json!({"n": 8, "explain": [{"row": 0, "col": 0}]});
    assert_refused(&state, configure(&request), "compact").await;
}

#[tokio::test]
async fn blocked_squares_and_instance_files_reach_the_configurator() {
    let state = state();
    // Nauck's position with one completion's square blocked: the other completion is forced.
    let request = json!({"n": 8, "queens": [{"row": 3, "col": 1}, {"row": 4, "col": 3}],
                         "blocked": [{"row": 0, "col": 2}]});
    let (status, body) = send(&state, configure(&request)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let position = Position::with_blocked(
        8,
        [Square::new(3, 1), Square::new(4, 3)],
        [Square::new(0, 2)],
    )
    .unwrap();
    let expected = Configurator::new()
        .analyse(&position, Engine::Auto, &Budget::unlimited())
        .unwrap();
    assert_eq!(body, serde_json::to_string(&expected).unwrap());
    let document: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(document["blocked"], json!([{"row": 0, "col": 2}]));
    assert_eq!(document["cells"][2]["status"], "blocked");

    // An instance file of CSPLib 079, its first five diagonals.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/completion");
    let text = std::fs::read_to_string(dir.join("diag-10-4-66.param")).unwrap();
    let request = json!({"text": text, "diagonals": 5});
    let (status, body) = send(&state, post("/api/instance", request.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let opened: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(opened["n"], 10);
    assert!(opened["queens"].as_array().unwrap().is_empty());
    let blocked = opened["blocked"].as_array().unwrap();
    assert!(
        blocked.len() > 10,
        "five diagonals of 10×10: {}",
        blocked.len()
    );
    // A bad file: its line and what was expected there.
    let request = json!({"text": "letting n = 8\nletting blocks = [[1, 9]]\n"});
    assert_refused(&state, post("/api/instance", request.to_string()), "").await;
    // A blocked square under a placed queen is refused with the configurator's sentence.
    let request =
        json!({"n": 8, "queens": [{"row": 0, "col": 2}], "blocked": [{"row": 0, "col": 2}]});
    assert_refused(&state, configure(&request), "c1 is blocked").await;
}

#[tokio::test]
async fn bad_input_is_a_400_with_a_json_error() {
    let state = state();
    let cases = [
        post("/api/configure", "{\"n\": 8, \"queens\": ["),
        post("/api/configure", "{\"n\": 0}"),
        post("/api/configure", "{\"n\": 100000}"),
        post(
            "/api/configure",
            "{\"n\": 8, \"queens\": [{\"row\": 0, \"col\": 0}, {\"row\": 1, \"col\": 1}]}",
        ),
        post(
            "/api/configure",
            "{\"n\": 8, \"queens\": [{\"row\": 9, \"col\": 0}]}",
        ),
        post("/api/configure", "{\"n\": 8, \"engine\": \"magic\"}"),
        post("/api/configure", "{\"n\": 8, \"colour\": \"red\"}"),
        get("/api/solve?n=8&solver=nope"),
        get("/api/solve?solver=backtracking"),
        get("/api/solve?n=eight"),
        get("/api/solve?n=100000"),
        get("/api/solve?n=8&fix=d1,d2"),
        get("/api/solve?n=8&solver=hill-climbing-constant-shake&p=2"),
        get("/api/solve?n=8&solver=hill-climbing&fix=d1"),
        get("/api/count?n=40"),
        get("/api/count"),
        // Too costly for the server, and more runs than any experiment makes.
        post(
            "/api/experiment",
            "{\"solvers\": [\"hill-climbing\"], \"sizes\": [8], \"runs\": 10000000}",
        ),
        post(
            "/api/experiment",
            "{\"solvers\": [\"hill-climbing\"], \"sizes\": [8], \"runs\": 20000000}",
        ),
        post(
            "/api/experiment",
            "{\"solvers\": [\"hill-climbing\"], \"sizes\": [8], \"runs\": 1, \"max_iters\": 5, \"sweep\": {\"max_iters\": [6]}}",
        ),
        get("/api/challenge?n=9"),
        get("/api/challenge?n=6&solvers=hill-climbing"),
        get("/api/challenge?n=6&solvers=nope"),
        get("/api/challenge?n=6&size=3"),
        get("/api/challenge?n=0"),
        post(
            "/api/experiment",
            "{\"solvers\": [\"brute-force\"], \"sizes\": [12], \"runs\": 1}",
        ),
        post(
            "/api/experiment",
            "{\"solvers\": [\"nope\"], \"sizes\": [8], \"runs\": 1}",
        ),
        post("/api/experiment", "not json"),
    ];
    for request in cases {
        assert_refused(&state, request, "").await;
    }
    // An empty experiment says what it is missing.
    for (body, says) in [
        (
            r#"{"solvers": [], "sizes": [8], "runs": 1}"#,
            "at least one solver",
        ),
        (
            r#"{"solvers": ["genetic"], "sizes": [], "runs": 1}"#,
            "at least one size",
        ),
        (
            r#"{"solvers": ["genetic"], "sizes": [8], "runs": 0}"#,
            "at least one run",
        ),
        (
            r#"{"solvers": ["genetic"], "sizes": [8], "runs": 1, "sweep": {"population": []}}"#,
            "population is swept over no values",
        ),
    ] {
        assert_refused(&state, post("/api/experiment", body), says).await;
    }
}

/// A position that is plainly unsolvable but slow to explain (200×200, its first three ranks
/// free only on files a and b: a 14 KB body) is answered within the job's time: the
/// explanation of its dead squares stops with the job, as the search does.
#[tokio::test]
async fn a_slow_analysis_is_answered_within_the_job_time() {
    let state = AppState::new(ServeLimits {
        job_time: Duration::from_secs(2),
        ..ServeLimits::default()
    });
    let blocked: Vec<Value> = (0..3)
        .flat_map(|row| (2..200).map(move |col| json!({"row": row, "col": col})))
        .collect();
    let request = json!({"n": 200, "blocked": blocked, "compact": true});
    let started = std::time::Instant::now();
    let (status, body) = send(&state, configure(&request)).await;
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "{took:?} with a job time of 2 s"
    );
    assert!(
        status == StatusCode::OK || status == StatusCode::SERVICE_UNAVAILABLE,
        "{status}: {}",
        &body[..body.len().min(300)]
    );
}

/// Every route refuses what it does not know, a query's parameter or a body's field (a square's
/// included), in the same words, rather than answering without it.
#[tokio::test]
async fn unknown_parameters_and_fields_are_refused_by_every_route() {
    let state = state();
    for name in [
        "fix=d1",
        "engine=gpu",
        "device=0",
        "block=a1",
        "threads=2",
        "time_limit=1",
    ] {
        let (status, body) = send(&state, get(&format!("/api/count?n=8&{name}"))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {body}");
        let error: Value = serde_json::from_str(&body).unwrap();
        let parameter = name.split('=').next().unwrap();
        assert_eq!(
            error["error"],
            format!("unknown parameter {parameter}; the count takes n"),
        );
    }
    let (_, body) = send(&state, get("/api/challenge?n=6&size=3")).await;
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["error"],
        "unknown parameter size; the challenge takes n and solvers"
    );
    for (request, words) in [
        (
            configure(&json!({"n": 8, "queens": [{"row": 0, "col": 0, "x": 1}]})),
            "unknown field `x`",
        ),
        (
            configure(&json!({"n": 8, "blocked": [{"row": 0, "col": 0, "colour": 1}]})),
            "unknown field `colour`",
        ),
        (
            configure(&json!({"n": 8, "compact": true, "explain": [{"row": 8, "col": 0}]})),
            "explain: square (row 8, col 0) is off the 8×8 board",
        ),
        (
            configure(
                &json!({"n": 8, "compact": true, "explain": [{"row": 0, "col": 1, "why": 1}]}),
            ),
            "unknown field `why`",
        ),
        (
            post(
                "/api/neighbourhood",
                r#"{"rows": [0,1,2,3,4,5,6,7], "colour": 1}"#,
            ),
            "unknown field `colour`",
        ),
        (
            post("/api/instance", r#"{"text": "", "colour": 1}"#),
            "unknown field `colour`",
        ),
    ] {
        let (status, body) = send(&state, request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        let error = serde_json::from_str::<Value>(&body).unwrap()["error"].to_string();
        assert!(error.contains(words), "{error} lacks {words}");
    }
    // A long token is quoted by an excerpt, in a query (30 kB, within a URI's limit) and in a
    // body alike.
    let long = "9".repeat(30_000);
    for request in [
        get(&format!("/api/solve?n={long}")),
        get(&format!("/api/solve?n=8&{long}=1")),
        get(&format!("/api/count?{long}=1")),
        configure(&json!({"n": 8, "engine": long})),
        post("/api/instance", format!(r#"{{"text": "n = {long}"}}"#)),
    ] {
        let (status, body) = send(&state, request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body.len() < 1000, "{} bytes: {}", body.len(), &body[..200]);
    }
    // The count's one parameter still counts.
    let (status, _) = send(&state, get("/api/count?n=8")).await;
    assert_eq!(status, StatusCode::OK);
}

/// A solver parameter out of range is refused with the words of `queens solve --set` and
/// `queens experiment --set`.
#[tokio::test]
async fn parameter_refusals_match_the_command_line() {
    let state = state();
    for (request, message) in [
        (
            get("/api/solve?n=8&solver=hill-climbing-constant-shake&p=2"),
            "p must be in [0, 1], got 2",
        ),
        (
            get("/api/solve?n=8&solver=genetic&p=0.1"),
            "genetic has no parameter 'p' (it reads: population, tournament, elite, crossover, mutation)",
        ),
        (
            get("/api/solve?n=8&solver=genetic&population=many"),
            "population must be a number, got 'many'",
        ),
        // The name is refused before its value is read.
        (
            get("/api/solve?n=8&solver=genetic&pop=many"),
            "genetic has no parameter 'pop' (it reads: population, tournament, elite, crossover, mutation)",
        ),
        (
            post(
                "/api/experiment",
                r#"{"solvers": ["hill-climbing-constant-shake"], "sizes": [8], "runs": 1, "sweep": {"p": [2]}}"#,
            ),
            "p must be in [0, 1], got 2",
        ),
    ] {
        let (status, body) = send(&state, request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        let error: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(error["error"], message);
    }
}

/// `/api/solvers` carries each solver's descriptor and the server's limits.
#[tokio::test]
async fn solvers_are_described_in_full() {
    let (status, body) = send(&state(), get("/api/solvers")).await;
    assert_eq!(status, StatusCode::OK);
    let document: Value = serde_json::from_str(&body).unwrap();
    let genetic = document["solvers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "genetic")
        .unwrap();
    assert!(genetic["explanation"].as_str().unwrap().len() > 200);
    assert!(
        genetic["score"]
            .as_str()
            .unwrap()
            .ends_with("0 means solved")
    );
    assert_eq!(genetic["shapes"]["boards"], "rectangular");
    assert_eq!(genetic["shapes"]["fixed"], false);
    let population = &genetic["parameters"][0];
    assert_eq!(
        (
            &population["name"],
            &population["default"],
            &population["min"],
            &population["integer"]
        ),
        (
            &json!("population"),
            &json!(200.0),
            &json!(2.0),
            &json!(true)
        )
    );
    assert!(
        population["doc"]
            .as_str()
            .is_some_and(|doc| !doc.is_empty())
    );
    assert_eq!(document["limits"]["solve_max_n"], 1000);
    // What a solver draws and shows comes with it, so that the page names none.
    let by_name = |name: &str| {
        document["solvers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()
            .clone()
    };
    assert!(
        by_name("electric-force")["marks"]
            .as_str()
            .unwrap()
            .contains("arrows")
    );
    assert_eq!(by_name("genetic")["marks"], Value::Null);
    let climbers: Vec<&str> = document["solvers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["neighbourhood"] == true)
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        climbers,
        [
            "hill-climbing",
            "hill-climbing-constant-shake",
            "hill-climbing-decaying-shake",
            "optimized-hill-climbing"
        ]
    );
    // The page's first settings and the original's presets name solvers of the catalogue.
    let defaults = &document["defaults"];
    let mut named: Vec<&Value> = vec![&defaults["watch_solver"], &defaults["large_board_solver"]];
    named.extend(defaults["race_solvers"].as_array().unwrap());
    named.extend(defaults["lab"]["solvers"].as_array().unwrap());
    for preset in document["presets"].as_array().unwrap() {
        for part in preset["parts"].as_array().unwrap() {
            named.extend(part["solvers"].as_array().unwrap());
        }
    }
    assert!(named.len() > 10);
    for name in named {
        by_name(name.as_str().unwrap());
    }
    assert_eq!(document["presets"][3]["id"], "open-question");
    assert_eq!(
        document["presets"][1]["parts"][0]["sweep"][0],
        json!({"name": "p", "values": [0.06, 0.1, 0.14, 0.18, 0.23, 0.28]})
    );
}

#[tokio::test]
async fn the_neighbourhood_is_the_climbers_own() {
    let state = state();
    let (status, body) = send(
        &state,
        post("/api/neighbourhood", r#"{"rows": [0, 0, 0, 0]}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let document: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(document["n"], 4);
    assert_eq!(document["score"], 0);
    assert_eq!(document["scores"].as_array().unwrap().len(), 16);
    assert_eq!(document["scores"][0], Value::Null);
    assert_eq!(document["best"], json!({"row": 3, "col": 1}));
    for (body, says) in [
        (r#"{"rows": []}"#, "at least one"),
        (r#"{"rows": [0, 5]}"#, "off the 2×2 board"),
        (r#"{"rows": [0], "n": 3}"#, "malformed request"),
        (r#"{"rows": [-1]}"#, "malformed request"),
    ] {
        assert_refused(&state, post("/api/neighbourhood", body), says).await;
    }
    let wide = format!(r#"{{"rows": {:?}}}"#, vec![0; 65]);
    assert_refused(&state, post("/api/neighbourhood", wide), "up to 64×64").await;
}

#[tokio::test]
async fn solve_streams_events_and_finishes_with_the_board() {
    let state = state();
    let events = events_of(&state, get("/api/solve?n=8&solver=backtracking&fix=d1")).await;
    assert_eq!(events[0]["type"], "started");
    assert!(events.iter().any(|e| e["type"] == "place"));
    assert!(events.iter().any(|e| e["type"] == "remove"));
    let finished = events.last().unwrap();
    assert_eq!(finished["type"], "finished");
    assert_eq!(finished["solved"], true);
    let queens = finished["queens"].as_array().unwrap();
    assert_eq!(queens.len(), 8);
    assert!(queens.contains(&json!({"row": 0, "col": 3})));
    // The final board is what the place and remove events build.
    let mut board = std::collections::BTreeSet::new();
    for event in &events {
        match event["type"].as_str().unwrap() {
            "place" => assert!(board.insert(event["square"].to_string())),
            "remove" => assert!(board.remove(&event["square"].to_string())),
            _ => {}
        }
    }
    // The locked queen stands from the start; the events place all the others.
    board.insert(json!({"row": 0, "col": 3}).to_string());
    let expected: std::collections::BTreeSet<String> =
        queens.iter().map(ToString::to_string).collect();
    assert_eq!(board, expected);
}

#[tokio::test]
async fn the_electric_force_glides_its_queens_to_a_solution() {
    let state = state();
    let events = events_of(
        &state,
        get("/api/solve?n=8&solver=electric-force&seed=1&fix=d1"),
    )
    .await;
    let moves = events.iter().filter(|e| e["type"] == "move").count();
    assert!(moves > 10, "{moves} moves");
    for event in events.iter().filter(|e| e["type"] == "move") {
        let (from, to) = (&event["from"], &event["to"]);
        let step = |axis: &str| (from[axis].as_i64().unwrap() - to[axis].as_i64().unwrap()).abs();
        assert!(
            step("row") <= 1 && step("col") <= 1,
            "one square at a time: {event}"
        );
    }
    let finished = events.last().unwrap();
    assert_eq!(finished["solved"], true);
    let queens = finished["queens"].as_array().unwrap();
    assert_eq!(queens.len(), 8);
    assert!(
        queens.contains(&json!({"row": 0, "col": 3})),
        "the fixed queen stays"
    );
}

#[tokio::test]
async fn count_and_experiment_answer() {
    let state = state();
    let events = events_of(&state, get("/api/count?n=10")).await;
    let finished = events.last().unwrap();
    assert_eq!(finished["type"], "finished");
    assert_eq!(finished["total"], 724);
    assert_eq!(finished["unique"], 92);
    // Below N = 14 backtracking is as fast.
    assert_eq!(finished["engine"], "backtracking");
    // The count document of `queens count --json`, field for field but the machine's figures
    // and `counted_on`, which would name the server's host.
    let fields: std::collections::BTreeSet<&str> = finished
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let document = [
        "type",
        "n",
        "total",
        "unique",
        "threads",
        "elapsed_ms",
        "nodes",
        "subproblems",
        "engine",
        "complete",
    ];
    assert_eq!(fields, document.into_iter().collect());
    assert_eq!(finished["complete"], true);
    assert_eq!(finished["nodes"], 8835, "the CLI's node count at N = 10");
    let request =
        json!({"solvers": ["optimized-hill-climbing"], "sizes": [8], "runs": 20, "seed": 3});
    let (status, body) = send(&state, post("/api/experiment", request.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let rows: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(rows["rows"][0]["runs"], 20);
    assert_eq!(rows["rows"][0]["solved"], 20);
}

#[tokio::test]
async fn a_count_stopped_by_the_job_time_ends_with_the_same_document_typed_stopped() {
    let state = AppState::new(ServeLimits {
        job_time: std::time::Duration::from_millis(300),
        ..ServeLimits::default()
    });
    let events = events_of(&state, get("/api/count?n=18")).await;
    let stopped = events.last().unwrap();
    assert_eq!(stopped["type"], "stopped", "{stopped}");
    assert_eq!(stopped["complete"], false);
    assert!(
        stopped["unique"].is_null(),
        "no unique count without every part"
    );
    let (finished, parts) = (
        stopped["finished"].as_u64().unwrap(),
        stopped["parts"].as_u64().unwrap(),
    );
    assert!(finished < parts && parts == stopped["subproblems"].as_u64().unwrap());
    assert!(
        stopped["stop_reason"]
            .as_str()
            .unwrap()
            .contains("time limit"),
        "{stopped}"
    );
}

#[tokio::test]
async fn jobs_are_limited_and_stop_when_their_client_leaves() {
    let state = with_jobs(1, 1);
    // Brute force on 9×9 runs far longer than this test; its stream holds the only slot.
    let long = respond(&state, get("/api/solve?n=9&solver=brute-force")).await;
    assert_eq!(long.status(), StatusCode::OK);
    let (status, body) = send(&state, get("/api/count?n=8")).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!(body.contains("error"));
    // The client goes away: the run stops and frees its slot.
    drop(long);
    let mut freed = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let (status, _) = send(&state, get("/api/count?n=8")).await;
        if status == StatusCode::OK {
            freed = true;
            break;
        }
    }
    assert!(freed, "the abandoned run kept its slot");
}

#[tokio::test]
async fn a_watched_run_ends_with_the_solve_document_the_command_line_prints() {
    use queens_api::document::SolveDocument;
    use queens_api::{Catalogue, SolveRequest, SolveSpec};
    let state = state();
    for (query, spec) in [
        (
            "n=8&solver=backtracking&fix=d1",
            SolveSpec {
                solver: Some("backtracking".into()),
                fixed: vec!["d1".parse().unwrap()],
                ..SolveSpec::square(8)
            },
        ),
        (
            "size=6x10&m=6&solver=genetic&seed=3",
            SolveSpec {
                rows: 6,
                cols: 10,
                queen_count: Some(6),
                solver: Some("genetic".into()),
                seed: Some(3),
                ..SolveSpec::default()
            },
        ),
        (
            "n=12&solver=hill-climbing&seed=2",
            SolveSpec {
                solver: Some("hill-climbing".into()),
                seed: Some(2),
                ..SolveSpec::square(12)
            },
        ),
    ] {
        let mut finished = events_of(&state, get(&format!("/api/solve?{query}")))
            .await
            .pop()
            .unwrap();
        assert_eq!(finished["type"], "finished");
        assert!(finished["events"].as_u64().unwrap() > 0);
        assert!(finished["sampled"].is_null());
        // The same request run here, as `queens solve --format json` and Python document it.
        let request = SolveRequest::new(Catalogue::standard(), spec).unwrap();
        let outcome = request
            .run(
                &mut request.budget(queens_core::CancelToken::new()),
                &mut NoObserver,
            )
            .unwrap();
        let mut expected = serde_json::to_value(SolveDocument::new(
            &request.problem,
            request.solver,
            &outcome,
        ))
        .unwrap();
        let object = finished.as_object_mut().unwrap();
        for extra in ["type", "events", "sampled"] {
            object.remove(extra);
        }
        for document in [&mut finished, &mut expected] {
            document["elapsed_ms"] = json!(null);
        }
        assert_eq!(finished, expected, "{query}");
    }
}

/// A request to `app` from `peer`, as if it came over a socket from there.
async fn from_peer(state: &AppState, peer: [u8; 4], uri: &str) -> axum::http::Response<Body> {
    use axum::extract::connect_info::MockConnectInfo;
    app(state.clone())
        .layer(MockConnectInfo(std::net::SocketAddr::from((peer, 40_000))))
        .oneshot(get(uri))
        .await
        .unwrap()
}

#[tokio::test]
async fn each_client_has_its_own_job_limit_and_loopback_is_one_client() {
    let state = with_jobs(4, 1);
    // Brute force on 9×9 runs far longer than this test: each stream holds its client's slot.
    let long = "/api/solve?n=9&solver=brute-force";
    let first = from_peer(&state, [10, 0, 0, 1], long).await;
    assert_eq!(first.status(), StatusCode::OK);
    let again = from_peer(&state, [10, 0, 0, 1], long).await;
    assert_eq!(
        again.status(),
        StatusCode::TOO_MANY_REQUESTS,
        "one job per client"
    );
    let other = from_peer(&state, [10, 0, 0, 2], long).await;
    assert_eq!(
        other.status(),
        StatusCode::OK,
        "another client has its own slot"
    );
    // Every loopback address is the same local user.
    let local = from_peer(&state, [127, 0, 0, 2], long).await;
    assert_eq!(local.status(), StatusCode::OK);
    let local_again = from_peer(&state, [127, 0, 0, 3], long).await;
    assert_eq!(local_again.status(), StatusCode::TOO_MANY_REQUESTS);
    drop((first, other, local));
}

#[tokio::test]
async fn the_challenge_streams_every_lock_then_the_command_lines_table() {
    let state = state();
    let events = events_of(&state, get("/api/challenge?n=5")).await;
    let (finished, locks) = events.split_last().unwrap();
    assert_eq!(locks.len(), 25 * 4);
    assert!(locks.iter().all(|lock| lock["type"] == "lock"));
    assert_eq!(finished["type"], "finished");
    assert_eq!(finished["complete"], true);
    let catalogue = queens_api::Catalogue::standard();
    let expected = queens_api::challenge::Challenge {
        n: 5,
        solvers: catalogue.tree_searches(),
        max_nodes: None,
    }
    .run(&Budget::unlimited(), |_| {})
    .unwrap();
    assert_eq!(finished["table"], serde_json::to_value(&expected).unwrap());
    // The streamed runs are the table's, in some order.
    let mut streamed: Vec<String> = locks
        .iter()
        .map(|lock| format!("{} {} {}", lock["square"], lock["solver"], lock["nodes"]))
        .collect();
    let mut tabled: Vec<String> = expected
        .locks
        .iter()
        .map(|lock| format!("\"{}\" \"{}\" {}", lock.square, lock.solver, lock.nodes))
        .collect();
    streamed.sort();
    tabled.sort();
    assert_eq!(streamed, tabled);
}

/// Whatever `/api/instance` opens, `/api/configure` takes: the page posts the position it was
/// given, and the body limit is sized by the largest board the configurator serves.
#[tokio::test]
async fn every_instance_the_page_opens_can_be_analysed() {
    let state = state();
    let n = ServeLimits::default().configure_max_n;
    // 120 of the longest diagonals (the probe's 1.2 KB file), then every diagonal of the board.
    for count in [120, 2 * (2 * n - 1)] {
        let first = (n - 1).saturating_sub(count / 4);
        let diags: Vec<String> = (0..count)
            .map(|k| format!("[{}, {}]", first + k / 2, k % 2))
            .collect();
        let text = format!(
            "n = {n}\nnumdiags = {count}\ndiags = [{}]\n",
            diags.join(", ")
        );
        let request = json!({"text": text});
        let (status, opened) = send(&state, post("/api/instance", request.to_string())).await;
        assert_eq!(status, StatusCode::OK, "{opened}");
        let opened: Value = serde_json::from_str(&opened).unwrap();
        let blocked = opened["blocked"].as_array().unwrap().len();
        assert!(
            blocked > 10_000,
            "{count} diagonals block {blocked} squares"
        );
        let request = json!({"n": n, "queens": opened["queens"], "blocked": opened["blocked"]});
        let (status, body) = send(&state, configure(&request)).await;
        assert_eq!(status, StatusCode::OK, "{count} diagonals: {body}");
    }
}

/// A seed is refused with the shared file's sentences, as the command line, Python and the page
/// refuse it; the whole numbers of a watched run (its iteration cap, its queens) are read alike.
#[tokio::test]
async fn seeds_and_whole_numbers_are_refused_in_the_shared_sentences() {
    let state = state();
    let documents = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../queens-api/tests/documents/refusals.json");
    let shared: Value = serde_json::from_str(&std::fs::read_to_string(documents).unwrap()).unwrap();
    for case in shared["seeds"]["refused"].as_array().unwrap() {
        let seed = case["seed"].as_str().unwrap();
        let request = get(&format!("/api/solve?n=8&solver=min-conflicts&seed={seed}"));
        let (status, body) = send(&state, request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{seed}: {body}");
        let error: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(error["error"], case["sentence"], "{seed}");
    }
    for (query, says) in [
        ("max_iters=0", "max_iters must be at least 1, got 0"),
        (
            "max_iters=many",
            "max_iters must be a positive whole number, got 'many'",
        ),
        ("m=4.5", "m must be a whole number, got '4.5'"),
    ] {
        let request = get(&format!("/api/solve?n=8&solver=min-conflicts&{query}"));
        assert_refused(&state, request, says).await;
    }
}
