//! Every solver of the workbench by name: the one place that lists them.
//!
//! Each solver's knowledge — name, explanation, shapes, parameters, checks, memory, default
//! cap — is in its [`SolverDescriptor`], beside its code. The catalogue only registers them,
//! one line each in [`STANDARD`], and answers the questions that span solvers: which one a name
//! means, which is the default for a problem, which ones a table compares. Help texts, the web
//! API, experiments and the Python module all read a [`Catalogue`].
//!
//! ```
//! use queens_solvers::Catalogue;
//!
//! let catalogue = Catalogue::standard();
//! let genetic = catalogue.get("genetic")?;
//! assert_eq!(genetic.parameters.len(), 5);
//! assert!(catalogue.get("genetics").is_err());
//! # Ok::<(), queens_solvers::UnknownSolver>(())
//! ```

use std::fmt;
use std::ops::Deref;
use std::sync::OnceLock;

use queens_core::descriptor::Counts;
use queens_core::{ParamValues, Problem, SolveError, Solver, SolverDescriptor};
use queens_exact::{backtracking, brute_force, completion, forward_checking, row_brute_force};
use queens_heuristic::{construct, electric, genetic, local, min_conflicts, minton};
use thiserror::Error;

/// The workbench's solvers, in the order help lists them. Adding a solver is one module with
/// its descriptor, plus one line here.
pub static STANDARD: [&SolverDescriptor; 17] = [
    &brute_force::DESCRIPTOR,
    &row_brute_force::DESCRIPTOR,
    &backtracking::DESCRIPTOR,
    &forward_checking::DESCRIPTOR,
    &completion::DESCRIPTOR,
    &construct::DESCRIPTOR,
    &min_conflicts::DESCRIPTOR,
    &minton::DESCRIPTOR,
    &local::RANDOM_SEARCH,
    &local::OPTIMIZED_RANDOM_SEARCH,
    &local::SIMULATED_ANNEALING,
    &local::HILL_CLIMBING,
    &local::HILL_CLIMBING_CONSTANT_SHAKE,
    &local::HILL_CLIMBING_DECAYING_SHAKE,
    &local::OPTIMIZED_HILL_CLIMBING,
    &genetic::DESCRIPTOR,
    &electric::DESCRIPTOR,
];

/// Up to this side, the default solver is an exhaustive one (it answers in milliseconds and
/// proves unsolvability); beyond it, construction or local search.
const EXHAUSTIVE_UP_TO: u32 = 20;

/// A solver of a catalogue: its descriptor, compared by name.
#[derive(Clone, Copy)]
pub struct SolverKind(&'static SolverDescriptor);

impl SolverKind {
    /// The solver a descriptor describes.
    pub fn new(descriptor: &'static SolverDescriptor) -> Self {
        SolverKind(descriptor)
    }

    /// Its descriptor.
    pub fn descriptor(self) -> &'static SolverDescriptor {
        self.0
    }

    /// The kebab-case name.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// Whether it can go on past its first solution and find every one (a `solutions`
    /// parameter, 0 for all): what `solve --all` lists with.
    pub fn finds_every_solution(self) -> bool {
        self.0.parameter("solutions").is_some()
    }

    /// A new solver, seeded with `seed` and tuned by `params` (checked by
    /// [`SolverDescriptor::params`]).
    pub fn build(self, seed: u64, params: &ParamValues) -> Box<dyn Solver + Send> {
        (self.0.build)(seed, params)
    }

    /// Whether the solver takes `problem` with `params`; the error says why not.
    pub fn check(self, problem: &Problem, params: &ParamValues) -> Result<(), SolveError> {
        self.0.check_problem(problem, params)
    }

    /// The iteration cap of a run on `problem` when the user sets none.
    pub fn default_max_iterations(self, problem: &Problem) -> Option<u64> {
        (self.0.default_max_iterations)(problem)
    }

    /// Bytes the solver holds on `problem`, about.
    pub fn memory_estimate(self, problem: &Problem, params: &ParamValues) -> u128 {
        (self.0.memory)(problem, params)
    }
}

impl Deref for SolverKind {
    type Target = SolverDescriptor;

    fn deref(&self) -> &SolverDescriptor {
        self.0
    }
}

impl PartialEq for SolverKind {
    fn eq(&self, other: &Self) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for SolverKind {}

impl std::hash::Hash for SolverKind {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.name.hash(state);
    }
}

impl fmt::Debug for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SolverKind({})", self.0.name)
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name)
    }
}

/// A solver of the [standard](Catalogue::standard) catalogue by name.
impl std::str::FromStr for SolverKind {
    type Err = UnknownSolver;

    fn from_str(name: &str) -> Result<Self, UnknownSolver> {
        Catalogue::standard().get(name)
    }
}

