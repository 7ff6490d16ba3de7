//! Measures the time of one unit of work (an iteration or a node) of every solver at a few
//! sizes, beside the descriptor's estimate: `cargo run --release -p queens-api --example
//! unit_cost`. The estimates bound what a server lets one experiment cost.

use std::time::Instant;

use queens_api::Catalogue;
use queens_core::{Budget, Problem, solve::run_unobserved};

fn main() {
    println!(
        "{:<30} {:>5} {:>12} {:>12} {:>7}",
        "solver", "n", "measured ns", "estimate ns", "ratio"
    );
    for solver in Catalogue::standard().solvers() {
        for n in [6u32, 8, 16, 32, 64, 128] {
            if solver.practical_max_n.is_some_and(|max| n > max) {
                continue;
            }
            let problem = Problem::square(n).unwrap();
            let params = solver.defaults();
            let (mut units, mut nanos) = (0u64, 0u128);
            let started = Instant::now();
            let mut seed = 0;
            while started.elapsed().as_millis() < 300 {
                let mut budget = Budget::unlimited()
                    .with_max_iterations(20_000)
                    .with_max_nodes(2_000_000);
                let begun = Instant::now();
                let outcome =
                    run_unobserved(solver.build(seed, &params).as_mut(), &problem, &mut budget)
                        .unwrap();
                nanos += begun.elapsed().as_nanos();
                units += outcome
                    .stats
                    .iterations
                    .or(outcome.stats.nodes)
                    .unwrap_or(0)
                    .max(1);
                seed += 1;
            }
            let measured = nanos as f64 / units as f64;
            let estimate = (solver.unit_cost)(&problem, &params);
            println!(
                "{:<30} {:>5} {:>12.1} {:>12.1} {:>7.2}",
                solver.name,
                n,
                measured,
                estimate,
                measured / estimate
            );
        }
    }
}
