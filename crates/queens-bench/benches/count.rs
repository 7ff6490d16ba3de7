//! Benchmarks of the counting kernel and the exhaustive solvers.
//!
//! `cargo bench -p queens-bench` — for the comparison with a C reference program, see
//! `scripts/bench-count.sh`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use queens_core::{Budget, NoObserver, Problem, solve::run};
use queens_exact::count::{CountPlan, count};
use queens_exact::{backtracking, forward_checking};

fn counting(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    for n in [10, 12, 13] {
        group.bench_function(format!("n{n}_all_threads"), |b| {
            b.iter(|| count(black_box(n)).unwrap());
        });
    }
    // One thread, no scheduling: the kernel alone.
    let plan = CountPlan::new(13).unwrap();
    let budget = Budget::unlimited();
    group.bench_function("n13_kernel_one_thread", |b| {
        b.iter(|| {
            (0..plan.subproblems().len())
                .map(|id| plan.count_one(id, &budget).unwrap().total)
                .sum::<u128>()
        });
    });
    group.finish();
}

fn solving(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    let problem = Problem::square(20).unwrap();
    for solver in [&backtracking::DESCRIPTOR, &forward_checking::DESCRIPTOR] {
        group.bench_function(format!("n20_{solver}"), |b| {
            b.iter(|| {
                run(
                    solver.build_default().as_mut(),
                    black_box(&problem),
                    &mut Budget::unlimited(),
                    &mut NoObserver,
                )
                .unwrap()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, counting, solving);
criterion_main!(benches);
