//! `POST /api/experiment`: a bounded experiment, its rows as JSON.

use std::collections::BTreeMap;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use queens_exact::ExactSolver;
use queens_lab::SolverKind;
use queens_lab::experiment::{self, Experiment, Row};
use serde::{Deserialize, Serialize};

use crate::AppState;
use crate::error::ApiError;
use crate::jobs::Client;

/// The request body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExperimentRequest {
    solvers: Vec<String>,
    sizes: Vec<u32>,
    runs: u64,
    #[serde(default = "default_seed")]
    seed: u64,
    #[serde(default)]
    max_iters: Option<u64>,
    #[serde(default)]
    sweep: BTreeMap<String, Vec<f64>>,
}

fn default_seed() -> u64 {
    1
}

/// The response body.
#[derive(Debug, Serialize)]
pub struct ExperimentResponse {
    rows: Vec<Row>,
}

/// The largest board each exhaustive solver gets in an experiment (they have no iteration cap,
/// so their cost is what bounds the job).
fn exhaustive_limit(kind: SolverKind) -> Option<u32> {
    match kind {
        SolverKind::Exact(ExactSolver::BruteForce) => Some(7),
        SolverKind::Exact(ExactSolver::RowBruteForce) => Some(8),
        SolverKind::Exact(_) => Some(28),
        _ => None,
    }
}

/// Runs the experiment and returns its rows (the same as `queens experiment --json`).
pub async fn experiment(
    State(state): State<AppState>,
    client: Client,
    body: Bytes,
) -> Result<Json<ExperimentResponse>, ApiError> {
    let request: ExperimentRequest = serde_json::from_slice(&body)
        .map_err(|error| ApiError::bad(format!("malformed request: {error}")))?;
    let limits = state.limits();
    let solvers = request
        .solvers
        .iter()
        .map(|name| name.parse::<SolverKind>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ApiError::bad(e.to_string()))?;
    for &n in &request.sizes {
        if !(1..=limits.experiment_max_n).contains(&n) {
            return Err(ApiError::bad(format!(
                "sizes must lie between 1 and {} on this server, got {n}",
                limits.experiment_max_n
            )));
        }
        for &solver in &solvers {
            if exhaustive_limit(solver).is_some_and(|max| n > max) {
                return Err(ApiError::bad(format!(
                    "{solver} runs up to N = {} in experiments on this server",
                    exhaustive_limit(solver).unwrap_or_default()
                )));
            }
        }
    }
    let experiment = Experiment {
        max_iterations: request.max_iters,
        sweep: request.sweep.into_iter().collect(),
        ..Experiment::new(solvers, request.sizes, request.runs, request.seed)
    };
    let cells = (experiment.solvers.len() * experiment.sizes.len()) as u64
        * experiment.combinations().len() as u64;
    let total_runs = cells.saturating_mul(experiment.runs);
    if total_runs > limits.experiment_max_runs {
        return Err(ApiError::bad(format!(
            "{total_runs} runs in all; this server runs at most {} per experiment",
            limits.experiment_max_runs
        )));
    }
    let job = state.jobs().start(client)?;
    // The job (its slot) goes with the work: the harness cannot be stopped, so a client that
    // leaves does not get its slot back before the experiment ends.
    let rows = tokio::task::spawn_blocking(move || {
        let rows = experiment::run(&experiment, |_| {});
        drop(job);
        rows
    })
    .await
    .map_err(|error| ApiError::internal(format!("the experiment failed: {error}")))?;
    let rows = rows.map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(Json(ExperimentResponse { rows }))
}
