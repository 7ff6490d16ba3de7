//! The parts a [`SolverDescriptor`](crate::SolverDescriptor) is built from: the board
//! [`Shapes`] a solver takes, which counter its work shows in ([`Counts`]), and its pseudo-code
//! ([`CodeLine`]s naming the [`MOMENTS`] of a step).

use serde::{Serialize, Serializer};

use crate::problem::Problem;

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
    /// Whether it keeps off blocked squares, or why it cannot.
    pub blocked: BlockedSquares,
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

/// Whether a solver keeps off blocked squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockedSquares {
    /// No queen it places stands on a blocked square.
    Avoided,
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
        if let FixedQueens::Refused(reason) = self.fixed
            && !problem.fixed().is_empty()
        {
            return Err(reason.into());
        }
        match self.blocked {
            BlockedSquares::Refused(reason) if !problem.blocked().is_empty() => Err(reason.into()),
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
        let blocked = match self.blocked {
            BlockedSquares::Avoided => ", blocked squares avoided",
            BlockedSquares::Refused(_) => "",
        };
        format!("{board}, {fixed}{blocked}")
    }
}

/// Shapes as JSON: `{"boards": "square" | "rectangular", "queens": "n" | "rows" | "any",
/// "fixed": bool, "blocked": bool}`.
impl Serialize for Shapes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let (boards, queens) = match self.board {
            BoardShape::Classic => ("square", "n"),
            BoardShape::OnePerRow => ("rectangular", "rows"),
            BoardShape::Any => ("rectangular", "any"),
        };
        let mut shapes = serializer.serialize_struct("Shapes", 4)?;
        shapes.serialize_field("boards", boards)?;
        shapes.serialize_field("queens", queens)?;
        shapes.serialize_field("fixed", &matches!(self.fixed, FixedQueens::Kept))?;
        shapes.serialize_field("blocked", &matches!(self.blocked, BlockedSquares::Avoided))?;
        shapes.end()
    }
}

/// A line of a solver's pseudo-code and the moment of a step it does.
///
/// Moments are named by the step events: a step's note kind (`proposal`, `stuck`, `swap`, …,
/// with `accept`, `accept_worse`, `reject`, `kick` and `refused` telling how a proposal or a
/// swap ended) or, for a tree search, `place`, `reject` and `backtrack`; `check` is a whole board
/// examined, `solved` the step that completes a solution, and `step` is any step.
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
    "check",
    "solved",
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

/// Two lists of a descriptor as one, when the program is compiled: the parameters of a solver
/// that reads two declared sets, the pseudo-code of one that adds a line to another's.
///
/// ```
/// use queens_core::descriptor::{CodeLine, join, line};
///
/// const CLIMB: [CodeLine; 2] = [line("", "repeat:"), line("climbed", "    climb")];
/// const DECAYING: [CodeLine; 3] = join(&CLIMB, &[line("climbed", "    p ← p × decay")]);
/// assert_eq!(DECAYING[2].text, "    p ← p × decay");
/// ```
pub const fn join<T: Copy, const N: usize>(first: &[T], second: &[T]) -> [T; N] {
    assert!(
        N > 0 && first.len() + second.len() == N,
        "the joined list has the wrong length"
    );
    let mut joined = [if first.is_empty() {
        second[0]
    } else {
        first[0]
    }; N];
    let mut i = 0;
    while i < N {
        joined[i] = if i < first.len() {
            first[i]
        } else {
            second[i - first.len()]
        };
        i += 1;
    }
    joined
}

/// A pseudo-code line: `line("place", "  put a queen on (r, c)")`.
pub const fn line(moment: &'static str, text: &'static str) -> CodeLine {
    CodeLine { moment, text }
}
