//! The workbench: experiments on the solvers of the catalogue (`queens-solvers`), the Queen's
//! Challenge table, statistics and plots.
//!
//! - [`experiment`]: trials over solvers × sizes × parameter sweeps, run in parallel with seeds
//!   derived from one master seed so that every number can be reproduced, summarised as rows
//!   for tables, CSV and JSON; [`experiment::sample_curve`] records one run's score per
//!   iteration. Stopped by its budget, it keeps the rows of the runs that finished.
//! - [`challenge`]: the Queen's Challenge table of node counts per locked square.
//! - [`presets`]: the original study's experiments, exactly, as the Lab's one-click presets.
//! - [`stats`]: medians, means and spreads.
//! - `plots` (feature `plots`): the experiment's plots as SVG and PNG.
//!
//! ```
//! use queens_solvers::Catalogue;
//! use queens_core::Budget;
//! use queens_lab::experiment::{Experiment, run};
//!
//! let solver = Catalogue::standard().get("optimized-hill-climbing")?;
//! let experiment = Experiment::new(vec![solver], vec![8], 20, 7);
//! let report = run(&experiment, &Budget::unlimited(), |_| {})?;
//! assert_eq!(report.rows[0].runs, 20);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod challenge;
pub mod experiment;
#[cfg(feature = "plots")]
pub mod plots;
pub mod presets;
pub mod stats;
