//! The local-search family of the original experiments (seed 002), faithful to its code so that
//! results compare like for like.
//!
//! The board holds one queen per column, `board[col] = row`, started with an independent random
//! row per column (rows may repeat). The score is N(N−1)/2 minus the attacking pairs (same row
//! or diagonal); the board is solved when the score reaches N(N−1)/2. A run counts an iteration
//! at each loop entry and stops when the count reaches the cap (1000 by default) before moving;
//! a success reports the number of moves made (0 when the start is solved).
//!
//! | solver | one iteration |
//! |---|---|
//! | `random-search` | every queen to a random row |
//! | `optimized-random-search` | each column in turn to a random row, reverted if the score drops |
//! | `simulated-annealing` | one random column to a random row; worse accepted with probability exp(Δ/T), T from 1000, ×0.95 per iteration |
//! | `hill-climbing` | the best of all N² single-queen moves if strictly better (ties: lowest row, then lowest column) |
//! | `hill-climbing-constant-shake` | with probability 0.23, 2 distinct random columns to random rows instead |
//! | `hill-climbing-decaying-shake` | the same, the probability ×0.999 after each climbing step |
//! | `optimized-hill-climbing` | climbing; when the score did not change, 4 distinct random columns to random rows |
//!
//! Row and diagonal counters make a move's change of score O(1), so a hill-climbing iteration
//! is N² lookups.

use std::fmt;
use std::str::FromStr;

use queens_core::solve::Reporter;
use queens_core::{
    Board, Budget, Observer, Outcome, Problem, SolveError, Solver, Square, StopReason, Verdict,
};
use rand::rngs::SmallRng;

use crate::require_classic;
use rand::{RngExt, SeedableRng};

/// The members of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LocalSearchKind {
    /// Every queen to a random row.
    RandomSearch,
    /// Each column to a random row, kept unless the score drops.
    OptimizedRandomSearch,
    /// One random move, worse ones accepted with a falling probability.
    SimulatedAnnealing,
    /// The best single-queen move, if it improves.
    HillClimbing,
    /// Hill climbing with random shakes at a constant probability.
    HillClimbingConstantShake,
    /// Hill climbing with random shakes at a decaying probability.
    HillClimbingDecayingShake,
    /// Hill climbing that shakes when the score stalls.
    OptimizedHillClimbing,
}

impl LocalSearchKind {
    /// The family, in the original's order.
    pub const ALL: [LocalSearchKind; 7] = [
        LocalSearchKind::RandomSearch,
        LocalSearchKind::OptimizedRandomSearch,
        LocalSearchKind::SimulatedAnnealing,
        LocalSearchKind::HillClimbing,
        LocalSearchKind::HillClimbingConstantShake,
        LocalSearchKind::HillClimbingDecayingShake,
        LocalSearchKind::OptimizedHillClimbing,
    ];

    /// The kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            LocalSearchKind::RandomSearch => "random-search",
            LocalSearchKind::OptimizedRandomSearch => "optimized-random-search",
            LocalSearchKind::SimulatedAnnealing => "simulated-annealing",
            LocalSearchKind::HillClimbing => "hill-climbing",
            LocalSearchKind::HillClimbingConstantShake => "hill-climbing-constant-shake",
            LocalSearchKind::HillClimbingDecayingShake => "hill-climbing-decaying-shake",
            LocalSearchKind::OptimizedHillClimbing => "optimized-hill-climbing",
        }
    }
}

impl fmt::Display for LocalSearchKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for LocalSearchKind {
    type Err = ();

    fn from_str(name: &str) -> Result<Self, ()> {
        LocalSearchKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or(())
    }
}

/// The parameters of the family, with the original's defaults. Each solver reads the ones it
/// uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalSearchParams {
    /// The seed of the random generator.
    pub seed: u64,
    /// The iteration cap (1000).
    pub max_iterations: u64,
    /// Simulated annealing's starting temperature (1000).
    pub temperature: f64,
    /// Simulated annealing's cooling factor per iteration (0.95).
    pub cooling: f64,
    /// The shake probability of the shaking hill climbers (0.23).
    pub shake_probability: f64,
    /// The decay of the shake probability after each climbing step (0.999).
    pub shake_decay: f64,
    /// Queens moved by a shake (2; optimized hill climbing uses `stall_queens`).
    pub shake_queens: u32,
    /// Queens moved by optimized hill climbing when the score stalls (4).
    pub stall_queens: u32,
}

