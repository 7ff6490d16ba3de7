//! The GPU engine's [`PartCounter`]: a count's parts cut into items, streamed to the device in
//! bounded dispatches, and their tallies summed back into parts.
//!
//! Each dispatch gives every record at most a number of steps, tuned between dispatches so
//! that one takes about [`GpuOptions::dispatch_target`]; records still searching are carried to
//! the next, and the room the finished ones leave is filled with fresh items. Between
//! dispatches the budget is looked at (Ctrl-C, a time limit) and finished parts are reported,
//! so progress, checkpoints and stops work as on the CPU, and no dispatch runs long enough for
//! a display driver's watchdog.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use queens_core::Budget;
use queens_exact::count::{CountPlan, CounterError, PartCounter, Tally};

use crate::devices::{Adapters, DeviceInfo, DeviceType, GpuError, Selection};
use crate::items::{Item, Refined, default_depth, extension_tally, refine};
use crate::kernel::{Kernel, StackMemory};

/// How the GPU engine cuts and runs a count. The defaults suit a large GPU; benchmarks and
/// tests change them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuOptions {
    /// Rows each item fixes; `None`: [`default_depth`] of N.
    pub depth: Option<usize>,
    /// Invocations per workgroup.
    pub workgroup: u32,
    /// Where each invocation keeps its stack.
    pub stack: StackMemory,
    /// Records a dispatch takes at most; `None`: 2¹⁹ on hardware, 2¹² on a software adapter
    /// (both within the device's buffer limits).
    pub records: Option<u32>,
    /// How long a dispatch should take; the steps per record are tuned towards it.
    pub dispatch_target: Duration,
    /// Steps per record in every dispatch, untuned (but at most 8,192 on a software adapter,
    /// whose loops end silently after 65,535 iterations); `None` tunes them. Tests set a huge
    /// number to run each item whole in one long invocation.
    pub fixed_steps: Option<u32>,
    /// How long to wait for one dispatch before calling the device lost.
    pub timeout: Duration,
}

impl Default for GpuOptions {
    fn default() -> Self {
        GpuOptions {
            depth: None,
            workgroup: 64,
            stack: StackMemory::Private,
            records: None,
            dispatch_target: Duration::from_millis(100),
            fixed_steps: None,
            timeout: Duration::from_secs(120),
        }
    }
}

/// The steps per record of the first dispatch, before any is timed.
const FIRST_STEPS: u32 = 1 << 10;
/// Steps per record never tuned below this or above the next.
const FEWEST_STEPS: u32 = 1 << 8;
/// The kernel sums a dispatch's nodes and solutions in one 32-bit word each (at most 33 nodes
/// and 256 solutions a step), so 2²³ steps is also the most it can take.
const MOST_STEPS: u32 = 1 << 23;
/// The most steps per record on a software adapter, whatever asked for. Mesa's llvmpipe (under
/// lavapipe) silently ends any loop after 65,535 iterations, and the kernel's main loop was
/// seen to miscount from about 12,000 steps (N = 15 with long items: 16,000 steps gave
/// 1,982,952 solutions, 17,000 and more 1,689,244, for 2,279,184); 8,192 keeps well clear.
const MOST_SOFTWARE_STEPS: u32 = 1 << 13;

/// A GPU, opened for counting.
pub struct GpuCounter {
    device: wgpu::Device,
    queue: wgpu::Queue,
    info: DeviceInfo,
    options: GpuOptions,
    /// The first error the device reported outside a scope.
    errors: Arc<Mutex<Option<String>>>,
    /// The dispatches of the counts so far.
    dispatches: Mutex<DispatchStats>,
}

/// How a counter's dispatches went: how many, and how long the longest took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DispatchStats {
    /// Dispatches made.
    pub count: u64,
    /// Seconds of the longest, from submission to results read back.
    pub longest: f64,
    /// Seconds of all of them.
    pub total: f64,
}

