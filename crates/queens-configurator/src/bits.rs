//! Bit boards of the squares that can still take a queen, for boards of any width.
//!
//! A [`FreeBoard`] keeps every free square twice, by row (a bit per column) and by column (a bit
//! per row), and how many free squares each row and column has, kept up to date as squares are
//! cleared: the tightest line, which every search node branches on, is one scan of 2N small
//! counts. Placing a queen clears its row, its column and its two diagonals in O(N).

use queens_core::Square;
use serde::{Deserialize, Serialize};

/// A row or a column of the board: the lines the searches branch on, and the lines an
/// explanation says were left empty. In JSON `{"row": r}` or `{"col": c}`, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rank {
    /// A row (rank), by 0-based index.
    Row(u32),
    /// A column (file), by 0-based index.
    Col(u32),
}

/// The free squares of an N×N board with some queens on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FreeBoard {
    n: usize,
    words: usize,
    /// `by_row[r * words ..]`: the free columns of row `r`.
    by_row: Vec<u64>,
    /// `by_col[c * words ..]`: the free rows of column `c`.
    by_col: Vec<u64>,
    /// The free squares of each row, then of each column; [`TAKEN`] for a line holding a
    /// queen.
    free: Vec<u32>,
    queens: usize,
}

/// The free count of a line that holds a queen: above any real count, so that the scan for the
/// tightest line passes over it.
const TAKEN: u32 = u32::MAX;

impl FreeBoard {
    /// An empty N×N board: every square free.
    pub(crate) fn new(n: u32) -> Self {
        let n = n as usize;
        let words = n.div_ceil(64);
        let mut line = vec![0u64; words];
        for (index, word) in line.iter_mut().enumerate() {
            let bits = (n - index * 64).min(64);
            *word = if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
        }
        let full: Vec<u64> = line.iter().copied().cycle().take(n * words).collect();
        FreeBoard {
            n,
            words,
            by_row: full.clone(),
            by_col: full,
            free: vec![n as u32; 2 * n],
            queens: 0,
        }
    }

    /// An empty N×N board with `blocked` squares taken out of the free ones.
    pub(crate) fn with_blocked(n: u32, blocked: &[Square]) -> Self {
        let mut board = FreeBoard::new(n);
        for &square in blocked {
            board.clear(square.row as usize, square.col as usize);
        }
        board
    }

    /// The board of a position: its blocked squares taken out, its queens placed.
    pub(crate) fn of(position: &crate::Position) -> Self {
        let mut board = FreeBoard::with_blocked(position.side(), position.blocked());
        for &queen in position.queens() {
            board.place(queen);
        }
        board
    }

    /// The side of the board.
    pub(crate) fn side(&self) -> u32 {
        self.n as u32
    }

    /// How many queens are on the board.
    pub(crate) fn queen_count(&self) -> usize {
        self.queens
    }

    /// Whether `square` is free: not blocked, no queen on it or attacking it.
    pub(crate) fn is_free(&self, square: Square) -> bool {
        let (row, col) = (square.row as usize, square.col as usize);
        self.by_row[row * self.words + col / 64] >> (col % 64) & 1 == 1
    }

    /// Puts a queen on a free square and clears every square it attacks.
    pub(crate) fn place(&mut self, square: Square) {
        debug_assert!(self.is_free(square), "a queen goes on a free square");
        let (row, col) = (square.row as usize, square.col as usize);
        let n = self.n;
        let (rows_free, cols_free) = self.free.split_at_mut(n);
        Self::clear_line(
            &mut self.by_row,
            &mut self.by_col,
            cols_free,
            self.words,
            row,
        );
        Self::clear_line(
            &mut self.by_col,
            &mut self.by_row,
            rows_free,
            self.words,
            col,
        );
        rows_free[row] = TAKEN;
        cols_free[col] = TAKEN;
        for other_row in 0..self.n {
            let distance = other_row.abs_diff(row);
            // A row with no free square (one holding a queen, most of them late in a search)
            // has nothing to clear.
            if distance == 0 || self.free[other_row] == 0 || self.free[other_row] == TAKEN {
                continue;
            }
            if col + distance < self.n {
                self.clear(other_row, col + distance);
            }
            if let Some(left) = col.checked_sub(distance) {
                self.clear(other_row, left);
            }
        }
        self.queens += 1;
    }

    /// Clears line `index` of `lines` and the matching bit of each crossing line, one fewer
    /// free square for each of those in `crossing_free`.
    fn clear_line(
        lines: &mut [u64],
        crossing: &mut [u64],
        crossing_free: &mut [u32],
        words: usize,
        index: usize,
    ) {
        let keep = !(1u64 << (index % 64));
        for word in 0..words {
            let mut bits = std::mem::take(&mut lines[index * words + word]);
            while bits != 0 {
                let other = word * 64 + bits.trailing_zeros() as usize;
                crossing[other * words + index / 64] &= keep;
                crossing_free[other] -= 1;
                bits &= bits - 1;
            }
        }
    }

    /// Takes a square out of the free ones, if it is free.
    fn clear(&mut self, row: usize, col: usize) {
        let word = &mut self.by_row[row * self.words + col / 64];
        let bit = 1u64 << (col % 64);
        if *word & bit != 0 {
            *word &= !bit;
            self.by_col[col * self.words + row / 64] &= !(1u64 << (row % 64));
            self.free[row] -= 1;
            self.free[self.n + col] -= 1;
        }
    }

    fn words_of(&self, rank: Rank) -> &[u64] {
        let (lines, index) = match rank {
            Rank::Row(row) => (&self.by_row, row as usize),
            Rank::Col(col) => (&self.by_col, col as usize),
        };
        &lines[index * self.words..(index + 1) * self.words]
    }

