//! The fastest public GPU counter's loop, in WGSL through wgpu: what that loop costs a node on
//! this path (WGSL, naga, the device's Vulkan, Metal or DX12 compiler), to set beside the
//! engine's kernel (`gpu_bench`) and the CUDA original on the same device.
//!
//! ```text
//! cargo run --release -p queens-gpu --example reference_loop -- [--device I|ADDRESS] [--n 16..20]
//!     [--depth 6] [--workgroup 64,160] [--invocations 16,17] [--form plain,counted,budget]
//!     [--stack workgroup,storage] [--frames wide,compact,cached,paired]
//! ```
//!
//! `ygch/n_queens` (arXiv 2511.12009) counts totals with the mirror symmetry alone: its items fix
//! the first rows (the first queen on the board's left half, weighed 2, or on the middle column
//! of an odd board, weighed 1), and each CUDA thread searches one with a stack in shared memory,
//! one queen placed an iteration. `reference_loop.wgsl` with `reference_single.wgsl`,
//! `reference_wide.wgsl` and `reference_step.wgsl` is that loop in WGSL, with the engine's stack
//! layout (lane-fastest over the workgroup); its forms:
//!
//! - `plain`: the loop alone, as the original runs it;
//! - `counted`: one addition a step more, the node count, so that the row can give nodes a
//!   second (the `plain` row of the same N and depth takes its nodes from it);
//! - `budget`: the node count and the engine's budget test (a compare and a branch a step, on a
//!   limit never reached).
//!
//! Each form runs with the stack in workgroup memory (`--stack workgroup`, the original's
//! shared memory) or a storage buffer (`--stack storage`: no workgroup's memory bounds the
//! invocations a workgroup holds), and with the original's frames of 16 bytes (`--frames wide`)
//! or frames of 8 (`--frames compact`, `reference_compact.wgsl`: twice the invocations a
//! workgroup, for iterations that only return to a row with nothing left, counted as nodes), the
//! original's with its top frame in registers and the frame below loaded at each step's start
//! (`--frames cached`, `reference_cached.wgsl`: no load between one step and the next), or two
//! searches of the original's frames an invocation, both stepped each iteration in one
//! block (`--frames paired`, `reference_paired.wgsl`: two independent chains of a load and its
//! arithmetic a lane, for half the invocations a workgroup), which says whether a device's
//! time a step is the chain's latency, which a second chain hides, or its issue, which it does
//! not.
//!
//! Its nodes are the original's iterations, about 2.4 times the engine's at N = 20 (which splits
//! the board by all eight symmetries), so the engine matches it for a whole board at about 0.4
//! of this loop's nodes a second. One dispatch a count, every item taken from an atomic counter
//! until none is left; the time is the device's, from the submission to the sums read back,
//! with the host's cut of the items printed apart (on a software adapter, which ends long
//! loops, an invocation takes one item a dispatch, and dispatches follow until every item is
//! taken). Each total is checked against OEIS A000170; the example exits 1 if one differs.
//! "workgroups at once" is the most workgroups the device ran at once of those launched, as the
//! engine counts them: below them, what the device holds of the loop's workgroups.

use std::time::Instant;

use queens_gpu::{Adapters, Selection, StackMemory};
use wgpu::util::DeviceExt;

mod bench_args;
use bench_args::{list, sizes};

const SOURCE: &str = include_str!("reference_loop.wgsl");

/// What the loop does at the end of each step, by form.
const FORMS: [(&str, &str); 3] = [
    ("plain", ""),
    ("counted", "steps += 1u;"),
    (
        "budget",
        "steps += 1u;\n            if (steps >= params.limit) {\n                break;\n            }",
    ),
];

/// The loop's frames, and the searches an invocation holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Frames {
    /// The original's: a row's masks and its untried squares, 16 bytes, one search an
    /// invocation.
    Wide,
    /// A row's squares and right diagonals, 8 bytes; the columns and left diagonals undone on
    /// the way back (`reference_compact.wgsl`).
    Compact,
    /// The original's frames and search, the top frame kept in registers and the one below
    /// it loaded at each step's start (`reference_cached.wgsl`): no load between one step and
    /// the next.
    Cached,
    /// The original's frames, two searches an invocation both stepped each iteration
    /// (`reference_paired.wgsl`): two independent chains a lane, for half the invocations a
    /// workgroup.
    Paired,
}

