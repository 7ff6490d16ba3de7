//! Bit boards of the squares that can still take a queen, for boards of any width.
//!
//! A [`FreeBoard`] keeps every free square twice, by row (a bit per column) and by column (a bit
//! per row), so that the free squares of any row or column are a few words to count. Placing a
//! queen clears its row, its column and its two diagonals in O(N).

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
    row_taken: Vec<bool>,
    col_taken: Vec<bool>,
    queens: usize,
}

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
            row_taken: vec![false; n],
            col_taken: vec![false; n],
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
        Self::clear_line(&mut self.by_row, &mut self.by_col, self.words, row);
        Self::clear_line(&mut self.by_col, &mut self.by_row, self.words, col);
        for other_row in 0..self.n {
            let distance = other_row.abs_diff(row);
            if distance == 0 {
                continue;
            }
            if col + distance < self.n {
                self.clear(other_row, col + distance);
            }
            if let Some(left) = col.checked_sub(distance) {
                self.clear(other_row, left);
            }
        }
        self.row_taken[row] = true;
        self.col_taken[col] = true;
        self.queens += 1;
    }

    /// Clears line `index` of `lines` and the matching bit of each crossing line.
    fn clear_line(lines: &mut [u64], crossing: &mut [u64], words: usize, index: usize) {
        let keep = !(1u64 << (index % 64));
        for word in 0..words {
            let mut bits = std::mem::take(&mut lines[index * words + word]);
            while bits != 0 {
                let other = word * 64 + bits.trailing_zeros() as usize;
                crossing[other * words + index / 64] &= keep;
                bits &= bits - 1;
            }
        }
    }

    fn clear(&mut self, row: usize, col: usize) {
        self.by_row[row * self.words + col / 64] &= !(1u64 << (col % 64));
        self.by_col[col * self.words + row / 64] &= !(1u64 << (row % 64));
    }

    fn words_of(&self, rank: Rank) -> &[u64] {
        let (lines, index) = match rank {
            Rank::Row(row) => (&self.by_row, row as usize),
            Rank::Col(col) => (&self.by_col, col as usize),
        };
        &lines[index * self.words..(index + 1) * self.words]
    }

    /// Whether a queen already stands on `rank`.
    pub(crate) fn is_taken(&self, rank: Rank) -> bool {
        match rank {
            Rank::Row(row) => self.row_taken[row as usize],
            Rank::Col(col) => self.col_taken[col as usize],
        }
    }

    /// How many free squares `rank` has.
    pub(crate) fn free_count(&self, rank: Rank) -> u32 {
        self.words_of(rank)
            .iter()
            .map(|word| word.count_ones())
            .sum()
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
        let mut best: Option<(Rank, u32)> = None;
        for (rank, count) in self.open_ranks() {
            if best.is_none_or(|(_, fewest)| count < fewest) {
                best = Some((rank, count));
                if count == 0 {
                    break;
                }
            }
        }
        best
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
