//! The seven members' descriptors: their names, summaries, explanations, pseudo-code and
//! parameters, which the help, the page and experiments read; the searches are the module's.

use queens_core::descriptor::{BoardShape, CodeLine, Counts, FixedQueens, Shapes, join, line};
use queens_core::{ParamValues, Parameters, Problem, SolveError, SolverDescriptor};

use super::{
    AnnealingParams, DECAYING_SHAKE_PARAMETERS, LocalSearch, LocalSearchKind, LocalSearchParams,
    ShakeParams, StallParams, check_queens,
};

/// N×N, no fixed queens: the original moves every queen.
const FAMILY_SHAPES: Shapes = Shapes {
    board: BoardShape::Classic,
    fixed: FixedQueens::Refused(
        "the original's algorithms move every queen (use min-conflicts for fixed queens)",
    ),
    blocked: crate::BLOCKED_REFUSED,
};

/// A row per column and counters per row and diagonal, 8 bytes each.
fn family_memory(problem: &Problem, _: &ParamValues) -> u128 {
    8 * 6 * u128::from(problem.rows())
}

fn family_check(problem: &Problem, values: &ParamValues) -> Result<(), SolveError> {
    check_queens(problem.rows(), values)
}

/// What every member says about where it comes from.
macro_rules! origin {
    () => {
        "It comes from Adib Vafa's study of local search on N-Queens (a Python program with \
         one queen per column that moves only within its column, scores a board as \
         N(N−1)/2 minus the attacking pairs, and gives up after 1000 iterations). We kept \
         its rules, defaults and counting, so its success rates are reproduced; the score \
         of a move is computed from row and diagonal counters instead of rescoring the whole \
         board."
    };
}

/// A member's descriptor; only the name, texts and parameters differ.
macro_rules! member {
    ($kind:expr, $name:literal, $summary:literal, $how:expr, $parameters:expr, $code:expr) => {
        SolverDescriptor {
            name: $name,
            summary: $summary,
            explanation: concat!($how, "\n\n", origin!()),
            pseudo_code: $code,
            score: "the original's evaluation: N(N − 1)/2, the number of pairs of queens, minus \
                the pairs that attack each other; N(N − 1)/2 means solved",
            unit: "a move",
            counts: Counts::Iterations,
            shapes: FAMILY_SHAPES,
            randomized: true,
            parameters: $parameters,
            default_max_iterations: |_| Some(1000),
            practical_max_n: None,
            marks: None,
            neighbourhood: $kind.climbs(),
            check: family_check,
            memory: family_memory,
            unit_cost: |problem, _| $kind.unit_cost(f64::from(problem.rows())),
            build: |seed, values| {
                Box::new(LocalSearch::new(
                    $kind,
                    seed,
                    LocalSearchParams::from_values(values),
                ))
            },
        }
    };
}

/// `random-search`'s descriptor.
pub static RANDOM_SEARCH: SolverDescriptor = member!(
    LocalSearchKind::RandomSearch,
    "random-search",
    "every queen to a random row, every iteration, until the board happens to be solved",
    "Each iteration throws every queen to a random row of its column and looks at the new \
     board. Nothing is learnt from one board to the next, so this is the baseline every other \
     member must beat: at N = 8 about 1 run in 100 succeeds within 1000 iterations.",
    &[],
    &[
        line("", "board ← a random row for every column's queen"),
        line("thrown", "repeat until solved:"),
        line(
            "thrown",
            "    throw every queen to a random row of its column"
        ),
    ]
);

/// `optimized-random-search`'s descriptor.
pub static OPTIMIZED_RANDOM_SEARCH: SolverDescriptor = member!(
    LocalSearchKind::OptimizedRandomSearch,
    "optimized-random-search",
    "each queen in turn to a random row, kept unless the score drops",
    "Each iteration walks through the columns and moves each queen to a random row, but puts \
     it back if the score got worse. Moves that keep the score are kept too: the board can \
     drift sideways across a plateau, out of places where no single move improves it. This \
     small rule takes N = 8 from 1 % to about 97 % solved.",
    &[],
    &[
        line("", "board ← a random row for every column's queen"),
        line("tried", "repeat until solved:"),
        line(
            "tried",
            "    for each column: move its queen to a random row"
        ),
        line("tried", "        put it back if the score dropped"),
    ]
);

/// `simulated-annealing`'s descriptor.
pub static SIMULATED_ANNEALING: SolverDescriptor = member!(
    LocalSearchKind::SimulatedAnnealing,
    "simulated-annealing",
    "one random move per iteration; worse moves accepted with a probability that cools",
    "Each iteration proposes one random queen to one random row. A move that does not lower \
     the score is taken; a worse one is taken with probability e^(−Δ/T), where Δ > 0 is how much \
     the score drops and T a temperature that starts at `temperature` = {temperature} and is \
     multiplied by `cooling` = {cooling} every iteration. Early on \
     almost anything goes, later almost only improvements: the search explores first and \
     settles later, the idea Kirkpatrick, Gelatt and Vecchi took from annealing metals (1983).",
    AnnealingParams::LIST,
    &[
        line("", "board ← random; T ← temperature"),
        line("proposal", "repeat until solved:"),
        line(
            "proposal",
            "    propose a random queen to a random row; Δ ← its loss"
        ),
        line("accept", "    if Δ ≤ 0: take the move"),
        line("accept_worse", "    else, with chance e^(−Δ/T): take it"),
        line("reject", "    else: leave the board"),
        line("proposal", "    T ← T × cooling"),
    ]
);

