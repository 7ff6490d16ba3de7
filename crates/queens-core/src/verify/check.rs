//! Whether a held board solves its problem, and if not one attacking pair: a bit per line, in
//! huge pages, on two threads from 2²⁰ queens.

use crate::board::{Board, Line, Square};
use crate::buckets::{bucket_shift, counting_sort};
use crate::huge::HugeBits;
use crate::problem::Problem;
use crate::square::square_name;
use crate::words::counted;

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
            "{}, expected {}",
            counted(board.queen_count(), "queen", "queens"),
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
            "{} and {} attack each other along {}",
            square_name(other, cols),
            square_name(queen, cols),
            line.with_article(),
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
pub(super) const SPLIT_FROM: usize = 1 << 20;

/// The kinds of line in the order a collision names them.
pub(super) const LINE_ORDER: [Line; 4] = Line::ALL;

/// A queen on a line that holds another queen, if any, and that line.
///
/// Every kind of line is checked over all the queens, so a board checked on two threads (rows
/// and rising diagonals on one, columns and falling diagonals on the other) still holds one
/// bit per line in all: 6 bits a queen on a square board, 5 for a permutation, whose columns
/// cannot be crowded.
pub(super) fn first_collision(board: &Board) -> Option<(Square, Line)> {
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
pub(super) fn any_shared(board: &Board, line: Line) -> bool {
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
pub(super) fn first_on_lines(board: &Board, lines: &[Line]) -> Option<(usize, Square, Line)> {
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
