//! The analysis of a position: a status for every square, forced queens, completion counts and
//! a reason for every blocked square. Serializes to the `queens configure --json` contract.

use queens_core::words::counted;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use queens_core::notation::{file_letters, square_name};
use queens_core::{Line, Square};
use serde::{Deserialize, Serialize};

use crate::bits::Rank;

/// What a square can still be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A queen the user placed.
    Queen,
    /// In every completion: placed automatically.
    Forced,
    /// Attacked by a user or forced queen.
    Attacked,
    /// In at least one completion.
    Open,
    /// Not attacked, yet in no completion.
    Dead,
    /// Blocked: no queen may stand here (a square of the position, not of the analysis).
    Blocked,
    /// The node budget ran out before the square was decided.
    Unknown,
}

impl Status {
    /// Every status.
    pub const ALL: [Status; 7] = [
        Status::Queen,
        Status::Forced,
        Status::Attacked,
        Status::Open,
        Status::Dead,
        Status::Blocked,
        Status::Unknown,
    ];

    /// The one-character symbol of the board diagram.
    pub fn symbol(self) -> char {
        match self {
            Status::Queen => 'Q',
            Status::Forced => 'F',
            Status::Attacked => 'x',
            Status::Open => '.',
            Status::Dead => '#',
            Status::Blocked => '-',
            Status::Unknown => '?',
        }
    }
}

/// Why a square cannot take a queen, simplest kind first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reason {
    /// A user or forced queen attacks the square along `line`.
    Attacked {
        /// The attacking queen.
        by: Square,
        /// Whether that queen is a forced one rather than the user's.
        forced: bool,
        /// The line they share.
        line: Line,
    },
    /// The position has a row or column with no free square: its squares are all blocked or
    /// attacked by the placed and forced queens.
    NoFreeSquare {
        /// That row or column.
        line: Rank,
        /// Its blocked squares that no queen attacks (one list, shared by every dead square).
        #[serde(default = "no_squares", skip_serializing_if = "is_empty")]
        blocked: Arc<[Square]>,
    },
    /// A queen here would leave a row or column with no free square.
    EmptiesLine {
        /// That row or column.
        line: Rank,
        /// The squares of that line no queen attacks, which are blocked.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        blocked: Vec<Square>,
    },
    /// A queen here forces queens, one after another, until a row or column has no free square.
    ForcedChain {
        /// The forced queens, in order; each was the last free square of some line.
        chain: Vec<Square>,
        /// The row or column left empty.
        line: Rank,
        /// The squares of that line no queen attacks, which are blocked.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        blocked: Vec<Square>,
    },
    /// A queen here (and the chain it forces, if any) leaves `k` empty rows whose free squares
    /// lie in only `k − 1` columns, or `k` columns squeezed into `k − 1` rows.
    Crowded {
        /// The queens forced before the crowding shows, in order (often none).
        chain: Vec<Square>,
        /// The empty lines that cannot all get a queen.
        lines: Vec<Rank>,
        /// The fewer lines of the other kind that hold all their free squares.
        onto: Vec<Rank>,
    },
    /// A queen here (and the chain it forces) leaves `line` only a few free squares, and each
    /// of them, tried in turn, empties a row or column at once or after the queens it forces.
    CaseSplit {
        /// The queens forced before the split, in order (often none).
        chain: Vec<Square>,
        /// The row or column with the fewest free squares left.
        line: Rank,
        /// Each of its free squares and the line it would empty.
        cases: Vec<Case>,
    },
    /// With these user queens and blocked squares, a queen here has no completion.
    Conflict {
        /// The user queens (none of them can be dropped, when `minimal`).
        queens: Vec<Square>,
        /// The blocked squares (none of them can be freed, when `minimal`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        blocked: Vec<Square>,
        /// Whether every queen and square of the set is needed (the search could check them
        /// all).
        minimal: bool,
    },
    /// The position itself has no completion, because of these user queens and blocked
    /// squares. Every dead square of the position shares the two lists.
    Unsolvable {
        /// The user queens (none of them can be dropped, when `minimal`).
        queens: Arc<[Square]>,
        /// The blocked squares (none of them can be freed, when `minimal`).
        #[serde(default = "no_squares", skip_serializing_if = "is_empty")]
        blocked: Arc<[Square]>,
        /// Whether every queen and square of the set is needed.
        minimal: bool,
    },
}

