//! `electric-force`: queens as like charges that push each other off shared lines (the article
//! "Solving eight queens problem with electrical force analogy", 2014), for any N.
//!
//! N queens start on distinct random squares. Each iteration, every queen that shares a line
//! with another feels, from each such queen, a same-line repulsion (weight 6: one of the six
//! directions that leave their shared line, at random) and a Coulomb push away from it (weight
//! 2, falling with the squared distance), plus a push from the borders toward the centre as if
//! the board were a circle (weight 5, growing toward the rim). The sum is normalised and the
//! queen moves one square that way (each component rounded), unless the square is off the board
//! or taken. Queens attacked by no one stay where they are: they have reached their place.
//! Fixed queens push the others like any queen but never move.
//!
//! The forces run from a random board, restarting from a new one after 300 iterations while more
//! than two queens are attacked; once at most two are, those are brute-forced over every free
//! square, and if that fails the search goes on from a new board. Iterations count every force
//! step over all restarts; the budget's cap is 10 000 by default.
//!
//! Where the article leaves the law open, we chose: queens move one after another within an
//! iteration (each sees the others where they stand), the border push is that of like charges
//! spread on a ring around the board (1/(R − r)² − 1/(R + r)², nothing at the centre), and the
//! same-line direction skips the directions that would leave the two queens on another shared
//! line, the improvement the article itself proposes (`avoid_new_lines`; off, any of the six).
//! Moving all queens at once from the same positions, or choosing among all six directions,
//! turns the forces into a random walk that rarely gets below three attacked queens at N = 8.

use queens_core::descriptor::{Counts, line};
use queens_core::random::SeededRng;
use queens_core::solve::Reporter;
use queens_core::{Board, Budget, Context, Outcome, Parameters, Problem, SolveError, Solver};
use queens_core::{SolverDescriptor, Square, StepNote, StopReason, Verdict};
use rand::{RngExt, SeedableRng};

use crate::driver::{Steps, Turn, drive};
use crate::require_classic;

queens_core::parameters! {
    /// The parameters of `electric-force`, with the article's values as defaults.
    pub struct ElectricParams {
        /// weight of the push off a shared line
        line: f64 = 6.0, 0.0..=1e6;
        /// weight of the Coulomb push between queens on a shared line
        coulomb: f64 = 2.0, 0.0..=1e6;
        /// weight of the push in from the board's rim
        border: f64 = 5.0, 0.0..=1e6;
        /// force steps before a board with more than two attacked queens restarts
        restart: u32 = 300, 1..=1_000_000_000;
        /// 1: leave a shared line only in directions that share no other line with the pusher;
        /// 0: any of the six
        avoid: bool = 1, 0..=1;
    }
}

/// `electric-force`'s descriptor.
pub static DESCRIPTOR: SolverDescriptor = SolverDescriptor {
    name: "electric-force",
    summary: "queens as like charges, pushed off shared lines until they settle; the last two brute-forced",
    explanation: "Imagine each queen as an electric charge. Every queen that shares a line with \
        another is pushed: off the shared line (one of the directions that leave it, at \
        random), away from the other queen by Coulomb's law (weaker with the squared distance), \
        and in from the board's rim as if the board were a ring of like charges. The pushes are \
        added, and the queen moves one square that way. Queens nobody attacks stay put: they \
        have found their place. After `restart` = {restart} steps with more than two queens still attacked, the \
        board restarts from random squares; once at most two are attacked, those two are \
        brute-forced over every free square.\n\n\
        It is the algorithm of the 2014 article \"Solving eight queens problem with electrical \
        force analogy\", with its weights 6 (same line), 2 (Coulomb) and 5 (border), the defaults of \
        `line` = {line}, `coulomb` = {coulomb} and `border` = {border}. The \
        article leaves the laws open; we move queens one after another, use a ring around the \
        board for the border push, and skip leaving directions that would put the two queens on \
        another shared line, the improvement the article itself proposes (`avoid` = {avoid}; 0 turns it off). Locked queens push like the others but never move. The method does not scale \
        past N ≈ 10, because the brute force covers only the last two queens.",
    pseudo_code: &[
        line("restart", "start from a random board"),
        line("push", "repeat until at most two queens are attacked:"),
        line(
            "push",
            "    every attacked queen moves one square along the force on it",
        ),
        line(
            "restart",
            "    after too many pushes: start again from a new random board",
        ),
        line(
            "brute_force",
            "place the last one or two queens by brute force",
        ),
        line(
            "restart",
            "if they fit nowhere: start again from a new random board",
        ),
    ],
    score: "minus the pairs of queens that attack each other; 0 means solved",
    unit: "a force step (every attacked queen moves once)",
    counts: Counts::Iterations,
    shapes: crate::CLASSIC_FIXED_KEPT,
    randomized: true,
    parameters: ElectricParams::LIST,
    default_max_iterations: |_| Some(10_000),
    practical_max_n: None,
    marks: Some(
        "Blue arrows: the force on each queen the step pushed, from where it stood, longer for \
         a stronger force; orange arrows: the moves it made.",
    ),
    neighbourhood: false,
    check: |_, _| Ok(()),
    memory: |problem, _| 8 * 6 * u128::from(problem.rows()),
    unit_cost: |problem, _| {
        let n = f64::from(problem.rows());
        224.0 * n + 4.0 * n * n
    },
    build: |seed, values| {
        Box::new(ElectricForce::new(
            seed,
            ElectricParams::from_values(values),
        ))
    },
};

