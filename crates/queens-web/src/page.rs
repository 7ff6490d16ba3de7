//! The page itself (embedded in the binary) and the solver list it is built from.

use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse};
use serde_json::{Value, json};

use crate::AppState;

/// `GET /`.
pub async fn index() -> Html<&'static str> {
    Html(include_str!("../static/index.html"))
}

/// `GET /app.js`.
pub async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("../static/app.js"),
    )
}

/// `GET /style.css`.
pub async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("../static/style.css"),
    )
}

/// `GET /api/solvers`: every solver's descriptor, and this server's limits.
pub async fn solvers(State(state): State<AppState>) -> Json<Value> {
    let limits = state.limits();
    let solvers: Vec<Value> = state
        .catalogue()
        .solvers()
        .iter()
        .map(|solver| {
            json!({
                "name": solver.name,
                "summary": solver.summary,
                "explanation": solver.explanation,
                "unit": solver.unit,
                "counts": solver.counts,
                "randomized": solver.randomized,
                "shapes": solver.shapes,
                "parameters": solver.parameters,
            })
        })
        .collect();
    Json(json!({
        "solvers": solvers,
        "limits": {
            "configure_max_n": limits.configure_max_n,
            "solve_max_n": limits.solve_max_n,
            "solve_max_events": limits.solve_max_events,
            "solve_max_nodes": limits.solve_max_nodes,
            "count_max_n": limits.count_max_n,
            "experiment_max_n": limits.experiment_max_n,
            "experiment_max_runs": limits.experiment_max_runs,
            "experiment_max_cpu_seconds": limits.experiment_max_cpu_seconds,
            "job_seconds": limits.job_time.as_secs(),
        },
    }))
}

/// `GET /api/status`: the jobs running now.
pub async fn status(State(state): State<AppState>) -> Json<Value> {
    Json(json!({ "jobs_running": state.jobs().running() }))
}
