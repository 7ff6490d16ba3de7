//! The one stop rule: a [`Budget`] of nodes, iterations and wall time, with a [`CancelToken`].
//!
//! Every run in the workbench stops the same way — a solver, a count, a configurator analysis,
//! an experiment, the challenge table: by a [`StopReason`] from its budget, never by a rule of
//! its own. What the caps mean:
//!
//! - **A cap of K iterations lets a run perform K iterations.** A solver asks
//!   [`check_iterations(i)`](Budget::check_iterations) before its `i`-th iteration (counting
//!   from 1), which fails once `i > K`. What an iteration is (a move, a swap tried, a
//!   generation, a force step) is the solver's and says so in its descriptor.
//! - **A cap of K nodes lets a search examine K nodes**, asked the same way with
//!   [`check_nodes`](Budget::check_nodes).
//! - **A wall-time limit and cancellation raise the budget's token.** Ctrl-C, SIGTERM, a web
//!   client that leaves and a time limit all end up in one flag, which every check reads (one
//!   relaxed atomic load, so solvers check it on every count and stop at once). A time limit
//!   runs from [`Budget::start`]; a timer thread raises the token when it passes.
//!
//! Long work that has no counts of its own (building a population, streaming a board, counting
//! a subproblem) calls [`Budget::check`] between pieces.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

/// Why a run stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The node cap was reached.
    NodeLimit(u64),
    /// The iteration cap was reached.
    IterationLimit(u64),
    /// The wall-time limit passed.
    TimeLimit(Duration),
    /// The token was cancelled (Ctrl-C, SIGTERM, a client that left).
    Cancelled,
    /// An observer asked to stop.
    Observer,
    /// A search that takes only improving moves stands where none improves, though the board
    /// is not solved (plain hill climbing): it would never move again.
    LocalOptimum,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::NodeLimit(n) => write!(f, "budget exhausted ({n} nodes)"),
            StopReason::IterationLimit(n) => write!(f, "budget exhausted ({n} iterations)"),
            StopReason::TimeLimit(t) => write!(f, "time limit reached ({:.3} s)", t.as_secs_f64()),
            StopReason::Cancelled => f.write_str("cancelled"),
            StopReason::Observer => f.write_str("stopped by the viewer"),
            StopReason::LocalOptimum => {
                f.write_str("stuck on a local optimum (no single move improves the score)")
            }
        }
    }
}

/// Not raised.
const LIVE: u8 = 0;
/// Raised by [`CancelToken::cancel`].
const CANCELLED: u8 = 1;
/// Raised by the timer of a time limit.
const TIMED_OUT: u8 = 2;
/// Not raised, but with a deadline no timer thread watches (none could be started): whoever
/// looks at the token looks at the clock.
const WATCH_CLOCK: u8 = 3;

/// A flag that stops every run holding it, from any thread: Ctrl-C and SIGTERM, a web client
/// that left, a time limit that passed.
///
/// Cloning shares the flag. A [`child`](Self::child) is raised with its parent, or on its own
/// (by its own time limit) without raising the parent.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<TokenState>);

#[derive(Debug, Default)]
struct TokenState {
    raised: AtomicU8,
    time_limit: Mutex<Option<Duration>>,
    /// The deadline looked at on every check where no timer thread watches it.
    unwatched_deadline: Mutex<Option<Instant>>,
    parent: Option<CancelToken>,
}

impl CancelToken {
    /// A token not yet raised.
    pub fn new() -> Self {
        CancelToken::default()
    }

    /// A token raised whenever this one is, and also on its own.
    #[must_use]
    pub fn child(&self) -> CancelToken {
        CancelToken(Arc::new(TokenState {
            parent: Some(self.clone()),
            ..TokenState::default()
        }))
    }

    /// Asks every run holding this token (or a child of it) to stop.
    pub fn cancel(&self) {
        self.raise(CANCELLED);
    }

