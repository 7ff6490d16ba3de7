//! The GPU engine's [`PartCounter`]: a count's parts cut into items, streamed to the device in
//! bounded dispatches, and their tallies summed back into parts.
//!
//! Each dispatch runs a fixed number of persistent invocations that take records in turn from
//! a queue (the records carried from the last dispatch, then fresh items) and share a budget
//! of steps, tuned between dispatches so that one takes about
//! [`GpuOptions::dispatch_target`]; records still searching are carried to the next, and fresh
//! items no invocation reached stay queued on the device. While a dispatch runs, the host sums
//! the last one's tallies, reports the parts they finish and queues items for the next, so the
//! device waits between dispatches only for the launch. Between dispatches the budget is looked
//! at (Ctrl-C, a time limit), so progress, checkpoints and stops work as on the CPU, and no
//! dispatch runs long enough for a display driver's watchdog.
//!
//! A call runs the kernel in up to two forms ([`Rules`]): the parts whose items are settled
//! (their fixed rows hold every row a case's early rules speak of, [`crate::items::settled`])
//! stream first through the form that applies the side columns' deadline alone, then the
//! others through the form with every rule, which is cut and built on a thread of its own while
//! the device counts the first. Each form has its own cut and tail; the call's
//! [`DispatchStats`] sum both.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use queens_exact::count::{CountPlan, CounterError, PartCounter, PartsToCount, Subproblem};

use crate::devices::{Adapters, DeviceInfo, DeviceType, GpuError, Reason, Selection};
use crate::items::{Cut, cut, default_depth, item_rows, on_cpu};
use crate::kernel::{Kernel, Residency, Shape};
use crate::stacks::{Placement, StackMemory, TopFrame, fit_workgroup, frames};
use crate::stream::Stream;
use crate::trial::{Outcome, Trial};
use crate::wgsl::Rules;

/// How the GPU engine cuts and runs a count. The defaults suit a large GPU; benchmarks and
/// tests change them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuOptions {
    /// Rows each item fixes, exactly; `None`: from [`default_depth`] of N, as many more as
    /// give every invocation several items, and one more for the last parts (see
    /// [`crate::items::cut`]).
    pub depth: Option<usize>,
    /// Invocations per workgroup; `None`: as many as the device's workgroup memory holds the
    /// stacks of (at most 256, in whole warps of 32), or 256 for stacks in a storage buffer. In
    /// a trial of both memories, no more than each holds.
    pub workgroup: Option<u32>,
    /// Where the invocations' stacks are; `None` (the default): the kernel is built both ways,
    /// each timed over [`GpuOptions::trial_rounds`] of a count's first full-length dispatches,
    /// and the faster kept (see [`crate::trial`]); workgroup memory where there is no trial.
    pub stack: Option<StackMemory>,
    /// Dispatches each placement of the stacks runs before the faster is kept, where
    /// [`GpuOptions::stack`] is `None`; `u32::MAX` takes turns through the whole count.
    /// `None`: three on a GPU, none on a software adapter, which has no multiprocessor whose
    /// memory bounds the invocations it holds, so that its stacks stay in workgroup memory
    /// (lavapipe: below).
    pub trial_rounds: Option<u32>,
    /// Invocations a dispatch runs, each taking items in turn and carrying at most one to the
    /// next dispatch; `None`: 2¹⁷ on hardware, 2¹² on a software adapter (both within the
    /// device's buffer limits). A dispatch's queue takes eight times as many fresh items.
    pub invocations: Option<u32>,
    /// How long a dispatch should take; the steps per invocation are tuned towards it.
    pub dispatch_target: Duration,
    /// Steps per invocation in every dispatch, untuned (but at most 8,192 on a software
    /// adapter, whose loops end silently after 65,535 iterations); `None` tunes them. Tests set
    /// a huge number to run each item whole in one long invocation.
    pub fixed_steps: Option<u32>,
    /// Keep wgpu's runtime checks (clamped indices, loop guards) in the kernel; without them
    /// it relies on the bounds its source proves.
    pub checked: bool,
    /// Where the kernel's loop reads a step's frame: from the stack, or from registers with the
    /// frame below loaded ahead; `None` (the default): both, timed against each other in the
    /// trial with the stacks' placements where one runs, else from the stack.
    pub top_frame: Option<TopFrame>,
    /// How long to wait for one dispatch before calling the device lost.
    pub timeout: Duration,
}

