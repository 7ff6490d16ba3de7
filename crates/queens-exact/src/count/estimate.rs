//! How many nodes a backtracking (or GPU) count will search, before it runs: Knuth's
//! estimator (1975), on each part of the split.
//!
//! A probe walks from a part's first free row to the last row, choosing each row's queen at
//! random among its free squares (within the case's allowed columns and its side columns'
//! deadline, as the counting kernel does). With `k₁, k₂, …` the free squares met on the way, it
//! estimates the part's nodes as `k₁ + k₁k₂ + k₁k₂k₃ + …`: each level's free squares times the
//! chance of the path that reached them, inverted. The estimate is unbiased; its error shrinks
//! with the probes, and the sum over many parts is far steadier than any one. The nodes are
//! counted as the kernel counts them (the queens placed from the part's first free row to the
//! penultimate, and the last row's completions), so the estimate predicts a count's `nodes`.
//! The turns' searches are left out: they are under a millionth of the nodes from N = 20.

use queens_core::random::SeededRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use serde::Serialize;

use super::CountPlan;
use super::plan::{Case, Subproblem, allowed_columns, restrict_to_deadline, sides_deadline};

/// An estimate of a count's nodes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct NodeEstimate {
    /// The nodes, rounded to a whole number (past 2⁶⁴ from N = 28).
    pub nodes: u128,
    /// The estimate's standard error over its value (0.01: about ±1 %).
    pub relative_error: f64,
    /// Probes made, over all parts.
    pub probes: u64,
}

/// Estimates the nodes of `plan` (a backtracking or GPU split) with `probes` random probes a
/// part; the same `seed` gives the same estimate. `None` for the join's split, whose parts are
/// not searches of rows.
pub fn estimate_nodes(plan: &CountPlan, probes: u32, seed: u64) -> Option<NodeEstimate> {
    if plan.subproblems().is_empty() {
        return None;
    }
    let n = plan.n();
    let probes = probes.max(2);
    // Floating-point sums depend on their order, so the parts are summed in a fixed order (a
    // block of them on each task, then the blocks): the same seed gives the same bits whatever
    // the threads, where a parallel reduction's order follows the work's stealing.
    let blocks: Vec<(f64, f64)> = plan
        .subproblems()
        .par_chunks(BLOCK)
        .enumerate()
        .map(|(block, subs)| {
            subs.iter().enumerate().fold((0.0, 0.0), |sum, (at, sub)| {
                let part = part_estimate(n, sub, probes, part_seed(seed, block * BLOCK + at));
                (sum.0 + part.0, sum.1 + part.1)
            })
        })
        .collect();
    let (mean, variance) = blocks
        .iter()
        .fold((0.0, 0.0), |sum, block| (sum.0 + block.0, sum.1 + block.1));
    Some(NodeEstimate {
        nodes: mean.round() as u128,
        relative_error: if mean > 0.0 {
            variance.sqrt() / mean
        } else {
            0.0
        },
        probes: u64::from(probes) * plan.subproblems().len() as u64,
    })
}

/// The parts summed on one task, in order.
const BLOCK: usize = 1024;

/// An odd constant that spreads the parts' seeds (the golden ratio's 64 bits).
const K: u64 = 0x9e37_79b9_7f4a_7c15;

/// The seed of part `id`'s probes in an estimate seeded with `seed`.
pub(crate) fn part_seed(seed: u64, id: usize) -> u64 {
    seed ^ (id as u64).wrapping_mul(K)
}

/// A part's estimated nodes and the variance of that estimate (its probes' mean).
pub(crate) fn part_estimate(n: u32, sub: &Subproblem, probes: u32, seed: u64) -> (f64, f64) {
    if !matches!(sub.case, Case::Corner { .. } | Case::Edge { .. }) {
        return (0.0, 0.0);
    }
    let allowed = allowed_columns(n, sub.case);
    let deadline = sides_deadline(n, sub.case);
    let masks = sub.masks();
    let mut rng = SeededRng::seed_from_u64(seed);
    let (mut sum, mut squares) = (0.0, 0.0);
    for _ in 0..probes {
        let estimate = probe(&allowed, deadline, sub.prefix.len(), masks, &mut rng);
        sum += estimate;
        squares += estimate * estimate;
    }
    let count = f64::from(probes);
    let mean = sum / count;
    let sample_variance = ((squares - sum * mean) / (count - 1.0)).max(0.0);
    (mean, sample_variance / count)
}

/// One random walk from row `row` with attack masks `(cols, left, right)`: its estimate.
fn probe(
    allowed: &[u32],
    deadline: Option<(usize, u32)>,
    mut row: usize,
    (mut cols, mut left, mut right): (u32, u32, u32),
    rng: &mut SeededRng,
) -> f64 {
    let last = allowed.len() - 1;
    let (mut estimate, mut weight) = (0.0, 1.0);
    loop {
        let free = restrict_to_deadline(deadline, row, cols, allowed[row] & !(cols | left | right));
        let choices = free.count_ones();
        estimate += weight * f64::from(choices);
        if row == last || choices == 0 {
            return estimate;
        }
        weight *= f64::from(choices);
        let mut pick = rng.random_range(0..choices);
        let mut rest = free;
        while pick > 0 {
            rest &= rest - 1;
            pick -= 1;
        }
        let queen = rest & rest.wrapping_neg();
        cols |= queen;
        left = (left | queen) << 1;
        right = (right | queen) >> 1;
        row += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::{CountJob, Engine};
    use queens_core::Budget;

    /// The estimate lands within a few of its standard errors of the nodes a count searches.
    #[test]
    fn estimates_agree_with_the_counts() {
        for n in [10, 12, 13] {
            let plan = CountPlan::with_engine(n, Engine::Backtracking).unwrap();
            let estimate = estimate_nodes(&plan, 64, 7).unwrap();
            let turns: u128 = plan
                .subproblems()
                .iter()
                .enumerate()
                .filter(|(_, sub)| matches!(sub.case, Case::Turn(_)))
                .map(|(id, _)| plan.count_one(id, &Budget::unlimited()).unwrap().nodes)
                .sum();
            let counted = CountJob::new(plan)
                .run(&Budget::unlimited(), |_, _| {})
                .unwrap()
                .tally
                .nodes
                - turns;
            let error = (estimate.nodes as f64 - counted as f64).abs() / counted as f64;
            assert!(
                error < 4.0 * estimate.relative_error.max(0.002),
                "N = {n}: estimated {estimate:?}, counted {counted}"
            );
            assert!(estimate.relative_error < 0.02, "N = {n}: {estimate:?}");
        }
    }

    /// The same seed gives the same estimate, to the bit, whatever the threads: a plan printed
    /// twice (or on two machines) names the same nodes.
    #[test]
    fn the_same_seed_gives_the_same_estimate_on_any_threads() {
        let plan = CountPlan::with_engine(17, Engine::Backtracking).unwrap();
        let on = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| estimate_nodes(&plan, 4, 11).unwrap())
        };
        let alone = on(1);
        for threads in [2, 3, 7] {
            for _ in 0..3 {
                let estimate = on(threads);
                assert_eq!(
                    estimate.relative_error.to_bits(),
                    alone.relative_error.to_bits(),
                    "{threads} threads: {estimate:?} against {alone:?}"
                );
                assert_eq!(estimate, alone, "{threads} threads");
            }
        }
    }

    #[test]
    fn the_join_has_no_estimate() {
        let plan = CountPlan::with_engine(16, Engine::Join).unwrap();
        assert_eq!(estimate_nodes(&plan, 8, 1), None);
    }
}
