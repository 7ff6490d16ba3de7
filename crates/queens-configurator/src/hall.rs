//! The pigeonhole argument: empty rows whose free squares lie in fewer columns than there are
//! rows cannot all get a queen (Hall's condition for a matching of empty rows to empty columns),
//! and the same with rows and columns swapped.
//!
//! A maximum matching (augmenting paths) between the empty rows and the empty columns, along
//! free squares, either covers every empty line or leaves one unmatched; the lines reachable
//! from it by alternating paths are then `k` lines whose free squares meet only `k − 1` lines
//! of the other kind. Diagonals between the future queens are ignored, so this proves less than
//! a search, but what it proves it explains in one sentence.

use crate::bits::{FreeBoard, Rank};

/// `k` empty lines of one kind whose free squares all lie on the same `k − 1` lines of the
/// other kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Crowding {
    /// The lines that cannot all get a queen.
    pub(crate) lines: Vec<Rank>,
    /// The fewer lines their free squares lie on.
    pub(crate) onto: Vec<Rank>,
}

/// The smallest crowded set of empty rows or of empty columns, if the board has one; `None`
/// too once `stopped` says so (it is asked before every augmenting path, so a matching of a
/// large board stops within milliseconds of a stop).
pub(crate) fn crowding(board: &FreeBoard, stopped: &dyn Fn() -> bool) -> Option<Crowding> {
    let by_rows = smallest_violation(board, Rank::Row, Rank::Col, stopped).ok()?;
    let by_cols = smallest_violation(board, Rank::Col, Rank::Row, stopped).ok()?;
    match (by_rows, by_cols) {
        (Some(rows), Some(cols)) => Some(if cols.lines.len() < rows.lines.len() {
            cols
        } else {
            rows
        }),
        (rows, cols) => rows.or(cols),
    }
}

/// Matches the empty lines made by `side` to those made by `other`; for every unmatched line,
/// the set it reaches by alternating paths violates Hall's condition. Returns the smallest.
/// `Err` when `stopped` said so before the matching was whole.
fn smallest_violation(
    board: &FreeBoard,
    side: fn(u32) -> Rank,
    other: fn(u32) -> Rank,
    stopped: &dyn Fn() -> bool,
) -> Result<Option<Crowding>, Stopped> {
    let n = board.side();
    let along = |rank: Rank| match rank {
        Rank::Row(_) => |s: queens_core::Square| s.col,
        Rank::Col(_) => |s: queens_core::Square| s.row,
    };
    let empty: Vec<u32> = (0..n).filter(|&i| !board.is_taken(side(i))).collect();
    let mut neighbours = Neighbours::default();
    for &i in &empty {
        let rank = side(i);
        neighbours.add(board.free_in(rank).map(along(rank)));
    }
    // `partner[j]`: the index into `empty` matched to line `j` of the other kind.
    let mut partner: Vec<Option<usize>> = vec![None; n as usize];
    let mut unmatched = Vec::new();
    // `seen[j] == visit`: line `j` of the other kind was tried in this augmenting path.
    let mut seen = vec![0u32; n as usize];
    for start in 0..empty.len() {
        if stopped() {
            return Err(Stopped);
        }
        let mut visit = Visit {
            seen: &mut seen,
            stamp: start as u32 + 1,
        };
        if !augment(start, &neighbours, &mut partner, &mut visit) {
            unmatched.push(start);
        }
    }
    let smallest = unmatched
        .into_iter()
        .map(|start| {
            // Alternating reach from an unmatched line: its free squares' lines, their
            // partners, their free squares' lines, ...
            // Membership in flags, not by searching the lists: a reach of hundreds of lines
            // would otherwise cost the cube of the side.
            let mut lines = vec![start];
            let mut in_lines = vec![false; empty.len()];
            in_lines[start] = true;
            let mut onto: Vec<u32> = Vec::new();
            let mut in_onto = vec![false; n as usize];
            let mut next = 0;
            while next < lines.len() {
                for &j in neighbours.of(lines[next]) {
                    if !std::mem::replace(&mut in_onto[j as usize], true) {
                        onto.push(j);
                        let matched = partner[j as usize].expect("a maximum matching covers it");
                        if !std::mem::replace(&mut in_lines[matched], true) {
                            lines.push(matched);
                        }
                    }
                }
                next += 1;
            }
            let mut lines: Vec<u32> = lines.into_iter().map(|index| empty[index]).collect();
            lines.sort_unstable();
            onto.sort_unstable();
            Crowding {
                lines: lines.into_iter().map(side).collect(),
                onto: onto.into_iter().map(other).collect(),
            }
        })
        .min_by_key(|crowding| crowding.lines.len());
    Ok(smallest)
}

