//! `solve --all`: every solution an exhaustive search finds, checked by the independent
//! validator and written as it is found, so that a listing stopped by Ctrl-C or a cap keeps
//! what it found.

use std::io::Write;
use std::ops::ControlFlow;

use queens_core::observe::{Event, Observer};
use queens_core::symmetry::{self, Symmetry};
use queens_core::verify::check_solution;
use queens_core::{Problem, QueenList};

use crate::args::Format;
use crate::commands::solve::write_board;

/// The solutions of a run as it finds them, in `format`: a diagram each, apart by a blank
/// line; a permutation a line; a JSON object a line (`{"solution": 1, "queens": [...]}`);
/// nothing for a summary, which counts them at the end. With `--unique`, only those that are the
/// least of their kind under the turns and mirrors that keep the problem.
pub struct Listing<'w> {
    problem: Problem,
    format: Format,
    labels: bool,
    out: &'w mut dyn Write,
    /// The kinds listed, with `--unique`.
    kinds: Option<Kinds>,
    /// Why the listing stopped the run: a write that failed, or a solution the validator
    /// refused.
    failed: Option<anyhow::Error>,
}

impl<'w> Listing<'w> {
    /// A listing of `problem`'s solutions to `out`: every one, or the least of each kind.
    pub fn new(
        problem: &Problem,
        format: Format,
        labels: bool,
        listed: Listed,
        out: &'w mut dyn Write,
    ) -> Self {
        Listing {
            problem: problem.clone(),
            format,
            labels,
            out,
            kinds: (listed == Listed::LeastOfEachKind).then(|| Kinds {
                of: symmetry::Kinds::of(problem),
                listed: 0,
            }),
            failed: None,
        }
    }

    /// The kinds listed, with `--unique`.
    pub fn kinds(&self) -> Option<&Kinds> {
        self.kinds.as_ref()
    }

    /// What stopped the listing, if anything did.
    pub fn failure(self) -> Option<anyhow::Error> {
        self.failed
    }

    /// Whether the `queens` found are listed: every solution, or the least of its kind.
    fn lists(&mut self, queens: &[queens_core::Square]) -> bool {
        match &mut self.kinds {
            None => true,
            Some(kinds) if kinds.of.is_least(queens) => {
                kinds.listed += 1;
                true
            }
            Some(_) => false,
        }
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
            && self.lists(queens)
            && let Err(error) = self.write(solution, queens)
        {
            self.failed = Some(error);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

/// What `solve --all` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    /// Every solution found.
    Every,
    /// With `--unique`, each solution that is the least of its kind.
    LeastOfEachKind,
}

/// The kinds a `--unique` listing lists: the turns and mirrors that keep the problem, and how
/// many solutions were listed as the least of their kind.
pub struct Kinds {
    of: symmetry::Kinds,
    listed: u64,
}

impl Kinds {
    /// How many solutions were listed.
    pub fn listed(&self) -> u64 {
        self.listed
    }

    /// What the kinds are told up to: "turning and mirroring the board" where all eight keep
    /// the problem, else the turns and mirrors that do, in words; `None` where none does.
    pub fn up_to(&self) -> Option<String> {
        let symmetries = self.of.symmetries();
        if symmetries.len() == Symmetry::ALL.len() {
            return Some("turning and mirroring the board".to_owned());
        }
        let names: Vec<&str> = symmetries[1..].iter().map(|&s| words(s)).collect();
        (!names.is_empty()).then(|| {
            format!(
                "the turns and mirrors that keep the problem ({})",
                names.join(", ")
            )
        })
    }
}

/// A symmetry in words, as the page's captions say them.
fn words(symmetry: Symmetry) -> &'static str {
    match symmetry {
        Symmetry::Identity => "leaving the board as it is",
        Symmetry::Rotate90 => "a quarter turn",
        Symmetry::Rotate180 => "a half turn",
        Symmetry::Rotate270 => "three quarter turns",
        Symmetry::MirrorFiles => "mirroring left to right",
        Symmetry::MirrorRanks => "mirroring top to bottom",
        Symmetry::Transpose => "mirroring on the a1–h8 diagonal",
        Symmetry::AntiTranspose => "mirroring on the other diagonal",
    }
}