/// An empty shared list, for a document that leaves it out.
fn no_squares() -> Arc<[Square]> {
    Arc::from([])
}

/// Whether a shared list is empty (then a document leaves it out).
#[allow(clippy::ptr_arg)]
fn is_empty(squares: &Arc<[Square]>) -> bool {
    squares.is_empty()
}

/// One case of a [`Reason::CaseSplit`]: a free square of the split line and why a queen there
/// fails too.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Case {
    /// The square tried.
    pub square: Square,
    /// The queens a queen there forces, in order (often none).
    pub chain: Vec<Square>,
    /// The row or column it leaves with no free square, when it empties one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empties: Option<Rank>,
    /// Otherwise why the board it leaves (its chain placed) fails in turn: a
    /// [`Reason::Crowded`] or a [`Reason::CaseSplit`] whose own cases each empty a line, both
    /// with an empty chain of their own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub then: Option<Box<Reason>>,
}

impl Reason {
    /// About the bytes it holds on the heap: its lists, nested cases included.
    pub fn heap_bytes(&self) -> usize {
        let squares = |list: &[Square]| std::mem::size_of_val(list);
        let ranks = |list: &[Rank]| std::mem::size_of_val(list);
        match self {
            Reason::Attacked { .. } => 0,
            Reason::NoFreeSquare { blocked, .. } => squares(blocked) / Arc::strong_count(blocked),
            Reason::EmptiesLine { blocked, .. } => squares(blocked),
            Reason::ForcedChain { chain, blocked, .. } => squares(chain) + squares(blocked),
            Reason::Crowded { chain, lines, onto } => squares(chain) + ranks(lines) + ranks(onto),
            Reason::CaseSplit { chain, cases, .. } => {
                squares(chain)
                    + cases
                        .iter()
                        .map(|case| {
                            std::mem::size_of::<Case>()
                                + squares(&case.chain)
                                + case.then.as_ref().map_or(0, |then| {
                                    std::mem::size_of::<Reason>() + then.heap_bytes()
                                })
                        })
                        .sum::<usize>()
            }
            Reason::Conflict {
                queens, blocked, ..
            } => squares(queens) + squares(blocked),
            // Lists shared by every dead square: each holder counts its share.
            Reason::Unsolvable {
                queens, blocked, ..
            } => {
                squares(queens) / Arc::strong_count(queens)
                    + squares(blocked) / Arc::strong_count(blocked)
            }
        }
    }

    /// The reason as an English sentence, squares named as on an N×N board.
    pub fn describe(&self, n: u32) -> String {
        let name = |square: Square| square_name(square, n);
        let names =
            |squares: &[Square]| list(&squares.iter().map(|&s| name(s)).collect::<Vec<_>>());
        match self {
            Reason::Attacked { by, forced, line } => format!(
                "attacked by the {}queen on {} along its {}",
                if *forced { "forced " } else { "" },
                name(*by),
                line.name()
            ),
            Reason::NoFreeSquare { line, blocked } if blocked.len() == n as usize => format!(
                "the position has no completion: every square of {} is blocked",
                rank_name(*line, n)
            ),
            Reason::NoFreeSquare { line, blocked } => format!(
                "the position has no completion: {} has no free square{}",
                rank_name(*line, n),
                blocked_rest(blocked, n)
            ),
            Reason::EmptiesLine { line, blocked } => format!(
                "a queen here would leave {} with no free square{}",
                rank_name(*line, n),
                blocked_rest(blocked, n)
            ),
            Reason::ForcedChain {
                chain,
                line,
                blocked,
            } => format!(
                "a queen here forces {} on {}, which leaves {} with no free square{}",
                if chain.len() == 1 {
                    "a queen"
                } else {
                    "queens"
                },
                names(chain),
                rank_name(*line, n),
                blocked_rest(blocked, n)
            ),
            Reason::Crowded { chain, lines, onto } => {
                format!("a queen here {}", describe_crowding(chain, lines, onto, n))
            }
            Reason::CaseSplit { chain, line, cases } => {
                format!(
                    "a queen here {}",
                    describe_case_split(chain, *line, cases, n)
                )
            }
            Reason::Conflict {
                queens, blocked, ..
            } if queens.is_empty() && blocked.is_empty() => {
                format!("no solution of the empty {n}×{n} board has a queen here")
            }
            Reason::Unsolvable {
                queens, blocked, ..
            } if queens.is_empty() && blocked.is_empty() => {
                format!("the {n}×{n} board has no solution")
            }
            Reason::Conflict {
                queens,
                blocked,
                minimal,
            } => format!(
                "together with {}, a queen here leaves no completion{}",
                culprits(queens, blocked, n),
                if *minimal { "" } else { NOT_NARROWED }
            ),
            Reason::Unsolvable {
                queens,
                blocked,
                minimal,
            } => format!(
                "the position has no completion: {} already rule{} it out{}",
                culprits(queens, blocked, n),
                if queens.len() + blocked.len() == 1 {
                    "s"
                } else {
                    ""
                },
                if *minimal { "" } else { NOT_NARROWED }
            ),
        }
    }
}

