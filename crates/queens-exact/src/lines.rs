//! Bookkeeping of the lines queens occupy, shared by the exhaustive solvers.

use queens_core::Square;

/// How many queens stand on each row, column and diagonal of an R×C board, so that "is this
/// square attacked?" is four lookups.
#[derive(Clone, Debug)]
pub(crate) struct LineCounts {
    cols: u32,
    by_row: Vec<u32>,
    by_col: Vec<u32>,
    by_diagonal: Vec<u32>,
    by_anti_diagonal: Vec<u32>,
}

impl LineCounts {
    pub(crate) fn new(rows: u32, cols: u32) -> Self {
        let diagonals = (rows + cols - 1) as usize;
        LineCounts {
            cols,
            by_row: vec![0; rows as usize],
            by_col: vec![0; cols as usize],
            by_diagonal: vec![0; diagonals],
            by_anti_diagonal: vec![0; diagonals],
        }
    }

    #[inline]
    fn diagonal(&self, square: Square) -> usize {
        (square.row + (self.cols - 1) - square.col) as usize
    }

    #[inline]
    fn anti_diagonal(square: Square) -> usize {
        (square.row + square.col) as usize
    }

    /// Whether a queen on the board attacks `square` (or stands on it).
    #[inline]
    pub(crate) fn is_attacked(&self, square: Square) -> bool {
        self.by_row[square.row as usize] > 0
            || self.by_col[square.col as usize] > 0
            || self.by_diagonal[self.diagonal(square)] > 0
            || self.by_anti_diagonal[Self::anti_diagonal(square)] > 0
    }

    #[inline]
    pub(crate) fn place(&mut self, square: Square) {
        let (d, a) = (self.diagonal(square), Self::anti_diagonal(square));
        self.by_row[square.row as usize] += 1;
        self.by_col[square.col as usize] += 1;
        self.by_diagonal[d] += 1;
        self.by_anti_diagonal[a] += 1;
    }

    #[inline]
    pub(crate) fn remove(&mut self, square: Square) {
        let (d, a) = (self.diagonal(square), Self::anti_diagonal(square));
        self.by_row[square.row as usize] -= 1;
        self.by_col[square.col as usize] -= 1;
        self.by_diagonal[d] -= 1;
        self.by_anti_diagonal[a] -= 1;
    }
}

/// The brute-force solvers' full-board test: are these queens pairwise peaceful?
///
/// Each line remembers the board (by a stamp) that last used it, so a check is one pass over
/// the queens and nothing is cleared between boards.
#[derive(Clone, Debug)]
pub(crate) struct PeaceCheck {
    cols: u32,
    stamp: u32,
    by_row: Vec<u32>,
    by_col: Vec<u32>,
    by_diagonal: Vec<u32>,
    by_anti_diagonal: Vec<u32>,
}

impl PeaceCheck {
    pub(crate) fn new(rows: u32, cols: u32) -> Self {
        let diagonals = (rows + cols - 1) as usize;
        PeaceCheck {
            cols,
            stamp: 0,
            by_row: vec![0; rows as usize],
            by_col: vec![0; cols as usize],
            by_diagonal: vec![0; diagonals],
            by_anti_diagonal: vec![0; diagonals],
        }
    }

    /// Whether no two of `queens` share a line.
    pub(crate) fn is_peaceful(&mut self, queens: impl IntoIterator<Item = Square>) -> bool {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            for lines in [
                &mut self.by_row,
                &mut self.by_col,
                &mut self.by_diagonal,
                &mut self.by_anti_diagonal,
            ] {
                lines.fill(0);
            }
            self.stamp = 1;
        }
        let stamp = self.stamp;
        let cols = self.cols;
        queens.into_iter().all(|q| {
            let slots = [
                &mut self.by_row[q.row as usize],
                &mut self.by_col[q.col as usize],
                &mut self.by_diagonal[(q.row + (cols - 1) - q.col) as usize],
                &mut self.by_anti_diagonal[(q.row + q.col) as usize],
            ];
            if slots.iter().any(|slot| **slot == stamp) {
                return false;
            }
            for slot in slots {
                *slot = stamp;
            }
            true
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_follow_place_and_remove() {
        let mut lines = LineCounts::new(4, 5);
        let queen = Square::new(1, 2);
        lines.place(queen);
        for attacked in [
            Square::new(1, 4),
            Square::new(3, 2),
            Square::new(2, 3),
            Square::new(0, 3),
        ] {
            assert!(lines.is_attacked(attacked), "{attacked:?}");
        }
        assert!(!lines.is_attacked(Square::new(0, 0)));
        lines.remove(queen);
        assert!(!lines.is_attacked(Square::new(1, 4)));
    }

    #[test]
    fn peace_check_agrees_with_pairwise_attacks() {
        let mut check = PeaceCheck::new(5, 5);
        let all: Vec<Square> = (0..5)
            .flat_map(|r| (0..5).map(move |c| Square::new(r, c)))
            .collect();
        for &a in &all {
            for &b in &all {
                if a != b {
                    assert_eq!(check.is_peaceful([a, b]), !a.attacks(b), "{a:?} {b:?}");
                }
            }
        }
    }
}
