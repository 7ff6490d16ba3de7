//! The counting kernel: an iterative bitmask search of one subproblem.
//!
//! Columns are bits; the three attack masks (columns, and the two diagonals shifted one step per
//! row) give a row's free squares in three ORs, and the lowest free bit is taken first. The loop
//! keeps its own stack in locals, so there is no recursion and nothing but the stack touches
//! memory in the hot path. The penultimate row's candidates are completed in a tight inner loop
//! by the last row's free mask, and each solution is weighed by its [`Case`] and where its edge
//! queens stand (the class weights of [`super::plan`]), never by comparing it with its images.

use queens_core::Budget;

use super::Tally;
use super::plan::{Case, Subproblem, allowed_columns, restrict_to_deadline, sides_deadline};
use super::rotation;

/// How many nodes pass between looks at the budget.
const CANCEL_POLL: u64 = 1 << 20;

/// One row's state on the search stack: column and diagonal masks before its queen, and its
/// squares still to try.
type Frame = (u32, u32, u32, u32);

/// Counts one subproblem of the N×N board with the CPU's backtracking kernel: its solutions
/// weighed by their classes, and its nodes (the queens placed from the first row below its
/// prefix to the penultimate, and the last row's completions); `None` if `budget` stopped
/// before it finished.
///
/// # Panics
///
/// If `sub` is not a subproblem of the N×N board ([`Subproblem::fits`]): a plan's always are,
/// and one made by hand that is not would be counted wrong, not refused.
pub fn count_subproblem(n: u32, sub: &Subproblem, budget: &Budget) -> Option<Tally> {
    sub.expect_fits(n);
    match sub.case {
        // The one queen is left in place by all seven other symmetries.
        Case::Single => {
            return Some(Tally {
                total: 1,
                fixed: 7,
                nodes: 0,
            });
        }
        Case::Turn(turn) => return rotation::tally(n, turn, budget),
        Case::Corner { .. } | Case::Edge { .. } => {}
    }
    let mut allowed = [0; 32];
    allowed[..n as usize].copy_from_slice(&allowed_columns(n, sub.case));
    let (cols, left, right) = sub.masks();
    let weigher = Weigher {
        n: n as usize,
        case: sub.case,
        prefix: &sub.prefix,
    };
    let mut tally = Tally::default();
    let start = sub.prefix.len();
    if start + 5 > n as usize {
        // Four rows or fewer to fill: no hot loop needed.
        let mut stack = [(0, 0, 0, 0); 32];
        tail(
            &weigher,
            &allowed,
            &mut stack,
            start,
            (cols, left, right),
            &mut tally,
        );
        return Some(tally);
    }
    search(&weigher, &allowed, (cols, left, right), budget, &mut tally).then_some(tally)
}

/// The rows from `row` to the last, searched plainly (for subproblems that leave few rows).
/// Records each row's column mask on `stack` as the fast path does, for weighing.
fn tail(
    weigher: &Weigher<'_>,
    allowed: &[u32; 32],
    stack: &mut [Frame; 32],
    row: usize,
    (cols, left, right): (u32, u32, u32),
    tally: &mut Tally,
) {
    let last = weigher.n - 1;
    let free = allowed[row] & !(cols | left | right);
    let free = weigher.sides_deadline().restrict(row, cols, free);
    if row == last {
        if free != 0 {
            weigher.weigh(free, 0, stack, 0, tally);
        }
        return;
    }
    stack[row].0 = cols;
    let mut rest = free;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        if row + 1 == last {
            tally.nodes += 1;
            let last_free =
                allowed[last] & !((cols | bit) | ((left | bit) << 1) | ((right | bit) >> 1));
            if last_free != 0 {
                weigher.weigh(last_free, bit, stack, cols, tally);
            }
        } else {
            tally.nodes += 1;
            tail(
                weigher,
                allowed,
                stack,
                row + 1,
                (cols | bit, (left | bit) << 1, (right | bit) >> 1),
                tally,
            );
        }
    }
}