impl Frames {
    fn name(self) -> &'static str {
        match self {
            Frames::Wide => "wide",
            Frames::Compact => "compact",
            Frames::Paired => "paired",
            Frames::Cached => "cached",
        }
    }

    /// The searches an invocation holds, each on a stack of its own.
    fn searches(self) -> u32 {
        if self == Frames::Paired { 2 } else { 1 }
    }

    /// The stack's rows for `frames` frames: one more where both searches store their children
    /// whether or not they push them (`reference_paired.wgsl`).
    fn rows(self, frames: u32) -> u32 {
        if self == Frames::Paired {
            frames + 1
        } else {
            frames
        }
    }

    /// The bytes of an invocation's frames of one row (of each of its searches).
    fn bytes(self) -> u32 {
        match self {
            Frames::Wide | Frames::Cached => 16,
            Frames::Compact => 8,
            Frames::Paired => 32,
        }
    }

    /// The WGSL type of a frame.
    fn wgsl_type(self) -> &'static str {
        match self {
            Frames::Wide | Frames::Cached | Frames::Paired => "vec4<u32>",
            Frames::Compact => "vec2<u32>",
        }
    }

    /// Whether its search counts the N×N board exactly with `frames` frames: the compact
    /// frames' left diagonals, shifted back on the way up, lose a board column past N + frames
    /// = 34 (see `reference_compact.wgsl`).
    fn is_exact(self, n: u32, frames: u32) -> bool {
        self != Frames::Compact || n + frames <= 34
    }

    /// The searches of the items an invocation takes, for the loop's SEARCHES.
    fn searches_source(self) -> String {
        let one_at_a_time = include_str!("reference_single.wgsl");
        match self {
            Frames::Wide => {
                one_at_a_time.replace("{{SEARCH}}", include_str!("reference_wide.wgsl"))
            }
            Frames::Compact => {
                one_at_a_time.replace("{{SEARCH}}", include_str!("reference_compact.wgsl"))
            }
            Frames::Cached => {
                one_at_a_time.replace("{{SEARCH}}", include_str!("reference_cached.wgsl"))
            }
            Frames::Paired => include_str!("reference_paired.wgsl").to_owned(),
        }
    }

    /// The functions its searches call, for the loop's HELPERS.
    fn helpers(self) -> &'static str {
        match self {
            Frames::Wide | Frames::Paired => include_str!("reference_step.wgsl"),
            Frames::Compact | Frames::Cached => "",
        }
    }
}

struct Settings {
    device: Option<queens_gpu::DeviceId>,
    sizes: Vec<u32>,
    depths: Vec<u32>,
    workgroups: Vec<Option<u32>>,
    invocations: Vec<u32>,
    forms: Vec<&'static str>,
    stacks: Vec<StackMemory>,
    frames: Vec<Frames>,
}

fn settings() -> Settings {
    let mut settings = Settings {
        device: None,
        sizes: (16..=20).collect(),
        depths: vec![6],
        workgroups: vec![None],
        invocations: vec![1 << 17],
        forms: vec!["counted", "plain"],
        stacks: vec![StackMemory::Workgroup],
        frames: vec![Frames::Wide],
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).map_or("", String::as_str);
        match pair[0].as_str() {
            "--device" => settings.device = Some(value.parse().expect("--device I or ADDRESS")),
            "--n" => settings.sizes = sizes(value),
            "--depth" => settings.depths = list(value, |d| d.parse().ok()),
            "--workgroup" => settings.workgroups = list(value, |w| w.parse().ok().map(Some)),
            "--invocations" => {
                settings.invocations = list(value, |p| p.parse::<u32>().ok().map(|p| 1 << p));
            }
            "--form" => {
                settings.forms = list(value, |f| {
                    FORMS
                        .iter()
                        .find(|(name, _)| *name == f)
                        .map(|(name, _)| *name)
                });
            }
            "--stack" => {
                settings.stacks = list(value, StackMemory::from_name);
            }
            "--frames" => {
                settings.frames = list(value, |frames| match frames {
                    "wide" => Some(Frames::Wide),
                    "compact" => Some(Frames::Compact),
                    "paired" => Some(Frames::Paired),
                    "cached" => Some(Frames::Cached),
                    _ => None,
                });
            }
            other => panic!("unknown option {other}"),
        }
    }
    settings
}

