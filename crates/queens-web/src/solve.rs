//! `GET /api/solve`: a solver's run as server-sent events.

use std::convert::Infallible;
use std::ops::ControlFlow;

use axum::extract::State;
use axum::response::sse::{Event as SseEvent, Sse};
use queens_api::bounds::Bounds;
use queens_api::document::{FinishedEvent, Sampled, SolveDocument};
use queens_api::{SolveRequest, SolveSpec};
use queens_core::notation::parse_squares;
use queens_core::{Event, Interest, Observer, StopReason, Verdict};
use tokio::sync::mpsc;
use tokio_stream::Stream;

use crate::AppState;
use crate::error::ApiError;
use crate::events::{LAST_EVENT_GRACE, event_stream, send, send_last};
use crate::jobs::Client;
use crate::query::Params;
use crate::sampling::Sampler;

/// Query parameters with a meaning of their own; any other name is a solver parameter.
const KNOWN: [&str; 8] = [
    "n",
    "size",
    "m",
    "solver",
    "seed",
    "fix",
    "block",
    "max_iters",
];

/// Streams the run's events; the last one is `{"type": "finished", ...}`.
pub async fn solve(
    State(state): State<AppState>,
    client: Client,
    params: Params,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let (rows, cols) = board_size(&params, state.limits().solve_max_n)?;
    let fixed = parse_squares(params.text("fix").unwrap_or_default())
        .map_err(|e| ApiError::bad(format!("in fix: {e}")))?;
    let blocked = parse_squares(params.text("block").unwrap_or_default())
        .map_err(|e| ApiError::bad(format!("in block: {e}")))?;
    // Read once the solver is known to take each name.
    let settings = params
        .others(&KNOWN)
        .map(|(name, value)| (name.to_owned(), value.into()))
        .collect();
    let spec = SolveSpec {
        fixed,
        blocked,
        solver: params.text("solver").map(str::to_owned),
        seed: params.whole("seed", 0, u64::MAX)?,
        params: settings,
        bounds: Bounds::default().with_max_nodes(state.limits().watch_max_nodes),
        max_iterations: params.whole("max_iters", 1, u64::MAX)?,
        rows,
        cols,
        queen_count: params
            .whole("m", 0, u64::from(u32::MAX))?
            .map(|m| u32::try_from(m).expect("at most u32::MAX")),
    };
    let request = SolveRequest::new(state.catalogue(), spec)?;
    let limit = state.limits().job_memory;
    if request.memory_needed() > limit {
        return Err(ApiError::bad(format!(
            "{} needs about {} for this board; this server runs jobs of at most {}",
            request.solver,
            queens_core::error::human_bytes(request.memory_needed()),
            queens_core::error::human_bytes(limit)
        )));
    }

    let job = state.jobs().start(client)?;
    let max_events = state.limits().solve_max_events;
    let token = job.token();
    let (events, response) = event_stream(256, token.clone());
    crate::jobs::spawn_job(move || {
        let mut budget = request.budget(token);
        let mut forward = Forward {
            events: &events,
            token: budget.token().clone(),
            sampler: Sampler::new(max_events / 2),
            sent: 0,
            max_events,
            capped: false,
        };
        let result = request.run(&mut budget, &mut forward);
        let sampled = forward
            .sampler
            .sampling()
            .map(|(from, every)| Sampled { from, every });
        let document = match &result {
            Ok(outcome) => {
                let document = SolveDocument::new(&request.problem, request.solver, outcome);
                // The observer's stop is the server's event cap or the client leaving: say which.
                match outcome.verdict {
                    Verdict::Stopped(_) if forward.capped => document.with_stop_reason(format!(
                        "the server streams at most {max_events} events of a run"
                    )),
                    Verdict::Stopped(StopReason::Observer) => {
                        document.with_stop_reason(StopReason::Cancelled.to_string())
                    }
                    _ => document,
                }
            }
            Err(error) => SolveDocument::failed(&request.problem, request.solver, error),
        };
        let finished = serde_json::to_string(&FinishedEvent::new(document, forward.sent, sampled))
            .expect("documents serialize");
        let _ = send_last(&events, finished, LAST_EVENT_GRACE);
        drop(job);
    })?;
    Ok(response)
}

/// The board: `n=8` for 8×8, or `size=6x10` (rows × columns, as the command line writes it);
/// each side at most `max`.
fn board_size(params: &Params, max: u32) -> Result<(u32, u32), ApiError> {
    match (params.side("n", max)?, params.text("size")) {
        (Some(_), Some(_)) => Err(ApiError::bad(
            "give n (an N×N board) or size (R×C, e.g. 6x10), not both",
        )),
        (None, None) => Err(ApiError::bad("the query needs n or size")),
        (Some(n), None) => Ok((n, n)),
        (None, Some(size)) => queens_api::request::parse_size_up_to(size, max)
            .map_err(|e| ApiError::bad(e.to_string())),
    }
}

/// Sends the run's events to the client, whole and then sampled (see [`Sampler`]), but the
/// solver's own `finished` (replaced by a richer one); stops the run when the client is gone or
/// the event cap is reached.
struct Forward<'a> {
    events: &'a mpsc::Sender<String>,
    token: queens_core::CancelToken,
    sampler: Sampler,
    /// Lines sent to the client.
    sent: u64,
    max_events: u64,
    /// Whether the run was stopped by the event cap.
    capped: bool,
}

impl Observer for Forward<'_> {
    fn interest(&self) -> Interest {
        Interest::ALL
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        for line in self.sampler.lines(event) {
            if self.sent >= self.max_events {
                self.capped = true;
                return ControlFlow::Break(());
            }
            if !send(self.events, line, &self.token) {
                return ControlFlow::Break(());
            }
            self.sent += 1;
        }
        ControlFlow::Continue(())
    }
}
