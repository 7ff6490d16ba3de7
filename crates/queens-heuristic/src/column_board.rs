//! The board the column searches move queens on: one queen per column, with counters of the
//! queens on each row and diagonal, so that a move's change of score is O(1).

use queens_core::random::SeededRng;
use queens_core::{Board, Square};
use rand::RngExt;

/// The lines through a square that a queen standing on it counts itself on: its row and its
/// two diagonals (its column is its own by construction).
const OWN_LINES: u64 = 3;

/// Queens per column with counters of queens per row and diagonal.
pub(crate) struct ColumnBoard {
    n: usize,
    rows: Vec<usize>,
    per_row: Vec<u32>,
    rising: Vec<u32>,
    falling: Vec<u32>,
    /// Attacking pairs: Σ C(k, 2) over rows and diagonals.
    pairs: u64,
}

impl ColumnBoard {
    /// An empty board of side `n` (no queen counted yet; `rows` all 0).
    pub(crate) fn empty(n: usize) -> Self {
        ColumnBoard {
            n,
            rows: vec![0; n],
            per_row: vec![0; n],
            rising: vec![0; 2 * n - 1],
            falling: vec![0; 2 * n - 1],
            pairs: 0,
        }
    }

    /// A board of side `n` with an independent random row in each column (rows may repeat).
    pub(crate) fn random(n: usize, rng: &mut SeededRng) -> Self {
        let mut board = ColumnBoard::empty(n);
        for col in 0..n {
            board.place(col, rng.random_range(0..n));
        }
        board
    }

    /// The board whose column `col` holds its queen on row `rows[col]` (each below
    /// `rows.len()`).
    pub(crate) fn from_rows(rows: &[u32]) -> Self {
        let mut board = ColumnBoard::empty(rows.len());
        for (col, &row) in rows.iter().enumerate() {
            board.place(col, row as usize);
        }
        board
    }

    /// Puts the queen of `col`, a column not placed yet, on `row`.
    pub(crate) fn place(&mut self, col: usize, row: usize) {
        self.rows[col] = row;
        self.add(col, row);
    }

    /// The side.
    pub(crate) fn n(&self) -> usize {
        self.n
    }

    /// The row of `col`'s queen.
    pub(crate) fn row(&self, col: usize) -> usize {
        self.rows[col]
    }

    /// Attacking pairs: Σ C(k, 2) over rows and diagonals.
    pub(crate) fn pairs(&self) -> u64 {
        self.pairs
    }

    fn max_score(&self) -> i64 {
        (self.n * (self.n - 1) / 2) as i64
    }

    /// N(N−1)/2 minus the attacking pairs: the family's score, highest when solved.
    pub(crate) fn score(&self) -> i64 {
        self.max_score() - self.pairs as i64
    }

    /// The queens on the square's row and diagonals, a queen standing there included: for a
    /// column not placed yet, the queens its queen would attack there.
    #[inline]
    pub(crate) fn load(&self, col: usize, row: usize) -> u64 {
        u64::from(self.per_row[row])
            + u64::from(self.rising[col + self.n - 1 - row])
            + u64::from(self.falling[col + row])
    }

    /// The queens that `col`'s queen would attack on `row`: those on the square's lines, not
    /// counting the queen itself where it stands (it is on each of its own lines).
    #[inline]
    pub(crate) fn conflicts(&self, col: usize, row: usize) -> u64 {
        let own = if self.rows[col] == row { OWN_LINES } else { 0 };
        self.load(col, row) - own
    }

    /// Whether `col`'s queen is attacked.
    pub(crate) fn is_attacked(&self, col: usize) -> bool {
        self.conflicts(col, self.rows[col]) > 0
    }

    #[inline]
    fn add(&mut self, col: usize, row: usize) {
        self.pairs += self.load(col, row);
        self.per_row[row] += 1;
        self.rising[col + self.n - 1 - row] += 1;
        self.falling[col + row] += 1;
    }

    #[inline]
    fn remove(&mut self, col: usize, row: usize) {
        self.per_row[row] -= 1;
        self.rising[col + self.n - 1 - row] -= 1;
        self.falling[col + row] -= 1;
        self.pairs -= self.load(col, row);
    }

    /// Moves the queen of `col` to `row`.
    pub(crate) fn set(&mut self, col: usize, row: usize) {
        let from = self.rows[col];
        self.remove(col, from);
        self.rows[col] = row;
        self.add(col, row);
    }

    /// The score after moving the queen of `col` to `row`, without moving it.
    #[inline]
    pub(crate) fn score_if(&self, col: usize, row: usize) -> i64 {
        let from = self.rows[col];
        if from == row {
            return self.score();
        }
        // Pairs lost by leaving `from`, pairs gained at `row` (the rows and diagonals of the two
        // squares differ, except a shared diagonal, which the counts below account for).
        let lost = self.conflicts(col, from);
        let mut gained = self.load(col, row);
        let (r1, f1) = (col + self.n - 1 - from, col + from);
        let (r2, f2) = (col + self.n - 1 - row, col + row);
        gained -= u64::from(r1 == r2) + u64::from(f1 == f2);
        self.max_score() - (self.pairs - lost + gained) as i64
    }

    /// The queens, column by column.
    pub(crate) fn squares(&self) -> Vec<Square> {
        self.rows
            .iter()
            .enumerate()
            .map(|(col, &row)| Square::new(row as u32, col as u32))
            .collect()
    }

    /// The board as a permutation board.
    pub(crate) fn board(&self) -> Board {
        Board::from_permutation(self.rows.iter().map(|&r| r as u32).collect())
            .expect("rows lie on the board")
    }
}