impl GpuCounter {
    /// Opens the adapter `selection` names, with the device's own limits.
    pub fn open(selection: Selection, options: GpuOptions) -> Result<Self, GpuError> {
        let (adapter, info) = Adapters::probe().choose(selection)?;
        let unusable = |reason: String| GpuError::Unusable {
            device: info.line(),
            reason,
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("queens count"),
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .map_err(|error| unusable(error.to_string()))?;
        let errors = Arc::new(Mutex::new(None));
        let first = Arc::clone(&errors);
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            let mut first = first
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            first.get_or_insert_with(|| error.to_string());
        }));
        let lost = Arc::clone(&errors);
        device.set_device_lost_callback(move |reason, message| {
            let mut first = lost
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            first.get_or_insert_with(|| format!("the device was lost ({reason:?}): {message}"));
        });
        Ok(GpuCounter {
            device,
            queue,
            info,
            options,
            errors,
            dispatches: Mutex::new(DispatchStats::default()),
        })
    }

    /// The dispatches of the counts so far.
    pub fn dispatch_stats(&self) -> DispatchStats {
        *self
            .dispatches
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn record_dispatch(&self, seconds: f64) {
        let mut stats = self
            .dispatches
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        stats.count += 1;
        stats.total += seconds;
        stats.longest = stats.longest.max(seconds);
    }

    /// The adapter counting.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// The options it counts with.
    pub fn options(&self) -> &GpuOptions {
        &self.options
    }

    fn device_error(&self) -> Option<String> {
        self.errors
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    fn kernel(&self, n: u32) -> Result<Kernel, String> {
        let wanted = self.options.records.unwrap_or(match self.info.kind {
            DeviceType::Software => 1 << 12,
            _ => 1 << 19,
        });
        let capacity = Kernel::fit_capacity(n, wanted, &self.device.limits());
        Kernel::new(
            &self.device,
            &self.queue,
            n,
            self.options.workgroup,
            self.options.stack,
            capacity,
            self.options.timeout,
        )
    }
}

/// A part whose items are on their way.
struct Pending {
    id: usize,
    /// The sequence number of its first item.
    first: u64,
    /// Items not yet finished.
    left: u64,
    tally: Tally,
}

/// The parts of one call to [`GpuCounter::count_parts`], as they go through the device.
struct Stream<'a> {
    plan: &'a CountPlan,
    depth: usize,
    next_part: std::slice::Iter<'a, usize>,
    /// Items cut but not yet sent, with their sequence numbers.
    backlog: VecDeque<(u64, Item)>,
    pending: VecDeque<Pending>,
    next_seq: u64,
}

/// Items in flight never span more sequence numbers than this, so that an id (the sequence
/// number's low 32 bits) names one item.
const SEQUENCE_WINDOW: u64 = 1 << 31;

impl Stream<'_> {
    /// Cuts parts into the backlog until it holds `wanted` items or the parts run out; parts
    /// too small for the kernel are counted here, on the CPU.
    fn refill(
        &mut self,
        wanted: usize,
        budget: &Budget,
        done: &(dyn Fn(usize, Tally) + Sync),
    ) -> bool {
        while self.backlog.len() < wanted {
            let oldest = self
                .pending
                .front()
                .map_or(self.next_seq, |part| part.first);
            if self.next_seq - oldest >= SEQUENCE_WINDOW {
                break;
            }
            let Some(&id) = self.next_part.next() else {
                break;
            };
            let sub = &self.plan.subproblems()[id];
            match refine(self.plan.n(), sub, self.depth) {
                Refined::OnCpu => match self.plan.count_one(id, budget) {
                    Some(tally) => done(id, tally),
                    None => return false,
                },
                Refined::Items { items, nodes } if items.is_empty() => {
                    done(id, extension_tally(nodes));
                }
                Refined::Items { items, nodes } => {
                    let first = self.next_seq;
                    self.pending.push_back(Pending {
                        id,
                        first,
                        left: items.len() as u64,
                        tally: extension_tally(nodes),
                    });
                    for mut item in items {
                        item[3] = self.next_seq as u32;
                        self.backlog.push_back((self.next_seq, item));
                        self.next_seq += 1;
                    }
                }
            }
        }
        true
    }

    /// Adds a finished item's tally to its part, reporting the part when it is whole.
    fn finish(&mut self, id: u32, tally: Tally, done: &(dyn Fn(usize, Tally) + Sync)) -> bool {
        let Some(oldest) = self.pending.front().map(|part| part.first) else {
            return false;
        };
        let seq = oldest + u64::from(id.wrapping_sub(oldest as u32));
        let index = self.pending.partition_point(|part| part.first <= seq);
        let Some(part) = index.checked_sub(1).and_then(|i| self.pending.get_mut(i)) else {
            return false;
        };
        if part.left == 0 {
            return false;
        }
        part.tally.total += tally.total;
        part.tally.fixed += tally.fixed;
        part.tally.nodes += tally.nodes;
        part.left -= 1;
        if part.left == 0 {
            done(part.id, part.tally);
        }
        while self.pending.front().is_some_and(|part| part.left == 0) {
            self.pending.pop_front();
        }
        true
    }

    fn is_done(&self) -> bool {
        self.backlog.is_empty() && self.pending.is_empty() && self.next_part.len() == 0
    }
}

