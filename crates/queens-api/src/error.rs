//! Why a request is refused before it runs: one error for every request of the front door —
//! a solve, a count, a count of completions, an analysis — so that each front end words any
//! refusal in its own terms through one [`Worded`] impl.
//!
//! ```
//! use queens_api::count::{CountRequest, CountSpec};
//! use queens_api::{RequestError, Worded, Words};
//!
//! let error = CountRequest::new(&CountSpec::new(0)).unwrap_err();
//! assert!(matches!(error, RequestError::Count(_)));
//! assert_eq!(error.worded(Words::CommandLine), error.to_string());
//! ```

use queens_configurator::{PositionError, UnknownEngine};
use queens_core::{ProblemError, SolveError};
use queens_exact::count::{CountError, CountRunError};
use queens_gpu::GpuError;
use queens_solvers::UnknownSolver;
use thiserror::Error;

use crate::setting::{SettingError, Worded, Words};

/// A request that cannot run. Each message is one sentence in the user's terms.
#[derive(Debug, Error)]
pub enum RequestError {
    /// The board, the queen count, the fixed queens or the blocked squares of a solve or a
    /// count of completions.
    #[error(transparent)]
    Problem(#[from] ProblemError),
    /// The side, a queen or a blocked square of an analysis.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// No such solver.
    #[error(transparent)]
    UnknownSolver(#[from] UnknownSolver),
    /// No such analysis engine.
    #[error(transparent)]
    UnknownEngine(#[from] UnknownEngine),
    /// The solver refuses the problem or a parameter.
    #[error(transparent)]
    Solver(#[from] SolveError),
    /// A count's N, engine or shard out of range.
    #[error(transparent)]
    Count(#[from] CountError),
    /// A count's job refused its threads (the bounds refuse them first).
    #[error(transparent)]
    Run(#[from] CountRunError),
    /// No GPU to count on.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// A setting out of range, or given where it has no use.
    #[error(transparent)]
    Setting(#[from] SettingError),
    /// More memory than the machine (or its limits) leaves.
    #[error("{0}")]
    Memory(String),
    /// An engine or a size that does not count completions, in words.
    #[error("{0}")]
    Unsupported(String),
    /// A count whose estimate is longer than the most that starts unasked.
    #[error("{}", raise_to_start(.0, "the longest estimate"))]
    TooLong(String),
    /// Blocked squares on a board too large for any solver to choose by itself.
    #[error("{}", no_solver_for(*n, *max, "the forward-checking solver"))]
    NoSolverFor {
        /// The board's side.
        n: u32,
        /// The completion search's largest side.
        max: u32,
    },
}

impl From<queens_core::ParamError> for RequestError {
    fn from(error: queens_core::ParamError) -> Self {
        RequestError::Solver(error.into())
    }
}

impl Worded for RequestError {
    fn worded(&self, words: Words) -> String {
        let named =
            |command_line: &'static str, python: &'static str, prose: &'static str| match words {
                Words::CommandLine => command_line,
                Words::Python => python,
                Words::Prose | Words::Page => prose,
            };
        match self {
            RequestError::Setting(error) => error.worded(words),
            RequestError::NoSolverFor { n, max } => no_solver_for(
                *n,
                *max,
                named(
                    "--solver forward-checking",
                    "solver=\"forward-checking\"",
                    "the forward-checking solver",
                ),
            ),
            RequestError::TooLong(estimate) => raise_to_start(
                estimate,
                named(
                    "it (--max-estimate SECONDS)",
                    "it (max_estimate=SECONDS)",
                    "the longest estimate",
                ),
            ),
            RequestError::Gpu(error @ GpuError::OnlySoftware { .. }) => format!(
                "{error}: name one ({}) to use it anyway",
                named("--device I", "device=I", "by its index, as the device")
            ),
            other => other.to_string(),
        }
    }
}

/// The refusal of blocked squares on a board no solver takes them on by itself, `solver` saying
/// how to name one in the asker's terms.
fn no_solver_for(n: u32, max: u32, solver: &str) -> String {
    format!(
        "no solver takes blocked squares on a {n}×{n} board by itself: the completion search \
         goes to {max}×{max}, the local searches refuse blocked squares, and an exhaustive \
         search would not end; name one ({solver}) to search anyway"
    )
}

/// The refusal of a count whose estimate is too long, `setting` saying what to raise in the
/// asker's terms.
fn raise_to_start(estimate: &str, setting: &str) -> String {
    format!("{estimate}; raise {setting} to start it anyway, or split the count into shards")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_software_adapters_are_named_in_each_front_ends_terms() {
        let error = RequestError::Gpu(GpuError::OnlySoftware {
            listing: "0: llvmpipe".into(),
        });
        assert!(
            error
                .worded(Words::CommandLine)
                .ends_with("name one (--device I) to use it anyway"),
            "{error}"
        );
        assert!(error.worded(Words::Python).contains("(device=I)"));
        assert!(
            error
                .to_string()
                .contains("only software adapters (0: llvmpipe)")
        );
    }
}
