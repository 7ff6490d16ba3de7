//! The fuzzers' corpora (`fuzz/corpus/notation`, `fuzz/corpus/boards`) as regression tests:
//! every input the fuzzers kept is read again and must be answered without a panic, as the
//! fuzz targets require.

use std::path::Path;

use queens_core::Square;
use queens_core::notation::{parse_squares, square_name};
use queens_core::read::{ReadBoard, read_board};
use queens_core::verify::verify;

/// The files of one corpus.
fn corpus(name: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(name);
    let inputs: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| std::fs::read(entry.unwrap().path()).unwrap())
        .collect();
    assert!(!inputs.is_empty(), "{} is empty", dir.display());
    inputs
}

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
        if let Ok(ReadBoard::Board(board)) = read_board(&mut reader, 64, 1 << 16) {
            let report = verify(&board);
            assert!(report.conflicts().take(1000).count() as u64 <= report.conflict_count());
        }
    }
}
