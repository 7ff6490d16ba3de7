//! The web page of the N-Queens workbench and the JSON API behind it.
//!
//! [`app`] builds the whole router, so that handlers are tested without a socket; [`serve`]
//! runs it on an address. The page (HTML, CSS and JavaScript embedded in the binary; no build
//! step) has three parts: **Configure** (click queens onto a board; every square coloured by what
//! it can still be, with its reason), **Watch** (any solver's placements, removals and moves,
//! played back with pause, step and speed, with a live score chart) and **Experiments and
//! counting**.
//!
//! The API:
//!
//! | route | does |
//! |---|---|
//! | `GET /api/solvers` | the solvers, their parameters and the server's limits |
//! | `POST /api/configure` | `{"n", "queens": [{"row", "col"}], "blocked"?: [{"row", "col"}], "engine"?, "compact"?, "explain"?: [{"row", "col"}]}` → the `queens configure --json` document, or with `"compact": true` the compact one ([`CompactAnalysis`](queens_api::configure::CompactAnalysis)) |
//! | `POST /api/instance` | `{"text", "diagonals"?}`: an n-Queens Completion instance file → `{"n", "queens", "blocked"}` |
//! | `GET /api/solve?n=8&solver=S&seed=1&fix=d1&max_iters=K&p=0.2` | server-sent events: the solver's events as JSON with a `type`, ending with `{"type": "finished", "solved", "queens", ...}` |
//! | `GET /api/count?n=12` | server-sent events: `progress` as subproblems finish, then `queens count --json`'s document typed `finished`, or `stopped` with how far it got |
//! | `GET /api/challenge?n=8&solvers=S,T` | server-sent events: `lock` as each locked square's run finishes, then `finished` with the `queens challenge --json` table |
//! | `POST /api/experiment` | `{"solvers", "sizes", "runs", "seed"?, "max_iters"?, "sweep"?}` → `{"rows": [...]}` |
//!
//! Bad input is a 400 with `{"error": "..."}`. Every job runs on a blocking thread, stops at
//! the server's time limit or when its client disconnects, and a limit on jobs at once (in total
//! and per client) answers 429 rather than queueing one client's work in front of everyone's.

mod analyses;
mod body;
mod challenge;
mod configure;
mod connections;
mod count;
mod error;
mod events;
mod experiment;
mod guard;
mod jobs;
mod neighbourhood;
mod page;
mod query;
mod sampling;
mod solve;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::handler::Handler;
use axum::middleware;
use axum::routing::{MethodRouter, get, post};
use queens_api::Catalogue;
use queens_api::configure::Configurator;

pub use connections::{Connections, MAX_CONNECTIONS};
pub use error::ApiError;
pub use jobs::{Client, ClientKey, JOB_STACK, Job, Jobs};

/// What the server lets one request do.
#[derive(Clone, Debug)]
pub struct ServeLimits {
    /// Jobs running at once.
    pub jobs: usize,
    /// Jobs running at once for one client.
    pub jobs_per_client: usize,
    /// Wall time of one job.
    pub job_time: Duration,
    /// The largest board the configurator analyses.
    pub configure_max_n: u32,
    /// The largest board a watched solver runs on.
    pub solve_max_n: u32,
    /// Events one watched run may send.
    pub solve_max_events: u64,
    /// Nodes one run of a tree search may examine in an experiment.
    pub solve_max_nodes: u64,
    /// Nodes one watched run may examine: enough for brute force with a locked queen on 8×8
    /// (344,016,951 boards with d1); the job's time bounds it too.
    pub watch_max_nodes: u64,
    /// The largest board counted.
    pub count_max_n: u32,
    /// The largest board of the Queen's Challenge table (every square locked in turn).
    pub challenge_max_n: u32,
    /// Wall time of one challenge table: brute force over the 64 locks of 8×8 takes minutes.
    pub challenge_time: Duration,
    /// The largest board in an experiment.
    pub experiment_max_n: u32,
    /// CPU seconds one experiment may cost at worst (every run spending its cap): the bound on
    /// what an experiment may ask, whatever its number of runs.
    pub experiment_max_cpu_seconds: f64,
    /// Wall time of one experiment: the original studies (35,000 runs, Q = 3 against Q = 4 up
    /// to N = 256) take seconds to a minute or two.
    pub experiment_time: Duration,
    /// Memory one job may take (the solver's estimate for its board).
    pub job_memory: u128,
    /// Bytes of a request body.
    pub body_bytes: usize,
    /// Origins (`http://host:port`) whose pages may call the API, beside the server's own page.
    pub allowed_origins: Vec<String>,
    /// Connections open at once (below the process's open-file limit).
    pub connections: usize,
    /// Time for a request's headers, which also closes a kept-alive connection left idle.
    pub header_timeout: Duration,
    /// Time for a request's body.
    pub body_timeout: Duration,
    /// Configurator analyses running at once for one client.
    pub analyses_per_client: usize,
    /// What makes two requests one client's, for the per-client limits.
    pub client_key: ClientKey,
}

/// The body limit that lets the page send any position of an N×N board it configures: every
/// square blocked or holding a queen, as `{"row": R, "col": C}` objects (at most 29 bytes each
/// with their comma and spaces up to N = 1024), and room for the rest of the request.
pub fn body_bytes_for(n: u32) -> usize {
    let squares = n as usize * n as usize;
    squares * 32 + (64 << 10)
}

