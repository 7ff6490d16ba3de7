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
//! - [`configure`]: one configurator analysis — position, engine and node cap checked once.
//! - [`experiment`], [`challenge`], [`shards`] and [`devices`]: the doors of experiments, the
//!   Queen's Challenge, shards and record campaigns, and the GPUs.
//! - [`bounds`]: the time limit, node cap and threads every request carries, checked once,
//!   and the run's budget made from them.
//! - [`limits`]: every limit and default a front end states, in one table.
//! - [`error`]: why a request is refused — one error for every request, worded by each front
//!   end in its own terms.
//! - [`setting`]: refusals as data — which setting, and what is wrong — worded by each front
//!   end in its own terms.
//! - [`document`]: the JSON documents of the contracts (a solver, a solve, a count, the end of
//!   a watched run), one definition each, so that every front end prints the same.
//!
//! The command line, the server and Python reach the engines through this crate alone.
//!
//! ```
//! use queens_api::{Catalogue, SolveRequest, SolveSpec};
//!
//! let spec = SolveSpec { solver: Some("backtracking".into()), ..SolveSpec::square(8) };
//! let request = SolveRequest::new(Catalogue::standard(), spec)?;
//! let mut budget = request.budget(queens_core::CancelToken::new());
//! let outcome = request.run(&mut budget, &mut queens_core::NoObserver)?;
//! assert!(outcome.solution().is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use queens_solvers as catalogue;
pub mod bounds;
pub mod challenge;
pub mod completions;
pub mod configure;
pub mod count;
pub mod devices;
pub mod document;
pub mod error;
pub mod every;
pub mod experiment;
pub mod limits;
pub mod neighbourhood;
pub mod request;
pub mod setting;
pub mod shards;
pub mod verify;

pub use catalogue::{Catalogue, SolverKind};
pub use error::RequestError;
pub use request::{SolveRequest, SolveSpec};
pub use setting::{Worded, Words};
