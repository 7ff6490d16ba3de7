//! Benchmarks of the counting engines and the exhaustive solvers.
//!
//! `cargo bench -p queens-bench` — for the comparison with a C reference program, see
//! `scripts/bench-count.sh`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use queens_core::{Budget, Problem, solve::run_unobserved};
use queens_exact::count::{CountPlan, Engine, count};
use queens_exact::{backtracking, forward_checking};

fn counting(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    for n in [10, 12, 13] {
        group.bench_function(format!("n{n}_all_threads"), |b| {
            b.iter(|| count(black_box(n)).unwrap());
        });
    }
    group.finish();

    // One thread, no scheduling: each engine alone, the join's quadrant table built anew each
    // time (a plan builds it on first use).
    let mut group = c.benchmark_group("engine_one_thread");
    group.sample_size(10);
    let budget = Budget::unlimited();
    for (engine, n) in [
        (Engine::Backtracking, 13),
        (Engine::Join, 13),
        (Engine::Backtracking, 15),
        (Engine::Join, 15),
        (Engine::Join, 16),
    ] {
        group.bench_function(format!("n{n}_{engine}"), |b| {
            b.iter(|| {
                let plan = CountPlan::with_engine(black_box(n), engine).unwrap();
                (0..plan.len())
                    .map(|id| plan.count_one(id, &budget).unwrap().total)
                    .sum::<u128>()
            });
        });
    }
    group.finish();
}

fn solving(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    let problem = Problem::square(20).unwrap();
    for solver in [&backtracking::DESCRIPTOR, &forward_checking::DESCRIPTOR] {
        group.bench_function(format!("n20_{solver}"), |b| {
            b.iter(|| {
                run_unobserved(
                    solver.build_default().as_mut(),
                    black_box(&problem),
                    &mut Budget::unlimited(),
                )
                .unwrap()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, counting, solving);
criterion_main!(benches);
