//! `min-conflicts-minton`: the min-conflicts heuristic of Minton, Johnston, Philips and Laird
//! (1992), the classic reference for local search on N-Queens.
//!
//! One queen per column, rows may repeat. The start is greedy: column by column, each queen
//! takes a row with the fewest queens already on its row and diagonals (ties at random). Then,
//! each iteration, a random attacked queen moves to a row where it has the fewest conflicts,
//! ties broken at random (its own row included, so a queen already at a minimum may stay). The
//! attacked queens are found afresh each iteration. Fixed queens stay in their squares. One
//! iteration is one queen moved (or left); each costs O(N).
//! For boards of millions of queens, QS4-style `min-conflicts` is the one to use.

use queens_core::descriptor::Counts;
use queens_core::descriptor::line;
use queens_core::random::SeededRng;
use queens_core::solve::Reporter;
use queens_core::{
    Board, Context, Outcome, Problem, SolveError, Solver, SolverDescriptor, Square, StepNote,
    StopReason, Verdict,
};
use rand::{RngExt, SeedableRng};

use crate::column_board::ColumnBoard;
use crate::driver::{Steps, Turn, drive, stopped_before_the_start};
use crate::require_classic;

/// `min-conflicts-minton`'s descriptor.
pub static DESCRIPTOR: SolverDescriptor = SolverDescriptor {
    name: "min-conflicts-minton",
    summary: "Minton's min-conflicts: a random attacked queen to its least-conflicted row",
    explanation: "One queen per column; rows may repeat. The start is greedy: column by \
        column, each queen takes a row where it has the fewest conflicts with the queens \
        already placed. Then, each iteration, a random attacked queen moves to the row of its \
        column where it has the fewest conflicts, ties broken at random (it may stay). That is \
        the whole algorithm, and it solves a million queens in about fifty moves from the \
        greedy start.\n\n\
        It is the min-conflicts heuristic of Minton, Johnston, Philips and Laird (\"Minimizing \
        conflicts: a heuristic repair method for constraint satisfaction and scheduling \
        problems\", 1992), the classic reference for local search on N-Queens, here without a \
        random walk, with locked queens kept. Each move costs O(N); for millions of queens use \
        min-conflicts (QS4).",
    pseudo_code: &[
        line(
            "",
            "for each column: put its queen on a row with the fewest conflicts so far",
        ),
        line("step", "while some queen is attacked:"),
        line("step", "    pick an attacked queen at random"),
        line(
            "repair",
            "    move it to a row of its column with the fewest conflicts",
        ),
    ],
    score: "minus the pairs of queens that attack each other; 0 means solved",
    unit: "a queen moved",
    counts: Counts::Iterations,
    shapes: crate::CLASSIC_FIXED_KEPT,
    randomized: true,
    parameters: &[],
    default_max_iterations: |problem| Some((100 * u64::from(problem.rows())).max(10_000_000)),
    practical_max_n: None,
    marks: Some(crate::min_conflicts::CONFLICT_NUMBERS),
    neighbourhood: false,
    check: |_, _| Ok(()),
    memory: |problem, _| 8 * 6 * u128::from(problem.rows()),
    unit_cost: |problem, _| 20.0 + 13.0 * f64::from(problem.rows()),
    build: |seed, _| Box::new(MinConflictsMinton::new(seed)),
};

/// Minton's min-conflicts.
#[derive(Clone, Copy, Debug, Default)]
pub struct MinConflictsMinton {
    seed: u64,
}

impl MinConflictsMinton {
    /// The solver with `seed`.
    pub fn new(seed: u64) -> Self {
        MinConflictsMinton { seed }
    }
}

/// The row with the least `load`, ties broken uniformly at random (reservoir sampling).
fn least_loaded_row(n: usize, rng: &mut SeededRng, load: impl Fn(usize) -> u64) -> usize {
    let mut best = (u64::MAX, 0, 0u32);
    for row in 0..n {
        let load = load(row);
        if load < best.0 {
            best = (load, row, 1);
        } else if load == best.0 {
            best.2 += 1;
            if rng.random_range(0..best.2) == 0 {
                best.1 = row;
            }
        }
    }
    best.1
}

