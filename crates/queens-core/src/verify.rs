//! The independent validator, in three forms that share nothing with the solvers and agree on
//! every board:
//!
//! - [`verify`] holds the board and groups its queens by the four line keys (row, column,
//!   row − col, row + col): every line with two or more queens is crowded, and the report
//!   names every attacking pair, the collisions, missing queens, fixed queens and blocked
//!   squares. O(M log M) for M queens.
//! - [`check_solution`] answers whether a held board solves its problem, and if not names one
//!   attacking pair: a bit per line, in huge pages, on two threads from 2²⁰ queens, so that it
//!   checks every answer of a billion-queen solve.
//! - [`PermutationCheck`] reads a permutation column by column as it streams, in a few bits a
//!   queen, for boards too large to hold.
//!
//! A *collision* is one meaning everywhere: for every line, its queens after the first, summed
//! over the lines, so a queen on two crowded lines counts twice; the permutation `0 1 0` has
//! three (its row, its falling diagonal and its rising diagonal each hold two queens).

use serde::Serialize;

use crate::board::{Board, Line, Square};
use crate::buckets::{bucket_shift, counting_sort};
use crate::huge::HugeBits;
use crate::problem::Problem;
use crate::square::square_name;

/// Two queens that attack each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Conflict {
    /// The first queen (the smaller square).
    pub a: Square,
    /// The second queen.
    pub b: Square,
    /// The line they share.
    pub line: Line,
}

/// A line holding two or more queens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CrowdedLine {
    /// Which kind of line.
    pub line: Line,
    /// Its queens, sorted.
    pub queens: Vec<Square>,
}

/// What a board's own problem asks of a solution beyond min(rows, cols) peaceful queens: how
/// many queens (`solve -m`), the squares whose queens are fixed, and the squares no queen may
/// take. `solve --format json` writes them beside the queens, so that `verify` judges a board
/// by the problem it was solved for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Constraints {
    /// The queens a solution holds; `None`: min(rows, cols).
    pub queen_count: Option<u32>,
    /// Squares that must hold a queen.
    pub fixed: Vec<Square>,
    /// Squares that must not.
    pub blocked: Vec<Square>,
    /// The board's size was not given but taken from its queens: the smallest square board
    /// holding them (a list of squares such as `d1,e7` says nothing of its board).
    pub size_from_queens: bool,
}

/// What the validator found on a board.
///
/// It keeps the queens once, sorted, and for each kind of line the indices of the queens on
/// crowded lines, grouped by line: at most [`VERIFY_BYTES_PER_QUEEN`] bytes a queen in all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    expected: usize,
    /// Fixed squares without a queen, sorted.
    unfixed: Vec<Square>,
    /// Queens on blocked squares, sorted.
    on_blocked: Vec<Square>,
    /// Every queen, sorted.
    queens: Vec<Square>,
    /// Per kind of line (in [`Line::ALL`] order): indices into `queens` of the queens on
    /// crowded lines, line after line, each line's sorted.
    crowded: [Vec<u32>; 4],
    /// Per kind of line: where each crowded line starts in `crowded`.
    starts: [Vec<u32>; 4],
}

/// The most memory [`verify`] takes for each queen of a board: the sorted queens (8 bytes),
/// the index being sorted (4), the crowded queens of the four kinds of line (16) and their
/// lines' starts (at most 8), with room to spare.
pub const VERIFY_BYTES_PER_QUEEN: u64 = 40;

