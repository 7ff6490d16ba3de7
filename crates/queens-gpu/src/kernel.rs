//! The counting kernel on a device: its shape, the pipelines of its placements (their WGSL made
//! by [`crate::wgsl`]), the buffers of records, the ring of fresh items the host fills ahead, and
//! the dispatches — submitted, landed (the records carried, the items taken), and their finished
//! tallies read while the next one runs.

use std::sync::mpsc;
use std::time::Duration;

use queens_exact::count::Tally;

use crate::items::Item;
use crate::stacks::{FRAME_BYTES, FRAME_WORDS, Placement, StackLayout, StackMemory, frames};
use crate::wgsl::{Rules, source};

/// Words in a record's header (see `count.wgsl`), before a frame per stacked row.
const HEADER_WORDS: u32 = 11;
/// Words in a finished tally: id, total and nodes as (low, high) pairs, and a spare.
const TALLY_WORDS: u32 = 6;

/// The bytes of `tallies` finished items' tallies.
fn tally_bytes(tallies: u64) -> u64 {
    tallies * u64::from(TALLY_WORDS) * 4
}

/// The kernel's atomic counters (see `count.wgsl`): records saved, tallies written, records
/// taken, chunks claimed, workgroups running and the most running at once.
const COUNTERS: usize = 6;
const COUNTERS_BYTES: u64 = COUNTERS as u64 * 4;

/// The words of the kernel's `Params`: the board side, the records in the queue, an
/// invocation's most steps, the records carried, the ring's first slot and its size, and the
/// budget's chunk and chunks.
const PARAMS_WORDS: usize = 8;

/// A dispatch's budget is claimed in chunks of this share of the steps it gives an invocation
/// on average: fine enough that the invocations end within a sixteenth of a share of each
/// other, coarse enough that claims are rare.
const CHUNKS_A_SHARE: u32 = 16;

/// The most shares of a dispatch's budget one invocation claims: where the device holds fewer
/// invocations at once than are launched, those it holds run on for the others, up to four
/// times their share (and the rest run after them).
const MOST_SHARES: u32 = 4;

/// How a kernel is shaped for its device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The board side.
    pub n: u32,
    /// The rows every item fixes.
    pub start: u32,
    /// Where the stacks are, and the invocations a workgroup.
    pub placement: Placement,
    /// Other placements the kernel is built in as well, to run any dispatch on: the records a
    /// dispatch carries are the same whichever ran it.
    pub rivals: Vec<Placement>,
    /// Invocations a dispatch, each carrying at most one record to the next.
    pub invocations: u32,
    /// Fresh items a dispatch's queue takes at most.
    pub fresh: u32,
    /// The case's rules the loop applies.
    pub rules: Rules,
}

impl Shape {
    /// Stack frames an invocation holds.
    pub fn frames(&self) -> u32 {
        frames(self.n, self.start)
    }

    /// The placements the kernel is built in: its own, then its rivals.
    pub fn placements(&self) -> impl Iterator<Item = Placement> + '_ {
        std::iter::once(self.placement).chain(self.rivals.iter().copied())
    }

    /// How the stacks of `placement` are laid out in its dispatches.
    pub fn stacks(&self, placement: Placement) -> StackLayout {
        StackLayout::of(placement, self.invocations)
    }

    /// The stacks' bytes in a storage buffer (for a placement there), or none.
    fn stack_bytes(&self) -> u64 {
        if self
            .placements()
            .any(|placement| placement.memory == StackMemory::Storage)
        {
            u64::from(self.invocations) * u64::from(self.frames()) * u64::from(FRAME_BYTES)
        } else {
            0
        }
    }

    fn record_bytes(&self) -> u64 {
        u64::from(HEADER_WORDS + FRAME_WORDS * self.frames()) * 4
    }

    /// The tally buffer holds a whole queue: every record carried and every fresh item.
    fn tally_bytes(&self) -> u64 {
        tally_bytes(u64::from(self.invocations) + u64::from(self.fresh))
    }

    /// The bytes of device memory the kernel takes.
    pub fn memory(&self) -> u64 {
        let records = 2 * u64::from(self.invocations) * self.record_bytes();
        records + self.stack_bytes() + u64::from(self.fresh) * 16 + 2 * self.tally_bytes()
    }

    /// This shape with its invocations and fresh items cut to the device's buffer limits, and
    /// its invocations to whole workgroups of every placement.
    #[must_use]
    pub fn fit(mut self, limits: &wgpu::Limits) -> Self {
        let largest = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let by_records = largest / self.record_bytes();
        let whole = self.placements().fold(1u64, |unit, placement| {
            lcm(unit, placement.workgroup.into())
        });
        let whole = whole.min(u64::from(u32::MAX)) as u32;
        self.invocations =
            (u64::from(self.invocations).min(by_records) as u32).max(whole) / whole * whole;
        let tally = u64::from(TALLY_WORDS) * 4;
        let by_tallies = (largest / tally).saturating_sub(u64::from(self.invocations));
        self.fresh = (u64::from(self.fresh).min(largest / 16).min(by_tallies) as u32).max(1);
        self
    }
}

