//! One validated whole-board count, as `queens count N`, `GET /api/count` and Python's `count`
//! ask for it: the engine chosen once (auto, the join, backtracking, or a GPU), the device
//! opened, the threads, memory, shard and the estimate checked before anything runs, so that
//! every front end refuses the same requests with the same sentence.
//!
//! ```
//! use queens_api::count::{CountRequest, CountSpec};
//!
//! let request = CountRequest::new(&CountSpec::new(8))?;
//! let result = request.job().run(&queens_core::Budget::unlimited(), |_, _| {})?;
//! assert_eq!(result.tally.unique(), 12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::str::FromStr;
use std::sync::Arc;

use queens_core::words::counted;
pub use queens_exact::count::{
    CHECKPOINT_EVERY, CountError, CountJob, CountPlan, CountResult, CountRunError,
    DEFAULT_MEMORY_LIMIT, Engine, MAX_THREADS, OnSaveFailure, SIDES, Shard, Tally,
};
use queens_gpu::{Adapters, DeviceId, DeviceInfo, GpuCounter, GpuOptions, Reason, Selection};

use crate::bounds::{Bounds, CheckedBounds};
use crate::document::counted_on;
use crate::error::RequestError;
use crate::setting::{Refusal, Setting, SettingError};

/// A count is refused when its estimate is longer than this unless asked: an hour.
pub const DEFAULT_MAX_ESTIMATE: f64 = 3600.0;

/// The smallest N for which `auto` counts on a hardware GPU when there is one. The published
/// single-GPU counters take a few seconds at N = 20 where the CPU's join takes minutes, while
/// below N = 18 a count is over in well under a second on the CPU, less than opening a GPU
/// costs. An estimate from those figures, not a measurement of this engine.
pub const GPU_FROM: u32 = 18;

/// Which engine a count asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EngineChoice {
    /// The join where it is faster and fits the memory limit, else backtracking; a hardware
    /// GPU from N = [`GPU_FROM`] for a whole count (never for a shard, whose engine must not
    /// depend on the machine it runs on), looked for only without an address-space limit
    /// (`ulimit -v`), under which a driver's mappings would not fit.
    #[default]
    Auto,
    /// One engine, named.
    Named(Engine),
}

impl FromStr for EngineChoice {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "auto" => Ok(EngineChoice::Auto),
            name => name
                .parse::<Engine>()
                .map(EngineChoice::Named)
                .map_err(|_| {
                    format!(
                        "unknown counting engine '{}': use auto, backtracking, join or gpu",
                        queens_core::error::excerpt(name)
                    )
                }),
        }
    }
}

/// What a count asks for, before it is checked.
#[derive(Clone, Debug, PartialEq)]
pub struct CountSpec {
    /// Board side.
    pub n: u32,
    /// The engine.
    pub engine: EngineChoice,
    /// The GPU, by its index or PCI address in `queens devices`; only with the GPU engine.
    pub device: Option<DeviceId>,
    /// The time limit and the worker threads (default: one per core); a count has no node cap.
    pub bounds: Bounds,
    /// The most memory the count may plan to use; `None`: [`DEFAULT_MEMORY_LIMIT`].
    pub memory_limit: Option<u64>,
    /// One shard of the count.
    pub shard: Option<Shard>,
    /// The longest estimate, in seconds, that starts without asking; `None`:
    /// [`DEFAULT_MAX_ESTIMATE`].
    pub max_estimate: Option<f64>,
}

impl CountSpec {
    /// The whole N×N count with every default.
    pub fn new(n: u32) -> Self {
        CountSpec {
            n,
            engine: EngineChoice::Auto,
            device: None,
            bounds: Bounds::default(),
            memory_limit: None,
            shard: None,
            max_estimate: None,
        }
    }
}

/// A checked count, ready to run: its job (add a checkpoint as needed) and the GPU it counts
/// on, if any.
#[derive(Debug)]
pub struct CountRequest {
    job: CountJob,
    bounds: CheckedBounds,
    device: Option<(DeviceInfo, Reason)>,
}

