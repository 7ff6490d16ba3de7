//! How the join's work is split: the middle cross of an odd board, the row sets, and the
//! symmetries that let most of them be skipped.
//!
//! **Even N.** Every solution has a *row set*: the rows whose queen stands in the west half.
//! The north–south mirror maps the solutions of row set `W` one to one onto those of the
//! mirrored set, so only one set of each mirrored pair is counted, twice. Two more symmetries
//! come from the long diagonals, each of which crosses two quadrants: the transpose keeps the
//! main diagonal's queen where it is and moves the anti-diagonal's between the north-east and
//! south-west quadrants; the anti-transpose does the converse. Every solution is therefore the
//! image of one whose east half leaves both long diagonals empty, and exactly
//! `2^(main diagonal's queen in the north-west) · 2^(anti-diagonal's queen in the south-west)`
//! solutions map to each such one. So east halves on a long diagonal are never built, and each
//! west half counts with that weight. The north–south mirror preserves both the rule and the
//! weight (it exchanges the two long diagonals together with the quadrants), so the savings
//! multiply: about 8× in all.
//!
//! **Odd N.** The middle row's and the middle column's queens are placed first (a *cross*:
//! one queen in the centre, or one on each arm), and the four quadrants around them are
//! joined as on an even board, with the cross's diagonals forbidden. One cross of each orbit
//! under the eight symmetries is counted, times the orbit's size.
//!
//! A piece is one cross and the north part of the row set, with every south part that goes
//! with it: a few hundred to a few ten thousand pieces, each independent.

use super::half::{KeyLayout, Side};
use super::quadrant::{Diagonals, Quadrant, subsets};

/// One of the eight symmetries of the square: (last index, row, column) ↦ (row, column).
type Symmetry = fn(u32, u32, u32) -> (u32, u32);

/// The queens on the middle row and column of an odd board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cross {
    /// An even board: no middle row or column.
    None,
    /// One queen in the centre.
    Centre,
    /// The middle row's queen on column `a`, the middle column's on row `b`.
    Arms { a: u32, b: u32 },
}

/// A cross, how many crosses its orbit holds, and the board around it.
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub cross: Cross,
    /// Crosses in its orbit under the eight symmetries.
    pub orbit: u32,
    pub west: Side,
    pub east: Side,
    /// The free north rows (the quadrants' own rows).
    pub north_rows: u32,
    /// The free south rows.
    pub south_rows: u32,
}

/// One piece of the work: a frame and the north rows of the west half's row set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    /// Index of the frame.
    pub frame: usize,
    /// West half's north rows.
    pub west_north: u32,
}

/// The board's split into quadrants: side `h`, where the south rows and east columns start.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Split {
    pub n: u32,
    pub h: u32,
    pub far: u32,
    pub key: KeyLayout,
}

impl Split {
    /// The split of the N×N board (N ≥ 4).
    pub fn new(n: u32) -> Self {
        let h = n / 2;
        let far = n - h;
        // Diagonals that cross between the halves: r + c and r − c + N − 1 in far..=far + 2h − 2.
        let squeezed = n.is_multiple_of(2).then_some(n - 1 - far);
        Split {
            n,
            h,
            far,
            key: KeyLayout::new(far, 2 * h - 1, squeezed),
        }
    }

    fn quadrant(self, row: u32, column: u32) -> Quadrant {
        Quadrant::new(self.n, self.h, row, column)
    }

    /// The frames of the count, in their fixed order.
    pub fn frames(self) -> Vec<Frame> {
        let full = (1u32 << self.h) - 1;
        if self.n.is_multiple_of(2) {
            let long = 1u64 << (self.n - 1);
            let no = Diagonals::default();
            return vec![Frame {
                cross: Cross::None,
                orbit: 1,
                west: Side {
                    north: self.quadrant(0, 0),
                    south: self.quadrant(self.far, 0),
                    north_forbidden: no,
                    south_forbidden: no,
                    columns: full,
                    long_diagonal: long,
                    key: self.key,
                },
                east: Side {
                    north: self.quadrant(0, self.far),
                    south: self.quadrant(self.far, self.far),
                    // The anti-diagonal in the north-east, the main diagonal in the south-east.
                    north_forbidden: Diagonals {
                        sums: long,
                        differences: 0,
                    },
                    south_forbidden: Diagonals {
                        sums: 0,
                        differences: long,
                    },
                    columns: full,
                    long_diagonal: 0,
                    key: self.key,
                },
                north_rows: full,
                south_rows: full,
            }];
        }
        let m = self.h;
        let mut crosses = vec![(Cross::Centre, 1)];
        for a in (0..self.n).filter(|&a| a != m) {
            for b in (0..self.n).filter(|&b| b != m && b.abs_diff(m) != a.abs_diff(m)) {
                let images = self.images(a, b);
                if images.iter().min() == Some(&(a, b)) {
                    let mut distinct = images.to_vec();
                    distinct.sort_unstable();
                    distinct.dedup();
                    crosses.push((Cross::Arms { a, b }, distinct.len() as u32));
                }
            }
        }
        crosses
            .into_iter()
            .map(|(cross, orbit)| self.frame(cross, orbit, full))
            .collect()
    }

