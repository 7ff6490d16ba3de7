//! A count split into shards, as `queens count --shard`, `queens merge`, `--plan` and `--slurm`
//! handle it: a shard's report, the merge that refuses missing, duplicate and contradicting
//! parts, the recount check, and a record campaign's plan. The counting is `queens-exact`'s;
//! this is its door.
//!
//! ```
//! use queens_api::count::{CountRequest, CountSpec, Shard};
//! use queens_api::shards::{ShardReport, merge};
//!
//! let mut reports = Vec::new();
//! for index in 0..2 {
//!     let shard = Shard::new(index, 2)?;
//!     let request = CountRequest::new(&CountSpec { shard: Some(shard), ..CountSpec::new(8) })?;
//!     let result = request.job().run(&queens_core::Budget::unlimited(), |_, _| {})?;
//!     let report = ShardReport::new(request.job().plan(), shard, result.tally);
//!     reports.push((format!("shard-{index}"), report));
//! }
//! assert_eq!(merge(&reports)?.total, 92);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use queens_exact::count::campaign::{
    ARRAY_TASKS, Campaign, MAX_SHARDS, MEASURED_GPU_RATE, RECOUNT_SHARE,
};
pub use queens_exact::count::shard::{
    MergeError, Merged, ShardReport, check_recounts, merge, report_pattern,
};
