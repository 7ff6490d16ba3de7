//! n-Queens Completion instances from files: the formats of CSPLib's problems 079 and 080, and
//! our own JSON problem, each read into a [`Problem`].
//!
//! | format | looks like | squares |
//! |---|---|---|
//! | excluded diagonals (079) | `n = 10` / `numdiags = 14` / `diags = [[4, 1], [14, 0], …]` | `[v, 1]` excludes the sum diagonal row + col = v, `[v, 0]` the difference diagonal row − col = v − (n − 1); 0-based |
//! | completion (079) | `letting n = …` / `letting init = [[r, c], …]` | queens already placed, 0-based |
//! | blocked (080) | `letting n = 28` / `letting blocks = [[1, 1], …]` | squares no queen may take, 1-based |
//! | JSON | `{"n": 8, "fixed": [{"row": 0, "col": 3}], "blocked": […]}` | 0-based, as every JSON square (`rows` and `cols` for R×C) |
//!
//! An excluded diagonal blocks each of its squares. Any prefix of a diagonal list is an instance
//! of its own: [`Instance::with_diagonals`] takes the first D. A file that is not one of these
//! gets the line and what was expected.
//!
//! ```
//! use queens_core::instance::Instance;
//!
//! let instance = Instance::parse("n = 4\nnumdiags = 2\ndiags = [[3, 1], [3, 0]]\n")?;
//! let problem = instance.with_diagonals(Some(1))?.problem()?;
//! // The sum diagonal row + col = 3 of the 4×4 board: d1, c2, b3, a4.
//! assert_eq!(problem.blocked().len(), 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::Deserialize;
use thiserror::Error;

use crate::board::Square;
use crate::error::ProblemError;
use crate::json::WholeNumber;
use crate::problem::Problem;

/// The most squares an instance may block: 8 bytes each, so that a file cannot make a reader
/// allocate more than 128 MiB for them.
pub const MAX_BLOCKED: u64 = 1 << 24;

/// The largest side an instance may give: instances are decided by the completion search, which
/// takes boards up to 1024×1024 (the published ones are at most 402 wide).
pub const MAX_SIDE: u32 = 1024;

/// A file that is not an instance, or an instance that is not a problem.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum InstanceError {
    /// The text does not follow the format.
    #[error("line {line}: {expected}")]
    Syntax {
        /// 1-based line of the text.
        line: usize,
        /// What was expected there, and what was found.
        expected: String,
    },
    /// Well-formed, but not a problem the workbench takes.
    #[error("{0}")]
    Invalid(String),
    /// The squares do not make a problem.
    #[error(transparent)]
    Problem(#[from] ProblemError),
}

/// A syntax error at `line`, saying what was expected there.
fn syntax(line: usize, expected: impl Into<String>) -> InstanceError {
    InstanceError::Syntax {
        line,
        expected: expected.into(),
    }
}

/// An n-Queens Completion instance: a board side, queens already placed, squares no queen may
/// take, and for the excluded-diagonals format the diagonals in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Board ranks.
    pub rows: u32,
    /// Board files.
    pub cols: u32,
    /// Queens to place, placed ones included (`None`: one a row or column).
    pub queens: Option<u32>,
    /// Queens already placed.
    pub fixed: Vec<Square>,
    /// Squares no queen may take, besides the excluded diagonals.
    pub blocked: Vec<Square>,
    /// The excluded diagonals, in the file's order.
    pub diagonals: Vec<Diagonal>,
}

/// A diagonal of the excluded-diagonals format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diagonal {
    /// The squares with row + col = the value.
    Sum(u32),
    /// The squares with row − col = the value.
    Difference(i64),
}