    /// The crosses the eight symmetries make of the cross (`a`, `b`).
    fn images(self, a: u32, b: u32) -> [(u32, u32); 8] {
        let (n, m) = (self.n, self.h);
        let last = n - 1;
        let maps: [Symmetry; 8] = [
            |_, r, c| (r, c),
            |l, r, c| (c, l - r),
            |l, r, c| (l - r, l - c),
            |l, r, c| (l - c, r),
            |l, r, c| (r, l - c),
            |l, r, c| (l - r, c),
            |_, r, c| (c, r),
            |l, r, c| (l - c, l - r),
        ];
        maps.map(|map| {
            let row_queen = map(last, m, a);
            let column_queen = map(last, b, m);
            if row_queen.0 == m {
                (row_queen.1, column_queen.0)
            } else {
                (column_queen.1, row_queen.0)
            }
        })
    }

    fn frame(self, cross: Cross, orbit: u32, full: u32) -> Frame {
        let (n, m, far) = (self.n, self.h, self.far);
        let queens: Vec<(u32, u32)> = match cross {
            Cross::None => vec![],
            Cross::Centre => vec![(m, m)],
            Cross::Arms { a, b } => vec![(m, a), (b, m)],
        };
        let forbidden = queens
            .iter()
            .fold(Diagonals::default(), |lines, &(r, c)| Diagonals {
                sums: lines.sums | 1 << (r + c),
                differences: lines.differences | 1 << (r + n - 1 - c),
            });
        let (mut west_columns, mut east_columns, mut north_rows, mut south_rows) =
            (full, full, full, full);
        if let Cross::Arms { a, b } = cross {
            if a < m {
                west_columns &= !(1 << a);
            } else {
                east_columns &= !(1 << (a - far));
            }
            if b < m {
                north_rows &= !(1 << b);
            } else {
                south_rows &= !(1 << (b - far));
            }
        }
        Frame {
            cross,
            orbit,
            west: Side {
                north: self.quadrant(0, 0),
                south: self.quadrant(far, 0),
                north_forbidden: forbidden,
                south_forbidden: forbidden,
                columns: west_columns,
                long_diagonal: 0,
                key: self.key,
            },
            east: Side {
                north: self.quadrant(0, far),
                south: self.quadrant(far, far),
                north_forbidden: forbidden,
                south_forbidden: forbidden,
                columns: east_columns,
                long_diagonal: 0,
                key: self.key,
            },
            north_rows,
            south_rows,
        }
    }

    /// For an even board, how often the row set (`north`, `south`) is counted: 2 if it comes
    /// before its north–south mirror, 1 if it is its own, 0 if it comes after.
    pub fn mirror_weight(self, frame: &Frame, north: u32, south: u32) -> u64 {
        if frame.cross != Cross::None {
            return 1;
        }
        let reverse = |rows: u32| rows.reverse_bits() >> (32 - self.h);
        let code = u64::from(north) | u64::from(south) << self.h;
        let mirrored = u64::from(reverse(south)) | u64::from(reverse(north)) << self.h;
        match code.cmp(&mirrored) {
            std::cmp::Ordering::Less => 2,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Greater => 0,
        }
    }

    /// The south parts that go with the west north rows `north` in `frame`.
    pub fn south_parts(self, frame: &Frame, north: u32) -> impl Iterator<Item = u32> {
        let wanted = frame.west.columns.count_ones();
        let taken = north.count_ones();
        subsets(frame.south_rows)
            .filter(move |south| taken + south.count_ones() == wanted)
            .filter(move |&south| self.mirror_weight(frame, north, south) > 0)
    }

    /// Every piece of the count, in order.
    pub fn pieces(self, frames: &[Frame]) -> Vec<Piece> {
        let mut pieces = Vec::new();
        for (index, frame) in frames.iter().enumerate() {
            let mut norths: Vec<u32> = subsets(frame.north_rows)
                .filter(|&north| self.south_parts(frame, north).next().is_some())
                .collect();
            norths.sort_unstable();
            pieces.extend(norths.into_iter().map(|west_north| Piece {
                frame: index,
                west_north,
            }));
        }
        pieces
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cross_orbits_cover_every_cross_once() {
        for n in [5, 7, 9, 11, 13] {
            let split = Split::new(n);
            let m = n / 2;
            let arms: u32 = split
                .frames()
                .iter()
                .filter(|f| matches!(f.cross, Cross::Arms { .. }))
                .map(|f| f.orbit)
                .sum();
            let every = (0..n)
                .flat_map(|a| (0..n).map(move |b| (a, b)))
                .filter(|&(a, b)| a != m && b != m && a.abs_diff(m) != b.abs_diff(m))
                .count() as u32;
            assert_eq!(arms, every, "N = {n}");
        }
    }

    #[test]
    fn mirrored_row_sets_are_counted_once() {
        let split = Split::new(8);
        let frame = &split.frames()[0];
        // North rows {0} with south rows {4, 5, 6} (local 0b0111) mirror to north {1, 2, 3}
        // (local 0b1110, from south rows 4..=6) with south {7} (local 0b1000).
        assert_eq!(split.mirror_weight(frame, 0b0001, 0b0111), 2);
        assert_eq!(split.mirror_weight(frame, 0b1110, 0b1000), 0);
        // {0, 1} with {6, 7} is its own mirror.
        assert_eq!(split.mirror_weight(frame, 0b0011, 0b1100), 1);
    }
}
