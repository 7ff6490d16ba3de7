//! `POST /api/neighbourhood`: the hill-climbing members' score of every single-queen move of a
//! board with one queen per column, and the move they take — the climbers' own code, so that
//! the page never repeats their scoring.

use axum::Json;
use axum::body::Bytes;
use queens_api::neighbourhood::{NeighbourhoodDocument, neighbourhood};
use serde::Deserialize;

use crate::error::ApiError;

/// The request body: the row of each column's queen.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NeighbourhoodRequest {
    rows: Vec<u32>,
}

/// The neighbourhood document of the posted board.
pub async fn post(body: Bytes) -> Result<Json<NeighbourhoodDocument>, ApiError> {
    let request: NeighbourhoodRequest = serde_json::from_slice(&body)
        .map_err(|error| ApiError::bad(format!("malformed request: {error}")))?;
    neighbourhood(&request.rows)
        .map(Json)
        .map_err(|error| ApiError::bad(error.to_string()))
}
