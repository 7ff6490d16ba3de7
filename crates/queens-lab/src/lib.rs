//! Experiments on N-Queens solvers.
//!
//! - [`catalogue`]: every solver of the workbench by name, the default for a problem, memory
//!   estimates, and [`Settings`] that tune solvers with parameters.
//! - [`experiment`]: trials over solvers × sizes × parameter sweeps, run in parallel with seeds
//!   derived from one master seed so that every number can be reproduced, summarised as rows
//!   for tables, CSV and JSON; [`experiment::sample_curve`] records one run's score per
//!   iteration.
//! - [`plots`]: the experiment's plots as SVG and PNG.
//!
//! ```
//! use queens_lab::experiment::{Experiment, run};
//!
//! let experiment = Experiment::new(vec!["optimized-hill-climbing".parse()?], vec![8], 20, 7);
//! let rows = run(&experiment, |_| {})?;
//! assert_eq!(rows[0].runs, 20);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod catalogue;
pub mod experiment;
pub mod plots;

pub use catalogue::{Settings, SolverKind};