/// The least common multiple of two workgroups' invocations.
fn lcm(a: u64, b: u64) -> u64 {
    let (mut x, mut y) = (a.max(1), b.max(1));
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a.max(1) / x * b.max(1)
}

/// A dispatch's budget of steps as the kernel claims it: `chunks` chunks of `chunk` steps for
/// all its invocations together, and an invocation's `most` steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DispatchBudget {
    chunk: u32,
    chunks: u32,
    most: u32,
}

impl DispatchBudget {
    /// `share` steps for each of `invocations`, none claiming more than `most` or
    /// [`MOST_SHARES`] shares (but always a chunk).
    fn new(share: u32, most: u32, invocations: u32) -> Self {
        let share = share.min(most).max(1);
        let chunk = (share / CHUNKS_A_SHARE).max(1);
        let chunks = u64::from(invocations) * u64::from(share) / u64::from(chunk);
        DispatchBudget {
            chunk,
            chunks: chunks.min(u64::from(u32::MAX)) as u32,
            // The kernel counts from step 1, the record's take.
            most: share
                .saturating_mul(MOST_SHARES)
                .min(most)
                .max(chunk.saturating_add(1)),
        }
    }
}

/// The kernel built in one placement: its pipeline, the bind groups reading record buffer `i`
/// and writing record buffer `1 − i` (they keep the buffers alive), and the most of its
/// workgroups the device ran at once in a dispatch, once one has landed.
struct Variant {
    placement: Placement,
    pipeline: wgpu::ComputePipeline,
    bind_groups: [wgpu::BindGroup; 2],
    residency: Option<Residency>,
}

/// What a dispatch left, as [`Kernel::land`] reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Landed {
    /// The fresh items it took from the ring.
    pub fresh_taken: u32,
    /// The steps its invocations claimed of its budget (the nodes they visited, near enough:
    /// an invocation may leave the end of its last chunk unspent).
    pub steps: u64,
}

/// A dispatch submitted and not yet landed.
struct InFlight {
    /// Its records, and those of them carried into it.
    count: u32,
    carried: u32,
    budget: DispatchBudget,
    /// Its placement (an index into [`Kernel::placements`]) and the workgroups it launched.
    variant: usize,
    groups: u32,
    submission: wgpu::SubmissionIndex,
}

/// How many workgroups of a dispatch the device ran at once: `at_once` of the `launched`, at
/// most (`count.wgsl` counts each from its first invocation's start to that invocation's end).
/// Where fewer ran at once than were launched, `at_once` is what the device holds of the
/// placement's workgroups (on a GPU, what its multiprocessors hold together: their memory and
/// registers bound it); where as many, it holds at least that many.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Residency {
    /// The most workgroups running at once.
    pub at_once: u32,
    /// The workgroups launched (the most of any dispatch, for several).
    pub launched: u32,
}

impl Residency {
    /// The larger of the two's figures, each.
    #[must_use]
    pub fn max(self, other: Residency) -> Residency {
        Residency {
            at_once: self.at_once.max(other.at_once),
            launched: self.launched.max(other.launched),
        }
    }
}

/// A placement of a kernel: built, not yet, or not buildable by the driver.
enum Built {
    Not,
    Yes(Variant),
    Failed,
}