/// The items of the N×N board at `depth` placed rows, as (columns, left and right diagonals as
/// the next row sees them, mirror weight): the first queen on the left half, or on the middle
/// column of an odd board.
fn items(n: u32, depth: u32) -> Vec<[u32; 4]> {
    fn extend(
        n: u32,
        row: u32,
        depth: u32,
        (cols, left, right): (u32, u32, u32),
        weight: u32,
        out: &mut Vec<[u32; 4]>,
    ) {
        if row == depth {
            out.push([cols, left, right, weight]);
            return;
        }
        let full = (1u32 << n) - 1;
        let mut free = full & !(cols | left | right);
        while free != 0 {
            let queen = free & free.wrapping_neg();
            free ^= queen;
            let next = (cols | queen, (left | queen) << 1, (right | queen) >> 1);
            extend(n, row + 1, depth, next, weight, out);
        }
    }
    let mut out = Vec::new();
    for column in 0..n.div_ceil(2) {
        let weight = if n % 2 == 1 && column == n / 2 { 1 } else { 2 };
        let queen = 1u32 << column;
        extend(
            n,
            1,
            depth,
            (queen, queen << 1, queen >> 1),
            weight,
            &mut out,
        );
    }
    out
}

/// The loop's source for the N×N board launched as `launch`, with `step` at the end of each
/// iteration.
fn source(n: u32, launch: Launch, step: &str) -> String {
    let frame = launch.frame.wgsl_type();
    let rows = launch.frame.rows(launch.frames);
    let (declaration, sharing, lane) = match launch.stack {
        StackMemory::Workgroup => (
            format!("var<workgroup> stack: array<{frame}, {rows}u * STRIDE>;"),
            launch.workgroup,
            "local",
        ),
        StackMemory::Storage => (
            format!("@group(0) @binding(4) var<storage, read_write> stack: array<{frame}>;"),
            launch.invocations,
            "global.x",
        ),
    };
    // A row's frames: one a search of each invocation sharing the stacks.
    let stride = sharing * launch.frame.searches();
    SOURCE
        .replace("{{SEARCHES}}", &launch.frame.searches_source())
        .replace("{{HELPERS}}", launch.frame.helpers())
        .replace("{{STACK}}", &declaration)
        .replace("{{STRIDE}}", &stride.to_string())
        .replace("{{LANE}}", lane)
        .replace("{{N}}", &n.to_string())
        .replace("{{FULL}}", &((1u32 << n) - 1).to_string())
        .replace("{{FRAMES}}", &launch.frames.to_string())
        .replace("{{WORKGROUP}}", &launch.workgroup.to_string())
        .replace("{{STEP}}", step)
}

/// One count's figures: the device's seconds, the total, the nodes (zero for `plain`).
struct Run {
    seconds: f64,
    total: u128,
    nodes: u128,
    /// The most workgroups the device ran at once.
    at_once: u32,
}

struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    limits: wgpu::Limits,
    /// The most items an invocation takes a dispatch (see `reference_loop.wgsl`).
    most: u32,
}

impl Gpu {
    fn open(selection: Selection) -> (Gpu, String) {
        let (adapter, info, _) = match Adapters::probe().choose(selection) {
            Ok(chosen) => chosen,
            Err(error) => {
                eprintln!("{error}");
                std::process::exit(2);
            }
        };
        let limits = adapter.limits();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("reference loop"),
            required_limits: limits.clone(),
            ..Default::default()
        }))
        .expect("the device opens");
        let most = if info.kind.is_hardware() { u32::MAX } else { 1 };
        let gpu = Gpu {
            device,
            queue,
            limits,
            most,
        };
        (gpu, info.line())
    }

    /// The loop's pipeline, built without runtime checks.
    fn pipeline(&self, source: &str) -> wgpu::ComputePipeline {
        let device = &self.device;
        #[allow(unsafe_code)]
        // SAFETY: reference_loop.wgsl's header proves every index in range and each loop finite.
        let module = unsafe {
            device.create_shader_module_trusted(
                wgpu::ShaderModuleDescriptor {
                    label: Some("reference loop"),
                    source: wgpu::ShaderSource::Wgsl(source.into()),
                },
                wgpu::ShaderRuntimeChecks::unchecked(),
            )
        };
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("reference loop"),
            layout: None,
            module: &module,
            entry_point: Some("count"),
            compilation_options: wgpu::PipelineCompilationOptions {
                zero_initialize_workgroup_memory: false,
                ..wgpu::PipelineCompilationOptions::default()
            },
            cache: None,
        })
    }

    /// Searches `items` with the loop `source` launched as `launch`, in dispatches until every
    /// item is taken (one on a hardware GPU).
    fn run(&self, source: &str, items: &[[u32; 4]], launch: Launch) -> Run {
        let device = &self.device;
        let pipeline = self.pipeline(source);
        let buffers = Buffers::new(device, items, self.most, launch);
        let mut entries = vec![
            entry(0, &buffers.params),
            entry(1, &buffers.items),
            entry(2, &buffers.sums),
            entry(3, &buffers.counters),
        ];
        if let Some(stack) = &buffers.stack {
            entries.push(entry(4, stack));
        }
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("reference loop"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("the uploads land");
        let started = Instant::now();
        // The counters carry from dispatch to dispatch: the last read's most at once is the
        // count's.
        let at_once = loop {
            let mut encoder =
                device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
            {
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &bind_group, &[]);
                pass.dispatch_workgroups(launch.invocations / launch.workgroup, 1, 1);
            }
            let (counters, readback) = (&buffers.counters, &buffers.counters_readback);
            encoder.copy_buffer_to_buffer(counters, 0, readback, 0, COUNTERS_BYTES);
            self.queue.submit([encoder.finish()]);
            let counters = read(device, readback);
            if counters[0] as usize >= items.len() {
                break counters[2];
            }
        };
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let sums_size = buffers.sums.size();
        encoder.copy_buffer_to_buffer(&buffers.sums, 0, &buffers.readback, 0, sums_size);
        self.queue.submit([encoder.finish()]);
        let words = read(device, &buffers.readback);
        let seconds = started.elapsed().as_secs_f64();
        let pair = |low: u32, high: u32| u128::from(low) | (u128::from(high) << 32);
        let (total, nodes) = words.chunks(4).fold((0, 0), |(total, nodes), sum| {
            (total + pair(sum[0], sum[1]), nodes + pair(sum[2], sum[3]))
        });
        Run {
            seconds,
            total,
            nodes,
            at_once,
        }
    }
}

