//! The front door every front end of the workbench uses — the command line, the server and
//! Python: which solvers there are, what a valid request is, and what an answer looks like.
//!
//! - [`catalogue`]: every solver of the workbench by name, read from the descriptors beside
//!   each solver's code; the default solver for a problem.
//! - [`request`]: one validated solve request — problem, solver, parameters, caps, memory —
//!   checked once, before anything runs.
//! - [`count`]: one validated whole-board count — engine (a GPU included), device, threads,
//!   memory, shard and the estimate checked once.
//! - [`verify`]: one verify — a board as read, on the size asked for, judged by its own
//!   problem's queen count, fixed and blocked squares.
//! - [`neighbourhood`]: the hill-climbing members' scores of every single-queen move of a
//!   board, and the move they take.
//! - [`document`]: the JSON documents of the contracts (a solver, a solve, a count, the end of
//!   a watched run), one definition each, so that every front end prints the same.
//!
//! Experiments, the Queen's Challenge table and plots are the workbench's, in `queens-lab`.
//!
//! ```
//! use queens_api::{Catalogue, SolveRequest, SolveSpec};
//!
//! let spec = SolveSpec { solver: Some("backtracking".into()), ..SolveSpec::square(8) };
//! let request = SolveRequest::new(Catalogue::standard(), spec)?;
//! let outcome = request.run(&mut request.budget(), &mut queens_core::NoObserver)?;
//! assert!(outcome.solution().is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod catalogue;
pub mod completions;
pub mod count;
pub mod document;
pub mod neighbourhood;
pub mod request;
pub mod verify;

pub use catalogue::{Catalogue, SolverKind};
pub use request::{SolveRequest, SolveSpec};