/// The kernel built for one N on one device, in one placement or several (its shape's rivals),
/// all sharing the buffers of records, fresh items and tallies.
pub struct Kernel {
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// Each placement of the shape ([`Kernel::placements`]), as built so far: its own at once,
    /// its rivals once asked for.
    variants: Vec<Built>,
    checked: bool,
    /// The two record buffers: a dispatch reads one and writes the other.
    records: [wgpu::Buffer; 2],
    /// The stacks' storage buffer, made with the first placement there.
    stacks: Option<wgpu::Buffer>,
    params: wgpu::Buffer,
    counters: wgpu::Buffer,
    fresh: wgpu::Buffer,
    finished: wgpu::Buffer,
    counters_readback: wgpu::Buffer,
    finished_readback: wgpu::Buffer,
    shape: Shape,
    /// Which of the two record buffers the next dispatch reads.
    current: usize,
    /// The ring of fresh items: the slot of the first not yet taken, and how many are queued.
    ring_start: u32,
    queued: u32,
    /// The records carried by the last dispatch that ended, which the next one takes first.
    carried: u32,
    in_flight: Option<InFlight>,
    /// The copy of the last landed dispatch's tallies, and how many it holds.
    tally_copy: Option<(u32, wgpu::SubmissionIndex)>,
    timeout: Duration,
}

