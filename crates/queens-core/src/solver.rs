//! What a solver is: the [`Solver`] that searches and the [`SolverDescriptor`] that says
//! everything else about it.
//!
//! Each solver's module defines a descriptor beside its code: the name, a one-line summary, an
//! explanation for a learner (how it works, where it comes from, what we changed), the board
//! shapes it takes, its [declared parameters](mod@crate::parameters), its refusal checks, its memory
//! estimate, its default iteration cap and how to build it. Everything that lists or checks
//! solvers — the catalogue, the command-line help, the web API and page, experiments, the Python
//! module — reads descriptors, so adding a solver is one module plus one line in the catalogue.
//! A solver knows its descriptor and its parameters, so the [`run`](crate::solve::run) path
//! checks every problem once, against the parameters the solver will use.

use crate::budget::Budget;
use crate::descriptor::{CodeLine, Counts, Shapes};
use crate::error::{ParamError, SolveError};
use crate::observe::Observer;
use crate::outcome::Outcome;
use crate::parameters::{GivenValue, ParamValues, Parameter, explain};
use crate::problem::Problem;

/// A search for one solution of a [`Problem`].
///
/// Implementors write [`descriptor`](Solver::descriptor) and [`solve`](Solver::solve), and
/// [`parameters`](Solver::parameters) when they have any; callers use
/// [`run`](crate::solve::run), which checks the problem against the descriptor and the
/// parameters, adds the `Started`, `Solution` and `Finished` events, the elapsed time and
/// validation.
pub trait Solver {
    /// What the solver is: its name, shapes, parameters and checks.
    fn descriptor(&self) -> &'static SolverDescriptor;

    /// The parameters it runs with, checked against their ranges (by default: none, or the
    /// declared defaults).
    fn parameters(&self) -> Result<ParamValues, ParamError> {
        Ok(self.descriptor().defaults())
    }

    /// The solver's name, kebab-case, as the CLI spells it.
    fn name(&self) -> &'static str {
        self.descriptor().name
    }

    /// Searches for a solution within the context's budget, reporting to its observer what
    /// it asks for.
    ///
    /// [`run`](crate::solve::run) has checked `problem` against the descriptor and the
    /// parameters; the [`Stats::elapsed`](crate::Stats::elapsed) field is filled in by `run`.
    fn solve(&mut self, problem: &Problem, context: Context<'_>) -> Result<Outcome, SolveError>;
}

/// What the executor lends a solver for one run: the [`Budget`] it stops by and the
/// [`Observer`] it reports to.
pub struct Context<'r> {
    /// The stop rules, started by the executor.
    pub budget: &'r mut Budget,
    /// Who watches the run; it says what it wants through its interest.
    pub observer: &'r mut dyn Observer,
}

/// Everything the workbench knows about one solver.
#[derive(Debug)]
pub struct SolverDescriptor {
    /// The kebab-case name, as `--solver` and the API spell it.
    pub name: &'static str,
    /// One line: what it does.
    pub summary: &'static str,
    /// A paragraph or two for a learner: how it works, its origin (article or paper), and what
    /// we changed. A parameter is quoted as `{name}`: [`explain`](SolverDescriptor::explain)
    /// says the value in force.
    pub explanation: &'static str,
    /// What its score is (the number its `Step` events carry), in one line for a learner:
    /// "minus the pairs of queens that attack each other; 0 means solved".
    pub score: &'static str,
    /// Its pseudo-code, line by line, for the page to show beside the board: each line names
    /// the moment of a step it does (`""` for none), as the step events name them.
    pub pseudo_code: &'static [CodeLine],
    /// What one unit of its work is: "a board examined", "a move", "a generation".
    pub unit: &'static str,
    /// Whether it counts `nodes` (tree searches) or `iterations` (local search), or neither.
    pub counts: Counts,
    /// The boards and queens it takes.
    pub shapes: Shapes,
    /// Whether its run depends on the seed.
    pub randomized: bool,
    /// Its tunable parameters, in the order help lists them: the `LIST` of its
    /// [`parameters!`](crate::parameters!) declaration.
    pub parameters: &'static [Parameter],
    /// Its iteration cap when the user sets none (`None`: it needs none).
    pub default_max_iterations: fn(&Problem) -> Option<u64>,
    /// The largest N×N board on which one run stays within about a second whatever the
    /// locked queens (`None`: its caps bound it). Servers and tables use it to bound work.
    pub practical_max_n: Option<u32>,
    /// What its own marks on a watched board mean (a force's arrows, a column's conflict
    /// numbers), one sentence for a legend beside the board; `None` where it draws none.
    pub marks: Option<&'static str>,
    /// Whether its steps take the best single-queen move within a column when one improves
    /// the board, so that a view can show the score of every such move (the hill-climbing
    /// members' neighbourhood).
    pub neighbourhood: bool,
    /// Refusals beyond the shape and the parameter ranges: parameters that depend on the
    /// board, memory it may not use.
    pub check: fn(&Problem, &ParamValues) -> Result<(), SolveError>,
    /// Bytes it holds while it runs, about.
    pub memory: fn(&Problem, &ParamValues) -> u128,
    /// Nanoseconds one unit of its work (a node or an iteration) takes on one core of a
    /// current machine, about (measured by `cargo run --release -p queens-api --example
    /// unit_cost`); with the caps, what a server lets a request cost.
    pub unit_cost: fn(&Problem, &ParamValues) -> f64,
    /// A new solver, seeded with the seed (ignored by deterministic solvers).
    pub build: fn(u64, &ParamValues) -> Box<dyn Solver + Send>,
}

impl SolverDescriptor {
    /// Checks `given` parameter values against this solver's: names, then ranges and whole
    /// numbers.
    pub fn params<S: AsRef<str>, V: GivenValue>(
        &self,
        given: &[(S, V)],
    ) -> Result<ParamValues, ParamError> {
        ParamValues::new(self.name, self.parameters, given)
    }

    /// Refuses `name` unless this solver takes a parameter of that name.
    pub fn check_param_name(&self, name: &str) -> Result<(), ParamError> {
        ParamValues::check_name(self.name, self.parameters, name)
    }

    /// Every check before a run: the shape of `problem`, then the solver's own refusals.
    pub fn check_problem(&self, problem: &Problem, params: &ParamValues) -> Result<(), SolveError> {
        self.shapes
            .check(problem)
            .map_err(|reason| SolveError::Unsupported {
                solver: self.name,
                reason,
            })?;
        (self.check)(problem, params)
    }

    /// The default values of its parameters.
    pub fn defaults(&self) -> ParamValues {
        ParamValues::defaults(self.parameters)
    }

    /// The explanation with each quoted parameter's value in `values`.
    ///
    /// A template that quotes no declared parameter is a bug the catalogue's tests catch; here
    /// it shows as written.
    pub fn explain(&self, values: &ParamValues) -> String {
        explain(self.explanation, values).unwrap_or_else(|_| self.explanation.to_owned())
    }

    /// A new solver with the default parameters and seed 1.
    pub fn build_default(&self) -> Box<dyn Solver + Send> {
        (self.build)(1, &self.defaults())
    }

    /// The parameter named `name`.
    pub fn parameter(&self, name: &str) -> Option<&'static Parameter> {
        self.parameters.iter().find(|p| p.name == name)
    }
}

impl std::fmt::Display for SolverDescriptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}