/// ": the queens attack all of it but b3 and e3, which are blocked" when a line's unattacked
/// squares are blocked; "" otherwise.
fn blocked_rest(blocked: &[Square], n: u32) -> String {
    match blocked {
        [] => String::new(),
        [one] => format!(
            ": the queens attack all of it but {}, which is blocked",
            square_name(*one, n)
        ),
        many => format!(
            ": the queens attack all of it but {}, which are blocked",
            square_list(many, n)
        ),
    }
}

/// "the queens on d1 and e7 and the blocked square b3", "the blocked squares b3 and c5", "the
/// queen on d1".
fn culprits(queens: &[Square], blocked: &[Square], n: u32) -> String {
    let queens = match queens {
        [] => None,
        [one] => Some(format!("the queen on {}", square_name(*one, n))),
        many => Some(format!("the queens on {}", square_list(many, n))),
    };
    let blocked = match blocked {
        [] => None,
        [one] => Some(format!("the blocked square {}", square_name(*one, n))),
        many => Some(format!("the blocked squares {}", square_list(many, n))),
    };
    match (queens, blocked) {
        (Some(queens), Some(blocked)) => format!("{queens} and {blocked}"),
        (Some(one), None) | (None, Some(one)) => one,
        (None, None) => "nothing".to_owned(),
    }
}

/// "forces a queen on f4, which " when `chain` has queens; "" otherwise.
fn describe_forcing(chain: &[Square], n: u32) -> String {
    if chain.is_empty() {
        return String::new();
    }
    let queens = if chain.len() == 1 {
        "a queen"
    } else {
        "queens"
    };
    format!("forces {queens} on {}, which ", square_list(chain, n))
}

/// A crowding after "a queen here": "leaves rows 2 and 5 needing a queen each, with free
/// squares only on column c".
fn describe_crowding(chain: &[Square], lines: &[Rank], onto: &[Rank], n: u32) -> String {
    format!(
        "{}leaves {} needing a queen each, with free squares only on {}",
        describe_forcing(chain, n),
        ranks(lines, n),
        if onto.is_empty() {
            "no line".to_owned()
        } else {
            ranks(onto, n)
        }
    )
}

/// A case split after "a queen here": "forces a queen on f4, which leaves row 3 only c3 and
/// h3, and each fails: c3 would leave row 8 empty; h3 would …". A case that fails by a
/// further crowding or split is told inside brackets.
fn describe_case_split(chain: &[Square], line: Rank, cases: &[Case], n: u32) -> String {
    let only: Vec<Square> = cases.iter().map(|case| case.square).collect();
    format!(
        "{}leaves {} only {}, and each fails: {}",
        describe_forcing(chain, n),
        rank_name(line, n),
        square_list(&only, n),
        describe_cases(cases, n)
    )
}

