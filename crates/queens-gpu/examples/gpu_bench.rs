//! The GPU engine's figures as they stand: for each N and each setting (item depth, workgroup
//! size, invocations a dispatch, runtime checks), the time of a whole count, checked against the
//! published count, with its rates in items (the GPU's subproblems) and nodes per second and the
//! share of the GPU's integer throughput those nodes stand for.
//!
//! ```text
//! cargo run --release -p queens-gpu --example gpu_bench -- [--device I|ADDRESS] [--n 16..22]
//!     [--depth 6,7] [--workgroup 64,128] [--stack trial,workgroup,storage] [--trial-rounds R]
//!     [--invocations 16,17] [--checked no,yes] [--top trial,stack,registers] [--target-ms 100,300]
//!     [--peak-tops T]
//! ```
//!
//! `--invocations` takes powers of two (17: 2¹⁷ invocations a dispatch), `--workgroup` sizes (the
//! default: as many as the device's workgroup memory holds), `--stack` where the stacks are:
//! `trial` (the engine's default: both placements timed in the count's first dispatches and the
//! faster kept; the workgroup column says which, with both rates), `workgroup` memory or a
//! `storage` buffer (the column then says so), `--trial-rounds` the dispatches each placement
//! runs in a trial (by default three on a GPU and none on a software adapter, which then keeps
//! its stacks in workgroup memory), `--checked yes` keeps wgpu's runtime checks in the kernel,
//! `--top` where the loop reads a step's frame: `trial` (the engine's default: from the stack and
//! from registers, each timed in the trial with the stacks' placements where a trial runs),
//! `stack`, or `registers` (the top frame kept in registers and the frame below loaded ahead,
//! `TopFrame::Registers`), `--target-ms` the time a dispatch is tuned towards; each list is tried
//! in every combination with the others. The column "workgroups at once" gives, for each
//! placement that ran, the most workgroups the device ran at once of those a dispatch launched
//! (`DispatchStats::residency`): below them, what the device holds.
//!
//! `scripts/gpu-bench.sh` runs it. The share of integer throughput takes about
//! [`OPS_PER_NODE`] 32-bit integer operations a node (counted in the kernel's inner loop) against
//! the GPU's peak, from a table of known GPUs or `--peak-tops` (tera-operations a second).

use std::sync::Arc;
use std::time::{Duration, Instant};

use queens_core::Budget;
use queens_exact::count::estimate::estimate_nodes;
use queens_exact::count::{CountJob, CountPlan, Engine, Tally};
use queens_gpu::{Adapters, GpuCounter, GpuOptions, Selection, StackMemory, TopFrame};

mod bench_args;
use bench_args::{list, sizes};

/// 32-bit integer operations a node costs in the kernel's loop: the 57 a step that the
/// `kernel_ops` example counts in `count.wgsl`'s form for settled items (the loop's test and
/// step count, the lowest untried bit and the pop, the three next masks and the child's row,
/// the side columns' deadline with its tie shift and the free squares, the child row's queens
/// whose paths end on the next row with their count, the last two rows' test, and the push),
/// over the 1.55 nodes a step places (a step counts as nodes the child row's queens whose
/// paths end on the next row, and the penultimate row's queens with their completions: N = 15
/// has 37,754,829 nodes in 24,377,732 steps). The form with every rule (64, for the parts that
/// are not settled, under a tenth of the nodes to N = 18) and the last two rows' branch (22
/// more, on 1.7 % of a lane's steps) are left out, as are its one load and two stores of
/// workgroup memory a step, so the share of the peak printed is a floor. Tables measured
/// before the stack-top loop counted 75 (the loop that kept the current row in registers, 73
/// by `kernel_ops`), and before that 60; the stack-top loop counted 54 before the deadline row
/// lost a redundant `and`, 53 before the rules' test of the side queens set the tie shifts, 50
/// before the weighing went into a branch, 41 before settled items had a form of their own, 36
/// before the completion and the push shared their test, 35 before the last two rows left the
/// stack, 33 before a child row whose queens all ended there was counted without a frame, 42
/// before each such queen was counted alone, and 39 before the last two rows' completions came
/// from that same test.
const OPS_PER_NODE: f64 = 37.0;

/// Peak 32-bit integer operations a second of known GPUs (SMs × INT32 lanes × boost clock).
const KNOWN_PEAKS: [(&str, f64); 6] = [
    ("H100", 132.0 * 64.0 * 1.98e9),
    ("H200", 132.0 * 64.0 * 1.98e9),
    ("H800", 132.0 * 64.0 * 1.98e9),
    ("A100", 108.0 * 64.0 * 1.41e9),
    ("RTX 5090", 170.0 * 128.0 * 2.41e9),
    ("RTX 4090", 128.0 * 64.0 * 2.52e9),
];

