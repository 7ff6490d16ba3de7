//! The vocabulary of the `queens` workbench: everything a solver, a tool or a page needs to talk
//! about N-Queens problems, and nothing heavy.
//!
//! - [`Square`], [`Board`] and [`Line`]: queens on an R×C board and the lines they attack along.
//! - [`Problem`]: what to solve — board size, number of queens, fixed (locked) queens, blocked
//!   squares — validated when it is built.
//! - [`notation`]: squares as `d1` or `r1c4`, boards as a text diagram, a permutation line or JSON.
//! - [`symmetry`]: the symmetries of the board and a canonical form.
//! - [`verify`]: an independent validator that every solver's answer goes through.
//! - [`read`]: a board from a stream in any format, a permutation of any length as a stream.
//! - [`random`]: the seeded generator every randomized part draws from, the same values on
//!   every platform.
//! - [`solver`]: what a solver is, the [`Solver`] that searches and its [`SolverDescriptor`];
//!   [`descriptor`]: the shapes, counters and pseudo-code a descriptor is built from.
//! - [`parameters`](mod@parameters): each solver's tunable parameters, declared once by [`parameters!`].
//! - [`solve`]: the executor [`run`](solve::run), which checks, times and validates a run;
//!   [`outcome`]: the [`Outcome`] it returns.
//! - [`budget`]: the one stop rule, a [`Budget`] of nodes, iterations and time with a
//!   [`CancelToken`].
//! - [`observe`]: [`Observer`]s of a run's [`Event`]s, sampled so that nobody pays for
//!   events nobody wants.
//! - [`instance`]: n-Queens Completion instances (CSPLib 079 and 080, JSON) read into a
//!   [`Problem`] with fixed queens and blocked squares; [`json`]: JSON documents refused in
//!   JSON's words, naming the field.
//! - [`memory`]: how much memory a run may still take (machine, cgroup, `ulimit -v`);
//!   [`parallel`]: work split over threads that still gets done where no thread starts;
//!   [`pool`]: the worker threads a process shares, sized by `RAYON_NUM_THREADS` within limits.
//! - [`huge`]: arrays for billions of queens, in huge pages where the system grants them;
//!   [`buckets`]: a counting sort that puts their marks in memory order.
//! - [`side`]: the board sides a computation takes, and its one refusal of a larger side.
//! - [`words`]: nouns that agree with their counts in every message; [`figures`]: times and
//!   rates in JSON rounded to what they mean.
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
pub mod buckets;
pub mod budget;
pub mod descriptor;
pub mod error;
pub mod figures;
pub mod huge;
pub mod instance;
pub mod json;
pub mod memory;
pub mod notation;
pub mod observe;
pub mod outcome;
pub mod parallel;
pub mod parameters;
pub mod pool;
pub mod problem;
pub mod random;
pub mod read;
pub mod side;
pub mod solve;
pub mod solver;
pub mod square;
pub mod symmetry;
pub mod verify;
pub mod words;

pub use board::{Board, QueenList, Queens};
pub use budget::{Budget, CancelToken, StopReason};
pub use descriptor::{CodeLine, line};
pub use error::{BoardError, ParamError, ParseError, ProblemError, SolveError};
pub use observe::{Event, Interest, NoObserver, Observer, StepNote};
pub use outcome::{Outcome, Stats, Verdict};
pub use parameters::{ParamValue, ParamValues, Parameter, Parameters};
pub use problem::Problem;
pub use solver::{Context, Solver, SolverDescriptor};
pub use square::{Line, Square};
