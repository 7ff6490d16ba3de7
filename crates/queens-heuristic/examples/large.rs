//! Times min-conflicts on one large board: `cargo run --release -p queens-heuristic --example large -- 10000000 [seed]`.

use queens_core::{Budget, Problem, solve::run_unobserved};
use queens_heuristic::MinConflicts;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u32 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let problem = Problem::square(n).expect("a valid size");
    let outcome = run_unobserved(
        &mut MinConflicts::new(seed),
        &problem,
        &mut Budget::unlimited(),
    )
    .expect("min-conflicts handles square boards");
    println!(
        "N={n} {} iterations={:?} {:.3}s",
        outcome.verdict.status(),
        outcome.stats.iterations,
        outcome.stats.elapsed.as_secs_f64()
    );
}