struct Settings {
    device: Option<queens_gpu::DeviceId>,
    sizes: Vec<u32>,
    depths: Vec<Option<usize>>,
    workgroups: Vec<Option<u32>>,
    /// `None`: the engine's trial of both.
    stacks: Vec<Option<StackMemory>>,
    trial_rounds: Option<u32>,
    invocations: Vec<Option<u32>>,
    checked: Vec<bool>,
    /// `None`: the engine's trial of both (with the stacks' placements).
    tops: Vec<Option<TopFrame>>,
    targets: Vec<Duration>,
    peak: Option<f64>,
}

fn settings() -> Settings {
    let mut settings = Settings {
        device: None,
        sizes: (16..=22).collect(),
        depths: vec![None],
        workgroups: vec![None],
        stacks: vec![None],
        trial_rounds: None,
        invocations: vec![None],
        checked: vec![false],
        tops: vec![None],
        targets: vec![GpuOptions::default().dispatch_target],
        peak: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).map_or("", String::as_str);
        match pair[0].as_str() {
            "--device" => settings.device = Some(value.parse().expect("--device I or ADDRESS")),
            "--n" => settings.sizes = sizes(value),
            "--depth" => settings.depths = list(value, |d| d.parse().ok().map(Some)),
            "--workgroup" => settings.workgroups = list(value, |w| w.parse().ok().map(Some)),
            "--stack" => {
                settings.stacks = list(value, |name| match name {
                    "trial" => Some(None),
                    name => StackMemory::from_name(name).map(Some),
                });
            }
            "--trial-rounds" => {
                settings.trial_rounds = Some(value.parse().expect("--trial-rounds R"));
            }
            "--invocations" => {
                settings.invocations = list(value, |p| p.parse::<u32>().ok().map(|p| Some(1 << p)));
            }
            "--checked" => {
                settings.checked = list(value, |c| match c {
                    "no" => Some(false),
                    "yes" => Some(true),
                    _ => None,
                });
            }
            "--top" => {
                settings.tops = list(value, |name| match name {
                    "trial" => Some(None),
                    name => TopFrame::from_name(name).map(Some),
                });
            }
            "--target-ms" => {
                settings.targets = list(value, |ms| ms.parse().ok().map(Duration::from_millis));
            }
            "--peak-tops" => {
                settings.peak = Some(value.parse::<f64>().expect("--peak-tops T") * 1e12);
            }
            other => panic!("unknown option {other}"),
        }
    }
    settings
}

