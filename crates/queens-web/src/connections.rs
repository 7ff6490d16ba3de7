//! The server's connections: accepted up to a cap below the process's file limit, each given
//! a deadline for its request headers (which also bounds how long a kept-alive connection may
//! sit idle), and, when the cap is reached, the oldest connection that never sent a whole
//! request is closed to make room — so that cheap sockets that send nothing, or half a request
//! line, can neither exhaust the file descriptors nor lock real users out.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use queens_api::document::ErrorDocument;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::AbortHandle;
use tower::Service;

/// File descriptors kept for everything but client connections (files, the runtime, logs).
const RESERVED_FILES: usize = 64;

/// The connection cap when nothing else says: at most this many, and at most the file limit
/// less the descriptors kept for everything else (64).
pub const MAX_CONNECTIONS: usize = 1024;

/// The default cap: [`MAX_CONNECTIONS`], or fewer under a lower open-file limit.
pub fn default_cap() -> usize {
    open_file_limit()
        .map_or(MAX_CONNECTIONS, |limit| {
            limit.saturating_sub(RESERVED_FILES).min(MAX_CONNECTIONS)
        })
        .max(8)
}

/// The soft limit on open files (`ulimit -n`), where the system says (Linux).
fn open_file_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// The open connections, for the cap and `/api/status`.
#[derive(Debug, Default)]
pub struct Connections {
    open: Mutex<Open>,
}

#[derive(Debug, Default)]
struct Open {
    next: u64,
    by_age: BTreeMap<u64, Entry>,
}

#[derive(Debug)]
struct Entry {
    /// Whether the connection has sent a whole request head.
    served: Arc<AtomicBool>,
    abort: Option<AbortHandle>,
}

impl Connections {
    /// Connections open now.
    pub fn open(&self) -> usize {
        self.lock().by_age.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Room for one more connection under `cap`: closes the oldest connection that has not
    /// sent a request if need be. `None` when every open connection is in use.
    fn admit(&self, cap: usize) -> Option<(u64, Arc<AtomicBool>)> {
        let mut open = self.lock();
        if open.by_age.len() >= cap {
            let idle = open
                .by_age
                .iter()
                .find(|(_, entry)| !entry.served.load(Ordering::Relaxed))
                .map(|(&id, _)| id)?;
            if let Some(entry) = open.by_age.remove(&idle)
                && let Some(abort) = entry.abort
            {
                abort.abort();
            }
        }
        let id = open.next;
        open.next += 1;
        let served = Arc::new(AtomicBool::new(false));
        open.by_age.insert(
            id,
            Entry {
                served: Arc::clone(&served),
                abort: None,
            },
        );
        Some((id, served))
    }

    fn started(&self, id: u64, abort: AbortHandle) {
        match self.lock().by_age.get_mut(&id) {
            Some(entry) => entry.abort = Some(abort),
            // Closed to make room before its task started.
            None => abort.abort(),
        }
    }

    fn closed(&self, id: u64) {
        self.lock().by_age.remove(&id);
    }
}

/// Removes a connection from the registry when its task ends, however it ends.
struct Registered {
    connections: Arc<Connections>,
    id: u64,
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.connections.closed(self.id);
    }
}

/// How connections are served.
#[derive(Clone, Debug)]
pub struct ConnectionLimits {
    /// Connections open at once.
    pub cap: usize,
    /// Time for a request's headers, from the first byte a connection may send (or the end
    /// of its previous response).
    pub header_timeout: Duration,
}

/// Accepts connections on `listener` and serves `router` on each until `stop` resolves, then
/// lets the open ones finish for at most `grace`.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    connections: Arc<Connections>,
    limits: ConnectionLimits,
    stop: impl Future<Output = ()>,
    grace: Duration,
) {
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_headers(64);
    let mut stop = std::pin::pin!(stop);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stop => break,
        };
        // Out of file descriptors, or a connection reset before it was accepted: wait a moment.
        let Ok((stream, peer)) = accepted else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let Some((id, served)) = connections.admit(limits.cap) else {
            tokio::spawn(refuse(stream));
            continue;
        };
        let registered = Registered {
            connections: Arc::clone(&connections),
            id,
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            served.store(true, Ordering::Relaxed);
            request.extensions_mut().insert(ConnectInfo(peer));
            router.clone().call(request)
        });
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        let task = tokio::spawn(async move {
            let _registered = registered;
            let _ = connection.await;
        });
        connections.started(id, task.abort_handle());
    }
    drop(listener);
    let _ = tokio::time::timeout(grace, graceful.shutdown()).await;
}

/// Answers a connection over the cap with a 503 and closes it.
async fn refuse(mut stream: TcpStream) {
    let body =
        ErrorDocument::new("the server has too many connections open; try again shortly").to_json();
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\nretry-after: 1\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(response.as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_house_makes_room_by_closing_the_oldest_silent_connection() {
        let connections = Connections::default();
        let (first, first_served) = connections.admit(2).unwrap();
        let (second, _) = connections.admit(2).unwrap();
        first_served.store(true, Ordering::Relaxed);
        // The first has sent a request, so the second, silent one makes room.
        let (third, third_served) = connections.admit(2).unwrap();
        assert_eq!(connections.open(), 2);
        assert!(connections.lock().by_age.contains_key(&first));
        assert!(!connections.lock().by_age.contains_key(&second));
        third_served.store(true, Ordering::Relaxed);
        assert!(connections.admit(2).is_none(), "every connection is in use");
        connections.closed(third);
        assert_eq!(connections.open(), 1);
        assert!(default_cap() >= 8);
    }
}
