//! `POST /api/configure`: the configurator's analysis of a position, whole or compact;
//! `POST /api/instance`: an n-Queens Completion instance file read into a position the page can
//! open.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use queens_api::bounds::Bounds;
use queens_api::configure::{
    Analysis, AnalysisError, ConfigureRequest as Checked, ConfigureSpec, Position, Status,
};
use queens_core::Square;
use queens_core::instance::Instance;
use queens_core::json::WholeNumber;
use serde::{Deserialize, Serialize};

use crate::AppState;
use crate::analyses::Key;
use crate::body::JsonBody;
use crate::error::ApiError;
use crate::jobs::Client;
use crate::query::check_side;

/// The request body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigureRequest {
    /// Any whole number, so that one past the server's limit, even past every machine number,
    /// is refused by that limit and not by the type's.
    n: WholeNumber,
    #[serde(default)]
    queens: Vec<Square>,
    #[serde(default)]
    blocked: Vec<Square>,
    #[serde(default)]
    engine: Option<String>,
    /// The compact document instead of the whole one.
    #[serde(default)]
    compact: bool,
    /// The squares whose reasons a compact document carries (on boards beyond 32×32).
    #[serde(default)]
    explain: Vec<Square>,
}

/// Analyses the posted position: the body is exactly `queens configure --json`'s document, or
/// with `"compact": true` the compact one (statuses as a string, the reasons of the squares in
/// `explain`). The last few analyses are kept, so that asking again for a position's reasons
/// costs no second analysis.
pub async fn configure(
    State(state): State<AppState>,
    client: Client,
    JsonBody(request): JsonBody<ConfigureRequest>,
) -> Result<Response, ApiError> {
    let n = check_side(request.n, state.limits().configure_max_n)?;
    if !request.explain.is_empty() && !request.compact {
        return Err(ApiError::bad(
            "explain goes with \"compact\": true (the whole document gives every reason)",
        ));
    }
    if let Some(square) = request.explain.iter().find(|s| s.row >= n || s.col >= n) {
        return Err(ApiError::bad(format!(
            "explain: square (row {}, col {}) is off the {n}×{n} board",
            square.row, square.col
        )));
    }
    let checked = Checked::new(&ConfigureSpec {
        n,
        queens: request.queens,
        blocked: request.blocked,
        engine: request.engine,
        bounds: Bounds::default(),
    })?;
    let position = checked.position();
    let engine = checked.engine();
    let key = Key::new(n, position.queens(), position.blocked(), engine);
    let analysis = if let Some(kept) = state.analyses().get(&key) {
        kept
    } else {
        let analysis = Arc::new(analyse(&state, client, checked).await?);
        // One the budget cut short is not kept: asked again, it may get further.
        let complete = analysis.solvable.is_some() && analysis.count(Status::Unknown) == 0;
        if complete {
            state.analyses().keep(key, Arc::clone(&analysis));
        }
        analysis
    };
    Ok(if request.compact {
        Json(analysis.compact(&request.explain)).into_response()
    } else {
        Json(&*analysis).into_response()
    })
}

/// The analysis `request` asks for, as one of `client`'s jobs.
async fn analyse(state: &AppState, client: Client, request: Checked) -> Result<Analysis, ApiError> {
    let job = state.jobs().start_analysis(client).await?;
    let budget = job.budget();
    let _stop_if_the_client_leaves = job.cancel_on_drop();
    let configurator = state.configurator();
    let analysis = crate::jobs::run_blocking(move || request.analyse(&configurator, &budget))?
        .await
        .map_err(|error| ApiError::internal(format!("the analysis failed: {error}")))?;
    drop(job);
    match analysis {
        Ok(analysis) => Ok(analysis),
        Err(AnalysisError::Cancelled | AnalysisError::DiagramStopped { .. }) => Err(
            ApiError::busy("the analysis ran out of time on this server"),
        ),
        Err(room @ AnalysisError::DiagramRoom { .. }) => {
            Err(ApiError::unavailable(room.to_string()))
        }
        Err(error) => Err(ApiError::bad(error.to_string())),
    }
}

/// The body of `POST /api/instance`: an instance file's text, and how many of its excluded
/// diagonals to take.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstanceRequest {
    text: String,
    #[serde(default)]
    diagonals: Option<usize>,
}

/// The position of an instance, as the configurator takes it.
#[derive(Debug, Serialize)]
pub struct InstancePosition {
    n: u32,
    queens: Vec<Square>,
    blocked: Vec<Square>,
}

/// Reads an instance (CSPLib 079 or 080, or a JSON problem) into `{"n", "queens", "blocked"}`;
/// a bad file is a 400 with its line and what was expected there, as on the command line.
pub async fn instance(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<InstanceRequest>,
) -> Result<Json<InstancePosition>, ApiError> {
    let instance = Instance::parse(&request.text)?.with_diagonals(request.diagonals)?;
    if instance.rows != instance.cols || instance.queens.is_some_and(|q| q != instance.rows) {
        return Err(ApiError::bad(
            "the configurator works on N queens on an N×N board",
        ));
    }
    let n = check_side(instance.rows, state.limits().configure_max_n)?;
    let blocked = instance.blocked_squares()?;
    // Checked as the configurator will take it: queens on the board, apart, off blocked squares.
    let position = Position::with_blocked(n, instance.fixed, blocked)?;
    Ok(Json(InstancePosition {
        n,
        queens: position.queens().to_vec(),
        blocked: position.blocked().to_vec(),
    }))
}
