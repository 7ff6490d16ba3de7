//! Half boards: the queens of the west (or east) columns, built by joining a north and a south
//! quadrant placement, and the key by which west and east halves are matched.
//!
//! A west half fills every free west column; the rows it fills are its *row set*, and the east
//! half must fill the other free rows. Two such halves make a solution exactly when they share
//! no diagonal, and only the diagonals that cross the line between the halves can be shared:
//! those are the bits a [`KeyLayout`] keeps.

use super::quadrant::{Diagonals, Quadrant, QuadrantTable, subsets};

/// One side (west or east) of the board: its two quadrants, the diagonals each may not use,
/// and its free columns.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Side {
    /// The north quadrant.
    pub north: Quadrant,
    /// The south quadrant.
    pub south: Quadrant,
    /// Diagonals a north placement may not use.
    pub north_forbidden: Diagonals,
    /// Diagonals a south placement may not use.
    pub south_forbidden: Diagonals,
    /// The free columns, as a mask of the quadrants' own columns.
    pub columns: u32,
    /// The bit of the long diagonals (N − 1 in both families) if halves are sorted by the long
    /// diagonals they occupy (the west side of an even board: the north-west's main diagonal
    /// and the south-west's anti-diagonal), else 0.
    pub long_diagonal: u64,
    /// The diagonals a key keeps.
    pub key: KeyLayout,
}

/// Keys gathered before they are joined: beyond this, batches are joined and emptied, which
/// bounds the working memory of a piece.
pub(crate) const BLOCK: usize = 1 << 20;

/// Keys of half boards, in three batches by how many long diagonals the half occupies, joined
/// whenever one holds `limit` keys.
#[derive(Debug)]
pub(crate) struct Batches {
    batches: [Keys; 3],
    limit: usize,
}

impl Batches {
    /// Empty batches that count as full at `limit` keys.
    pub fn new(limit: usize) -> Self {
        Batches {
            batches: Default::default(),
            limit: limit.max(1),
        }
    }

    fn is_full(&self) -> bool {
        self.batches.iter().any(|b| b.len >= self.limit)
    }

    /// The batch of halves on `long` long diagonals.
    pub fn batch(&self, long: usize) -> &[u64] {
        self.batches[long].as_slice()
    }

    /// Keys in all batches.
    pub fn len(&self) -> usize {
        self.batches.iter().map(|b| b.len).sum()
    }

    /// Empties every batch, keeping the memory.
    pub fn clear(&mut self) {
        self.batches.iter_mut().for_each(|b| b.len = 0);
    }
}

/// A growable run of keys written without checks of what each slot held.
#[derive(Debug, Default)]
struct Keys {
    data: Vec<u64>,
    len: usize,
}

impl Keys {
    fn as_slice(&self) -> &[u64] {
        &self.data[..self.len]
    }

    /// Appends `a | b` for every disjoint pair of keys of `one` and `other`, the shorter list
    /// outside.
    #[inline]
    fn push_pairs(&mut self, one: &[u64], other: &[u64]) {
        let (outer, inner) = if one.len() <= other.len() {
            (one, other)
        } else {
            (other, one)
        };
        for &key in outer {
            self.push_disjoint(key, inner);
        }
    }

    /// Appends `north | south` for every `south` disjoint from `north`, without a branch per
    /// candidate: each is written, and kept by advancing the end only if it fits.
    #[inline]
    fn push_disjoint(&mut self, north: u64, souths: &[u64]) {
        let end = self.len + souths.len();
        if end > self.data.len() {
            self.data.resize(end.next_power_of_two(), 0);
        }
        let slots = &mut self.data[self.len..end];
        let mut kept = 0;
        for (index, &south) in souths.iter().enumerate() {
            slots[kept.min(index)] = north | south;
            kept += usize::from(north & south == 0);
        }
        self.len += kept;
    }
}

/// The keys of one quadrant's placements on given rows, for every set of the side's columns
/// they can fill, each set's keys split by whether they use the long diagonal.
#[derive(Debug, Default)]
pub(crate) struct NorthKeys {
    /// (columns, first key, first key on the long diagonal, end).
    sets: Vec<(u32, usize, usize, usize)>,
    keys: Vec<u64>,
}

