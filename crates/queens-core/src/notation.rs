//! Reading and writing squares and boards.
//!
//! Squares: algebraic `d1` (files `a`..`z`, ranks from 1) and R1C1 `r1c4` (1-based row, then
//! column), both case-insensitive on input; lists are comma-separated. On output a board up to
//! 26 files wide uses algebraic names, a wider one R1C1.
//!
//! Boards: a text diagram (top rank first, `Q` for a queen, `.` for an empty square, spaces
//! ignored; rank numbers before the ranks and file letters under them are read too), a permutation (for each column, the 0-based row of its queen, `-` for an empty
//! column), JSON (`{"rows", "cols", "queens": [{"row", "col"}]}`, also accepting `"n"` and the
//! extra fields of `solve --format json`), or a bare list of squares. [`parse_board`] tells them
//! apart by their first characters.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::str::FromStr;

use serde::Deserialize;

use crate::board::Board;
use crate::error::{ParseError, SquareNumber};
use crate::square::Square;
pub use crate::square::{ALGEBRAIC_MAX_COLS, file_letters, square_name};
use crate::verify::Constraints;

impl FromStr for Square {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let lower = text.trim().to_ascii_lowercase();
        let shaped = parse_r1c1(&lower).or_else(|| parse_algebraic(&lower));
        let refused = |number| ParseError::SquareNumber {
            square: text.trim().to_owned(),
            number,
        };
        match shaped {
            Some(Ok(square)) => Ok(square),
            Some(Err(number)) => Err(refused(number)),
            None => Err(ParseError::Square(text.trim().to_owned())),
        }
    }
}

/// `r12c3` → row 11, column 2; `None` where the text is not of that shape.
fn parse_r1c1(text: &str) -> Option<Result<Square, SquareNumber>> {
    let (row, col) = text.strip_prefix('r')?.split_once('c')?;
    let (row, col) = (one_based(row)?, one_based(col)?);
    Some(row.and_then(|row| col.map(|col| Square::new(row, col))))
}

/// `d1` → row 0, column 3; `None` where the text is not of that shape.
fn parse_algebraic(text: &str) -> Option<Result<Square, SquareNumber>> {
    let mut chars = text.chars();
    let file = chars.next().filter(char::is_ascii_lowercase)?;
    let col = u32::from(file) - u32::from('a');
    Some(one_based(chars.as_str())?.map(|row| Square::new(row, col)))
}

/// A 1-based number of decimal digits, returned 0-based: `None` where the text is not digits,
/// the fault where the number is 0 or past every board.
fn one_based(digits: &str) -> Option<Result<u32, SquareNumber>> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number = digits.trim_start_matches('0');
    Some(if number.is_empty() {
        Err(SquareNumber::Zero)
    } else {
        number
            .parse::<u32>()
            .map(|n| n - 1)
            .map_err(|_| SquareNumber::PastEveryBoard)
    })
}

/// A comma-separated list of squares; an empty (or all-blank) text is the empty list.
pub fn parse_squares(list: &str) -> Result<Vec<Square>, ParseError> {
    if list.trim().is_empty() {
        return Ok(Vec::new());
    }
    list.split(',')
        .map(|item| {
            if item.trim().is_empty() {
                Err(ParseError::EmptyItem(list.to_owned()))
            } else {
                item.parse()
            }
        })
        .collect()
}

/// A list of squares from a file: separated by commas, by white space (line breaks included) or
/// both, so `r1⏎c4` is two squares and never `r1c4`; two commas with nothing between them are
/// refused as in [`parse_squares`].
fn parse_square_tokens(text: &str) -> Result<Vec<Square>, ParseError> {
    let mut squares = Vec::new();
    for item in text.split(',') {
        let mut tokens = item.split_whitespace().peekable();
        if tokens.peek().is_none() {
            return Err(ParseError::EmptyItem(first_line(text)));
        }
        for token in tokens {
            squares.push(token.parse()?);
        }
    }
    Ok(squares)
}

/// The text diagram: top rank first, `Q` and `.` separated by spaces, one line per rank.
pub fn write_text<W: Write + ?Sized>(board: &Board, out: &mut W) -> io::Result<()> {
    write_diagram(board, false, out)
}

