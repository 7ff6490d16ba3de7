//! Counting completions: the completion search walked to its leaves, its first levels split into
//! parts for the threads, symmetric positions counted one orbit at a time on their first line.

use std::collections::HashSet;

use queens_core::symmetry::Symmetry;
use queens_core::{Budget, Problem, Square, StopReason};
use rayon::prelude::*;

use super::bits::Lines;
use super::row_order::Rows;
use super::{Next, Position, branch_square};

/// Completions counted, and the queens placed to count them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    /// Completions: full solutions holding every placed queen and no blocked square.
    pub completions: u128,
    /// Queens placed by the search.
    pub nodes: u64,
}

/// A count of completions, whole or stopped part-way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletionCount {
    /// What the finished parts hold: every completion when the count was not stopped, a lower
    /// bound otherwise.
    pub counted: Counted,
    /// The parts the count was split into.
    pub parts: usize,
    /// The parts counted to their end.
    pub finished: usize,
    /// Why the count stopped before its end (`None`: it is complete).
    pub stopped: Option<StopReason>,
    /// The symmetries of the board the count used (1: only the identity): those that map the
    /// position onto itself and keep the first line it branched on in place.
    pub symmetries: usize,
}

/// How completions are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// The completion search: the most constrained line first, and where the position is
    /// symmetric (its placed queens and blocked squares mapped onto themselves by some symmetries
    /// of the square), one square of each orbit on a first line those symmetries keep in place,
    /// counted for the others.
    #[default]
    Search,
    /// Row by row, the plain way, every open column of a row tried in turn: a cross-check that
    /// shares none of the search's reasoning.
    RowByRow,
}

impl Method {
    /// Its name in documents: `completion`, or `backtracking` for the row-by-row count.
    pub fn name(self) -> &'static str {
        match self {
            Method::Search => "completion",
            Method::RowByRow => "backtracking",
        }
    }

    /// The largest board it counts: 1024 for the search, 64 row by row.
    pub fn max_n(self) -> u32 {
        match self {
            Method::Search => super::MAX_N,
            Method::RowByRow => super::row_order::MAX_N,
        }
    }
}

/// Every completion of `problem` counted by `method` on `threads` threads (its first levels
/// split into parts among them), `progress` told each finished part and the number of parts. A
/// stop of `budget` ends the count with the parts finished so far. `None` for a problem the
/// search does not take (see [`Position::of`]).
pub fn count(
    problem: &Problem,
    method: Method,
    budget: &Budget,
    threads: usize,
    progress: impl Fn(usize, usize) + Sync,
) -> Option<CompletionCount> {
    match method {
        Method::Search => with_lines!(problem.rows(), L => {
            let position = Position::<L>::of(problem)?;
            let symmetries = stabiliser(problem);
            let (parts, placed, used) =
                split(position, &symmetries, threads.max(1) * 64, budget);
            let count_part = |(mut part, weight): (Position<L>, u128), nodes: &mut u64| {
                let mut counted = Counted::default();
                let found = count_from(&mut part, budget, &mut counted);
                *nodes += counted.nodes;
                found.map(|()| counted.completions * weight)
            };
            let mut count = in_parts(parts, placed, threads, budget, progress, count_part);
            count.symmetries = used;
            Some(count)
        }, None),
        Method::RowByRow => {
            let rows = Rows::of(problem)?;
            let (walks, placed) = rows.split(2);
            let count_part = |walk, nodes: &mut u64| rows.count(walk, budget, nodes);
            Some(in_parts(
                walks, placed, threads, budget, progress, count_part,
            ))
        }
    }
}

