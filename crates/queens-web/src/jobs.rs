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

/// Analyses running at once.
const ANALYSES: usize = 16;

/// How long an analysis waits for a slot.
const ANALYSIS_WAIT: Duration = Duration::from_secs(1);

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
///
/// Long jobs (watched runs, counts, experiments) share `total` slots, at most `per_client` per
/// client, and are refused at once when none is free. Analyses of the configurator are short
/// and interactive: they have slots of their own, so that a click is answered however many
/// long jobs run, and wait a moment for one rather than fail.
#[derive(Debug)]
pub struct Jobs {
    slots: Arc<Semaphore>,
    analyses: Arc<Semaphore>,
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
    /// The client whose long job this is (analyses are not counted per client).
    client: Option<Client>,
    running: Arc<Mutex<HashMap<Client, usize>>>,
    token: CancelToken,
}

impl Jobs {
    /// `total` jobs at once, at most `per_client` of them from one client, each stopped after
    /// `time_limit`.
    pub fn new(total: usize, per_client: usize, time_limit: Duration) -> Self {
        Jobs {
            slots: Arc::new(Semaphore::new(total)),
            analyses: Arc::new(Semaphore::new(ANALYSES)),
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

    /// Jobs running now, analyses included.
    pub fn running(&self) -> usize {
        self.total - self.slots.available_permits() + ANALYSES - self.analyses.available_permits()
    }

    /// A slot for an analysis, waiting up to [`ANALYSIS_WAIT`] for one; 503 when the server
    /// is shutting down, 429 when none frees in time.
    pub async fn start_analysis(&self) -> Result<Job, ApiError> {
        if self.server.is_cancelled() {
            return Err(ApiError::unavailable("the server is shutting down"));
        }
        let slot = tokio::time::timeout(ANALYSIS_WAIT, Arc::clone(&self.analyses).acquire_owned())
            .await
            .ok()
            .and_then(Result::ok)
            .ok_or_else(|| ApiError::busy("the server is analysing many positions; try again"))?;
        let token = self.server.child();
        token.cancel_after(self.time_limit);
        Ok(Job {
            _slot: slot,
            client: None,
            running: Arc::clone(&self.running),
            token,
        })
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
            client: Some(client),
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
        let Some(client) = self.client else {
            return;
        };
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = running.get_mut(&client) {
            *count -= 1;
            if *count == 0 {
                running.remove(&client);
            }
        }
    }
}