/// The text diagram with its labels, as `configure` draws a board: each rank's number before
/// it, right-aligned, and the file letters under it where the board is at most 26 files wide.
/// [`parse_board`] reads it back.
pub fn write_labelled_text<W: Write + ?Sized>(board: &Board, out: &mut W) -> io::Result<()> {
    write_diagram(board, true, out)
}

fn write_diagram<W: Write + ?Sized>(board: &Board, labels: bool, out: &mut W) -> io::Result<()> {
    let cols = board.cols() as usize;
    let mut grid = vec![vec![false; cols]; board.rows() as usize];
    for queen in board.queens() {
        grid[queen.row as usize][queen.col as usize] = true;
    }
    let label_width = board.rows().to_string().len();
    let mut line = String::with_capacity(2 * cols + label_width + 1);
    for (rank, squares) in grid.iter().enumerate().rev() {
        line.clear();
        if labels {
            let _ = write!(line, "{:>label_width$} ", rank + 1);
        }
        for (col, &queen) in squares.iter().enumerate() {
            if col > 0 || labels {
                line.push(' ');
            }
            line.push(if queen { 'Q' } else { '.' });
        }
        writeln!(out, "{line}")?;
    }
    if let Some(files) = file_letters(board.cols()).filter(|_| labels) {
        writeln!(out, "{:>label_width$}  {files}", "")?;
    }
    Ok(())
}

/// The permutation line: for each column, the 0-based row of its queen (`-` for an empty
/// column), space-separated. Streams column by column, so it suits boards of any size.
///
/// Fails with [`io::ErrorKind::InvalidInput`] if a column holds two queens.
pub fn write_perm<W: Write + ?Sized>(board: &Board, out: &mut W) -> io::Result<()> {
    if let Some(rows) = board.permutation() {
        let mut digits = itoa::Buffer::new();
        for (col, &row) in rows.iter().enumerate() {
            if col > 0 {
                out.write_all(b" ")?;
            }
            out.write_all(digits.format(row).as_bytes())?;
        }
        return out.write_all(b"\n");
    }
    let rows = board.rows_by_col().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "a column holds two queens: the board has no permutation form",
        )
    })?;
    for (col, row) in rows.iter().enumerate() {
        if col > 0 {
            out.write_all(b" ")?;
        }
        match row {
            Some(row) => write!(out, "{row}")?,
            None => out.write_all(b"-")?,
        }
    }
    out.write_all(b"\n")
}

/// The board as JSON: `{"rows", "cols", "queens": [{"row", "col"}]}`.
pub fn to_json(board: &Board) -> serde_json::Value {
    serde_json::to_value(board).expect("a board is plain data")
}

impl FromStr for Board {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_board(text)
    }
}

/// Reads a board in any of the formats, telling them apart by their content.
///
/// A list of squares (or a bare JSON array) carries no board size: the board is taken to be the
/// smallest square one holding the queens with at least as many rows as queens.
pub fn parse_board(text: &str) -> Result<Board, ParseError> {
    parse_board_document(text).map(|(board, _)| board)
}

/// [`parse_board`], with what the board's own document asks of a solution: the
/// `queen_count`, `fixed` and `blocked` of a JSON board (as `solve --format json` writes
/// them); other formats carry none.
pub fn parse_board_document(text: &str) -> Result<(Board, Constraints), ParseError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(ParseError::Empty);
    }
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return parse_json(trimmed);
    }
    if trimmed
        .chars()
        .all(|c| matches!(c, 'Q' | 'q' | '.') || c.is_whitespace())
    {
        Ok((parse_text(trimmed)?, Constraints::default()))
    } else if let Some(diagram) = without_labels(trimmed) {
        Ok((parse_text(&diagram)?, Constraints::default()))
    } else if trimmed
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .all(|t| t == "-" || t.bytes().all(|b| b.is_ascii_digit()))
    {
        Ok((parse_perm(trimmed)?, Constraints::default()))
    } else {
        let squares = parse_square_tokens(trimmed)
            .map_err(|_| ParseError::Unrecognised(first_line(trimmed)))?;
        Ok((board_around(squares)?, sized_by_queens()))
    }
}

/// What a list of squares says of its board: nothing, so its size comes from its queens.
fn sized_by_queens() -> Constraints {
    Constraints {
        size_from_queens: true,
        ..Constraints::default()
    }
}

fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    let mut short: String = line.chars().take(40).collect();
    if short.len() < line.len() {
        short.push('…');
    }
    short
}

/// A labelled text diagram ([`write_labelled_text`]) without its labels, or `None` if `text`
/// is not one: every rank a number (counting down to 1) and its squares, the last line
/// optionally the file letters from `a`, as many as the squares of a rank.
fn without_labels(text: &str) -> Option<String> {
    let mut lines: Vec<&str> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .collect();
    let files = lines.last().and_then(|last| {
        let letters: Vec<&str> = last.split_whitespace().collect();
        let in_order = letters
            .iter()
            .zip(b'a'..=b'z')
            .all(|(letter, expected)| letter.as_bytes() == [expected]);
        (in_order && letters.len() <= ALGEBRAIC_MAX_COLS as usize).then_some(letters.len())
    });
    if files.is_some() {
        lines.pop();
    }
    if lines.is_empty() {
        return None;
    }
    let ranks = lines.len();
    let mut diagram = String::with_capacity(text.len());
    for (index, line) in lines.iter().enumerate() {
        let line = line.trim_start();
        let digits = line.find(|c: char| !c.is_ascii_digit())?;
        let (number, squares) = line.split_at(digits);
        let is_square = |c: char| matches!(c, 'Q' | 'q' | '.') || c.is_whitespace();
        let width = squares.chars().filter(|c| !c.is_whitespace()).count();
        if number.parse::<usize>().ok()? != ranks - index
            || !squares.chars().all(is_square)
            || width == 0
            || files.is_some_and(|files| files != width)
        {
            return None;
        }
        diagram.push_str(squares);
        diagram.push('\n');
    }
    Some(diagram)
}

/// A text diagram, read in two passes over the text so that it costs 8 bytes a queen and
/// nothing per empty square.
fn parse_text(text: &str) -> Result<Board, ParseError> {
    let width = |line: &str| line.chars().filter(|c| !c.is_whitespace()).count();
    let ranks = || text.lines().filter(|line| width(line) > 0);
    let expected = ranks().next().map_or(0, width);
    let mut rank_count = 0usize;
    for (index, rank) in ranks().enumerate() {
        let found = width(rank);
        if found != expected {
            return Err(ParseError::RaggedText {
                line: index + 1,
                found,
                expected,
            });
        }
        rank_count += 1;
    }
    let rows = u32::try_from(rank_count).map_err(|_| crate::BoardError::TooLarge)?;
    let cols = u32::try_from(expected).map_err(|_| crate::BoardError::TooLarge)?;
    let queens = ranks()
        .zip((0..rows).rev())
        .flat_map(|(rank, row)| {
            rank.chars()
                .filter(|c| !c.is_whitespace())
                .zip(0..)
                .filter(|&(c, _)| c != '.')
                .map(move |(_, col)| Square::new(row, col))
        })
        .collect();
    Ok(Board::with_queens(rows, cols, queens)?)
}

fn parse_perm(text: &str) -> Result<Board, ParseError> {
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    let n = u32::try_from(tokens.len()).map_err(|_| crate::BoardError::TooLarge)?;
    let mut rows: Vec<Option<u32>> = Vec::with_capacity(tokens.len());
    for (index, token) in tokens.iter().enumerate() {
        if *token == "-" {
            rows.push(None);
            continue;
        }
        let row = token
            .parse::<u32>()
            .ok()
            .filter(|&row| row < n)
            .ok_or_else(|| ParseError::Permutation {
                index,
                token: (*token).to_owned(),
                max: tokens.len() - 1,
            })?;
        rows.push(Some(row));
    }
    Ok(board_from_columns(rows)?)
}

/// The N×N board holding, in each column `c`, a queen on row `rows[c]` (none for `None`); N is
/// the number of columns. A full permutation is kept compact (4 bytes a queen).
pub fn board_from_columns(rows: Vec<Option<u32>>) -> Result<Board, crate::BoardError> {
    if let Some(full) = rows.iter().copied().collect::<Option<Vec<u32>>>() {
        return Board::from_permutation(full);
    }
    let n = u32::try_from(rows.len()).map_err(|_| crate::BoardError::TooLarge)?;
    let queens = rows
        .into_iter()
        .zip(0..n)
        .filter_map(|(row, col)| row.map(|row| Square::new(row, col)))
        .collect();
    Board::with_queens(n, n, queens)
}