/// The hot loop over rows `start..N−4`, with the last four rows searched from locals;
/// `false` if cancelled. Needs `start ≤ N − 5`.
fn search(
    weigher: &Weigher<'_>,
    allowed: &[u32; 32],
    (mut cols, mut left, mut right): (u32, u32, u32),
    budget: &Budget,
    tally: &mut Tally,
) -> bool {
    let start = weigher.prefix.len();
    let bottom = BottomRows::new(weigher, allowed);
    let fourth_last = weigher.n - 4;
    let mut stack: [Frame; 32] = [(0, 0, 0, 0); 32];
    let mut row = start;
    stack[row & 31].0 = cols;
    let mut free = bottom
        .sides
        .restrict(row, cols, allowed[row & 31] & !(cols | left | right));
    let mut nodes = 0u64;
    let mut next_poll = CANCEL_POLL;
    loop {
        if free == 0 {
            if row == start {
                break;
            }
            row -= 1;
            (cols, left, right, free) = stack[row & 31];
            continue;
        }
        let bit = free & free.wrapping_neg();
        free ^= bit;
        nodes += 1;
        let (next_cols, next_left, next_right) =
            (cols | bit, (left | bit) << 1, (right | bit) >> 1);
        if row + 1 < fourth_last {
            stack[row & 31] = (cols, left, right, free);
            (cols, left, right) = (next_cols, next_left, next_right);
            row += 1;
            // The weighing reads each row's column mask; the deepest row of this loop never
            // saves its frame otherwise.
            stack[row & 31].0 = cols;
            free = bottom
                .sides
                .restrict(row, cols, allowed[row & 31] & !(cols | left | right));
            continue;
        }
        nodes += bottom.four((next_cols, next_left, next_right), &mut stack, tally);
        if nodes >= next_poll {
            next_poll = nodes + CANCEL_POLL;
            if budget.is_stopped() {
                return false;
            }
        }
    }
    tally.nodes += u128::from(nodes);
    true
}

/// The last four rows, searched with nested loops over locals: a few candidates on rows N−4 and
/// N−3, then two columns left for the last two rows, tried in both orders without a loop.
struct BottomRows<'w, 'p> {
    weigher: &'w Weigher<'p>,
    sides: SidesDeadline,
    /// Row N−4.
    first: usize,
    /// The allowed columns of rows N−4 to N−1.
    allowed: [u32; 4],
    full: u32,
}

impl<'w, 'p> BottomRows<'w, 'p> {
    fn new(weigher: &'w Weigher<'p>, allowed: &[u32; 32]) -> Self {
        let first = weigher.n - 4;
        BottomRows {
            weigher,
            sides: weigher.sides_deadline(),
            first,
            allowed: [
                allowed[first],
                allowed[first + 1],
                allowed[first + 2],
                allowed[first + 3],
            ],
            full: super::plan::full_mask(weigher.n as u32),
        }
    }

    /// Rows N−4 to N−1 from the masks before row N−4; returns the nodes placed above the last
    /// row (the last row's are counted when weighed). Records the rows' column masks on
    /// `stack` for weighing.
    #[inline]
    fn four(
        &self,
        (cols, left, right): (u32, u32, u32),
        stack: &mut [Frame; 32],
        tally: &mut Tally,
    ) -> u64 {
        stack[self.first & 31].0 = cols;
        let mut fourths =
            self.sides
                .restrict(self.first, cols, self.allowed[0] & !(cols | left | right));
        // Nodes are counted one per queen tried, not by a population count: the portable
        // build has no POPCNT instruction, and the loop visits each bit anyway.
        let mut nodes = 0;
        while fourths != 0 {
            let queen = fourths & fourths.wrapping_neg();
            fourths ^= queen;
            nodes += 1;
            let masks = (cols | queen, (left | queen) << 1, (right | queen) >> 1);
            stack[(self.first + 1) & 31].0 = masks.0;
            nodes += self.three(masks, stack, tally);
        }
        nodes
    }