/// Each case's failure, joined by semicolons: "c3 would leave row 8 empty; h3 would …".
fn describe_cases(cases: &[Case], n: u32) -> String {
    let each: Vec<String> = cases
        .iter()
        .map(|case| {
            let square = square_name(case.square, n);
            let after = if case.chain.is_empty() {
                String::new()
            } else {
                format!("force {} and ", square_list(&case.chain, n))
            };
            match (&case.empties, case.then.as_deref()) {
                (Some(line), _) => {
                    format!("{square} would {after}leave {} empty", rank_name(*line, n))
                }
                (None, Some(Reason::CaseSplit { line, cases, .. })) => {
                    let only: Vec<Square> = cases.iter().map(|c| c.square).collect();
                    format!(
                        "{square} would {after}leave {} only {} (and each of those fails: {})",
                        rank_name(*line, n),
                        square_list(&only, n),
                        describe_cases(cases, n)
                    )
                }
                (None, Some(Reason::Crowded { lines, onto, .. })) => format!(
                    "{square} would {after}{}",
                    describe_crowding(&[], lines, onto, n)
                ),
                (None, _) => format!("{square} would fail"),
            }
        })
        .collect();
    each.join("; ")
}

/// "a1, b3 and c5".
fn square_list(squares: &[Square], n: u32) -> String {
    list(
        &squares
            .iter()
            .map(|&s| square_name(s, n))
            .collect::<Vec<_>>(),
    )
}

/// Appended to a set of queens that the node budget did not allow to shrink further.
const NOT_NARROWED: &str = " (not narrowed down further within the node budget)";

/// "row 5" or "column f" (or "column 27" on boards wider than 26 files).
pub fn rank_name(rank: Rank, n: u32) -> String {
    match rank {
        Rank::Row(row) => format!("row {}", u64::from(row) + 1),
        Rank::Col(col) if n <= 26 => format!("column {}", char::from(b'a' + col as u8)),
        Rank::Col(col) => format!("column {}", u64::from(col) + 1),
    }
}

/// "rows 3, 5 and 8" or "columns c and f": lines of one kind, by their short names.
fn ranks(lines: &[Rank], n: u32) -> String {
    let kind = match lines.first() {
        Some(Rank::Row(_)) => "row",
        _ => "column",
    };
    let names: Vec<String> = lines
        .iter()
        .map(|&line| {
            let full = rank_name(line, n);
            full.split_once(' ')
                .map_or(full.clone(), |(_, short)| short.to_owned())
        })
        .collect();
    format!(
        "{kind}{} {}",
        if names.len() == 1 { "" } else { "s" },
        list(&names)
    )
}

fn list(items: &[String]) -> String {
    match items {
        [] => "no squares".to_owned(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A reason with its sentence, as it appears in a cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Explanation {
    /// The structured reason.
    #[serde(flatten)]
    pub reason: Reason,
    /// The reason as a sentence (one, shared, for the reasons every dead square of an
    /// unsolvable position shares).
    pub text: Arc<str>,
}

/// One square of the analysis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// The rank, 0 at the bottom.
    pub row: u32,
    /// The file, 0 for `a`.
    pub col: u32,
    /// What the square can still be.
    pub status: Status,
    /// The completions with a queen here, when counts are exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completions: Option<u64>,
    /// Why an `attacked` or `dead` square is blocked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Explanation>,
}

/// Which engine produced an analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineUsed {
    /// The binary decision diagram of all solutions.
    Bdd,
    /// Completion search on bit boards.
    Search,
}

/// The analysis of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    /// The side of the board.
    pub n: u32,
    /// Whether the position has a completion; `null` when the budget could not tell.
    pub solvable: Option<bool>,
    /// The user's queens.
    pub queens: Vec<Square>,
    /// The squares no queen may take (left out of the document when there are none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocked: Vec<Square>,
    /// The queens in every completion, placed automatically.
    pub forced: Vec<Square>,
    /// Every square, row by row from the bottom.
    pub cells: Vec<Cell>,
    /// The number of completions, when counted exactly.
    pub completions: Option<u64>,
    /// The engine that decided the statuses.
    pub engine: EngineUsed,
    /// The search nodes spent (statuses, counts and explanations).
    pub nodes: u64,
}

impl Analysis {
    /// About the bytes it holds, its cells' reasons and sentences included (a list or sentence
    /// shared by many cells counted once in all): what a cache of analyses weighs.
    pub fn approximate_bytes(&self) -> usize {
        let cells: usize = self
            .cells
            .iter()
            .map(|cell| {
                std::mem::size_of::<Cell>()
                    + cell.reason.as_ref().map_or(0, |explanation| {
                        explanation.text.len() / Arc::strong_count(&explanation.text)
                            + explanation.reason.heap_bytes()
                    })
            })
            .sum();
        std::mem::size_of::<Self>()
            + cells
            + std::mem::size_of_val(self.queens.as_slice())
            + std::mem::size_of_val(self.blocked.as_slice())
            + std::mem::size_of_val(self.forced.as_slice())
    }