impl Default for LocalSearchParams {
    fn default() -> Self {
        LocalSearchParams {
            seed: 1,
            max_iterations: 1000,
            temperature: 1000.0,
            cooling: 0.95,
            shake_probability: 0.23,
            shake_decay: 0.999,
            shake_queens: 2,
            stall_queens: 4,
        }
    }
}

/// A parameter outside its range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadParameter(pub String);

impl fmt::Display for BadParameter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadParameter {}

impl LocalSearchParams {
    /// Checks the parameters `kind` uses against a board of side `n`.
    pub fn check(&self, kind: LocalSearchKind, n: u32) -> Result<(), BadParameter> {
        use LocalSearchKind::{
            HillClimbingConstantShake, HillClimbingDecayingShake, OptimizedHillClimbing,
            SimulatedAnnealing,
        };
        let bad = |message: String| Err(BadParameter(message));
        if self.max_iterations == 0 {
            return bad("the iteration cap must be at least 1".into());
        }
        if kind == SimulatedAnnealing {
            if self.temperature.is_nan() || self.temperature <= 0.0 {
                return bad(format!(
                    "temperature must be positive, got {}",
                    self.temperature
                ));
            }
            if !(0.0..=1.0).contains(&self.cooling) {
                return bad(format!("cooling must be in [0, 1], got {}", self.cooling));
            }
        }
        if matches!(kind, HillClimbingConstantShake | HillClimbingDecayingShake) {
            if !(0.0..=1.0).contains(&self.shake_probability) {
                return bad(format!(
                    "shake probability must be in [0, 1], got {}",
                    self.shake_probability
                ));
            }
            if !(0.0..=1.0).contains(&self.shake_decay) {
                return bad(format!(
                    "shake decay must be in [0, 1], got {}",
                    self.shake_decay
                ));
            }
        }
        let queens = match kind {
            HillClimbingConstantShake | HillClimbingDecayingShake => {
                Some(("shake", self.shake_queens))
            }
            OptimizedHillClimbing => Some(("stall", self.stall_queens)),
            _ => None,
        };
        if let Some((what, q)) = queens
            && (q == 0 || q > n)
        {
            return bad(format!(
                "{what} queens must be between 1 and N = {n}, got {q}"
            ));
        }
        Ok(())
    }
}

/// One member of the family with its parameters.
#[derive(Clone, Debug)]
pub struct LocalSearch {
    kind: LocalSearchKind,
    params: LocalSearchParams,
}

impl LocalSearch {
    /// `kind` with `params`.
    pub fn new(kind: LocalSearchKind, params: LocalSearchParams) -> Self {
        LocalSearch { kind, params }
    }
}

/// Queens per column with counters of queens per row and diagonal.
pub(crate) struct ColumnBoard {
    pub(crate) n: usize,
    pub(crate) rows: Vec<usize>,
    per_row: Vec<u32>,
    rising: Vec<u32>,
    falling: Vec<u32>,
    /// Attacking pairs: Σ C(k, 2) over rows and diagonals.
    pub(crate) pairs: u64,
}

impl ColumnBoard {
    /// An empty board of side `n` (no queen counted yet; `rows` all 0).
    pub(crate) fn empty(n: usize) -> Self {
        ColumnBoard {
            n,
            rows: vec![0; n],
            per_row: vec![0; n],
            rising: vec![0; 2 * n - 1],
            falling: vec![0; 2 * n - 1],
            pairs: 0,
        }
    }

    fn random(n: usize, rng: &mut SmallRng) -> Self {
        let mut board = ColumnBoard::empty(n);
        for col in 0..n {
            let row = rng.random_range(0..n);
            board.rows[col] = row;
            board.add(col, row);
        }
        board
    }

    fn max_score(&self) -> i64 {
        (self.n * (self.n - 1) / 2) as i64
    }

    fn score(&self) -> i64 {
        self.max_score() - self.pairs as i64
    }

