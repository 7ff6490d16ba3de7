//! Error types of the core vocabulary.
//!
//! Bad input is an error; a problem without a solution, or a search that ran out of budget, is
//! not — those are [`Verdict`](crate::Verdict)s.

use thiserror::Error;

use crate::square::square_name;
use crate::square::{Line, Square};
use crate::words::counted;

/// A board that cannot exist.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum BoardError {
    /// A side of zero.
    #[error("a board needs at least one row and one column, got {rows}×{cols}")]
    EmptyBoard {
        /// Requested ranks.
        rows: u32,
        /// Requested files.
        cols: u32,
    },
    /// A queen outside the board.
    #[error("square {} is off the {rows}×{cols} board", square_name(*square, *cols))]
    OffBoard {
        /// The offending square.
        square: Square,
        /// Board ranks.
        rows: u32,
        /// Board files.
        cols: u32,
    },
    /// The same square given twice.
    #[error("two queens on square {0}")]
    DuplicateQueen(Square),
    /// More than `u32::MAX` squares on a side.
    #[error("the board is too large (at most {} squares on a side)", u32::MAX)]
    TooLarge,
    /// The memory a board needs cannot be had (a `ulimit -v`, a full machine).
    #[error("not enough memory to check this board")]
    NoMemory,
}

/// A problem that is malformed (as opposed to merely unsolvable).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ProblemError {
    /// The board itself is invalid, or a fixed queen is off it or repeated.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// No queens at all.
    #[error("the number of queens must be at least 1")]
    NoQueens,
    /// More queens than can stand without sharing a row or column.
    #[error("{queens} queens cannot fit on the {rows}×{cols} board without sharing a row or column (at most {})", rows.min(cols))]
    TooManyQueens {
        /// Requested queens.
        queens: u32,
        /// Board ranks.
        rows: u32,
        /// Board files.
        cols: u32,
    },
    /// More fixed queens than queens.
    #[error("{fixed} fixed queens but only {} in total", counted(*.queens, "queen", "queens"))]
    TooManyFixed {
        /// Fixed queens given.
        fixed: usize,
        /// Queens in total.
        queens: u32,
    },
    /// A fixed queen on a blocked square.
    #[error("the fixed queen on {} stands on a blocked square", square_name(*square, *cols))]
    FixedOnBlocked {
        /// The square.
        square: Square,
        /// Board files (for naming squares).
        cols: u32,
    },
    /// Two fixed queens attack each other.
    #[error("fixed queens {} and {} attack each other along {}", square_name(*a, *cols), square_name(*b, *cols), line.with_article())]
    FixedQueensAttack {
        /// One queen.
        a: Square,
        /// The other queen.
        b: Square,
        /// The line they share.
        line: Line,
        /// Board files (for naming squares).
        cols: u32,
    },
}

/// What is wrong with the number of a square's rank, row or column.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum SquareNumber {
    /// 0, where they count from 1.
    #[error("ranks, rows and columns count from 1 (a1 and r1c1 are the corner)")]
    Zero,
    /// 2³² or more: no board has it.
    #[error("no board has it (rows and columns count up to 4294967295)")]
    PastEveryBoard,
}

/// Text that is not a square, a list of squares or a board.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    /// Not `d1`-style nor `r1c4`-style.
    #[error("'{}' is not a square (expected algebraic like d1 or R1C1 like r1c4)", excerpt(.0))]
    Square(String),
    /// A square in either notation whose rank, row or column is not one of a board's.
    #[error("'{}' is not a square: {number}", excerpt(square))]
    SquareNumber {
        /// The text given.
        square: String,
        /// What is wrong with its number.
        number: SquareNumber,
    },
    /// A list with an empty item (`a1,,b3`).
    #[error("empty square in list '{}'", excerpt(.0))]
    EmptyItem(String),
    /// Input with nothing in it.
    #[error("no board found in the input")]
    Empty,
    /// A text diagram whose lines differ in width.
    #[error("text board line {line} has {}, expected {expected}", counted(*.found, "square", "squares"))]
    RaggedText {
        /// 1-based line number.
        line: usize,
        /// Squares on that line.
        found: usize,
        /// Squares on the first line.
        expected: usize,
    },
    /// A permutation entry that is not a row number or is off the board.
    #[error(
        "permutation entry {index} ('{}') is not a row between 0 and {max}",
        excerpt(token)
    )]
    Permutation {
        /// 0-based column of the entry.
        index: usize,
        /// The text found.
        token: String,
        /// The largest valid row.
        max: usize,
    },
    /// A permutation entry that is not a number (found while streaming, before N is known).
    #[error("permutation entry {index} ('{}') is not a row number", excerpt(token))]
    PermutationToken {
        /// 0-based column of the entry.
        index: usize,
        /// The text found.
        token: String,
    },
    /// Malformed JSON, or JSON of the wrong shape.
    #[error("invalid JSON board: {0}")]
    Json(String),
    /// Input that matches none of the board formats.
    #[error(
        "unrecognised board format (expected a text diagram, a permutation, JSON or a list of squares): {0}"
    )]
    Unrecognised(String),
    /// A well-formed board that cannot exist.
    #[error(transparent)]
    Board(#[from] BoardError),
}

