//! Reading a board from a stream in any format: a permutation token by token, of any length,
//! checked as it arrives in a few bits a queen; every other format whole, up to a size limit.
//!
//! ```
//! use queens_core::read::{ReadBoard, read_board};
//!
//! let mut input: &[u8] = b"1 3 0 2\n";
//! let ReadBoard::Board(board, _) = read_board(&mut input, 1000, 1 << 20)? else { unreachable!() };
//! assert_eq!(board.queen_count(), 4);
//! # Ok::<(), queens_core::read::ReadError>(())
//! ```

use std::io::{self, BufRead, Read};

use thiserror::Error;

use crate::board::Board;
use crate::error::{BoardError, ParseError};
use crate::notation::{board_from_columns, parse_board_document};
use crate::square::Square;
use crate::verify::{Constraints, PermutationCheck, PermutationReport};
use crate::words::counted;

/// What was read.
#[derive(Debug)]
pub enum ReadBoard {
    /// The whole board, with what its own document asks of a solution (a JSON board's
    /// `queen_count`, `fixed` and `blocked`): any format but a long permutation.
    Board(Board, Constraints),
    /// A permutation longer than the board kept: only its check.
    Streamed(PermutationReport),
}

/// A board that could not be read.
#[derive(Debug, Error)]
pub enum ReadError {
    /// Reading failed.
    #[error("cannot read the board: {0}")]
    Io(#[from] io::Error),
    /// Text that is no board.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A board that cannot exist.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// The board would need more memory than is available.
    #[error("{0}")]
    Memory(String),
    /// A board, not a permutation, over the limit.
    #[error(
        "the board is over {} MiB: write boards this large as a permutation, which is read as a stream",
        limit >> 20
    )]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// A permutation with more columns than the board it was read for.
    #[error("the permutation has more than {cols} columns, but the board is {rows}×{cols}")]
    Wider {
        /// The board's rows.
        rows: u32,
        /// The board's columns.
        cols: u32,
    },
    /// A row that no board this input can write takes: an input of `bytes` bytes holds at most
    /// `columns` columns (a digit and a separator each), so its rows are below that.
    #[error(
        "permutation entry {index} is row {row}, but an input of {} holds at most {}, so no board it writes has that row",
        counted(*.bytes, "byte", "bytes"),
        counted(*.columns, "column", "columns")
    )]
    RowBeyondInput {
        /// 0-based column of the entry.
        index: usize,
        /// The row given.
        row: u32,
        /// The input's length.
        bytes: u64,
        /// The most columns it can hold.
        columns: u64,
    },
    /// A permutation whose rows run from 1 to N.
    #[error(
        "{0}; the rows look 1-based (1 to N), but a permutation counts rows from 0: subtract 1 from each"
    )]
    OneBased(BoardError),
}

/// Reads a board from `input`: a permutation as a stream (kept whole up to `keep_up_to`
/// columns), anything else read whole up to `max_text_bytes`.
pub fn read_board(
    input: &mut dyn BufRead,
    keep_up_to: usize,
    max_text_bytes: u64,
) -> Result<ReadBoard, ReadError> {
    read_board_on(input, keep_up_to, max_text_bytes, None)
}

/// [`read_board`] for a board whose size the caller knows (`verify --size RxC`): a
/// permutation, which tells only its columns, is read onto a rectangular `size` whole, its rows
/// checked against the size's rows (`solve 11x4 -m 4 --format perm` prints rows up to 10 in four
/// columns). A square size changes nothing here: the caller places the board on it.
pub fn read_board_on(
    input: &mut dyn BufRead,
    keep_up_to: usize,
    max_text_bytes: u64,
    size: Option<(u32, u32)>,
) -> Result<ReadBoard, ReadError> {
    read_board_of_length(input, keep_up_to, max_text_bytes, size, None)
}

