//! The counting kernel: an iterative bitmask search of one subproblem.
//!
//! Columns are bits; the three attack masks (columns, and the two diagonals shifted one step per
//! row) give a row's free squares in three ORs, and the lowest free bit is taken first. The loop
//! keeps its own stack in locals, so there is no recursion and nothing but the stack touches
//! memory in the hot path. The penultimate row's candidates are completed in a tight inner loop
//! by the last row's free mask, and each solution is weighed by its [`Case`] (see
//! [`super::plan`]): almost always a class of 8 solutions, otherwise by comparing the members of
//! its class explicitly.

use queens_core::Budget;

use super::Tally;
use super::plan::{Case, Subproblem, allowed_columns, sides_deadline};

/// How many nodes pass between looks at the budget.
const CANCEL_POLL: u64 = 1 << 20;

/// One row's state on the search stack: column and diagonal masks before its queen, and its
/// squares still to try.
type Frame = (u32, u32, u32, u32);

/// Counts one subproblem of the N×N board; `None` if `budget` stopped before it finished.
pub(crate) fn count_subproblem(n: u32, sub: &Subproblem, budget: &Budget) -> Option<Tally> {
    if sub.case == Case::Single {
        // The one queen is left in place by all seven other symmetries.
        return Some(Tally {
            total: 1,
            fixed: 7,
            nodes: 0,
        });
    }
    let mut allowed = [0; 32];
    allowed[..n as usize].copy_from_slice(&allowed_columns(n, sub.case));
    let (mut cols, mut left, mut right) = (0u32, 0u32, 0u32);
    for &col in &sub.prefix {
        let bit = 1 << col;
        cols |= bit;
        left = (left | bit) << 1;
        right = (right | bit) >> 1;
    }
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
    tally.nodes += nodes;
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
        if row != self.row {
            return free;
        }
        let missing = self.sides & !cols;
        if missing == self.sides {
            0
        } else if missing != 0 {
            free & missing
        } else {
            free
        }
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
        tally.nodes += u64::from(count);
        let plain = match self.case {
            Case::Edge { b } => {
                let (n, b) = (self.n, b as usize);
                let far = n - 1 - b;
                let placed = |row| self.placed(row, penultimate_bit, stack, penultimate_cols);
                // Another edge distance equal to b: the last row's queen on column b or
                // N−1−b, the right column's queen on row b, or the left column's on row N−1−b.
                let ties = if placed(b) == 1 << (n - 1) || placed(far) == 1 {
                    last_free
                } else {
                    last_free & ((1 << b) | (1 << far))
                };
                let mut remaining = ties;
                while remaining != 0 {
                    let bit = remaining & remaining.wrapping_neg();
                    remaining ^= bit;
                    self.weigh_tied(bit, penultimate_bit, stack, penultimate_cols, tally);
                }
                count - ties.count_ones()
            }
            _ => count,
        };
        tally.total += 8 * u128::from(plain);
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

    /// A solution on which several edge distances equal the row-0 queen's: it is counted if it
    /// is the smallest of its class's members that put the row-0 queen on column b, with the
    /// size of its class.
    ///
    /// The eight images of a permutation `p` with inverse `q` are, row by row, `p` or `q` read
    /// forwards or backwards, its columns kept or mirrored; each is compared with the solution
    /// lazily, so most images are told apart at their first row.
    #[cold]
    fn weigh_tied(
        &self,
        last_bit: u32,
        penultimate_bit: u32,
        stack: &[Frame; 32],
        penultimate_cols: u32,
        tally: &mut Tally,
    ) {
        let n = self.n;
        let last = n - 1;
        let mut solution = [0usize; 32];
        let mut inverse = [0usize; 32];
        for (row, col) in solution.iter_mut().enumerate().take(n) {
            let bit = if row == last {
                last_bit
            } else {
                self.placed(row, penultimate_bit, stack, penultimate_cols)
            };
            *col = bit.trailing_zeros() as usize;
            inverse[*col] = row;
        }
        let b = solution[0];
        let mut stabiliser = 1;
        // (read the inverse, read backwards, mirror the columns); the identity is left out.
        let images = [
            (false, false, true),
            (false, true, false),
            (false, true, true),
            (true, false, false),
            (true, false, true),
            (true, true, false),
            (true, true, true),
        ];
        for (inverted, backwards, mirrored) in images {
            let source = if inverted { &inverse } else { &solution };
            let image = |row: usize| {
                let col = source[if backwards { last - row } else { row }];
                if mirrored { last - col } else { col }
            };
            if image(0) != b {
                continue;
            }
            match (1..n).find(|&row| image(row) != solution[row]) {
                None => stabiliser += 1,
                Some(row) if image(row) < solution[row] => return,
                Some(_) => {}
            }
        }
        // A class of 8 / s solutions, each fixed by s symmetries: 8 in Burnside's sum.
        tally.total += 8 / stabiliser;
        tally.fixed += 8 - 8 / stabiliser;
    }
}