impl Kernel {
    /// Builds the kernel of `shape` (fitted to the device); `Err` with the driver's words if it
    /// cannot. `checked` keeps wgpu's runtime checks (bounds and loop guards) in the shader.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        shape: Shape,
        checked: bool,
        timeout: Duration,
    ) -> Result<Self, String> {
        let buffer = |label, size, usage| new_buffer(device, label, size, usage);
        let storage = wgpu::BufferUsages::STORAGE;
        let copy_dst = wgpu::BufferUsages::COPY_DST;
        let copy_src = wgpu::BufferUsages::COPY_SRC;
        let read = wgpu::BufferUsages::MAP_READ | copy_dst;
        let records = u64::from(shape.invocations) * shape.record_bytes();
        let params = buffer(
            "params",
            PARAMS_WORDS as u64 * 4,
            wgpu::BufferUsages::UNIFORM | copy_dst,
        );
        let active = [
            buffer("records a", records, storage),
            buffer("records b", records, storage),
        ];
        let finished = buffer("finished", shape.tally_bytes(), storage | copy_src);
        let counters = buffer("counters", COUNTERS_BYTES, storage | copy_dst | copy_src);
        let fresh = buffer(
            "fresh items",
            u64::from(shape.fresh) * 16,
            storage | copy_dst,
        );
        let counters_readback = buffer("counters readback", COUNTERS_BYTES, read);
        let finished_readback = buffer("finished readback", shape.tally_bytes(), read);
        let mut kernel = Kernel {
            device: device.clone(),
            queue: queue.clone(),
            variants: shape.placements().map(|_| Built::Not).collect(),
            checked,
            records: active,
            stacks: None,
            params,
            counters,
            fresh,
            finished,
            counters_readback,
            finished_readback,
            shape,
            current: 0,
            ring_start: 0,
            queued: 0,
            carried: 0,
            in_flight: None,
            tally_copy: None,
            timeout,
        };
        let placement = kernel.shape.placement;
        kernel.variants[0] = Built::Yes(kernel.build(placement)?);
        Ok(kernel)
    }

    /// Builds the kernel in each of its shape's rival placements not tried yet; returns those
    /// the driver could not build (each once). A count builds them when it first needs them: a
    /// short count never does.
    pub fn build_rivals(&mut self) -> Vec<usize> {
        let mut failed = Vec::new();
        for at in 1..self.variants.len() {
            let placement = self.shape.rivals[at - 1];
            if matches!(self.variants[at], Built::Not) {
                self.variants[at] = if let Ok(variant) = self.build(placement) {
                    Built::Yes(variant)
                } else {
                    failed.push(at);
                    Built::Failed
                };
            }
        }
        failed
    }

    /// The kernel built in `placement`; `Err` with the driver's words if it does not build.
    fn build(&mut self, placement: Placement) -> Result<Variant, String> {
        let pipeline = pipeline(&self.device, &self.shape, placement, self.checked)?;
        if placement.memory == StackMemory::Storage && self.stacks.is_none() {
            let size = self.shape.stack_bytes();
            self.stacks = Some(new_buffer(
                &self.device,
                "stacks",
                size,
                wgpu::BufferUsages::STORAGE,
            ));
        }
        let layout = pipeline.get_bind_group_layout(0);
        let bind_group = |from: &wgpu::Buffer, to: &wgpu::Buffer| {
            let mut entries = vec![
                entry(0, &self.params),
                entry(1, from),
                entry(2, to),
                entry(3, &self.finished),
                entry(4, &self.counters),
                entry(5, &self.fresh),
            ];
            if placement.memory == StackMemory::Storage {
                entries.extend(self.stacks.as_ref().map(|stacks| entry(6, stacks)));
            }
            self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("queens count"),
                layout: &layout,
                entries: &entries,
            })
        };
        let [a, b] = &self.records;
        let bind_groups = [bind_group(a, b), bind_group(b, a)];
        Ok(Variant {
            placement,
            pipeline,
            bind_groups,
            residency: None,
        })
    }

    /// Its shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The placements it may be built in, in the order [`Kernel::submit`] names them: its
    /// shape's own, then its rivals (built by [`Kernel::build_rivals`]).
    pub fn placements(&self) -> Vec<Placement> {
        self.shape.placements().collect()
    }

    /// For each placement whose dispatches have landed, the most of its workgroups the device
    /// ran at once in one dispatch.
    pub fn residency(&self) -> Vec<(Placement, Residency)> {
        self.variants
            .iter()
            .filter_map(|built| match built {
                Built::Yes(variant) => Some((variant.placement, variant.residency?)),
                _ => None,
            })
            .collect()
    }

    /// Fresh items queued on the device and not yet taken.
    pub fn queued(&self) -> u32 {
        self.queued
    }

    /// Records carried by the last dispatch that ended, for the next.
    pub fn carried(&self) -> u32 {
        self.carried
    }

    /// Queues `items` behind those on the device, as many as its ring has free slots for;
    /// returns how many. The dispatch in flight, if any, reads none of these slots, and the
    /// queue writes them before its next submission, so the host fills the ring while the
    /// device counts.
    pub fn append(&mut self, items: &[Item]) -> usize {
        let ring = self.shape.fresh;
        let count = (items.len() as u64).min(u64::from(ring - self.queued)) as u32;
        let mut written = 0;
        while written < count {
            let slot = (self.ring_start + self.queued + written) % ring;
            let run = (count - written).min(ring - slot);
            let words = &items[written as usize..(written + run) as usize];
            self.queue.write_buffer(
                &self.fresh,
                u64::from(slot) * 16,
                bytemuck::cast_slice(words),
            );
            written += run;
        }
        self.queued += count;
        count as usize
    }

    /// Submits a dispatch: the records the last one carried, then the queued fresh items,
    /// taken in turn by the invocations. Its budget is `share` steps for each invocation
    /// launched, shared: an invocation claims it a chunk at a time, and none claims more than
    /// `most` steps or four shares. It runs in placement `placement` (an index into
    /// [`Kernel::placements`], built) while the host goes on; [`Kernel::land`] waits for it.
    pub fn submit(&mut self, share: u32, most: u32, placement: usize) {
        assert!(self.in_flight.is_none(), "one dispatch at a time");
        let Some(Built::Yes(variant)) = self.variants.get(placement) else {
            panic!("a placement built");
        };
        let workgroup = variant.placement.workgroup;
        let count = self.carried + self.queued;
        // The invocations are whole workgroups of every placement (`Shape::fit`), so no
        // dispatch launches more than the record buffers hold.
        let groups = count.min(self.shape.invocations).div_ceil(workgroup);
        let budget = DispatchBudget::new(share, most, groups * workgroup);
        let params: [u32; PARAMS_WORDS] = [
            self.shape.n,
            count,
            budget.most,
            self.carried,
            self.ring_start,
            self.shape.fresh,
            budget.chunk,
            budget.chunks,
        ];
        self.queue
            .write_buffer(&self.params, 0, bytemuck::cast_slice(&params));
        self.queue
            .write_buffer(&self.counters, 0, bytemuck::cast_slice(&[0u32; COUNTERS]));
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(&variant.pipeline);
            pass.set_bind_group(0, &variant.bind_groups[self.current], &[]);
            if groups > 0 {
                pass.dispatch_workgroups(groups, 1, 1);
            }
        }
        let counters = &self.counters;
        encoder.copy_buffer_to_buffer(counters, 0, &self.counters_readback, 0, COUNTERS_BYTES);
        let submission = self.queue.submit([encoder.finish()]);
        self.in_flight = Some(InFlight {
            count,
            carried: self.carried,
            budget,
            variant: placement,
            groups,
            submission,
        });
    }

    /// Waits for the dispatch in flight and reads what it left: returns the fresh items it took
    /// from the ring and the steps it claimed, keeps the records it carried
    /// ([`Kernel::carried`]), and submits the copy of its tallies for [`Kernel::tallies`] to
    /// read while the next dispatch runs. `Ok(None)` when none is in flight.
    pub fn land(&mut self) -> Result<Option<Landed>, String> {
        assert!(
            self.tally_copy.is_none(),
            "the last dispatch's tallies are read before the next lands"
        );
        let Some(InFlight {
            count,
            carried,
            budget,
            variant,
            groups,
            submission,
        }) = self.in_flight.take()
        else {
            return Ok(None);
        };
        let counters = self.read(&self.counters_readback, COUNTERS_BYTES, submission)?;
        let (saved, finished) = (counters[0], counters[1]);
        // Claims past the budget are refused but counted.
        let steps = u64::from(counters[3].min(budget.chunks)) * u64::from(budget.chunk);
        let taken = counters[2].min(count);
        // A dispatch launches at least as many invocations as records were carried, and each
        // takes a record while a carried one is untaken, whatever is left of the budget: every
        // carried record is taken.
        if taken < carried || saved + finished > taken {
            return Err(format!(
                "the device returned impossible counts ({saved} saved, {finished} finished of \
                 {taken} taken)"
            ));
        }
        let fresh_taken = taken - carried;
        self.ring_start = (self.ring_start + fresh_taken) % self.shape.fresh;
        self.queued -= fresh_taken;
        self.carried = saved;
        self.current = 1 - self.current;
        // The tallies' copy is a submission of its own, so that reading it waits for nothing
        // submitted later.
        if finished > 0 {
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
            encoder.copy_buffer_to_buffer(
                &self.finished,
                0,
                &self.finished_readback,
                0,
                tally_bytes(finished.into()),
            );
            self.tally_copy = Some((finished, self.queue.submit([encoder.finish()])));
        }
        let residency = Residency {
            at_once: counters[5].min(groups),
            launched: groups,
        };
        if let Some(Built::Yes(ran)) = self.variants.get_mut(variant) {
            ran.residency = Some(ran.residency.map_or(residency, |most| most.max(residency)));
        }
        Ok(Some(Landed { fresh_taken, steps }))
    }

    /// The tallies of the last dispatch landed, by item id (empty once read).
    pub fn tallies(&mut self) -> Result<Vec<(u32, Tally)>, String> {
        let Some((finished, submission)) = self.tally_copy.take() else {
            return Ok(Vec::new());
        };
        let words = self.read(
            &self.finished_readback,
            tally_bytes(finished.into()),
            submission,
        )?;
        let pair = |low: u32, high: u32| u128::from(u64::from(high) << 32 | u64::from(low));
        Ok(words
            .chunks_exact(TALLY_WORDS as usize)
            .map(|entry| {
                (
                    entry[0],
                    Tally {
                        total: pair(entry[1], entry[2]),
                        fixed: 0,
                        nodes: pair(entry[3], entry[4]),
                    },
                )
            })
            .collect())
    }

    /// Maps the first `bytes` of `buffer`, waits for `submission` (the last that writes it),
    /// and copies them out.
    fn read(
        &self,
        buffer: &wgpu::Buffer,
        bytes: u64,
        submission: wgpu::SubmissionIndex,
    ) -> Result<Vec<u32>, String> {
        let (sender, receiver) = mpsc::channel();
        buffer.map_async(wgpu::MapMode::Read, ..bytes, move |mapped| {
            let _ = sender.send(mapped);
        });
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(submission),
                timeout: Some(self.timeout),
            })
            .map_err(|error| format!("the device did not finish a dispatch: {error}"))?;
        receiver
            .recv_timeout(self.timeout)
            .map_err(|_| "the device did not return its results".to_owned())?
            .map_err(|error| format!("cannot read the device's results: {error}"))?;
        let words = {
            let view = buffer
                .get_mapped_range(..bytes)
                .map_err(|error| format!("cannot read the device's results: {error}"))?;
            bytemuck::pod_collect_to_vec(&view)
        };
        buffer.unmap();
        Ok(words)
    }
}

