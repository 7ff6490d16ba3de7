//! `GET /api/challenge?n=8&solvers=S,T`: the Queen's Challenge table, every locked square's run
//! as it finishes, as server-sent events.
//!
//! Brute force with every square of 8×8 locked in turn examines about 8.5·10⁹ boards, minutes of
//! work: the table has its own time limit (`challenge_time`), each run the watched runs' node cap,
//! and the page fills in the rows as the runs finish.

use std::convert::Infallible;

use axum::extract::State;
use axum::response::sse::{Event as SseEvent, Sse};
use queens_api::challenge::{Challenge, Progress};
use serde_json::json;
use tokio_stream::Stream;

use crate::AppState;
use crate::error::ApiError;
use crate::events::{event_stream, send, send_end};
use crate::jobs::Client;
use crate::query::Params;

/// Streams `{"type": "lock", "square", "solver", "nodes", "solved", "stopped"}` as each run
/// finishes, then `{"type": "finished", "table": …, "complete"}` where `table` is the document of
/// `queens challenge --json` (the runs that finished, when the time limit or the client stopped
/// it).
pub async fn challenge(
    State(state): State<AppState>,
    client: Client,
    params: Params,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    params.only("the challenge", &["n", "solvers"])?;
    let limits = state.limits();
    let n = params
        .side("n", limits.challenge_max_n)?
        .unwrap_or(queens_api::limits::DEFAULTS.side);
    let catalogue = state.catalogue();
    let solvers = match params.text("solvers") {
        None => catalogue.tree_searches(),
        Some(names) => catalogue.get_all(names.split(','))?,
    };
    let challenge = Challenge {
        n,
        solvers,
        max_nodes: Some(limits.watch_max_nodes),
    };
    challenge.check()?;
    let job = state.jobs().start_for(client, limits.challenge_time)?;
    let budget = job.budget();
    let token = job.token();
    let (events, response) = event_stream(64, job.token());
    crate::jobs::spawn_job(move || {
        let table = challenge.run(&budget, |progress| {
            // The page shows each run as it ends; the nodes of those under way it does not.
            let Progress::Finished(lock) = progress else {
                return;
            };
            let mut event = serde_json::to_value(lock).unwrap_or_default();
            event["type"] = json!("lock");
            send(&events, event.to_string(), &token);
        });
        let finished = table.map(|table| {
            json!({
                "type": "finished",
                "complete": table.is_complete(),
                "table": table,
            })
        });
        send_end(&events, finished);
        drop(job);
    })?;
    Ok(response)
}
