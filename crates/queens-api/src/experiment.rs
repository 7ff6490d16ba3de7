//! Experiments as every front end runs them: trials of solvers × sizes × parameter sweeps with
//! reproducible seeds, their rows and reports, the original study's presets, and (feature
//! `plots`) the plots `queens experiment --out` writes. The harness is `queens-lab`'s; this is
//! its door.
//!
//! ```
//! use queens_api::Catalogue;
//! use queens_api::experiment::{Experiment, run};
//!
//! let solvers = vec![Catalogue::standard().get("backtracking")?];
//! let experiment = Experiment::new(solvers, vec![6], 3, 1);
//! let report = run(&experiment, &queens_core::Budget::unlimited(), |_| {})?;
//! assert_eq!(report.rows[0].solved, 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use queens_lab::experiment::{
    DEFAULT_RUNS, Experiment, ExperimentError, MAX_CELLS, MAX_ITERATIONS_SWEEP, MAX_RUNS, Report,
    Row, SweptValue, run, run_seed, sample_curve, to_csv,
};
pub use queens_lab::presets::{PRESETS, Preset, PresetPart, Sweep};

/// The experiment's plots as SVG and PNG.
#[cfg(feature = "plots")]
pub mod plots {
    pub use queens_lab::plots::{PlotError, write_all};
}
