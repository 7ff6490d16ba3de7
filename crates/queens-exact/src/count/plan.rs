//! The split of a count into independent subproblems.
//!
//! Every solution of the N×N board falls in exactly one symmetry class, and each class is
//! counted from the members of it that one of two shapes takes:
//!
//! - **Corner classes.** At most one queen of a solution stands in a corner, and a solution
//!   with a corner queen has no symmetry, so its class has 8 members, exactly two of which put
//!   the queen on a1: the solution and its transpose. Of those two, the representative is the
//!   one whose row-1 queen stands left of the row its column-1 queen stands in (`c₁ < r₁`; they
//!   cannot be equal). Case [`Case::Corner`] fixes the row-1 queen on `c₁` and keeps column 1
//!   free below row `c₁`.
//! - **Edge classes.** Without a corner queen, each of the four edges holds one queen at a
//!   distance of at least 1 from both ends: eight distances, one per (edge, end) pair, and the
//!   eight symmetries permute these pairs freely. Case [`Case::Edge`] with distance `b` places the
//!   row-0 queen on column `b` and keeps the other seven distances at least `b` (the last row's
//!   queen between columns `b` and `N−1−b`, the side columns' queens between rows `b` and
//!   `N−1−b`): every class has members of that shape, one for each edge whose queen stands at
//!   distance `b` (the *tied* edges; `k` of them).
//!
//! **Class weights.** A solution of an edge case is weighed by where its ties are, with no
//! comparison of the class's members: `s` side queens on row `b` or `N−1−b`, `t` = 1 if the
//! last row's queen is on column `b` or `N−1−b`:
//!
//! | `s`, `t` | `k` | weight |
//! |---|---|---|
//! | 0, 0 | 1 | 8 |
//! | 0, 1 or 1, 0 | 2 | 4 |
//! | 2, 0 | 3 | 8 |
//! | 1, 1 | 3 | 0 |
//! | 2, 1 | 4 | 2 |
//!
//! A class of `8 / f` solutions (`f` symmetries fix each) has `k / f` members of the case's
//! shape, since exactly one symmetry takes each tied edge to the top with its queen on column
//! `b`. So weight `8 / k` on each member sums to the class's size. With three tied edges `f`
//! is 1 (a symmetry that fixes a solution is a half or quarter turn, which pairs the edges, so
//! `k` is even) and `8 / 3` is no whole number; instead the whole 8 goes to the one member
//! whose untied edge is at the bottom (the other two have their bottom edge tied and their
//! sides split, `s = 1, t = 1`). Summed over a count, the weights give the total exactly.
//!
//! **Unique solutions** come from Burnside's lemma, `8 · unique = total + R180 + 2 · R90`, with
//! two more parts, [`Case::Turn`]: the searches of the solutions a half and a quarter turn leave
//! unchanged (see `rotation`). A corner or edge part records solutions only, a turn part
//! Burnside's term only.
//!
//! Each case is then split further by placing the queens of the first few rows, giving many
//! more subproblems than threads, in an order that depends on N only: shards and checkpoints
//! name subproblems by their index; the two turn parts come last.

use super::Tally;
use super::rotation::Turn;

/// Which representatives a subproblem enumerates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Case {
    /// The 1×1 board.
    Single,
    /// A queen on a1 and the row-1 queen on column `c1`.
    Corner {
        /// Column of the row-1 queen, from 2.
        c1: u32,
    },
    /// The row-0 queen on column `b`, at least as close to its corner as any edge queen.
    Edge {
        /// Column of the row-0 queen, from 1.
        b: u32,
    },
    /// The solutions a turn of the board leaves unchanged: Burnside's term for it.
    Turn(Turn),
}

/// One independent piece of a count: a case and the columns of the queens of its first rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subproblem {
    /// The kind of representative.
    pub case: Case,
    /// Columns of the queens of rows 0, 1, … (at least the case's own rows).
    pub prefix: Vec<u32>,
}

impl Subproblem {
    /// Whether this is a subproblem of the N×N board as a plan makes them, which is what the
    /// kernels count: N from 1 to 32, the case's parameter on the board, and the prefix
    /// peaceful queens on columns the case allows (its side columns' deadline included), with
    /// a row left below it. The 1×1 board's subproblem fixes its one queen; a turn's search
    /// fixes none.
    pub fn fits(&self, n: u32) -> bool {
        if !(1..=super::MAX_N).contains(&n) {
            return false;
        }
        let case_on_board = match self.case {
            Case::Single => return n == 1 && self.prefix == [0],
            Case::Turn(_) => return self.prefix.is_empty(),
            Case::Corner { c1 } => (2..n).contains(&c1),
            Case::Edge { b } => b >= 1 && 2 * b < n - 1,
        };
        if !case_on_board || self.prefix.len() >= n as usize {
            return false;
        }
        let allowed = allowed_columns(n, self.case);
        let deadline = sides_deadline(n, self.case);
        let mut masks = (0u32, 0u32, 0u32);
        for (row, &col) in self.prefix.iter().enumerate() {
            let (cols, left, right) = masks;
            let free =
                restrict_to_deadline(deadline, row, cols, allowed[row] & !(cols | left | right));
            if col >= n || free & 1 << col == 0 {
                return false;
            }
            let queen = 1 << col;
            masks = (cols | queen, (left | queen) << 1, (right | queen) >> 1);
        }
        true
    }