/// [`read_board_on`] for an input whose length is known (a file, a text in memory): a
/// permutation's row that no board of so few columns has is refused as it comes, before the
/// rows waiting for their columns grow in memory.
pub fn read_board_of_length(
    input: &mut dyn BufRead,
    keep_up_to: usize,
    max_text_bytes: u64,
    size: Option<(u32, u32)>,
    input_bytes: Option<u64>,
) -> Result<ReadBoard, ReadError> {
    skip_byte_order_mark(input)?;
    if starts_like_a_permutation(input)? {
        let rectangle = size.filter(|(rows, cols)| rows != cols);
        let mut reader = PermutationReader::new(keep_up_to, rectangle);
        reader.input_bytes = input_bytes;
        return read_permutation(input, reader);
    }
    let mut text = String::new();
    input
        .take(max_text_bytes.saturating_add(1))
        .read_to_string(&mut text)?;
    if text.len() as u64 > max_text_bytes {
        return Err(ReadError::TooLarge {
            limit: max_text_bytes,
        });
    }
    let queens = most_queens(&text);
    crate::memory::check(
        &format!("checking a board of up to {queens} queens"),
        u128::from(queens) * u128::from(BOARD_BYTES_PER_QUEEN),
    )
    .map_err(ReadError::Memory)?;
    let (board, constraints) = parse_board_document(&text)?;
    Ok(ReadBoard::Board(board, constraints))
}

/// The largest board text read whole (every format but a permutation, which streams), by the
/// command line and Python alike.
pub const MAX_TEXT_BYTES: u64 = 64 << 20;

/// Attacking pairs listed by default: their number grows with the square of the queens on a
/// line, so only their count is complete.
pub const SHOWN_CONFLICTS: usize = 1000;

/// The most memory a board read whole takes for each queen, beyond its text: the board's
/// queens (8 bytes), the check for repeated squares (8) and the validator
/// ([`VERIFY_BYTES_PER_QUEEN`](crate::verify::VERIFY_BYTES_PER_QUEEN)).
pub const BOARD_BYTES_PER_QUEEN: u64 = 16 + crate::verify::VERIFY_BYTES_PER_QUEEN;

/// An upper bound on the queens in a board's text: a diagram's `Q`s, or, in a list of squares
/// or JSON, where every queen takes at least two characters, half the non-blank characters.
fn most_queens(text: &str) -> u64 {
    let diagram = text
        .bytes()
        .all(|b| matches!(b, b'Q' | b'q' | b'.') || b.is_ascii_whitespace());
    if diagram {
        text.bytes().filter(|&b| b == b'Q' || b == b'q').count() as u64
    } else {
        text.bytes().filter(|b| !b.is_ascii_whitespace()).count() as u64 / 2
    }
}

/// Skips a UTF-8 byte-order mark at the start of `input`, as some editors write.
fn skip_byte_order_mark(input: &mut dyn BufRead) -> io::Result<()> {
    if input.fill_buf()?.starts_with(b"\xEF\xBB\xBF") {
        input.consume(3);
    }
    Ok(())
}

/// Whether the first non-blank byte is a digit or `-`, as in a permutation, and not a rank
/// number followed by squares, as in a labelled diagram (`8  . . . Q`).
fn starts_like_a_permutation(input: &mut dyn BufRead) -> io::Result<bool> {
    loop {
        let buffer = input.fill_buf()?;
        let Some(&first) = buffer.first() else {
            return Ok(false);
        };
        if first.is_ascii_whitespace() {
            input.consume(1);
            continue;
        }
        let after_number = buffer
            .iter()
            .skip_while(|b| b.is_ascii_digit())
            .find(|&&b| b != b' ' && b != b'\t');
        let labels_a_rank = matches!(after_number, Some(b'Q' | b'q' | b'.'));
        return Ok((first.is_ascii_digit() || first == b'-') && !labels_a_rank);
    }
}

/// A permutation given as numbers rather than text (Python's arrays): the row of each column,
/// `None` for an empty column, checked as `read_board` checks a permutation's text (rows on
/// the board, the 1-based mistake named) and kept whole up to `keep_up_to` columns; read onto
/// a rectangular `size` as [`read_board_on`] reads one.
pub fn read_columns(
    rows: impl IntoIterator<Item = Option<u32>>,
    keep_up_to: usize,
    size: Option<(u32, u32)>,
) -> Result<ReadBoard, ReadError> {
    let rectangle = size.filter(|(rows, cols)| rows != cols);
    let mut reader = PermutationReader::new(keep_up_to, rectangle);
    for row in rows {
        reader.push(row)?;
    }
    reader.finish()
}

