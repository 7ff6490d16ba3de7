//! Every solver by name: what `--solver` accepts, which one is the default for a problem, what
//! each needs in memory, and how [`Settings`] tune the ones with parameters.

use std::fmt;
use std::str::FromStr;

use queens_core::{Problem, SolveError, Solver};
use queens_exact::ExactSolver;
use queens_heuristic::{
    Construct, ElectricForce, ElectricParams, Genetic, GeneticParams, LocalSearch, LocalSearchKind,
    LocalSearchParams, MinConflicts, MinConflictsMinton, MinConflictsParams,
};

/// Overrides of solver parameters by name (`--set p=0.1`), and an iteration cap.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// Replaces the local-search family's own iteration cap.
    pub max_iterations: Option<u64>,
    /// Parameter values by name.
    pub values: std::collections::BTreeMap<String, f64>,
}

impl Settings {
    /// The value of `name`, if set.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.values.get(name).copied()
    }

    /// The value of `name` as a count, if set (negative and fractional values are rejected by
    /// [`SolverKind::check_settings`]).
    pub fn get_u32(&self, name: &str) -> Option<u32> {
        self.get(name).map(|v| v as u32)
    }
}

/// A solver the CLI can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverKind {
    /// One of the exhaustive solvers.
    Exact(ExactSolver),
    /// The explicit construction.
    Construct,
    /// QS4-style min-conflicts.
    MinConflicts,
    /// Minton's min-conflicts, the classic reference.
    MinConflictsMinton,
    /// A member of the seed-002 local-search family.
    Local(LocalSearchKind),
    /// The genetic algorithm of seed 003.
    Genetic,
    /// The electric-force analogy of seed 000.
    ElectricForce,
}

/// Up to this side, the default solver is an exhaustive one (it answers in milliseconds and
/// proves unsolvability); beyond it, construction or local search.
const EXHAUSTIVE_UP_TO: u32 = 20;

impl SolverKind {
    /// Every solver, in the order `--help` lists them.
    pub const ALL: [SolverKind; 16] = [
        SolverKind::Exact(ExactSolver::BruteForce),
        SolverKind::Exact(ExactSolver::RowBruteForce),
        SolverKind::Exact(ExactSolver::Backtracking),
        SolverKind::Exact(ExactSolver::ForwardChecking),
        SolverKind::Construct,
        SolverKind::MinConflicts,
        SolverKind::MinConflictsMinton,
        SolverKind::Local(LocalSearchKind::RandomSearch),
        SolverKind::Local(LocalSearchKind::OptimizedRandomSearch),
        SolverKind::Local(LocalSearchKind::SimulatedAnnealing),
        SolverKind::Local(LocalSearchKind::HillClimbing),
        SolverKind::Local(LocalSearchKind::HillClimbingConstantShake),
        SolverKind::Local(LocalSearchKind::HillClimbingDecayingShake),
        SolverKind::Local(LocalSearchKind::OptimizedHillClimbing),
        SolverKind::Genetic,
        SolverKind::ElectricForce,
    ];

