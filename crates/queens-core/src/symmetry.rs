//! The symmetries of the board and the canonical form of a position.
//!
//! A square board has the eight symmetries of the square (the dihedral group D4); a rectangular
//! one keeps the four that do not swap rows with columns. Two positions are the same up to
//! symmetry when they have the same [`canonical`] form, which is how "unique" solutions are
//! counted (OEIS A002562).

use crate::board::{Board, Square};
use crate::problem::Problem;

/// One symmetry of the board, acting on squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves every square where it is.
    Identity,
    /// A quarter turn clockwise (square boards only).
    Rotate90,
    /// A half turn.
    Rotate180,
    /// Three quarter turns clockwise (square boards only).
    Rotate270,
    /// Mirror left to right: file `a` ↔ the last file.
    MirrorFiles,
    /// Mirror top to bottom: rank 1 ↔ the last rank.
    MirrorRanks,
    /// Reflect in the a1–h8 diagonal, swapping rows and columns (square boards only).
    Transpose,
    /// Reflect in the a8–h1 diagonal (square boards only).
    AntiTranspose,
}

impl Symmetry {
    /// All eight symmetries, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorFiles,
        Symmetry::MirrorRanks,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Whether this symmetry maps an R×C board onto itself.
    pub fn preserves(self, rows: u32, cols: u32) -> bool {
        rows == cols
            || matches!(
                self,
                Symmetry::Identity
                    | Symmetry::Rotate180
                    | Symmetry::MirrorFiles
                    | Symmetry::MirrorRanks
            )
    }

    /// The symmetries that map an R×C board onto itself.
    pub fn of_board(rows: u32, cols: u32) -> impl Iterator<Item = Symmetry> {
        Symmetry::ALL
            .into_iter()
            .filter(move |s| s.preserves(rows, cols))
    }

    /// Where `square` goes on an R×C board. The symmetry must [`preserve`](Self::preserves)
    /// the board.
    pub fn apply(self, square: Square, rows: u32, cols: u32) -> Square {
        debug_assert!(self.preserves(rows, cols));
        let Square { row: r, col: c } = square;
        let (last_row, last_col) = (rows - 1, cols - 1);
        match self {
            Symmetry::Identity => square,
            Symmetry::Rotate90 => Square::new(c, last_row - r),
            Symmetry::Rotate180 => Square::new(last_row - r, last_col - c),
            Symmetry::Rotate270 => Square::new(last_col - c, r),
            Symmetry::MirrorFiles => Square::new(r, last_col - c),
            Symmetry::MirrorRanks => Square::new(last_row - r, c),
            Symmetry::Transpose => Square::new(c, r),
            Symmetry::AntiTranspose => Square::new(last_col - c, last_row - r),
        }
    }

    /// The image of a whole board. `None` if the symmetry does not preserve its shape.
    pub fn apply_board(self, board: &Board) -> Option<Board> {
        let (rows, cols) = (board.rows(), board.cols());
        if !self.preserves(rows, cols) {
            return None;
        }
        let queens = board.queens().map(|q| self.apply(q, rows, cols)).collect();
        Some(
            Board::with_queens(rows, cols, queens).expect("a symmetry is a bijection of the board"),
        )
    }
}

/// The sorted queen lists of `board`'s images under each of its symmetries.
fn sorted_images(board: &Board) -> impl Iterator<Item = Vec<Square>> + '_ {
    let (rows, cols) = (board.rows(), board.cols());
    Symmetry::of_board(rows, cols).map(move |s| {
        let mut queens: Vec<Square> = board.queens().map(|q| s.apply(q, rows, cols)).collect();
        queens.sort_unstable();
        queens
    })
}

/// The canonical form of a position: among its images under the board's symmetries, the one
/// whose sorted queen list is smallest. Queens come out sorted.
pub fn canonical(board: &Board) -> Board {
    let best = sorted_images(board)
        .min()
        .expect("the identity always applies");
    Board::with_queens(board.rows(), board.cols(), best)
        .expect("a symmetry is a bijection of the board")
}

/// The symmetries that keep `problem` what it is, the identity first: those of its board that
/// take its fixed queens onto themselves and its blocked squares onto themselves. Under them,
/// and only them, every solution's image is a solution too.
pub fn keeping(problem: &Problem) -> Vec<Symmetry> {
    let (rows, cols) = (problem.rows(), problem.cols());
    let onto_itself = |symmetry: Symmetry, squares: &[Square]| {
        let mut images: Vec<Square> = squares
            .iter()
            .map(|&square| symmetry.apply(square, rows, cols))
            .collect();
        let mut own = squares.to_vec();
        images.sort_unstable();
        own.sort_unstable();
        images == own
    };
    Symmetry::of_board(rows, cols)
        .filter(|&s| onto_itself(s, problem.fixed()) && onto_itself(s, problem.blocked()))
        .collect()
}

/// Whether `queens` (on a `rows`×`cols` board) is the least of its kind under `symmetries`:
/// its sorted queens no greater than any image's. Each kind has one least member, so that
/// listing the least alone lists each kind once (OEIS A002562's unique solutions, under the
/// eight symmetries of a square); a search that places queens rank by rank, each from the a-file
/// on, finds it first of its kind.
pub fn is_least_of_kind(queens: &[Square], rows: u32, cols: u32, symmetries: &[Symmetry]) -> bool {
    let mut own = queens.to_vec();
    own.sort_unstable();
    let mut image = Vec::with_capacity(own.len());
    symmetries.iter().all(|&symmetry| {
        image.clear();
        image.extend(own.iter().map(|&square| symmetry.apply(square, rows, cols)));
        image.sort_unstable();
        own <= image
    })
}

