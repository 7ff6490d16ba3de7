//! Success rates of the local-search family: `cargo run --release -p queens-heuristic --example family -- 8 400`.

use queens_core::{Budget, Problem, solve::run_unobserved};
use queens_heuristic::{LocalSearch, LocalSearchKind, LocalSearchParams};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(8);
    let runs: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let problem = Problem::square(n).expect("a valid size");
    for kind in LocalSearchKind::ALL {
        let started = std::time::Instant::now();
        let solved = (0..runs)
            .filter(|&seed| {
                let mut solver = LocalSearch::new(kind, seed, LocalSearchParams::default());
                let outcome = run_unobserved(
                    &mut solver,
                    &problem,
                    &mut Budget::unlimited().with_max_iterations(1000),
                )
                .expect("square boards are supported");
                outcome.solution().is_some()
            })
            .count();
        println!(
            "{kind:>30}: {:5.1} % of {runs} ({:.2} ms a run)",
            100.0 * solved as f64 / runs as f64,
            started.elapsed().as_secs_f64() * 1e3 / runs as f64
        );
    }
}