impl Instance {
    /// Reads an instance in any of the formats; the format is told by the text.
    pub fn parse(text: &str) -> Result<Self, InstanceError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if text.trim_start().starts_with('{') {
            return Self::from_json(text);
        }
        let statements = essence::parse(text)?;
        let find = |name: &str| statements.iter().find(|s| s.name == name);
        let n = side(find("n"))?;
        only_known_names(&statements)?;
        let mut instance = Instance {
            rows: n,
            cols: n,
            queens: None,
            fixed: Vec::new(),
            blocked: Vec::new(),
            diagonals: diagonals(n, find("diags"), find("numdiags"))?,
        };
        if let Some(init) = find("init") {
            instance.fixed = squares(n, &init.value, init.line, "init", 0)?;
        }
        if let Some(blocks) = find("blocks") {
            instance.blocked = squares(n, &blocks.value, blocks.line, "blocks", 1)?;
        }
        if find("diags").is_none() && find("init").is_none() && find("blocks").is_none() {
            return Err(InstanceError::Invalid(
                "the instance has n but no diags, init or blocks".into(),
            ));
        }
        Ok(instance)
    }

    /// Reads our JSON problem.
    fn from_json(text: &str) -> Result<Self, InstanceError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Json {
            // Any whole number, so that a side past the largest, even past every machine
            // number, is refused by the largest and not by a type's.
            n: Option<WholeNumber>,
            rows: Option<WholeNumber>,
            cols: Option<WholeNumber>,
            queens: Option<u32>,
            #[serde(default)]
            fixed: Vec<Square>,
            #[serde(default)]
            blocked: Vec<Square>,
        }
        let json: Json = crate::json::read_object(text.as_bytes(), "the problem").map_err(|refusal| syntax(refusal.line().max(1), format!(
                "expected a JSON problem {{\"n\" (or \"rows\" and \"cols\"), \"queens\", \"fixed\", \"blocked\"}}: {refusal}"
            )))?;
        let side = |side: &WholeNumber| side.within(1..=MAX_SIDE);
        // The refusal names the sides as the problem gave them: one for a square board.
        let (side_rows, side_cols) = match (json.n, json.rows, json.cols) {
            (Some(n), None, None) => {
                let side = side(&n).ok_or_else(|| {
                    InstanceError::Invalid(format!(
                        "a JSON problem's n is 1 to {MAX_SIDE}, got {n}"
                    ))
                })?;
                (side, side)
            }
            (None, Some(rows), Some(cols)) => match (side(&rows), side(&cols)) {
                (Some(side_rows), Some(side_cols)) => (side_rows, side_cols),
                _ => {
                    return Err(InstanceError::Invalid(format!(
                        "a JSON problem's rows and cols are 1 to {MAX_SIDE}, got {rows}×{cols}"
                    )));
                }
            },
            _ => {
                return Err(InstanceError::Invalid(
                    "a JSON problem gives its size as n, or as rows and cols".into(),
                ));
            }
        };
        Ok(Instance {
            rows: side_rows,
            cols: side_cols,
            queens: json.queens,
            fixed: json.fixed,
            blocked: json.blocked,
            diagonals: Vec::new(),
        })
    }

    /// The instance with only its first `count` excluded diagonals (`None`: all of them).
    pub fn with_diagonals(mut self, count: Option<usize>) -> Result<Self, InstanceError> {
        if let Some(count) = count {
            if count > self.diagonals.len() {
                return Err(InstanceError::Invalid(format!(
                    "the instance lists {} diagonals, fewer than the {count} asked for",
                    self.diagonals.len()
                )));
            }
            self.diagonals.truncate(count);
        }
        Ok(self)
    }

    /// Every square no queen may take: the blocked ones and those of the excluded diagonals.
    pub fn blocked_squares(&self) -> Result<Vec<Square>, InstanceError> {
        let n = i64::from(self.rows);
        let mut blocked = self.blocked.clone();
        let on_diagonals: u64 = self.diagonals.len() as u64 * u64::from(self.rows);
        if blocked.len() as u64 + on_diagonals > MAX_BLOCKED {
            return Err(InstanceError::Invalid(format!(
                "the instance blocks more than {MAX_BLOCKED} squares"
            )));
        }
        for diagonal in &self.diagonals {
            for row in 0..n {
                let col = match *diagonal {
                    Diagonal::Sum(sum) => i64::from(sum) - row,
                    Diagonal::Difference(difference) => row - difference,
                };
                if (0..n).contains(&col) {
                    blocked.push(Square::new(row as u32, col as u32));
                }
            }
        }
        Ok(blocked)
    }

    /// The problem: the board, the placed queens, every blocked square.
    pub fn problem(&self) -> Result<Problem, InstanceError> {
        let mut problem = Problem::rectangular(self.rows, self.cols)?;
        if let Some(queens) = self.queens {
            problem = problem.with_queen_count(queens)?;
        }
        Ok(problem
            .with_blocked(self.blocked_squares()?)?
            .with_fixed(self.fixed.clone())?)
    }
}

