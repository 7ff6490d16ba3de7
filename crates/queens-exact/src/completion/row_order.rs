//! Completions counted the plain way, row by row from the bottom, every open column of a row
//! tried in turn: the bit-parallel backtracking of the classic counters (columns and the two
//! diagonals as shifting masks), with the blocked squares and the squares the placed queens
//! attack taken out of each row beforehand. It shares no reasoning with the completion search —
//! no choice of line, no column counts, no symmetry — which makes it the cross-check of that
//! search's counts ([`Method::RowByRow`](super::Method::RowByRow); `queens count --engine
//! backtracking` with a position).

use queens_core::{Budget, Problem, StopReason};

/// The largest board counted row by row: a row's columns fit in 64 bits.
pub const MAX_N: u32 = 64;

/// The rows of a position as the row-by-row count walks them.
pub(super) struct Rows {
    /// The low N bits.
    full: u64,
    /// Per row: the squares no free queen may take (blocked, or attacked by a placed queen);
    /// every square for a row that holds a placed queen.
    closed: Vec<u64>,
    /// Per row: whether a placed queen holds it.
    placed: Vec<bool>,
}

/// Where the walk stands: the next row, and the columns and diagonals the free queens below
/// it hold, the diagonals shifted to that row.
#[derive(Clone, Copy)]
pub(super) struct Walk {
    row: usize,
    cols: u64,
    left: u64,
    right: u64,
}

impl Rows {
    /// The rows of `problem`; `None` for one that is not N queens on N×N up to 64.
    pub(super) fn of(problem: &Problem) -> Option<Rows> {
        let n = problem.classic_side().filter(|&n| n <= MAX_N)?;
        let full = if n == 64 { u64::MAX } else { (1 << n) - 1 };
        let mut closed = vec![0u64; n as usize];
        let mut placed = vec![false; n as usize];
        for square in problem.blocked() {
            closed[square.row as usize] |= 1 << square.col;
        }
        for &queen in problem.fixed() {
            placed[queen.row as usize] = true;
            for (row, mask) in closed.iter_mut().enumerate() {
                let distance = (row as i64 - i64::from(queen.row)).unsigned_abs();
                let col = u64::from(queen.col);
                *mask |= 1 << col;
                if col + distance < u64::from(n) {
                    *mask |= 1 << (col + distance);
                }
                if let Some(left) = col.checked_sub(distance) {
                    *mask |= 1 << left;
                }
            }
        }
        for (row, &held) in placed.iter().enumerate() {
            if held {
                closed[row] = full;
            }
        }
        Some(Rows {
            full,
            closed,
            placed,
        })
    }

    /// The open columns of the walk's row.
    fn open(&self, walk: Walk) -> u64 {
        !(walk.cols | walk.left | walk.right | self.closed[walk.row]) & self.full
    }

    /// The walk one row up, with a free queen on `bit` of this row (or none, for a row that
    /// holds a placed queen).
    fn up(&self, walk: Walk, bit: u64) -> Walk {
        Walk {
            row: walk.row + 1,
            cols: walk.cols | bit,
            left: ((walk.left | bit) << 1) & self.full,
            right: (walk.right | bit) >> 1,
        }
    }

    /// The walks after the first `levels` free rows, with the nodes spent reaching them.
    pub(super) fn split(&self, levels: usize) -> (Vec<Walk>, u64) {
        let mut walks = vec![Walk {
            row: 0,
            cols: 0,
            left: 0,
            right: 0,
        }];
        let mut nodes = 0;
        let mut free_rows_split = 0;
        while free_rows_split < levels && walks.first().is_some_and(|w| w.row < self.closed.len()) {
            let row = walks[0].row;
            if self.placed[row] {
                walks = walks.into_iter().map(|walk| self.up(walk, 0)).collect();
                continue;
            }
            let mut next = Vec::new();
            for walk in walks {
                let mut open = self.open(walk);
                while open != 0 {
                    let bit = open & open.wrapping_neg();
                    open ^= bit;
                    next.push(self.up(walk, bit));
                    nodes += 1;
                }
            }
            walks = next;
            free_rows_split += 1;
        }
        (walks, nodes)
    }

    /// The completions above `walk`, adding the queens placed to `nodes`.
    pub(super) fn count(
        &self,
        walk: Walk,
        budget: &Budget,
        nodes: &mut u64,
    ) -> Result<u128, StopReason> {
        if walk.row == self.closed.len() {
            return Ok(1);
        }
        if self.placed[walk.row] {
            return self.count(self.up(walk, 0), budget, nodes);
        }
        let mut open = self.open(walk);
        let mut total = 0;
        while open != 0 {
            let bit = open & open.wrapping_neg();
            open ^= bit;
            *nodes += 1;
            if nodes.is_multiple_of(1 << 16) {
                budget.check()?;
            }
            total += self.count(self.up(walk, bit), budget, nodes)?;
        }
        Ok(total)
    }
}
