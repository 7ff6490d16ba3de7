//! How evenly a count's items keep a device's invocations busy, without a device: each item's
//! nodes counted exactly on the CPU, then handed out in queue order to `P` invocations that
//! each take the next item when they finish one (as the kernel's do). Printed: the share of
//! the invocations' time spent searching before the last item ends, for the split at the
//! default depth in order and for the engine's cut ([`queens_gpu::items::cut`]: deeper where
//! items are few, the last parts a row finer), each beside the same items taken largest first,
//! as if their sizes were known beforehand (a greedy order close to the best); and, for any N,
//! how many items a shard gives.
//!
//! ```text
//! cargo run --release -p queens-gpu --example schedule -- N [INVOCATIONS] [SHARD I/M]
//! ```
//!
//! With a shard (`0/98043`), only the items are counted (any N up to 32): how many a shard's
//! parts give at the default depth and at the engine's cut. Without one, the nodes of every
//! item are counted, which takes minutes from N = 18.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use queens_core::Budget;
use queens_exact::count::{CountPlan, Engine, Shard, Subproblem, count_subproblem};
use queens_gpu::items::{Refined, cut, default_depth, item_count, item_prefix, on_cpu, refine};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u32 = args
        .next()
        .and_then(|text| text.parse().ok())
        .expect("N, a number from 4 to 32");
    let invocations: u32 = args.next().map_or(1 << 17, |text| {
        text.parse().expect("invocations, a whole number")
    });
    let plan = CountPlan::with_engine(n, Engine::Gpu).expect("N from 1 to 32");
    let shard: Option<Shard> = args.next().map(|text| text.parse().expect("a shard, I/M"));
    let ids = match shard {
        Some(shard) => plan.shard_ids(shard),
        None => (0..plan.len()).collect(),
    };
    let parts: Vec<&Subproblem> = ids
        .iter()
        .map(|&id| &plan.subproblems()[id])
        .filter(|sub| !on_cpu(n, sub))
        .collect();
    let depth = default_depth(n);
    let engine = cut(n, &parts, depth, invocations, true);
    let count = |depth_at: &dyn Fn(usize) -> usize| -> u64 {
        parts
            .iter()
            .enumerate()
            .map(|(position, sub)| item_count(n, sub, depth_at(position), u64::MAX))
            .sum()
    };
    println!(
        "N = {n}, {} parts, {invocations} invocations: {} items at the default depth {depth}; \
         the engine's cut: depth {}, the last {} parts a row finer, {} items",
        parts.len(),
        count(&|_| depth),
        engine.depth,
        engine.finer_from.map_or(0, |first| parts.len() - first),
        count(&|position| engine.depth_at(position)),
    );
    if shard.is_some() {
        return;
    }
    for (name, depth_at) in [
        (
            "the default depth, in order",
            &(|_| depth) as &dyn Fn(usize) -> usize,
        ),
        ("the engine's cut", &|position| engine.depth_at(position)),
    ] {
        let sizes: Vec<u64> = parts
            .iter()
            .enumerate()
            .flat_map(|(position, sub)| item_nodes(n, sub, depth_at(position)))
            .collect();
        let largest = sizes.iter().copied().max().unwrap_or(0);
        println!(
            "  {name}: {} items, the largest {largest} nodes; busy {:.1} %",
            sizes.len(),
            100.0 * busy_share(&sizes, invocations as usize)
        );
        // The same items largest first, as if each one's size were known before it is taken:
        // what an order by size could give.
        let mut sorted = sizes;
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        println!(
            "    largest first: busy {:.1} %",
            100.0 * busy_share(&sorted, invocations as usize)
        );
    }
}

/// The nodes of each of `sub`'s items at `depth`, as the kernel counts them (the CPU kernel's
/// count of the item as a subproblem of its own), and one step for taking it.
fn item_nodes(n: u32, sub: &Subproblem, depth: usize) -> Vec<u64> {
    let Refined::Items { items, .. } = refine(n, sub, depth) else {
        return Vec::new();
    };
    items
        .iter()
        .map(|item| {
            let item = Subproblem {
                case: sub.case,
                prefix: item_prefix(item),
            };
            let tally = count_subproblem(n, &item, &Budget::unlimited()).expect("no budget");
            1 + tally.nodes as u64
        })
        .collect()
}

/// The share of `invocations`' time busy when each takes the next of `sizes` on finishing
/// one: the work over the invocations times the moment the last one finishes.
fn busy_share(sizes: &[u64], invocations: usize) -> f64 {
    let mut ends: BinaryHeap<Reverse<u64>> = (0..invocations).map(|_| Reverse(0)).collect();
    for &size in sizes {
        let Reverse(free_at) = ends.pop().expect("at least one invocation");
        ends.push(Reverse(free_at + size));
    }
    let last = ends.into_iter().map(|Reverse(end)| end).max().unwrap_or(0);
    let work: u64 = sizes.iter().sum();
    work as f64 / (invocations as f64 * last.max(1) as f64)
}
