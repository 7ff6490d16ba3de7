//! The vocabulary of the `queens` workbench: everything a solver, a tool or a page needs to talk
//! about N-Queens problems, and nothing heavy.
//!
//! - [`Square`], [`Board`] and [`Line`]: queens on an R×C board and the lines they attack along.
//! - [`Problem`]: what to solve — board size, number of queens, fixed (locked) queens — validated
//!   when it is built.
//! - [`notation`]: squares as `d1` or `r1c4`, boards as a text diagram, a permutation line or JSON.
//! - [`symmetry`]: the symmetries of the board and a canonical form.
//! - [`verify`]: an independent validator that every solver's answer goes through.
//! - [`solve`]: the [`Solver`] trait, [`Budget`] stop rules, [`Observer`]s of [`Event`]s, and
//!   the [`Outcome`] of a run.
//!
//! ```
//! use queens_core::{Board, Problem, Square, verify::verify};
//!
//! let problem = Problem::square(4)?.with_fixed(vec!["b1".parse()?])?;
//! assert_eq!(problem.fixed(), &[Square::new(0, 1)]);
//!
//! let board: Board = "1 3 0 2".parse()?; // column by column, the row of each queen
//! assert!(verify(&board).is_solution());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod board;
pub mod error;
pub mod notation;
pub mod problem;
pub mod solve;
pub mod symmetry;
pub mod verify;

pub use board::{Board, Line, QueenList, Queens, Square};
pub use error::{BoardError, ParseError, ProblemError, SolveError};
pub use problem::Problem;
pub use solve::{
    Budget, CancelFlag, Event, Interest, NoObserver, Observer, Outcome, Solver, Stats, StopReason,
    Verdict,
};