    /// Queens already on the square's row and diagonals, its own column excluded by the caller.
    #[inline]
    pub(crate) fn load(&self, col: usize, row: usize) -> u64 {
        u64::from(self.per_row[row])
            + u64::from(self.rising[col + self.n - 1 - row])
            + u64::from(self.falling[col + row])
    }

    #[inline]
    pub(crate) fn add(&mut self, col: usize, row: usize) {
        self.pairs += self.load(col, row);
        self.per_row[row] += 1;
        self.rising[col + self.n - 1 - row] += 1;
        self.falling[col + row] += 1;
    }

    #[inline]
    pub(crate) fn remove(&mut self, col: usize, row: usize) {
        self.per_row[row] -= 1;
        self.rising[col + self.n - 1 - row] -= 1;
        self.falling[col + row] -= 1;
        self.pairs -= self.load(col, row);
    }

    /// Moves the queen of `col` to `row`.
    pub(crate) fn set(&mut self, col: usize, row: usize) {
        let from = self.rows[col];
        self.remove(col, from);
        self.rows[col] = row;
        self.add(col, row);
    }

    /// The score after moving the queen of `col` to `row`, without moving it.
    #[inline]
    fn score_if(&self, col: usize, row: usize) -> i64 {
        let from = self.rows[col];
        if from == row {
            return self.score();
        }
        // Pairs lost by leaving `from`, pairs gained at `row` (the rows and diagonals of the two
        // squares differ, except a shared diagonal, which the counts below account for).
        let lost = self.load(col, from) - 3;
        let mut gained = self.load(col, row);
        let (r1, f1) = (col + self.n - 1 - from, col + from);
        let (r2, f2) = (col + self.n - 1 - row, col + row);
        gained -= u64::from(r1 == r2) + u64::from(f1 == f2);
        self.max_score() - (self.pairs - lost + gained) as i64
    }

    pub(crate) fn board(&self) -> Board {
        Board::from_permutation(self.rows.iter().map(|&r| r as u32).collect())
            .expect("rows lie on the board")
    }
}

impl Solver for LocalSearch {
    fn name(&self) -> &'static str {
        self.kind.name()
    }

    fn solve(
        &mut self,
        problem: &Problem,
        budget: &mut Budget,
        observer: &mut dyn Observer,
    ) -> Result<Outcome, SolveError> {
        let unsupported = |reason: String| SolveError::Unsupported {
            solver: self.kind.name(),
            reason,
        };
        let n = require_classic(self.kind.name(), problem)?;
        if !problem.fixed().is_empty() {
            return Err(unsupported(
                "the original's algorithms move every queen (use min-conflicts for fixed queens)"
                    .into(),
            ));
        }
        let params = self.params;
        params
            .check(self.kind, n)
            .map_err(|bad| unsupported(bad.0))?;
        let mut rng = SmallRng::seed_from_u64(params.seed);
        let mut board = ColumnBoard::random(n as usize, &mut rng);
        let mut reporter = Reporter::new(observer);
        let mut run = Run {
            kind: self.kind,
            params,
            temperature: params.temperature,
            shake_probability: params.shake_probability,
            previous_score: 0,
        };
        let mut moves = 0u64;
        let mut counter = 0u64;
        let verdict = loop {
            if board.pairs == 0 {
                break Verdict::Solved(board.board());
            }
            counter += 1;
            if counter >= params.max_iterations {
                break Verdict::Stopped(StopReason::IterationLimit(params.max_iterations));
            }
            if let Err(stop) = budget.check_iterations(counter) {
                break Verdict::Stopped(stop);
            }
            if let Err(stop) = run.step(&mut board, &mut rng, &mut reporter) {
                break Verdict::Stopped(stop);
            }
            moves += 1;
            if let Err(stop) = reporter.step(moves, || board.score()) {
                break Verdict::Stopped(stop);
            }
        };
        Ok(Outcome::new(verdict)
            .with_iterations(moves)
            .with_seed(params.seed))
    }
}

/// The state a member carries between iterations.
struct Run {
    kind: LocalSearchKind,
    params: LocalSearchParams,
    temperature: f64,
    shake_probability: f64,
    previous_score: i64,
}