/// The bytes of the loop's counters: the next item, the workgroups running, the most at once.
const COUNTERS_BYTES: u64 = 12;

/// How a count is launched: where its stacks are, their frames, and its invocations.
#[derive(Clone, Copy)]
struct Launch {
    stack: StackMemory,
    frame: Frames,
    frames: u32,
    workgroup: u32,
    invocations: u32,
}

/// A count's buffers on the device.
struct Buffers {
    params: wgpu::Buffer,
    items: wgpu::Buffer,
    sums: wgpu::Buffer,
    /// The next item, the workgroups running and the most at once (`reference_loop.wgsl`).
    counters: wgpu::Buffer,
    /// The stacks, where they are in a storage buffer.
    stack: Option<wgpu::Buffer>,
    counters_readback: wgpu::Buffer,
    readback: wgpu::Buffer,
}

impl Buffers {
    fn new(device: &wgpu::Device, items: &[[u32; 4]], most: u32, launch: Launch) -> Self {
        let storage = wgpu::BufferUsages::STORAGE;
        let init = |label: &str, contents: &[u8], usage: wgpu::BufferUsages| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
        };
        let empty = |label: &str, size: u64, usage: wgpu::BufferUsages| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        let sums_size = u64::from(launch.invocations) * 16;
        let read = wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST;
        Buffers {
            params: init(
                "params",
                bytemuck::cast_slice(&[items.len() as u32, most, u32::MAX, 0]),
                wgpu::BufferUsages::UNIFORM,
            ),
            items: init("items", bytemuck::cast_slice(items), storage),
            sums: init(
                "sums",
                &vec![0; sums_size as usize],
                storage | wgpu::BufferUsages::COPY_SRC,
            ),
            counters: init(
                "counters",
                &[0; COUNTERS_BYTES as usize],
                storage | wgpu::BufferUsages::COPY_SRC,
            ),
            stack: (launch.stack == StackMemory::Storage).then(|| {
                let size = u64::from(launch.frame.rows(launch.frames))
                    * u64::from(launch.invocations)
                    * u64::from(launch.frame.bytes());
                empty("stacks", size, storage)
            }),
            counters_readback: empty("counters readback", COUNTERS_BYTES, read),
            readback: empty("sums readback", sums_size, read),
        }
    }
}

/// The words of `buffer`, once the work submitted before has ended.
fn read(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Vec<u32> {
    buffer.map_async(wgpu::MapMode::Read, .., |result| {
        result.expect("the buffer maps");
    });
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("the work ends");
    let words = bytemuck::pod_collect_to_vec(&buffer.get_mapped_range(..).expect("mapped"));
    buffer.unmap();
    words
}

fn entry(binding: u32, buffer: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: buffer.as_entire_binding(),
    }
}