fn main() {
    let settings = settings();
    let adapters = Adapters::probe().list();
    for info in &adapters {
        println!("# {}  [{}]", info.line(), info.driver);
    }
    let selection = settings.device.map_or(Selection::Default, Selection::from);
    let peak = settings.peak.or_else(|| known_peak(&adapters, selection));
    println!(
        "| N | depth | workgroup | workgroups at once | checked | top frame | invocations | target | seconds | items | items/s | nodes/s | share of int32 peak | dispatches (longest, share of the time, idle between, start-up) | total |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    // (N, nodes a second) of the first setting of each N, for the projection.
    let mut rates: Vec<(u32, f64)> = Vec::new();
    for &n in &settings.sizes {
        for &depth in &settings.depths {
            for &workgroup in &settings.workgroups {
                let (invocations_list, targets) = (&settings.invocations, &settings.targets);
                let tops = &settings.tops;
                let combinations = settings.stacks.iter().flat_map(|&stack| {
                    settings.checked.iter().flat_map(move |&checked| {
                        tops.iter().flat_map(move |&top| {
                            invocations_list.iter().flat_map(move |&invocations| {
                                targets.iter().map(move |&target| {
                                    (stack, (checked, top), invocations, target)
                                })
                            })
                        })
                    })
                });
                for (stack, (checked, top_frame), invocations, target) in combinations {
                    let options = GpuOptions {
                        depth,
                        workgroup,
                        stack,
                        trial_rounds: settings.trial_rounds,
                        invocations,
                        checked,
                        top_frame,
                        dispatch_target: target,
                        ..GpuOptions::default()
                    };
                    let (tally, seconds, stats) = count(selection, options, n);
                    if rates.last().is_none_or(|&(last, _)| last != n) {
                        rates.push((n, tally.nodes as f64 / seconds));
                    }
                    let verdict = match queens_exact::count::integrity::published(n) {
                        Some((published, _)) if published == tally.total => "as published",
                        Some(_) => "WRONG",
                        None => "unpublished",
                    };
                    let nodes_per_second = tally.nodes as f64 / seconds;
                    let items = stats.items;
                    // The rows items fix, and "+1" where the last parts were cut a row finer.
                    let depth = stats.cut.map_or_else(
                        || "-".to_owned(),
                        |cut| {
                            let finer = if cut.has_finer_tail() { "+1" } else { "" };
                            format!("{}{finer}", cut.depth)
                        },
                    );
                    let share = peak.map_or_else(
                        || "unknown GPU: pass --peak-tops".to_owned(),
                        |peak| format!("{:.1} %", 100.0 * nodes_per_second * OPS_PER_NODE / peak),
                    );
                    let size = workgroup.map_or_else(|| "auto".to_owned(), |w| w.to_string());
                    let workgroup = match stack {
                        _ if stats.trial.is_some() => placements(&stats),
                        Some(StackMemory::Storage) => format!("{size} (storage)"),
                        Some(StackMemory::Workgroup) => size,
                        None => placements(&stats),
                    };
                    println!(
                        "| {n} | {depth} | {workgroup} | {} | {} | {} | {} | {} ms | {seconds:.3} | {items} | {:.3e} | {nodes_per_second:.3e} | {share} | {} ({:.0} ms, {:.0} %, {:.2} %, {:.0} ms) | {} ({verdict}), {} unique |",
                        residency(&stats),
                        if checked { "yes" } else { "no" },
                        top_frame.map_or("trial", TopFrame::name),
                        invocations.map_or_else(|| "default".to_owned(), |r| r.to_string()),
                        target.as_millis(),
                        items as f64 / seconds,
                        stats.count,
                        stats.longest * 1e3,
                        100.0 * stats.total / seconds,
                        100.0 * stats.idle / seconds,
                        stats.start_up * 1e3,
                        tally.total,
                        tally.unique(),
                    );
                }
            }
        }
    }
    project(&rates);
}

/// The last call's trial of the stacks' placements: the one kept, and each placement timed with
/// the median steps a second of its timed dispatches, fastest first.
fn placements(stats: &queens_gpu::DispatchStats) -> String {
    match (&stats.trial, stats.placement) {
        (Some(trial), _) => {
            let rates: Vec<String> = trial
                .rates
                .iter()
                .map(|(placement, rate)| format!("{}: {rate:.3e}", placement.name()))
                .collect();
            format!("{} kept (steps/s: {})", trial.kept.name(), rates.join("; "))
        }
        (None, Some(placement)) => format!("{} (no trial, or none finished)", placement.name()),
        (None, None) => "-".to_owned(),
    }
}

/// For each placement the last call ran in, the most of its workgroups the device ran at once,
/// of those a dispatch launched, and the invocations they hold: where fewer ran than were
/// launched, what the device holds of them (on a GPU, what its multiprocessors hold together).
fn residency(stats: &queens_gpu::DispatchStats) -> String {
    let each: Vec<String> = stats
        .residency
        .iter()
        .map(|(placement, residency)| {
            format!(
                "{}: {} of {} ({} invocations)",
                placement.name(),
                residency.at_once,
                residency.launched,
                u64::from(residency.at_once) * u64::from(placement.workgroup),
            )
        })
        .collect();
    if each.is_empty() {
        "-".to_owned()
    } else {
        // Semicolons between placements, whose names may hold commas.
        each.join("; ")
    }
}

/// One count of the N×N board on the adapter `selection` with `options`: its tally, its
/// seconds and its dispatches.
fn count(
    selection: Selection,
    options: GpuOptions,
    n: u32,
) -> (Tally, f64, queens_gpu::DispatchStats) {
    let counter = match GpuCounter::open(selection, options) {
        Ok(counter) => Arc::new(counter),
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(2);
        }
    };
    let plan = CountPlan::with_engine(n, Engine::Gpu).expect("N from 1 to 32");
    let started = Instant::now();
    let result = CountJob::new(plan)
        .with_counter(counter.clone())
        .run(&Budget::unlimited(), |_, _| {})
        .expect("the count runs");
    let seconds = started.elapsed().as_secs_f64();
    (result.tally, seconds, counter.dispatch_stats())
}

/// The peak integer throughput of the selected adapter, if it is a GPU of the table.
fn known_peak(adapters: &[queens_gpu::DeviceInfo], selection: Selection) -> Option<f64> {
    let (index, _) = queens_gpu::devices::pick(
        adapters,
        selection,
        queens_gpu::assigned::Assignment::from_environment(),
    )
    .ok()?;
    let name = &adapters[index].name;
    KNOWN_PEAKS
        .iter()
        .find(|(known, _)| name.contains(known))
        .map(|&(_, peak)| peak)
}

/// N = 26, 27 and 28 on one and eight such GPUs at the nodes a second of the largest N
/// measured, their nodes estimated by random probes (`queens count N --plan`'s estimate; eight
/// GPUs taking an eighth: the shards are independent).
fn project(rates: &[(u32, f64)]) {
    let Some(&(measured, rate)) = rates.last() else {
        return;
    };
    println!();
    println!("Projection at N = {measured}'s {rate:.3e} nodes a second:");
    println!();
    println!("| N | nodes (estimated) | one GPU | eight GPUs |");
    println!("|---|---|---|---|");
    for n in 26..=28u32 {
        let plan = CountPlan::with_engine(n, Engine::Gpu).expect("N from 1 to 32");
        let Some(estimate) = estimate_nodes(&plan, 16, u64::from(n)) else {
            return;
        };
        let one = estimate.nodes as f64 / rate;
        println!(
            "| {n} | {:.3e} | {} | {} |",
            estimate.nodes as f64,
            days(one),
            days(one / 8.0)
        );
    }
}

fn days(seconds: f64) -> String {
    if seconds < 86_400.0 {
        format!("{:.1} h", seconds / 3600.0)
    } else {
        format!("{:.1} days", seconds / 86_400.0)
    }
}