impl Verification {
    /// The crowded lines, kind by kind ([`Line::ALL`] order), each kind by its line key.
    pub fn crowded_lines(&self) -> impl Iterator<Item = CrowdedLine> + '_ {
        self.groups().map(|(line, indices)| CrowdedLine {
            line,
            queens: indices.iter().map(|&i| self.queens[i as usize]).collect(),
        })
    }

    /// Each crowded line's kind and the indices of its queens.
    fn groups(&self) -> impl Iterator<Item = (Line, &[u32])> + '_ {
        Line::ALL.iter().enumerate().flat_map(move |(kind, &line)| {
            let (crowded, starts) = (&self.crowded[kind], &self.starts[kind]);
            (0..starts.len()).map(move |i| {
                let end = starts.get(i + 1).map_or(crowded.len(), |&e| e as usize);
                (line, &crowded[starts[i] as usize..end])
            })
        })
    }

    /// Every attacking pair, line by line.
    pub fn conflicts(&self) -> impl Iterator<Item = Conflict> + '_ {
        self.groups().flat_map(move |(line, indices)| {
            (0..indices.len()).flat_map(move |i| {
                indices[i + 1..].iter().map(move |&b| Conflict {
                    a: self.queens[indices[i] as usize],
                    b: self.queens[b as usize],
                    line,
                })
            })
        })
    }

    /// The number of attacking pairs.
    pub fn conflict_count(&self) -> u64 {
        self.groups()
            .map(|(_, indices)| {
                let k = indices.len() as u64;
                k * (k - 1) / 2
            })
            .sum()
    }

    /// Queens on the board.
    pub fn queen_count(&self) -> usize {
        self.queens.len()
    }

    /// The same findings for a board meant to hold `queens` queens rather than min(rows, cols):
    /// M queens on an R×C board.
    #[must_use]
    pub fn expecting(mut self, queens: usize) -> Self {
        self.expected = queens;
        self
    }

    /// The same findings judged by a problem's `constraints`: its queen count (when it gives
    /// one), its fixed squares (each must hold a queen) and its blocked squares (none may).
    #[must_use]
    pub fn within(mut self, constraints: &Constraints) -> Self {
        if let Some(queens) = constraints.queen_count {
            self.expected = queens as usize;
        }
        let has_queen = |square: &Square| self.queens.binary_search(square).is_ok();
        let mut unfixed: Vec<Square> = constraints
            .fixed
            .iter()
            .filter(|square| !has_queen(square))
            .copied()
            .collect();
        let mut on_blocked: Vec<Square> = constraints
            .blocked
            .iter()
            .filter(|square| has_queen(square))
            .copied()
            .collect();
        unfixed.sort_unstable();
        unfixed.dedup();
        on_blocked.sort_unstable();
        on_blocked.dedup();
        self.unfixed = unfixed;
        self.on_blocked = on_blocked;
        self
    }

    /// Fixed squares (of [`within`](Verification::within)'s constraints) without a queen.
    pub fn unfixed(&self) -> &[Square] {
        &self.unfixed
    }

    /// Queens standing on blocked squares.
    pub fn on_blocked(&self) -> &[Square] {
        &self.on_blocked
    }

    /// The queens meant to be on the board: min(rows, cols) unless
    /// [`expecting`](Verification::expecting) said otherwise.
    pub fn expected(&self) -> usize {
        self.expected
    }

    /// Collisions: for every line, its queens after the first, summed over the lines (a queen
    /// on two crowded lines counts twice). The streamed [`PermutationCheck`] counts the same, so
    /// the number does not depend on how a board was read.
    pub fn collisions(&self) -> u64 {
        self.groups()
            .map(|(_, indices)| indices.len() as u64 - 1)
            .sum()
    }

    /// The first `limit` collisions in the order a column-by-column reading finds them, as
    /// [`PermutationCheck`] does: each crowded line's queens after its first (the first by
    /// column, then row), by column, then row, then kind of line ([`Line::ALL`] order). Kept in
    /// a heap of `limit`, so a board with millions of collisions costs no memory for them.
    pub fn first_collisions(&self, limit: usize) -> Vec<Collision> {
        if limit == 0 {
            return Vec::new();
        }
        let by_reading = |queen: Square| (queen.col, queen.row);
        let mut kept: std::collections::BinaryHeap<((u32, u32), usize)> =
            std::collections::BinaryHeap::with_capacity(limit.saturating_add(1).min(1 << 16));
        for (line, indices) in self.groups() {
            let kind = Line::ALL.iter().position(|&l| l == line).unwrap_or(0);
            let queens = indices.iter().map(|&i| self.queens[i as usize]);
            let first = queens.clone().min_by_key(|&q| by_reading(q));
            for queen in queens.filter(|&q| Some(q) != first) {
                kept.push((by_reading(queen), kind));
                if kept.len() > limit {
                    kept.pop();
                }
            }
        }
        kept.into_sorted_vec()
            .into_iter()
            .map(|((col, row), kind)| Collision {
                queen: Square::new(row, col),
                line: Line::ALL[kind],
            })
            .collect()
    }

    /// How many queens short of a full solution the board is.
    pub fn missing(&self) -> usize {
        self.expected.saturating_sub(self.queens.len())
    }

    /// No two queens attack each other.
    pub fn is_peaceful(&self) -> bool {
        self.starts.iter().all(Vec::is_empty)
    }

    /// Peaceful, holding the queens expected (min(rows, cols) unless told otherwise), every
    /// fixed square taken and no blocked one.
    pub fn is_solution(&self) -> bool {
        self.is_peaceful()
            && self.queens.len() == self.expected
            && self.unfixed.is_empty()
            && self.on_blocked.is_empty()
    }
}

/// The key of `queen`'s line of kind `line`.
fn line_key(queen: Square, line: Line) -> i64 {
    let (r, c) = (i64::from(queen.row), i64::from(queen.col));
    match line {
        Line::Row => r,
        Line::Column => c,
        Line::Diagonal => r - c,
        Line::AntiDiagonal => r + c,
    }
}

/// Checks `board`: which queens attack each other, and whether it is a full solution.
///
/// The queens are sorted once; for each kind of line their indices are sorted by line key and
/// every run of two or more is a crowded line. O(M log M) time and at most
/// [`VERIFY_BYTES_PER_QUEEN`] bytes a queen, so boards of tens of millions of queens check in
/// seconds.
pub fn verify(board: &Board) -> Verification {
    let mut queens: Vec<Square> = board.queens().collect();
    queens.sort_unstable();
    let mut order: Vec<u32> = Vec::new();
    let mut crowded: [Vec<u32>; 4] = Default::default();
    let mut starts: [Vec<u32>; 4] = Default::default();
    for (kind, &line) in Line::ALL.iter().enumerate() {
        order.clear();
        order.extend(0..queens.len() as u32);
        // Stable by index within a line, so that each line's queens stay sorted.
        order.sort_by_key(|&i| line_key(queens[i as usize], line));
        let mut run = 0;
        while run < order.len() {
            let key = line_key(queens[order[run] as usize], line);
            let end = run
                + order[run..]
                    .iter()
                    .take_while(|&&i| line_key(queens[i as usize], line) == key)
                    .count();
            if end - run > 1 {
                starts[kind].push(crowded[kind].len() as u32);
                crowded[kind].extend_from_slice(&order[run..end]);
            }
            run = end;
        }
        crowded[kind].shrink_to_fit();
        starts[kind].shrink_to_fit();
    }
    Verification {
        expected: board.rows().min(board.cols()) as usize,
        unfixed: Vec::new(),
        on_blocked: Vec::new(),
        queens,
        crowded,
        starts,
    }
}