/// A matching cut short by a stop.
struct Stopped;

/// The free squares of each empty line, as the lines of the other kind they lie on: one list
/// for all, cut at `ends`.
#[derive(Default)]
struct Neighbours {
    lines: Vec<u32>,
    ends: Vec<usize>,
}

impl Neighbours {
    fn add(&mut self, lines: impl Iterator<Item = u32>) {
        self.lines.extend(lines);
        self.ends.push(self.lines.len());
    }

    fn of(&self, line: usize) -> &[u32] {
        let from = if line == 0 { 0 } else { self.ends[line - 1] };
        &self.lines[from..self.ends[line]]
    }
}

/// The lines of the other kind one augmenting path has tried: those whose mark is its stamp
/// (so that no path clears the marks of the one before).
struct Visit<'a> {
    seen: &'a mut [u32],
    stamp: u32,
}

impl Visit<'_> {
    fn seen(&self, j: usize) -> bool {
        self.seen[j] == self.stamp
    }

    fn mark(&mut self, j: usize) {
        self.seen[j] = self.stamp;
    }
}

/// Kuhn's augmenting path from `line`, a free line of the other kind looked for first; true
/// when the matching grew.
fn augment(
    line: usize,
    neighbours: &Neighbours,
    partner: &mut [Option<usize>],
    visit: &mut Visit<'_>,
) -> bool {
    // A free line of the other kind first: on a dense board nearly every line finds one, and
    // the matching grows without the long chains of re-matched lines plain Kuhn builds.
    if let Some(&free) = neighbours
        .of(line)
        .iter()
        .find(|&&j| partner[j as usize].is_none() && !visit.seen(j as usize))
    {
        visit.mark(free as usize);
        partner[free as usize] = Some(line);
        return true;
    }
    for &j in neighbours.of(line) {
        let j = j as usize;
        if visit.seen(j) {
            continue;
        }
        visit.mark(j);
        if partner[j].is_none_or(|other| augment(other, neighbours, partner, visit)) {
            partner[j] = Some(line);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use queens_core::Square;

    use super::*;

    #[test]
    fn finds_rows_squeezed_into_too_few_columns() {
        // Every reported set really is crowded; some sets have more than one line.
        let mut wide = 0;
        for n in 5..=8u32 {
            for cols in 0..n * n * n {
                let mut board = FreeBoard::new(n);
                let queens = [(0, cols % n), (2, cols / n % n), (4, cols / n / n)];
                for (row, col) in queens {
                    if board.is_free(Square::new(row, col)) {
                        board.place(Square::new(row, col));
                    }
                }
                if let Some(crowding) = crowding(&board, &|| false) {
                    wide += usize::from(crowding.lines.len() > 1);
                    assert_eq!(crowding.onto.len() + 1, crowding.lines.len());
                    for &line in &crowding.lines {
                        assert!(!board.is_taken(line));
                        for square in board.free_in(line) {
                            let hit = match line {
                                Rank::Row(_) => Rank::Col(square.col),
                                Rank::Col(_) => Rank::Row(square.row),
                            };
                            assert!(crowding.onto.contains(&hit));
                        }
                    }
                }
            }
        }
        assert!(wide > 0);
    }

    #[test]
    fn an_empty_board_is_not_crowded_and_an_emptied_line_is() {
        assert_eq!(crowding(&FreeBoard::new(6), &|| false), None);
        let mut board = FreeBoard::new(4);
        board.place(Square::new(0, 0));
        board.place(Square::new(1, 2));
        let crowding = crowding(&board, &|| false).unwrap();
        assert_eq!(crowding.lines, vec![Rank::Row(2)]);
        assert!(crowding.onto.is_empty());
    }
}