    /// Panics, naming the board, unless this is a subproblem of the N×N board
    /// ([`Subproblem::fits`]): what a kernel calls before it counts, since one made by hand
    /// that does not fit would be counted wrong, not refused.
    #[track_caller]
    pub fn expect_fits(&self, n: u32) {
        assert!(
            self.fits(n),
            "not a subproblem of the {n}×{n} board: {self:?}"
        );
    }

    /// The attack masks below its prefix: the columns taken, and the left and right
    /// diagonals shifted to the row after the prefix's last.
    pub fn masks(&self) -> (u32, u32, u32) {
        self.prefix
            .iter()
            .fold((0, 0, 0), |(cols, left, right), &col| {
                let queen = 1 << col;
                (cols | queen, (left | queen) << 1, (right | queen) >> 1)
            })
    }
}

/// For each row, the columns a queen may take in `case` (as a bit mask), whatever the other
/// queens.
pub fn allowed_columns(n: u32, case: Case) -> Vec<u32> {
    let full = full_mask(n);
    let mut allowed = vec![full; n as usize];
    match case {
        Case::Single | Case::Turn(_) => {}
        Case::Corner { c1 } => {
            allowed[0] = 1;
            allowed[1] = 1 << c1;
            for row in allowed.iter_mut().take(c1 as usize).skip(2) {
                *row &= !0b10;
            }
        }
        Case::Edge { b } => {
            let last = n - 1;
            let sides = 1 | 1 << last;
            allowed[0] = 1 << b;
            for (row, columns) in allowed.iter_mut().enumerate().skip(1) {
                let row = row as u32;
                if row < b || row > last - b {
                    *columns &= !sides;
                }
            }
            // Columns b..=N-1-b for the last row.
            allowed[last as usize] &= full_mask(last - b + 1) & !full_mask(b);
        }
    }
    allowed
}

/// Whether `tally` could be what a part of `case` counts.
pub(crate) fn plausible(case: Case, tally: &Tally) -> bool {
    match case {
        Case::Single => (tally.total, tally.fixed) == (1, 7),
        Case::Corner { .. } => tally.fixed == 0 && tally.total.is_multiple_of(8),
        Case::Edge { .. } => tally.fixed == 0 && tally.total.is_multiple_of(2),
        Case::Turn(turn) => super::rotation::plausible(turn, tally),
    }
}

/// In an edge case both side columns' queens stand in rows `b..=N−1−b`: by row `N−1−b` both
/// must be filled, so that row is dead if neither is and must take the one that is not. The
/// row and the mask of the two side columns; `None` for the other cases.
pub fn sides_deadline(n: u32, case: Case) -> Option<(usize, u32)> {
    match case {
        Case::Edge { b } => Some(((n - 1 - b) as usize, 1 | 1 << (n - 1))),
        _ => None,
    }
}

/// A row's free squares `free` under the side columns' deadline ([`sides_deadline`]) when the
/// row is the deadline's: none if neither side queen stands in `cols`, the missing one's square
/// if one does, all of them if both do. Every search of the split applies it so.
#[inline]
pub fn restrict_to_deadline(
    deadline: Option<(usize, u32)>,
    row: usize,
    cols: u32,
    free: u32,
) -> u32 {
    match deadline {
        Some((deadline_row, sides)) if row == deadline_row => {
            let missing = sides & !cols;
            if missing == sides {
                0
            } else if missing != 0 {
                free & missing
            } else {
                free
            }
        }
        _ => free,
    }
}

/// The mask of the lowest `n` bits.
pub(crate) fn full_mask(n: u32) -> u32 {
    if n >= 32 { u32::MAX } else { (1 << n) - 1 }
}

/// The cases of an N×N count, in their fixed order.
pub(crate) fn cases(n: u32) -> Vec<Case> {
    if n == 1 {
        return vec![Case::Single];
    }
    let corners = (2..n).map(|c1| Case::Corner { c1 });
    // b ≤ N−1−b; at b = (N−1)/2 on an odd board the side queens would have to stand on row b,
    // on the row-0 queen's anti-diagonal, so that case is empty and skipped.
    let edges = (1..n).filter(|b| 2 * b < n - 1).map(|b| Case::Edge { b });
    let turns = [Turn::Half, Turn::Quarter].map(Case::Turn);
    corners.chain(edges).chain(turns).collect()
}

/// How many rows the subproblems of an N×N count fix. From N = 28 five: a record count's
/// shards of an hour each then hold about twenty parts (2.1 million parts, against 126,332 with
/// four rows, one or two a shard), so that a stopped task keeps most of its work and no shard
/// runs past its time limit.
pub(crate) fn split_depth(n: u32) -> usize {
    let depth = match n {
        0..=9 => 2,
        10..=13 => 3,
        14..=27 => 4,
        _ => 5,
    };
    depth.min(n.saturating_sub(1).max(1) as usize)
}

