//! The stack of a row-by-row search: the free rows bottom up, one queen each, and for each the
//! next column to try — what backtracking and forward checking walk alike.

use queens_core::Square;

/// Where a row-by-row search stands.
pub(crate) struct RowStack {
    free_rows: Vec<u32>,
    cols: u32,
    /// `next_col[d]`: the first column still to try in free row `d`; the queen of a row below
    /// the current depth stands on `next_col[d] - 1`.
    next_col: Vec<u32>,
    depth: usize,
}

impl RowStack {
    /// The stack at the bottom of `free_rows` on a board `cols` wide.
    pub(crate) fn new(free_rows: Vec<u32>, cols: u32) -> Self {
        let next_col = vec![0; free_rows.len() + 1];
        RowStack {
            free_rows,
            cols,
            next_col,
            depth: 0,
        }
    }

    /// The free rows holding a queen: the current row's index among them.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// The free rows: the queens the search places.
    pub(crate) fn rows(&self) -> usize {
        self.free_rows.len()
    }

    /// Every free row has its queen.
    pub(crate) fn is_complete(&self) -> bool {
        self.depth == self.free_rows.len()
    }

    /// The current row's next square to try, if a column is left.
    pub(crate) fn next_square(&mut self) -> Option<Square> {
        let depth = self.depth;
        let col = self.next_col[depth];
        (col < self.cols).then(|| {
            self.next_col[depth] += 1;
            Square::new(self.free_rows[depth], col)
        })
    }

    /// The current row keeps its queen (the square last tried): on to the next row.
    pub(crate) fn advance(&mut self) {
        self.depth += 1;
        self.next_col[self.depth] = 0;
    }

    /// The current row is exhausted: back to the row below, whose queen is returned to be
    /// taken back; `None` at the bottom, where the search is over.
    pub(crate) fn back(&mut self) -> Option<Square> {
        self.depth = self.depth.checked_sub(1)?;
        Some(Square::new(
            self.free_rows[self.depth],
            self.next_col[self.depth] - 1,
        ))
    }

    /// The queens the search placed, row by row.
    pub(crate) fn placed(&self) -> impl Iterator<Item = Square> + '_ {
        self.free_rows
            .iter()
            .zip(&self.next_col)
            .take(self.depth)
            .map(|(&row, &next)| Square::new(row, next - 1))
    }

    /// The whole board when the current row takes `last`: the fixed queens, the queens placed
    /// below and `last`.
    pub(crate) fn board_with(&self, fixed: &[Square], last: Square) -> Vec<Square> {
        fixed
            .iter()
            .copied()
            .chain(self.placed())
            .chain([last])
            .collect()
    }
}