/// A solver that cannot run on the problem it was given.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum SolveError {
    /// The solver does not handle this shape of problem.
    #[error("{solver} cannot solve this problem: {reason}")]
    Unsupported {
        /// The solver's name.
        solver: &'static str,
        /// Why, in a few words.
        reason: String,
    },
    /// The solver would need more memory than it may use.
    #[error("{solver} would need about {} for this board, more than its limit of {}", human_bytes(*needed), human_bytes(*limit))]
    TooLarge {
        /// The solver's name.
        solver: &'static str,
        /// Estimated bytes.
        needed: u128,
        /// Bytes allowed.
        limit: u128,
    },
    /// A parameter value the solver refuses.
    #[error(transparent)]
    Parameter(#[from] ParamError),
    /// The solver produced a board that failed validation: a bug, reported rather than hidden.
    #[error("{solver} returned an invalid board: {reason}")]
    InvalidSolution {
        /// The solver's name.
        solver: &'static str,
        /// What the validator found.
        reason: String,
    },
}

/// The most characters of a user's text an error message quotes.
pub const EXCERPT_CHARS: usize = 40;

/// `text` as an error message quotes it: whole when short, else its first [`EXCERPT_CHARS`]
/// characters and how long it is, so that a bad megabyte-long token gives a short line.
pub fn excerpt(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(EXCERPT_CHARS) {
        None => std::borrow::Cow::Borrowed(text),
        Some((cut, _)) => std::borrow::Cow::Owned(format!(
            "{}… ({} characters)",
            &text[..cut],
            text.chars().count()
        )),
    }
}

/// The longest run without a space a message keeps whole (a long path fits).
pub const LONG_WORD_CHARS: usize = 200;

/// `message` with every run of more than [`LONG_WORD_CHARS`] characters without a space cut to
/// its [`excerpt`]: the last guard of every error line and JSON error, whatever quoted a user's
/// token whole (a parser's message, a library's).
pub fn clip_long_words(message: &str) -> std::borrow::Cow<'_, str> {
    if message
        .split_whitespace()
        .all(|word| word.chars().nth(LONG_WORD_CHARS).is_none())
    {
        return std::borrow::Cow::Borrowed(message);
    }
    let mut clipped = String::with_capacity(message.len().min(4096));
    let mut rest = message;
    while !rest.is_empty() {
        let space = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (word, after) = rest.split_at(space);
        if word.chars().nth(LONG_WORD_CHARS).is_some() {
            clipped.push_str(&excerpt(word));
        } else {
            clipped.push_str(word);
        }
        let gap = after
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(after.len());
        clipped.push_str(&after[..gap]);
        rest = &after[gap..];
    }
    std::borrow::Cow::Owned(clipped)
}

/// `message` as a user is told it, the last guard of every error line, warning and JSON error:
/// the numbers Rust's I/O errors append (`No such file or directory (os error 2)`) dropped, as
/// the words before them say all a user needs, and every overlong word cut by
/// [`clip_long_words`].
pub fn for_users(message: &str) -> std::borrow::Cow<'_, str> {
    match without_os_error_numbers(message) {
        std::borrow::Cow::Borrowed(text) => clip_long_words(text),
        std::borrow::Cow::Owned(text) => {
            std::borrow::Cow::Owned(clip_long_words(&text).into_owned())
        }
    }
}

/// The errors whose words do not say that the limit reached is one the user set (`EFBIG`,
/// "File too large"; `EMFILE`, "Too many open files"), by number, and what is said after their
/// words in the number's place.
const LIMITS_NAMED: [(&str, &str); 2] = [
    ("27", " for the file-size limit (ulimit -f)"),
    ("24", " under the open-files limit (ulimit -n)"),
];

/// `message` without the ` (os error N)` of each operating-system error in it (those of
/// [`LIMITS_NAMED`] naming their limit instead).
fn without_os_error_numbers(message: &str) -> std::borrow::Cow<'_, str> {
    const MARK: &str = " (os error ";
    if !message.contains(MARK) {
        return std::borrow::Cow::Borrowed(message);
    }
    let mut kept = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find(MARK) {
        let after = &rest[at + MARK.len()..];
        let digits = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        if digits > 0 && after[digits..].starts_with(')') {
            kept.push_str(&rest[..at]);
            if let Some((_, limit)) = LIMITS_NAMED.iter().find(|(n, _)| *n == &after[..digits]) {
                kept.push_str(limit);
            }
            rest = &after[digits + 1..];
        } else {
            kept.push_str(&rest[..at + MARK.len()]);
            rest = after;
        }
    }
    kept.push_str(rest);
    std::borrow::Cow::Owned(kept)
}