/// The electric-force solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct ElectricForce {
    seed: u64,
    params: ElectricParams,
}

impl ElectricForce {
    /// The solver seeded with `seed`, with `params`.
    pub fn new(seed: u64, params: ElectricParams) -> Self {
        ElectricForce { seed, params }
    }
}

/// A plane vector.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Vector {
    x: f64,
    y: f64,
}

impl Vector {
    fn scaled(self, factor: f64) -> Vector {
        Vector {
            x: self.x * factor,
            y: self.y * factor,
        }
    }

    fn plus(self, other: Vector) -> Vector {
        Vector {
            x: self.x + other.x,
            y: self.y + other.y,
        }
    }

    fn length(self) -> f64 {
        self.x.hypot(self.y)
    }

    fn unit(self) -> Vector {
        let length = self.length();
        if length == 0.0 {
            self
        } else {
            self.scaled(1.0 / length)
        }
    }
}

/// The eight king steps as (column, row) offsets.
const STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// Queens on distinct squares, as (column, row); the first `pinned` are fixed queens, which
/// push the others but never move.
struct Charges {
    n: i32,
    queens: Vec<(i32, i32)>,
    pinned: usize,
}

fn shares_line(a: (i32, i32), b: (i32, i32)) -> bool {
    a.0 == b.0 || a.1 == b.1 || (a.0 - b.0).abs() == (a.1 - b.1).abs()
}

fn square(queen: (i32, i32)) -> Square {
    Square::new(queen.1 as u32, queen.0 as u32)
}

impl Charges {
    /// The fixed queens where they stand and the others on random free squares.
    fn random(n: u32, fixed: &[Square], rng: &mut SeededRng) -> Charges {
        let n = n as i32;
        let mut queens: Vec<(i32, i32)> =
            fixed.iter().map(|q| (q.col as i32, q.row as i32)).collect();
        let pinned = queens.len();
        while queens.len() < n as usize {
            let queen = (rng.random_range(0..n), rng.random_range(0..n));
            if !queens.contains(&queen) {
                queens.push(queen);
            }
        }
        Charges { n, queens, pinned }
    }

    /// Whether queen `i` shares a line with another queen.
    fn is_attacked(&self, i: usize) -> bool {
        let me = self.queens[i];
        self.queens
            .iter()
            .enumerate()
            .any(|(j, &other)| j != i && shares_line(me, other))
    }

    /// The queens that may move and share a line with another queen.
    fn attacked(&self) -> Vec<usize> {
        (self.pinned..self.queens.len())
            .filter(|&i| self.is_attacked(i))
            .collect()
    }

    fn attacking_pairs(&self) -> i64 {
        let mut pairs = 0;
        for (i, &a) in self.queens.iter().enumerate() {
            pairs += self.queens[i + 1..]
                .iter()
                .filter(|&&b| shares_line(a, b))
                .count() as i64;
        }
        pairs
    }

