//! Every limit and default a front end states, in one table: the command line's help, the
//! server's `GET /api/solvers`, Python's docstrings and the page read them from here, and each
//! value is the constant of the engine that enforces it, so that no front end writes a copy.
//!
//! ```
//! use queens_api::limits::{DEFAULTS, LIMITS};
//!
//! assert_eq!(LIMITS.count_max_n, 32);
//! assert_eq!(DEFAULTS.seed, 1);
//! ```

use serde::Serialize;

/// The largest sizes and amounts each operation takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// The largest N of a whole count (`queens count N`).
    pub count_max_n: u32,
    /// The largest N of a position's completions (a count or a solve with fixed or blocked
    /// squares).
    pub completion_max_n: u32,
    /// The largest side the configurator analyses.
    pub configure_max_n: u32,
    /// The largest side the configurator's diagram of all solutions (its `bdd` engine) is
    /// built for.
    pub diagram_max_n: u32,
    /// The largest side of a Queen's Challenge table.
    pub challenge_max_n: u32,
    /// The largest side whose single-queen moves are scored (`/api/neighbourhood`).
    pub neighbourhood_max_n: u32,
    /// The most worker threads a count or completions run on.
    pub max_threads: usize,
    /// The most runs one experiment plans.
    pub experiment_max_runs: u64,
    /// The most rows (solvers × sizes × parameter combinations) one experiment plans.
    pub experiment_max_cells: u64,
    /// The largest board file or text read whole, in bytes (a permutation streams, of any
    /// length).
    pub text_max_bytes: u64,
    /// The most shards a count is split into.
    pub max_shards: u32,
    /// The most tasks of one Slurm job array.
    pub array_tasks: u32,
    /// The largest N the quadrant join counts.
    pub join_max_n: u32,
    /// The attacking pairs a check lists by default (their count is always whole).
    pub shown_conflicts: usize,
}

/// What a request gets for what it leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Defaults {
    /// The seed of a randomized solver or an experiment.
    pub seed: u64,
    /// The longest estimate, in seconds, that a count starts without asking.
    pub max_estimate_seconds: f64,
    /// The most memory, in bytes, a count plans to use.
    pub count_memory_bytes: u64,
    /// The smallest N that `--engine auto` counts on a hardware GPU.
    pub gpu_from: u32,
    /// The configurator's node cap.
    pub configure_max_nodes: u64,
    /// The largest side whose diagram of all solutions the configurator's `auto` engine
    /// builds when it is not built yet.
    pub configure_auto_diagram_max_n: u32,
    /// The node cap of a solve that gives none (the completion search has none: it decides
    /// positions).
    pub solve_max_nodes: u64,
    /// The smallest N that `--engine auto` counts by the quadrant join, where it fits.
    pub join_from: u32,
    /// Seconds between a count's checkpoint saves.
    pub checkpoint_every_seconds: f64,
    /// Nodes a second of one GPU that a count's plan assumes (measured on an H100).
    pub gpu_nodes_per_second: f64,
    /// Runs of each cell of an experiment.
    pub experiment_runs: u64,
    /// The board side of an experiment or a challenge table that names none.
    pub side: u32,
}

/// The limits, each the enforcing engine's own constant.
pub const LIMITS: Limits = Limits {
    count_max_n: queens_exact::count::MAX_N,
    completion_max_n: queens_exact::completion::MAX_N,
    configure_max_n: queens_configurator::MAX_N,
    diagram_max_n: queens_configurator::MAX_DIAGRAM_N,
    challenge_max_n: queens_lab::challenge::MAX_N,
    neighbourhood_max_n: crate::neighbourhood::MAX_N,
    max_threads: queens_exact::count::MAX_THREADS,
    experiment_max_runs: queens_lab::experiment::MAX_RUNS,
    experiment_max_cells: queens_lab::experiment::MAX_CELLS,
    text_max_bytes: queens_core::read::MAX_TEXT_BYTES,
    max_shards: queens_exact::count::campaign::MAX_SHARDS,
    array_tasks: queens_exact::count::campaign::ARRAY_TASKS,
    join_max_n: queens_exact::count::join::MAX_N,
    shown_conflicts: queens_core::read::SHOWN_CONFLICTS,
};

/// The defaults, each the constant its request reads.
pub const DEFAULTS: Defaults = Defaults {
    seed: crate::request::DEFAULT_SEED,
    max_estimate_seconds: crate::count::DEFAULT_MAX_ESTIMATE,
    count_memory_bytes: queens_exact::count::DEFAULT_MEMORY_LIMIT,
    gpu_from: crate::count::GPU_FROM,
    configure_max_nodes: queens_configurator::DEFAULT_NODES,
    configure_auto_diagram_max_n: queens_configurator::AUTO_BUILD_MAX,
    solve_max_nodes: crate::request::DEFAULT_MAX_NODES,
    join_from: queens_exact::count::JOIN_FROM,
    checkpoint_every_seconds: queens_exact::count::CHECKPOINT_EVERY.as_secs_f64(),
    gpu_nodes_per_second: queens_exact::count::campaign::MEASURED_GPU_RATE,
    experiment_runs: crate::experiment::DEFAULT_RUNS,
    side: crate::request::DEFAULT_SIDE,
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The table says what the engines do: a size one past each limit is refused.
    #[test]
    fn each_size_limit_is_where_its_engine_refuses() {
        use crate::configure::{ConfigureRequest, ConfigureSpec};
        use crate::count::{CountRequest, CountSpec, EngineChoice};

        let count = |n| {
            CountRequest::without_device(&CountSpec {
                engine: EngineChoice::Named(queens_exact::count::Engine::Backtracking),
                max_estimate: Some(f64::INFINITY),
                ..CountSpec::new(n)
            })
        };
        assert!(count(LIMITS.count_max_n).is_ok());
        assert!(count(LIMITS.count_max_n + 1).is_err());
        let configure = |n| ConfigureRequest::new(&ConfigureSpec::new(n));
        assert!(configure(LIMITS.configure_max_n).is_ok());
        assert!(configure(LIMITS.configure_max_n + 1).is_err());
        let challenge = |n| queens_lab::challenge::Challenge {
            n,
            solvers: crate::Catalogue::standard().tree_searches(),
            max_nodes: None,
        };
        assert!(challenge(LIMITS.challenge_max_n).check().is_ok());
        assert!(challenge(LIMITS.challenge_max_n + 1).check().is_err());
    }

    #[test]
    fn the_table_serializes_with_every_field_named() {
        let limits = serde_json::to_value(LIMITS).unwrap();
        assert_eq!(limits["configure_max_n"], LIMITS.configure_max_n);
        let defaults = serde_json::to_value(DEFAULTS).unwrap();
        assert_eq!(defaults["seed"], 1);
    }
}