    fn raise(&self, why: u8) {
        for from in [LIVE, WATCH_CLOCK] {
            let raised =
                self.0
                    .raised
                    .compare_exchange(from, why, Ordering::Relaxed, Ordering::Relaxed);
            if raised.is_ok() {
                return;
            }
        }
    }

    /// Whether this token or a parent was raised.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        let raised = self.0.raised.load(Ordering::Relaxed);
        (raised != LIVE && (raised != WATCH_CLOCK || self.deadline_passed()))
            || self
                .0
                .parent
                .as_ref()
                .is_some_and(CancelToken::is_cancelled)
    }

    /// Whether the deadline no timer watches has passed; raises the token if it has.
    #[cold]
    fn deadline_passed(&self) -> bool {
        let deadline = *self
            .0
            .unwatched_deadline
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let passed = deadline.is_some_and(|deadline| Instant::now() >= deadline);
        if passed {
            self.raise(TIMED_OUT);
        }
        passed
    }

    /// Why the token was raised, if it was.
    pub fn reason(&self) -> Option<StopReason> {
        match self.0.raised.load(Ordering::Relaxed) {
            CANCELLED => Some(StopReason::Cancelled),
            TIMED_OUT => Some(StopReason::TimeLimit(
                self.0
                    .time_limit
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .unwrap_or_default(),
            )),
            _ => self.0.parent.as_ref().and_then(CancelToken::reason),
        }
    }

    /// `Err` with the reason once the token is raised.
    #[inline]
    pub fn check(&self) -> Result<(), StopReason> {
        if self.is_cancelled() {
            Err(self.reason().unwrap_or(StopReason::Cancelled))
        } else {
            Ok(())
        }
    }

    /// Raises the token `limit` from now, as a [`StopReason::TimeLimit`].
    pub fn cancel_after(&self, limit: Duration) {
        self.cancel_after_from(limit, Instant::now());
    }

    /// Raises the token `limit` after `since` (at once if that is past), as a
    /// [`StopReason::TimeLimit`] of `limit`.
    pub fn cancel_after_from(&self, limit: Duration, since: Instant) {
        *self
            .0
            .time_limit
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(limit);
        // A deadline beyond the clock's range never comes.
        let Some(deadline) = since.checked_add(limit) else {
            return;
        };
        // One already passed stops the work at once, not when the timer thread next wakes.
        if Instant::now() >= deadline {
            self.raise(TIMED_OUT);
            return;
        }
        match timer() {
            Some(timer) => timer.arm(deadline, Arc::downgrade(&self.0)),
            None => self.watch_clock(deadline),
        }
    }

    /// Makes every look at the token look at the clock for `deadline`: a time limit where no
    /// timer thread could be started.
    fn watch_clock(&self, deadline: Instant) {
        *self
            .0
            .unwatched_deadline
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(deadline);
        let _ =
            self.0
                .raised
                .compare_exchange(LIVE, WATCH_CLOCK, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// The timer thread behind [`CancelToken::cancel_after`]: one thread for the whole process,
/// holding weak references, so a token dropped before its deadline costs nothing.
struct Timer {
    pending: Mutex<Vec<(Instant, Weak<TokenState>)>>,
    wake: Condvar,
}

/// The timer thread's stack: it only waits, and a small stack keeps it cheap under an
/// address-space limit.
const TIMER_STACK: usize = 64 * 1024;

/// The timer thread, started the first time a deadline is set; `None` where it could not be
/// started (then each token with a deadline looks at the clock itself). A process forked from
/// one whose timer had started has no timer thread, only its state: it starts its own.
fn timer() -> Option<Arc<Timer>> {
    static TIMER: Mutex<Option<(u32, Option<Arc<Timer>>)>> = Mutex::new(None);
    let mut timer = TIMER.lock().unwrap_or_else(PoisonError::into_inner);
    let process = std::process::id();
    match timer.as_ref() {
        Some((started_in, started)) if *started_in == process => started.clone(),
        _ => {
            let started = start_timer();
            *timer = Some((process, started.clone()));
            started
        }
    }
}

/// Starts a timer thread; `None` where none starts.
fn start_timer() -> Option<Arc<Timer>> {
    let timer = Arc::new(Timer {
        pending: Mutex::new(Vec::new()),
        wake: Condvar::new(),
    });
    let worker = Arc::clone(&timer);
    crate::parallel::spawn(Some("queens-deadlines"), Some(TIMER_STACK), move || {
        worker.run();
    })
    .ok()
    .map(|_| timer)
}

impl Timer {
    fn arm(&self, deadline: Instant, token: Weak<TokenState>) {
        self.pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((deadline, token));
        self.wake.notify_one();
    }

    fn run(&self) {
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            let now = Instant::now();
            pending.retain(|(deadline, token)| {
                let Some(token) = token.upgrade() else {
                    return false;
                };
                if *deadline <= now {
                    CancelToken(token).raise(TIMED_OUT);
                    false
                } else {
                    true
                }
            });
            let next = pending.iter().map(|(deadline, _)| *deadline).min();
            pending = match next {
                Some(deadline) => {
                    self.wake
                        .wait_timeout(pending, deadline.saturating_duration_since(now))
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
                None => self
                    .wake
                    .wait(pending)
                    .unwrap_or_else(PoisonError::into_inner),
            };
        }
    }
}

/// The stop rules of a run: a node cap, an iteration cap, a wall-time limit and a
/// [`CancelToken`]. See the [module docs](self) for what the caps mean.
///
/// Checks cost a compare and an atomic load, so solvers make them on every count.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    max_nodes: Option<u64>,
    max_iterations: Option<u64>,
    time_limit: Option<Duration>,
    token: CancelToken,
    started: bool,
}

impl Budget {
    /// No limits at all (but a token that can still be cancelled).
    pub fn unlimited() -> Self {
        Budget::default()
    }

    /// At most `nodes` nodes.
    #[must_use]
    pub fn with_max_nodes(mut self, nodes: u64) -> Self {
        self.max_nodes = Some(nodes);
        self
    }

    /// At most `iterations` iterations.
    #[must_use]
    pub fn with_max_iterations(mut self, iterations: u64) -> Self {
        self.max_iterations = Some(iterations);
        self
    }

    /// At most `limit` of wall time from [`start`](Self::start).
    #[must_use]
    pub fn with_time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = Some(limit);
        self
    }

    /// Stops when `token` is raised.
    #[must_use]
    pub fn with_cancel(mut self, token: CancelToken) -> Self {
        self.token = token;
        self
    }

    /// The same time limit and token (already running, if started), without node or
    /// iteration caps: the budget of one piece of a larger job, such as one run of an
    /// experiment, to which the piece's own caps are added.
    #[must_use]
    pub fn piece(&self) -> Budget {
        Budget {
            max_nodes: None,
            max_iterations: None,
            time_limit: self.time_limit,
            token: self.token.clone(),
            started: self.started,
        }
    }

    /// The node cap, if any.
    pub fn max_nodes(&self) -> Option<u64> {
        self.max_nodes
    }

    /// The iteration cap, if any.
    pub fn max_iterations(&self) -> Option<u64> {
        self.max_iterations
    }

    /// The wall-time limit, if any.
    pub fn time_limit(&self) -> Option<Duration> {
        self.time_limit
    }

    /// The token every check reads.
    pub fn token(&self) -> &CancelToken {
        &self.token
    }

    /// Starts the clock of the time limit (the solve executor does it; a second call does
    /// nothing). The limit raises a child of the token, so that a shared token — Ctrl-C's,
    /// a whole experiment's — is not raised by one run's limit.
    pub fn start(&mut self) {
        self.start_from(Instant::now());
    }

    /// Starts the clock of the time limit as if at `since`: the limit of a command that counts
    /// from the command's own start, before the budget was made.
    pub fn start_from(&mut self, since: Instant) {
        if std::mem::replace(&mut self.started, true) {
            return;
        }
        if let Some(limit) = self.time_limit {
            self.token = self.token.child();
            self.token.cancel_after_from(limit, since);
        }
    }

    /// May the search examine its `nodes`-th node? (Counting from 1.)
    #[inline]
    pub fn check_nodes(&self, nodes: u64) -> Result<(), StopReason> {
        match self.max_nodes {
            Some(max) if nodes > max => Err(StopReason::NodeLimit(max)),
            _ => self.token.check(),
        }
    }

    /// May the run perform its `iterations`-th iteration? (Counting from 1.)
    #[inline]
    pub fn check_iterations(&self, iterations: u64) -> Result<(), StopReason> {
        match self.max_iterations {
            Some(max) if iterations > max => Err(StopReason::IterationLimit(max)),
            _ => self.token.check(),
        }
    }

    /// Whether the time limit passed or the token was raised.
    #[inline]
    pub fn check(&self) -> Result<(), StopReason> {
        self.token.check()
    }

    /// Whether [`check`](Self::check) fails.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.token.is_cancelled()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_no_timer_watches_is_looked_at_by_the_checks() {
        let token = CancelToken::new();
        *token.0.time_limit.lock().unwrap() = Some(Duration::from_millis(30));
        token.watch_clock(Instant::now() + Duration::from_millis(30));
        assert!(!token.is_cancelled());
        assert_eq!(token.child().reason(), None);
        std::thread::sleep(Duration::from_millis(40));
        assert!(
            token.child().is_cancelled(),
            "a child sees its parent's deadline"
        );
        assert_eq!(
            token.check(),
            Err(StopReason::TimeLimit(Duration::from_millis(30)))
        );
        let cancelled = CancelToken::new();
        cancelled.watch_clock(Instant::now() + Duration::from_secs(60));
        cancelled.cancel();
        assert_eq!(cancelled.check(), Err(StopReason::Cancelled));
    }

    #[test]
    fn a_cap_of_k_allows_exactly_k() {
        let budget = Budget::unlimited().with_max_nodes(3).with_max_iterations(5);
        assert!(budget.check_nodes(3).is_ok());
        assert_eq!(budget.check_nodes(4), Err(StopReason::NodeLimit(3)));
        assert!(budget.check_iterations(5).is_ok());
        assert_eq!(
            budget.check_iterations(6),
            Err(StopReason::IterationLimit(5))
        );
    }

    #[test]
    fn cancel_is_seen_at_the_next_check() {
        let token = CancelToken::new();
        let budget = Budget::unlimited().with_cancel(token.clone());
        assert!(budget.check_nodes(1).is_ok());
        token.cancel();
        assert_eq!(budget.check_nodes(2), Err(StopReason::Cancelled));
        assert_eq!(budget.check(), Err(StopReason::Cancelled));
    }

    #[test]
    fn a_time_limit_raises_a_child_not_the_shared_token() {
        let shared = CancelToken::new();
        let mut budget = Budget::unlimited()
            .with_time_limit(Duration::from_millis(20))
            .with_cancel(shared.clone());
        budget.start();
        let started = Instant::now();
        while budget.check().is_ok() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the timer fires"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        assert_eq!(
            budget.check(),
            Err(StopReason::TimeLimit(Duration::from_millis(20)))
        );
        assert!(!shared.is_cancelled());
    }

    #[test]
    fn a_parent_cancels_its_children() {
        let parent = CancelToken::new();
        let child = parent.child();
        child.cancel();
        assert!(!parent.is_cancelled());
        let other = parent.child();
        parent.cancel();
        assert_eq!(other.check(), Err(StopReason::Cancelled));
    }

    #[test]
    fn pieces_share_the_token_but_not_the_caps() {
        let mut whole = Budget::unlimited()
            .with_max_iterations(1)
            .with_time_limit(Duration::from_secs(3600));
        whole.start();
        let piece = whole.piece();
        assert!(piece.check_iterations(10).is_ok());
        whole.token().cancel();
        assert_eq!(piece.check(), Err(StopReason::Cancelled));
    }
}