impl CountRequest {
    /// Checks `spec` and opens its GPU, if any.
    pub fn new(spec: &CountSpec) -> Result<Self, RequestError> {
        let (mut job, bounds) = Self::checked(spec)?;
        let mut device = None;
        if job.plan().engine() == Engine::Gpu {
            let selection = spec.device.map_or(Selection::Default, Selection::from);
            let counter = GpuCounter::open(selection, GpuOptions::default())?;
            device = Some((counter.info().clone(), counter.reason().clone()));
            job = job.with_counter(Arc::new(counter));
        }
        let place = place_of_count(
            device.as_ref().map(|(info, _)| info),
            job.threads(),
            job.plan().engine(),
        );
        Ok(CountRequest {
            job: job.with_place(place),
            bounds,
            device,
        })
    }

    /// Checks `spec` without opening its GPU: the job a cluster's tasks will run elsewhere.
    pub fn without_device(spec: &CountSpec) -> Result<CountJob, RequestError> {
        Ok(Self::checked(spec)?.0)
    }

    /// Checks `spec`: its job, without the GPU opened, and its bounds.
    fn checked(spec: &CountSpec) -> Result<(CountJob, CheckedBounds), RequestError> {
        let n = spec.n;
        let bounds = spec
            .bounds
            .check()?
            .without(Setting::MaxNodes, "for solves and analyses, not counts")?;
        let memory_limit = spec.memory_limit.unwrap_or(DEFAULT_MEMORY_LIMIT);
        let max_estimate = check_max_estimate(spec.max_estimate.unwrap_or(DEFAULT_MAX_ESTIMATE))?;
        CountPlan::with_engine(n, Engine::Backtracking)?;
        let engine = match spec.engine {
            EngineChoice::Named(engine) => engine,
            EngineChoice::Auto
                if spec.shard.is_none()
                    && spec.device.is_none()
                    && n >= GPU_FROM
                    && queens_core::memory::address_space_limit().is_none()
                    && Adapters::hardware_present() =>
            {
                Engine::Gpu
            }
            EngineChoice::Auto if spec.device.is_some() => Engine::Gpu,
            EngineChoice::Auto => Engine::for_count(n, memory_limit),
        };
        if spec.device.is_some() && engine != Engine::Gpu {
            return Err(SettingError::new(
                Setting::Device,
                Refusal::OnlyWith(format!("for the gpu engine, not {engine}")),
            )
            .into());
        }
        let plan = CountPlan::with_engine(n, engine)?;
        let mut job = CountJob::new(plan).with_memory_limit(memory_limit);
        if let Some(threads) = bounds.threads() {
            job = job.with_threads(threads)?;
        }
        if let Some(shard) = spec.shard {
            job = job.with_shard(shard);
        }
        let estimate = estimated_seconds(&job);
        if estimate > max_estimate {
            let on = if engine == Engine::Gpu {
                "one GPU".to_owned()
            } else {
                counted(job.threads(), "thread", "threads")
            };
            return Err(RequestError::TooLong(format!(
                "counting N = {n}{} would take about {} on {on} by the {engine} engine's measured \
                 growth, longer than the most to start unasked ({})",
                spec.shard
                    .map(|shard| format!(" (shard {shard})"))
                    .unwrap_or_default(),
                about(estimate),
                about(max_estimate),
            )));
        }
        Ok((job, bounds))
    }

    /// The job to run.
    pub fn job(&self) -> &CountJob {
        &self.job
    }

    /// The job, to add a checkpoint or run it.
    pub fn into_job(self) -> CountJob {
        self.job
    }

    /// The GPU it counts on, if any.
    pub fn device(&self) -> Option<&DeviceInfo> {
        self.device.as_ref().map(|(info, _)| info)
    }

    /// What the count says as a warning before it starts: that a job scheduler's assignment of
    /// a GPU could not be followed, and the GPU it counts on instead (see [`Reason::warning`]).
    pub fn device_warning(&self) -> Option<String> {
        let (info, reason) = self.device.as_ref()?;
        reason.warning(info)
    }

    /// The count's bounds, to make its budget ([`CheckedBounds::budget`]).
    pub fn bounds(&self) -> &CheckedBounds {
        &self.bounds
    }
}