/// A row of `col` with the fewest queens on its lines (the column's own queen not counted),
/// ties at random.
fn least_conflicted_row(board: &ColumnBoard, col: usize, rng: &mut SeededRng) -> usize {
    least_loaded_row(board.n(), rng, |row| board.conflicts(col, row))
}

impl Solver for MinConflictsMinton {
    fn descriptor(&self) -> &'static SolverDescriptor {
        &DESCRIPTOR
    }

    fn solve(&mut self, problem: &Problem, context: Context<'_>) -> Result<Outcome, SolveError> {
        let Context { budget, observer } = context;
        let n = require_classic(DESCRIPTOR.name, problem)? as usize;
        let mut rng = SeededRng::seed_from_u64(self.seed);
        let mut pinned = vec![false; n];
        let mut board = ColumnBoard::empty(n);
        for queen in problem.fixed() {
            pinned[queen.col as usize] = true;
            board.place(queen.col as usize, queen.row as usize);
        }
        // Greedy start: each free column to a least-conflicted row given the queens before it.
        // Each column looks at N rows, so the start is N² work: the budget is asked at every
        // column.
        for col in (0..n).filter(|&c| !pinned[c]) {
            if let Err(stop) = budget.check() {
                return Ok(stopped_before_the_start(stop, self.seed));
            }
            let row = least_loaded_row(n, &mut rng, |row| board.load(col, row));
            board.place(col, row);
        }
        let mut search = Repair {
            board,
            rng,
            free: (0..n).filter(|&c| !pinned[c]).collect(),
            candidates: Vec::new(),
        };
        Ok(drive(
            &mut search,
            self.seed,
            budget,
            &mut Reporter::new(observer),
        ))
    }
}

/// A run as the driver steps it.
struct Repair {
    board: ColumnBoard,
    rng: SeededRng,
    /// The columns without a fixed queen.
    free: Vec<usize>,
    /// The attacked free queens' columns, taken afresh before each step.
    candidates: Vec<usize>,
}

impl Steps for Repair {
    fn start_squares(&self) -> Vec<Square> {
        self.board.squares()
    }

    fn over(&mut self, turn: &mut Turn<'_, '_>) -> Result<Option<Verdict>, StopReason> {
        if self.board.pairs() == 0 {
            return Ok(Some(Verdict::Solved(self.board.board())));
        }
        // Every attacked free queen is a candidate: a move can attack a queen that was safe,
        // so the set is taken afresh (O(N), as is the move itself).
        let board = &self.board;
        self.candidates.clear();
        (self.candidates).extend(self.free.iter().copied().filter(|&c| board.is_attacked(c)));
        // Nothing free is attacked, yet queens attack each other: only fixed queens could, and
        // a valid problem's fixed queens are peaceful. A search with nothing to move stops
        // rather than spins.
        Ok(self
            .candidates
            .is_empty()
            .then_some(Verdict::Stopped(StopReason::IterationLimit(turn.steps))))
    }

    fn step(&mut self, turn: &mut Turn<'_, '_>) -> Result<StepNote, StopReason> {
        let col = self.candidates[self.rng.random_range(0..self.candidates.len())];
        let from = self.board.row(col);
        let to = least_conflicted_row(&self.board, col, &mut self.rng);
        let square = |row: usize| Square::new(row as u32, col as u32);
        if to != from {
            self.board.set(col, to);
            turn.reporter.moved(square(from), square(to))?;
        }
        Ok(StepNote::Repair {
            queen: square(from),
            to: square(to),
        })
    }

    fn score(&self) -> i64 {
        -(self.board.pairs() as i64)
    }

    fn board(&self) -> Board {
        self.board.board()
    }
}