/// The board side of an instance's `n = N` statement.
fn side(statement: Option<&essence::Statement>) -> Result<u32, InstanceError> {
    let statement = statement.ok_or_else(|| {
        InstanceError::Invalid("the instance gives no board side: expected `n = N`".into())
    })?;
    let n = statement.value.integer(statement.line, "n")?;
    u32::try_from(n)
        .ok()
        .filter(|n| (1..=MAX_SIDE).contains(n))
        .ok_or_else(|| {
            syntax(
                statement.line,
                format!(
                    "n must be a side from 1 to {MAX_SIDE} (the completion search's largest \
                     board), got {n}"
                ),
            )
        })
}

/// Refuses a statement that is not part of an instance.
fn only_known_names(statements: &[essence::Statement]) -> Result<(), InstanceError> {
    let known = ["n", "numdiags", "diags", "init", "blocks"];
    match statements
        .iter()
        .find(|s| !known.contains(&s.name.as_str()))
    {
        Some(other) => Err(syntax(
            other.line,
            format!(
                "'{}' is not part of an instance (expected n with diags, init or blocks)",
                other.name
            ),
        )),
        None => Ok(()),
    }
}

/// The excluded diagonals of the `diags` list, checked against `numdiags` where it is given.
fn diagonals(
    n: u32,
    diags: Option<&essence::Statement>,
    count: Option<&essence::Statement>,
) -> Result<Vec<Diagonal>, InstanceError> {
    let Some(diags) = diags else {
        return match count {
            Some(count) => Err(syntax(
                count.line,
                "numdiags is given, but no diags list follows it",
            )),
            None => Ok(Vec::new()),
        };
    };
    let mut diagonals = Vec::new();
    for &(pair, line) in diags.value.pairs(diags.line, "diags")? {
        diagonals.push(diagonal(n, pair, line)?);
    }
    if let Some(count) = count {
        let given = count.value.integer(count.line, "numdiags")?;
        if usize::try_from(given).ok() != Some(diagonals.len()) {
            return Err(syntax(
                count.line,
                format!("numdiags says {given}, but diags lists {}", diagonals.len()),
            ));
        }
    }
    Ok(diagonals)
}

/// The diagonal of a `[v, kind]` pair on an N×N board.
fn diagonal(n: u32, pair: [i64; 2], line: usize) -> Result<Diagonal, InstanceError> {
    let [value, kind] = pair;
    let last = 2 * i64::from(n) - 2;
    if !(0..=last).contains(&value) {
        return Err(syntax(
            line,
            format!("a diagonal's number is 0 to {last} on a {n}×{n} board, got {value}"),
        ));
    }
    match kind {
        1 => Ok(Diagonal::Sum(value as u32)),
        0 => Ok(Diagonal::Difference(value - (i64::from(n) - 1))),
        _ => Err(syntax(
            line,
            format!(
                "a diagonal is [number, 1] (a sum diagonal) or [number, 0] (a difference), got [{value}, {kind}]"
            ),
        )),
    }
}