/// Checks that `board` solves `problem`: same board size, the right number of queens, none
/// attacking another, every fixed queen present. The error says what is wrong.
///
/// One pass over the queens with a bit per line (about 6 bits per queen on a square board), so
/// it checks boards of millions of queens in milliseconds.
pub fn check_solution(problem: &Problem, board: &Board) -> Result<(), String> {
    if (board.rows(), board.cols()) != (problem.rows(), problem.cols()) {
        return Err(format!(
            "board is {}×{}, problem is {}×{}",
            board.rows(),
            board.cols(),
            problem.rows(),
            problem.cols()
        ));
    }
    if board.queen_count() != problem.queens() as usize {
        return Err(format!(
            "{} queens, expected {}",
            board.queen_count(),
            problem.queens()
        ));
    }
    let cols = board.cols();
    if let Some((queen, line)) = first_collision(board) {
        let other = board
            .queens()
            .find(|&q| q != queen && q.shared_line(queen) == Some(line))
            .expect("an occupied line holds another queen");
        return Err(format!(
            "{} and {} attack each other along a {line}",
            square_name(other, cols),
            square_name(queen, cols),
        ));
    }
    if let Some(&missing) = problem.fixed().iter().find(|&&q| !board.has_queen(q)) {
        return Err(format!(
            "fixed queen {} is missing",
            square_name(missing, cols)
        ));
    }
    if !problem.blocked().is_empty()
        && let Some(queen) = board.queens().find(|&queen| problem.is_blocked(queen))
    {
        return Err(format!(
            "the queen on {} stands on a blocked square",
            square_name(queen, cols)
        ));
    }
    Ok(())
}

/// Boards with more queens than this are checked on two threads, two kinds of line each.
const SPLIT_FROM: usize = 1 << 20;

/// The kinds of line in the order a collision names them.
const LINE_ORDER: [Line; 4] = Line::ALL;

/// A queen on a line that holds another queen, if any, and that line.
///
/// Every kind of line is checked over all the queens, so a board checked on two threads (rows
/// and rising diagonals on one, columns and falling diagonals on the other) still holds one
/// bit per line in all: 6 bits a queen on a square board, 5 for a permutation, whose columns
/// cannot be crowded.
fn first_collision(board: &Board) -> Option<(Square, Line)> {
    // A board stored as one row per column cannot crowd a column: no bits for them.
    let kinds = |lines: &[Line]| -> Vec<Line> {
        lines
            .iter()
            .copied()
            .filter(|&line| line != Line::Column || !board.is_permutation_form())
            .collect()
    };
    let first = if board.queen_count() < SPLIT_FROM {
        first_on_lines(board, &kinds(&LINE_ORDER))
    } else {
        let halves = [
            vec![Line::Row, Line::Diagonal],
            kinds(&[Line::Column, Line::AntiDiagonal]),
        ];
        let found = crate::parallel::map_parts(halves.into(), |lines: Vec<Line>| {
            first_on_shared_lines(board, &lines)
        });
        let (one, other) = (found[0], found[1]);
        // The earlier queen; on one queen, the line the single pass would name first.
        let rank = |line: Line| LINE_ORDER.iter().position(|&l| l == line);
        one.into_iter()
            .chain(other)
            .min_by_key(|&(index, _, line)| (index, rank(line)))
    };
    first.map(|(_, queen, line)| (queen, line))
}

/// [`first_on_lines`] for a large board, which is looked at only if [`any_shared`] finds a
/// line of one of the kinds `lines` holding two queens: a board with none is judged in about
/// a tenth of the time.
fn first_on_shared_lines(board: &Board, lines: &[Line]) -> Option<(usize, Square, Line)> {
    if lines.iter().any(|&line| any_shared(board, line)) {
        first_on_lines(board, lines)
    } else {
        None
    }
}

/// The buckets [`any_shared`] sorts a chunk into, as a power of two.
const SHARED_BUCKET_BITS: u32 = 10;

/// Queens [`any_shared`] sorts together for a board of `queens`: enough that a chunk's marks
/// land several to a cache line even at a billion queens, few enough that its list (4 bytes a
/// queen of the chunk) is a thirty-second of a byte a queen of the board.
fn shared_chunk(queens: usize) -> usize {
    (queens / 32).clamp(1 << 16, 1 << 24)
}

/// Bytes the check of a board of `queens` holds beyond its bit per line: the sorted lists of
/// its two threads on boards checked in halves (at most 128 MiB), nothing below.
pub fn sorting_bytes(queens: usize) -> u64 {
    if queens < SPLIT_FROM {
        0
    } else {
        2 * size_of::<u32>() as u64 * shared_chunk(queens) as u64
    }
}

/// Whether two queens share a line of the kind `line`. The queens go in chunks; each chunk's
/// line numbers are sorted on their high bits (a counting sort into about a thousand buckets,
/// which reads the chunk's queens twice and keeps only each number's low bits) and only then
/// marked, a bit per line, so that the marks walk memory nearly in order instead of missing
/// the cache at random.
fn any_shared(board: &Board, line: Line) -> bool {
    let (rows, cols) = (board.rows() as usize, board.cols() as usize);
    let len = match line {
        Line::Row => rows,
        Line::Column => cols,
        Line::Diagonal | Line::AntiDiagonal => rows + cols - 1,
    };
    let number = |queen: Square| {
        let (row, col) = (queen.row as usize, queen.col as usize);
        match line {
            Line::Row => row,
            Line::Column => col,
            Line::Diagonal => row + (cols - 1) - col,
            Line::AntiDiagonal => row + col,
        }
    };
    let shift = bucket_shift(len as u64, SHARED_BUCKET_BITS);
    let low = |number: usize| (number & ((1 << shift) - 1)) as u32;
    let chunk = shared_chunk(board.queen_count());
    let mut marked = HugeBits::new(len);
    let mut sorted: Vec<u32> = vec![0; chunk];
    let mut starts = vec![0; (len >> shift) + 2];
    let mut queens = board.queens();
    loop {
        let part = queens.clone().take(chunk).map(number);
        let count = counting_sort(part, &mut sorted, &mut starts, |n| n >> shift, low);
        if count == 0 {
            return false;
        }
        // Bucket b now ends at starts[b]: its numbers are b << shift plus the low bits kept.
        let mut from = 0;
        for (bucket, &end) in starts.iter().enumerate() {
            if sorted[from..end]
                .iter()
                .any(|&low| marked.insert((bucket << shift) | low as usize))
            {
                return true;
            }
            from = end;
        }
        queens.nth(count - 1);
    }
}

