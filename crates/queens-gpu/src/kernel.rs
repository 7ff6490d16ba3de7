//! The counting kernel on a device: its WGSL source made for one N, the pipeline, the buffers of
//! records, and one dispatch — fresh items in, carried records through, finished tallies out.

use std::sync::mpsc;
use std::time::Duration;

use queens_exact::count::Tally;

use crate::items::Item;

/// The kernel's source; `STACK_ROWS`, `WORKGROUP` and the stack's storage are filled in.
const SOURCE: &str = include_str!("count.wgsl");
/// The two ways of keeping the search stack, separated by a line `// ----`.
const STACKS: &str = include_str!("stacks.wgsl");

/// Words in a record's header (see `count.wgsl`), before a frame per stacked row.
const HEADER_WORDS: u32 = 15;
/// Words in a stacked row's frame: its queen and diagonals.
const FRAME_WORDS: u32 = 3;
/// Words in a finished tally: id, total, fixed and nodes as (low, high) pairs, and a spare.
const FINISHED_WORDS: u32 = 8;

/// Where an invocation keeps its search stack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StackMemory {
    /// In its private memory (registers, or the driver's local memory).
    #[default]
    Private,
    /// In workgroup (shared) memory, the invocations' rows interleaved.
    Workgroup,
}

impl StackMemory {
    /// Its name in benchmarks.
    pub fn name(self) -> &'static str {
        match self {
            StackMemory::Private => "private",
            StackMemory::Workgroup => "workgroup",
        }
    }
}

/// The rows an invocation's stack holds on the N×N board: from the first free row (at least 2)
/// to the third last.
fn stack_rows(n: u32) -> u32 {
    n.saturating_sub(4).max(1)
}

/// The kernel's source for the N×N board.
pub fn source(n: u32, workgroup: u32, stack: StackMemory) -> String {
    let (private, shared) = STACKS
        .split_once("// ----\n")
        .expect("stacks.wgsl holds two stacks");
    let stack_code = match stack {
        StackMemory::Private => private,
        StackMemory::Workgroup => shared,
    };
    SOURCE
        .replace("{{STACK}}", stack_code)
        .replace("{{STACK_ROWS}}", &stack_rows(n).to_string())
        .replace("{{WORKGROUP}}", &workgroup.to_string())
}

/// What one dispatch gave back.
pub struct Dispatched {
    /// Records still searching, carried to the next dispatch.
    pub carried: u32,
    /// Items finished, by id.
    pub finished: Vec<(u32, Tally)>,
}

/// The kernel built for one N on one device, with room for `capacity` records a dispatch.
pub struct Kernel {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    /// Bind groups reading `active[i]` and writing `active[1 − i]`.
    bind_groups: [wgpu::BindGroup; 2],
    params: wgpu::Buffer,
    counters: wgpu::Buffer,
    fresh: wgpu::Buffer,
    finished: wgpu::Buffer,
    counters_readback: wgpu::Buffer,
    finished_readback: wgpu::Buffer,
    n: u32,
    workgroup: u32,
    capacity: u32,
    max_groups: u32,
    /// Which of the two record buffers the next dispatch reads.
    current: usize,
    timeout: Duration,
}

impl Kernel {
    /// The bytes of device memory a kernel for N with `capacity` records takes.
    pub fn memory(n: u32, capacity: u32) -> u64 {
        let record = u64::from(HEADER_WORDS + FRAME_WORDS * stack_rows(n)) * 4;
        let capacity = u64::from(capacity);
        2 * capacity * record + capacity * 16 + 2 * capacity * u64::from(FINISHED_WORDS) * 4
    }

    /// The largest capacity the device's buffer limits allow for N, at most `wanted`.
    pub fn fit_capacity(n: u32, wanted: u32, limits: &wgpu::Limits) -> u32 {
        let record = u64::from(HEADER_WORDS + FRAME_WORDS * stack_rows(n)) * 4;
        let largest = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let by_records = largest / record;
        let by_finished = largest / (u64::from(FINISHED_WORDS) * 4);
        u64::from(wanted).min(by_records).min(by_finished).max(1) as u32
    }