/// Counts `parts` (reached by placing `placed` queens) on `threads` threads by `count_part`
/// (which adds the queens it places to its second argument), `progress` told each finished part
/// and the number of parts. A part starts only while `budget` lasts, however small the parts
/// are; a stopped count keeps what its finished parts hold.
fn in_parts<P: Send>(
    parts: Vec<P>,
    placed: u64,
    threads: usize,
    budget: &Budget,
    progress: impl Fn(usize, usize) + Sync,
    count_part: impl Fn(P, &mut u64) -> Result<u128, StopReason> + Sync,
) -> CompletionCount {
    let total = parts.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let part = |part: P| {
        let mut nodes = 0;
        let result = budget.check().and_then(|()| count_part(part, &mut nodes));
        if result.is_ok() {
            let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(finished, total);
        }
        (result, nodes)
    };
    // On the pool it runs in where that has the threads asked for, else on a pool of its own
    // (`pool::pool_of`), else on this thread.
    let results: Vec<(Result<u128, StopReason>, u64)> =
        match queens_core::pool::pool_of(threads.max(1)) {
            Ok(Some(pool)) => pool.install(|| parts.into_par_iter().map(part).collect()),
            Ok(None) => parts.into_par_iter().map(part).collect(),
            Err(_) => parts.into_iter().map(part).collect(),
        };
    let mut whole = CompletionCount {
        counted: Counted {
            completions: 0,
            nodes: placed,
        },
        parts: total,
        finished: 0,
        stopped: None,
        symmetries: 1,
    };
    for (result, nodes) in results {
        whole.counted.nodes += nodes;
        match result {
            Ok(completions) => {
                whole.counted.completions += completions;
                whole.finished += 1;
            }
            Err(stop) => whole.stopped = whole.stopped.or(Some(stop)),
        }
    }
    whole
}

/// The symmetries of the square board that map `problem`'s placed queens and blocked squares
/// onto themselves (the identity among them).
///
/// Each list is looked up in a bit set of the board's squares: a million blocked squares
/// (1024×1024 blocked whole) take milliseconds a symmetry, not the hours a scan of the list for
/// each square would.
fn stabiliser(problem: &Problem) -> Vec<Symmetry> {
    let n = problem.rows();
    let index = |square: Square| square.row as usize * n as usize + square.col as usize;
    let set_of = |squares: &[Square]| {
        let mut set = vec![0u64; (n as usize * n as usize).div_ceil(64)];
        for &square in squares {
            set[index(square) / 64] |= 1 << (index(square) % 64);
        }
        set
    };
    let (fixed, blocked) = (set_of(problem.fixed()), set_of(problem.blocked()));
    let keeps = |squares: &[Square], set: &[u64], symmetry: Symmetry| {
        squares.iter().all(|&square| {
            let image = index(symmetry.apply(square, n, n));
            set[image / 64] & 1 << (image % 64) != 0
        })
    };
    Symmetry::of_board(n, n)
        .filter(|&symmetry| {
            keeps(problem.fixed(), &fixed, symmetry) && keeps(problem.blocked(), &blocked, symmetry)
        })
        .collect()
}

/// The free line (row or column) that the most of `symmetries` map onto itself, with those
/// symmetries; among equals, the one with the fewest open squares.
fn symmetric_line<L: Lines>(
    position: &Position<L>,
    symmetries: &[Symmetry],
) -> (bool, u32, Vec<Symmetry>) {
    let n = position.n;
    let rows_taken: HashSet<u32> = position.queens.iter().map(|queen| queen.row).collect();
    let cols_taken: HashSet<u32> = position.queens.iter().map(|queen| queen.col).collect();
    let mut best: Option<(bool, u32, Vec<Symmetry>, u32)> = None;
    for on_row in [true, false] {
        for line in 0..n {
            if if on_row { &rows_taken } else { &cols_taken }.contains(&line) {
                continue;
            }
            // A symmetry takes a line to a line, which its two ends' images name: the line is
            // kept when both stay on it.
            let on_line = |square: Square| if on_row { square.row } else { square.col } == line;
            let ends = [0, n - 1].map(|along| {
                let (row, col) = branch_square(on_row, line, along);
                Square::new(row, col)
            });
            let keeping: Vec<Symmetry> = symmetries
                .iter()
                .copied()
                .filter(|symmetry| ends.iter().all(|&end| on_line(symmetry.apply(end, n, n))))
                .collect();
            let open = position.open_on(on_row, line).count();
            let better = best.as_ref().is_none_or(|(_, _, kept, fewest)| {
                (keeping.len(), std::cmp::Reverse(open)) > (kept.len(), std::cmp::Reverse(*fewest))
            });
            if better {
                best = Some((on_row, line, keeping, open));
            }
        }
    }
    let (on_row, line, keeping, _) = best.expect("a position to count has a free line");
    (on_row, line, keeping)
}

