//! `POST /api/experiment`: a bounded experiment, its rows as JSON.

use std::collections::BTreeMap;
use std::convert::Infallible;

use axum::Json;
use axum::extract::State;
use axum::response::sse::{Event as SseEvent, Sse};
use serde_json::json;
use tokio_stream::Stream;

use crate::events::{event_stream, send_end};
use queens_api::experiment::{self, Experiment, Row};
use queens_core::json::WholeNumber;
use serde::{Deserialize, Serialize};

use crate::AppState;
use crate::body::JsonBody;
use crate::error::ApiError;
use crate::jobs::Client;

/// The request body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentRequest {
    solvers: Vec<String>,
    /// Any whole numbers, so that a size past the server's limit, however large, is refused
    /// by that limit and not by the type's.
    sizes: Vec<WholeNumber>,
    runs: u64,
    #[serde(default = "default_seed")]
    seed: u64,
    #[serde(default)]
    max_iters: Option<u64>,
    #[serde(default, deserialize_with = "crate::query::unique_keys")]
    sweep: BTreeMap<String, Vec<f64>>,
}

fn default_seed() -> u64 {
    1
}

/// The response body: the rows, and whether every run finished within the job's time.
#[derive(Debug, Serialize)]
pub struct ExperimentResponse {
    rows: Vec<Row>,
    complete: bool,
    stop_reason: Option<String>,
}

/// The request checked against the server's limits and its estimated cost.
fn checked(state: &AppState, request: ExperimentRequest) -> Result<Experiment, ApiError> {
    let limits = state.limits();
    let solvers = request
        .solvers
        .iter()
        .map(|name| state.catalogue().get(name))
        .collect::<Result<Vec<_>, _>>()?;
    let mut sizes = Vec::with_capacity(request.sizes.len());
    for size in &request.sizes {
        let Some(n) = size.within(1..=limits.experiment_max_n) else {
            return Err(ApiError::bad(format!(
                "sizes must lie between 1 and {} on this server, got {size}",
                limits.experiment_max_n
            )));
        };
        sizes.push(n);
        for solver in &solvers {
            if let Some(max) = solver.practical_max_n.filter(|&max| n > max) {
                return Err(ApiError::bad(format!(
                    "{solver} runs up to N = {max} in experiments on this server"
                )));
            }
        }
    }
    let experiment = Experiment {
        max_iterations: request.max_iters,
        max_nodes: Some(limits.solve_max_nodes),
        sweep: request.sweep.into_iter().collect(),
        ..Experiment::new(solvers, sizes, request.runs, request.seed)
    };
    experiment.check()?;
    let cost = experiment.estimated_cpu_seconds()?;
    if cost > limits.experiment_max_cpu_seconds {
        return Err(ApiError::bad(format!(
            "this experiment could take up to {cost:.0} CPU seconds; this server runs experiments of at most {:.0} (fewer runs, smaller boards or a lower max_iters)",
            limits.experiment_max_cpu_seconds
        )));
    }
    Ok(experiment)
}

/// The JSON of a finished experiment.
fn response(report: experiment::Report) -> ExperimentResponse {
    ExperimentResponse {
        complete: report.is_complete(),
        stop_reason: report.stopped.map(|stop| stop.to_string()),
        rows: report.rows,
    }
}

/// Runs the experiment and returns its rows (the same as `queens experiment --json`). Every run
/// of an exhaustive solver stops at the server's node cap; the whole experiment stops at the
/// job's time limit or when the client leaves, with the rows of the runs that finished.
pub async fn experiment(
    State(state): State<AppState>,
    client: Client,
    JsonBody(request): JsonBody<ExperimentRequest>,
) -> Result<Json<ExperimentResponse>, ApiError> {
    let experiment = checked(&state, request)?;
    let job = state
        .jobs()
        .start_for(client, state.limits().experiment_time)?;
    let budget = job.budget();
    let _stop_if_the_client_leaves = job.cancel_on_drop();
    let report = crate::jobs::run_blocking(move || {
        let report = experiment::run(&experiment, &budget, |_| {});
        drop(job);
        report
    })?
    .await
    .map_err(|error| ApiError::internal(format!("the experiment failed: {error}")))?;
    let report = report?;
    Ok(Json(response(report)))
}

/// The same experiment as server-sent events: `{"type": "progress", "done", "of"}` as runs
/// finish (at most about ten a second), then `{"type": "finished", "rows", "complete",
/// "stop_reason"}`. Closing the stream cancels the experiment.
pub async fn experiment_stream(
    State(state): State<AppState>,
    client: Client,
    JsonBody(request): JsonBody<ExperimentRequest>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let experiment = checked(&state, request)?;
    let planned = experiment.total_runs().unwrap_or(0);
    let job = state
        .jobs()
        .start_for(client, state.limits().experiment_time)?;
    let budget = job.budget();
    let (events, stream) = event_stream(64, job.token());
    crate::jobs::spawn_job(move || {
        let last = std::sync::Mutex::new(std::time::Instant::now());
        let report = experiment::run(&experiment, &budget, |done| {
            let mut last = last
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if last.elapsed() >= std::time::Duration::from_millis(100) || done == planned {
                *last = std::time::Instant::now();
                let progress = json!({"type": "progress", "done": done, "of": planned});
                let _ = events.try_send(progress.to_string());
            }
        });
        let finished = report.map(|report| {
            let mut document = serde_json::to_value(response(report)).unwrap_or_default();
            document["type"] = json!("finished");
            document
        });
        send_end(&events, finished);
        drop(job);
    })?;
    Ok(stream)
}