/// The first queen, in the board's order, on a line of one of the kinds `lines` (given in
/// [`LINE_ORDER`]) already holding a queen: its index, itself and the line.
fn first_on_lines(board: &Board, lines: &[Line]) -> Option<(usize, Square, Line)> {
    let (rows, cols) = (u64::from(board.rows()), u64::from(board.cols()));
    // A bit per line, in huge pages: a billion queens' lines are set at random, and with
    // small pages nearly every one would also miss the address cache.
    let bits = |len: u64| HugeBits::new(len as usize);
    let mut occupied: Vec<[HugeBits; 2]> = lines
        .iter()
        .map(|line| match line {
            Line::Row => [bits(rows), bits(0)],
            Line::Column => [bits(cols), bits(0)],
            Line::Diagonal => [bits(rows), bits(cols)],
            Line::AntiDiagonal => [bits(rows + cols), bits(0)],
        })
        .collect();
    board.queens().enumerate().find_map(|(index, queen)| {
        let (row, col) = (u64::from(queen.row), u64::from(queen.col));
        let mut taken = None;
        for (&line, bits) in lines.iter().zip(&mut occupied) {
            let (set, key) = match line {
                Line::Row => (0, row),
                Line::Column => (0, col),
                Line::Diagonal if row >= col => (0, row - col),
                Line::Diagonal => (1, col - row),
                Line::AntiDiagonal => (0, row + col),
            };
            if bits[set].insert(key as usize) && taken.is_none() {
                taken = Some(line);
            }
        }
        taken.map(|line| (index, queen, line))
    })
}

/// A set of non-negative integers as bits, growing as needed.
#[derive(Clone, Debug, Default)]
struct Bits(Vec<u64>);

impl Bits {
    /// Makes room for numbers up to `highest`.
    fn reach(&mut self, highest: u64) {
        let words = (highest / 64) as usize + 1;
        if words > self.0.len() {
            self.0.resize(words, 0);
        }
    }

    /// Adds `index`, which is within reach; returns whether it was already there.
    #[inline]
    fn insert(&mut self, index: u64) -> bool {
        let (word, bit) = (&mut self.0[(index / 64) as usize], 1u64 << (index % 64));
        let present = *word & bit != 0;
        *word |= bit;
        present
    }
}

/// The kinds of line a streamed permutation can crowd, in [`LINE_ORDER`]: its columns hold a
/// queen each by construction.
const STREAMED_LINES: [Line; 3] = [Line::Row, Line::Diagonal, Line::AntiDiagonal];

/// Queens a [`PermutationCheck`] marks together at first; below 2^[`INDEX_BITS`].
const STREAM_BATCH: usize = 1 << 19;

/// Queens a [`PermutationCheck`] marks together at most; below 2^[`INDEX_BITS`]. While the
/// rows come scattered (a search's answer), each batch doubles, up to a sixteenth of the
/// columns read, so that it holds a few marks for each cache line of the rows' and diagonals' bits
/// (which grow with the columns too): the bits are then walked as a stream rather than a line
/// fetched for each mark. Rows that come nearly in order (the construction's) need no more.
const LARGEST_STREAM_BATCH: usize = 1 << 23;

/// The low bits of a sorted mark that say which queen of its batch made it.
const INDEX_BITS: u32 = 24;

/// The buckets a batch's marks are sorted into, as a power of two.
const STREAM_BUCKET_BITS: u32 = 10;

/// The lines of one kind holding a queen, a bit each, growing as the stream reaches them.
#[derive(Clone, Debug, Default)]
struct LineMarks {
    bits: Bits,
    /// A batch's marks, sorted: line number above [`INDEX_BITS`], the queen's index below.
    sorted: Vec<u64>,
    starts: Vec<usize>,
}

impl LineMarks {
    /// Marks the lines of kind `STREAMED_LINES[kind]` of `queens` (fewer than
    /// 2^[`INDEX_BITS`]), whose numbers are at most `highest`, as if one by one in their
    /// order: counts each queen whose line held a queen already, and names the first `wanted`
    /// of them, by the queen's index and `kind`. The marks are sorted on their high bits first,
    /// stably, so a line's queens are marked in their order and the same queens are found as
    /// one by one, while the bits are walked nearly in order.
    fn mark(&mut self, queens: &[Square], kind: usize, highest: u64, wanted: usize) -> Found {
        debug_assert!(queens.len() < 1 << INDEX_BITS);
        let line = STREAMED_LINES[kind];
        let mut found = Found::default();
        self.bits.reach(highest);
        self.sorted.resize(queens.len(), 0);
        // About as many buckets as queens, up to a thousand.
        let bucket_bits = STREAM_BUCKET_BITS.min(usize::BITS - queens.len().leading_zeros());
        let shift = bucket_shift(highest + 1, bucket_bits);
        let buckets = (highest >> shift) as usize + 1;
        self.starts.resize(buckets + 1, 0);
        counting_sort(
            queens
                .iter()
                .map(|&queen| line_number(queen, line))
                .zip(0u64..),
            &mut self.sorted,
            &mut self.starts,
            |(number, _)| (number >> shift) as usize,
            |(number, index)| number << INDEX_BITS | index,
        );
        for &mark in &self.sorted {
            if self.bits.insert(mark >> INDEX_BITS) {
                found.collisions += 1;
                if wanted > 0 {
                    found
                        .first
                        .push(((mark & ((1 << INDEX_BITS) - 1)) as usize, kind));
                    // Only the first few are kept: the list never outgrows a few pages.
                    if found.first.len() >= 64 * PermutationCheck::KEPT {
                        found.first.sort_unstable();
                        found.first.truncate(wanted);
                    }
                }
            }
        }
        found.first.sort_unstable();
        found.first.truncate(wanted);
        found
    }
}

