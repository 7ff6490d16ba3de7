//! A record count planned before it runs: its nodes estimated ([`super::estimate`]), the
//! device-hours at a rate, the shards of about an hour each, and the job arrays that run them
//! (Slurm's default `MaxArraySize` of 1,001 allows array indices 0 to 1,000, so a campaign of
//! 100,000 shards is a hundred arrays, each task told its shard by its array's offset).

use serde::Serialize;

use super::CountPlan;
use super::estimate::{NodeEstimate, estimate_nodes};

/// Nodes a second of one GPU running the GPU engine, as measured: an NVIDIA H100 counting
/// N = 21 (1.78·10¹¹, `docs/gpu-h100.md`; N = 20 ran at 2.1·10¹¹, and larger N at about N =
/// 21's rate). A plan takes another rate when given one.
pub const MEASURED_GPU_RATE: f64 = 1.78e11;

/// The most shards a campaign is cut into (the most a `--slurm` count submits).
pub const MAX_SHARDS: u32 = 100_000;

/// The most tasks an array of a campaign has: Slurm's default `MaxArraySize` (1,001) less one.
pub const ARRAY_TASKS: u32 = 1_000;

/// Probes a part the plan's estimate makes.
pub const PROBES: u32 = 64;

/// The hours a shard should take.
const SHARD_HOURS: f64 = 1.0;

/// One job array of a campaign: shards `first` to `first + tasks − 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Array {
    /// The first shard it runs.
    pub first: u32,
    /// Its tasks, one shard each.
    pub tasks: u32,
}

/// A planned count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Campaign {
    /// The board side.
    pub n: u32,
    /// The parts of the split.
    pub parts: usize,
    /// The estimated nodes.
    pub estimate: NodeEstimate,
    /// Nodes a second of one device.
    pub rate: f64,
    /// Device-hours at that rate.
    pub device_hours: f64,
    /// Shards.
    pub shards: u32,
    /// Hours a shard takes on average.
    pub shard_hours: f64,
    /// The most tasks an array has.
    pub array_tasks: u32,
    /// The job arrays, in order.
    pub arrays: Vec<Array>,
}

impl Campaign {
    /// The campaign of `plan` (a backtracking or GPU split) at `rate` nodes a second a device,
    /// in `shards` shards, or in shards of about an hour (at most one a part, at most
    /// [`MAX_SHARDS`]), in arrays of at most `array_tasks` tasks; `None` for the join's split.
    pub fn new(plan: &CountPlan, rate: f64, shards: Option<u32>, array_tasks: u32) -> Option<Self> {
        let array_tasks = array_tasks.max(1);
        let estimate = estimate_nodes(plan, PROBES, u64::from(plan.n()))?;
        let device_hours = estimate.nodes as f64 / rate / 3600.0;
        let most = (plan.len() as u32).min(MAX_SHARDS);
        let shards = shards
            .unwrap_or_else(|| (device_hours / SHARD_HOURS).ceil() as u32)
            .clamp(1, most);
        let arrays = (0..shards)
            .step_by(array_tasks as usize)
            .map(|first| Array {
                first,
                tasks: array_tasks.min(shards - first),
            })
            .collect();
        Some(Campaign {
            n: plan.n(),
            parts: plan.len(),
            estimate,
            rate,
            device_hours,
            shards,
            shard_hours: device_hours / f64::from(shards),
            array_tasks,
            arrays,
        })
    }

    /// Days on `devices` devices.
    pub fn days(&self, devices: u32) -> f64 {
        self.device_hours / 24.0 / f64::from(devices.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::Engine;

    #[test]
    fn arrays_cover_every_shard_once_within_the_array_size() {
        let plan = CountPlan::with_engine(20, Engine::Gpu).unwrap();
        let campaign = Campaign::new(&plan, 1e6, Some(2_345), ARRAY_TASKS).unwrap();
        assert_eq!(campaign.shards, 2_345);
        assert_eq!(
            campaign.arrays,
            [
                Array {
                    first: 0,
                    tasks: 1_000
                },
                Array {
                    first: 1_000,
                    tasks: 1_000
                },
                Array {
                    first: 2_000,
                    tasks: 345
                }
            ]
        );
        // At a million nodes a second N = 20 is over 200 device-hours: shards of an hour,
        // however many the parts allow.
        let hourly = Campaign::new(&plan, 1e6, None, ARRAY_TASKS).unwrap();
        assert_eq!(hourly.shards, hourly.device_hours.ceil() as u32);
        assert!(hourly.shard_hours <= 1.0 && hourly.shard_hours > 0.9);
        // Never more shards than parts.
        let fast = Campaign::new(&plan, 1.0, None, ARRAY_TASKS).unwrap();
        assert_eq!(fast.shards, plan.len() as u32);
    }
}
