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

/// The stack of the server's threads (its runtime's workers, and the thread each job runs on):
/// the standard library's default.
pub const JOB_STACK: usize = queens_core::memory::DEFAULT_THREAD_STACK as usize;

/// Starts a job's `work` on a thread of its own, started through
/// [`queens_core::parallel::spawn`] (with [`JOB_STACK`]), for a job that answers by itself (a
/// stream's events). Where no thread starts, under an address-space limit (`ulimit -v`) that
/// leaves no room for its stack or at the limit on a user's threads (`ulimit -u`, a control
/// group's `pids.max`), the request is refused with 503 in a sentence that names the limit,
/// and the server serves on: the runtime's own blocking threads would end the whole server
/// where the system refuses one. Jobs are few (each holds a slot of [`Jobs`]), so a thread
/// each bounds the threads.
pub fn spawn_job(work: impl FnOnce() + Send + 'static) -> Result<(), ApiError> {
    queens_core::parallel::spawn(Some("queens-job"), Some(JOB_STACK), work)
        .map(drop)
        .map_err(|refusal| {
            ApiError::unavailable(format!(
                "this server cannot start a thread for the job: {refusal}; try again once a job \
                 has ended"
            ))
        })
}

/// Runs a job's `work` on a thread of its own, as [`spawn_job`], and gives a future of its
/// answer: the work's result, or, where it panicked, the panic's message.
pub fn run_blocking<F, R>(work: F) -> Result<impl Future<Output = Result<R, JobFailed>>, ApiError>
where
    F: FnOnce() -> R + Send + 'static,
    R: Send + 'static,
{
    let (answer, answered) = tokio::sync::oneshot::channel();
    spawn_job(move || {
        let _ = answer.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
    })?;
    Ok(async move {
        match answered.await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(panic)) => Err(JobFailed(panic_message(&*panic))),
            Err(_) => Err(JobFailed("its thread ended without an answer".to_owned())),
        }
    })
}

/// Why a job gave no answer: its panic's message.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct JobFailed(String);

/// A panic's message, where it is text.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "it panicked".to_owned())
}

/// Who sent a request, as the per-client limits count: its [`ClientKey`] (`None` when the
/// server does not know, as in router tests).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Client(Option<String>);

/// What makes two requests one client's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ClientKey {
    /// The peer's address, with every loopback address one client (so that 127.0.0.2 and
    /// 127.0.0.3 do not multiply a local user's share) and an IPv6 peer known by its /64
    /// network (what one host is usually given).
    #[default]
    Peer,
    /// A header set by a trusted reverse proxy in front of the server (such as
    /// `X-Forwarded-For`); requests without it fall back to [`ClientKey::Peer`].
    Header(axum::http::HeaderName),
}

impl std::str::FromStr for ClientKey {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim() {
            "peer" => Ok(ClientKey::Peer),
            other => other
                .strip_prefix("header:")
                .and_then(|name| axum::http::HeaderName::try_from(name.trim()).ok())
                .map(ClientKey::Header)
                .ok_or_else(|| {
                    format!(
                        "--client-key must be peer or header:NAME (such as header:X-Forwarded-For), got '{text}'"
                    )
                }),
        }
    }
}

/// The peer's key under [`ClientKey::Peer`].
fn peer_key(ip: IpAddr) -> String {
    let ip = match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 @ IpAddr::V4(_) => v4,
    };
    match ip {
        ip if ip.is_loopback() => "loopback".to_owned(),
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let network = u128::from(v6) & !((1u128 << 64) - 1);
            format!("{}/64", std::net::Ipv6Addr::from(network))
        }
    }
}

impl Client {
    /// The client of a request with these `headers`, from `peer`, under `key`.
    pub fn of(key: &ClientKey, headers: &axum::http::HeaderMap, peer: Option<IpAddr>) -> Client {
        if let ClientKey::Header(name) = key
            && let Some(value) = headers.get(name).and_then(|value| value.to_str().ok())
        {
            // A proxy's list names the original client first.
            let first = value.split(',').next().unwrap_or_default().trim();
            if let Ok(ip) = first.parse::<IpAddr>() {
                return Client(Some(peer_key(ip)));
            }
            return Client(Some(format!("header:{first}")));
        }
        Client(peer.map(peer_key))
    }
}

impl FromRequestParts<crate::AppState> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &crate::AppState,
    ) -> Result<Self, Self::Rejection> {
        // The connection's peer (or, in tests, a mocked one: `MockConnectInfo`).
        let peer = ConnectInfo::<SocketAddr>::from_request_parts(parts, state)
            .await
            .ok()
            .map(|ConnectInfo(address)| address.ip());
        Ok(Client::of(&state.limits().client_key, &parts.headers, peer))
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
    /// Analyses running per client.
    analysing: Arc<Mutex<HashMap<Client, usize>>>,
    analyses_per_client: usize,
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
    /// The client's count of jobs of this kind, counted down when the job ends.
    _holder: Holder,
    token: CancelToken,
}

