//! The fuzzers' corpora (`fuzz/corpus/notation`, `fuzz/corpus/boards`) as regression tests:
//! every input the fuzzers kept is read again and must be answered without a panic, as the
//! fuzz targets require.

#[path = "../../../fuzz/corpus_files.rs"]
mod corpus_files;

use queens_core::Square;
use queens_core::notation::{parse_squares, square_name};
use queens_core::read::{ReadBoard, read_board};
use queens_core::verify::verify;

use corpus_files::corpus;

#[test]
fn the_notation_corpus() {
    for input in corpus("notation") {
        let Ok(text) = std::str::from_utf8(&input) else {
            continue;
        };
        if let Ok(square) = text.parse::<Square>() {
            let name = square_name(square, square.col.saturating_add(1));
            assert_eq!(name.parse::<Square>().ok(), Some(square), "{text:?}");
        }
        let _ = parse_squares(text);
    }
}

#[test]
fn the_boards_corpus() {
    for input in corpus("boards") {
        let mut reader = input.as_slice();
        if let Ok(ReadBoard::Board(board, _)) = read_board(&mut reader, 64, 1 << 16) {
            let report = verify(&board);
            assert!(report.conflicts().take(1000).count() as u64 <= report.conflict_count());
        }
    }
}