    /// Where `rank`'s count is kept in `free`.
    fn slot(&self, rank: Rank) -> usize {
        match rank {
            Rank::Row(row) => row as usize,
            Rank::Col(col) => self.n + col as usize,
        }
    }

    /// The rank whose count is kept at `slot` of `free`.
    fn rank_at(&self, slot: usize) -> Rank {
        if slot < self.n {
            Rank::Row(slot as u32)
        } else {
            Rank::Col((slot - self.n) as u32)
        }
    }

    /// Whether a queen already stands on `rank`.
    pub(crate) fn is_taken(&self, rank: Rank) -> bool {
        self.free[self.slot(rank)] == TAKEN
    }

    /// How many free squares `rank` has (none once a queen stands on it).
    pub(crate) fn free_count(&self, rank: Rank) -> u32 {
        match self.free[self.slot(rank)] {
            TAKEN => 0,
            count => count,
        }
    }

    /// The free squares of `rank`, in increasing order along it.
    pub(crate) fn free_in(&self, rank: Rank) -> impl Iterator<Item = Square> + '_ {
        self.words_of(rank)
            .iter()
            .enumerate()
            .flat_map(|(index, &word)| {
                std::iter::successors((word != 0).then_some(word), |rest| {
                    let next = rest & (rest - 1);
                    (next != 0).then_some(next)
                })
                .map(move |bits| (index * 64) as u32 + bits.trailing_zeros())
            })
            .map(move |along| match rank {
                Rank::Row(row) => Square::new(row, along),
                Rank::Col(col) => Square::new(along, col),
            })
    }

    /// Every row and column still without a queen, with its number of free squares, rows
    /// first.
    pub(crate) fn open_ranks(&self) -> impl Iterator<Item = (Rank, u32)> + '_ {
        (0..self.n as u32)
            .map(Rank::Row)
            .chain((0..self.n as u32).map(Rank::Col))
            .filter(|&rank| !self.is_taken(rank))
            .map(|rank| (rank, self.free_count(rank)))
    }

    /// The empty row or column with the fewest free squares (rows first on ties), with that
    /// count; `None` when every row holds a queen. A count of 0 means the position is dead.
    pub(crate) fn tightest_rank(&self) -> Option<(Rank, u32)> {
        let mut best = (0, TAKEN);
        for (slot, &count) in self.free.iter().enumerate() {
            if count < best.1 {
                best = (slot, count);
                if count == 0 {
                    break;
                }
            }
        }
        (best.1 != TAKEN).then(|| (self.rank_at(best.0), best.1))
    }

    /// The empty row or column with no free square left, if there is one.
    pub(crate) fn empty_rank(&self) -> Option<Rank> {
        match self.tightest_rank() {
            Some((rank, 0)) => Some(rank),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn free_squares(board: &FreeBoard) -> Vec<Square> {
        (0..board.side())
            .flat_map(|row| board.free_in(Rank::Row(row)).collect::<Vec<_>>())
            .collect()
    }

    #[test]
    fn placing_clears_exactly_the_attacked_squares() {
        for n in [1, 5, 63, 64, 65, 130] {
            for square in [
                Square::new(0, 0),
                Square::new(n / 2, n / 3),
                Square::new(n - 1, 0),
            ] {
                let mut board = FreeBoard::new(n);
                board.place(square);
                let expected: Vec<Square> = (0..n)
                    .flat_map(|row| (0..n).map(move |col| Square::new(row, col)))
                    .filter(|&other| other != square && !other.attacks(square))
                    .collect();
                assert_eq!(free_squares(&board), expected, "n = {n}, queen {square:?}");
                for col in 0..n {
                    let by_col: Vec<Square> = board.free_in(Rank::Col(col)).collect();
                    let by_row: Vec<Square> =
                        expected.iter().copied().filter(|s| s.col == col).collect();
                    assert_eq!(by_col, by_row);
                }
            }
        }
    }

    #[test]
    fn the_kept_counts_are_the_free_squares_of_each_line() {
        for n in [1, 7, 64, 65, 130] {
            let mut board = FreeBoard::with_blocked(n, &[Square::new(0, n - 1)]);
            let mut queens = 0;
            for col in (0..n).step_by(3) {
                let square = Square::new((col * 5 + 1) % n, col);
                if board.is_free(square) {
                    board.place(square);
                    queens += 1;
                }
                for line in (0..n).map(Rank::Row).chain((0..n).map(Rank::Col)) {
                    let bits = board.free_in(line).count() as u32;
                    assert_eq!(board.free_count(line), bits, "n = {n}, {line:?}");
                }
            }
            assert_eq!(board.queen_count(), queens);
            let tightest = board
                .open_ranks()
                .min_by_key(|&(_, count)| count)
                .map(|(_, count)| count);
            assert_eq!(board.tightest_rank().map(|(_, count)| count), tightest);
        }
    }

    #[test]
    fn tightest_rank_finds_an_emptied_line() {
        // On 4×4, queens on a1 and c2 leave row 3 (index 2) with no free square.
        let mut board = FreeBoard::new(4);
        board.place(Square::new(0, 0));
        board.place(Square::new(1, 2));
        assert_eq!(board.empty_rank(), Some(Rank::Row(2)));
        let mut full = FreeBoard::new(1);
        assert_eq!(full.tightest_rank(), Some((Rank::Row(0), 1)));
        full.place(Square::new(0, 0));
        assert_eq!(full.queen_count(), 1);
        assert_eq!(full.tightest_rank(), None);
    }
}
