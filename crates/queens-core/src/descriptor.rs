//! What a solver is, in one place: its [`SolverDescriptor`].
//!
//! Each solver's module defines a descriptor beside its code: the name, a one-line summary, an
//! explanation for a learner (how it works, where it comes from, what we changed), the board
//! shapes it takes, its typed [`Parameter`]s, its refusal checks, its memory estimate, its
//! default iteration cap and how to build it. Everything that lists or checks solvers — the
//! catalogue, the command-line help, the web API and page, experiments, the Python module —
//! reads descriptors, so adding a solver is one module plus one line in the catalogue.
//!
//! ```
//! use queens_core::descriptor::{Parameter, ParamValues};
//!
//! const PARAMETERS: &[Parameter] = &[
//!     Parameter::real("p", 0.23, 0.0, 1.0, "probability of a shake"),
//!     Parameter::whole("q", 2.0, 1.0, 1e6, "queens moved by a shake"),
//! ];
//! let values = ParamValues::new("demo", PARAMETERS, &[("q", 3.0)])?;
//! assert_eq!((values.get("p"), values.count("q")), (0.23, 3));
//! assert!(ParamValues::new("demo", PARAMETERS, &[("q", 2.5)]).is_err());
//! # Ok::<(), queens_core::descriptor::ParamError>(())
//! ```

use serde::{Serialize, Serializer};

pub use crate::error::ParamError;
use crate::error::{SolveError, range_text};
use crate::problem::Problem;
use crate::solve::Solver;

/// Everything the workbench knows about one solver.
#[derive(Debug)]
pub struct SolverDescriptor {
    /// The kebab-case name, as `--solver` and the API spell it.
    pub name: &'static str,
    /// One line: what it does.
    pub summary: &'static str,
    /// A paragraph or two for a learner: how it works, its origin (article or paper), and what
    /// we changed.
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
    /// Its tunable parameters, in the order help lists them.
    pub parameters: &'static [Parameter],
    /// Its iteration cap when the user sets none (`None`: it needs none).
    pub default_max_iterations: fn(&Problem) -> Option<u64>,
    /// The largest N×N board on which one run stays within about a second whatever the
    /// locked queens (`None`: its caps bound it). Servers and tables use it to bound work.
    pub practical_max_n: Option<u32>,
    /// Refusals beyond the shape and the parameter ranges: parameters that depend on the
    /// board, memory it may not use.
    pub check: fn(&Problem, &ParamValues) -> Result<(), SolveError>,
    /// Bytes it holds while it runs, about.
    pub memory: fn(&Problem, &ParamValues) -> u128,
    /// Nanoseconds one unit of its work (a node or an iteration) takes on one core of a
    /// current machine, about (measured by `cargo run --release -p queens-lab --example
    /// unit_cost`); with the caps, what a server lets a request cost.
    pub unit_cost: fn(&Problem, &ParamValues) -> f64,
    /// A new solver, seeded with the seed (ignored by deterministic solvers).
    pub build: fn(u64, &ParamValues) -> Box<dyn Solver + Send>,
}

impl SolverDescriptor {
    /// Checks `given` parameter values against this solver's: names, ranges, whole numbers.
    pub fn params<S: AsRef<str>>(&self, given: &[(S, f64)]) -> Result<ParamValues, ParamError> {
        ParamValues::new(self.name, self.parameters, given)
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
        ParamValues {
            values: self
                .parameters
                .iter()
                .map(|p| (p.name, p.default))
                .collect(),
        }
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

/// Which counter a solver's work shows in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Counts {
    /// Nodes of a search tree (checked against the node cap).
    Nodes,
    /// Iterations of a local search (checked against the iteration cap).
    Iterations,
    /// Neither: it computes its answer directly.
    Nothing,
}

/// The problems a solver takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shapes {
    /// Boards and queen counts.
    pub board: BoardShape,
    /// Whether it keeps fixed queens, or why not.
    pub fixed: FixedQueens,
}

/// Boards and queen counts a solver takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardShape {
    /// N queens on an N×N board.
    Classic,
    /// Any R×C board, one queen per row.
    OnePerRow,
    /// Any R×C board, any number of queens.
    Any,
}

/// Whether a solver keeps fixed queens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixedQueens {
    /// Fixed queens stay where they are in every answer.
    Kept,
    /// Refused, with the reason and an alternative.
    Refused(&'static str),
}