/// A name that is not a solver of the catalogue.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("unknown solver '{}' ({}expected one of: {known})", queens_core::error::excerpt(name), did_you_mean(*suggestion))]
pub struct UnknownSolver {
    /// The name given.
    pub name: String,
    /// The catalogue's name closest to it, if one is close (a misspelling).
    pub suggestion: Option<&'static str>,
    /// The catalogue's names, comma-separated.
    pub known: String,
}

/// "did you mean 'hill-climbing'? " or nothing.
fn did_you_mean(suggestion: Option<&str>) -> String {
    suggestion.map_or_else(String::new, |name| format!("did you mean '{name}'? "))
}

/// How alike two names must be (Jaro similarity, 0 to 1) for one to be suggested for the other,
/// as the command line's parser suggests misspelt subcommands.
const SUGGESTION_SIMILARITY: f64 = 0.8;

/// The name of `names` most like `name`, if it is alike enough to be a misspelling of it, or
/// else the one name `name` abbreviates ([`abbreviated`]).
fn closest<'a>(name: &str, names: impl Iterator<Item = &'a str> + Clone) -> Option<&'a str> {
    names
        .clone()
        .map(|candidate| (strsim::jaro(name, candidate), candidate))
        .filter(|&(similarity, _)| similarity >= SUGGESTION_SIMILARITY)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate)
        .or_else(|| abbreviated(name, names))
}

/// The one name of `names` that `name` abbreviates, as a user of the field writes them: its
/// initials (`sa` for simulated-annealing, `hc` for hill-climbing) or one of its words
/// (`annealing`), where no other name shares them.
fn abbreviated<'a>(name: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let name = name.to_ascii_lowercase();
    let mut meant = names.filter(|candidate| {
        let initials: String = candidate
            .split('-')
            .filter_map(|word| word.chars().next())
            .collect();
        (name.len() >= 2 && initials == name)
            || (name.len() >= 4 && candidate.split('-').any(|word| word == name))
    });
    let first = meant.next()?;
    meant.next().is_none().then_some(first)
}

/// A set of solvers by name.
#[derive(Clone, Debug)]
pub struct Catalogue {
    solvers: Vec<SolverKind>,
}

