//! `GET /api/solve`: a solver's run as server-sent events.

use std::convert::Infallible;
use std::ops::ControlFlow;

use axum::extract::{RawQuery, State};
use axum::response::sse::{Event as SseEvent, Sse};
use queens_core::notation::parse_squares;
use queens_core::solve::run;
use queens_core::{Budget, Event, Interest, Observer, Problem, Square, Verdict};
use queens_lab::{Settings, SolverKind};
use serde_json::json;
use tokio::sync::mpsc;
use tokio_stream::Stream;

use crate::AppState;
use crate::error::ApiError;
use crate::events::event_stream;
use crate::jobs::Client;
use crate::query::{Params, check_side};

/// Query parameters with a meaning of their own; any other name is a solver parameter.
const KNOWN: [&str; 5] = ["n", "solver", "seed", "fix", "max_iters"];

/// Nodes an exhaustive solver may examine in one watched run.
const MAX_NODES: u64 = 50_000_000;

/// Streams the run's events; the last one is `{"type": "finished", ...}`.
pub async fn solve(
    State(state): State<AppState>,
    client: Client,
    RawQuery(query): RawQuery,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let params = Params::parse(query.as_deref());
    let n = check_side(params.require("n")?, state.limits().solve_max_n)?;
    let fixed = parse_squares(params.text("fix").unwrap_or_default())
        .map_err(|e| ApiError::bad(format!("in fix: {e}")))?;
    let problem = Problem::square(n)
        .and_then(|problem| problem.with_fixed(fixed))
        .map_err(|e| ApiError::bad(e.to_string()))?;
    let kind = match params.text("solver") {
        Some(name) => name
            .parse::<SolverKind>()
            .map_err(|e| ApiError::bad(e.to_string()))?,
        None => SolverKind::best_for(&problem),
    };
    kind.check(&problem)
        .map_err(|e| ApiError::bad(e.to_string()))?;
    let mut settings = Settings {
        max_iterations: params.get("max_iters")?,
        ..Settings::default()
    };
    for (name, value) in params.others(&KNOWN) {
        let value: f64 = value
            .trim()
            .parse()
            .map_err(|_| ApiError::bad(format!("{name} must be a number, got '{value}'")))?;
        settings.values.insert(name.to_owned(), value);
    }
    kind.check_settings(&settings, n).map_err(ApiError::bad)?;
    let seed: u64 = params.get("seed")?.unwrap_or(1);

    let job = state.jobs().start(client)?;
    let max_events = state.limits().solve_max_events;
    let time_limit = state.jobs().time_limit();
    let cancel = job.cancel_flag();
    let (events, response) = event_stream(256, cancel.clone());
    tokio::task::spawn_blocking(move || {
        let mut budget = Budget::unlimited()
            .with_max_nodes(MAX_NODES)
            .with_time_limit(time_limit)
            .with_cancel(cancel);
        let mut solver = kind.build(seed, &settings);
        let mut forward = Forward {
            events: &events,
            sent: 0,
            max_events,
        };
        let finished = match run(solver.as_mut(), &problem, &mut budget, &mut forward) {
            Ok(outcome) => {
                let is_solved = matches!(outcome.verdict, Verdict::Solved(_));
                let queens: Vec<Square> = match &outcome.verdict {
                    Verdict::Solved(board) => board.sorted_queens(),
                    _ => Vec::new(),
                };
                let stop_reason = match outcome.verdict {
                    Verdict::Stopped(reason) => Some(reason.to_string()),
                    _ => None,
                };
                json!({
                    "type": "finished",
                    "solved": is_solved,
                    "status": outcome.verdict.status(),
                    "stop_reason": stop_reason,
                    "queens": queens,
                    "nodes": outcome.stats.nodes,
                    "iterations": outcome.stats.iterations,
                    "elapsed_ms": outcome.stats.elapsed.as_secs_f64() * 1e3,
                    "events": forward.sent,
                })
            }
            Err(error) => json!({
                "type": "finished",
                "solved": false,
                "status": "error",
                "stop_reason": error.to_string(),
                "queens": [],
            }),
        };
        let _ = events.blocking_send(finished.to_string());
        drop(job);
    });
    Ok(response)
}

/// Sends every event but the solver's own `finished` (replaced by a richer one) to the client;
/// stops the run when the client is gone or the event limit is reached.
struct Forward<'a> {
    events: &'a mpsc::Sender<String>,
    sent: u64,
    max_events: u64,
}

impl Observer for Forward<'_> {
    fn interest(&self) -> Interest {
        Interest::ALL
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        if matches!(event, Event::Finished { .. }) {
            return ControlFlow::Continue(());
        }
        if self.sent >= self.max_events {
            return ControlFlow::Break(());
        }
        self.sent += 1;
        let json = serde_json::to_string(event).expect("events serialize");
        match self.events.blocking_send(json) {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        }
    }
}