/// Reads a permutation token by token (rows separated by blanks or commas, `-` for an empty
/// column), checking it as it goes and keeping it only while it is small.
fn read_permutation(
    input: &mut dyn BufRead,
    mut reader: PermutationReader,
) -> Result<ReadBoard, ReadError> {
    // The token being read: at most 12 digits or dashes, and one byte more that ends it badly;
    // the value of its digits, read as they come; and whether a dash is among them.
    let mut token = [0u8; 13];
    let mut len = 0;
    let mut value = 0u64;
    let mut dash = false;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            break;
        }
        let length = buffer.len();
        for &byte in buffer {
            let digit = byte.wrapping_sub(b'0');
            if len < 12 && (digit < 10 || byte == b'-') {
                token[len] = byte;
                len += 1;
                value = value * 10 + u64::from(digit);
                dash |= digit >= 10;
            } else if byte == b',' || byte.is_ascii_whitespace() {
                if len > 0 {
                    reader.token(&token[..len], value, dash)?;
                    (len, value, dash) = (0, 0, false);
                }
            } else {
                token[len] = byte;
                return Err(reader.bad(&token[..=len]).into());
            }
        }
        input.consume(length);
    }
    if len > 0 {
        reader.token(&token[..len], value, dash)?;
    }
    reader.finish()
}

/// The number `token` writes in decimal digits, if it does and fits in a `u32`.
fn decimal(token: &[u8]) -> Option<u32> {
    token.iter().try_fold(0u32, |value, &byte| {
        let digit = byte.checked_sub(b'0').filter(|&digit| digit < 10)?;
        value.checked_mul(10)?.checked_add(u32::from(digit))
    })
}

/// The state of a permutation being read.
struct PermutationReader {
    check: PermutationCheck,
    /// The rows read so far, while there are few enough to keep.
    kept: Option<Vec<Option<u32>>>,
    keep_up_to: usize,
    /// The rectangular board (rows, columns) the permutation is read onto, if one was given:
    /// then it is kept whole, and only its columns are checked as they come.
    rectangle: Option<(u32, u32)>,
    index: usize,
    /// The smallest and largest rows read.
    lowest: Option<u32>,
    highest: Option<u32>,
    /// The input's length, when known.
    input_bytes: Option<u64>,
}

impl PermutationReader {
    fn new(keep_up_to: usize, rectangle: Option<(u32, u32)>) -> Self {
        PermutationReader {
            check: PermutationCheck::default(),
            kept: Some(Vec::new()),
            keep_up_to: if rectangle.is_some() {
                usize::MAX
            } else {
                keep_up_to
            },
            rectangle,
            index: 0,
            lowest: None,
            highest: None,
            input_bytes: None,
        }
    }

    /// Takes `token` as the next column, given the `value` of its digits and whether a dash is
    /// among them: a token of digits only that fits is a row as it stands; the rest (a dash,
    /// too large a number) is read again, and named if it is no column.
    #[inline]
    fn token(&mut self, token: &[u8], value: u64, dash: bool) -> Result<(), ReadError> {
        match u32::try_from(value) {
            // Digits only (at most 12 of them, so no overflow): a row.
            Ok(row) if !dash => self.push(Some(row)),
            _ => self.column(token),
        }
    }

    /// Takes `token`, which is not empty, as the next column.
    fn column(&mut self, token: &[u8]) -> Result<(), ReadError> {
        let row = if token == b"-" {
            None
        } else {
            Some(decimal(token).ok_or_else(|| self.bad(token))?)
        };
        self.push(row)
    }

    /// Takes `row` as the next column.
    fn push(&mut self, row: Option<u32>) -> Result<(), ReadError> {
        if let Some((rows, cols)) = self.rectangle {
            if self.index >= cols as usize {
                return Err(ReadError::Wider { rows, cols });
            }
            if let Some(rows_kept) = &mut self.kept {
                rows_kept.push(row);
            }
            self.index += 1;
            return Ok(());
        }
        if let (Some(row), Some(bytes)) = (row, self.input_bytes) {
            // Every column takes a byte and all but the last a separator.
            let columns = bytes.div_ceil(2);
            if u64::from(row) >= columns {
                return Err(ReadError::RowBeyondInput {
                    index: self.index,
                    row,
                    bytes,
                    columns,
                });
            }
        }
        if let Some(row) = row {
            self.lowest = Some(self.lowest.map_or(row, |low| low.min(row)));
            self.highest = Some(self.highest.map_or(row, |high| high.max(row)));
        }
        self.check.push(row)?;
        if let Some(rows) = &mut self.kept {
            if rows.len() < self.keep_up_to {
                rows.push(row);
            } else {
                self.kept = None;
            }
        }
        self.index += 1;
        Ok(())
    }

