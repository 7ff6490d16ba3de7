//! How much of a count the kernel's form for settled items takes: each corner and edge part
//! of the N×N count cut into items at the default depth, each item counted by the CPU kernel,
//! and the nodes summed by whether the part is settled ([`queens_gpu::items::settled`]).
//!
//! The settled parts' nodes are also split by what a form for them could leave out: a corner
//! part has no deadline, and an edge item whose fixed rows hold both side queens meets its
//! deadline whatever it places (and its deadline row's queen is off the side columns).
//!
//! ```text
//! cargo run --release -p queens-gpu --example settled -- [N]
//! ```

use queens_core::Budget;
use queens_exact::count::plan::sides_deadline;
use queens_exact::count::{Case, CountPlan, Engine, Subproblem, count_subproblem};
use queens_gpu::items::{Refined, default_depth, item_prefix, refine, settled};

/// The settled parts' nodes by what their items fix, and the other parts' nodes.
#[derive(Default)]
struct Sums {
    corner: u128,
    both_sides: u128,
    one_side: u128,
    no_side: u128,
    unsettled: u128,
}

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .map_or(16, |text| text.parse().expect("N is a number from 4 to 32"));
    let plan = CountPlan::with_engine(n, Engine::Gpu).expect("N from 4 to 32");
    let depth = default_depth(n);
    let budget = Budget::unlimited();
    let mut sums = Sums::default();
    for sub in plan.subproblems() {
        if !matches!(sub.case, Case::Corner { .. } | Case::Edge { .. }) {
            continue;
        }
        let Refined::Items { items, nodes } = refine(n, sub, depth) else {
            continue;
        };
        let is_settled = settled(n, sub, depth);
        let sides = sides_deadline(n, sub.case).map_or(0, |(_, sides)| sides);
        // The extension's queens, placed on the host, count with the part.
        let mut part = [0u128; 3];
        for item in &items {
            let item = Subproblem {
                case: sub.case,
                prefix: item_prefix(item),
            };
            let present = item.masks().0 & sides;
            let tally = count_subproblem(n, &item, &budget).expect("not stopped");
            part[usize::from(present != 0) + usize::from(present == sides)] += tally.nodes;
        }
        let [no_side, one_side, both_sides] = part;
        let all = u128::from(nodes) + no_side + one_side + both_sides;
        match sub.case {
            _ if !is_settled => sums.unsettled += all,
            Case::Corner { .. } => sums.corner += all,
            _ => {
                sums.both_sides += both_sides;
                sums.one_side += one_side;
                sums.no_side += no_side + u128::from(nodes);
            }
        }
    }
    let settled_nodes = sums.corner + sums.both_sides + sums.one_side + sums.no_side;
    let all = settled_nodes + sums.unsettled;
    let share = |nodes: u128| 100.0 * nodes as f64 / all as f64;
    println!(
        "N = {n}, {depth} rows an item: settled parts {settled_nodes} of {all} corner and edge \
         nodes ({:.1} %), the others {}",
        share(settled_nodes),
        sums.unsettled
    );
    println!(
        "  settled corner parts: {} ({:.1} %); settled edge parts' items with both side queens \
         fixed: {} ({:.1} %), one: {} ({:.1} %), none (and the extension's queens): {} ({:.1} %)",
        sums.corner,
        share(sums.corner),
        sums.both_sides,
        share(sums.both_sides),
        sums.one_side,
        share(sums.one_side),
        sums.no_side,
        share(sums.no_side)
    );
}