#[derive(Deserialize)]
#[serde(untagged)]
enum JsonBoard {
    Object {
        n: Option<u32>,
        rows: Option<u32>,
        cols: Option<u32>,
        queens: Option<Vec<Square>>,
        queen_count: Option<u32>,
        fixed: Option<Vec<Square>>,
        blocked: Option<Vec<Square>>,
    },
    List(Vec<Square>),
}

fn parse_json(text: &str) -> Result<(Board, Constraints), ParseError> {
    let json_error = |e: serde_json::Error| ParseError::Json(e.to_string());
    // Check the syntax first for a precise message; the untagged enum's own error is vague.
    let value: serde_json::Value = serde_json::from_str(text).map_err(json_error)?;
    let board: JsonBoard = serde_json::from_value(value).map_err(|_| {
        ParseError::Json(
            "expected {\"rows\", \"cols\", \"queens\": [{\"row\", \"col\"}]} or a list of squares"
                .into(),
        )
    })?;
    match board {
        JsonBoard::List(queens) => Ok((board_around(queens)?, sized_by_queens())),
        JsonBoard::Object {
            n,
            rows,
            cols,
            queens,
            queen_count,
            fixed,
            blocked,
        } => {
            let queens =
                queens.ok_or_else(|| ParseError::Json("the board has no \"queens\"".into()))?;
            let board = match (rows.or(n), cols.or(n)) {
                (Some(rows), Some(cols)) => Board::with_queens(rows, cols, queens)?,
                _ if rows.is_none() && cols.is_none() => board_around(queens)?,
                _ => {
                    return Err(ParseError::Json(
                        "give both \"rows\" and \"cols\", or \"n\"".into(),
                    ));
                }
            };
            let constraints = Constraints {
                queen_count,
                fixed: fixed.unwrap_or_default(),
                blocked: blocked.unwrap_or_default(),
                size_from_queens: rows.is_none() && cols.is_none() && n.is_none(),
            };
            for &square in constraints.fixed.iter().chain(&constraints.blocked) {
                if square.row >= board.rows() || square.col >= board.cols() {
                    return Err(crate::BoardError::OffBoard {
                        square,
                        rows: board.rows(),
                        cols: board.cols(),
                    }
                    .into());
                }
            }
            Ok((board, constraints))
        }
    }
}

