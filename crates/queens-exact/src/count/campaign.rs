//! A record count planned before it runs: its nodes estimated ([`super::estimate`]), the
//! device-hours at a rate, the shards of about an hour each, and the job arrays that run them
//! (Slurm's default `MaxArraySize` of 1,001 allows array indices 0 to 1,000, so a campaign of
//! 100,000 shards is a hundred arrays, each task told its shard by its array's offset), and
//! the shards drawn at random to be counted again on other devices.

use rand::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;
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

/// Probes a part the plan's estimate makes, at most: a split of many parts (N = 28's two
/// million) takes fewer a part, at least [`FEWEST_PROBES`], so that a plan makes about
/// [`PROBE_BUDGET`] in all and takes about a second.
pub const PROBES: u32 = 64;

/// Probes a part the plan's estimate makes, at least.
pub const FEWEST_PROBES: u32 = 4;

/// Probes a plan's estimate makes in all, about (N = 28 made 8.1 million with 64 a part over
/// 126,332 parts; its split has 2,107,139 parts since, and takes 8.4 million, four a part: its
/// plan takes 1.4 s on two cores, 1.1 s before).
pub const PROBE_BUDGET: u64 = 8_000_000;

/// Probes a part for a split of `parts` parts.
fn probes_a_part(parts: usize) -> u32 {
    (PROBE_BUDGET / parts.max(1) as u64).clamp(u64::from(FEWEST_PROBES), u64::from(PROBES)) as u32
}

/// `share` of `shards` shards drawn at random (rounded up, so at least one unless `share` is
/// 0), in order. Each shard gets a random key from a generator seeded by N and the shards, and
/// the sample is the shards of the smallest keys. So planning again prints the same sample,
/// with any build on any platform (the generator's values are fixed by its crate, where
/// `rand`'s own may change), and a larger share draws a sample that holds the smaller one's:
/// raising `--recount-share` mid-campaign keeps the recounts already done.
fn recount_sample(n: u32, shards: u32, share: f64) -> Vec<u32> {
    let amount = (share * f64::from(shards))
        .ceil()
        .clamp(0.0, f64::from(shards)) as usize;
    let mut rng =
        SplitMix64::seed_from_u64(RECOUNT_SEED ^ (u64::from(n) << 32) ^ u64::from(shards));
    let mut keyed: Vec<(u64, u32)> = (0..shards).map(|shard| (rng.next_u64(), shard)).collect();
    keyed.sort_unstable();
    let mut sample: Vec<u32> = keyed[..amount].iter().map(|&(_, shard)| shard).collect();
    sample.sort_unstable();
    sample
}

/// The recount sample's seed, before N and the shards are mixed in.
const RECOUNT_SEED: u64 = 0x7265_636f_756e_7473;

/// The hours a shard should take.
const SHARD_HOURS: f64 = 1.0;

/// The most hours Slurm's `--time` gives a task: a time limit is minutes in 32 bits, whose
/// largest value (2³² − 1) means none, so 71,582,788 hours (about 8,166 years).
pub const SLURM_MOST_TASK_HOURS: u64 = (u32::MAX as u64 - 1) / 60;

/// The share of a campaign's shards counted again unless told: one in a hundred, which costs
/// a hundredth of the campaign's device-hours. A device that miscounts a share `s` of the
/// shards goes unseen with a chance of about `(1 − s)` to the power of the shards drawn: for
/// one GPU of 64 counting N = 28 (about 1,500 of its 98,000 shards), about 2·10⁻⁷.
pub const RECOUNT_SHARE: f64 = 0.01;

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
    /// The share of the shards drawn to count again.
    pub recount_share: f64,
    /// The shards drawn to count again on other devices, in order: a share of them at
    /// random (at least one unless the share is 0), the same for the same N and shards.
    pub recount: Vec<u32>,
}

