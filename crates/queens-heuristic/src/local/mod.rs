//! The local-search family of the original experiments (Adib Vafa's N-Queens study), faithful
//! to its code so that results compare like for like.
//!
//! The board holds one queen per column, `board[col] = row`, started with an independent random
//! row per column (rows may repeat). The score is N(N−1)/2 minus the attacking pairs (same row
//! or diagonal); the board is solved when the score reaches N(N−1)/2.
//!
//! **Iterations.** An iteration is a move: under the budget's iteration cap of K (1000 by
//! default, the original's) a run makes at most K moves and, stopped by the cap, reports K. The
//! step driver (`crate::driver`) runs every local search here by that one reading of the stop
//! rule: it asks the budget for iteration `m` before move `m`. A run reports the moves it made
//! (0 when the start is solved). The original's loop counted its random start as a first
//! iteration, so its cap of K is K + 1 here.
//!
//! | solver | one iteration |
//! |---|---|
//! | `random-search` | every queen to a random row |
//! | `optimized-random-search` | each column in turn to a random row, reverted if the score drops |
//! | `simulated-annealing` | one random column to a random row; a move Δ worse accepted with probability exp(−Δ/T), T from 1000, ×0.95 per iteration |
//! | `hill-climbing` | the best of all N(N − 1) single-queen moves if strictly better (ties: lowest row, then lowest column) |
//! | `hill-climbing-constant-shake` | with probability 0.23, 2 distinct random columns to random rows instead |
//! | `hill-climbing-decaying-shake` | the same, the probability ×0.999 after each climbing step |
//! | `optimized-hill-climbing` | climbing; when the score did not change, 4 distinct random columns to random rows |
//!
//! Row and diagonal counters make a move's change of score O(1), so a hill-climbing iteration
//! is N² lookups.

use std::fmt;
use std::str::FromStr;

use queens_core::descriptor::join;
use queens_core::random::SeededRng;
use queens_core::solve::Reporter;
use queens_core::{
    Board, Budget, Context, Outcome, ParamError, ParamValues, Parameter, Parameters, Problem,
    SolveError, Solver, SolverDescriptor, Square, StepNote, StopReason, Verdict,
};
use rand::{RngExt, SeedableRng};

use crate::column_board::ColumnBoard;

mod descriptions;

use crate::driver::{Steps, Turn, drive};
use crate::require_classic;
pub use descriptions::{
    HILL_CLIMBING, HILL_CLIMBING_CONSTANT_SHAKE, HILL_CLIMBING_DECAYING_SHAKE,
    OPTIMIZED_HILL_CLIMBING, OPTIMIZED_RANDOM_SEARCH, RANDOM_SEARCH, SIMULATED_ANNEALING,
};

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
        self.descriptor().name
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

queens_core::parameters! {
    /// Simulated annealing's parameters, the original's defaults.
    pub struct AnnealingParams {
        /// simulated annealing's starting temperature
        temperature: f64 = 1000.0, 1e-6..=1e12;
        /// the factor the temperature is multiplied by after each iteration
        cooling: f64 = 0.95, 0.0..=1.0;
    }
}

queens_core::parameters! {
    /// The shaking hill climbers' parameters, the original's defaults.
    pub struct ShakeParams {
        /// the probability that an iteration shakes instead of climbing
        p: f64 = 0.23, 0.0..=1.0;
        /// queens moved to random rows by a shake (at most N)
        q: u32 = 2, 1..=1_000_000_000;
    }
}

queens_core::parameters! {
    /// How the decaying shake's probability falls, the original's default.
    pub struct DecayParams {
        /// the factor the shake probability is multiplied by after each climbing step
        decay: f64 = 0.999, 0.0..=1.0;
    }
}

queens_core::parameters! {
    /// Optimized hill climbing's parameter, the original's default.
    pub struct StallParams {
        /// queens moved to random rows when the score stalls (at most N)
        q: u32 = 4, 1..=1_000_000_000;
    }
}

/// The decaying shake reads the shake's parameters and its decay.
const DECAYING_SHAKE_PARAMETERS: [Parameter; 3] = join(ShakeParams::LIST, DecayParams::LIST);

/// The parameters of the whole family; each member reads its own sets.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LocalSearchParams {
    /// `simulated-annealing`'s.
    pub annealing: AnnealingParams,
    /// The shaking climbers' probability and queens.
    pub shake: ShakeParams,
    /// `hill-climbing-decaying-shake`'s decay.
    pub decay: DecayParams,
    /// `optimized-hill-climbing`'s queens.
    pub stall: StallParams,
}