/// The `[r, c]` pairs of `value` as squares of an N×N board, counted from `base`.
fn squares(
    n: u32,
    value: &essence::Value,
    line: usize,
    name: &str,
    base: i64,
) -> Result<Vec<Square>, InstanceError> {
    let pairs = value.pairs(line, name)?;
    if pairs.len() as u64 > MAX_BLOCKED {
        return Err(InstanceError::Invalid(format!(
            "{name} lists more than {MAX_BLOCKED} squares"
        )));
    }
    pairs
        .iter()
        .map(|&([row, col], line)| {
            let range = base..i64::from(n) + base;
            if range.contains(&row) && range.contains(&col) {
                Ok(Square::new((row - base) as u32, (col - base) as u32))
            } else {
                Err(syntax(
                    line,
                    format!("[{row}, {col}] is off the {n}×{n} board (the squares of `{name}` count from {base})"),
                ))
            }
        })
        .collect()
}

/// The Essence' parameter files of CSPLib: `[letting] NAME = VALUE` statements, a value an
/// integer or a list of pairs of integers, `$` starting a comment.
///
/// Read as it goes, token by token, with nothing kept but the statements' integers and pairs: a
/// list holds at most as many pairs as the board has squares (once `n` is known; the largest
/// board's before), and the first token that cannot be right is refused with its line, so that
/// neither a long file of nonsense nor a huge list is held in memory before it is checked.
mod essence {
    use super::{InstanceError, MAX_SIDE, syntax};
    use crate::error::excerpt;

    /// A statement: its name, value and line.
    pub(super) struct Statement {
        pub(super) name: String,
        pub(super) value: Value,
        pub(super) line: usize,
    }

    /// An integer, or a list of pairs, each with the line it starts on.
    pub(super) enum Value {
        Integer(i64),
        Pairs(Vec<([i64; 2], usize)>),
    }

    impl Value {
        /// The integer, or an error naming `name`.
        pub(super) fn integer(&self, line: usize, name: &str) -> Result<i64, InstanceError> {
            match self {
                Value::Integer(value) => Ok(*value),
                Value::Pairs(_) => {
                    Err(syntax(line, format!("{name} must be a number, got a list")))
                }
            }
        }

        /// The `[a, b]` pairs, each with its line.
        pub(super) fn pairs(
            &self,
            line: usize,
            name: &str,
        ) -> Result<&[([i64; 2], usize)], InstanceError> {
            match self {
                Value::Pairs(pairs) => Ok(pairs),
                Value::Integer(_) => Err(syntax(
                    line,
                    format!("{name} must be a list of pairs like [[1, 2], [3, 4]]"),
                )),
            }
        }
    }

    /// A token.
    #[derive(Debug, PartialEq)]
    enum Token {
        Word(String),
        Number(i64),
        Symbol(char),
    }