/// A problem's kinds: the turns and mirrors that keep it ([`keeping`]), under which a solution
/// is listed once, as the least of its kind ([`is_least_of_kind`]).
#[derive(Clone, Debug)]
pub struct Kinds {
    symmetries: Vec<Symmetry>,
    rows: u32,
    cols: u32,
}

impl Kinds {
    /// The kinds of `problem`'s solutions.
    pub fn of(problem: &Problem) -> Self {
        Kinds {
            symmetries: keeping(problem),
            rows: problem.rows(),
            cols: problem.cols(),
        }
    }

    /// The turns and mirrors that keep the problem, the identity first.
    pub fn symmetries(&self) -> &[Symmetry] {
        &self.symmetries
    }

    /// Whether the solution `queens` is the least of its kind.
    pub fn is_least(&self, queens: &[Square]) -> bool {
        is_least_of_kind(queens, self.rows, self.cols, &self.symmetries)
    }
}

/// How many distinct positions the symmetries make of `board`: 8, 4, 2 or 1 on a square board.
pub fn orbit_size(board: &Board) -> usize {
    let mut images: Vec<Vec<Square>> = sorted_images(board).collect();
    images.sort_unstable();
    images.dedup();
    images.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every solution of `problem` with one queen a row, by the test's own search.
    fn solutions(problem: &Problem) -> Vec<Vec<Square>> {
        fn place(problem: &Problem, cols: &mut Vec<u32>, out: &mut Vec<Vec<Square>>) {
            let row = cols.len() as u32;
            if row == problem.rows() {
                let queens: Vec<Square> = cols
                    .iter()
                    .enumerate()
                    .map(|(r, &c)| Square::new(r as u32, c))
                    .collect();
                if problem.fixed().iter().all(|f| queens.contains(f)) {
                    out.push(queens);
                }
                return;
            }
            for col in 0..problem.cols() {
                let free = cols
                    .iter()
                    .enumerate()
                    .all(|(r, &c)| c != col && c.abs_diff(col) != row - r as u32);
                if free && !problem.is_blocked(Square::new(row, col)) {
                    cols.push(col);
                    place(problem, cols, out);
                    cols.pop();
                }
            }
        }
        let mut out = Vec::new();
        place(problem, &mut Vec::new(), &mut out);
        out
    }

    fn squares(names: &[(u32, u32)]) -> Vec<Square> {
        names.iter().map(|&(r, c)| Square::new(r, c)).collect()
    }

    #[test]
    fn the_least_of_each_kind_are_the_unique_solutions() {
        const UNIQUE: [usize; 10] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92];
        for n in 1..=10 {
            let problem = Problem::square(n).unwrap();
            let kept = keeping(&problem);
            assert_eq!(kept, Symmetry::ALL.to_vec());
            let least = solutions(&problem)
                .iter()
                .filter(|queens| is_least_of_kind(queens, n, n, &kept))
                .count();
            assert_eq!(least, UNIQUE[n as usize - 1], "N = {n}");
        }
    }

    /// Burnside's lemma: the kinds are the mean, over the symmetries kept, of the solutions each
    /// leaves as they are; and each symmetry kept takes every solution to a solution.
    #[test]
    fn the_least_of_each_kind_are_burnsides_count_where_squares_are_fixed_or_blocked() {
        let cases = [
            (Problem::rectangular(5, 7).unwrap(), 4),
            (Problem::rectangular(6, 8).unwrap(), 4),
            (
                Problem::square(5)
                    .unwrap()
                    .with_fixed(squares(&[(2, 2)]))
                    .unwrap(),
                8,
            ),
            (
                Problem::square(8)
                    .unwrap()
                    .with_blocked(squares(&[(0, 0), (0, 7)]))
                    .unwrap(),
                2,
            ),
            (
                Problem::square(7)
                    .unwrap()
                    .with_fixed(squares(&[(0, 0)]))
                    .unwrap(),
                2,
            ),
            (
                Problem::square(8)
                    .unwrap()
                    .with_blocked(squares(&[(0, 0), (7, 7)]))
                    .unwrap(),
                4,
            ),
            (
                Problem::square(8)
                    .unwrap()
                    .with_fixed(squares(&[(0, 1)]))
                    .unwrap(),
                1,
            ),
        ];
        for (problem, symmetries) in cases {
            let (rows, cols) = (problem.rows(), problem.cols());
            let kept = keeping(&problem);
            assert_eq!(kept.len(), symmetries, "{problem:?}");
            assert_eq!(kept[0], Symmetry::Identity);
            let all = solutions(&problem);
            let sorted = |queens: &[Square], s: Symmetry| {
                let mut image: Vec<Square> =
                    queens.iter().map(|&q| s.apply(q, rows, cols)).collect();
                image.sort_unstable();
                image
            };
            let mut fixed = 0;
            for &symmetry in &kept {
                for queens in &all {
                    assert!(
                        all.contains(&sorted(queens, symmetry)),
                        "{problem:?} {symmetry:?}"
                    );
                    fixed += usize::from(sorted(queens, symmetry) == *queens);
                }
            }
            let least = all
                .iter()
                .filter(|q| is_least_of_kind(q, rows, cols, &kept))
                .count();
            assert!(
                least > 0 && least < all.len() || symmetries == 1,
                "{problem:?}"
            );
            assert_eq!(least * kept.len(), fixed, "{problem:?}");
        }
    }
}
