//! Benchmarks of the configurator: one click's analysis of a position, and its documents (the
//! whole one of `queens configure --json`, and the compact one the page asks for), on the
//! largest board the page configures (200×200) and on 64×64.
//!
//! `cargo bench -p queens-bench --bench configure`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use queens_configurator::{Configurator, Engine, Position};
use queens_core::{Budget, Square};

/// Positions a user reaches in a few clicks: one queen, two, three apart.
fn positions(n: u32) -> Vec<(&'static str, Position)> {
    let queens = |squares: &[(u32, u32)]| {
        Position::new(n, squares.iter().map(|&(row, col)| Square::new(row, col)))
            .expect("the queens are apart")
    };
    vec![
        ("d1", queens(&[(0, 3)])),
        ("d1_e7", queens(&[(0, 3), (6, 4)])),
        ("a1_c2_e3", queens(&[(0, 0), (1, 2), (2, 4)])),
    ]
}

fn analysis(c: &mut Criterion) {
    let configurator = Configurator::new();
    let budget = Budget::unlimited();
    for n in [64, 200] {
        let mut group = c.benchmark_group(format!("configure_{n}"));
        group.sample_size(10);
        for (name, position) in positions(n) {
            group.bench_function(format!("{name}_analysis"), |b| {
                b.iter(|| {
                    configurator
                        .analyse(black_box(&position), Engine::Search, &budget)
                        .unwrap()
                });
            });
            let analysis = configurator
                .analyse(&position, Engine::Search, &budget)
                .unwrap();
            group.bench_function(format!("{name}_document"), |b| {
                b.iter(|| serde_json::to_vec(black_box(&analysis)).unwrap().len());
            });
            group.bench_function(format!("{name}_compact_document"), |b| {
                b.iter(|| {
                    serde_json::to_vec(&black_box(&analysis).compact(&[]))
                        .unwrap()
                        .len()
                });
            });
        }
        group.finish();
    }
}

criterion_group!(benches, analysis);
criterion_main!(benches);