/// The number of `queen`'s line of kind `line` in a streamed check: rows and sums as they
/// are, differences folded onto the non-negative numbers (0, −1, 1, −2, … as 0, 1, 2, 3, …).
fn line_number(queen: Square, line: Line) -> u64 {
    let (row, col) = (u64::from(queen.row), u64::from(queen.col));
    match line {
        Line::Row => row,
        Line::Diagonal if row >= col => 2 * (row - col),
        Line::Diagonal => 2 * (col - row) - 1,
        Line::Column => col,
        Line::AntiDiagonal => row + col,
    }
}

/// The rows and diagonals holding a queen: the [`LineMarks`] of each of [`STREAMED_LINES`].
#[derive(Clone, Debug, Default)]
struct StreamedLines([LineMarks; 3]);

impl StreamedLines {
    /// Marks the lines of `queens` (fewer than 2^[`INDEX_BITS`]) as if one by one in their
    /// order, each kind as [`LineMarks::mark`] does; the first `wanted` collisions are named
    /// by the queen's index and the kind's place in [`STREAMED_LINES`], in that order. Kinds
    /// are marked side by side on threads of their own when `together` is false.
    fn mark(&mut self, queens: &[Square], wanted: usize, together: bool) -> Found {
        let Some((low_row, top_row, top_col)) = queens
            .iter()
            .map(|queen| {
                (
                    u64::from(queen.row),
                    u64::from(queen.row),
                    u64::from(queen.col),
                )
            })
            .reduce(|(low, top, c), (_, row, col)| (low.min(row), top.max(row), c.max(col)))
        else {
            return Found::default();
        };
        // Bounds on each kind's numbers: the bits grow no further than a full board needs.
        let highest = [top_row, 2 * top_row.max(top_col), top_row + top_col];
        let [rows, diagonals, anti_diagonals] = &mut self.0;
        let found: [Found; 3] = if together {
            [
                rows.mark(queens, 0, highest[0], wanted),
                diagonals.mark(queens, 1, highest[1], wanted),
                anti_diagonals.mark(queens, 2, highest[2], wanted),
            ]
        } else {
            let kinds = vec![(rows, 0), (diagonals, 1), (anti_diagonals, 2)];
            let mut found = crate::parallel::map_parts(kinds, |(marks, kind)| {
                marks.mark(queens, kind, highest[kind], wanted)
            })
            .into_iter();
            let mut next = || found.next().unwrap_or_default();
            [next(), next(), next()]
        };
        let mut all = Found {
            row_span: top_row - low_row,
            ..Found::default()
        };
        for kind in found {
            all.collisions += kind.collisions;
            all.first.extend(kind.first);
        }
        all.first.sort_unstable();
        all.first.truncate(wanted);
        all
    }
}

/// What marking a batch found: its collisions, and the first few as (queen's index in the
/// batch, kind of line's place in [`STREAMED_LINES`]), in order.
#[derive(Debug, Default)]
struct Found {
    collisions: u64,
    first: Vec<(usize, usize)>,
    /// How far apart its highest and lowest rows lie.
    row_span: u64,
}

/// Rows are scattered (a search's answer, in random order) where a batch of the least size
/// spans this many rows for each of its queens and more: then its marks are fewer than four a
/// cache line of the rows' bits, and larger batches pay.
const SCATTERED: u64 = 128;

/// A batch being marked on a thread of its own (or, where none started, marked already), and
/// what it hands back.
type Marking = crate::parallel::Begun<(StreamedLines, Vec<Square>, Found)>;

/// Batches from this size are marked on a thread of their own while the next is read.
const MARK_ASIDE_FROM: usize = 1 << 16;

/// A queen that landed on a line already holding one, and that line (a queen on two crowded
/// lines is two collisions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Collision {
    /// The queen found second on the line (the later one, unless the earlier one had a row far
    /// beyond the columns read when it came).
    pub queen: Square,
    /// The line it shares with an earlier queen.
    pub line: Line,
}

/// Checks a permutation as it streams in, column by column: for boards too large to hold, such
/// as a billion-queen `perm` file.
///
/// Queens are marked a batch at a time: each kind of line's marks are sorted on their high bits
/// before they are set, so that a billion queens' bits are walked nearly in order rather than
/// at random, and the collisions found are the ones a queen-by-queen check finds. A large
/// batch is marked while the next is read, its three kinds of line side by side.
///
/// Memory: a bit per row and two per diagonal and anti-diagonal seen, plus the batches (the one
/// being read, the one being marked, a spare list, and each kind's sorted marks: 48 bytes for
/// each of a batch's queens). A batch holds 2^19 queens (24 MiB); while rows come scattered
/// it doubles, up to a sixteenth of the columns read and 2^23 queens (384 MiB), at most 3
/// bytes a column. A row far above the columns read so far (eight times
/// their number and more, where it can only lie on the board if many columns follow) waits in
/// a list, at 8 bytes, until the columns catch up. So a stream cannot make the check allocate
/// for rows it has not earned; in all it takes at most 8 bytes for each token of input (which
/// is at least 2 bytes long) beyond the batch, and a row that never comes within the board is
/// off it at the end. A list that cannot grow is
/// [`BoardError::NoMemory`](crate::BoardError::NoMemory), not an abort.
#[derive(Debug)]
pub struct PermutationCheck {
    columns: u32,
    empty_columns: u64,
    /// The queen with the highest row so far.
    highest: Option<Square>,
    /// The lines marked so far; `None` while a thread marks a batch on them.
    lines: Option<StreamedLines>,
    /// The batch being marked on its own thread, if one is.
    marking: Option<Marking>,
    /// Queens within reach, in the order they came, not yet marked.
    pending: Vec<Square>,
    /// A batch's list, marked and handed back, for the next batch.
    spare: Vec<Square>,
    /// How many queens are marked together: at first, and at most.
    batch: usize,
    largest_batch: usize,
    /// How many queens are marked together now: more while the rows come scattered
    /// ([`SCATTERED`]).
    batch_now: usize,
    /// Queens whose row lies beyond [`reach`] of the columns read when they came.
    far: Vec<Square>,
    /// The column count at which `far` is looked at again.
    next_review: u32,
    collisions: u64,
    first_collisions: Vec<Collision>,
}