impl Catalogue {
    /// The workbench's solvers ([`STANDARD`]).
    pub fn standard() -> &'static Catalogue {
        static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
        CATALOGUE.get_or_init(|| Catalogue::of(&STANDARD))
    }

    /// A catalogue of `descriptors`, in that order; a later descriptor with an earlier one's
    /// name replaces it.
    pub fn of(descriptors: &[&'static SolverDescriptor]) -> Catalogue {
        let mut catalogue = Catalogue {
            solvers: Vec::with_capacity(descriptors.len()),
        };
        for &descriptor in descriptors {
            catalogue.register(descriptor);
        }
        catalogue
    }

    /// This catalogue with `descriptor` added (or replacing the solver of the same name): how
    /// a program built on the workbench brings a solver of its own to the help, the web API
    /// and experiments.
    #[must_use]
    pub fn with(&self, descriptor: &'static SolverDescriptor) -> Catalogue {
        let mut catalogue = self.clone();
        catalogue.register(descriptor);
        catalogue
    }

    fn register(&mut self, descriptor: &'static SolverDescriptor) {
        let kind = SolverKind(descriptor);
        match self.solvers.iter_mut().find(|known| **known == kind) {
            Some(known) => *known = kind,
            None => self.solvers.push(kind),
        }
    }

    /// Every solver, in order.
    pub fn solvers(&self) -> &[SolverKind] {
        &self.solvers
    }

    /// The solver named `name`.
    pub fn get(&self, name: &str) -> Result<SolverKind, UnknownSolver> {
        let name = name.trim();
        self.solvers
            .iter()
            .copied()
            .find(|solver| solver.name() == name)
            .ok_or_else(|| UnknownSolver {
                name: name.to_owned(),
                suggestion: closest(name, self.names().into_iter()),
                known: self.names().join(", "),
            })
    }

    /// The solvers `names` names, in their order; the first unknown name is the error.
    pub fn get_all<S: AsRef<str>>(
        &self,
        names: impl IntoIterator<Item = S>,
    ) -> Result<Vec<SolverKind>, UnknownSolver> {
        names
            .into_iter()
            .map(|name| self.get(name.as_ref()))
            .collect()
    }

    /// Every solver's name.
    pub fn names(&self) -> Vec<&'static str> {
        self.solvers.iter().map(|s| s.name()).collect()
    }

    /// The solvers that count nodes, but for the completion search: the exhaustive searches the
    /// Queen's Challenge compares, from brute force to forward checking (the completion search
    /// is for positions with blocked squares, and places queens in an order of its own).
    pub fn tree_searches(&self) -> Vec<SolverKind> {
        self.solvers
            .iter()
            .copied()
            .filter(|s| {
                s.counts == Counts::Nodes && !std::ptr::eq(s.0, &raw const completion::DESCRIPTOR)
            })
            .collect()
    }

    /// The solvers that can find every solution ([`SolverKind::finds_every_solution`]), in
    /// the catalogue's order.
    pub fn listers(&self) -> Vec<SolverKind> {
        self.solvers
            .iter()
            .copied()
            .filter(|solver| solver.finds_every_solution())
            .collect()
    }

    /// The solver that lists every solution where none is named: forward checking for one
    /// queen a row (`queens` of `rows`), else brute force, the exhaustive searches that take
    /// such boards.
    pub fn lister_for(rows: u32, queens: u32) -> SolverKind {
        SolverKind::new(if queens == rows {
            &forward_checking::DESCRIPTOR
        } else {
            &brute_force::DESCRIPTOR
        })
    }

    /// The best solver for `problem`: wherever queens are placed or squares blocked on an N×N
    /// board the completion search takes (up to 1024), that search, which ends solved or
    /// proved unsolvable; otherwise exhaustive search on small boards (it also proves that there
    /// is no solution), the construction on large empty ones, and min-conflicts on larger
    /// boards with placed queens (it cannot prove that no completion exists); brute force when
    /// the queen count differs from the row count.
    pub fn best_for(problem: &Problem) -> SolverKind {
        let large = problem.classic_side().is_some_and(|n| n > EXHAUSTIVE_UP_TO);
        let position = !problem.blocked().is_empty() || !problem.fixed().is_empty();
        let completable = problem
            .classic_side()
            .is_some_and(|n| n <= completion::MAX_N);
        let descriptor = if position && completable {
            &completion::DESCRIPTOR
        } else if !problem.blocked().is_empty() {
            // Only the exhaustive solvers keep off blocked squares.
            if problem.one_queen_per_row() {
                &forward_checking::DESCRIPTOR
            } else {
                &brute_force::DESCRIPTOR
            }
        } else if large && problem.fixed().is_empty() {
            &construct::DESCRIPTOR
        } else if large {
            &min_conflicts::DESCRIPTOR
        } else if problem.one_queen_per_row() {
            &forward_checking::DESCRIPTOR
        } else {
            &brute_force::DESCRIPTOR
        };
        SolverKind(descriptor)
    }

    /// The original local-search comparison's seven solvers: what an experiment runs when none
    /// is named.
    pub fn original_comparison() -> Vec<SolverKind> {
        queens_heuristic::LocalSearchKind::ALL
            .into_iter()
            .map(|kind| SolverKind(kind.descriptor()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelt_solver_gets_a_suggestion_and_a_stranger_none() {
        let catalogue = Catalogue::standard();
        for (typed, meant) in [
            ("hill-climbng", "hill-climbing"),
            ("backtraking", "backtracking"),
            ("genetics", "genetic"),
            ("min-conflict", "min-conflicts"),
            ("optimised-hill-climbing", "optimized-hill-climbing"),
        ] {
            let error = catalogue.get(typed).unwrap_err();
            assert_eq!(error.suggestion, Some(meant), "{typed}");
            assert!(
                error.to_string().starts_with(&format!(
                    "unknown solver '{typed}' (did you mean '{meant}'? expected one of: "
                )),
                "{error}"
            );
        }
        // Initials and words name the one solver that has them, and none where several do.
        for (typed, meant) in [
            ("sa", Some("simulated-annealing")),
            ("HC", Some("hill-climbing")),
            ("ohc", Some("optimized-hill-climbing")),
            ("fc", Some("forward-checking")),
            ("annealing", Some("simulated-annealing")),
            ("minton", Some("min-conflicts-minton")),
            ("climbing", None),
            ("force", None),
            ("g", None),
        ] {
            assert_eq!(
                catalogue.get(typed).unwrap_err().suggestion,
                meant,
                "{typed}"
            );
        }
        let error = catalogue.get("quantum").unwrap_err();
        assert_eq!(error.suggestion, None);
        assert!(
            error
                .to_string()
                .starts_with("unknown solver 'quantum' (expected one of: brute-force, "),
            "{error}"
        );
    }

    #[test]
    fn names_are_unique_and_every_descriptor_is_complete() {
        let catalogue = Catalogue::standard();
        let mut names = catalogue.names();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), STANDARD.len());
        for solver in catalogue.solvers() {
            assert!(!solver.summary.is_empty(), "{solver}");
            assert!(solver.explanation.len() > 200, "{solver}: explain it");
            assert!(solver.score.len() > 10, "{solver}: say what its score is");
            assert!(
                solver.pseudo_code.len() >= 3,
                "{solver}: write its pseudo-code"
            );
            for line in solver.pseudo_code {
                assert!(
                    line.moment.is_empty()
                        || queens_core::descriptor::MOMENTS.contains(&line.moment),
                    "{solver}: no step is the moment {:?}",
                    line.moment
                );
            }
            for parameter in solver.parameters {
                // A value the user can change is quoted from its declaration, so that the
                // explanation says the value in force, never a default written as a fact.
                let written = format!("`{}` = ", parameter.name);
                let quoted = format!("`{0}` = {{{0}}}", parameter.name);
                assert!(
                    solver.explanation.contains(&quoted),
                    "{solver}: the explanation does not quote {}",
                    parameter.name
                );
                assert_eq!(
                    solver.explanation.matches(&written).count(),
                    solver.explanation.matches(&quoted).count(),
                    "{solver}: the explanation writes a value of {} as fixed",
                    parameter.name
                );
                assert!(parameter.check(parameter.default).is_ok(), "{solver}");
                assert!(parameter.min <= parameter.max, "{solver}");
            }
            let problem = Problem::square(8).unwrap();
            let defaults = solver.defaults();
            assert!(solver.check(&problem, &defaults).is_ok(), "{solver}");
        }
    }

    /// A value of `parameter` in its range, from a random draw (whole numbers within a
    /// thousand of the minimum, so that runs stay small).
    fn in_range(parameter: &queens_core::Parameter, draw: u32) -> f64 {
        let top = if parameter.integer {
            parameter.max.min(parameter.min + 1000.0)
        } else {
            parameter.max.min(parameter.min + 1e6)
        };
        let value = parameter.min + f64::from(draw) / f64::from(u32::MAX) * (top - parameter.min);
        if parameter.integer {
            value.round().clamp(parameter.min, top)
        } else {
            value
        }
    }

    proptest::proptest! {
        /// Every solver built with random in-range parameters carries exactly those values
        /// (descriptor and struct agree), knows its descriptor, and explains itself with them.
        #[test]
        fn descriptor_struct_and_explanation_agree(
            index in 0..STANDARD.len(),
            draws in proptest::array::uniform8(proptest::prelude::any::<u32>()),
            seed in 0u64..1000,
        ) {
            let solver = SolverKind(STANDARD[index]);
            assert!(solver.parameters.len() <= draws.len(), "{solver}: draw more");
            let given: Vec<(&str, f64)> = solver
                .parameters
                .iter()
                .zip(draws)
                .map(|(parameter, draw)| (parameter.name, in_range(parameter, draw)))
                .collect();
            let values = solver.params(&given).unwrap();
            let built = solver.build(seed, &values);
            proptest::prop_assert_eq!(built.descriptor().name, solver.name);
            proptest::prop_assert_eq!(built.parameters().unwrap(), values.clone());
            let explained = queens_core::parameters::explain(solver.explanation, &values).unwrap();
            proptest::prop_assert_eq!(&explained, &solver.explain(&values));
            for (name, value) in values.iter() {
                let said = format!("`{name}` = {value}");
                proptest::prop_assert!(explained.contains(&said), "{}: {} missing", solver, said);
            }
        }
    }

    #[test]
    fn a_solver_keeps_off_blocked_squares_or_refuses_them() {
        use queens_core::descriptor::BlockedSquares;
        use queens_core::{Budget, Square, solve::run_unobserved};

        // Of the four solutions of 6×6, one has its rank-1 queen on e1: block the rest of rank 1.
        let blocked: Vec<Square> = [0, 1, 2, 3, 5].map(|col| Square::new(0, col)).to_vec();
        let problem = Problem::square(6).unwrap().with_blocked(blocked).unwrap();
        for solver in Catalogue::standard().solvers() {
            let mut budget = Budget::unlimited().with_max_nodes(10_000_000);
            let result = run_unobserved(
                solver.build(1, &solver.defaults()).as_mut(),
                &problem,
                &mut budget,
            );
            match solver.shapes.blocked {
                BlockedSquares::Avoided => {
                    // The run validates the board, blocked squares included.
                    let outcome = result.unwrap();
                    let board = outcome.solution().unwrap_or_else(|| panic!("{solver}"));
                    assert!(board.has_queen(Square::new(0, 4)), "{solver}");
                }
                BlockedSquares::Refused(reason) => {
                    let error = result.unwrap_err().to_string();
                    assert!(error.contains(reason), "{solver}: {error}");
                }
            }
        }
        let best = Catalogue::best_for(&problem);
        assert_eq!(best.shapes.blocked, BlockedSquares::Avoided, "{best}");
    }

    #[test]
    fn unknown_names_list_the_known_ones() {
        let error = Catalogue::standard().get("slove").unwrap_err();
        assert!(error.to_string().contains("forward-checking"), "{error}");
    }
}