/// Bytes in binary units, one decimal: `4.0 GiB`.
pub fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Whether a whole-number range holds two values only.
fn is_switch(min: f64, max: f64) -> bool {
    (max as i64).checked_sub(min as i64) == Some(1)
}

/// "0 or 1" and "1 to 100000" for whole numbers, "[0, 1]" for real ones.
pub(crate) fn range_text(min: f64, max: f64, integer: bool) -> String {
    if !integer {
        format!("[{min}, {max}]")
    } else if is_switch(min, max) {
        format!("{min} or {max}")
    } else {
        format!("{min} to {max}")
    }
}

/// A parameter value that is refused. The messages are the same on the command line, in the
/// web API and in Python.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ParamError {
    /// A name the solver does not read.
    #[error("{solver} has no parameter '{}' (it reads: {known})", excerpt(name))]
    Unknown {
        /// The solver.
        solver: &'static str,
        /// The name given.
        name: String,
        /// The names it reads, or "nothing".
        known: String,
    },
    /// The same name twice.
    #[error("{} is given twice", excerpt(.0))]
    Twice(String),
    /// Text that is not a number, or a value that is not finite.
    #[error("{} must be a number, got '{}'", excerpt(name), excerpt(value))]
    NotANumber {
        /// The parameter.
        name: String,
        /// What was given.
        value: String,
    },
    /// A fraction where a whole number is needed.
    #[error("{name} must be a whole number, got {value}")]
    NotWhole {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// A value outside the range.
    #[error("{name} must be {}, got {value}", bound_text(*value, *min, *max, *integer))]
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The smallest allowed.
        min: f64,
        /// The largest allowed.
        max: f64,
        /// Whether it is a whole number.
        integer: bool,
    },
    /// A value that does not fit the board or the other parameters.
    #[error("{0}")]
    Invalid(String),
}

/// "in [0, 1]", "0 or 1", "at least 1 (1 to 4294967295)".
fn bound_text(value: f64, min: f64, max: f64, integer: bool) -> String {
    if !integer {
        return format!("in {}", range_text(min, max, integer));
    }
    if is_switch(min, max) {
        return range_text(min, max, integer);
    }
    let side = if value < min {
        format!("at least {min}")
    } else {
        format!("at most {max}")
    };
    format!("{side} ({})", range_text(min, max, integer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_are_told_the_words_of_an_os_error_not_its_number() {
        let missing = std::io::Error::from_raw_os_error(2);
        let told = format!("cannot read x.json: {missing}");
        assert!(told.contains("(os error 2)"), "{told}");
        assert_eq!(
            for_users(&told),
            "cannot read x.json: No such file or directory"
        );
        assert_eq!(
            for_users("a: Address in use (os error 98): b: Permission denied (os error 13)"),
            "a: Address in use: b: Permission denied"
        );
        // EFBIG and EMFILE name the limit the user set.
        #[cfg(target_os = "linux")]
        assert_eq!(
            for_users(&format!(
                "cannot write c.json: {}",
                std::io::Error::from_raw_os_error(27)
            )),
            "cannot write c.json: File too large for the file-size limit (ulimit -f)"
        );
        #[cfg(target_os = "linux")]
        assert_eq!(
            for_users(&format!(
                "cannot read c.json: {}",
                std::io::Error::from_raw_os_error(24)
            )),
            "cannot read c.json: Too many open files under the open-files limit (ulimit -n)"
        );
        // Only the whole mark goes; a text that merely looks like it stays.
        for kept in [
            "plain",
            "x (os error )",
            "x (os error 2",
            "x (os error two)",
        ] {
            assert_eq!(for_users(kept), kept);
        }
        let long = format!("{} (os error 5)", "x".repeat(LONG_WORD_CHARS + 1));
        assert!(for_users(&long).ends_with("characters)"), "clipped too");
    }

    #[test]
    fn long_tokens_are_quoted_by_an_excerpt_and_short_ones_whole() {
        assert_eq!(excerpt("d9"), "d9");
        let long = "é".repeat(1000);
        let quoted = excerpt(&long);
        assert_eq!(
            quoted,
            format!("{}… (1000 characters)", "é".repeat(EXCERPT_CHARS))
        );
        let path = format!("/data/{}/board.txt", "a".repeat(150));
        let message = format!("cannot read {path}: got '{}' there", "9".repeat(1 << 20));
        let clipped = clip_long_words(&message);
        assert!(clipped.len() < 400, "{clipped}");
        assert!(clipped.starts_with(&format!("cannot read {path}: got ")));
        assert!(clipped.ends_with(" there"));
        assert!(matches!(
            clip_long_words("a short line  with  spaces"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