/// `hill-climbing`'s descriptor.
pub static HILL_CLIMBING: SolverDescriptor = member!(
    LocalSearchKind::HillClimbing,
    "hill-climbing",
    "the best of all single-queen moves, taken only if it improves the score",
    "Each iteration looks at all N(N − 1) single-queen moves (every queen to every other row of \
     its column) and takes the best one, if it is \
     strictly better (ties go to the lowest row, then column). It climbs fast, but stops on the \
     first local optimum: a board where no single move helps, though it is not solved. At N = 8 \
     that happens in about 6 runs of 7.",
    &[],
    &[
        line("", "board ← random"),
        line("", "repeat until solved:"),
        line("", "    best ← the best of the N(N − 1) single-queen moves"),
        line("climbed", "    if it improves the score: make it"),
        line(
            "stuck",
            "    else: stuck on a local optimum, the board stays"
        ),
    ]
);

/// The shaking climbers' pseudo-code.
const SHAKE_CODE: [CodeLine; 5] = [
    line("", "board ← random"),
    line("", "repeat until solved:"),
    line(
        "shake",
        "    with probability p: move q random queens to random rows",
    ),
    line(
        "climbed",
        "    else: make the best single move if it improves the score",
    ),
    line("stuck", "        (none does: the board stays)"),
];

/// The decaying shake's: the shake's, and the decay after a climbing step.
const DECAYING_SHAKE_CODE: [CodeLine; 6] =
    join(&SHAKE_CODE, &[line("climbed", "        p ← p × decay")]);

/// `hill-climbing-constant-shake`'s descriptor.
pub static HILL_CLIMBING_CONSTANT_SHAKE: SolverDescriptor = member!(
    LocalSearchKind::HillClimbingConstantShake,
    "hill-climbing-constant-shake",
    "hill climbing that, with probability p, shakes q random queens instead",
    "Hill climbing, except that each iteration, with probability `p` = {p}, it moves \
     `q` = {q} random queens to random rows instead of climbing. The shakes knock the board off local \
     optima so that climbing can resume elsewhere. The original study found p and q by a \
     sweep (its p × q table is reproduced by `queens experiment`): shaking 2 queens with a \
     probability around 0.2 to 0.3 works best, and the best q hardly changes with N.",
    ShakeParams::LIST,
    &SHAKE_CODE
);

/// `hill-climbing-decaying-shake`'s descriptor.
pub static HILL_CLIMBING_DECAYING_SHAKE: SolverDescriptor = member!(
    LocalSearchKind::HillClimbingDecayingShake,
    "hill-climbing-decaying-shake",
    "hill climbing with shakes whose probability decays after every climbing step",
    "Like the constant shake (a shake moves `q` = {q} random queens), but the shake \
     probability starts at `p` = {p} and is \
     multiplied by `decay` = {decay} after every climbing step, so the search shakes a lot early and climbs more later: \
     a blend of hill climbing and simulated annealing's cooling.",
    &DECAYING_SHAKE_PARAMETERS,
    &DECAYING_SHAKE_CODE
);

/// `optimized-hill-climbing`'s descriptor.
pub static OPTIMIZED_HILL_CLIMBING: SolverDescriptor = member!(
    LocalSearchKind::OptimizedHillClimbing,
    "optimized-hill-climbing",
    "hill climbing that moves q random queens whenever the score stalls",
    "Hill climbing that shakes only when it is stuck: when an iteration left the score \
     unchanged, the next one moves `q` = {q} random queens to random rows. Shaking only when \
     needed, with more queens, is the study's best member: it solves N = 32 in about 98 runs \
     of 100.",
    StallParams::LIST,
    &[
        line("", "board ← random"),
        line("", "repeat until solved:"),
        line(
            "restart",
            "    if the score did not change last iteration: move q random queens"
        ),
        line(
            "climbed",
            "    else: make the best single move if it improves the score"
        ),
        line("stuck", "        (none does: the board stays)"),
    ]
);

impl LocalSearchKind {
    /// Nanoseconds of one iteration on an N×N board, about: a pass over the columns for the
    /// random searches, one move for annealing, the N² candidate moves for the climbers.
    fn unit_cost(self, n: f64) -> f64 {
        match self {
            LocalSearchKind::RandomSearch => 7.5 * n,
            LocalSearchKind::OptimizedRandomSearch => 10.0 + 6.5 * n,
            LocalSearchKind::SimulatedAnnealing => 20.0,
            _ => 20.0 + 2.2 * n * n,
        }
    }

    /// Whether its steps climb: take the best single-queen move when one improves the board
    /// (the [`Neighbourhood`](super::Neighbourhood) it sees), as the four hill-climbing members do.
    pub const fn climbs(self) -> bool {
        matches!(
            self,
            LocalSearchKind::HillClimbing
                | LocalSearchKind::HillClimbingConstantShake
                | LocalSearchKind::HillClimbingDecayingShake
                | LocalSearchKind::OptimizedHillClimbing
        )
    }

    /// The member's descriptor.
    pub fn descriptor(self) -> &'static SolverDescriptor {
        match self {
            LocalSearchKind::RandomSearch => &RANDOM_SEARCH,
            LocalSearchKind::OptimizedRandomSearch => &OPTIMIZED_RANDOM_SEARCH,
            LocalSearchKind::SimulatedAnnealing => &SIMULATED_ANNEALING,
            LocalSearchKind::HillClimbing => &HILL_CLIMBING,
            LocalSearchKind::HillClimbingConstantShake => &HILL_CLIMBING_CONSTANT_SHAKE,
            LocalSearchKind::HillClimbingDecayingShake => &HILL_CLIMBING_DECAYING_SHAKE,
            LocalSearchKind::OptimizedHillClimbing => &OPTIMIZED_HILL_CLIMBING,
        }
    }
}