impl Shapes {
    /// `Err` with a reason when `problem` is not one of these shapes.
    pub fn check(&self, problem: &Problem) -> Result<(), String> {
        match self.board {
            BoardShape::Classic if problem.classic_side().is_none() => {
                return Err("it places N queens on an N×N board".into());
            }
            BoardShape::OnePerRow if !problem.one_queen_per_row() => {
                return Err(format!(
                    "it places one queen per row, so it needs {} queens on a board with {} rows, not {}",
                    problem.rows(),
                    problem.rows(),
                    problem.queens()
                ));
            }
            _ => {}
        }
        match self.fixed {
            FixedQueens::Refused(reason) if !problem.fixed().is_empty() => Err(reason.into()),
            _ => Ok(()),
        }
    }

    /// A few words for help texts: "N×N, fixed queens kept".
    pub fn describe(&self) -> String {
        let board = match self.board {
            BoardShape::Classic => "N×N",
            BoardShape::OnePerRow => "any R×C, one queen per row",
            BoardShape::Any => "any R×C, any number of queens",
        };
        let fixed = match self.fixed {
            FixedQueens::Kept => "fixed queens kept",
            FixedQueens::Refused(_) => "no fixed queens",
        };
        format!("{board}, {fixed}")
    }
}

/// Shapes as JSON: `{"boards": "square" | "rectangular", "queens": "n" | "rows" | "any",
/// "fixed": bool}`.
impl Serialize for Shapes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let (boards, queens) = match self.board {
            BoardShape::Classic => ("square", "n"),
            BoardShape::OnePerRow => ("rectangular", "rows"),
            BoardShape::Any => ("rectangular", "any"),
        };
        let mut shapes = serializer.serialize_struct("Shapes", 3)?;
        shapes.serialize_field("boards", boards)?;
        shapes.serialize_field("queens", queens)?;
        shapes.serialize_field("fixed", &matches!(self.fixed, FixedQueens::Kept))?;
        shapes.end()
    }
}

/// A line of a solver's pseudo-code and the moment of a step it does.
///
/// Moments are named by the step events: a step's note kind (`proposal`, `stuck`, `swap`, …,
/// with `accept`, `accept_worse`, `reject`, `kick` and `refused` telling how a proposal or a
/// swap ended) or, for a tree search, `place`, `reject` and `backtrack`; `step` is any step.
/// Indentation is written in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CodeLine {
    /// The moment it does, or `""`.
    pub moment: &'static str,
    /// The line, indented by spaces.
    pub text: &'static str,
}

/// Every moment a pseudo-code line may name: the step notes' kinds, how a proposal or a swap
/// ended, a tree search's moments, and `step` for any step.
pub const MOMENTS: &[&str] = &[
    "step",
    "place",
    "reject",
    "backtrack",
    "thrown",
    "tried",
    "proposal",
    "accept",
    "accept_worse",
    "climbed",
    "stuck",
    "shake",
    "restart",
    "swap",
    "refused",
    "kick",
    "repair",
    "push",
    "brute_force",
    "generation",
];

/// A pseudo-code line: `line("place", "  put a queen on (r, c)")`.
pub const fn line(moment: &'static str, text: &'static str) -> CodeLine {
    CodeLine { moment, text }
}

/// One tunable parameter: `--set NAME=VALUE`, a field of the web API, a keyword in Python.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Parameter {
    /// Its name.
    pub name: &'static str,
    /// The value when none is given.
    pub default: f64,
    /// The smallest value allowed.
    #[serde(serialize_with = "serialize_bound")]
    pub min: f64,
    /// The largest value allowed (infinite is `null` in JSON).
    #[serde(serialize_with = "serialize_bound")]
    pub max: f64,
    /// Whether only whole numbers are allowed.
    pub integer: bool,
    /// One line: what it does.
    pub doc: &'static str,
}

impl Parameter {
    /// A real-valued parameter in `min..=max`.
    pub const fn real(
        name: &'static str,
        default: f64,
        min: f64,
        max: f64,
        doc: &'static str,
    ) -> Self {
        Parameter {
            name,
            default,
            min,
            max,
            integer: false,
            doc,
        }
    }

    /// A whole-number parameter in `min..=max`.
    pub const fn whole(
        name: &'static str,
        default: f64,
        min: f64,
        max: f64,
        doc: &'static str,
    ) -> Self {
        Parameter {
            name,
            default,
            min,
            max,
            integer: true,
            doc,
        }
    }

    /// `Err` when `value` is not allowed.
    pub fn check(&self, value: f64) -> Result<(), ParamError> {
        let name = self.name;
        if !value.is_finite() {
            return Err(ParamError::NotANumber {
                name: name.to_owned(),
                value: value.to_string(),
            });
        }
        if self.integer && value.fract() != 0.0 {
            return Err(ParamError::NotWhole { name, value });
        }
        if value < self.min || value > self.max {
            return Err(ParamError::OutOfRange {
                name,
                value,
                min: self.min,
                max: self.max,
                integer: self.integer,
            });
        }
        Ok(())
    }

