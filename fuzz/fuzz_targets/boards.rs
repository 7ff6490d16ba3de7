//! Boards in every format `queens verify` reads: text diagrams, permutations (streamed), JSON,
//! lists of squares; then the validator over what was read.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_core::read::{ReadBoard, read_board};
use queens_core::verify::verify;

fuzz_target!(|data: &[u8]| {
    let mut input = data;
    if let Ok(ReadBoard::Board(board)) = read_board(&mut input, 64, 1 << 16) {
        let report = verify(&board);
        let listed = report.conflicts().take(1000).count() as u64;
        assert!(listed <= report.conflict_count());
    }
});
