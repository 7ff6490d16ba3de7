//! The solutions a half turn or a quarter turn of the board leaves unchanged, and why they,
//! with the total, give the unique count.
//!
//! # Burnside's lemma for N-Queens
//!
//! The eight symmetries of the square (the group D4) act on the solutions of an N×N board; the
//! unique count is the number of orbits, and Burnside's lemma says
//! `orbits = (1/8) · Σ_g |Fix(g)|`, where `Fix(g)` is the set of solutions `g` leaves
//! unchanged. For N > 1:
//!
//! - The identity fixes all `total` solutions.
//! - No reflection fixes a solution. The left–right mirror `(r, c) ↦ (r, N−1−c)` fixes a
//!   queen only on the middle column, so a fixed solution would put every queen there; the
//!   top–bottom mirror likewise puts them all on the middle row. The transpose
//!   `(r, c) ↦ (c, r)` fixes a permutation only if it is an involution: if it swaps `a` and
//!   `b`, the queens on `(a, b)` and `(b, a)` share the anti-diagonal `r + c = a + b`; if it
//!   swaps nothing, every queen is on the main diagonal. The anti-transpose
//!   `(r, c) ↦ (N−1−c, N−1−r)` is the same argument with the diagonals exchanged: `(a, b)`
//!   and its image share `r − c = a − b`, and a solution of fixed queens has them all on the
//!   anti-diagonal. Either way two queens attack each other.
//! - The quarter turns `R90` and `R270 = R90⁻¹` fix the same solutions (a solution is fixed
//!   by a symmetry exactly when it is fixed by its inverse); call their number `R90`.
//! - The half turn fixes `R180` solutions, the quarter-turn ones among them.
//!
//! So `8 · unique = total + R180 + 2 · R90`. Both symmetric counts are searches over the
//! board's orbits under the turn — half or a quarter of the rows decide the rest — and are
//! tiny next to the total (N = 18: a few thousand nodes against the join's billions of
//! pairs). N = 1 is the exception: its one solution is fixed by all eight symmetries.

use queens_core::Budget;

use super::Tally;

/// A rotation of the board about its centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// 180°.
    Half,
    /// 90°.
    Quarter,
}

impl Turn {
    /// Where the square (`row`, `column`) goes on an N×N board.
    fn image(self, n: u32, (row, column): (u32, u32)) -> (u32, u32) {
        match self {
            Turn::Half => (n - 1 - row, n - 1 - column),
            Turn::Quarter => (column, n - 1 - row),
        }
    }

    fn order(self) -> usize {
        match self {
            Turn::Half => 2,
            Turn::Quarter => 4,
        }
    }
}

/// How many nodes pass between looks at the budget.
const POLL: u64 = 1 << 14;

/// Rows, columns and diagonals in use.
#[derive(Clone, Copy, Default)]
struct Lines {
    rows: u64,
    columns: u64,
    sums: u64,
    differences: u64,
}

impl Lines {
    fn place(&mut self, n: u32, (row, column): (u32, u32)) -> bool {
        let (row_bit, column_bit) = (1u64 << row, 1u64 << column);
        let (sum_bit, difference_bit) = (1u64 << (row + column), 1u64 << (row + n - 1 - column));
        if (self.rows & row_bit)
            | (self.columns & column_bit)
            | (self.sums & sum_bit)
            | (self.differences & difference_bit)
            != 0
        {
            return false;
        }
        self.rows |= row_bit;
        self.columns |= column_bit;
        self.sums |= sum_bit;
        self.differences |= difference_bit;
        true
    }
}

/// A turn's search as a part of a count: no solutions of its own, and Burnside's term for the
/// turn in `fixed` (the quarter turn's twice, for 90° and 270°); `None` if `budget` stopped
/// first.
pub(crate) fn tally(n: u32, turn: Turn, budget: &Budget) -> Option<Tally> {
    let (fixed, nodes) = fixed_by(n, turn, budget)?;
    let times = match turn {
        Turn::Half => 1,
        Turn::Quarter => 2,
    };
    Some(Tally {
        total: 0,
        fixed: times * fixed,
        nodes: u128::from(nodes),
    })
}

/// Whether `tally` could be what the search for `turn` counts: symmetric solutions only, the
/// quarter turn's twice.
pub(crate) fn plausible(turn: Turn, tally: &Tally) -> bool {
    tally.total == 0 && (turn == Turn::Half || tally.fixed.is_multiple_of(2))
}

/// The solutions of the N×N board (N from 2 to 32) that `turn` leaves unchanged, and the
/// nodes searched; `None` if `budget` stopped first.
pub(crate) fn fixed_by(n: u32, turn: Turn, budget: &Budget) -> Option<(u128, u64)> {
    if turn == Turn::Half {
        return HalfTurn::search(n, budget);
    }
    let mut search = Search {
        n,
        turn,
        budget,
        nodes: 0,
        stopped: false,
    };
    let solutions = search.fill(Lines::default());
    (!search.stopped).then_some((solutions, search.nodes))
}