    /// The kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Exact(exact) => exact.name(),
            SolverKind::Construct => "construct",
            SolverKind::MinConflicts => "min-conflicts",
            SolverKind::MinConflictsMinton => "min-conflicts-minton",
            SolverKind::Local(kind) => kind.name(),
            SolverKind::Genetic => "genetic",
            SolverKind::ElectricForce => "electric-force",
        }
    }

    /// A new solver of this kind, seeded with `seed` and tuned by `settings`. The iteration
    /// cap, when set, replaces the local-search family's and the genetic algorithm's own (1000
    /// iterations or generations, as in the originals).
    pub fn build(self, seed: u64, settings: &Settings) -> Box<dyn Solver + Send> {
        match self {
            SolverKind::Exact(exact) => exact.build(),
            SolverKind::Construct => Box::new(Construct),
            SolverKind::MinConflicts => {
                let defaults = MinConflictsParams::default();
                Box::new(MinConflicts::with_params(MinConflictsParams {
                    seed,
                    probes: settings.get_u32("probes").unwrap_or(defaults.probes),
                    tail: settings.get_u32("tail").unwrap_or(defaults.tail),
                }))
            }
            SolverKind::MinConflictsMinton => Box::new(MinConflictsMinton::new(seed)),
            SolverKind::Local(kind) => {
                Box::new(LocalSearch::new(kind, local_params(seed, settings)))
            }
            SolverKind::Genetic => Box::new(Genetic::new(genetic_params(seed, settings))),
            SolverKind::ElectricForce => {
                Box::new(ElectricForce::new(electric_params(seed, settings)))
            }
        }
    }

    /// The `--set` names this solver reads.
    pub fn parameters(self) -> &'static [&'static str] {
        match self {
            SolverKind::MinConflicts => &["probes", "tail"],
            SolverKind::Local(LocalSearchKind::SimulatedAnnealing) => &["temperature", "cooling"],
            SolverKind::Local(LocalSearchKind::HillClimbingConstantShake) => &["p", "q"],
            SolverKind::Local(LocalSearchKind::HillClimbingDecayingShake) => &["p", "q", "decay"],
            SolverKind::Local(LocalSearchKind::OptimizedHillClimbing) => &["q"],
            SolverKind::Genetic => &["population", "tournament", "elite", "crossover", "mutation"],
            SolverKind::ElectricForce => &["line", "coulomb", "border", "restart", "avoid"],
            _ => &[],
        }
    }

    /// The best solver for `problem`: exhaustive search on small boards; the construction on
    /// large ones, or min-conflicts when queens are fixed; brute force for partial boards.
    pub fn best_for(problem: &Problem) -> SolverKind {
        match problem.classic_side() {
            Some(n) if n > EXHAUSTIVE_UP_TO => {
                if problem.fixed().is_empty() {
                    SolverKind::Construct
                } else {
                    SolverKind::MinConflicts
                }
            }
            _ => SolverKind::Exact(ExactSolver::best_for(problem)),
        }
    }

    /// Whether the solver handles `problem`; the error says why not.
    pub fn check(self, problem: &Problem) -> Result<(), SolveError> {
        let unsupported = |reason: &str| SolveError::Unsupported {
            solver: self.name(),
            reason: reason.to_owned(),
        };
        match self {
            SolverKind::Exact(exact) => exact.check(problem),
            SolverKind::Genetic if !problem.fixed().is_empty() => Err(unsupported(
                "it evolves every queen (use min-conflicts for fixed queens)",
            )),
            SolverKind::Genetic => Ok(()),
            _ if problem.classic_side().is_none() => {
                Err(unsupported("it places N queens on an N×N board"))
            }
            SolverKind::Construct if !problem.fixed().is_empty() => Err(unsupported(
                "it builds one fixed solution and cannot honour fixed queens (use min-conflicts)",
            )),
            SolverKind::Local(_) if !problem.fixed().is_empty() => Err(unsupported(
                "the original's algorithms move every queen (use min-conflicts for fixed queens)",
            )),
            _ => Ok(()),
        }
    }

    /// Bytes the solver holds while it runs, about (the exhaustive solvers check their own
    /// limit in [`check`](Self::check)).
    pub fn memory_estimate(self, problem: &Problem) -> u128 {
        match self {
            SolverKind::Exact(exact) => exact.memory_estimate(problem),
            SolverKind::Construct => 4 * u128::from(problem.rows()),
            SolverKind::MinConflicts => u128::from(MinConflicts::memory_estimate(problem.rows())),
            // A row per column and counters per row and diagonal, 8 bytes each.
            SolverKind::MinConflictsMinton | SolverKind::Local(_) | SolverKind::ElectricForce => {
                8 * 6 * u128::from(problem.rows())
            }
            // Populations of M genes, 4 bytes each.
            SolverKind::Genetic => 2 * 200 * 4 * u128::from(problem.queens()),
        }
    }
}