impl Default for GpuOptions {
    fn default() -> Self {
        GpuOptions {
            depth: None,
            workgroup: None,
            stack: None,
            trial_rounds: None,
            invocations: None,
            dispatch_target: Duration::from_millis(100),
            fixed_steps: None,
            checked: false,
            top_frame: None,
            timeout: Duration::from_secs(120),
        }
    }
}

/// The steps per invocation of the first dispatch, before any is timed.
const FIRST_STEPS: u32 = 1 << 10;
/// Steps per invocation never tuned below this or above the next.
const FEWEST_STEPS: u32 = 1 << 8;
/// The kernel counts an invocation's steps and an item's solutions of one dispatch in one
/// 32-bit word each (a loop trip is at most 5 nodes and a weight of 16), so 2²² steps keeps
/// well within them.
const MOST_STEPS: u32 = 1 << 22;
/// The most steps per invocation on a software adapter, whatever asked for. Mesa's llvmpipe
/// (under lavapipe) silently ends any loop after 65,535 iterations, and a kernel's main loop
/// was seen to miscount from about 12,000 steps (N = 15 with long items: 16,000 steps gave
/// 1,982,952 solutions, 17,000 and more 1,689,244, for 2,279,184); 8,192 keeps well clear.
/// Its limit counts the iterations of every loop, so the kernel pays steps for the rows it
/// replays in taking an item as well: thousands of small items in one invocation had lost
/// some.
const MOST_SOFTWARE_STEPS: u32 = 1 << 13;
/// Dispatches each placement of the stacks runs in a count's trial on a GPU: the median of three
/// outweighs one dispatch slowed by the host or a neighbour, and the trial takes under a second
/// at the dispatches' target length. On lavapipe (N = 15) the trial kept workgroup memory in
/// every count on a quiet machine (5.2 to 7.1·10⁷ steps a second against 4.7 to 5.3·10⁷ for a
/// storage buffer) at about 5 % of the count, so a software adapter runs none.
const TRIAL_ROUNDS: u32 = 3;
/// Fresh items a dispatch's queue holds, for each invocation.
const FRESH_PER_INVOCATION: u32 = 8;

/// A GPU, opened for counting.
pub struct GpuCounter {
    device: wgpu::Device,
    queue: wgpu::Queue,
    info: DeviceInfo,
    reason: Reason,
    options: GpuOptions,
    /// The first error the device reported outside a scope.
    errors: Arc<Mutex<Option<String>>>,
    /// The dispatches of the counts so far.
    dispatches: Mutex<DispatchStats>,
}

/// How a counter's dispatches went: how many, how long the longest took, and how the parts
/// were cut.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DispatchStats {
    /// Items cut from the parts and sent.
    pub items: u64,
    /// The cut of the last call: the rows its items fix, and from which part a row more.
    pub cut: Option<Cut>,
    /// Dispatches made.
    pub count: u64,
    /// Seconds of the longest, from submission to results read back.
    pub longest: f64,
    /// Seconds of all of them.
    pub total: f64,
    /// Seconds the device had nothing submitted between two dispatches: from one's results
    /// read to the next's submission. The host sums tallies and cuts items while a dispatch
    /// runs, so only the launch is left here.
    pub idle: f64,
    /// Seconds from a call's start to its first dispatch: the cut, the kernel built, the
    /// first items queued.
    pub start_up: f64,
    /// Where the last call's stacks were as its last dispatch ran.
    pub placement: Option<Placement>,
    /// The first trial of the last call to choose a placement of the stacks (each kernel of a
    /// call runs its own): none where the options fix the placement or the call ended first.
    pub trial: Option<Outcome>,
    /// For each placement the last call's dispatches ran in, the most of its workgroups the
    /// device ran at once, over those dispatches.
    pub residency: Vec<(Placement, Residency)>,
}