/// Every subproblem of an N×N count, in order; `parts` is their number
/// ([`subproblem_count`]), for which room is made at once.
pub(crate) fn subproblems(n: u32, parts: u64) -> Vec<Subproblem> {
    let mut out = Vec::with_capacity(usize::try_from(parts).unwrap_or(0));
    each_subproblem(n, &mut |case, prefix| {
        out.push(Subproblem {
            case,
            prefix: prefix.to_vec(),
        });
    });
    out
}

/// How many subproblems an N×N count has, found without making them (N = 28: 2,107,139).
pub(crate) fn subproblem_count(n: u32) -> u64 {
    let mut parts = 0;
    each_subproblem(n, &mut |_, _| parts += 1);
    parts
}

/// The memory `parts` subproblems of an N×N count take: each one's record, and its prefix on
/// the heap with the allocator's overhead (16 bytes, and chunks of at least 32). N = 28 takes
/// about 146 MiB (a plan's peak measured 139 MB).
pub(crate) fn subproblems_bytes(n: u32, parts: u64) -> u128 {
    let prefix = (split_depth(n) * 4 + 16).next_multiple_of(16).max(32);
    u128::from(parts) * (std::mem::size_of::<Subproblem>() + prefix) as u128
}

/// Calls `emit` with each subproblem of an N×N count, in order: its case and its prefix.
fn each_subproblem(n: u32, emit: &mut impl FnMut(Case, &[u32])) {
    let depth = split_depth(n);
    for case in cases(n) {
        match case {
            Case::Single => {
                emit(case, &[0]);
                continue;
            }
            Case::Turn(_) => {
                emit(case, &[]);
                continue;
            }
            Case::Corner { .. } | Case::Edge { .. } => {}
        }
        let allowed = allowed_columns(n, case);
        extend(&allowed, depth, &mut Vec::new(), (0, 0, 0), &mut |prefix| {
            emit(case, prefix);
        });
    }
}

/// Depth-first over the peaceful placements of the first `depth` rows.
fn extend(
    allowed: &[u32],
    depth: usize,
    prefix: &mut Vec<u32>,
    (cols, left, right): (u32, u32, u32),
    emit: &mut impl FnMut(&[u32]),
) {
    if prefix.len() == depth {
        emit(prefix);
        return;
    }
    let mut free = allowed[prefix.len()] & !(cols | left | right);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        prefix.push(bit.trailing_zeros());
        extend(
            allowed,
            depth,
            prefix,
            (cols | bit, (left | bit) << 1, (right | bit) >> 1),
            emit,
        );
        prefix.pop();
    }
}

/// A 64-bit FNV-1a fingerprint of the split: N, the depth and every subproblem, so that shards
/// and checkpoints made by a different split are recognised as foreign.
pub(crate) fn fingerprint(n: u32, subproblems: &[Subproblem]) -> u64 {
    fingerprint_with(|feed| describe(n, subproblems, feed))
}

/// The 64-bit FNV-1a hash of the numbers `describe` feeds it.
pub(crate) fn fingerprint_with(describe: impl FnOnce(&mut dyn FnMut(u32))) -> u64 {
    const PRIME: u64 = 0x0100_0000_01b3;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |value: u32| {
        for byte in value.to_le_bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(PRIME);
        }
    };
    describe(&mut feed);
    hash
}

/// Feeds the backtracking split to `feed`: the kernel version, N, the depth, every subproblem.
fn describe(n: u32, subproblems: &[Subproblem], feed: &mut dyn FnMut(u32)) {
    feed(super::KERNEL_VERSION);
    feed(n);
    feed(split_depth(n) as u32);
    for sub in subproblems {
        match sub.case {
            Case::Single => feed(0),
            Case::Corner { c1 } => {
                feed(1);
                feed(c1);
            }
            Case::Edge { b } => {
                feed(2);
                feed(b);
            }
            Case::Turn(Turn::Half) => feed(3),
            Case::Turn(Turn::Quarter) => feed(4),
        }
        feed(sub.prefix.len() as u32);
        sub.prefix.iter().copied().for_each(&mut *feed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parts are counted without being made, as many as are made, so that the memory
    /// they take is checked before any is allocated.
    #[test]
    fn the_parts_are_counted_before_they_are_made() {
        for n in [1, 2, 5, 8, 12, 17, 21] {
            let parts = subproblem_count(n);
            let made = subproblems(n, parts);
            assert_eq!(made.len() as u64, parts, "N = {n}");
            assert!(made.capacity() as u64 == parts, "N = {n}: room made once");
        }
        assert_eq!(subproblem_count(28), 2_107_139);
        let bytes = subproblems_bytes(28, 2_107_139);
        assert!((130 << 20..200 << 20).contains(&bytes), "{bytes}");
    }
}