/// The position's subtrees, each with the number of completions one of its completions stands
/// for (its weight), breadth first, until there are at least `wanted` of them (or the tree is
/// exhausted), and the queens placed to reach them; complete positions are kept as they are,
/// dead ones dropped. The first level branches on a line the position's `symmetries` keep in
/// place, one square of each of their orbits on it, weighted by the orbit's size; the number
/// of symmetries that kept it comes last (1 when none but the identity did).
fn split<L: Lines>(
    position: Position<L>,
    symmetries: &[Symmetry],
    wanted: usize,
    budget: &Budget,
) -> (Vec<(Position<L>, u128)>, u64, usize) {
    let mut parts = vec![(position, 1)];
    let mut placed = 0;
    let mut used = 1;
    if symmetries.len() > 1 && matches!(parts[0].0.next(), Next::Row(..) | Next::Column(..)) {
        let (part, _) = parts.pop().expect("one part");
        let n = part.n;
        let (on_row, line, keeping) = symmetric_line(&part, symmetries);
        used = keeping.len();
        let mut open = part.open_on(on_row, line);
        while let Some(bit) = open.pop_lowest() {
            let (row, col) = branch_square(on_row, line, bit);
            let square = Square::new(row, col);
            let orbit: std::collections::BTreeSet<Square> = keeping
                .iter()
                .map(|symmetry| symmetry.apply(square, n, n))
                .collect();
            if orbit.first() == Some(&square) {
                let mut child = part.clone();
                child.place(row, col);
                parts.push((child, orbit.len() as u128));
                placed += 1;
            }
        }
    }
    for _ in 0..3 {
        // A stop ends the split too (a level of a large board takes a while): the parts as
        // they stand are then counted by no one, as the stop is seen before each.
        if parts.len() >= wanted || budget.is_stopped() {
            break;
        }
        let mut next = Vec::with_capacity(parts.len() * 8);
        for (part, weight) in parts {
            if budget.is_stopped() {
                next.push((part, weight));
                continue;
            }
            let look = part.next();
            match look.branch() {
                Some((on_row, line, mut open)) => {
                    while let Some(bit) = open.pop_lowest() {
                        let (row, col) = branch_square(on_row, line, bit);
                        let mut child = part.clone();
                        child.place(row, col);
                        next.push((child, weight));
                        placed += 1;
                    }
                }
                None if matches!(look, Next::Complete) => next.push((part, weight)),
                None => {}
            }
        }
        parts = next;
    }
    (parts, placed, used)
}

/// Adds the completions under `position` to `counted`.
pub(super) fn count_from<L: Lines>(
    position: &mut Position<L>,
    budget: &Budget,
    counted: &mut Counted,
) -> Result<(), StopReason> {
    let next = position.next();
    let Some((on_row, line, mut open)) = next.branch() else {
        counted.completions += u128::from(matches!(next, Next::Complete));
        return Ok(());
    };
    while let Some(bit) = open.pop_lowest() {
        let (row, col) = branch_square(on_row, line, bit);
        counted.nodes += 1;
        // Every node: one relaxed load against a node of microseconds on a large board, so a
        // stop is honoured at once at N = 1024 as at N = 8.
        budget.check()?;
        position.place(row, col);
        count_from(position, budget, counted)?;
        position.remove(row, col);
    }
    Ok(())
}

/// The completions of `problem` in total and through each free square, on one thread, for the
/// configurator: `tally[row * n + col]` gains the completions with a queen on that square (the
/// placed queens' squares are left as they are). `spend` is asked before each queen placed and
/// ends the count (`None`) when it says no. `None` too for a problem the search does not take.
pub fn count_through_squares(
    problem: &Problem,
    tally: &mut [u64],
    spend: &mut dyn FnMut() -> bool,
) -> Option<u64> {
    with_lines!(problem.rows(), L => {
        let mut position = Position::<L>::of(problem)?;
        tally_from(&mut position, tally, spend)
    }, None)
}

fn tally_from<L: Lines>(
    position: &mut Position<L>,
    tally: &mut [u64],
    spend: &mut dyn FnMut() -> bool,
) -> Option<u64> {
    let next = position.next();
    let Some((on_row, line, mut open)) = next.branch() else {
        return Some(u64::from(matches!(next, Next::Complete)));
    };
    let n = position.n as usize;
    let mut total = 0;
    while let Some(bit) = open.pop_lowest() {
        let (row, col) = branch_square(on_row, line, bit);
        if !spend() {
            return None;
        }
        position.place(row, col);
        let below = tally_from(position, tally, spend);
        position.remove(row, col);
        let below = below?;
        tally[row as usize * n + col as usize] += below;
        total += below;
    }
    Some(total)
}
