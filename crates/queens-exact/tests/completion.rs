//! n-Queens Completion instances of CSPLib problem 079 (`data/completion`), every prefix of
//! their excluded diagonals decided by the exhaustive solvers and the completion search as the
//! paper published it.

use std::path::Path;

use queens_core::instance::Instance;
use queens_core::solve::run_unobserved;
use queens_core::{Budget, Verdict};
use queens_exact::{backtracking, completion, forward_checking};

#[test]
fn every_prefix_of_the_instances_is_decided_as_published() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/completion");
    let published = std::fs::read_to_string(dir.join("published.txt")).unwrap();
    let mut decided = 0;
    for line in published.lines().filter(|line| !line.starts_with('#')) {
        let fields: Vec<usize> = line
            .split_whitespace()
            .map(|field| field.parse().unwrap())
            .collect();
        let [n, id, diagonals, satisfiable] = fields[..] else {
            panic!("a line of four numbers: {line}");
        };
        let text = std::fs::read_to_string(dir.join(format!("diag-{n}-4-{id}.param"))).unwrap();
        let problem = Instance::parse(&text)
            .and_then(|instance| instance.with_diagonals(Some(diagonals)))
            .and_then(|instance| instance.problem())
            .unwrap();
        for solver in [
            &forward_checking::DESCRIPTOR,
            &backtracking::DESCRIPTOR,
            &completion::DESCRIPTOR,
        ] {
            let outcome = run_unobserved(
                solver.build_default().as_mut(),
                &problem,
                &mut Budget::unlimited(),
            )
            .unwrap();
            let solved = match outcome.verdict {
                Verdict::Solved(_) => 1,
                Verdict::Unsolvable => 0,
                Verdict::Stopped(reason) => panic!("{solver} stopped: {reason:?}"),
            };
            assert_eq!(solved, satisfiable, "{solver}: {line}");
        }
        decided += 1;
    }
    assert_eq!(decided, 70, "every published answer is checked");
}
