//! Laws of the core vocabulary, checked on random boards: the validator against a brute-force
//! pairwise oracle, the symmetry group, and notation round trips.

use proptest::prelude::*;
use queens_core::notation::{parse_board, to_json, write_labelled_text, write_perm, write_text};
use queens_core::symmetry::{Symmetry, canonical, orbit_size};
use queens_core::verify::verify;
use queens_core::{Board, Line, Square};

/// An R×C board (1..=12 each way) with up to 12 distinct queens.
fn any_board() -> impl Strategy<Value = Board> {
    (1u32..=12, 1u32..=12).prop_flat_map(|(rows, cols)| {
        proptest::collection::btree_set((0..rows, 0..cols), 0..=12).prop_map(move |squares| {
            let queens = squares
                .into_iter()
                .map(|(r, c)| Square::new(r, c))
                .collect();
            Board::with_queens(rows, cols, queens).unwrap()
        })
    })
}

fn any_square_board() -> impl Strategy<Value = Board> {
    any_board().prop_filter("square", |b| b.rows() == b.cols())
}

/// The oracle: every pair of queens, compared coordinate by coordinate.
fn attacking_pairs(board: &Board) -> Vec<(Square, Square, Line)> {
    let mut pairs = Vec::new();
    let queens = board.sorted_queens();
    for (i, &a) in queens.iter().enumerate() {
        for &b in &queens[i + 1..] {
            let dr = i64::from(a.row) - i64::from(b.row);
            let dc = i64::from(a.col) - i64::from(b.col);
            let line = if dr == 0 {
                Line::Row
            } else if dc == 0 {
                Line::Column
            } else if dr == dc {
                Line::Diagonal
            } else if dr == -dc {
                Line::AntiDiagonal
            } else {
                continue;
            };
            pairs.push((a, b, line));
        }
    }
    pairs.sort_unstable_by_key(|&(a, b, line)| (a, b, line as u8));
    pairs
}

proptest! {
    #[test]
    fn validator_agrees_with_pairwise_oracle(board in any_board()) {
        let report = verify(&board);
        let mut found: Vec<_> = report.conflicts().map(|c| (c.a, c.b, c.line)).collect();
        found.sort_unstable_by_key(|&(a, b, line)| (a, b, line as u8));
        let expected = attacking_pairs(&board);
        prop_assert_eq!(report.conflict_count(), expected.len() as u64);
        prop_assert_eq!(&found, &expected);
        prop_assert_eq!(report.is_peaceful(), expected.is_empty());
        prop_assert_eq!(
            report.is_solution(),
            expected.is_empty() && board.queens().len() == board.rows().min(board.cols()) as usize
        );
    }

    #[test]
    fn shared_line_agrees_with_the_oracle(board in any_board()) {
        for (a, b, line) in attacking_pairs(&board) {
            prop_assert_eq!(a.shared_line(b), Some(line));
            prop_assert_eq!(b.shared_line(a), Some(line));
        }
    }

    #[test]
    fn four_quarter_turns_are_the_identity(board in any_square_board()) {
        let mut turned = board.clone();
        for _ in 0..4 {
            turned = Symmetry::Rotate90.apply_board(&turned).unwrap();
        }
        prop_assert_eq!(turned.sorted_queens(), board.sorted_queens());
    }

    #[test]
    fn reflections_are_involutions(board in any_board()) {
        for symmetry in Symmetry::of_board(board.rows(), board.cols()) {
            if matches!(symmetry, Symmetry::Rotate90 | Symmetry::Rotate270) {
                continue;
            }
            let twice = symmetry.apply_board(&symmetry.apply_board(&board).unwrap()).unwrap();
            prop_assert_eq!(twice.sorted_queens(), board.sorted_queens(), "{:?}", symmetry);
        }
    }

    #[test]
    fn canonical_form_is_invariant(board in any_board()) {
        let form = canonical(&board);
        for symmetry in Symmetry::of_board(board.rows(), board.cols()) {
            let image = symmetry.apply_board(&board).unwrap();
            prop_assert_eq!(canonical(&image), form.clone());
        }
        prop_assert!(form.sorted_queens() <= board.sorted_queens());
    }

    #[test]
    fn symmetries_preserve_attacks(board in any_board()) {
        for symmetry in Symmetry::of_board(board.rows(), board.cols()) {
            let image = symmetry.apply_board(&board).unwrap();
            prop_assert_eq!(verify(&image).conflict_count(), verify(&board).conflict_count());
        }
    }

    #[test]
    fn orbit_sizes_divide_the_group(board in any_board()) {
        let group = Symmetry::of_board(board.rows(), board.cols()).count();
        prop_assert_eq!(group % orbit_size(&board), 0);
    }

    #[test]
    fn text_and_json_round_trip(board in any_board()) {
        let mut text = Vec::new();
        write_text(&board, &mut text).unwrap();
        let mut labelled = Vec::new();
        write_labelled_text(&board, &mut labelled).unwrap();
        for input in [
            String::from_utf8(text).unwrap(),
            String::from_utf8(labelled).unwrap(),
            to_json(&board).to_string(),
        ] {
            let back = parse_board(&input).unwrap();
            prop_assert_eq!((back.rows(), back.cols()), (board.rows(), board.cols()));
            prop_assert_eq!(back.sorted_queens(), board.sorted_queens());
        }
    }

    #[test]
    fn permutations_round_trip(rows in proptest::collection::vec(0u32..40, 1..40)) {
        let n = rows.len() as u32;
        let rows: Vec<u32> = rows.into_iter().map(|r| r % n).collect();
        let board = Board::from_permutation(rows).unwrap();
        let mut perm = Vec::new();
        write_perm(&board, &mut perm).unwrap();
        let back = parse_board(std::str::from_utf8(&perm).unwrap()).unwrap();
        prop_assert_eq!(back.sorted_queens(), board.sorted_queens());
    }

    #[test]
    fn square_names_round_trip(row in 0u32..100_000, col in 0u32..100_000) {
        let square = Square::new(row, col);
        prop_assert_eq!(square.to_string().parse::<Square>().unwrap(), square);
        prop_assert_eq!(format!("r{}c{}", row + 1, col + 1).parse::<Square>().unwrap(), square);
    }
}

#[test]
fn the_eight_symmetries_of_a_solution_are_eight_solutions() {
    // 8-queens solution 0 4 7 5 2 6 1 3 has a trivial stabiliser: eight distinct images.
    let board = Board::from_permutation(vec![0, 4, 7, 5, 2, 6, 1, 3]).unwrap();
    assert_eq!(orbit_size(&board), 8);
    for symmetry in Symmetry::ALL {
        assert!(verify(&symmetry.apply_board(&board).unwrap()).is_solution());
    }
    // The 6-queens solution is symmetric under the half turn: an orbit of 4.
    let six = Board::from_permutation(vec![1, 3, 5, 0, 2, 4]).unwrap();
    assert_eq!(orbit_size(&six), 4);
}

#[test]
fn rectangular_boards_keep_four_symmetries() {
    assert_eq!(Symmetry::of_board(3, 5).count(), 4);
    assert_eq!(Symmetry::of_board(5, 5).count(), 8);
    assert_eq!(
        Symmetry::Transpose.apply_board(&Board::empty(3, 5).unwrap()),
        None
    );
}