impl GpuCounter {
    /// Opens the adapter `selection` names, with the device's own limits.
    pub fn open(selection: Selection, options: GpuOptions) -> Result<Self, GpuError> {
        let (adapter, info, reason) = Adapters::probe().choose(selection)?;
        // A driver that runs on the CPU (lavapipe) starts threads of its own, and where the
        // system refuses them says only that its device was lost: the limit is named.
        let unusable = |reason: String| GpuError::Unusable {
            device: info.line(),
            reason: if queens_core::parallel::threads_that_start(1) == 0 {
                format!(
                    "{reason}, where {} and the driver starts threads of its own",
                    queens_core::parallel::THREAD_LIMIT_REACHED
                )
            } else {
                reason
            },
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
            let said = if message.is_empty() {
                String::new()
            } else {
                format!(": {message}")
            };
            first.get_or_insert_with(|| format!("the device was lost ({reason:?}){said}"));
        });
        Ok(GpuCounter {
            device,
            queue,
            info,
            reason,
            options,
            errors,
            dispatches: Mutex::new(DispatchStats::default()),
        })
    }

    /// The dispatches of the counts so far.
    pub fn dispatch_stats(&self) -> DispatchStats {
        self.dispatches
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Adds a call's cut (its first kernel's), its items, the seconds its device waited
    /// between dispatches, and those to its first dispatch.
    fn record_count(&self, cut: Option<Cut>, run: Ran) {
        let mut stats = self
            .dispatches
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        stats.cut = cut.or(stats.cut);
        stats.items += run.items;
        stats.idle += run.idle;
        stats.start_up += run.start_up;
        stats.placement = run.placement.or(stats.placement);
        stats.trial = run.trial;
        stats.residency = run.residency;
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

    /// Why it is the one: named, assigned by a job scheduler, or the first hardware GPU.
    pub fn reason(&self) -> &Reason {
        &self.reason
    }

    /// The options it counts with.
    pub fn options(&self) -> &GpuOptions {
        &self.options
    }

    /// `error`, after what the device said first where that is something else (a lost
    /// device's reason, a driver's error), which is the cause a user needs to read.
    fn with_device_error(&self, error: CounterError) -> CounterError {
        match self.device_error() {
            Some(cause) if cause != error.0 => CounterError(format!("{cause}; {}", error.0)),
            _ => error,
        }
    }

    fn device_error(&self) -> Option<String> {
        self.errors
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// The steps per invocation of a call's first dispatch, and the most of any.
    fn first_steps(&self) -> (u32, u32) {
        let most_steps = match self.info.kind {
            DeviceType::Software => MOST_SOFTWARE_STEPS,
            _ => MOST_STEPS,
        };
        let first = self.options.fixed_steps.unwrap_or(FIRST_STEPS);
        (first.min(most_steps), most_steps)
    }

    /// Dispatches each placement runs in a count's trial (0: none).
    fn trial_rounds(&self) -> u32 {
        self.options.trial_rounds.unwrap_or(match self.info.kind {
            DeviceType::Software => 0,
            _ => TRIAL_ROUNDS,
        })
    }

    /// The invocations a dispatch asks for, before they are fitted to the device.
    fn invocations(&self) -> u32 {
        self.options.invocations.unwrap_or(match self.info.kind {
            DeviceType::Software => 1 << 12,
            _ => 1 << 17,
        })
    }

    fn kernel(&self, plan: &CountPlan, depth: usize, rules: Rules) -> Result<Kernel, String> {
        let n = plan.n();
        let invocations = self.invocations();
        let limits = self.device.limits();
        let start = item_rows(plan, depth) as u32;
        let mut placements = self.placements(frames(n, start), &limits).into_iter();
        let first = placements.next().expect("a memory");
        let shape = Shape {
            n,
            start,
            placement: first,
            rivals: placements.collect(),
            invocations,
            fresh: invocations.saturating_mul(FRESH_PER_INVOCATION),
            rules,
        }
        .fit(&limits);
        Kernel::new(
            &self.device,
            &self.queue,
            shape,
            self.options.checked,
            self.options.timeout,
        )
    }

    /// The placements a kernel with `frames` frames is built in: the options' memory and top
    /// frame, or where they leave them open and a trial runs, each (workgroup memory and the
    /// stack first); each workgroup as large as its memory holds, or as asked (no larger than
    /// each holds, in a trial).
    fn placements(&self, frames: u32, limits: &wgpu::Limits) -> Vec<Placement> {
        let trial = self.trial_rounds() > 0;
        let memories = choices(
            self.options.stack,
            trial,
            &[StackMemory::Workgroup, StackMemory::Storage],
        );
        let tops = choices(
            self.options.top_frame,
            trial,
            &[TopFrame::Stack, TopFrame::Registers],
        );
        let several = memories.len() > 1;
        memories
            .into_iter()
            .flat_map(|memory| tops.iter().map(move |&top| (memory, top)))
            .map(|(memory, top)| {
                let fits = fit_workgroup(frames, memory, limits);
                let workgroup = match self.options.workgroup {
                    Some(asked) if several => asked.min(fits),
                    Some(asked) => asked,
                    None => fits,
                };
                Placement {
                    memory,
                    workgroup,
                    top,
                }
            })
            .collect()
    }
}

/// What a count builds of one of its kernel's settings: the one asked for, or where none was
/// and a trial runs, every candidate; else the first.
fn choices<T: Copy>(asked: Option<T>, trial: bool, candidates: &[T]) -> Vec<T> {
    match asked {
        Some(choice) => vec![choice],
        None if trial => candidates.to_vec(),
        None => candidates[..1].to_vec(),
    }
}

impl PartCounter for GpuCounter {
    fn count_parts(&self, parts: PartsToCount<'_>) -> Result<(), CounterError> {
        let PartsToCount {
            plan, ids, budget, ..
        } = parts;
        // The parts not for the kernel (the turns' searches above all, seconds from N = 24)
        // are counted on a thread of their own while the device counts the rest.
        let (cpu_ids, device_ids): (Vec<usize>, Vec<usize>) = ids
            .iter()
            .partition(|&&id| on_cpu(plan.n(), &plan.subproblems()[id]));
        // Stopped with the count, or when the device fails: the error is then said at once
        // rather than after the searches (4.5 s at N = 24, more above).
        let halt = budget.token().child();
        let cpu_budget = budget.piece().with_cancel(halt.clone());
        let count_on_cpu = || {
            for &id in &cpu_ids {
                match plan.count_one(id, &cpu_budget) {
                    Some(tally) => (parts.done)(id, tally),
                    None => return,
                }
            }
        };
        std::thread::scope(|scope| {
            // Where the address space has no room for the thread, the CPU's parts are counted
            // after the device's.
            let on_cpu = queens_core::parallel::spawn_scoped(scope, count_on_cpu).ok();
            let counted = self.count_on_device(PartsToCount {
                ids: &device_ids,
                ..parts
            });
            if counted.is_err() {
                halt.cancel();
            }
            match on_cpu {
                Some(on_cpu) => on_cpu
                    .join()
                    .map_err(|_| CounterError("counting a part on the CPU failed".to_owned()))?,
                None if counted.is_ok() => count_on_cpu(),
                None => {}
            }
            counted.map_err(|error| self.with_device_error(error))
        })
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

impl GpuCounter {
    /// Counts parts `ids`, none of them [`on_cpu`], on the device: the settled parts' items
    /// first, on the kernel that applies the side columns' deadline alone, then the others' on
    /// the kernel with every rule (see [`Rules`]), which is cut and built on a thread of its
    /// own while the device counts the first.
    fn count_on_device(&self, parts: PartsToCount<'_>) -> Result<(), CounterError> {
        let PartsToCount {
            plan, ids, budget, ..
        } = parts;
        let n = plan.n();
        // Settled at the depth asked for, a part stays settled at the deeper cuts a call may
        // choose.
        let depth = self.options.depth.unwrap_or_else(|| default_depth(n));
        let (settled, others): (Vec<usize>, Vec<usize>) = ids.iter().partition(|&&id| {
            Rules::for_items(n, &plan.subproblems()[id], depth) == Rules::Deadline
        });
        std::thread::scope(|scope| {
            // Where the address space has no room for the thread, the second kernel is built
            // once the first has counted.
            let prepare_others = || self.prepare(plan, &others, Rules::All);
            let later = (!others.is_empty())
                .then(|| queens_core::parallel::spawn_scoped(scope, prepare_others));
            let mut first_cut = None;
            let mut total = Ran::default();
            if !settled.is_empty() {
                let began = Instant::now();
                let (cut, kernel) = self.prepare(plan, &settled, Rules::Deadline)?;
                first_cut = Some(cut);
                let ids = &settled;
                total.add(self.run(PartsToCount { ids, ..parts }, cut, kernel, began, None)?);
            }
            if let Some(later) = later {
                let prepared = match later {
                    Ok(thread) => thread.join().map_err(|_| {
                        CounterError("building a counting kernel failed".to_owned())
                    })?,
                    Err(_) => prepare_others(),
                };
                let (cut, kernel) = prepared?;
                if !budget.is_stopped() {
                    first_cut = first_cut.or(Some(cut));
                    let ids = &others;
                    let began = Instant::now();
                    // The first kernel's choice holds for the second: the same N on the same
                    // device.
                    let kept = total.trial.as_ref().map(|trial| trial.kept);
                    let parts = PartsToCount { ids, ..parts };
                    total.add(self.run(parts, cut, kernel, began, kept)?);
                }
            }
            self.record_count(first_cut, total);
            Ok(())
        })
    }

    /// The cut of parts `ids` and the kernel, applying `rules`, that counts their items.
    fn prepare(
        &self,
        plan: &CountPlan,
        ids: &[usize],
        rules: Rules,
    ) -> Result<(Cut, Kernel), CounterError> {
        let n = plan.n();
        let subproblems: Vec<&Subproblem> = ids.iter().map(|&id| &plan.subproblems()[id]).collect();
        let cut = cut(
            n,
            &subproblems,
            self.options.depth.unwrap_or_else(|| default_depth(n)),
            self.invocations(),
            self.options.depth.is_none(),
        );
        let kernel = self.kernel(plan, cut.depth, rules).map_err(CounterError)?;
        Ok((cut, kernel))
    }

    /// Counts parts `ids`, cut by `cut`, on `kernel`, which fits all their items, in its
    /// placement of the stacks in `kept` (a trial's choice for an earlier kernel) or as its
    /// own trial chooses; returns how the dispatches went, with the start-up counted from
    /// `began`.
    fn run(
        &self,
        parts: PartsToCount<'_>,
        cut: Cut,
        mut kernel: Kernel,
        began: Instant,
        kept: Option<Placement>,
    ) -> Result<Ran, CounterError> {
        let PartsToCount {
            plan,
            ids,
            budget,
            done,
        } = parts;
        // Fresh items queued for a dispatch: twice what the last one took, so that the queue
        // never runs dry; at least one per invocation, at most what the ring holds.
        let (fewest, ring) = {
            let shape = kernel.shape();
            (shape.invocations as usize, shape.fresh as usize)
        };
        let mut room = fewest.min(ring);
        let mut last_taken = 0;
        let mut stream = Stream::new(plan, cut, ids);
        let (first_steps, most_steps) = self.first_steps();
        let placements = kernel.placements();
        let mut trial = Trial::new(placements.len(), self.trial_rounds(), first_steps);
        if let Some(at) = kept.and_then(|kept| placements.iter().position(|p| p.is_built_as(kept)))
        {
            trial.keep(at);
        }
        // When the dispatch in flight was submitted and in which placement, and when the last
        // one landed.
        let mut running: Option<(Instant, usize)> = None;
        let mut last_placement = None;
        let mut landed_at: Option<Instant> = None;
        let (mut idle, mut start_up) = (0.0, 0.0);
        loop {
            // While a dispatch runs, the host sums the last one's tallies into parts and fills
            // the ring with items for the next, besides what this one will take.
            stream.collect(&mut kernel, done)?;
            let stopped = budget.is_stopped();
            if let Some((submitted, placement)) = running.take() {
                if !stopped {
                    stream.fill(&mut kernel, room + last_taken, done);
                }
                let landed = kernel.land().map_err(CounterError)?;
                if let Some(error) = self.device_error() {
                    return Err(CounterError(error));
                }
                let now = Instant::now();
                let took = (now - submitted).as_secs_f64();
                self.record_dispatch(took);
                landed_at = Some(now);
                last_taken = landed.map_or(0, |landed| landed.fresh_taken as usize);
                room = (2 * last_taken).clamp(fewest.min(ring), ring);
                let claimed = landed.map_or(0, |landed| landed.steps);
                self.retune(&mut trial, placement, claimed, took, most_steps);
                if stopped {
                    // The landed dispatch's finished parts are reported before stopping.
                    continue;
                }
            } else if stopped {
                return Ok(Ran::default());
            }
            // Where items are small, the ring may have run short: topped up before submitting.
            stream.fill(&mut kernel, room, done);
            if kernel.carried() == 0 && kernel.queued() == 0 {
                stream.collect(&mut kernel, done)?;
                if stream.is_done() {
                    let items = stream.next_seq;
                    return Ok(Ran {
                        items,
                        idle,
                        start_up,
                        placement: last_placement,
                        trial: trial.outcome(&placements),
                        residency: kernel.residency(),
                    });
                }
                return Err(CounterError(
                    "the GPU engine lost track of some items".to_owned(),
                ));
            }
            // A placement kept from an earlier kernel's trial is built before it runs.
            let kept_rival = trial.next().0 > 0;
            build_rivals(&mut kernel, &mut trial, kept_rival);
            let (placement, steps) = trial.next();
            kernel.submit(steps, most_steps, placement);
            let now = Instant::now();
            match landed_at {
                Some(landed) => idle += (now - landed).as_secs_f64(),
                None => start_up = (now - began).as_secs_f64(),
            }
            running = Some((now, placement));
            last_placement = Some(placements[placement]);
            // Once the turns begin, the rivals are built while the device counts.
            let timing = trial.is_timing();
            build_rivals(&mut kernel, &mut trial, timing);
        }
    }

    /// Tells `trial` how a dispatch of `placement` went, `claimed` steps in `took` seconds, with
    /// that placement's steps for its next tuned towards the target (unless fixed), and whether
    /// it was long enough to time.
    fn retune(&self, trial: &mut Trial, placement: usize, claimed: u64, took: f64, most: u32) {
        let steps = trial.steps(placement);
        let target = self.options.dispatch_target.as_secs_f64();
        let (retuned, full) = match self.options.fixed_steps {
            Some(_) => (steps, true),
            None => (tuned(steps, took, target).min(most), took >= target / 2.0),
        };
        trial.landed(placement, claimed, took, retuned, full);
    }
}

/// Builds `kernel`'s rival placements not built yet, where `needed`; one the driver cannot build
/// leaves `trial`.
fn build_rivals(kernel: &mut Kernel, trial: &mut Trial, needed: bool) {
    if needed {
        for failed in kernel.build_rivals() {
            trial.exclude(failed);
        }
    }
}

/// How one kernel's dispatches of a call went: the items sent, the seconds the device waited
/// between dispatches and those to the first, the placement of the stacks its last dispatch
/// ran in, its trial's outcome, and the most workgroups of each placement run at once.
#[derive(Clone, Debug, Default)]
struct Ran {
    items: u64,
    idle: f64,
    start_up: f64,
    placement: Option<Placement>,
    trial: Option<Outcome>,
    residency: Vec<(Placement, Residency)>,
}

impl Ran {
    /// Sums `other`, a later kernel's run, into this one: its placement is the last, and the
    /// first trial to choose is kept.
    fn add(&mut self, other: Ran) {
        self.items += other.items;
        self.idle += other.idle;
        self.start_up += other.start_up;
        self.placement = other.placement.or(self.placement);
        self.trial = self.trial.take().or(other.trial);
        for (placement, residency) in other.residency {
            match self
                .residency
                .iter_mut()
                .find(|(seen, _)| *seen == placement)
            {
                Some((_, so_far)) => *so_far = so_far.max(residency),
                None => self.residency.push((placement, residency)),
            }
        }
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
    use std::collections::BTreeMap;

    use queens_core::Budget;
    use queens_exact::count::Engine;

    use super::*;

    /// A device lost mid-count (destroyed here, as a driver reset or a card taken away leaves
    /// it) is the counter's error, within the dispatch's timeout rather than a hang or a panic,
    /// and every part it reported before is whole (the driver keeps them in the checkpoint).
    #[test]
    fn a_device_lost_midway_is_an_error_and_its_parts_are_whole() {
        let Some(first) = Adapters::probe().list().into_iter().next() else {
            assert!(
                std::env::var("QUEENS_REQUIRE_GPU").as_deref() != Ok("1"),
                "QUEENS_REQUIRE_GPU=1 but no adapter was found"
            );
            return;
        };
        let options = GpuOptions {
            invocations: Some(256),
            workgroup: Some(32),
            fixed_steps: Some(2000),
            ..GpuOptions::default()
        };
        let counter = GpuCounter::open(Selection::Index(first.index), options).unwrap();
        let plan = CountPlan::with_engine(13, Engine::Gpu).unwrap();
        let ids: Vec<usize> = (0..plan.len()).collect();
        let tallies = Mutex::new(BTreeMap::new());
        let done = |id, tally| {
            let mut tallies = tallies.lock().unwrap();
            assert!(tallies.insert(id, tally).is_none(), "part {id} twice");
            if tallies.len() == 20 {
                counter.device.destroy();
            }
        };
        let started = Instant::now();
        let lost = counter.count_parts(PartsToCount {
            plan: &plan,
            ids: &ids,
            budget: &Budget::unlimited(),
            done: &done,
        });
        let error = lost.expect_err("a lost device is an error");
        assert!(started.elapsed() < Duration::from_secs(60), "{error}");
        // The cause first: the device's own word that it was lost.
        assert!(error.0.starts_with("the device was lost"), "{error}");
        let tallies = tallies.into_inner().unwrap();
        assert!(
            tallies.len() < plan.len(),
            "{} parts reported",
            tallies.len()
        );
        for (&id, &tally) in &tallies {
            assert_eq!(
                Some(tally),
                plan.count_one(id, &Budget::unlimited()),
                "part {id}"
            );
        }
        eprintln!("{error} after {} of {} parts", tallies.len(), plan.len());
    }

    #[test]
    fn steps_move_towards_the_target_within_bounds() {
        assert_eq!(tuned(1000, 0.05, 0.1), 2000);
        assert_eq!(tuned(1000, 10.0, 0.1), 256);
        assert_eq!(tuned(1 << 27, 0.0, 0.1), MOST_STEPS);
        assert_eq!(tuned(4096, 1.0, 0.1), 512);
    }
}
