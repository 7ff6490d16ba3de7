//! `POST /api/configure`: the configurator's analysis of a position.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use queens_configurator::{Analysis, AnalysisError, Engine, Position};
use queens_core::Square;
use serde::Deserialize;

use crate::AppState;
use crate::error::ApiError;
use crate::jobs::Client;
use crate::query::check_side;

/// The request body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigureRequest {
    n: u32,
    #[serde(default)]
    queens: Vec<Square>,
    #[serde(default)]
    engine: Option<String>,
}

/// Analyses the posted position; the body is exactly `queens configure --json`'s document.
pub async fn configure(
    State(state): State<AppState>,
    client: Client,
    body: Bytes,
) -> Result<Json<Analysis>, ApiError> {
    let request: ConfigureRequest = serde_json::from_slice(&body)
        .map_err(|error| ApiError::bad(format!("malformed request: {error}")))?;
    let n = check_side(request.n, state.limits().configure_max_n)?;
    let position = Position::new(n, request.queens)?;
    let engine: Engine = request
        .engine
        .as_deref()
        .unwrap_or("auto")
        .parse::<Engine>()?;
    let job = state.jobs().start_analysis(client).await?;
    let budget = job.budget();
    let _stop_if_the_client_leaves = job.cancel_on_drop();
    let configurator = state.configurator();
    let analysis =
        tokio::task::spawn_blocking(move || configurator.analyse(&position, engine, &budget))
            .await
            .map_err(|error| ApiError::internal(format!("the analysis failed: {error}")))?;
    drop(job);
    match analysis {
        Ok(analysis) => Ok(Json(analysis)),
        Err(AnalysisError::Cancelled) => Err(ApiError::busy(
            "the analysis ran out of time on this server",
        )),
        Err(error) => Err(ApiError::bad(error.to_string())),
    }
}
