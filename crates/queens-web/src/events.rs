//! Server-sent-event responses fed from a job's thread, one JSON text an event.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use queens_api::document::ErrorDocument;
use queens_core::CancelToken;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::{Stream, StreamExt};

/// A response of server-sent events and the sender that feeds it (blocking sends from the job's
/// thread wait while `capacity` events are unread). The response cancels `cancel` when it is
/// dropped, which is what happens when the client leaves.
pub fn event_stream(
    capacity: usize,
    cancel: CancelToken,
) -> (
    mpsc::Sender<String>,
    Sse<impl Stream<Item = Result<SseEvent, Infallible>>>,
) {
    let (events, received) = mpsc::channel::<String>(capacity);
    let stream = CancelOnDrop {
        inner: ReceiverStream::new(received),
        cancel,
    }
    .map(|data| Ok(SseEvent::default().data(data)));
    (events, Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// Sends `message` from a job's thread, waiting while the client has not read the events
/// before it, but never past `token`: a client that stops reading keeps its job only until the
/// job's time limit. `false` when the event was not sent (the client left, or the token).
pub fn send(events: &mpsc::Sender<String>, message: String, token: &CancelToken) -> bool {
    send_until(events, message, || token.is_cancelled())
}

/// Sends a job's last event: like [`send`], but after the job's token may have been raised (the
/// run ended at its time limit), waiting at most `grace` for room.
pub fn send_last(
    events: &mpsc::Sender<String>,
    message: String,
    grace: std::time::Duration,
) -> bool {
    let deadline = std::time::Instant::now() + grace;
    send_until(events, message, || std::time::Instant::now() >= deadline)
}

/// Sends `message`, waiting for room until the client leaves or `give_up` says to stop.
fn send_until(events: &mpsc::Sender<String>, message: String, give_up: impl Fn() -> bool) -> bool {
    let mut message = message;
    loop {
        match events.try_send(message) {
            Ok(()) => return true,
            Err(mpsc::error::TrySendError::Closed(_)) => return false,
            Err(mpsc::error::TrySendError::Full(back)) => {
                if give_up() {
                    return false;
                }
                message = back;
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
    }
}

/// Sends a job's last event: its `finished` document, or its error as `{"type": "error",
/// "error"}`.
pub fn send_end<E: std::fmt::Display>(
    events: &mpsc::Sender<String>,
    end: Result<serde_json::Value, E>,
) -> bool {
    let message = match end {
        Ok(finished) => finished.to_string(),
        Err(error) => ErrorDocument::event(error),
    };
    send_last(events, message, LAST_EVENT_GRACE)
}

/// How long a job's last event may wait for a slow reader.
pub const LAST_EVENT_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

/// A response stream that cancels a job's token when it is dropped: when the client
/// disconnects, the server drops the response, and the job stops even if it is between events.
#[derive(Debug)]
struct CancelOnDrop<S> {
    inner: S,
    cancel: CancelToken,
}

impl<S: Stream + Unpin> Stream for CancelOnDrop<S> {
    type Item = S::Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Pin::new(&mut self.inner).poll_next(cx)
    }
}

impl<S> Drop for CancelOnDrop<S> {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}