impl LocalSearchParams {
    /// The parameters from a member's checked values, the defaults for the sets it does not
    /// read.
    pub fn from_values(values: &ParamValues) -> Self {
        LocalSearchParams {
            annealing: AnnealingParams::from_values(values),
            shake: ShakeParams::from_values(values),
            decay: DecayParams::from_values(values),
            stall: StallParams::from_values(values),
        }
    }

    /// The values `kind` reads, not yet checked.
    fn given(&self, kind: LocalSearchKind) -> Vec<(&'static str, f64)> {
        match kind {
            LocalSearchKind::SimulatedAnnealing => self.annealing.given(),
            LocalSearchKind::HillClimbingConstantShake => self.shake.given(),
            LocalSearchKind::HillClimbingDecayingShake => {
                [self.shake.given(), self.decay.given()].concat()
            }
            LocalSearchKind::OptimizedHillClimbing => self.stall.given(),
            LocalSearchKind::RandomSearch
            | LocalSearchKind::OptimizedRandomSearch
            | LocalSearchKind::HillClimbing => Vec::new(),
        }
    }
}

/// `q` queens moved by a shake or a stall: at most the N queens of the board.
fn check_queens(n: u32, values: &ParamValues) -> Result<(), SolveError> {
    match values.value("q") {
        Some(q) if q > f64::from(n) => Err(queens_core::ParamError::Invalid(format!(
            "q must be between 1 and N = {n} (the queens on the board), got {q}"
        ))
        .into()),
        _ => Ok(()),
    }
}

/// One member of the family with its seed and parameters.
#[derive(Clone, Debug)]
pub struct LocalSearch {
    kind: LocalSearchKind,
    seed: u64,
    params: LocalSearchParams,
}

impl LocalSearch {
    /// `kind` seeded with `seed`, with `params`.
    pub fn new(kind: LocalSearchKind, seed: u64, params: LocalSearchParams) -> Self {
        LocalSearch { kind, seed, params }
    }
}

impl Solver for LocalSearch {
    fn descriptor(&self) -> &'static SolverDescriptor {
        self.kind.descriptor()
    }

    fn parameters(&self) -> Result<ParamValues, ParamError> {
        let descriptor = self.kind.descriptor();
        ParamValues::new(
            descriptor.name,
            descriptor.parameters,
            &self.params.given(self.kind),
        )
    }

    fn solve(&mut self, problem: &Problem, context: Context<'_>) -> Result<Outcome, SolveError> {
        let Context { budget, observer } = context;
        let params = self.params;
        let n = require_classic(self.name(), problem)?;
        let mut rng = SeededRng::seed_from_u64(self.seed);
        let board = ColumnBoard::random(n as usize, &mut rng);
        let mut search = Walk {
            board,
            rng,
            stuck: false,
            run: Run {
                kind: self.kind,
                params,
                temperature: params.annealing.temperature,
                shake_probability: params.shake.p,
                previous_score: 0,
            },
        };
        Ok(drive(
            &mut search,
            self.seed,
            budget,
            &mut Reporter::new(observer),
        ))
    }
}

/// A member's run as the driver steps it: the board, the random numbers and what the member
/// carries between iterations.
struct Walk {
    board: ColumnBoard,
    rng: SeededRng,
    /// Plain hill climbing found no improving move: it would stand there for good.
    stuck: bool,
    run: Run,
}

impl Steps for Walk {
    fn start_squares(&self) -> Vec<Square> {
        self.board.squares()
    }

    fn over(&mut self, _: &mut Turn<'_, '_>) -> Result<Option<Verdict>, StopReason> {
        if self.board.pairs() == 0 {
            return Ok(Some(Verdict::Solved(self.board.board())));
        }
        Ok(self
            .stuck
            .then_some(Verdict::Stopped(StopReason::LocalOptimum)))
    }

    fn step(&mut self, turn: &mut Turn<'_, '_>) -> Result<StepNote, StopReason> {
        let note = self
            .run
            .step(&mut self.board, &mut self.rng, turn.reporter, turn.budget)?;
        // Only the plain climber has nothing else to try: the others shake or restart.
        self.stuck = self.run.kind == LocalSearchKind::HillClimbing && note == StepNote::Stuck;
        Ok(note)
    }

    fn score(&self) -> i64 {
        self.board.score()
    }