impl PartCounter for GpuCounter {
    fn count_parts(
        &self,
        plan: &CountPlan,
        ids: &[usize],
        budget: &Budget,
        done: &(dyn Fn(usize, Tally) + Sync),
    ) -> Result<(), CounterError> {
        let n = plan.n();
        let mut kernel = self.kernel(n).map_err(CounterError)?;
        let capacity = kernel.capacity();
        let mut stream = Stream {
            plan,
            depth: self.options.depth.unwrap_or_else(|| default_depth(n)),
            next_part: ids.iter(),
            backlog: VecDeque::new(),
            pending: VecDeque::new(),
            next_seq: 0,
        };
        let mut carried = 0u32;
        let most_steps = match self.info.kind {
            DeviceType::Software => MOST_SOFTWARE_STEPS,
            _ => MOST_STEPS,
        };
        let mut steps = self
            .options
            .fixed_steps
            .unwrap_or(FIRST_STEPS)
            .min(most_steps);
        let target = self.options.dispatch_target.as_secs_f64();
        loop {
            if budget.is_stopped() {
                return Ok(());
            }
            let room = (capacity - carried) as usize;
            if !stream.refill(room, budget, done) {
                return Ok(());
            }
            let fresh: Vec<Item> = stream
                .backlog
                .drain(..room.min(stream.backlog.len()))
                .map(|(_, item)| item)
                .collect();
            if carried == 0 && fresh.is_empty() {
                if stream.is_done() {
                    return Ok(());
                }
                return Err(CounterError(
                    "the GPU engine lost track of some items".to_owned(),
                ));
            }
            let started = Instant::now();
            let dispatched = kernel
                .dispatch(carried, &fresh, steps)
                .map_err(CounterError)?;
            if let Some(error) = self.device_error() {
                return Err(CounterError(error));
            }
            let took = started.elapsed().as_secs_f64();
            self.record_dispatch(took);
            for (id, tally) in dispatched.finished {
                if !stream.finish(id, tally, done) {
                    return Err(CounterError(format!(
                        "the device returned an item ({id}) that was not sent"
                    )));
                }
            }
            carried = dispatched.carried;
            if self.options.fixed_steps.is_none() {
                steps = tuned(steps, took, target).min(most_steps);
            }
        }
    }

    fn describe(&self) -> String {
        format!(
            "{} ({}, {})",
            self.info.name,
            self.info.kind.name(),
            self.info.backend
        )
    }
}

/// The next dispatch's steps per record, from the last's time: towards the target, growing at
/// most fourfold and shrinking at most eightfold a time.
fn tuned(steps: u32, took: f64, target: f64) -> u32 {
    let factor = (target / took.max(1e-6)).clamp(0.125, 4.0);
    (f64::from(steps) * factor).clamp(f64::from(FEWEST_STEPS), f64::from(MOST_STEPS)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_move_towards_the_target_within_bounds() {
        assert_eq!(tuned(1000, 0.05, 0.1), 2000);
        assert_eq!(tuned(1000, 10.0, 0.1), 256);
        assert_eq!(tuned(1 << 27, 0.0, 0.1), MOST_STEPS);
        assert_eq!(tuned(4096, 1.0, 0.1), 512);
    }
}