impl Run {
    fn step(
        &mut self,
        board: &mut ColumnBoard,
        rng: &mut SmallRng,
        reporter: &mut Reporter<'_>,
    ) -> Result<(), StopReason> {
        let n = board.n;
        match self.kind {
            LocalSearchKind::RandomSearch => {
                for col in 0..n {
                    let row = rng.random_range(0..n);
                    move_queen(board, reporter, col, row)?;
                }
            }
            LocalSearchKind::OptimizedRandomSearch => {
                for col in 0..n {
                    let row = rng.random_range(0..n);
                    if board.score_if(col, row) >= board.score() {
                        move_queen(board, reporter, col, row)?;
                    }
                }
            }
            LocalSearchKind::SimulatedAnnealing => {
                let col = rng.random_range(0..n);
                let row = rng.random_range(0..n);
                let delta = (board.score_if(col, row) - board.score()) as f64;
                if delta >= 0.0 || rng.random::<f64>() < (delta / self.temperature).exp() {
                    move_queen(board, reporter, col, row)?;
                }
                self.temperature *= self.params.cooling;
            }
            LocalSearchKind::HillClimbing => climb(board, reporter)?,
            LocalSearchKind::HillClimbingConstantShake => {
                if rng.random::<f64>() < self.params.shake_probability {
                    shake(board, rng, reporter, self.params.shake_queens)?;
                } else {
                    climb(board, reporter)?;
                }
            }
            LocalSearchKind::HillClimbingDecayingShake => {
                if rng.random::<f64>() < self.shake_probability {
                    shake(board, rng, reporter, self.params.shake_queens)?;
                } else {
                    climb(board, reporter)?;
                    self.shake_probability *= self.params.shake_decay;
                }
            }
            LocalSearchKind::OptimizedHillClimbing => {
                let before = board.score();
                if before == self.previous_score {
                    shake(board, rng, reporter, self.params.stall_queens)?;
                } else {
                    climb(board, reporter)?;
                }
                self.previous_score = before;
            }
        }
        Ok(())
    }
}

fn move_queen(
    board: &mut ColumnBoard,
    reporter: &mut Reporter<'_>,
    col: usize,
    row: usize,
) -> Result<(), StopReason> {
    let from = board.rows[col];
    board.set(col, row);
    if from != row {
        reporter.moved(
            Square::new(from as u32, col as u32),
            Square::new(row as u32, col as u32),
        )?;
    }
    Ok(())
}

/// The best single-queen move, taken only if strictly better; ties go to the lowest row, then
/// the lowest column.
fn climb(board: &mut ColumnBoard, reporter: &mut Reporter<'_>) -> Result<(), StopReason> {
    // Moving a queen loses its current pairs and gains the queens on the target's lines; a move
    // improves when the gain is below the loss. The loss is computed once per column.
    let lost: Vec<u64> = (0..board.n)
        .map(|col| board.load(col, board.rows[col]) - 3)
        .collect();
    let mut best: Option<(i64, usize, usize)> = None;
    for row in 0..board.n {
        for (col, &loss) in lost.iter().enumerate() {
            if board.rows[col] == row {
                continue;
            }
            let improvement = loss as i64 - board.load(col, row) as i64;
            if improvement > 0 && best.is_none_or(|(b, ..)| improvement > b) {
                best = Some((improvement, col, row));
            }
        }
    }
    match best {
        Some((_, col, row)) => move_queen(board, reporter, col, row),
        None => Ok(()),
    }
}

/// `q` distinct random columns to random rows.
fn shake(
    board: &mut ColumnBoard,
    rng: &mut SmallRng,
    reporter: &mut Reporter<'_>,
    q: u32,
) -> Result<(), StopReason> {
    let columns = rand::seq::index::sample(rng, board.n, q as usize);
    for col in columns {
        let row = rng.random_range(0..board.n);
        move_queen(board, reporter, col, row)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_if_agrees_with_moving() {
        let mut rng = SmallRng::seed_from_u64(3);
        let mut board = ColumnBoard::random(9, &mut rng);
        for col in 0..9 {
            for row in 0..9 {
                let predicted = board.score_if(col, row);
                let from = board.rows[col];
                board.set(col, row);
                assert_eq!(board.score(), predicted, "col {col} row {row}");
                board.set(col, from);
            }
        }
    }
}