impl Jobs {
    /// `total` jobs at once, at most `per_client` of them from one client, each stopped after
    /// `time_limit`.
    pub fn new(total: usize, per_client: usize, time_limit: Duration) -> Self {
        Jobs {
            slots: Arc::new(Semaphore::new(total)),
            analyses: Arc::new(Semaphore::new(ANALYSES)),
            analysing: Arc::default(),
            analyses_per_client: ANALYSES,
            total,
            per_client,
            running: Arc::default(),
            time_limit,
            server: CancelToken::new(),
        }
    }

    /// At most `per_client` analyses at once for one client (by default all of them).
    #[must_use]
    pub fn with_analyses_per_client(mut self, per_client: usize) -> Self {
        self.analyses_per_client = per_client.clamp(1, ANALYSES);
        self
    }

    /// Stops every job, running or to come: the server is shutting down.
    pub fn stop_all(&self) {
        self.server.cancel();
    }

    /// Jobs running now, analyses included.
    pub fn running(&self) -> usize {
        self.total - self.slots.available_permits() + ANALYSES - self.analyses.available_permits()
    }

    /// A slot for `client`'s analysis, waiting up to `ANALYSIS_WAIT` for one (and for the
    /// client to be under its share); 503 when the server is shutting down, 429 when none frees
    /// in time.
    pub async fn start_analysis(&self, client: Client) -> Result<Job, ApiError> {
        if self.server.is_cancelled() {
            return Err(ApiError::unavailable("the server is shutting down"));
        }
        let claimed = tokio::time::timeout(ANALYSIS_WAIT, async {
            loop {
                if claim(&self.analysing, &client, self.analyses_per_client) {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await;
        if claimed.is_err() {
            return Err(ApiError::busy(format!(
                "you already have {} analyses running; try again",
                self.analyses_per_client
            )));
        }
        // From here the claim is the job's, released when it is dropped.
        let holder = Holder {
            client: client.clone(),
            counts: Arc::clone(&self.analysing),
        };
        let slot = tokio::time::timeout(ANALYSIS_WAIT, Arc::clone(&self.analyses).acquire_owned())
            .await
            .ok()
            .and_then(Result::ok)
            .ok_or_else(|| ApiError::busy("the server is analysing many positions; try again"))?;
        let token = self.server.child();
        token.cancel_after(self.time_limit);
        Ok(Job {
            _slot: slot,
            _holder: holder,
            token,
        })
    }

    /// The time a job may run.
    pub fn time_limit(&self) -> Duration {
        self.time_limit
    }

    /// A slot for `client`'s job, or 429 when the server or this client is at its limit.
    pub fn start(&self, client: Client) -> Result<Job, ApiError> {
        self.start_for(client, self.time_limit)
    }

    /// Like [`start`](Self::start), for a job that may run `time_limit` rather than the
    /// server's usual time.
    pub fn start_for(&self, client: Client, time_limit: Duration) -> Result<Job, ApiError> {
        if self.server.is_cancelled() {
            return Err(ApiError::unavailable("the server is shutting down"));
        }
        if !claim(&self.running, &client, self.per_client) {
            return Err(ApiError::busy(format!(
                "you already have {} jobs running; wait for one to finish",
                self.per_client
            )));
        }
        let holder = Holder {
            client,
            counts: Arc::clone(&self.running),
        };
        let slot = Arc::clone(&self.slots).try_acquire_owned().map_err(|_| {
            ApiError::busy(format!(
                "the server is running its limit of {} jobs; try again shortly",
                self.total
            ))
        })?;
        let token = self.server.child();
        token.cancel_after(time_limit);
        Ok(Job {
            _slot: slot,
            _holder: holder,
            token,
        })
    }
}

/// Counts one more of `client`'s jobs in `counts` if it has fewer than `limit`.
fn claim(counts: &Mutex<HashMap<Client, usize>>, client: &Client, limit: usize) -> bool {
    let mut counts = counts.lock().unwrap_or_else(PoisonError::into_inner);
    let mine = counts.entry(client.clone()).or_insert(0);
    if *mine >= limit {
        return false;
    }
    *mine += 1;
    true
}

/// One of a client's counted jobs: counted down when dropped.
#[derive(Debug)]
struct Holder {
    client: Client,
    counts: Arc<Mutex<HashMap<Client, usize>>>,
}

impl Drop for Holder {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = counts.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.client);
            }
        }
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
    }
}