    /// Rows N−3 to N−1 from the masks before row N−3.
    #[inline]
    fn three(
        &self,
        (cols, left, right): (u32, u32, u32),
        stack: &[Frame; 32],
        tally: &mut Tally,
    ) -> u64 {
        let [_, allowed_third, allowed_penultimate, allowed_last] = self.allowed;
        let (third, penultimate) = (self.first + 1, self.first + 2);
        let mut thirds = self
            .sides
            .restrict(third, cols, allowed_third & !(cols | left | right));
        let mut nodes = 0;
        while thirds != 0 {
            let queen = thirds & thirds.wrapping_neg();
            thirds ^= queen;
            nodes += 1;
            let (cols2, left2, right2) = (cols | queen, (left | queen) << 1, (right | queen) >> 1);
            let candidates = self.sides.restrict(
                penultimate,
                cols2,
                allowed_penultimate & !(cols2 | left2 | right2),
            );
            // The two columns left, x and y: x then y, or y then x. The penultimate row's
            // candidates lie among them.
            let rest = self.full & !cols2;
            let x = rest & rest.wrapping_neg();
            let y = rest ^ x;
            nodes += u64::from(candidates & x != 0) + u64::from(candidates & y != 0);
            let x_then_y = candidates & x != 0
                && allowed_last & y & !(((left2 | x) << 1) | ((right2 | x) >> 1)) != 0;
            let y_then_x = candidates & y != 0
                && allowed_last & x & !(((left2 | y) << 1) | ((right2 | y) >> 1)) != 0;
            if x_then_y | y_then_x {
                if x_then_y {
                    self.weigher.weigh(y, x, stack, cols2, tally);
                }
                if y_then_x {
                    self.weigher.weigh(x, y, stack, cols2, tally);
                }
            }
        }
        nodes
    }
}

/// The side columns' deadline of an edge case ([`sides_deadline`]), applied to a row's free
/// squares.
#[derive(Clone, Copy)]
struct SidesDeadline {
    row: usize,
    sides: u32,
}

impl SidesDeadline {
    #[inline]
    fn restrict(self, row: usize, cols: u32, free: u32) -> u32 {
        restrict_to_deadline(Some((self.row, self.sides)), row, cols, free)
    }
}

/// Weighs complete solutions by the case of their subproblem.
struct Weigher<'a> {
    n: usize,
    case: Case,
    prefix: &'a [u32],
}

impl Weigher<'_> {
    /// The side-column deadline of an edge case; never reached in other cases.
    fn sides_deadline(&self) -> SidesDeadline {
        match sides_deadline(self.n as u32, self.case) {
            Some((row, sides)) => SidesDeadline { row, sides },
            None => SidesDeadline {
                row: usize::MAX,
                sides: 0,
            },
        }
    }

    /// Weighs the solutions that each bit of `last_free` completes. `penultimate_bit` is the
    /// penultimate row's queen and `penultimate_cols` the column mask before it; the stack
    /// holds the masks of the rows from the prefix's end.
    #[inline(never)]
    fn weigh(
        &self,
        last_free: u32,
        penultimate_bit: u32,
        stack: &[Frame; 32],
        penultimate_cols: u32,
        tally: &mut Tally,
    ) {
        // The hot path weighs one column at a time: no population count for it.
        let count = if last_free & last_free.wrapping_sub(1) == 0 {
            u32::from(last_free != 0)
        } else {
            last_free.count_ones()
        };
        tally.nodes += u128::from(count);
        let weight = match self.case {
            Case::Edge { b } => {
                let (n, b) = (self.n, b as usize);
                let far = n - 1 - b;
                let placed = |row| self.placed(row, penultimate_bit, stack, penultimate_cols);
                let sides = 1 | 1 << (n - 1);
                let side_ties = ((placed(b) | placed(far)) & sides).count_ones();
                let tied = (last_free & (1 << b | 1 << far)).count_ones();
                edge_weight(side_ties, false) * (count - tied) + edge_weight(side_ties, true) * tied
            }
            _ => 8 * count,
        };
        tally.total += u128::from(weight);
    }

    /// The bit of the queen of `row` (below the last row) in the solution being weighed.
    fn placed(
        &self,
        row: usize,
        penultimate_bit: u32,
        stack: &[Frame; 32],
        penultimate_cols: u32,
    ) -> u32 {
        let penultimate_row = self.n - 2;
        if row < self.prefix.len() {
            1 << self.prefix[row]
        } else if row == penultimate_row {
            penultimate_bit
        } else if row + 1 == penultimate_row {
            penultimate_cols ^ stack[row & 31].0
        } else {
            stack[(row + 1) & 31].0 ^ stack[row & 31].0
        }
    }
}