/// The half turn's search, row pair by row pair with bit masks: a queen on row `i < N/2` and its
/// image on row `N−1−i`, the centre queen first on an odd board (a half turn fixes the middle
/// row's queen only on the middle column). The masks of a symmetric placement are symmetric
/// themselves, so a queen that no placed queen attacks has an image that none attacks either;
/// it remains to keep the pair apart (`c ≠ i`, `c ≠ N−1−i`). It is the largest of the two
/// searches (N = 24: 1.2·10⁷ symmetric solutions).
struct HalfTurn<'b> {
    n: u32,
    budget: &'b Budget,
    nodes: u64,
    stopped: bool,
}

impl HalfTurn<'_> {
    fn search(n: u32, budget: &Budget) -> Option<(u128, u64)> {
        let mut search = HalfTurn {
            n,
            budget,
            nodes: 0,
            stopped: false,
        };
        // Columns, the diagonals r + c and the anti-diagonals c − r + N − 1, board-wide.
        let mut masks = (0u64, 0u64, 0u64);
        if n % 2 == 1 {
            let middle = n / 2;
            masks = (1 << middle, 1 << (2 * middle), 1 << (n - 1));
        }
        let solutions = search.pairs(0, masks);
        (!search.stopped).then_some((solutions, search.nodes))
    }

    /// Completions of the row pairs from `row` on.
    fn pairs(&mut self, row: u32, (columns, sums, differences): (u64, u64, u64)) -> u128 {
        let n = self.n;
        if row == n / 2 {
            return 1;
        }
        let full = (1u64 << n) - 1;
        let mut free = full
            & !columns
            & !(sums >> row)
            & !(differences >> (n - 1 - row))
            & !(1 << row)
            & !(1 << (n - 1 - row));
        let mut solutions = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.nodes += 1;
            if self.nodes.is_multiple_of(POLL) && self.budget.is_stopped() {
                self.stopped = true;
            }
            if self.stopped {
                return 0;
            }
            let column = bit.trailing_zeros();
            let image = n - 1 - column;
            solutions += self.pairs(
                row + 1,
                (
                    columns | bit | 1 << image,
                    sums | 1 << (row + column) | 1 << (2 * (n - 1) - row - column),
                    differences | 1 << (column + n - 1 - row) | 1 << (row + image),
                ),
            );
        }
        solutions
    }
}

struct Search<'b> {
    n: u32,
    turn: Turn,
    budget: &'b Budget,
    nodes: u64,
    stopped: bool,
}

impl Search<'_> {
    /// Completions of `lines` by whole orbits, the first empty row's orbit first.
    fn fill(&mut self, lines: Lines) -> u128 {
        let full = (1u64 << self.n) - 1;
        if lines.rows == full {
            return 1;
        }
        let row = (!lines.rows).trailing_zeros();
        let mut solutions = 0;
        for column in 0..self.n {
            self.nodes += 1;
            if self.nodes.is_multiple_of(POLL) && self.budget.is_stopped() {
                self.stopped = true;
            }
            if self.stopped {
                return 0;
            }
            if let Some(placed) = self.place_orbit(lines, (row, column)) {
                solutions += self.fill(placed);
            }
        }
        solutions
    }

    /// `lines` with the queen on `square` and its images, if none of them is attacked.
    fn place_orbit(&self, mut lines: Lines, square: (u32, u32)) -> Option<Lines> {
        let mut cell = square;
        for _ in 0..self.turn.order() {
            if !lines.place(self.n, cell) {
                return None;
            }
            cell = self.turn.image(self.n, cell);
            if cell == square {
                break;
            }
        }
        Some(lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls `visit` with every solution of the N×N board, rows' columns in order.
    fn all(n: u32, row: usize, columns: &mut [u32], visit: &mut impl FnMut(&[u32])) {
        if row == n as usize {
            visit(columns);
            return;
        }
        for c in 0..n {
            let safe = (0..row).all(|r| {
                let d = columns[r].abs_diff(c);
                d != 0 && d as usize != row - r
            });
            if safe {
                columns[row] = c;
                all(n, row + 1, columns, visit);
            }
        }
    }

    /// Solutions found by a plain search, checked against the turn directly.
    fn fixed_plainly(n: u32, turn: Turn) -> u128 {
        let mut fixed = 0;
        let mut columns = vec![0u32; n as usize];
        all(n, 0, &mut columns, &mut |solution| {
            let unchanged = (0..n).all(|r| {
                let (ir, ic) = turn.image(n, (r, solution[r as usize]));
                solution[ir as usize] == ic
            });
            fixed += u128::from(unchanged);
        });
        fixed
    }

    #[test]
    fn the_searches_agree_with_checking_every_solution() {
        for n in 2..=10 {
            for turn in [Turn::Half, Turn::Quarter] {
                let (found, _) = fixed_by(n, turn, &Budget::unlimited()).unwrap();
                assert_eq!(found, fixed_plainly(n, turn), "N = {n}, {turn:?}");
            }
        }
    }

    #[test]
    fn burnside_gives_the_published_unique_counts() {
        for n in 2..=14 {
            let (total, unique) = crate::count::integrity::published(n).unwrap();
            let (half, _) = fixed_by(n, Turn::Half, &Budget::unlimited()).unwrap();
            let (quarter, _) = fixed_by(n, Turn::Quarter, &Budget::unlimited()).unwrap();
            assert_eq!(total + half + 2 * quarter, 8 * unique, "N = {n}");
        }
    }
}
