//! The GPU engine's figures as they stand: for each N and each setting (item depth, workgroup
//! size, where the stack lives), the time of a whole count, checked against the published
//! count, with its rates in items (the GPU's subproblems) and nodes per second and the share of
//! the GPU's integer throughput those nodes stand for.
//!
//! ```text
//! cargo run --release -p queens-gpu --example gpu_bench -- [--device I] [--n 16..22]
//!     [--depth 6,7] [--workgroup 64,128] [--stack private,workgroup] [--records 19,21]
//!     [--target-ms 100,300] [--peak-tops T]
//! ```
//!
//! `--records` takes powers of two (19: 2¹⁹ records a dispatch), `--target-ms` the time a
//! dispatch is tuned towards; each list is tried in every combination with the others.
//!
//! `scripts/gpu-bench.sh` runs it. The share of integer throughput takes about
//! [`OPS_PER_NODE`] 32-bit integer operations a node (counted in the kernel's inner loop) against
//! the GPU's peak, from a table of known GPUs or `--peak-tops` (tera-operations a second).

use std::sync::Arc;
use std::time::{Duration, Instant};

use queens_core::Budget;
use queens_exact::count::{CountJob, CountPlan, Engine};
use queens_gpu::items::{Refined, default_depth, refine};
use queens_gpu::{Adapters, GpuCounter, GpuOptions, Selection, StackMemory};

/// 32-bit integer operations a node costs in the kernel's loop: the step count and its test,
/// the lowest free bit (negate, and), removing it, the node count with its carry (add,
/// compare, select, add), the three next masks (three ors, two shifts), the row test, the
/// stack frame (four stores), the row's free squares (three ors, a not, an and, the allowed
/// columns' two compares, or and select) and the deadline's compare: about 30.
const OPS_PER_NODE: f64 = 30.0;

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
    device: Option<usize>,
    sizes: Vec<u32>,
    depths: Vec<Option<usize>>,
    workgroups: Vec<u32>,
    stacks: Vec<StackMemory>,
    records: Vec<Option<u32>>,
    targets: Vec<Duration>,
    peak: Option<f64>,
}

fn list<T>(text: &str, parse: impl Fn(&str) -> Option<T>) -> Vec<T> {
    text.split(',')
        .map(|part| parse(part.trim()).unwrap_or_else(|| panic!("cannot read {part:?}")))
        .collect()
}