    /// The tokens of a text, one at a time, with their lines.
    struct Lexer<'t> {
        rest: &'t str,
        line: usize,
        /// The line of the text's last line, for errors at its end.
        last_line: usize,
    }

    impl<'t> Lexer<'t> {
        fn new(text: &'t str) -> Self {
            Lexer {
                rest: text,
                line: 1,
                last_line: text.lines().count().max(1),
            }
        }

        fn next(&mut self) -> Result<Option<(Token, usize)>, InstanceError> {
            self.read()
        }

        fn read(&mut self) -> Result<Option<(Token, usize)>, InstanceError> {
            loop {
                let Some(c) = self.rest.chars().next() else {
                    return Ok(None);
                };
                if c == '\n' {
                    self.line += 1;
                    self.rest = &self.rest[1..];
                } else if c.is_whitespace() {
                    self.rest = &self.rest[c.len_utf8()..];
                } else if c == '$' {
                    let end = self.rest.find('\n').unwrap_or(self.rest.len());
                    self.rest = &self.rest[end..];
                } else {
                    break;
                }
            }
            let line = self.line;
            let c = self.rest.chars().next().expect("a character is left");
            let take = |rest: &str, keep: fn(char) -> bool| {
                rest.char_indices()
                    .skip(1)
                    .find(|&(_, d)| !keep(d))
                    .map_or(rest.len(), |(i, _)| i)
            };
            let token =
                if matches!(c, '[' | ']' | ',' | '=') {
                    self.rest = &self.rest[1..];
                    Token::Symbol(c)
                } else if c == '-' || c.is_ascii_digit() {
                    let end = take(self.rest, |d| d.is_ascii_digit());
                    let text = &self.rest[..end];
                    self.rest = &self.rest[end..];
                    Token::Number(text.parse().map_err(|_| {
                        syntax(line, format!("'{}' is not a number", excerpt(text)))
                    })?)
                } else if c.is_ascii_alphabetic() || c == '_' {
                    let end = take(self.rest, |d| d.is_ascii_alphanumeric() || d == '_');
                    if end > 64 {
                        return Err(syntax(line, "a name is a short word like n or diags"));
                    }
                    let word = self.rest[..end].to_owned();
                    self.rest = &self.rest[end..];
                    Token::Word(word)
                } else {
                    return Err(syntax(
                        line,
                        format!("expected `n = …` statements of numbers and [lists], found '{c}'"),
                    ));
                };
            Ok(Some((token, line)))
        }

        fn expect(&mut self, symbol: char, what: &str) -> Result<usize, InstanceError> {
            match self.next()? {
                Some((Token::Symbol(found), line)) if found == symbol => Ok(line),
                Some((_, line)) => Err(syntax(line, what.to_owned())),
                None => Err(syntax(self.last_line, what.to_owned())),
            }
        }

        fn number(&mut self, what: &str) -> Result<i64, InstanceError> {
            match self.next()? {
                Some((Token::Number(value), _)) => Ok(value),
                Some((_, line)) => Err(syntax(line, what.to_owned())),
                None => Err(syntax(self.last_line, what.to_owned())),
            }
        }
    }

    /// The statements of `text`.
    pub(super) fn parse(text: &str) -> Result<Vec<Statement>, InstanceError> {
        let mut lexer = Lexer::new(text);
        let mut statements: Vec<Statement> = Vec::new();
        // The most pairs a list may hold: the board's squares and diagonals.
        let mut most_pairs = most_pairs(MAX_SIDE);
        while let Some((token, line)) = lexer.next()? {
            let (name, line) = match token {
                Token::Word(word) if word == "letting" => match lexer.next()? {
                    Some((Token::Word(name), line)) => (name, line),
                    Some((other, line)) => {
                        return Err(syntax(
                            line,
                            format!("expected a name like n or diags, found {other:?}"),
                        ));
                    }
                    None => return Err(syntax(lexer.last_line, "expected a name after `letting`")),
                },
                Token::Word(name) => (name, line),
                other => {
                    return Err(syntax(
                        line,
                        format!("expected a name like n or diags, found {other:?}"),
                    ));
                }
            };
            lexer.expect('=', &format!("expected '=' after {name}"))?;
            if statements.iter().any(|s| s.name == name) {
                return Err(syntax(line, format!("{name} is given twice")));
            }
            let value = value(&mut lexer, &name, most_pairs)?;
            if name == "n"
                && let Value::Integer(n) = value
                && let Ok(n) = u32::try_from(n)
            {
                most_pairs = most_pairs.min(self::most_pairs(n));
            }
            statements.push(Statement { name, value, line });
        }
        Ok(statements)
    }

    /// The most pairs a list of an N×N instance can need: a square or a diagonal each.
    fn most_pairs(n: u32) -> usize {
        let n = n.min(MAX_SIDE) as usize;
        n * n + 4 * n
    }

    fn value(lexer: &mut Lexer<'_>, name: &str, most: usize) -> Result<Value, InstanceError> {
        match lexer.next()? {
            Some((Token::Number(value), _)) => Ok(Value::Integer(value)),
            Some((Token::Symbol('['), _)) => pairs(lexer, name, most).map(Value::Pairs),
            Some((_, line)) => Err(syntax(line, "expected a number or a [list]")),
            None => Err(syntax(
                lexer.last_line,
                "expected a number or a [list] at the end of the file",
            )),
        }
    }

    /// The rest of a list of pairs, after its `[`.
    fn pairs(
        lexer: &mut Lexer<'_>,
        name: &str,
        most: usize,
    ) -> Result<Vec<([i64; 2], usize)>, InstanceError> {
        let mut pairs = Vec::new();
        let not_closed = "the list is not closed: expected ']'";
        loop {
            match lexer.next()? {
                Some((Token::Symbol(']'), _)) => return Ok(pairs),
                Some((Token::Symbol('['), line)) => {
                    if pairs.len() == most {
                        return Err(syntax(
                            line,
                            format!("{name} lists more pairs than the board has squares"),
                        ));
                    }
                    let pair_error = format!(
                        "each item of {name} must be a pair of numbers like [1, 2]; lists do \
                         not nest deeper"
                    );
                    let a = lexer.number(&pair_error)?;
                    lexer.expect(',', &pair_error)?;
                    let b = lexer.number(&pair_error)?;
                    lexer.expect(']', &pair_error)?;
                    pairs.push(([a, b], line));
                    match lexer.next()? {
                        // A comma may end a list, as the ASP competition's files end theirs.
                        Some((Token::Symbol(','), _)) => {}
                        Some((Token::Symbol(']'), _)) => return Ok(pairs),
                        Some((_, line)) => {
                            return Err(syntax(line, "expected ',' or ']' in a list"));
                        }
                        None => return Err(syntax(lexer.last_line, not_closed)),
                    }
                }
                Some((_, line)) => {
                    return Err(syntax(
                        line,
                        format!("each item of {name} must be a pair like [1, 2]"),
                    ));
                }
                None => return Err(syntax(lexer.last_line, not_closed)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIAG_8: &str = "n =  8\nnumdiags =  10\ndiags =  [[1, 1], [14, 0], [12, 0], [11, 0], [4, 1], [1, 0], [7, 1], [13, 1], [9, 1], [0, 0]]\n";

    #[test]
    fn excluded_diagonals_block_their_squares() {
        let instance = Instance::parse(DIAG_8).unwrap();
        assert_eq!(instance.diagonals.len(), 10);
        assert_eq!(instance.diagonals[0], Diagonal::Sum(1));
        // [14, 0] on 8×8: row − col = 14 − 7 = 7, the corner square (7, 0).
        assert_eq!(instance.diagonals[1], Diagonal::Difference(7));
        let first_two = instance.clone().with_diagonals(Some(2)).unwrap();
        let blocked = first_two.blocked_squares().unwrap();
        // Sum 1: (0, 1) and (1, 0); difference 7: (7, 0).
        let mut sorted = blocked.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            [Square::new(0, 1), Square::new(1, 0), Square::new(7, 0)]
        );
        for square in instance.problem().unwrap().blocked() {
            let on = instance.diagonals.iter().any(|d| match *d {
                Diagonal::Sum(sum) => square.row + square.col == sum,
                Diagonal::Difference(difference) => {
                    i64::from(square.row) - i64::from(square.col) == difference
                }
            });
            assert!(on, "{square:?}");
        }
        assert!(instance.with_diagonals(Some(11)).is_err());
    }

    #[test]
    fn completion_and_blocked_instances_read_their_bases() {
        let completion =
            Instance::parse("letting n = 8\nletting init = [[3, 1], [4, 3]]\n").unwrap();
        assert_eq!(completion.fixed, [Square::new(3, 1), Square::new(4, 3)]);
        let blocked =
            Instance::parse("letting n = 4\nletting blocks = [[1,1],\n[4,4],\n]\n").unwrap();
        assert_eq!(blocked.blocked, [Square::new(0, 0), Square::new(3, 3)]);
        assert_eq!(blocked.problem().unwrap().blocked().len(), 2);
        let json = Instance::parse(r#"{"n": 8, "fixed": [{"row": 3, "col": 1}]}"#).unwrap();
        assert_eq!(json.problem().unwrap().fixed(), [Square::new(3, 1)]);
    }

    #[test]
    fn bad_files_name_the_line_and_what_was_expected() {
        let refused = |text: &str| Instance::parse(text).unwrap_err().to_string();
        assert_eq!(
            refused("n = 8\ndiags = [[1, 1], [2, 3]]\n"),
            "line 2: a diagonal is [number, 1] (a sum diagonal) or [number, 0] (a difference), got [2, 3]"
        );
        assert_eq!(
            refused("letting n = 4\nletting blocks = [[1,1],\n[5,1]]\n"),
            "line 3: [5, 1] is off the 4×4 board (the squares of `blocks` count from 1)"
        );
        assert_eq!(
            refused("n = 8\nnumdiags = 3\ndiags = [[1, 1]]\n"),
            "line 2: numdiags says 3, but diags lists 1"
        );
        assert_eq!(
            refused("n = 8\ndiags = [[1, 1]\n"),
            "line 2: the list is not closed: expected ']'"
        );
        assert!(refused("n = x\n").starts_with("line 1: expected a number"));
        assert!(refused("n = 0\ndiags = []\n").starts_with("line 1: n must be a side"));
        assert!(refused("m = 8\n").contains("no board side"));
        assert!(refused("n = 8\nfoo = 1\n").starts_with("line 2: 'foo' is not part"));
        assert!(refused("n = 8\n").contains("no diags, init or blocks"));
        assert_eq!(
            refused("n = 8\nnumdiags = 5\n"),
            "line 2: numdiags is given, but no diags list follows it"
        );
        assert_eq!(
            refused(
                "letting n = 2\nletting blocks = [[1,1],[1,2],[2,1],[2,2],[1,1],[1,2],[2,1],[2,2],[1,1],[1,1],\n[1,1],[1,2],[2,1]]\n"
            ),
            "line 3: blocks lists more pairs than the board has squares"
        );
        assert_eq!(
            refused(&format!("n = 8\nblocks = [{}]\n", ",".repeat(1000))),
            "line 2: each item of blocks must be a pair like [1, 2]"
        );
        assert!(refused("n = 8\ndiags = [[[[[[1]]]]]]\n").contains("nest"));
        assert!(refused("{\"n\": 8, \"extra\": 1}").starts_with("line 1: expected a JSON problem"));
        // A JSON problem's side is refused by the largest board, however large it is.
        // A square one is told of its one side, an R×C one of both.
        for (problem, sides) in [
            (r#"{"n": 2000}"#, "n is 1 to 1024, got 2000"),
            (r#"{"n": 5000000000}"#, "n is 1 to 1024, got 5000000000"),
            (r#"{"n": -3}"#, "n is 1 to 1024, got -3"),
            (r#"{"n": 0}"#, "n is 1 to 1024, got 0"),
            (
                r#"{"rows": 8, "cols": 18446744073709551616}"#,
                "rows and cols are 1 to 1024, got 8×18446744073709551616",
            ),
            (
                r#"{"rows": 0, "cols": 8}"#,
                "rows and cols are 1 to 1024, got 0×8",
            ),
            (
                &format!(r#"{{"n": {}}}"#, "9".repeat(60)),
                &format!(
                    "n is 1 to 1024, got {}",
                    crate::error::excerpt(&"9".repeat(60))
                ),
            ),
            (
                &format!(r#"{{"rows": -{}, "cols": 8}}"#, "9".repeat(45)),
                &format!(
                    "rows and cols are 1 to 1024, got {}×8",
                    crate::error::excerpt(&format!("-{}", "9".repeat(45)))
                ),
            ),
        ] {
            assert_eq!(refused(problem), format!("a JSON problem's {sides}"));
        }
        assert_eq!(MAX_SIDE, 1024, "the sentences above name the largest side");
        let attacking = Instance::parse("letting n = 4\nletting init = [[0, 0], [1, 1]]\n");
        let error = attacking.unwrap().problem().unwrap_err().to_string();
        assert!(error.contains("attack"), "{error}");
    }
}
