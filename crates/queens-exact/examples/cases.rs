//! Nodes per case of an N×N count (diagnostic): `cargo run --release -p queens-exact --example cases -- 16`.
use queens_core::Budget;
use std::collections::BTreeMap;

use queens_exact::count::{Case, CountPlan};

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(14);
    let plan = CountPlan::new(n).expect("N in range");
    let budget = Budget::unlimited();
    let mut by_case: BTreeMap<String, (u128, u128)> = BTreeMap::new();
    for (id, sub) in plan.subproblems().iter().enumerate() {
        let tally = plan.count_one(id, &budget).expect("not cancelled");
        let key = match sub.case {
            Case::Corner { .. } => "corner".to_owned(),
            Case::Edge { b } => format!("edge b={b}"),
            Case::Single => "single".to_owned(),
            Case::Turn(turn) => format!("{turn:?} turn"),
        };
        let entry = by_case.entry(key).or_default();
        entry.0 += tally.nodes;
        entry.1 += tally.total;
    }
    for (case, (nodes, total)) in by_case {
        println!("{case:>10}: {nodes:>12} nodes, {total:>10} solutions");
    }
}