/// The counting kernel's pipeline for `shape`; `Err` with the driver's words if it does not
/// build. `checked` keeps wgpu's runtime checks in the shader.
fn pipeline(
    device: &wgpu::Device,
    shape: &Shape,
    placement: Placement,
    checked: bool,
) -> Result<wgpu::ComputePipeline, String> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let descriptor = wgpu::ShaderModuleDescriptor {
        label: Some("queens count"),
        source: wgpu::ShaderSource::Wgsl(
            source(
                shape.n,
                shape.frames(),
                shape.stacks(placement),
                shape.rules,
                placement.top,
            )
            .into(),
        ),
    };
    let module = if checked {
        device.create_shader_module(descriptor)
    } else {
        unchecked_module(device, descriptor)
    };
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("queens count"),
        layout: None,
        module: &module,
        entry_point: Some("count"),
        // Every stack frame is written before it is read: no zeroing at each start.
        compilation_options: wgpu::PipelineCompilationOptions {
            zero_initialize_workgroup_memory: false,
            ..wgpu::PipelineCompilationOptions::default()
        },
        cache: None,
    });
    if let Some(error) = pollster::block_on(scope.pop()) {
        return Err(format!("the counting kernel does not build: {error}"));
    }
    Ok(pipeline)
}

/// The counting kernel's module without wgpu's runtime checks: no clamped index and no loop
/// guard in the hot loop.
///
/// Sound for `count.wgsl` alone, whose header proves each index in range and the loop finite:
/// its stack indices are below `FRAMES × STRIDE` (a frame is pushed only for a row above the
/// last, a restored depth is clamped; a storage buffer of stacks holds `FRAMES` frames for each
/// invocation the dispatch launches), its buffer indices are below the counts the host sized
/// the buffers for ([`Shape::fit`], and [`Kernel::append`] queues no more than the ring holds),
/// and every iteration spends one of a bounded number of steps. CI validates the module with
/// naga for every N and runs it on lavapipe with the checks both on and off.
#[allow(unsafe_code)]
fn unchecked_module(
    device: &wgpu::Device,
    descriptor: wgpu::ShaderModuleDescriptor<'_>,
) -> wgpu::ShaderModule {
    // SAFETY: see above; the descriptor is always `count.wgsl` with its tokens filled in.
    unsafe {
        device.create_shader_module_trusted(descriptor, wgpu::ShaderRuntimeChecks::unchecked())
    }
}