    /// The board (or, past `keep_up_to` columns, the check's report), once every column is in.
    fn finish(self) -> Result<ReadBoard, ReadError> {
        if let Some((rows, cols)) = self.rectangle {
            let kept = self.kept.unwrap_or_default();
            let queens = kept
                .into_iter()
                .zip(0..)
                .filter_map(|(row, col)| row.map(|row| Square::new(row, col)))
                .collect();
            let board = Board::with_queens(rows, cols, queens)?;
            return Ok(ReadBoard::Board(board, Constraints::default()));
        }
        let one_based = self.looks_one_based();
        let report = self.check.finish().map_err(|error| {
            if one_based {
                ReadError::OneBased(error)
            } else {
                error.into()
            }
        })?;
        Ok(match self.kept {
            Some(rows) => ReadBoard::Board(board_from_columns(rows)?, Constraints::default()),
            None => ReadBoard::Streamed(report),
        })
    }

    /// Rows from 1 to the column count, none 0: someone counted rows from 1.
    fn looks_one_based(&self) -> bool {
        self.lowest == Some(1) && self.highest == u32::try_from(self.index).ok()
    }

    fn bad(&self, token: &[u8]) -> ParseError {
        ParseError::PermutationToken {
            index: self.index,
            token: String::from_utf8_lossy(token).into_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, keep: usize) -> Result<ReadBoard, ReadError> {
        read_board(&mut text.as_bytes(), keep, 1 << 10)
    }

    #[test]
    fn every_format_and_its_limits() {
        assert!(matches!(read("1 3 0 2", 10), Ok(ReadBoard::Board(..))));
        assert!(matches!(read("1 3 0 2", 2), Ok(ReadBoard::Streamed(_))));
        assert!(matches!(read(". Q\nQ .", 10), Ok(ReadBoard::Board(..))));
        // A labelled diagram starts with a digit, but its rank number is followed by squares.
        let Ok(ReadBoard::Board(labelled, _)) = read("2  . Q\n1  Q .\n   a b\n", 10) else {
            panic!("a labelled diagram is read whole");
        };
        assert_eq!(labelled.queen_count(), 2);
        assert!(matches!(read("d1,e7", 10), Ok(ReadBoard::Board(..))));
        assert!(matches!(read("2 4 1 3", 10), Err(ReadError::OneBased(_))));
        let columns = |rows: &[Option<u32>]| read_columns(rows.iter().copied(), 10, None);
        assert!(matches!(
            columns(&[Some(1), Some(3), Some(0), Some(2)]),
            Ok(ReadBoard::Board(..))
        ));
        assert!(matches!(
            columns(&[Some(2), Some(4), Some(1), Some(3)]),
            Err(ReadError::OneBased(_))
        ));
        assert!(matches!(
            columns(&[Some(1), None, Some(9)]),
            Err(ReadError::Board(_))
        ));
        assert!(matches!(read("1 3 x", 10), Err(ReadError::Parse(_))));
        assert!(matches!(
            read(&"Q".repeat(2000), 10),
            Err(ReadError::TooLarge { limit: 1024 })
        ));
        assert!(matches!(
            read("\u{feff}1 3 0 2", 10),
            Ok(ReadBoard::Board(..))
        ));
        assert!(matches!(
            read("\u{feff}. Q\nQ .", 10),
            Ok(ReadBoard::Board(..))
        ));
    }

    #[test]
    fn permutation_tokens_are_decimal_rows_that_fit() {
        assert_eq!(decimal(b"0"), Some(0));
        assert_eq!(decimal(b"007"), Some(7));
        assert_eq!(decimal(b"4294967295"), Some(u32::MAX));
        assert_eq!(decimal(b"4294967296"), None);
        assert_eq!(decimal(b"99999999999"), None);
        assert_eq!(decimal(b"-5"), None);
        assert_eq!(decimal(b"1-"), None);
        for bad in ["1 -5 0", "1 4294967296 0", "1 2- 0"] {
            assert!(matches!(read(bad, 10), Err(ReadError::Parse(_))), "{bad}");
        }
    }
}