/// The weight of an edge case's solution with `side_ties` side queens on row `b` or `N−1−b` and
/// its last-row queen on column `b` or `N−1−b` (`bottom_tied`): the solutions of its class it
/// stands for, by the table of [`super::plan`].
pub(crate) const fn edge_weight(side_ties: u32, bottom_tied: bool) -> u32 {
    match (side_ties, bottom_tied) {
        (0 | 2, false) => 8,
        (0, true) | (1, false) => 4,
        (1, true) => 0,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::edge_weight;

    /// Every solution of the N×N board, rows' columns in order.
    fn solutions(n: usize) -> Vec<Vec<usize>> {
        fn extend(n: usize, columns: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if columns.len() == n {
                out.push(columns.clone());
                return;
            }
            let row = columns.len();
            for c in 0..n {
                let safe = columns
                    .iter()
                    .enumerate()
                    .all(|(r, &d)| d != c && d.abs_diff(c) != row - r);
                if safe {
                    columns.push(c);
                    extend(n, columns, out);
                    columns.pop();
                }
            }
        }
        let mut out = Vec::new();
        extend(n, &mut Vec::new(), &mut out);
        out
    }

    /// The eight images of a solution under the symmetries of the square.
    fn images(solution: &[usize]) -> Vec<Vec<usize>> {
        let n = solution.len();
        let mut inverse = vec![0; n];
        for (row, &col) in solution.iter().enumerate() {
            inverse[col] = row;
        }
        let mut out = Vec::new();
        for source in [solution, &inverse[..]] {
            for backwards in [false, true] {
                for mirrored in [false, true] {
                    out.push(
                        (0..n)
                            .map(|row| {
                                let col = source[if backwards { n - 1 - row } else { row }];
                                if mirrored { n - 1 - col } else { col }
                            })
                            .collect(),
                    );
                }
            }
        }
        out
    }

    /// Whether a solution has the edge case's shape for its row-0 queen's column `b`, and if
    /// so its weight by the class-weight table.
    fn edge_member_weight(solution: &[usize]) -> Option<u32> {
        let n = solution.len();
        let (b, last, far) = (solution[0], n - 1, n - 1 - solution[0]);
        let row_of = |col: usize| solution.iter().position(|&c| c == col).unwrap();
        let (left, right) = (row_of(0), row_of(last));
        let shape = b >= 1
            && 2 * b < last
            && (b..=far).contains(&solution[last])
            && (b..=far).contains(&left)
            && (b..=far).contains(&right);
        shape.then(|| {
            let side_ties = [left, right]
                .iter()
                .filter(|&&row| row == b || row == far)
                .count() as u32;
            let bottom_tied = solution[last] == b || solution[last] == far;
            edge_weight(side_ties, bottom_tied)
        })
    }

    /// The class weights, checked against the classes themselves: for every class without a
    /// corner queen, the weights of its members of the edge case's shape add up to its size.
    #[test]
    fn edge_weights_sum_to_each_class_size() {
        for n in 5..=11 {
            let mut seen = BTreeSet::new();
            let mut classes = 0;
            for solution in solutions(n) {
                let class: BTreeSet<Vec<usize>> = images(&solution).into_iter().collect();
                if !seen.insert(class.iter().next().unwrap().clone()) {
                    continue;
                }
                let corner = solution[0] == 0 || solution[0] == n - 1 || {
                    let last = solution[n - 1];
                    last == 0 || last == n - 1
                };
                if corner {
                    continue;
                }
                classes += 1;
                let weights: u32 = class.iter().filter_map(|s| edge_member_weight(s)).sum();
                assert_eq!(
                    weights as usize,
                    class.len(),
                    "N = {n}, class of {solution:?}"
                );
            }
            assert!(classes > 0, "N = {n} has edge classes");
        }
    }
}