fn main() {
    let settings = settings();
    for info in Adapters::probe().list() {
        println!("# {}  [{}]", info.line(), info.driver);
    }
    let selection = settings.device.map_or(Selection::Default, Selection::from);
    let (gpu, line) = Gpu::open(selection);
    println!("# on {line}");
    println!(
        "| N | depth | form | stack, frames | workgroup | invocations | workgroups at once | items | cut (s) | seconds | nodes | nodes/s | total |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut wrong = 0;
    for &n in &settings.sizes {
        // Items fix at least one row and leave at least two (a stacked row above the last).
        assert!((4..=31).contains(&n), "--n takes sizes from 4 to 31");
        for &depth in &settings.depths {
            wrong += board(&gpu, &settings, n, depth.clamp(1, n - 2));
        }
    }
    if wrong > 0 {
        eprintln!("{wrong} counts differ from the published ones");
        std::process::exit(1);
    }
}

/// The invocations a workgroup where none are asked for: up to 256, as many as the device
/// allows and (for stacks in workgroup memory) as `fits` there, in whole warps of 32.
fn default_workgroup(gpu: &Gpu, stack: StackMemory, fits: u32) -> u32 {
    let most = gpu.limits.max_compute_invocations_per_workgroup.min(256);
    let most = if stack == StackMemory::Workgroup {
        most.min(fits)
    } else {
        most
    };
    if most >= 32 { most / 32 * 32 } else { most }
}

/// Counts the N×N board with items of `depth` rows in every setting, a row each; the counts
/// that differ from the published ones.
fn board(gpu: &Gpu, settings: &Settings, n: u32, depth: u32) -> usize {
    let cut = Instant::now();
    let items = items(n, depth);
    let cut = cut.elapsed().as_secs_f64();
    let frames = n - 1 - depth;
    let memory = gpu.limits.max_compute_workgroup_storage_size;
    let mut wrong = 0;
    // Nodes of this N and depth by frames, from a counted form, for the plain form's rate.
    let mut known_nodes: [Option<u128>; 2] = [None; 2];
    let layouts = settings
        .stacks
        .iter()
        .flat_map(|&stack| settings.frames.iter().map(move |&frame| (stack, frame)));
    for (stack, frame) in layouts {
        if !frame.is_exact(n, frames) {
            println!(
                "| {n} | {depth} | - | {}, {} | - | - | - | - | - | - | - | - | compact frames count \
                 exactly up to N + frames = 34, here {} |",
                stack.name(),
                frame.name(),
                n + frames
            );
            continue;
        }
        let known_nodes = &mut known_nodes[usize::from(frame == Frames::Compact)];
        for &workgroup in &settings.workgroups {
            let fits = memory / (frame.rows(frames) * frame.bytes());
            let workgroup = workgroup.unwrap_or_else(|| default_workgroup(gpu, stack, fits));
            let label = format!("| {n} | {depth} |");
            if stack == StackMemory::Workgroup && workgroup > fits {
                println!(
                    "{label} - | workgroup | {workgroup} | - | - | - | - | - | - | - | {} rows of \
                     {} bytes an invocation for {workgroup} invocations pass the device's {memory} bytes |",
                    frame.rows(frames),
                    frame.bytes(),
                );
                continue;
            }
            for &invocations in &settings.invocations {
                let invocations = invocations.div_ceil(workgroup) * workgroup;
                let launch = Launch {
                    stack,
                    frame,
                    frames,
                    workgroup,
                    invocations,
                };
                for &form in &settings.forms {
                    let step = FORMS
                        .iter()
                        .find(|(name, _)| *name == form)
                        .map_or("", |(_, step)| step);
                    let text = source(n, launch, step);
                    let run = gpu.run(&text, &items, launch);
                    if form != "plain" {
                        *known_nodes = Some(run.nodes);
                    }
                    let nodes = if form == "plain" {
                        *known_nodes
                    } else {
                        Some(run.nodes)
                    };
                    let verdict = match queens_exact::count::integrity::published(n) {
                        Some((published, _)) if published == run.total => "as published",
                        Some(_) => {
                            wrong += 1;
                            "WRONG"
                        }
                        None => "unpublished",
                    };
                    let (nodes, rate) = nodes.map_or_else(
                        || ("-".to_owned(), "-".to_owned()),
                        |nodes| {
                            let rate = format!("{:.3e}", nodes as f64 / run.seconds);
                            (nodes.to_string(), rate)
                        },
                    );
                    println!(
                        "{label} {form} | {}, {} | {workgroup} | {invocations} | {} of {} | {} | {cut:.3} | {:.3} | {nodes} | {rate} | {} ({verdict}) |",
                        stack.name(),
                        frame.name(),
                        run.at_once,
                        launch.invocations / workgroup,
                        items.len(),
                        run.seconds,
                        run.total,
                    );
                }
            }
        }
    }
    wrong
}
