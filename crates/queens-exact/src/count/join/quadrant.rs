//! Every peaceful placement inside one h×h quadrant, indexed by the rows and columns it fills.
//!
//! The four quadrants of a board are translates of one h×h square, so one table serves them
//! all: a placement is stored with its diagonals in the square's own coordinates (`i + j` and
//! `i − j + h − 1` for row `i`, column `j`), and [`Quadrant`] moves them onto the board.
//! Placements are grouped by `(rows, columns)` (two h-bit masks of equal weight), so a join
//! asks for exactly the placements that fill the rows and columns it needs.

use queens_core::Budget;

/// A placement's diagonals in the quadrant's coordinates: bit `i + j` of `sums`, bit
/// `i − j + h − 1` of `differences`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Local {
    pub sums: u32,
    pub differences: u32,
}

/// The peaceful placements of an h×h square, grouped by the rows and columns they fill.
pub(crate) struct QuadrantTable {
    h: u32,
    /// `starts[key] .. starts[key + 1]` are the placements of `key = rows << h | columns`.
    starts: Vec<u32>,
    placements: Vec<Local>,
}

/// Placements of 0 to h queens on an h×h square, no two attacking: the number of entries a
/// table of side h holds (computed by [`QuadrantTable::build`]; a test checks it).
pub(crate) const PLACEMENTS: [u64; 13] = [
    1,
    2,
    5,
    18,
    87,
    462,
    2_635,
    16_870,
    118_969,
    915_442,
    7_535_369,
    66_807_234,
    633_443_407,
];

impl QuadrantTable {
    /// Bytes a table of side `h` takes at its peak, while it is built: the placements, the
    /// index, and two more index-sized arrays of counts.
    pub fn bytes(h: u32) -> u64 {
        let index = ((1u64 << (2 * h)) + 1) * 4;
        3 * index + PLACEMENTS[h as usize] * std::mem::size_of::<Local>() as u64
    }

    /// Enumerates the square of side `h` (at most 12); `None` if `budget` stopped it first.
    pub fn build(h: u32, budget: &Budget) -> Option<Self> {
        assert!(h <= 12, "quadrants are at most 12 wide");
        let keys = 1usize << (2 * h);
        let mut counts = vec![0u32; keys + 1];
        enumerate(h, budget, &mut |rows, columns, _| {
            counts[((rows << h) | columns) as usize] += 1;
        })?;
        let mut starts = Vec::with_capacity(keys + 1);
        let mut next = 0u32;
        for count in &counts {
            starts.push(next);
            next += count;
        }
        let mut fill = starts.clone();
        let mut placements = vec![Local::default(); next as usize];
        enumerate(h, budget, &mut |rows, columns, local| {
            let slot = &mut fill[((rows << h) | columns) as usize];
            placements[*slot as usize] = local;
            *slot += 1;
        })?;
        Some(QuadrantTable {
            h,
            starts,
            placements,
        })
    }

    /// The placements whose queens fill exactly `rows` and `columns` (h-bit masks).
    #[inline]
    pub fn filling(&self, rows: u32, columns: u32) -> &[Local] {
        let key = ((rows << self.h) | columns) as usize;
        &self.placements[self.starts[key] as usize..self.starts[key + 1] as usize]
    }

    /// Entries in the table.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.placements.len()
    }
}

/// Calls `emit(rows, columns, diagonals)` for every peaceful placement of the h×h square, row
/// by row (each row empty or holding one queen); `None` if `budget` stopped it.
fn enumerate(h: u32, budget: &Budget, emit: &mut impl FnMut(u32, u32, Local)) -> Option<()> {
    // The first two rows split the work so that the budget is read between pieces.
    let mut stopped = false;
    let mut visit = |rows: u32, columns: u32, local: Local| {
        if !stopped {
            if budget.is_stopped() {
                stopped = true;
            } else {
                extend(h, 2.min(h), h, rows, columns, local, emit);
            }
        }
    };
    extend(h, 0, 2.min(h), 0, 0, Local::default(), &mut visit);
    (!stopped).then_some(())
}