    /// One of the six king steps that leave the line `a` and `b` share, at random; with
    /// `avoid_new_lines`, only among those after which `a` shares no other line with `b`.
    fn leaving_direction(
        a: (i32, i32),
        b: (i32, i32),
        avoid_new_lines: bool,
        rng: &mut SeededRng,
    ) -> Vector {
        let along = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
        let leaving: Vec<(i32, i32)> = STEPS
            .iter()
            .copied()
            .filter(|&step| step != along && step != (-along.0, -along.1))
            .filter(|&step| !avoid_new_lines || !shares_line((a.0 + step.0, a.1 + step.1), b))
            .collect();
        let Some(&(x, y)) = leaving.get(rng.random_range(0..leaving.len().max(1))) else {
            return Vector::default();
        };
        Vector {
            x: f64::from(x),
            y: f64::from(y),
        }
        .unit()
    }

    /// The push from the borders of a board imagined as a circle: toward the centre, nothing at
    /// the centre and strongest at the corners.
    fn border_push(&self, queen: (i32, i32)) -> Vector {
        let centre = f64::from(self.n - 1) / 2.0;
        let offset = Vector {
            x: centre - f64::from(queen.0),
            y: centre - f64::from(queen.1),
        };
        // The rim runs half a square outside the board's corners.
        let rim = centre * std::f64::consts::SQRT_2 + 1.0;
        let r = offset.length();
        // Like charges spread on a ring of radius `rim` push a charge at radius `r` toward the
        // centre; the nearer side of the ring pushes harder: 1/(rim − r)² − 1/(rim + r)².
        offset
            .unit()
            .scaled(1.0 / (rim - r).powi(2) - 1.0 / (rim + r).powi(2))
    }

    /// The force on queen `i`: the Coulomb push and the push off the line of every queen it
    /// shares a line with, and the push from the borders, each weighted.
    fn force(&self, i: usize, params: &ElectricParams, rng: &mut SeededRng) -> Vector {
        let me = self.queens[i];
        let mut sum = Vector::default();
        for (j, &other) in self.queens.iter().enumerate() {
            if j == i || !shares_line(me, other) {
                continue;
            }
            let away = Vector {
                x: f64::from(me.0 - other.0),
                y: f64::from(me.1 - other.1),
            };
            let distance = away.length();
            let coulomb = away.unit().scaled(1.0 / (distance * distance));
            let line = Self::leaving_direction(me, other, params.avoid, rng);
            sum = sum
                .plus(line.scaled(params.line))
                .plus(coulomb.scaled(params.coulomb));
        }
        sum.plus(self.border_push(me).scaled(params.border))
    }

    /// One iteration: each queen attacked at the start of it, in turn, moves under the forces
    /// of the queens as they stand then (one that an earlier move freed stays). A move onto a
    /// taken or off-board square is skipped.
    fn step(
        &mut self,
        params: &ElectricParams,
        rng: &mut SeededRng,
        reporter: &mut Reporter<'_>,
    ) -> Result<(), StopReason> {
        for i in self.attacked() {
            if !self.is_attacked(i) {
                continue;
            }
            let force = self.force(i, params, rng);
            let (col, row) = self.queens[i];
            reporter.force(square((col, row)), force.x, force.y)?;
            let direction = force.unit();
            let target = (
                col + direction.x.round() as i32,
                row + direction.y.round() as i32,
            );
            let on_board = (0..self.n).contains(&target.0) && (0..self.n).contains(&target.1);
            if target != (col, row) && on_board && !self.queens.contains(&target) {
                self.queens[i] = target;
                reporter.moved(square((col, row)), square(target))?;
            }
        }
        Ok(())
    }