    /// The cell of `square`; `None` off the board (never another square's cell).
    pub fn cell(&self, square: Square) -> Option<&Cell> {
        if square.row >= self.n || square.col >= self.n {
            return None;
        }
        self.cells.get((square.row * self.n + square.col) as usize)
    }

    /// The status of `square`; `None` off the board.
    pub fn status(&self, square: Square) -> Option<Status> {
        self.cell(square).map(|cell| cell.status)
    }

    /// How many squares have `status`.
    pub fn count(&self, status: Status) -> usize {
        self.cells
            .iter()
            .filter(|cell| cell.status == status)
            .count()
    }

    /// The board diagram (top rank first) with a legend, the totals and the reason for every
    /// dead square.
    pub fn render(&self) -> String {
        let n = self.n;
        let mut out = String::new();
        let label_width = (u64::from(n)).to_string().len();
        for row in (0..n).rev() {
            let _ = write!(out, "{:>label_width$} ", u64::from(row) + 1);
            for col in 0..n {
                out.push(' ');
                out.push(self.cells[(row * n + col) as usize].status.symbol());
            }
            out.push('\n');
        }
        if let Some(files) = file_letters(n) {
            let _ = writeln!(out, "{:>label_width$}  {files}", "");
        }
        out.push_str("Q queen  F forced  . open  x attacked  # dead  ? unknown");
        out.push_str(if self.blocked.is_empty() {
            "\n"
        } else {
            "  - blocked\n"
        });
        let solvable = match self.solvable {
            Some(true) => "yes",
            Some(false) => "no",
            None => "unknown (node budget spent)",
        };
        let _ = write!(out, "solvable: {solvable}");
        if let Some(completions) = self.completions {
            let _ = write!(
                out,
                ", {}",
                counted(completions, "completion", "completions")
            );
        }
        out.push('\n');
        if !self.forced.is_empty() {
            let names: Vec<String> = self.forced.iter().map(|&s| square_name(s, n)).collect();
            let _ = writeln!(out, "forced: {}", names.join(", "));
        }
        let _ = write!(
            out,
            "open: {}, attacked: {}, dead: {}, unknown: {}",
            self.count(Status::Open),
            self.count(Status::Attacked),
            self.count(Status::Dead),
            self.count(Status::Unknown)
        );
        if !self.blocked.is_empty() {
            let _ = write!(out, ", blocked: {}", self.blocked.len());
        }
        out.push('\n');
        for cell in self.cells.iter().filter(|cell| cell.status == Status::Dead) {
            if let Some(explanation) = &cell.reason {
                let name = square_name(Square::new(cell.row, cell.col), n);
                let _ = writeln!(out, "{name} is dead: {}", explanation.text);
            }
        }
        out
    }
}

/// Boards up to this side carry every reason in their compact document (at most 1,024
/// squares); larger ones carry the reasons of the squares asked for.
pub const COMPACT_ALL_REASONS_MAX_N: u32 = 32;

/// An [`Analysis`] in few bytes, as the page asks for it on every click: the statuses as one
/// string, the counts as one list, and the reasons of the squares asked for (of every square on
/// boards up to [`COMPACT_ALL_REASONS_MAX_N`]). 200×200 with a queen is about 41 KB, where the
/// whole document is 1.6 MB.
#[derive(Clone, Debug, Serialize)]
pub struct CompactAnalysis<'a> {
    /// The side of the board.
    pub n: u32,
    /// Whether the position has a completion; `null` when the budget could not tell.
    pub solvable: Option<bool>,
    /// The user's queens.
    pub queens: &'a [Square],
    /// The blocked squares (left out when there are none).
    #[serde(skip_serializing_if = "<[Square]>::is_empty")]
    pub blocked: &'a [Square],
    /// The queens in every completion.
    pub forced: &'a [Square],
    /// The number of completions, when counted exactly.
    pub completions: Option<u64>,
    /// The engine that decided the statuses.
    pub engine: EngineUsed,
    /// The search nodes spent.
    pub nodes: u64,
    /// Every square's status as its symbol ([`Status::symbol`]), row by row from the bottom:
    /// square (row, col) is character `row * n + col`.
    pub statuses: String,
    /// What each symbol of `statuses` stands for: `{"Q": "queen", ".": "open", …}`.
    pub legend: BTreeMap<char, Status>,
    /// Every square's completions, row by row from the bottom, when counted exactly.
    pub counts: Option<Vec<u64>>,
    /// The reasons given: square index (`row * n + col`) → why that `attacked` or `dead`
    /// square is blocked.
    pub reasons: BTreeMap<u32, &'a Explanation>,
    /// Whether `reasons` holds the reason of every square that has one.
    pub all_reasons: bool,
}

