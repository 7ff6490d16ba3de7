//! Server-sent-event responses fed from a job's thread, one JSON text an event.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
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