    fn board(&self) -> Board {
        self.board.board()
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
    /// One iteration; returns what it did, for the step event. The note is computed from
    /// values the iteration has anyway and draws nothing from `rng`, so runs are the same
    /// observed or not.
    fn step(
        &mut self,
        board: &mut ColumnBoard,
        rng: &mut SeededRng,
        reporter: &mut Reporter<'_>,
        budget: &Budget,
    ) -> Result<StepNote, StopReason> {
        let n = board.n();
        let climbed = |gain: Option<i64>| match gain {
            Some(gain) => StepNote::Climbed { gain },
            None => StepNote::Stuck,
        };
        Ok(match self.kind {
            LocalSearchKind::RandomSearch => {
                for col in 0..n {
                    let row = rng.random_range(0..n);
                    move_queen(board, reporter, col, row)?;
                }
                StepNote::Thrown
            }
            LocalSearchKind::OptimizedRandomSearch => {
                let (mut kept, mut undone) = (0, 0);
                for col in 0..n {
                    let row = rng.random_range(0..n);
                    if board.score_if(col, row) >= board.score() {
                        move_queen(board, reporter, col, row)?;
                        kept += 1;
                    } else {
                        undone += 1;
                    }
                }
                StepNote::Tried { kept, undone }
            }
            LocalSearchKind::SimulatedAnnealing => {
                let col = rng.random_range(0..n);
                let row = rng.random_range(0..n);
                let delta = (board.score_if(col, row) - board.score()) as f64;
                let temperature = self.temperature;
                // The chance, computed once for the draw and the note (a draw only when worse).
                let probability = if delta >= 0.0 {
                    1.0
                } else {
                    (delta / temperature).exp()
                };
                let taken = delta >= 0.0 || rng.random::<f64>() < probability;
                let from = Square::new(board.row(col) as u32, col as u32);
                if taken {
                    move_queen(board, reporter, col, row)?;
                }
                self.temperature *= self.params.annealing.cooling;
                StepNote::Proposal {
                    from,
                    to: Square::new(row as u32, col as u32),
                    loss: -delta as i64,
                    probability,
                    temperature,
                    taken,
                }
            }
            LocalSearchKind::HillClimbing => climbed(climb(board, reporter, budget)?),
            LocalSearchKind::HillClimbingConstantShake
            | LocalSearchKind::HillClimbingDecayingShake => {
                // The constant shake is the decaying one whose probability never decays.
                let probability = self.shake_probability;
                if rng.random::<f64>() < probability {
                    shake(board, rng, reporter, self.params.shake.q)?;
                    StepNote::Shake {
                        queens: self.params.shake.q,
                        probability,
                    }
                } else {
                    let gain = climb(board, reporter, budget)?;
                    if self.kind == LocalSearchKind::HillClimbingDecayingShake {
                        self.shake_probability *= self.params.decay.decay;
                    }
                    climbed(gain)
                }
            }
            LocalSearchKind::OptimizedHillClimbing => {
                let before = board.score();
                let note = if before == self.previous_score {
                    shake(board, rng, reporter, self.params.stall.q)?;
                    StepNote::Restart {
                        queens: self.params.stall.q,
                    }
                } else {
                    climbed(climb(board, reporter, budget)?)
                };
                self.previous_score = before;
                note
            }
        })
    }
}

fn move_queen(
    board: &mut ColumnBoard,
    reporter: &mut Reporter<'_>,
    col: usize,
    row: usize,
) -> Result<(), StopReason> {
    let from = board.row(col);
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
/// the lowest column. Its N(N − 1) looks are N² work: the budget is asked between rows, so a
/// stop lands within one row's N looks, not one whole climb.
/// Returns the score it gained, or `None` at a local optimum (no queen moved).
fn climb(
    board: &mut ColumnBoard,
    reporter: &mut Reporter<'_>,
    budget: &Budget,
) -> Result<Option<i64>, StopReason> {
    let before = board.score();
    match best_move(board, budget)? {
        Some(square) => {
            move_queen(board, reporter, square.col as usize, square.row as usize)?;
            Ok(Some(board.score() - before))
        }
        None => Ok(None),
    }
}

/// The climbers' choice on `board`: the single-queen move within its column that improves the
/// score most, ties going to the lowest row, then the lowest column; `None` at a local optimum.
fn best_move(board: &ColumnBoard, budget: &Budget) -> Result<Option<Square>, StopReason> {
    // Moving a queen loses its current pairs and gains the queens on the target's lines; a move
    // improves when the gain is below the loss. The loss is computed once per column.
    let lost: Vec<u64> = (0..board.n())
        .map(|col| board.conflicts(col, board.row(col)))
        .collect();
    let mut best: Option<(i64, usize, usize)> = None;
    for row in 0..board.n() {
        budget.check()?;
        for (col, &loss) in lost.iter().enumerate() {
            if board.row(col) == row {
                continue;
            }
            let improvement = loss as i64 - board.conflicts(col, row) as i64;
            if improvement > 0 && best.is_none_or(|(b, ..)| improvement > b) {
                best = Some((improvement, col, row));
            }
        }
    }
    Ok(best.map(|(_, col, row)| Square::new(row as u32, col as u32)))
}

/// What the hill-climbing members see from a board with one queen per column: the score (the
/// original's evaluation) of every single-queen move within its column, and the move they
/// take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Neighbourhood {
    /// The board's own score: N(N − 1)/2 minus its attacking pairs.
    pub score: i64,
    /// Row by row from the bottom, `row · n + col`: the score after moving column `col`'s
    /// queen to `row`; `None` on the square it stands on.
    pub scores: Vec<Option<i64>>,
    /// The move a climber makes from here (ties: lowest row, then lowest column), or `None` at
    /// a local optimum, where no move beats the board.
    pub best: Option<Square>,
}

/// The [`Neighbourhood`] of the board whose column `col` holds its queen on row `rows[col]`
/// (each row below `rows.len()`, at least one column): one definition for the climbers and
/// for whoever shows their choice.
pub fn neighbourhood(rows: &[u32]) -> Neighbourhood {
    let n = rows.len();
    let board = ColumnBoard::from_rows(rows);
    let scores = (0..n)
        .flat_map(|row| (0..n).map(move |col| (row, col)))
        .map(|(row, col)| (board.row(col) != row).then(|| board.score_if(col, row)))
        .collect();
    let best = best_move(&board, &Budget::unlimited()).expect("an unlimited budget never stops");
    Neighbourhood {
        score: board.score(),
        scores,
        best,
    }
}

/// `q` distinct random columns to random rows.
fn shake(
    board: &mut ColumnBoard,
    rng: &mut SeededRng,
    reporter: &mut Reporter<'_>,
    q: u32,
) -> Result<(), StopReason> {
    let columns = rand::seq::index::sample(rng, board.n(), q as usize);
    for col in columns {
        let row = rng.random_range(0..board.n());
        move_queen(board, reporter, col, row)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The neighbourhood's scores are those of the boards after each move, counted afresh, and
    /// its best move is the one a climb makes.
    #[test]
    fn the_neighbourhood_is_what_a_climb_sees() {
        let mut rng = SeededRng::seed_from_u64(11);
        for n in [1, 2, 5, 8, 13] {
            for _ in 0..20 {
                let rows: Vec<u32> = (0..n).map(|_| rng.random_range(0..n)).collect();
                let seen = neighbourhood(&rows);
                let pairs = |rows: &[u32]| {
                    let squares: Vec<Square> = rows
                        .iter()
                        .zip(0..)
                        .map(|(&row, col)| Square::new(row, col))
                        .collect();
                    let mut count = 0i64;
                    for (i, a) in squares.iter().enumerate() {
                        for b in &squares[i + 1..] {
                            count += i64::from(a.attacks(*b));
                        }
                    }
                    count
                };
                let most = i64::from(n * (n - 1) / 2);
                assert_eq!(seen.score, most - pairs(&rows));
                for row in 0..n {
                    for col in 0..n {
                        let mut moved = rows.clone();
                        moved[col as usize] = row;
                        let expected = (rows[col as usize] != row).then(|| most - pairs(&moved));
                        assert_eq!(seen.scores[(row * n + col) as usize], expected);
                    }
                }
                let mut board = ColumnBoard::from_rows(&rows);
                let mut observer = queens_core::NoObserver;
                let mut reporter = Reporter::new(&mut observer);
                let gain = climb(&mut board, &mut reporter, &Budget::unlimited()).unwrap();
                assert_eq!(gain.is_some(), seen.best.is_some());
                // The gain is the best neighbour's score less the board's.
                assert_eq!(
                    gain,
                    seen.best.map(
                        |best| seen.scores[(best.row * n + best.col) as usize].unwrap()
                            - seen.score
                    )
                );
                if let Some(best) = seen.best {
                    assert_eq!(board.row(best.col as usize), best.row as usize);
                    assert_eq!(
                        Some(board.score()),
                        seen.scores[(best.row * n + best.col) as usize]
                    );
                    // No move scores more, and none as much on a lower row or column before it.
                    let top = seen.scores.iter().flatten().max().unwrap();
                    assert_eq!(board.score(), *top);
                    let first = seen
                        .scores
                        .iter()
                        .position(|score| score == &Some(*top))
                        .unwrap();
                    assert_eq!(first as u32, best.row * n + best.col);
                } else {
                    assert!(
                        seen.scores
                            .iter()
                            .flatten()
                            .all(|&score| score <= seen.score)
                    );
                }
            }
        }
    }

    #[test]
    fn score_if_agrees_with_moving() {
        let mut rng = SeededRng::seed_from_u64(3);
        let mut board = ColumnBoard::random(9, &mut rng);
        for col in 0..9 {
            for row in 0..9 {
                let predicted = board.score_if(col, row);
                let from = board.row(col);
                board.set(col, row);
                assert_eq!(board.score(), predicted, "col {col} row {row}");
                board.set(col, from);
            }
        }
    }
}