impl Default for PermutationCheck {
    fn default() -> Self {
        PermutationCheck::with_batches(STREAM_BATCH, LARGEST_STREAM_BATCH)
    }
}

/// The highest row whose lines are marked at once after `columns` columns; beyond, a queen
/// waits. Eight times the columns read (plus some room), so that a waiting queen costs at
/// most a few bytes per column of a valid board.
fn reach(columns: u32) -> u64 {
    8 * u64::from(columns) + (1 << 16)
}

/// The verdict of a [`PermutationCheck`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PermutationReport {
    /// The board side: the number of columns read.
    pub n: u32,
    /// Queens read.
    pub queens: u64,
    /// Collisions, as [`Verification::collisions`] counts them: for every line, its queens
    /// after the first (0 for a peaceful board).
    pub collisions: u64,
    /// The first few of them.
    pub first_collisions: Vec<Collision>,
}

impl PermutationReport {
    /// N peaceful queens.
    pub fn is_solution(&self) -> bool {
        self.collisions == 0 && self.queens == u64::from(self.n)
    }

    /// Queens short of N.
    pub fn missing(&self) -> u64 {
        u64::from(self.n) - self.queens
    }
}

impl PermutationCheck {
    /// How many collisions are kept for the report.
    pub const KEPT: usize = 10;

    /// Adds the next column: the row of its queen, or `None` for an empty column.
    pub fn push(&mut self, row: Option<u32>) -> Result<(), crate::BoardError> {
        let col = self.columns;
        self.columns = self
            .columns
            .checked_add(1)
            .ok_or(crate::BoardError::TooLarge)?;
        let Some(row) = row else {
            self.empty_columns += 1;
            return Ok(());
        };
        let queen = Square::new(row, col);
        if self.highest.is_none_or(|highest| row > highest.row) {
            self.highest = Some(queen);
        }
        if u64::from(row) >= reach(self.columns) {
            // 8 bytes for each waiting queen, refused cleanly rather than aborting when the
            // memory cannot be had.
            self.far
                .try_reserve(1)
                .map_err(|_| crate::BoardError::NoMemory)?;
            self.far.push(queen);
        } else {
            self.pending.push(queen);
            if self.pending.len() >= self.batch_now {
                self.mark_pending();
            }
        }
        if self.columns >= self.next_review && !self.far.is_empty() {
            self.next_review = self.columns.saturating_mul(2);
            let limit = reach(self.columns);
            // The queens before the ones let in are marked first, as they came first.
            self.mark_pending();
            let (waiting, reached) = std::mem::take(&mut self.far)
                .into_iter()
                .partition(|queen| u64::from(queen.row) >= limit);
            self.far = waiting;
            self.mark(reached);
        }
        Ok(())
    }

    /// A check marking `batch` queens together (at least one, fewer than 2^24).
    #[cfg(test)]
    fn with_batch(batch: usize) -> Self {
        PermutationCheck::with_batches(batch, batch)
    }

    /// A check marking from `batch` queens together up to `largest`, as the columns grow.
    fn with_batches(batch: usize, largest: usize) -> Self {
        let batch = batch.clamp(1, (1 << INDEX_BITS) - 1);
        PermutationCheck {
            columns: 0,
            empty_columns: 0,
            highest: None,
            lines: Some(StreamedLines::default()),
            marking: None,
            pending: Vec::new(),
            spare: Vec::new(),
            batch,
            largest_batch: largest.clamp(batch, (1 << INDEX_BITS) - 1),
            batch_now: batch,
            far: Vec::new(),
            next_review: 0,
            collisions: 0,
            first_collisions: Vec::new(),
        }
    }

    /// Marks the queens waiting in `pending`.
    fn mark_pending(&mut self) {
        let batch = std::mem::replace(&mut self.pending, std::mem::take(&mut self.spare));
        self.mark(batch);
    }

    /// Marks the lines of `queens` after those before them, `batch` at a time: a large batch
    /// on a thread of its own, so that reading the next one goes on meanwhile.
    fn mark(&mut self, queens: Vec<Square>) {
        let size = self.batch_now;
        if queens.len() > size {
            for part in queens.chunks(size) {
                self.mark(part.to_vec());
            }
            return;
        }
        self.settle();
        let mut lines = self.lines.take().expect("settled lines");
        let wanted = Self::KEPT - self.first_collisions.len();
        if queens.len() < MARK_ASIDE_FROM {
            let found = lines.mark(&queens, wanted, true);
            self.lines = Some(lines);
            self.take(queens, found);
            return;
        }
        self.marking = Some(crate::parallel::begin(move || {
            let found = lines.mark(&queens, wanted, false);
            (lines, queens, found)
        }));
    }