/// A buffer of `size` bytes (16 at least, so that no binding is empty).
fn new_buffer(
    device: &wgpu::Device,
    label: &str,
    size: u64,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size.max(16),
        usage,
        mapped_at_creation: false,
    })
}

fn entry(binding: u32, buffer: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: buffer.as_entire_binding(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stacks::TopFrame;

    #[test]
    fn a_dispatch_budget_is_its_invocations_shares_in_chunks() {
        let budget = DispatchBudget::new(1 << 16, 1 << 22, 1000);
        assert_eq!(budget.chunk, 1 << 12);
        assert_eq!(
            u64::from(budget.chunks) * u64::from(budget.chunk),
            1000 << 16
        );
        assert_eq!(budget.most, 1 << 18);
        // An invocation's most steps bounds its share and its claims; a chunk always fits.
        assert_eq!(DispatchBudget::new(1 << 20, 1 << 13, 10).most, 1 << 13);
        assert_eq!(DispatchBudget::new(1 << 20, 1 << 13, 10).chunk, 1 << 9);
        let tiny = DispatchBudget::new(1, 1, 3);
        assert_eq!((tiny.chunk, tiny.chunks, tiny.most), (1, 3, 2));
        // A budget past 2³² chunks is cut, not wrapped.
        assert_eq!(
            DispatchBudget::new(1 << 30, u32::MAX, u32::MAX).chunks,
            u32::MAX
        );
    }

    #[test]
    fn a_shape_in_two_placements_launches_whole_workgroups_of_each() {
        let placement = |memory, workgroup| Placement {
            memory,
            workgroup,
            top: TopFrame::Stack,
        };
        let shape = Shape {
            n: 20,
            start: 6,
            placement: placement(StackMemory::Workgroup, 224),
            rivals: vec![placement(StackMemory::Storage, 256)],
            invocations: 1 << 17,
            fresh: 1 << 20,
            rules: Rules::Deadline,
        }
        .fit(&wgpu::Limits::default());
        // 2¹⁷ cut to whole multiples of 1,792 invocations, the least common multiple.
        assert_eq!(shape.invocations, 73 * 1792);
        assert_eq!(shape.stack_bytes(), u64::from(73 * 1792 * 12 * FRAME_BYTES));
        let alone = Shape {
            rivals: Vec::new(),
            ..shape.clone()
        };
        assert_eq!(alone.stack_bytes(), 0);
        assert_eq!(
            shape.stacks(shape.rivals[0]),
            StackLayout {
                memory: StackMemory::Storage,
                workgroup: 256,
                invocations: shape.invocations,
            }
        );
        assert_eq!(lcm(224, 256), 1792);
        assert_eq!(lcm(64, 64), 64);
        assert_eq!(lcm(0, 7), 7);
    }
}