impl Analysis {
    /// The compact document, with the reasons of `asked` squares (off-board ones ignored), or
    /// of every square on boards up to [`COMPACT_ALL_REASONS_MAX_N`].
    pub fn compact(&self, asked: &[Square]) -> CompactAnalysis<'_> {
        let all_reasons = self.n <= COMPACT_ALL_REASONS_MAX_N;
        let reason_of = |index: usize| {
            let cell = self.cells.get(index)?;
            cell.reason.as_ref().map(|reason| (index as u32, reason))
        };
        let reasons = if all_reasons {
            (0..self.cells.len()).filter_map(reason_of).collect()
        } else {
            asked
                .iter()
                .filter(|square| square.row < self.n && square.col < self.n)
                .filter_map(|square| reason_of((square.row * self.n + square.col) as usize))
                .collect()
        };
        let counts = self
            .completions
            .and_then(|_| self.cells.iter().map(|cell| cell.completions).collect());
        CompactAnalysis {
            n: self.n,
            solvable: self.solvable,
            queens: &self.queens,
            blocked: &self.blocked,
            forced: &self.forced,
            completions: self.completions,
            engine: self.engine,
            nodes: self.nodes,
            statuses: self.cells.iter().map(|cell| cell.status.symbol()).collect(),
            legend: Status::ALL
                .iter()
                .map(|&status| (status.symbol(), status))
                .collect(),
            counts,
            reasons,
            all_reasons,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_read_as_sentences() {
        let chain = Reason::ForcedChain {
            chain: vec![Square::new(2, 2), Square::new(3, 4)],
            line: Rank::Col(5),
            blocked: Vec::new(),
        };
        assert_eq!(
            chain.describe(8),
            "a queen here forces queens on c3 and e4, which leaves column f with no free square"
        );
        let attacked = Reason::Attacked {
            by: Square::new(0, 3),
            forced: false,
            line: Line::Diagonal,
        };
        assert_eq!(
            attacked.describe(8),
            "attacked by the queen on d1 along its diagonal"
        );
        assert_eq!(rank_name(Rank::Col(26), 30), "column 27");
        let json = serde_json::to_value(&attacked).unwrap();
        assert_eq!(json["kind"], "attacked");
        assert_eq!(json["by"]["col"], 3);
        let empties = serde_json::to_value(Reason::EmptiesLine {
            line: Rank::Row(4),
            blocked: Vec::new(),
        })
        .unwrap();
        assert_eq!(empties["line"]["row"], 4);
        assert!(empties.get("blocked").is_none());
        let blocked = Reason::EmptiesLine {
            line: Rank::Row(2),
            blocked: vec![Square::new(2, 1), Square::new(2, 4)],
        };
        assert_eq!(
            blocked.describe(8),
            "a queen here would leave row 3 with no free square: the queens attack all of it but b3 and e3, which are blocked"
        );
        let conflict = Reason::Conflict {
            queens: vec![Square::new(0, 3)],
            blocked: vec![Square::new(2, 1)],
            minimal: true,
        };
        assert_eq!(
            conflict.describe(8),
            "together with the queen on d1 and the blocked square b3, a queen here leaves no completion"
        );
        let row = (0..8)
            .map(|col| Square::new(5, col))
            .collect::<Vec<_>>()
            .into();
        assert_eq!(
            Reason::NoFreeSquare {
                line: Rank::Row(5),
                blocked: row
            }
            .describe(8),
            "the position has no completion: every square of row 6 is blocked"
        );
    }
}