/// Where a count ran, as a shard's report says it (`ShardReport::counted_on`): this machine's
/// name (Slurm's for its node in a task, else the kernel's, where known), what it ran on
/// ([`counted_on`]) and the engine: "gpu-node17, NVIDIA H100 80GB HBM3 at 0000:3b:00.0 (gpu
/// engine)".
fn place_of_count(device: Option<&DeviceInfo>, threads: usize, engine: Engine) -> String {
    let host = std::env::var("SLURMD_NODENAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/proc/sys/kernel/hostname").ok())
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty());
    format!(
        "{}{} ({engine} engine)",
        host.map_or_else(String::new, |host| format!("{host}, ")),
        counted_on(device, threads)
    )
}

/// `seconds` as the longest estimate a count starts unasked: positive (infinity for no bound).
pub fn check_max_estimate(seconds: f64) -> Result<f64, SettingError> {
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(SettingError::new(
            Setting::MaxEstimate,
            Refusal::NotPositiveSeconds { got: seconds },
        ));
    }
    Ok(seconds)
}

/// About how long `job` takes, in seconds: the engine's measured growth over its threads (or
/// one GPU) and its share of the shards.
pub fn estimated_seconds(job: &CountJob) -> f64 {
    let plan = job.plan();
    let share = f64::from(job.shard().count);
    let workers = if plan.engine() == Engine::Gpu {
        1.0
    } else {
        job.threads() as f64
    };
    plan.engine().estimated_core_seconds(plan.n()) / workers / share
}

/// A duration in words, rounded to what an estimate is good for: "40 s", "12 min", "3.5 h",
/// "9 days", "1.2 years".
pub fn about(seconds: f64) -> String {
    const MINUTE: f64 = 60.0;
    const HOUR: f64 = 3600.0;
    const DAY: f64 = 86_400.0;
    const YEAR: f64 = 365.25 * DAY;
    if seconds < MINUTE {
        format!("{seconds:.0} s")
    } else if seconds < HOUR {
        format!("{:.0} min", seconds / MINUTE)
    } else if seconds < DAY {
        format!("{:.1} h", seconds / HOUR)
    } else if seconds < YEAR {
        format!("{:.0} days", seconds / DAY)
    } else {
        format!("{:.1} years", seconds / YEAR)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setting::{Worded, Words};

    #[test]
    fn engines_parse_by_name() {
        assert_eq!("auto".parse(), Ok(EngineChoice::Auto));
        assert_eq!("gpu".parse(), Ok(EngineChoice::Named(Engine::Gpu)));
        assert!("cuda".parse::<EngineChoice>().unwrap_err().contains("gpu"));
    }

    #[test]
    fn a_count_longer_than_the_limit_is_refused_with_the_way_to_start_it() {
        let error = CountRequest::new(&CountSpec {
            bounds: Bounds::default().with_threads(2),
            ..CountSpec::new(30)
        })
        .unwrap_err();
        assert!(
            error
                .worded(Words::CommandLine)
                .contains("raise it (--max-estimate SECONDS)"),
            "{error}"
        );
        let error = error.to_string();
        assert!(
            error.contains("counting N = 30 would take about"),
            "{error}"
        );
        assert!(error.contains("raise the longest estimate"), "{error}");
        let asked = CountRequest::new(&CountSpec {
            bounds: Bounds::default().with_threads(2),
            max_estimate: Some(f64::INFINITY),
            ..CountSpec::new(30)
        });
        assert!(asked.is_ok());
    }

    #[test]
    fn a_limit_that_is_not_a_positive_number_is_refused() {
        for bad in [f64::NAN, 0.0, -1.0] {
            let error = CountRequest::new(&CountSpec {
                max_estimate: Some(bad),
                ..CountSpec::new(8)
            })
            .unwrap_err();
            assert!(error.to_string().contains("positive"), "{error}");
        }
    }

    #[test]
    fn a_device_goes_with_the_gpu_engine_only() {
        let error = CountRequest::new(&CountSpec {
            engine: EngineChoice::Named(Engine::Join),
            device: Some(DeviceId::Index(0)),
            ..CountSpec::new(16)
        })
        .unwrap_err();
        assert!(error.to_string().contains("gpu engine"), "{error}");
        assert_eq!(
            error.worded(Words::CommandLine),
            "--device is for the gpu engine, not join"
        );
    }
}
