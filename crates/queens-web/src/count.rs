//! `GET /api/count?n=N`: all and unique solutions, with progress, as server-sent events.

use std::convert::Infallible;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use axum::extract::{RawQuery, State};
use axum::response::sse::{Event as SseEvent, Sse};
use queens_exact::count::{CountPlan, Tally};
use serde_json::json;
use tokio_stream::Stream;

use crate::AppState;
use crate::error::ApiError;
use crate::events::event_stream;
use crate::jobs::Client;
use crate::query::{Params, check_side};

/// Streams `{"type": "progress", "done", "of"}` as subproblems finish, then `{"type":
/// "finished", "n", "total", "unique", "elapsed_ms"}` (or `"stopped"` at the time limit).
pub async fn count(
    State(state): State<AppState>,
    client: Client,
    RawQuery(query): RawQuery,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let params = Params::parse(query.as_deref());
    let n = check_side(params.require("n")?, state.limits().count_max_n)?;
    let plan = CountPlan::new(n).map_err(|e| ApiError::bad(e.to_string()))?;
    let job = state.jobs().start(client)?;
    let cancel = job.cancel_flag();
    let (events, response) = event_stream(64, cancel.clone());
    tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        let ids: Vec<usize> = (0..plan.subproblems().len()).collect();
        let sum = Mutex::new(Tally::default());
        let done = AtomicUsize::new(0);
        plan.count_parallel(&ids, cancel.as_atomic(), |_, tally| {
            *sum.lock().expect("no panics while holding the lock") += tally;
            let done = done.fetch_add(1, Ordering::Relaxed) + 1;
            // Progress may be dropped when the client reads slowly; the result never is.
            let progress = json!({"type": "progress", "done": done, "of": ids.len()});
            let _ = events.try_send(progress.to_string());
        });
        let tally = sum.into_inner().expect("no panics while holding the lock");
        let finished = if done.into_inner() == ids.len() {
            json!({
                "type": "finished",
                "n": n,
                "total": u64::try_from(tally.total).ok(),
                "unique": u64::try_from(tally.unique).ok(),
                "elapsed_ms": started.elapsed().as_secs_f64() * 1e3,
            })
        } else {
            json!({"type": "stopped", "n": n, "reason": "the time limit of this server"})
        };
        let _ = events.blocking_send(finished.to_string());
        drop(job);
    });
    Ok(response)
}