fn settings() -> Settings {
    let mut settings = Settings {
        device: None,
        sizes: (16..=22).collect(),
        depths: vec![None],
        workgroups: vec![64],
        stacks: vec![StackMemory::Private],
        records: vec![None],
        targets: vec![GpuOptions::default().dispatch_target],
        peak: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).map_or("", String::as_str);
        match pair[0].as_str() {
            "--device" => settings.device = Some(value.parse().expect("--device I")),
            "--n" => {
                settings.sizes = match value.split_once("..") {
                    Some((low, high)) => {
                        (low.parse().expect("--n A..B")..=high.parse().expect("--n A..B")).collect()
                    }
                    None => list(value, |n| n.parse().ok()),
                }
            }
            "--depth" => settings.depths = list(value, |d| d.parse().ok().map(Some)),
            "--workgroup" => settings.workgroups = list(value, |w| w.parse().ok()),
            "--stack" => {
                settings.stacks = list(value, |s| match s {
                    "private" => Some(StackMemory::Private),
                    "workgroup" => Some(StackMemory::Workgroup),
                    _ => None,
                });
            }
            "--records" => {
                settings.records = list(value, |p| p.parse::<u32>().ok().map(|p| Some(1 << p)));
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
    let selection = settings
        .device
        .map_or(Selection::FirstHardware, Selection::Index);
    let peak_name = match selection {
        Selection::Index(index) => adapters.get(index).map(|info| info.name.clone()),
        Selection::FirstHardware => adapters
            .iter()
            .find(|info| info.kind.is_hardware())
            .map(|info| info.name.clone()),
    }
    .unwrap_or_default();
    let peak = settings.peak.or_else(|| {
        KNOWN_PEAKS
            .iter()
            .find(|(name, _)| peak_name.contains(name))
            .map(|&(_, peak)| peak)
    });
    println!(
        "| N | depth | workgroup | stack | records | target | seconds | items | items/s | nodes/s | share of int32 peak | dispatches (longest, share of time) | total |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    // (N, seconds) of the first setting, for the projection.
    let mut times: Vec<(u32, f64)> = Vec::new();
    for &n in &settings.sizes {
        for &depth in &settings.depths {
            for &workgroup in &settings.workgroups {
                let (records_list, targets) = (&settings.records, &settings.targets);
                let combinations = settings.stacks.iter().flat_map(|&stack| {
                    records_list.iter().flat_map(move |&records| {
                        targets.iter().map(move |&target| (stack, records, target))
                    })
                });
                for (stack, records, target) in combinations {
                    let options = GpuOptions {
                        depth,
                        workgroup,
                        stack,
                        records,
                        dispatch_target: target,
                        ..GpuOptions::default()
                    };
                    let counter = match GpuCounter::open(selection, options) {
                        Ok(counter) => counter,
                        Err(error) => {
                            eprintln!("{error}");
                            std::process::exit(2);
                        }
                    };
                    let plan = CountPlan::with_engine(n, Engine::Gpu).expect("N from 1 to 32");
                    let depth = depth.unwrap_or_else(|| default_depth(n));
                    let items: usize = plan
                        .subproblems()
                        .iter()
                        .map(|sub| match refine(n, sub, depth) {
                            Refined::Items { items, .. } => items.len(),
                            Refined::OnCpu => 0,
                        })
                        .sum();
                    let counter = Arc::new(counter);
                    let started = Instant::now();
                    let result = CountJob::new(plan)
                        .with_counter(counter.clone())
                        .run(&Budget::unlimited(), |_, _| {})
                        .expect("the count runs");
                    let seconds = started.elapsed().as_secs_f64();
                    if times.last().is_none_or(|&(last, _)| last != n) {
                        times.push((n, seconds));
                    }
                    let tally = result.tally;
                    let verdict = match queens_exact::count::integrity::published(n) {
                        Some((published, _)) if published == tally.total => "as published",
                        Some(_) => "WRONG",
                        None => "unpublished",
                    };
                    let nodes_per_second = tally.nodes as f64 / seconds;
                    let share = peak.map_or_else(
                        || "unknown GPU: pass --peak-tops".to_owned(),
                        |peak| format!("{:.1} %", 100.0 * nodes_per_second * OPS_PER_NODE / peak),
                    );
                    println!(
                        "| {n} | {depth} | {workgroup} | {} | {} | {} ms | {seconds:.3} | {items} | {:.3e} | {nodes_per_second:.3e} | {share} | {} ({:.0} ms, {:.0} %) | {} ({verdict}), {} unique |",
                        stack.name(),
                        records.map_or_else(|| "default".to_owned(), |r| r.to_string()),
                        target.as_millis(),
                        items as f64 / seconds,
                        counter.dispatch_stats().count,
                        counter.dispatch_stats().longest * 1e3,
                        100.0 * counter.dispatch_stats().total / seconds,
                        tally.total,
                        tally.unique(),
                    );
                }
            }
        }
    }
    project(&times);
}

/// N = 26, 27 and 28 on one and eight such GPUs, from the growth per N between the last two
/// sizes measured (eight GPUs taking an eighth: the shards are independent).
fn project(times: &[(u32, f64)]) {
    let [.., (n0, t0), (n1, t1)] = times else {
        return;
    };
    let growth = (t1 / t0).powf(1.0 / f64::from(n1 - n0));
    println!();
    println!("Projection from N = {n0} and {n1} (growth {growth:.2}× per N):");
    println!();
    println!("| N | one GPU | eight GPUs |");
    println!("|---|---|---|");
    for n in 26..=28u32 {
        let one = t1 * growth.powi(n as i32 - *n1 as i32);
        println!("| {n} | {} | {} |", days(one), days(one / 8.0));
    }
}

fn days(seconds: f64) -> String {
    if seconds < 86_400.0 {
        format!("{:.1} h", seconds / 3600.0)
    } else {
        format!("{:.1} days", seconds / 86_400.0)
    }
}
