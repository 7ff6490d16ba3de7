//! `POST /api/neighbourhood`: the hill-climbing members' score of every single-queen move of a
//! board with one queen per column, and the move they take — the climbers' own code, so that
//! the page never repeats their scoring.

use axum::Json;
use queens_api::neighbourhood::{NeighbourhoodDocument, neighbourhood};
use serde::Deserialize;

use crate::body::JsonBody;
use crate::error::ApiError;

/// The request body: the row of each column's queen.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NeighbourhoodRequest {
    rows: Vec<u32>,
}

/// The neighbourhood document of the posted board.
pub async fn post(
    JsonBody(request): JsonBody<NeighbourhoodRequest>,
) -> Result<Json<NeighbourhoodDocument>, ApiError> {
    neighbourhood(&request.rows)
        .map(Json)
        .map_err(|error| ApiError::bad(error.to_string()))
}