    /// The allowed values in words: "0 or 1", "1 to 100000", "[0, 1]".
    pub fn range(&self) -> String {
        range_text(self.min, self.max, self.integer)
    }
}

/// A parameter's value read from text (`--set p=0.2`, `?p=0.2`): a finite number.
pub fn parse_value(name: &str, text: &str) -> Result<f64, ParamError> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|value| value.is_finite())
        .ok_or_else(|| ParamError::NotANumber {
            name: name.to_owned(),
            value: text.trim().to_owned(),
        })
}

/// A solver's parameter values, checked against its [`Parameter`]s: every parameter it
/// declares, the given value or the default.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValues {
    values: Vec<(&'static str, f64)>,
}

impl ParamValues {
    /// Checks `given` (name, value) pairs against `parameters` of the solver named `solver`.
    pub fn new<S: AsRef<str>>(
        solver: &'static str,
        parameters: &'static [Parameter],
        given: &[(S, f64)],
    ) -> Result<Self, ParamError> {
        let mut values: Vec<(&'static str, f64)> =
            parameters.iter().map(|p| (p.name, p.default)).collect();
        let mut seen: Vec<&str> = Vec::with_capacity(given.len());
        for (name, value) in given {
            let name = name.as_ref();
            let Some(index) = parameters.iter().position(|p| p.name == name) else {
                let known: Vec<&str> = parameters.iter().map(|p| p.name).collect();
                return Err(ParamError::Unknown {
                    solver,
                    name: name.to_owned(),
                    known: if known.is_empty() {
                        "nothing".to_owned()
                    } else {
                        known.join(", ")
                    },
                });
            };
            if seen.contains(&name) {
                return Err(ParamError::Twice(name.to_owned()));
            }
            seen.push(name);
            parameters[index].check(*value)?;
            values[index].1 = *value;
        }
        Ok(ParamValues { values })
    }

    /// The value of the parameter `name`.
    ///
    /// # Panics
    /// When the solver declares no such parameter: a bug in the solver's descriptor.
    pub fn get(&self, name: &str) -> f64 {
        self.values
            .iter()
            .find(|(known, _)| *known == name)
            .map_or_else(
                || panic!("parameter '{name}' is not declared"),
                |&(_, value)| value,
            )
    }

    /// The value of a whole-number parameter declared within `u32`.
    pub fn count(&self, name: &str) -> u32 {
        self.get(name) as u32
    }

    /// Every parameter with its value, in declaration order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        self.values.iter().copied()
    }
}

/// A bound as JSON: an infinite one is `null`.
#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde passes fields by reference"
)]
fn serialize_bound<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if value.is_finite() {
        serializer.serialize_f64(*value)
    } else {
        serializer.serialize_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARAMETERS: &[Parameter] = &[
        Parameter::real("p", 0.23, 0.0, 1.0, "probability"),
        Parameter::whole("avoid", 1.0, 0.0, 1.0, "a switch"),
        Parameter::whole("restart", 300.0, 1.0, 1e9, "iterations"),
    ];

    fn refused(name: &str, value: f64) -> String {
        ParamValues::new("demo", PARAMETERS, &[(name, value)])
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn defaults_fill_what_is_not_given() {
        let values = ParamValues::new("demo", PARAMETERS, &[("restart", 5.0)]).unwrap();
        assert!((values.get("p") - 0.23).abs() < 1e-12);
        assert_eq!(values.count("restart"), 5);
    }

    #[test]
    fn refusals_say_what_is_allowed() {
        assert_eq!(refused("avoid", 2.0), "avoid must be 0 or 1, got 2");
        assert_eq!(
            refused("restart", 0.0),
            "restart must be at least 1 (1 to 1000000000), got 0"
        );
        assert_eq!(refused("p", 1.5), "p must be in [0, 1], got 1.5");
        assert_eq!(
            refused("restart", 2.5),
            "restart must be a whole number, got 2.5"
        );
        assert_eq!(refused("p", f64::NAN), "p must be a number, got 'NaN'");
        assert_eq!(
            refused("x", 1.0),
            "demo has no parameter 'x' (it reads: p, avoid, restart)"
        );
        assert_eq!(
            ParamValues::new("demo", PARAMETERS, &[("p", 0.1), ("p", 0.2)])
                .unwrap_err()
                .to_string(),
            "p is given twice"
        );
    }
}
