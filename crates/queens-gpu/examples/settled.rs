//! How much of a count the kernel's form for settled items takes: each corner and edge part
//! of the N×N count counted by the CPU kernel, its nodes summed by whether its items are
//! settled at the default depth ([`queens_gpu::items::settled`]).
//!
//! ```text
//! cargo run --release -p queens-gpu --example settled -- [N]
//! ```

use queens_core::Budget;
use queens_exact::count::{Case, CountPlan, Engine};
use queens_gpu::items::{default_depth, settled};

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .map_or(16, |text| text.parse().expect("N is a number from 4 to 32"));
    let plan = CountPlan::with_engine(n, Engine::Gpu).expect("N from 4 to 32");
    let depth = default_depth(n);
    let budget = Budget::unlimited();
    let (mut settled_nodes, mut other_nodes) = (0u128, 0u128);
    for (id, sub) in plan.subproblems().iter().enumerate() {
        if !matches!(sub.case, Case::Corner { .. } | Case::Edge { .. }) {
            continue;
        }
        let nodes = plan.count_one(id, &budget).expect("not stopped").nodes;
        if settled(n, sub, depth) {
            settled_nodes += nodes;
        } else {
            other_nodes += nodes;
        }
    }
    let all = settled_nodes + other_nodes;
    println!(
        "N = {n}, {depth} rows an item: settled parts {settled_nodes} of {all} corner and edge \
         nodes ({:.1} %), the others {other_nodes}",
        100.0 * settled_nodes as f64 / all as f64
    );
}