    /// Builds the kernel for the N×N board; `Err` with the driver's words if it cannot.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        n: u32,
        workgroup: u32,
        stack: StackMemory,
        capacity: u32,
        timeout: Duration,
    ) -> Result<Self, String> {
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("queens count"),
            source: wgpu::ShaderSource::Wgsl(source(n, workgroup, stack).into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("queens count"),
            layout: None,
            module: &module,
            entry_point: Some("count"),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            cache: None,
        });
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(format!("the counting kernel does not build: {error}"));
        }
        let record_bytes = u64::from(HEADER_WORDS + FRAME_WORDS * stack_rows(n)) * 4;
        let buffer = |label: &str, size: u64, usage: wgpu::BufferUsages| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size.max(16),
                usage,
                mapped_at_creation: false,
            })
        };
        let storage = wgpu::BufferUsages::STORAGE;
        let copy_dst = wgpu::BufferUsages::COPY_DST;
        let copy_src = wgpu::BufferUsages::COPY_SRC;
        let read = wgpu::BufferUsages::MAP_READ | copy_dst;
        let capacity64 = u64::from(capacity);
        let finished_bytes = capacity64 * u64::from(FINISHED_WORDS) * 4;
        let params = buffer("params", 16, wgpu::BufferUsages::UNIFORM | copy_dst);
        let active = [
            buffer("records a", capacity64 * record_bytes, storage),
            buffer("records b", capacity64 * record_bytes, storage),
        ];
        let finished = buffer("finished", finished_bytes, storage | copy_src);
        let counters = buffer("counters", 16, storage | copy_dst | copy_src);
        let fresh = buffer("fresh items", capacity64 * 16, storage | copy_dst);
        let counters_readback = buffer("counters readback", 16, read);
        let finished_readback = buffer("finished readback", finished_bytes, read);
        let layout = pipeline.get_bind_group_layout(0);
        let bind_group = |from: &wgpu::Buffer, to: &wgpu::Buffer| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("queens count"),
                layout: &layout,
                entries: &[
                    entry(0, &params),
                    entry(1, from),
                    entry(2, to),
                    entry(3, &finished),
                    entry(4, &counters),
                    entry(5, &fresh),
                ],
            })
        };
        let bind_groups = [
            bind_group(&active[0], &active[1]),
            bind_group(&active[1], &active[0]),
        ];
        Ok(Kernel {
            device: device.clone(),
            queue: queue.clone(),
            pipeline,
            bind_groups,
            params,
            counters,
            fresh,
            finished,
            counters_readback,
            finished_readback,
            n,
            workgroup,
            capacity,
            max_groups: device.limits().max_compute_workgroups_per_dimension,
            current: 0,
            timeout,
        })
    }

    /// The most records a dispatch takes.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// One dispatch: the `carried` records of the last one and `fresh` items, each searched
    /// for at most `steps` steps.
    pub fn dispatch(
        &mut self,
        carried: u32,
        fresh: &[Item],
        steps: u32,
    ) -> Result<Dispatched, String> {
        let count = carried + fresh.len() as u32;
        assert!(count <= self.capacity, "a dispatch within the capacity");
        let params = [self.n, count, steps, carried];
        self.queue
            .write_buffer(&self.params, 0, &words_to_bytes(&params));
        self.queue
            .write_buffer(&self.counters, 0, &words_to_bytes(&[0; 4]));
        if !fresh.is_empty() {
            let words: Vec<u32> = fresh.iter().flatten().copied().collect();
            self.queue
                .write_buffer(&self.fresh, 0, &words_to_bytes(&words));
        }
        let groups = count.div_ceil(self.workgroup);
        let x = groups.clamp(1, self.max_groups);
        let y = groups.div_ceil(x).max(1);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.bind_groups[self.current], &[]);
            if count > 0 {
                pass.dispatch_workgroups(x, y, 1);
            }
        }
        encoder.copy_buffer_to_buffer(&self.counters, 0, &self.counters_readback, 0, 16);
        self.queue.submit([encoder.finish()]);
        let counters = self.read(&self.counters_readback, 16)?;
        let (carried_out, finished_count) = (counters[0], counters[1]);
        if carried_out > count || finished_count > count {
            return Err(format!(
                "the device returned impossible counts ({carried_out} carried, {finished_count} \
                 finished of {count})"
            ));
        }
        let mut finished = Vec::with_capacity(finished_count as usize);
        if finished_count > 0 {
            let bytes = u64::from(finished_count) * u64::from(FINISHED_WORDS) * 4;
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
            encoder.copy_buffer_to_buffer(&self.finished, 0, &self.finished_readback, 0, bytes);
            self.queue.submit([encoder.finish()]);
            let words = self.read(&self.finished_readback, bytes)?;
            for entry in words.chunks_exact(FINISHED_WORDS as usize) {
                let pair = |low: u32, high: u32| u64::from(high) << 32 | u64::from(low);
                finished.push((
                    entry[0],
                    Tally {
                        total: u128::from(pair(entry[1], entry[2])),
                        fixed: u128::from(pair(entry[3], entry[4])),
                        nodes: pair(entry[5], entry[6]),
                    },
                ));
            }
        }
        self.current = 1 - self.current;
        Ok(Dispatched {
            carried: carried_out,
            finished,
        })
    }

    /// Maps the first `bytes` of `buffer`, waits for the device, and copies them out.
    fn read(&self, buffer: &wgpu::Buffer, bytes: u64) -> Result<Vec<u32>, String> {
        let (sender, receiver) = mpsc::channel();
        buffer.map_async(wgpu::MapMode::Read, ..bytes, move |mapped| {
            let _ = sender.send(mapped);
        });
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: None,
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
            bytes_to_words(&view)
        };
        buffer.unmap();
        Ok(words)
    }
}

fn entry(binding: u32, buffer: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: buffer.as_entire_binding(),
    }
}

fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|word| word.to_le_bytes()).collect()
}

fn bytes_to_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|chunk| u32::from_le_bytes(chunk.try_into().expect("four bytes")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_has_every_token_filled_in() {
        for stack in [StackMemory::Private, StackMemory::Workgroup] {
            let text = source(20, 64, stack);
            assert!(!text.contains("{{"), "{text}");
            assert!(text.contains("const STACK_ROWS: u32 = 16u;"));
        }
    }

    /// Every N's kernel is valid WGSL, both ways of keeping the stack (lavapipe in CI compiles
    /// and runs the kernels up to N = 15 only).
    #[test]
    fn every_kernel_is_valid_wgsl() {
        use wgpu::naga;
        for n in [4, 20, 31, 32] {
            for stack in [StackMemory::Private, StackMemory::Workgroup] {
                let text = source(n, 64, stack);
                let module = naga::front::wgsl::parse_str(&text)
                    .unwrap_or_else(|error| panic!("N = {n}: {}", error.emit_to_string(&text)));
                naga::valid::Validator::new(
                    naga::valid::ValidationFlags::all(),
                    naga::valid::Capabilities::empty(),
                )
                .validate(&module)
                .unwrap_or_else(|error| panic!("N = {n}, {stack:?}: {error:?}"));
            }
        }
    }
}