/// The smallest square board holding `queens` with at least as many rows as queens.
fn board_around(queens: Vec<Square>) -> Result<Board, ParseError> {
    let count = u32::try_from(queens.len()).map_err(|_| crate::BoardError::TooLarge)?;
    let side = queens
        .iter()
        .map(|q| q.row.max(q.col).saturating_add(1))
        .fold(count.max(1), u32::max);
    Ok(Board::with_queens(side, side, queens)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_in_both_styles_and_any_case() {
        assert_eq!("d1".parse::<Square>().unwrap(), Square::new(0, 3));
        assert_eq!("E7".parse::<Square>().unwrap(), Square::new(6, 4));
        assert_eq!("r20c30".parse::<Square>().unwrap(), Square::new(19, 29));
        assert_eq!("R1C5".parse::<Square>().unwrap(), Square::new(0, 4));
        // `r1` is the algebraic square on file r, not a malformed R1C1 name.
        assert_eq!("r1".parse::<Square>().unwrap(), Square::new(0, 17));
    }

    #[test]
    fn line_breaks_and_spaces_separate_the_squares_of_a_file() {
        let board = parse_board("r1\nc4\n").unwrap();
        let queens: Vec<Square> = board.queens().collect();
        assert_eq!(queens, [Square::new(0, 17), Square::new(3, 2)]);
        let board = parse_board("a1 c2,\ne3  ,g4").unwrap();
        assert_eq!(board.queen_count(), 4);
        assert!(parse_board("d 1").is_err());
        assert!(parse_board("d1,,e7").is_err());
        assert!(parse_board("d1,\n,e7").is_err());
    }

    #[test]
    fn malformed_squares_are_rejected() {
        for bad in [
            "",
            "d0",
            "r0c1",
            "r1c0",
            "1d",
            "dd1",
            "d-1",
            "r1c",
            "rc1",
            "é1",
            "d99999999999",
        ] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn square_names_round_trip() {
        for square in [Square::new(0, 0), Square::new(7, 25), Square::new(99, 26)] {
            assert_eq!(square.to_string().parse::<Square>().unwrap(), square);
            assert_eq!(square_name(square, 100).parse::<Square>().unwrap(), square);
        }
        assert_eq!(square_name(Square::new(0, 3), 8), "d1");
        assert_eq!(square_name(Square::new(0, 3), 30), "r1c4");
        assert_eq!(file_letters(8).as_deref(), Some("a b c d e f g h"));
        assert_eq!(file_letters(26).unwrap().len(), 51);
        assert_eq!(file_letters(27), None);
    }

    #[test]
    fn lists_parse_and_reject_empty_items() {
        assert_eq!(
            parse_squares("d1, e7").unwrap(),
            vec![Square::new(0, 3), Square::new(6, 4)]
        );
        assert_eq!(parse_squares("  ").unwrap(), vec![]);
        assert!(parse_squares("d1,,e7").is_err());
    }

    #[test]
    fn every_format_round_trips() {
        let board = Board::from_permutation(vec![1, 3, 0, 2]).unwrap();
        let mut text = Vec::new();
        write_text(&board, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert_eq!(text, ". Q . .\n. . . Q\nQ . . .\n. . Q .\n");
        let mut perm = Vec::new();
        write_perm(&board, &mut perm).unwrap();
        assert_eq!(perm, b"1 3 0 2\n");
        let json = to_json(&board).to_string();
        for input in [text, String::from_utf8(perm).unwrap(), json] {
            let back = parse_board(&input).unwrap();
            assert_eq!(back.sorted_queens(), board.sorted_queens(), "{input}");
            assert_eq!((back.rows(), back.cols()), (4, 4));
        }
    }

    #[test]
    fn labelled_diagrams_are_written_and_read_back() {
        let board = Board::from_permutation(vec![1, 3, 0, 2]).unwrap();
        let mut text = Vec::new();
        write_labelled_text(&board, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert_eq!(
            text,
            "4  . Q . .\n3  . . . Q\n2  Q . . .\n1  . . Q .\n   a b c d\n"
        );
        let back = parse_board(&text).unwrap();
        assert_eq!(back.sorted_queens(), board.sorted_queens());
        // Two-digit ranks are right-aligned; a board wider than 26 files has rank numbers only.
        let wide = Board::from_permutation((0..30).collect()).unwrap();
        let mut text = Vec::new();
        write_labelled_text(&wide, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.starts_with("30  . . "), "{text}");
        assert!(
            text.ends_with(" 1  Q . . . . . . . . . . . . . . . . . . . . . . . . . . . . .\n")
        );
        assert_eq!(
            parse_board(&text).unwrap().sorted_queens(),
            wide.sorted_queens()
        );
    }

    #[test]
    fn labels_that_do_not_count_down_or_match_are_refused() {
        for bad in [
            "2  Q .\n3  . Q\n   a b",
            "2  Q .\n1  . Q\n   a c",
            "2  Q .\n1  . Q\n   a b c",
            "2  Q .\n0  . Q",
            "2  Q x\n1  . Q",
            "a b",
            "a",
        ] {
            assert!(parse_board(bad).is_err(), "{bad:?} parsed");
        }
        assert_eq!(parse_board("2 Q .\n1 . Q").unwrap().queen_count(), 2);
    }

    #[test]
    fn lists_of_squares_are_boards_too() {
        let board = parse_board("b1,d2,a3,c4").unwrap();
        assert_eq!((board.rows(), board.cols()), (4, 4));
        assert_eq!(board.queen_count(), 4);
    }

    #[test]
    fn bad_boards_are_errors_not_panics() {
        for bad in [
            "",
            "Q .\n.",
            "0 5 1",
            "{\"rows\": 2}",
            "{oops",
            "hello world",
            "[{\"row\": 9, \"col\": 0}, {\"row\": 9, \"col\": 0}]",
        ] {
            assert!(parse_board(bad).is_err(), "{bad:?} parsed");
        }
    }
}
