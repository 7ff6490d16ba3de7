//! The workbench's applications of its solvers: the catalogue of every solver, validated solve
//! requests, experiments, the Queen's Challenge table and plots.
//!
//! - [`catalogue`]: every solver of the workbench by name, read from the descriptors beside
//!   each solver's code; the default solver for a problem.
//! - [`request`]: one validated solve request — problem, solver, parameters, caps, memory —
//!   shared by the command line, the web API and Python.
//! - [`experiment`]: trials over solvers × sizes × parameter sweeps, run in parallel with seeds
//!   derived from one master seed so that every number can be reproduced, summarised as rows
//!   for tables, CSV and JSON; [`experiment::sample_curve`] records one run's score per
//!   iteration. Stopped by its budget, it keeps the rows of the runs that finished.
//! - [`challenge`]: the Queen's Challenge table of node counts per locked square.
//! - [`document`]: the JSON documents of the contracts, shared by the CLI and Python.
//! - [`stats`]: medians, means and spreads.
//! - [`plots`]: the experiment's plots as SVG and PNG.
//!
//! ```
//! use queens_core::Budget;
//! use queens_lab::Catalogue;
//! use queens_lab::experiment::{Experiment, run};
//!
//! let solver = Catalogue::standard().get("optimized-hill-climbing")?;
//! let experiment = Experiment::new(vec![solver], vec![8], 20, 7);
//! let report = run(&experiment, &Budget::unlimited(), |_| {})?;
//! assert_eq!(report.rows[0].runs, 20);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod catalogue;
pub mod challenge;
pub mod document;
pub mod experiment;
pub mod plots;
pub mod request;
pub mod stats;

pub use catalogue::{Catalogue, SolverKind};
pub use request::{SolveRequest, SolveSpec};
