//! Jobs: a limited number run at once (in total and per client), each with a time limit and a
//! cancel token that is raised when the job's request goes away.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use queens_core::{Budget, CancelToken};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;

/// Who sent a request: the peer's address when the server knows it (not in router tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Client(Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>();
        Ok(Client(peer.map(|info| info.0.ip())))
    }
}

/// The job slots of a server, and the token that stops all its jobs when it shuts down.
#[derive(Debug)]
pub struct Jobs {
    slots: Arc<Semaphore>,
    total: usize,
    per_client: usize,
    running: Arc<Mutex<HashMap<Client, usize>>>,
    time_limit: Duration,
    server: CancelToken,
}

/// A running job: holds its slot and cancels its token when dropped, so that a job whose
/// client left (its request future dropped) stops; its time limit raises the same token.
#[derive(Debug)]
pub struct Job {
    _slot: OwnedSemaphorePermit,
    client: Client,
    running: Arc<Mutex<HashMap<Client, usize>>>,
    token: CancelToken,
}

impl Jobs {
    /// `total` jobs at once, at most `per_client` of them from one client, each stopped after
    /// `time_limit`.
    pub fn new(total: usize, per_client: usize, time_limit: Duration) -> Self {
        Jobs {
            slots: Arc::new(Semaphore::new(total)),
            total,
            per_client,
            running: Arc::default(),
            time_limit,
            server: CancelToken::new(),
        }
    }

    /// Stops every job, running or to come: the server is shutting down.
    pub fn stop_all(&self) {
        self.server.cancel();
    }

    /// Jobs running now.
    pub fn running(&self) -> usize {
        self.total - self.slots.available_permits()
    }

    /// The time a job may run.
    pub fn time_limit(&self) -> Duration {
        self.time_limit
    }

    /// A slot for `client`'s job, or 429 when the server or this client is at its limit.
    pub fn start(&self, client: Client) -> Result<Job, ApiError> {
        if self.server.is_cancelled() {
            return Err(ApiError::unavailable("the server is shutting down"));
        }
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        let mine = running.entry(client).or_insert(0);
        if *mine >= self.per_client {
            return Err(ApiError::busy(format!(
                "you already have {} jobs running; wait for one to finish",
                self.per_client
            )));
        }
        let slot = Arc::clone(&self.slots).try_acquire_owned().map_err(|_| {
            ApiError::busy(format!(
                "the server is running its limit of {} jobs; try again shortly",
                self.total
            ))
        })?;
        *mine += 1;
        let token = self.server.child();
        token.cancel_after(self.time_limit);
        Ok(Job {
            _slot: slot,
            client,
            running: Arc::clone(&self.running),
            token,
        })
    }
}

impl Job {
    /// The token the job's work polls: cancelled when the job is dropped, raised at its time
    /// limit.
    pub fn token(&self) -> CancelToken {
        self.token.clone()
    }

    /// A budget for the job's work: its token, no caps.
    pub fn budget(&self) -> Budget {
        Budget::unlimited().with_cancel(self.token())
    }

    /// A guard that cancels the job when dropped: hold it in the request's future across the
    /// wait for the work, so that a client who leaves stops the work at once.
    pub fn cancel_on_drop(&self) -> CancelOnDrop {
        CancelOnDrop(self.token())
    }
}

/// Cancels a token when dropped.
#[derive(Debug)]
pub struct CancelOnDrop(CancelToken);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        self.token.cancel();
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = running.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                running.remove(&self.client);
            }
        }
    }
}