/// Every placement of rows `row..depth` added to (`rows`, `columns`, `local`), passed on to
/// `next`.
fn extend(
    h: u32,
    row: u32,
    depth: u32,
    rows: u32,
    columns: u32,
    local: Local,
    next: &mut impl FnMut(u32, u32, Local),
) {
    if row == depth {
        next(rows, columns, local);
        return;
    }
    extend(h, row + 1, depth, rows, columns, local, next);
    for j in 0..h {
        if let Some(placed) = add(h, row, j, columns, local) {
            extend(
                h,
                row + 1,
                depth,
                rows | 1 << row,
                columns | 1 << j,
                placed,
                next,
            );
        }
    }
}

/// `local` with a queen on row `i`, column `j`, unless that square is attacked.
#[inline]
fn add(h: u32, i: u32, j: u32, columns: u32, local: Local) -> Option<Local> {
    let sum = 1 << (i + j);
    let difference = 1 << (i + h - 1 - j);
    (columns & 1 << j == 0 && local.sums & sum == 0 && local.differences & difference == 0)
        .then_some(Local {
            sums: local.sums | sum,
            differences: local.differences | difference,
        })
}

/// Every subset of `mask` (rows or columns of a quadrant), from `mask` itself down to 0.
pub(crate) fn subsets(mask: u32) -> impl Iterator<Item = u32> {
    let mut next = Some(mask);
    std::iter::from_fn(move || {
        let current = next?;
        next = (current != 0).then(|| (current - 1) & mask);
        Some(current)
    })
}

/// One quadrant of an N×N board: where the square's row 0 and column 0 stand.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quadrant {
    /// Shift from the square's sums to the board's (`r + c`).
    sum_shift: u32,
    /// Shift from the square's differences to the board's (`r − c + N − 1`).
    difference_shift: u32,
}

/// A placement's diagonals on the board: bit `r + c` of `sums`, bit `r − c + N − 1` of
/// `differences`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Diagonals {
    pub sums: u64,
    pub differences: u64,
}

impl Diagonals {
    /// Whether no diagonal is shared.
    #[inline]
    pub fn disjoint(self, other: Diagonals) -> bool {
        (self.sums & other.sums) | (self.differences & other.differences) == 0
    }
}

impl Quadrant {
    /// The h×h quadrant of an N×N board whose corner is at (`row`, `column`).
    pub fn new(n: u32, h: u32, row: u32, column: u32) -> Self {
        // r − c + N − 1 = (i − j + h − 1) + row − column + N − h, never negative.
        Quadrant {
            sum_shift: row + column,
            difference_shift: row + n - h - column,
        }
    }

    /// A placement's diagonals on the board.
    #[inline]
    pub fn place(self, local: Local) -> Diagonals {
        Diagonals {
            sums: u64::from(local.sums) << self.sum_shift,
            differences: u64::from(local.differences) << self.difference_shift,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_sizes_are_the_enumerated_counts() {
        for h in 0..=7 {
            let table = QuadrantTable::build(h, &Budget::unlimited()).unwrap();
            assert_eq!(table.len() as u64, PLACEMENTS[h as usize], "h = {h}");
        }
    }

    #[test]
    fn placements_are_grouped_by_rows_and_columns() {
        let table = QuadrantTable::build(4, &Budget::unlimited()).unwrap();
        // The 4×4 square's two full solutions.
        assert_eq!(table.filling(0b1111, 0b1111).len(), 2);
        // One queen on row 2: four columns, one placement each.
        for j in 0..4 {
            assert_eq!(table.filling(0b0100, 1 << j).len(), 1);
        }
        assert_eq!(table.filling(0, 0), &[Local::default()]);
        // Rows and columns of different weights hold nothing.
        assert!(table.filling(0b0011, 0b0001).is_empty());
    }

    #[test]
    fn quadrants_place_diagonals_on_the_board() {
        // N = 8, the south-east quadrant: its square's (0, 0) is the board's (4, 4).
        let quadrant = Quadrant::new(8, 4, 4, 4);
        let local = Local {
            sums: 1,
            differences: 1 << 3,
        };
        let placed = quadrant.place(local);
        assert_eq!(placed.sums, 1 << 8);
        assert_eq!(placed.differences, 1 << 7);
    }

    #[test]
    fn a_stopped_budget_stops_the_build() {
        let budget = Budget::unlimited();
        budget.token().cancel();
        assert!(QuadrantTable::build(6, &budget).is_none());
    }
}
