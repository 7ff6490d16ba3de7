//! `GET /api/count?n=N`: all and unique solutions, with progress, as server-sent events.

use std::convert::Infallible;

use axum::extract::State;
use axum::response::sse::{Event as SseEvent, Sse};
use queens_api::count::{CountRequest, CountSpec};
use queens_api::document::{CountDocument, ErrorDocument, Typed};
use serde_json::json;
use tokio_stream::Stream;

use crate::AppState;
use crate::error::ApiError;
use crate::events::{LAST_EVENT_GRACE, event_stream, send_last};
use crate::jobs::Client;
use crate::query::Params;

/// Streams `{"type": "progress", "done", "of"}` as subproblems finish, then the document of
/// `queens count --json` typed `"finished"`, or `"stopped"` at the job's time limit (with
/// `"complete": false` and how far it got), or `{"type": "error", "error"}`.
pub async fn count(
    State(state): State<AppState>,
    client: Client,
    params: Params,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    // A position's count (fixed or blocked squares), an engine or a shard are the command
    // line's: a parameter the route would drop could change the answer.
    params.only("the count", &["n"])?;
    let n = params
        .side("n", state.limits().count_max_n)?
        .ok_or_else(|| ApiError::bad("the query needs n"))?;
    // The estimate's guard is the job's own time limit here.
    let request = CountRequest::new(&CountSpec {
        max_estimate: Some(f64::INFINITY),
        ..CountSpec::new(n)
    })?;
    let device = request.device().map(|device| device.name.clone());
    let job_plan = request.into_job();
    let engine = job_plan.plan().engine().name();
    let job = state.jobs().start(client)?;
    let budget = job.budget();
    let (events, response) = event_stream(64, job.token());
    crate::jobs::spawn_job(move || {
        let threads = job_plan.threads();
        let counted = job_plan.run(&budget, |done, of| {
            // Progress may be dropped when the client reads slowly; the result never is.
            let progress = json!({"type": "progress", "done": done, "of": of});
            let _ = events.try_send(progress.to_string());
        });
        // The document `queens count --json` prints (less `counted_on`, which would name this
        // server's host to its clients), as the stream's last event: "finished"
        // or "stopped" (its `complete`, `stop_reason`, `finished` and `parts` say how far).
        let finished = match counted {
            Ok(result) => {
                let kind = if result.is_complete() {
                    "finished"
                } else {
                    "stopped"
                };
                let document =
                    CountDocument::of_result(n, &result, threads, engine).on_device(device);
                serde_json::to_string(&Typed::new(kind, document)).expect("documents serialize")
            }
            Err(error) => ErrorDocument::event(error),
        };
        let _ = send_last(&events, finished, LAST_EVENT_GRACE);
        drop(job);
    })?;
    Ok(response)
}