impl SolverKind {
    /// Checks that every value in `settings` is one this solver reads, in its range.
    pub fn check_settings(self, settings: &Settings, n: u32) -> Result<(), String> {
        let counts = [
            "q",
            "probes",
            "tail",
            "population",
            "tournament",
            "elite",
            "restart",
        ];
        for (name, &value) in &settings.values {
            if !self.parameters().contains(&name.as_str()) {
                return Err(format!(
                    "{self} has no parameter '{name}' (it reads: {})",
                    listing(self.parameters())
                ));
            }
            if counts.contains(&name.as_str())
                && (value < 0.0 || value.fract() != 0.0 || value > f64::from(u32::MAX))
            {
                return Err(format!("{name} must be a whole number, got {value}"));
            }
        }
        match self {
            SolverKind::Local(kind) => local_params(0, settings)
                .check(kind, n)
                .map_err(|bad| bad.0),
            SolverKind::Genetic => genetic_params(0, settings).check(),
            SolverKind::ElectricForce => check_electric(settings),
            _ => Ok(()),
        }
    }
}

/// The electric force's settings: weights not negative, a restart of at least one iteration,
/// `avoid` 0 or 1.
fn check_electric(settings: &Settings) -> Result<(), String> {
    for weight in ["line", "coulomb", "border"] {
        if settings
            .get(weight)
            .is_some_and(|w| !(w >= 0.0 && w.is_finite()))
        {
            return Err(format!("{weight} must be a weight of 0 or more"));
        }
    }
    if settings.get("restart") == Some(0.0) {
        return Err("restart must be at least 1 iteration".into());
    }
    if settings
        .get("avoid")
        .is_some_and(|a| a.fract() != 0.0 || !(0.0..=1.0).contains(&a))
    {
        return Err("avoid must be 0 or 1".into());
    }
    Ok(())
}

/// The electric force's parameters: the article's with `settings` applied.
fn electric_params(seed: u64, settings: &Settings) -> ElectricParams {
    let defaults = ElectricParams::default();
    ElectricParams {
        seed,
        line_weight: settings.get("line").unwrap_or(defaults.line_weight),
        coulomb_weight: settings.get("coulomb").unwrap_or(defaults.coulomb_weight),
        border_weight: settings.get("border").unwrap_or(defaults.border_weight),
        restart_after: settings
            .get_u32("restart")
            .unwrap_or(defaults.restart_after),
        max_iterations: settings.max_iterations.unwrap_or(defaults.max_iterations),
        avoid_new_lines: settings
            .get("avoid")
            .map_or(defaults.avoid_new_lines, |a| a != 0.0),
    }
}

/// The local-search family's parameters: the defaults with `settings` applied (`q` sets both
/// the shake and the stall queens).
fn local_params(seed: u64, settings: &Settings) -> LocalSearchParams {
    let defaults = LocalSearchParams::default();
    let q = settings.get_u32("q");
    LocalSearchParams {
        seed,
        max_iterations: settings.max_iterations.unwrap_or(defaults.max_iterations),
        temperature: settings.get("temperature").unwrap_or(defaults.temperature),
        cooling: settings.get("cooling").unwrap_or(defaults.cooling),
        shake_probability: settings.get("p").unwrap_or(defaults.shake_probability),
        shake_decay: settings.get("decay").unwrap_or(defaults.shake_decay),
        shake_queens: q.unwrap_or(defaults.shake_queens),
        stall_queens: q.unwrap_or(defaults.stall_queens),
    }
}

/// The genetic algorithm's parameters: the defaults with `settings` applied.
fn genetic_params(seed: u64, settings: &Settings) -> GeneticParams {
    let defaults = GeneticParams::default();
    GeneticParams {
        seed,
        population: settings
            .get_u32("population")
            .unwrap_or(defaults.population),
        tournament: settings
            .get_u32("tournament")
            .unwrap_or(defaults.tournament),
        elite: settings.get_u32("elite").unwrap_or(defaults.elite),
        crossover: settings.get("crossover").unwrap_or(defaults.crossover),
        mutation: settings.get("mutation").unwrap_or(defaults.mutation),
        generations: settings.max_iterations.unwrap_or(defaults.generations),
    }
}

fn listing(names: &[&str]) -> String {
    if names.is_empty() {
        "nothing".to_owned()
    } else {
        names.join(", ")
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSolver(String);

impl fmt::Display for UnknownSolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = SolverKind::ALL.iter().map(|s| s.name()).collect();
        write!(
            f,
            "unknown solver '{}' (expected one of: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownSolver {}

impl FromStr for SolverKind {
    type Err = UnknownSolver;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        SolverKind::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| UnknownSolver(name.to_owned()))
    }
}