    /// Waits for the batch being marked, if any, and takes in what it found.
    fn settle(&mut self) {
        if let Some(marking) = self.marking.take() {
            let (lines, queens, found) = marking.join();
            self.lines = Some(lines);
            self.take(queens, found);
        }
    }

    /// Counts what marking `queens` found, keeps the first collisions, and keeps the list.
    fn take(&mut self, mut queens: Vec<Square>, found: Found) {
        self.collisions += found.collisions;
        // Scattered rows double the batch, up to a sixteenth of the columns; rows in order
        // bring it back to the least.
        self.batch_now = if found.row_span >= SCATTERED * self.batch as u64 {
            (2 * self.batch_now)
                .min(self.columns as usize / 16)
                .clamp(self.batch, self.largest_batch)
        } else {
            self.batch
        };
        self.first_collisions
            .extend(found.first.into_iter().map(|(index, kind)| Collision {
                queen: queens[index],
                line: STREAMED_LINES[kind],
            }));
        queens.clear();
        if self.spare.capacity() < queens.capacity() {
            self.spare = queens;
        }
    }

    /// The verdict, once every column is in. Fails if a row lies off the N×N board.
    pub fn finish(mut self) -> Result<PermutationReport, crate::BoardError> {
        self.mark_pending();
        self.settle();
        let n = self.columns;
        if n == 0 {
            return Err(crate::BoardError::EmptyBoard { rows: 0, cols: 0 });
        }
        // A queen still waiting lies beyond the board's last row: `highest` names one.
        if let Some(square) = self.highest.filter(|highest| highest.row >= n) {
            return Err(crate::BoardError::OffBoard {
                square,
                rows: n,
                cols: n,
            });
        }
        debug_assert!(self.far.is_empty(), "waiting queens lie off the board");
        Ok(PermutationReport {
            n,
            queens: u64::from(n) - self.empty_columns,
            collisions: self.collisions,
            first_collisions: self.first_collisions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streaming_agrees_with_the_full_validator() {
        for rows in [
            vec![1, 3, 0, 2],
            vec![0, 1, 2, 3],
            vec![0, 2, 4, 1, 3],
            vec![2, 0, 2],
        ] {
            let board = Board::from_permutation(rows.clone()).unwrap();
            let mut stream = PermutationCheck::default();
            for &row in &rows {
                stream.push(Some(row)).unwrap();
            }
            let report = stream.finish().unwrap();
            assert_eq!(
                report.is_solution(),
                verify(&board).is_solution(),
                "{rows:?}"
            );
            assert_eq!(
                report.collisions == 0,
                verify(&board).is_peaceful(),
                "{rows:?}"
            );
        }
    }

    #[test]
    fn collisions_mean_one_thing_held_or_streamed() {
        let streamed = |rows: &[u32]| {
            let mut stream = PermutationCheck::default();
            for &row in rows {
                stream.push(Some(row)).unwrap();
            }
            stream.finish().unwrap()
        };
        // The permutation 0 1 0: its row, falling and rising diagonals each hold two queens.
        assert_eq!(streamed(&[0, 1, 0]).collisions, 3);
        assert_eq!(
            verify(&Board::from_permutation(vec![0, 1, 0]).unwrap()).collisions(),
            3
        );
        assert!(
            verify(&Board::from_permutation(vec![0, 1, 0]).unwrap())
                .first_collisions(0)
                .is_empty()
        );
        // Boards that crowd lines with three and more queens, rows far ahead included.
        let mut seed = 7u64;
        for n in [2u32, 3, 5, 8, 13, 40] {
            for _ in 0..200 {
                let rows: Vec<u32> = (0..n)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6_364_136_223_846_793_005)
                            .wrapping_add(1_442_695_040_888_963_407);
                        ((seed >> 33) % u64::from(n.div_ceil(3))) as u32
                    })
                    .collect();
                let report = streamed(&rows);
                let held = verify(&Board::from_permutation(rows.clone()).unwrap());
                assert_eq!(report.collisions, held.collisions(), "{rows:?}");
                // The same first collisions, in the order the stream found them.
                let kept = held.first_collisions(PermutationCheck::KEPT);
                assert_eq!(report.first_collisions, kept, "{rows:?}");
            }
        }
    }

    #[test]
    fn rows_far_ahead_wait_and_are_still_checked() {
        // Reversed, the first columns hold rows far above the columns read so far.
        let n = 200_002;
        let mut rows: Vec<u32> = large_solution(n).into_iter().rev().collect();
        let check = |rows: &[u32]| {
            let mut stream = PermutationCheck::default();
            for &row in rows {
                stream.push(Some(row)).unwrap();
            }
            assert!(!stream.far.is_empty() || stream.columns == n);
            stream.finish().unwrap()
        };
        assert!(check(&rows).is_solution());
        // The first queen (far ahead when it came) shares a row with the last, and two more
        // queens far ahead share diagonals with later ones.
        rows[0] = rows[(n - 1) as usize];
        rows.swap(5, 70_000);
        let board = Board::from_permutation(rows.clone()).unwrap();
        let report = check(&rows);
        assert_eq!(report.collisions, verify(&board).conflict_count());
        // Marked a batch at a time, on threads of their own, they are found as queen by queen.
        for batch in [1, MARK_ASIDE_FROM + 1] {
            let mut batched = PermutationCheck::with_batch(batch);
            for &row in &rows {
                batched.push(Some(row)).unwrap();
            }
            assert_eq!(batched.finish().unwrap(), report, "batches of {batch}");
        }
        assert!(report.first_collisions.len() > 1);
        // One row beyond any column that comes: off the board, with nothing allocated for it.
        let mut alone = PermutationCheck::default();
        alone.push(Some(u32::MAX - 1)).unwrap();
        assert!(
            alone
                .lines
                .as_ref()
                .unwrap()
                .0
                .iter()
                .all(|kind| kind.bits.0.is_empty())
        );
        assert!(alone.finish().is_err());
    }

