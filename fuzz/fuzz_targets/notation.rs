//! Squares and lists of squares, as `--fix`, `--queens` and `?fix=` read them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_core::Square;
use queens_core::notation::{parse_squares, square_name};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(square) = text.parse::<Square>() {
        // A square read back from its own name is the same square.
        let name = square_name(square, square.col.saturating_add(1));
        assert_eq!(name.parse::<Square>().ok(), Some(square), "{text:?} -> {name}");
    }
    let _ = parse_squares(text);
});
