//! The loop every local search runs, written once: the iteration cap, the step event, the stop
//! and the board a stopped run ended on. A search says how it starts ([`Steps::start`]), when it
//! is over ([`Steps::over`]) and what one step does ([`Steps::step`]); [`drive`] does the rest,
//! in the same order for every member of the family.
//!
//! **Iterations.** An iteration is a step, the start is none: under the budget's iteration cap
//! of K a run takes at most K steps and, stopped by the cap, reports K, as min-conflicts and
//! every other run does. The driver asks the budget for iteration `m` before step `m`, and a
//! run reports the steps it took (0 when its start is already over). What a step is belongs to
//! each search: a move of the climbers, a generation bred, a push of the charges, a queen
//! repaired. (The original study's loop counted its start as a first iteration, so a cap of K
//! there is K + 1 here.)

use queens_core::solve::Reporter;
use queens_core::{Board, Budget, Outcome, Square, StepNote, StopReason, Verdict};

/// Where a run stands between its steps: the steps taken, where its events go, and the budget
/// it asks before each piece of work.
pub(crate) struct Turn<'a, 'r> {
    /// Steps taken so far.
    pub(crate) steps: u64,
    /// Where the run's events go.
    pub(crate) reporter: &'a mut Reporter<'r>,
    /// The run's budget.
    pub(crate) budget: &'a Budget,
}

/// A local search as the driver runs it.
pub(crate) trait Steps {
    /// The board the run starts from.
    fn start_squares(&self) -> Vec<Square>;

    /// Reports the start: the start board, and whatever else the search shows of it.
    fn start(&mut self, reporter: &mut Reporter<'_>) -> Result<(), StopReason> {
        reporter.start_board(|| self.start_squares())
    }

    /// Before step `turn.steps + 1`: the verdict, if the run is over (solved, or nothing is
    /// left to try). It may act first, asking the turn's budget between pieces of that work, and
    /// report what it does (a restart, a brute force's placement).
    fn over(&mut self, turn: &mut Turn<'_, '_>) -> Result<Option<Verdict>, StopReason>;

    /// One step; what it did, for its step event. The note is made of values the step has
    /// anyway, so that runs are the same observed or not.
    fn step(&mut self, turn: &mut Turn<'_, '_>) -> Result<StepNote, StopReason>;

    /// The score a step event shows.
    fn score(&self) -> i64;

    /// The board where the run stands.
    fn board(&self) -> Board;
}

/// Runs `search` until it is over or stopped: its outcome, with the steps taken, `seed`, and
/// the board a stopped run ended on.
pub(crate) fn drive(
    search: &mut impl Steps,
    seed: u64,
    budget: &Budget,
    reporter: &mut Reporter<'_>,
) -> Outcome {
    let mut turn = Turn {
        steps: 0,
        reporter,
        budget,
    };
    let verdict = match search.start(turn.reporter) {
        Err(stop) => Verdict::Stopped(stop),
        Ok(()) => loop {
            match search.over(&mut turn) {
                Ok(Some(verdict)) => break verdict,
                Ok(None) => {}
                Err(stop) => break Verdict::Stopped(stop),
            }
            // Step m (from 1) is iteration m.
            if let Err(stop) = budget.check_iterations(turn.steps + 1) {
                break Verdict::Stopped(stop);
            }
            let note = match search.step(&mut turn) {
                Ok(note) => note,
                Err(stop) => break Verdict::Stopped(stop),
            };
            turn.steps += 1;
            let scored = || search.score();
            if let Err(stop) = turn.reporter.step_noted(turn.steps, scored, || note) {
                break Verdict::Stopped(stop);
            }
        },
    };
    Outcome::new(verdict)
        .with_iterations(turn.steps)
        .with_seed(seed)
        .with_last(|| search.board())
}

/// The outcome of a run stopped while it was being set up, before its start board.
pub(crate) fn stopped_before_the_start(stop: StopReason, seed: u64) -> Outcome {
    Outcome::new(Verdict::Stopped(stop))
        .with_iterations(0)
        .with_seed(seed)
}
