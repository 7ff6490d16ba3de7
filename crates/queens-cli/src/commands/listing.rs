//! `solve --all`: every solution an exhaustive search finds, checked by the independent
//! validator and written as it is found, so that a listing stopped by Ctrl-C or a cap keeps
//! what it found.

use std::io::Write;
use std::ops::ControlFlow;

use queens_core::observe::{Event, Observer};
use queens_core::verify::check_solution;
use queens_core::{Problem, QueenList};

use crate::args::Format;
use crate::commands::solve::write_board;

/// The solutions of a run as it finds them, in `format`: a diagram each, apart by a blank
/// line; a permutation a line; a JSON object a line (`{"solution": 1, "queens": [...]}`);
/// nothing for a summary, which counts them at the end.
pub struct Listing<'w> {
    problem: Problem,
    format: Format,
    labels: bool,
    out: &'w mut dyn Write,
    /// Why the listing stopped the run: a write that failed, or a solution the validator
    /// refused.
    failed: Option<anyhow::Error>,
}

impl<'w> Listing<'w> {
    /// A listing of `problem`'s solutions to `out`.
    pub fn new(problem: &Problem, format: Format, labels: bool, out: &'w mut dyn Write) -> Self {
        Listing {
            problem: problem.clone(),
            format,
            labels,
            out,
            failed: None,
        }
    }

    /// What stopped the listing, if anything did.
    pub fn failure(self) -> Option<anyhow::Error> {
        self.failed
    }

    /// Checks and writes the `solution`-th solution.
    fn write(&mut self, solution: u64, queens: &[queens_core::Square]) -> anyhow::Result<()> {
        let board = self.problem.board(queens.to_vec())?;
        check_solution(&self.problem, &board).map_err(|reason| {
            anyhow::anyhow!("solution {solution} of the listing is not one: {reason}")
        })?;
        let out = &mut *self.out;
        match self.format {
            Format::Text | Format::Perm => {
                if self.format == Format::Text && solution > 1 {
                    writeln!(out)?;
                }
                write_board(&board, self.format, self.labels, out)?;
            }
            Format::Json => {
                let found = Found {
                    solution,
                    queens: QueenList(&board),
                };
                serde_json::to_writer(&mut *out, &found)?;
                writeln!(out)?;
            }
            Format::Summary => {}
        }
        Ok(())
    }
}

/// A solution of a JSON listing: which, and its queens as the run's document lists them.
#[derive(serde::Serialize)]
struct Found<'b> {
    solution: u64,
    queens: QueenList<'b>,
}

impl Observer for Listing<'_> {
    fn wants_solutions(&self) -> bool {
        true
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        if let Event::Found { solution, queens } = *event
            && let Err(error) = self.write(solution, queens)
        {
            self.failed = Some(error);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}