impl Side {
    /// The keys of the north quadrant's placements on `rows`, by column set. They serve every
    /// south part of a piece, whose north rows are fixed.
    pub fn north_keys(&self, table: &QuadrantTable, rows: u32, keys: &mut NorthKeys) {
        let layout = self.key;
        keys.sets.clear();
        keys.keys.clear();
        let weight = rows.count_ones();
        for columns in subsets(self.columns).filter(|c| c.count_ones() == weight) {
            let start = keys.keys.len();
            let placements = table.filling(rows, columns);
            let mut middle = start;
            // Off the long diagonal first, then on it.
            for on_long in [false, true] {
                middle = keys.keys.len();
                for &local in placements {
                    let placed = self.north.place(local);
                    if placed.disjoint(self.north_forbidden)
                        && (placed.differences & self.long_diagonal != 0) == on_long
                    {
                        keys.keys.push(layout.key(placed));
                    }
                }
            }
            if keys.keys.len() > start {
                keys.sets.push((columns, start, middle, keys.keys.len()));
            }
        }
    }

    /// Appends to `out` the key of every half of this side made of a north placement of
    /// `north` and a south one on `south_rows`, filling every free column, and returns how
    /// many; calls `full(out)` (and empties `out`) whenever a batch has reached its limit.
    /// `scratch` is working memory.
    pub fn halves(
        &self,
        table: &QuadrantTable,
        north: &NorthKeys,
        south_rows: u32,
        scratch: &mut [Vec<u64>; 2],
        out: &mut Batches,
        mut full: impl FnMut(&mut Batches),
    ) -> u64 {
        let layout = self.key;
        let before = out.len() as u64;
        let mut flushed = 0u64;
        for &(columns, start, middle, end) in &north.sets {
            let south_columns = self.columns & !columns;
            if south_columns.count_ones() != south_rows.count_ones() {
                continue;
            }
            let south = table.filling(south_rows, south_columns);
            if south.is_empty() {
                continue;
            }
            for list in scratch.iter_mut() {
                list.clear();
            }
            for &local in south {
                let placed = self.south.place(local);
                if placed.disjoint(self.south_forbidden) {
                    let long = placed.sums & self.long_diagonal != 0;
                    scratch[usize::from(long)].push(layout.key(placed));
                }
            }
            let norths = [&north.keys[start..middle], &north.keys[middle..end]];
            for (north_long, norths) in norths.into_iter().enumerate() {
                for (south_long, souths) in scratch.iter().enumerate() {
                    out.batches[north_long + south_long].push_pairs(norths, souths);
                }
            }
            if out.is_full() {
                flushed += out.len() as u64;
                full(out);
                out.clear();
            }
        }
        flushed + out.len() as u64 - before
    }
}

/// Which diagonals a key keeps, and how it packs them: the sums and the differences numbered
/// `low..low + width` (the diagonals that cross between west and east), optionally without one
/// bit of each — on even boards the long diagonals, which no stored east half uses, so a west
/// half's queen there never meets one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyLayout {
    low: u32,
    width: u32,
    squeezed: Option<u32>,
}

impl KeyLayout {
    /// Keys of the diagonals numbered `low..low + width` in both families, without bit
    /// `squeezed` of each (counted from `low`).
    pub fn new(low: u32, width: u32, squeezed: Option<u32>) -> Self {
        KeyLayout {
            low,
            width,
            squeezed,
        }
    }

    /// Bits in a key.
    pub fn bits(self) -> u32 {
        2 * (self.width - u32::from(self.squeezed.is_some()))
    }

    /// The key of a half's diagonals.
    #[inline]
    pub fn key(self, diagonals: Diagonals) -> u64 {
        let mask = (1u64 << self.width) - 1;
        let pack = |family: u64| {
            let bits = (family >> self.low) & mask;
            match self.squeezed {
                Some(bit) => (bits & ((1 << bit) - 1)) | ((bits >> (bit + 1)) << bit),
                None => bits,
            }
        };
        let half = self.bits() / 2;
        pack(diagonals.sums) | pack(diagonals.differences) << half
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_the_window_and_squeeze_the_long_diagonal() {
        let layout = KeyLayout::new(4, 7, Some(3));
        assert_eq!(layout.bits(), 12);
        let diagonals = Diagonals {
            // Bits 4 (the window's first), 7 (squeezed), 8 and 10 inside; 12 outside.
            sums: 1 << 4 | 1 << 7 | 1 << 8 | 1 << 10 | 1 << 12,
            differences: 1 << 5,
        };
        assert_eq!(layout.key(diagonals), 0b1 | 0b1000 | 0b10_0000 | 0b10 << 6);
    }
}