    /// The explicit solution for N ≡ 4 (mod 6): rows 1, 3, 5, … then 0, 2, 4, ….
    fn large_solution(n: u32) -> Vec<u32> {
        assert_eq!(n % 6, 4);
        (0..n)
            .map(|c| {
                if c < n / 2 {
                    2 * c + 1
                } else {
                    2 * (c - n / 2)
                }
            })
            .collect()
    }

    #[test]
    fn large_boards_are_checked_in_halves_and_across_them() {
        let n = (SPLIT_FROM as u32 + 6) / 6 * 6 + 4;
        let problem = Problem::square(n).unwrap();
        let rows = large_solution(n);
        assert_eq!(
            check_solution(&problem, &Board::from_permutation(rows.clone()).unwrap()),
            Ok(())
        );
        // A conflict inside the second half.
        let mut inside = rows.clone();
        inside[(n - 1) as usize] = inside[(n - 2) as usize];
        let error =
            check_solution(&problem, &Board::from_permutation(inside).unwrap()).unwrap_err();
        assert!(error.ends_with("along a row"), "{error}");
        // A conflict between the halves only: the last column repeats the first column's row.
        let mut across = rows;
        across[(n - 1) as usize] = across[0];
        let error =
            check_solution(&problem, &Board::from_permutation(across).unwrap()).unwrap_err();
        assert_eq!(
            error,
            format!("r2c1 and r2c{n} attack each other along a row")
        );
    }

    proptest::proptest! {
        /// Marking a batch at a time finds the collisions that marking queen by queen finds,
        /// in the same order, with rows far ahead waiting across batches and reviews.
        #[test]
        fn batches_find_what_one_by_one_finds(
            rows in proptest::collection::vec(
                proptest::prop_oneof![4 => 0u32..12, 1 => 65_000u32..140_000, 1 => proptest::strategy::Just(u32::MAX - 1)],
                1..200,
            ),
            (batch, largest) in proptest::strategy::Strategy::prop_flat_map(1usize..9, |batch| (proptest::strategy::Just(batch), batch..4 * batch)),
        ) {
            // Batches from `batch` queens, growing with the columns up to `largest`.
            let check = |batch: usize, largest: usize| {
                let mut stream = PermutationCheck::with_batches(batch, largest);
                for &row in &rows {
                    stream.push((row != 7).then_some(row)).unwrap();
                }
                stream.mark_pending();
                stream.settle();
                (stream.collisions, stream.first_collisions.clone(), stream.finish().ok())
            };
            proptest::prop_assert_eq!(check(batch, largest), check(1, 1));
        }
    }

    proptest::proptest! {
        /// The sorted check of one kind of line sees a shared line exactly when the ordered
        /// pass finds one, on rectangles and permutations alike.
        #[test]
        fn sorting_finds_a_shared_line_when_the_ordered_pass_does(
            (rows, cols, picks) in proptest::strategy::Strategy::prop_flat_map((1u32..40, 1u32..40), |(rows, cols)| {
                (
                    proptest::strategy::Just(rows),
                    proptest::strategy::Just(cols),
                    proptest::collection::vec((0..rows, 0..cols), 0..30),
                )
            }),
            permutation in proptest::collection::vec(0u32..25, 1..25),
        ) {
            let mut squares: Vec<Square> =
                picks.into_iter().map(|(row, col)| Square::new(row, col)).collect();
            squares.sort_unstable();
            squares.dedup();
            let scattered = Board::with_queens(rows, cols, squares).unwrap();
            let n = permutation.len() as u32;
            let permutation: Vec<u32> = permutation.into_iter().map(|row| row % n).collect();
            let permuted = Board::from_permutation(permutation).unwrap();
            for board in [&scattered, &permuted] {
                for line in Line::ALL {
                    proptest::prop_assert_eq!(
                        any_shared(board, line),
                        first_on_lines(board, &[line]).is_some(),
                        "{:?} on {:?}", line, board
                    );
                }
            }
        }
    }

    #[test]
    fn two_threads_name_the_collision_one_pass_names() {
        let n = (SPLIT_FROM as u32 + 6) / 6 * 6 + 4;
        let rows = large_solution(n);
        let last = n as usize - 1;
        // Swapped rows crowd diagonals; a repeated row crowds a row and may crowd diagonals too.
        let boards: Vec<Vec<u32>> = [(0, 1), (5, last), (last - 3, last), (n as usize / 2, 7)]
            .into_iter()
            .map(|(a, b)| {
                let mut swapped = rows.clone();
                swapped.swap(a, b);
                swapped
            })
            .chain([(3, 4), (last, 1)].into_iter().map(|(to, from)| {
                let mut repeated = rows.clone();
                repeated[to] = repeated[from];
                repeated
            }))
            .collect();
        for rows in boards {
            let board = Board::from_permutation(rows).unwrap();
            let one_pass =
                first_on_lines(&board, &LINE_ORDER).map(|(_, queen, line)| (queen, line));
            assert!(one_pass.is_some());
            assert_eq!(first_collision(&board), one_pass);
        }
    }

    #[test]
    fn check_solution_names_the_attacking_pair() {
        let problem = Problem::square(4).unwrap();
        let board = Board::from_permutation(vec![1, 3, 0, 3]).unwrap();
        assert_eq!(
            check_solution(&problem, &board),
            Err("b4 and d4 attack each other along a row".into())
        );
        let good = Board::from_permutation(vec![1, 3, 0, 2]).unwrap();
        assert_eq!(check_solution(&problem, &good), Ok(()));
    }
}