impl Default for ServeLimits {
    fn default() -> Self {
        ServeLimits {
            jobs: 8,
            jobs_per_client: 4,
            job_time: Duration::from_secs(30),
            configure_max_n: 200,
            solve_max_n: 1000,
            solve_max_events: 200_000,
            solve_max_nodes: 50_000_000,
            watch_max_nodes: 2_000_000_000,
            count_max_n: 18,
            challenge_max_n: 8,
            challenge_time: Duration::from_secs(300),
            experiment_max_n: 256,
            experiment_max_cpu_seconds: 600.0,
            experiment_time: Duration::from_secs(300),
            job_memory: 256 << 20,
            body_bytes: body_bytes_for(200),
            allowed_origins: Vec::new(),
            connections: connections::default_cap(),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            analyses_per_client: 4,
            client_key: ClientKey::Peer,
        }
    }
}

/// What every handler shares.
#[derive(Clone, Debug)]
pub struct AppState {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    configurator: Arc<Configurator>,
    analyses: analyses::Analyses,
    jobs: Jobs,
    limits: ServeLimits,
    catalogue: Catalogue,
    connections: Arc<Connections>,
}

impl AppState {
    /// A server of the standard solvers with these limits and no diagrams built yet.
    pub fn new(limits: ServeLimits) -> Self {
        AppState::with_catalogue(limits, Catalogue::standard().clone())
    }

    /// A server of `catalogue`'s solvers.
    pub fn with_catalogue(limits: ServeLimits, catalogue: Catalogue) -> Self {
        AppState {
            shared: Arc::new(Shared {
                configurator: Arc::new(
                    Configurator::new().with_build_memory(limits.job_memory as u64),
                ),
                analyses: analyses::Analyses::default(),
                jobs: Jobs::new(limits.jobs, limits.jobs_per_client, limits.job_time)
                    .with_analyses_per_client(limits.analyses_per_client),
                limits,
                catalogue,
                connections: Arc::default(),
            }),
        }
    }

    fn catalogue(&self) -> &Catalogue {
        &self.shared.catalogue
    }

    fn limits(&self) -> &ServeLimits {
        &self.shared.limits
    }

    fn jobs(&self) -> &Jobs {
        &self.shared.jobs
    }

    fn connections(&self) -> &Arc<Connections> {
        &self.shared.connections
    }

    fn configurator(&self) -> Arc<Configurator> {
        Arc::clone(&self.shared.configurator)
    }

    fn analyses(&self) -> &analyses::Analyses {
        &self.shared.analyses
    }
}

/// The page and the API.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/", get(page::file))
        .route("/style.css", get(page::file))
        .route("/favicon.svg", get(page::file))
        .route("/favicon.ico", get(page::file))
        .route("/js/{module}", get(page::file))
        .route("/api/solvers", get(page::solvers))
        .route("/api/status", get(page::status))
        .route("/api/configure", json_post(&state, configure::configure))
        .route("/api/instance", json_post(&state, configure::instance))
        .route("/api/neighbourhood", json_post(&state, neighbourhood::post))
        .route("/api/solve", get(solve::solve))
        .route("/api/count", get(count::count))
        .route("/api/challenge", get(challenge::challenge))
        .route("/api/experiment", json_post(&state, experiment::experiment))
        .route(
            "/api/experiment/stream",
            json_post(&state, experiment::experiment_stream),
        )
        .layer(DefaultBodyLimit::max(state.limits().body_bytes))
        .layer(middleware::from_fn_with_state(state.clone(), guard::check))
        .layer(middleware::map_response(guard::json_errors))
        .with_state(state)
}

/// A POST route whose body must be JSON. The check is a layer on the POST method alone, so that
/// a POST to a route that takes none stays 405.
fn json_post<H, T>(state: &AppState, handler: H) -> MethodRouter<AppState>
where
    H: Handler<T, AppState>,
    T: 'static,
{
    post(handler).route_layer(middleware::from_fn_with_state(
        state.clone(),
        guard::json_body,
    ))
}

/// How long a stopping server waits for its connections after it has stopped their jobs: long
/// enough for a client that reads to get its last document, short enough that a client that
/// does not read holds the stop up for a second only.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// Serves the page on `addr` until Ctrl-C or SIGTERM, calling `ready` with the bound address
/// (which tells the port when `addr` asked for port 0). On the signal every job is stopped, and
/// the server returns once its connections have closed, or after a few seconds.
pub async fn serve(
    addr: SocketAddr,
    limits: ServeLimits,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    ready(listener.local_addr()?);
    let state = AppState::new(limits);
    let diagrams = state.configurator();
    // The configurator's diagrams up to 12×12 take half a second to build: do it before the
    // first click asks (where the address space has room for the thread; each diagram where
    // the memory left has room for it).
    let _ = jobs::spawn_job(move || {
        for n in 1..=12 {
            diagrams.diagram(n);
        }
    });
    let jobs = state.clone();
    let connection_limits = connections::ConnectionLimits {
        cap: state.limits().connections,
        header_timeout: state.limits().header_timeout,
    };
    connections::serve(
        listener,
        app(state.clone()),
        Arc::clone(state.connections()),
        connection_limits,
        async move {
            shutdown_signal().await;
            jobs.jobs().stop_all();
        },
        SHUTDOWN_GRACE,
    )
    .await;
    Ok(())
}

/// Ctrl-C, or SIGTERM on Unix.
async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
}