impl Campaign {
    /// The campaign of `plan` (a backtracking or GPU split) at `rate` nodes a second a device,
    /// in `shards` shards, or in shards of about an hour (at most one a part, at most
    /// [`MAX_SHARDS`]), in arrays of at most `array_tasks` tasks, with `recount_share` of the
    /// shards (from 0 to 1; [`RECOUNT_SHARE`] as a rule) drawn to count again; `None` for the
    /// join's split.
    pub fn new(
        plan: &CountPlan,
        rate: f64,
        shards: Option<u32>,
        array_tasks: u32,
        recount_share: f64,
    ) -> Option<Self> {
        let array_tasks = array_tasks.max(1);
        let estimate = estimate_nodes(plan, probes_a_part(plan.len()), u64::from(plan.n()))?;
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
        let recount_share = if recount_share > 0.0 {
            recount_share.min(1.0)
        } else {
            0.0
        };
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
            recount_share,
            recount: recount_sample(plan.n(), shards, recount_share),
        })
    }

    /// Days on `devices` devices.
    pub fn days(&self, devices: u32) -> f64 {
        self.device_hours / 24.0 / f64::from(devices.max(1))
    }

    /// The hours a shard's task is given: twice a shard's average, in whole hours. Shards
    /// are parts taken in turn, so they differ as their parts do; a record count's split has
    /// enough parts a shard that the largest stay within it (N = 28: 1.54 hours at most against
    /// 2, in `shards_of_a_record_count_fit_their_time_limit`).
    pub fn task_hours(&self) -> u64 {
        (2.0 * self.shard_hours).ceil().max(1.0) as u64
    }

    /// Whether a shard's task fits the longest time Slurm gives one
    /// ([`SLURM_MOST_TASK_HOURS`]): not where the rate is so low that a shard would take
    /// thousands of years (or, at a rate near zero, forever).
    pub fn fits_a_task(&self) -> bool {
        (2.0 * self.shard_hours).ceil() <= SLURM_MOST_TASK_HOURS as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::Engine;
    use crate::count::Shard;
    use crate::count::estimate::{part_estimate, part_seed};
    use rayon::prelude::*;

    /// A task that is stopped (preempted, or past its time limit) keeps the parts it finished,
    /// so a shard of a record count must be many parts: N = 28's shards of an hour at the
    /// measured rate hold about twenty each (they held one or two when its split fixed four
    /// rows, and a stopped task kept nothing).
    #[test]
    fn a_record_counts_shards_hold_many_parts() {
        let plan = CountPlan::with_engine(28, Engine::Gpu).unwrap();
        let campaign =
            Campaign::new(&plan, MEASURED_GPU_RATE, None, ARRAY_TASKS, RECOUNT_SHARE).unwrap();
        let fewest = (0..campaign.shards)
            .step_by(997)
            .map(|index| {
                plan.shard_ids(Shard::new(index, campaign.shards).unwrap())
                    .len()
            })
            .min()
            .unwrap();
        assert!(fewest >= 16, "a shard of {fewest} parts");
    }

    /// Every shard of N = 28's campaign within its tasks' time limit, by each part's own
    /// estimate (64 probes a part, as the whole count's; minutes in a release build):
    /// `cargo test --release -p queens-exact --lib shards_of_a_record -- --ignored --nocapture`.
    #[test]
    #[ignore = "minutes: estimates each of N = 28's two million parts"]
    fn shards_of_a_record_count_fit_their_time_limit() {
        let n = 28;
        let plan = CountPlan::with_engine(n, Engine::Gpu).unwrap();
        let campaign =
            Campaign::new(&plan, MEASURED_GPU_RATE, None, ARRAY_TASKS, RECOUNT_SHARE).unwrap();
        let hours: Vec<f64> = plan
            .subproblems()
            .par_iter()
            .enumerate()
            .map(|(id, sub)| {
                let seed = part_seed(u64::from(n), id);
                part_estimate(n, sub, PROBES, seed).0 / MEASURED_GPU_RATE / 3600.0
            })
            .collect();
        let count = campaign.shards as usize;
        let mut shards = vec![0.0; count];
        for (id, part) in hours.iter().enumerate() {
            shards[id % count] += part;
        }
        shards.sort_by(f64::total_cmp);
        let at = |share: f64| shards[((shards.len() - 1) as f64 * share) as usize];
        let largest_part = hours.iter().copied().fold(0.0, f64::max);
        println!(
            "N = {n}: {} parts, {} shards, hours a shard: median {:.2}, 99 % {:.2}, largest \
             {:.2}; the largest part {largest_part:.2}; tasks get {} hours",
            plan.len(),
            campaign.shards,
            at(0.5),
            at(0.99),
            at(1.0),
            campaign.task_hours()
        );
        assert!(at(1.0) < campaign.task_hours() as f64);
    }

    #[test]
    fn arrays_cover_every_shard_once_within_the_array_size() {
        let plan = CountPlan::with_engine(20, Engine::Gpu).unwrap();
        let campaign = Campaign::new(&plan, 1e6, Some(2_345), ARRAY_TASKS, RECOUNT_SHARE).unwrap();
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
        let hourly = Campaign::new(&plan, 1e6, None, ARRAY_TASKS, RECOUNT_SHARE).unwrap();
        assert_eq!(hourly.shards, hourly.device_hours.ceil() as u32);
        assert!(hourly.shard_hours <= 1.0 && hourly.shard_hours > 0.9);
        // Never more shards than parts.
        let fast = Campaign::new(&plan, 1.0, None, ARRAY_TASKS, RECOUNT_SHARE).unwrap();
        assert_eq!(fast.shards, plan.len() as u32);
    }

    /// A task's time fits Slurm's `--time` until the rate makes a shard take thousands of
    /// years; at a rate near zero a shard takes forever, which no task fits.
    #[test]
    fn a_shard_fits_a_task_until_the_rate_is_absurd() {
        let plan = CountPlan::with_engine(20, Engine::Gpu).unwrap();
        let at = |rate| Campaign::new(&plan, rate, Some(1), ARRAY_TASKS, 0.0).unwrap();
        assert!(at(1e3).fits_a_task(), "{:?}", at(1e3).task_hours());
        let hours = |campaign: &Campaign| 2.0 * campaign.shard_hours;
        let limit = SLURM_MOST_TASK_HOURS as f64;
        let edge = at(1.0).estimate.nodes as f64 / 3600.0 * 2.0 / limit;
        assert!(at(edge * 1.01).fits_a_task(), "{}", hours(&at(edge * 1.01)));
        assert!(
            !at(edge / 1.01).fits_a_task(),
            "{}",
            hours(&at(edge / 1.01))
        );
        assert!(!at(1e-308).fits_a_task());
        assert!(at(1e-308).device_hours.is_infinite());
    }

    /// The recount sample: the share asked (rounded up, at least one), distinct shards in
    /// order, spread over the whole campaign, and the same when planned again.
    #[test]
    fn a_recount_draws_a_share_of_the_shards_at_random() {
        let plan = CountPlan::with_engine(20, Engine::Gpu).unwrap();
        let campaign = |shards, share| {
            Campaign::new(&plan, 1e6, Some(shards), ARRAY_TASKS, share)
                .unwrap()
                .recount
        };
        let sample = campaign(20_000, RECOUNT_SHARE);
        assert_eq!(sample.len(), 200);
        assert!(sample.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(sample.iter().all(|&shard| shard < 20_000));
        // Drawn from the whole range, not from its start: a mean of 200 uniform draws from
        // 0..20,000 is 10,000 with a deviation of about 400.
        let mean = sample.iter().map(|&s| f64::from(s)).sum::<f64>() / 200.0;
        assert!((8_000.0..12_000.0).contains(&mean), "{mean}");
        assert_eq!(campaign(20_000, RECOUNT_SHARE), sample);
        assert_ne!(campaign(20_001, RECOUNT_SHARE)[..10], sample[..10]);
        assert_eq!(campaign(7, RECOUNT_SHARE).len(), 1);
        assert!(campaign(7, 0.0).is_empty());
        assert_eq!(campaign(7, 1.0), (0..7).collect::<Vec<_>>());
        assert_eq!(campaign(7, 5.0), (0..7).collect::<Vec<_>>());
        assert!(campaign(7, f64::NAN).is_empty());
        // A larger share keeps the smaller one's shards.
        let larger = campaign(20_000, 0.03);
        assert_eq!(larger.len(), 600);
        assert!(
            sample
                .iter()
                .all(|shard| larger.binary_search(shard).is_ok())
        );
    }

    /// The draw is fixed, not only repeatable within a build: these are the ten smallest keys
    /// of N = 20's plan of 1,000 shards, worked out apart from this crate from the `SplitMix64`
    /// reference definition. A change of generator or of how keys pick shards fails here,
    /// where a re-planned campaign would scatter its recounts.
    #[test]
    fn a_recount_draws_the_same_shards_in_every_build() {
        assert_eq!(
            recount_sample(20, 1_000, 0.01),
            [112, 176, 199, 368, 503, 574, 709, 731, 780, 913]
        );
    }
}