    /// Tries every placement of the queens `loose` on free squares; true (and placed) when one
    /// completes a solution.
    /// Places the `loose` queens on free squares where they attack nothing, reporting each as
    /// lifted and placed; `false` if no placement exists.
    fn brute_force(
        &mut self,
        loose: &[usize],
        reporter: &mut Reporter<'_>,
    ) -> Result<bool, StopReason> {
        let fixed: Vec<(i32, i32)> = (0..self.queens.len())
            .filter(|i| !loose.contains(i))
            .map(|i| self.queens[i])
            .collect();
        let free: Vec<(i32, i32)> = (0..self.n)
            .flat_map(|col| (0..self.n).map(move |row| (col, row)))
            .filter(|&spot| fixed.iter().all(|&q| !shares_line(q, spot)))
            .collect();
        let placement = match loose {
            [one] => free.first().map(|&spot| vec![(*one, spot)]),
            [first, second] => free.iter().enumerate().find_map(|(k, &a)| {
                free[k + 1..]
                    .iter()
                    .find(|&&b| !shares_line(a, b))
                    .map(|&b| vec![(*first, a), (*second, b)])
            }),
            _ => None,
        };
        match placement {
            Some(spots) => {
                for (i, spot) in spots {
                    // Lifted and placed, not pushed: the brute force is no force step.
                    let from = std::mem::replace(&mut self.queens[i], spot);
                    if from != spot {
                        reporter.remove(square(from))?;
                        reporter.place(square(spot))?;
                    }
                }
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn board(&self) -> Board {
        let queens = self.queens.iter().map(|&q| square(q)).collect();
        Board::with_queens(self.n as u32, self.n as u32, queens).expect("queens on the board")
    }
}

impl Solver for ElectricForce {
    queens_core::declared!(DESCRIPTOR, params);

    fn solve(&mut self, problem: &Problem, context: Context<'_>) -> Result<Outcome, SolveError> {
        let Context { budget, observer } = context;
        let n = require_classic(DESCRIPTOR.name, problem)?;
        if n == 2 || n == 3 {
            return Ok(Outcome::new(Verdict::Unsolvable)
                .with_iterations(0)
                .with_seed(self.seed));
        }
        let mut rng = SeededRng::seed_from_u64(self.seed);
        let charges = Charges::random(n, problem.fixed(), &mut rng);
        let mut search = Settling {
            n,
            fixed: problem.fixed(),
            params: self.params,
            loose: charges.attacked(),
            charges,
            pushes: 0,
            restarted: false,
            rng,
        };
        Ok(drive(
            &mut search,
            self.seed,
            budget,
            &mut Reporter::new(observer),
        ))
    }
}

/// A run as the driver steps it: a step is one push of the charges. Before each, a board with
/// at most two attacked queens has them brute-forced, and a board still crowded after
/// `restart` pushes (or whose brute force fails) gives way to a new random one.
struct Settling<'p> {
    n: u32,
    fixed: &'p [Square],
    params: ElectricParams,
    charges: Charges,
    /// The attacked queens that may move.
    loose: Vec<usize>,
    /// Pushes since the board was dealt.
    pushes: u32,
    /// Whether the next push is the first of a new random board (for its step note).
    restarted: bool,
    rng: SeededRng,
}

impl Settling<'_> {
    /// Clears the board and deals a new random one, for an animation. A restart takes no step,
    /// so it asks `budget` itself: a run of restarts still stops at once.
    fn restart(&mut self, reporter: &mut Reporter<'_>, budget: &Budget) -> Result<(), StopReason> {
        budget.check()?;
        show(&self.charges, reporter, Some(()));
        self.restarted = true;
        self.charges = Charges::random(self.n, self.fixed, &mut self.rng);
        show(&self.charges, reporter, None);
        self.loose = self.charges.attacked();
        self.pushes = 0;
        Ok(())
    }
}

impl Steps for Settling<'_> {
    fn start_squares(&self) -> Vec<Square> {
        self.charges.queens.iter().map(|&q| square(q)).collect()
    }

    fn over(&mut self, turn: &mut Turn<'_, '_>) -> Result<Option<Verdict>, StopReason> {
        let Turn {
            steps,
            reporter,
            budget,
        } = turn;
        loop {
            if self.loose.len() > 2 {
                if self.pushes < self.params.restart {
                    return Ok(None);
                }
                self.restart(reporter, budget)?;
                continue;
            }
            if self.loose.is_empty() {
                return Ok(Some(Verdict::Solved(self.charges.board())));
            }
            if self.charges.brute_force(&self.loose, reporter)? {
                // The placement's step: the board is solved whatever the observer says.
                let note = StepNote::BruteForce {
                    queens: self.loose.len() as u32,
                };
                let _ = reporter.step_noted(*steps, || 0, || note);
                return Ok(Some(Verdict::Solved(self.charges.board())));
            }
            self.restart(reporter, budget)?;
        }
    }

    fn step(&mut self, turn: &mut Turn<'_, '_>) -> Result<StepNote, StopReason> {
        let attacked = self.loose.len() as u32;
        self.charges
            .step(&self.params, &mut self.rng, turn.reporter)?;
        self.pushes += 1;
        self.loose = self.charges.attacked();
        Ok(StepNote::Push {
            attacked,
            restarted: std::mem::take(&mut self.restarted),
        })
    }

    fn score(&self) -> i64 {
        -self.charges.attacking_pairs()
    }

    fn board(&self) -> Board {
        self.charges.board()
    }
}

/// Places (or, with `clear`, removes) every queen of `charges` for an animation; a stopped
/// observer is noticed at the next step.
fn show(charges: &Charges, reporter: &mut Reporter<'_>, clear: Option<()>) {
    for &queen in &charges.queens {
        let _ = if clear.is_some() {
            reporter.remove(square(queen))
        } else {
            reporter.place(square(queen))
        };
    }
}

#[cfg(test)]
mod tests {
    use queens_core::Budget;
    use queens_core::solve::run_unobserved;

    use super::*;

    /// One run on `problem` with the default parameters but `seed`, capped at `max_iterations`.
    fn solve(problem: &Problem, seed: u64, max_iterations: u64) -> Outcome {
        let mut solver = ElectricForce::new(seed, ElectricParams::default());
        run_unobserved(
            &mut solver,
            problem,
            &mut Budget::unlimited().with_max_iterations(max_iterations),
        )
        .unwrap()
    }

    #[test]
    fn solves_eight_and_other_sizes_with_valid_boards() {
        for n in [1u32, 4, 5, 6, 8] {
            for seed in 0..4 {
                let outcome = solve(&Problem::square(n).unwrap(), seed, 200_000);
                assert!(
                    matches!(outcome.verdict, Verdict::Solved(_)),
                    "n = {n}, seed {seed}: {:?}",
                    outcome.verdict
                );
            }
        }
    }

    #[test]
    fn a_seed_reproduces_its_run() {
        let eight = Problem::square(8).unwrap();
        let run_of = |seed| {
            let outcome = solve(&eight, seed, 10_000);
            (outcome.verdict, outcome.stats.iterations)
        };
        assert_eq!(run_of(3), run_of(3));
        assert_ne!(run_of(3).1, run_of(4).1);
    }

    #[test]
    fn a_leaving_direction_leaves_the_line() {
        let mut rng = SeededRng::seed_from_u64(1);
        for (a, b) in [
            ((0, 0), (0, 5)),
            ((2, 3), (6, 3)),
            ((1, 1), (4, 4)),
            ((0, 4), (4, 0)),
        ] {
            for _ in 0..50 {
                let d = Charges::leaving_direction(a, b, false, &mut rng);
                let moved = (a.0 + d.x.round() as i32, a.1 + d.y.round() as i32);
                assert_ne!(moved, a);
                let along = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
                let step = (moved.0 - a.0, moved.1 - a.1);
                assert!(step != along && step != (-along.0, -along.1));
            }
        }
    }

    #[test]
    fn unsolvable_sizes_are_answered_and_fixed_queens_stay() {
        let outcome = solve(&Problem::square(3).unwrap(), 0, 10_000);
        assert_eq!(outcome.verdict, Verdict::Unsolvable);
        let fixed = Problem::square(8)
            .unwrap()
            .with_fixed(vec![Square::new(0, 3), Square::new(6, 4)])
            .unwrap();
        let mut successes = 0;
        for seed in 0..4 {
            // The executor checks the fixed queens are in the answer.
            let outcome = solve(&fixed, seed, 200_000);
            successes += usize::from(matches!(outcome.verdict, Verdict::Solved(_)));
        }
        assert!(successes > 0);
    }
}
