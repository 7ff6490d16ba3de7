//! Which diagonals hold a queen, a bit each, and how many more the few crowded ones hold.
//!
//! QS4 keeps a counter per diagonal. But a board being solved by min-conflicts has almost every
//! diagonal holding zero or one queen: after the start only a few dozen hold two. So one bit
//! says whether a diagonal is occupied, and a small map counts the queens beyond the first on
//! the crowded ones. Both directions together take 4N bits, half a byte a queen, and at
//! N = 10⁷ they fit in the processor's cache where 1-byte counters (4 bytes a queen) do not.

use rustc_hash::FxHashMap;

use queens_core::huge::HugeBits;

/// The two directions of diagonal.
#[derive(Clone, Copy)]
enum Direction {
    /// Rising diagonals, numbered `col − row + N − 1`.
    Rising = 0,
    /// Falling diagonals, numbered `col + row`.
    Falling = 1,
}

/// The queens on every diagonal of an N×N board: rising diagonals by `col − row + N − 1`,
/// falling ones by `col + row`.
pub(super) struct Diagonals {
    n: usize,
    rising: HugeBits,
    falling: HugeBits,
    /// For each diagonal holding two queens or more (keyed by twice its number plus its
    /// direction), how many it holds beyond the first.
    crowded: FxHashMap<usize, u32>,
}

impl Diagonals {
    pub(super) fn new(n: usize) -> Self {
        Diagonals {
            n,
            rising: HugeBits::new(2 * n - 1),
            falling: HugeBits::new(2 * n - 1),
            crowded: FxHashMap::default(),
        }
    }

    /// Bytes held for an N×N board, beyond the crowded diagonals' few entries.
    pub(super) fn bytes_for(n: u64) -> u64 {
        2 * (2 * n - 1).div_ceil(64) * 8
    }

    #[inline]
    fn indices(&self, col: usize, row: usize) -> (usize, usize) {
        (col + self.n - 1 - row, col + row)
    }

    /// Whether the square's two diagonals are empty. Both bits are read unconditionally, so
    /// that their two cache misses overlap.
    #[inline]
    pub(super) fn is_free(&self, col: usize, row: usize) -> bool {
        let (r, f) = self.indices(col, row);
        !(self.rising.get(r) | self.falling.get(f))
    }

    /// Reads the square's bits ahead of need.
    #[inline]
    pub(super) fn touch(&self, col: usize, row: usize) -> u64 {
        let (r, f) = self.indices(col, row);
        self.rising.touch(r) ^ self.falling.touch(f)
    }

    /// Puts a queen on the square if both its diagonals are empty; whether it did.
    #[inline]
    pub(super) fn claim(&mut self, col: usize, row: usize) -> bool {
        let (r, f) = self.indices(col, row);
        let (rising, falling) = (self.rising.words_mut(), self.falling.words_mut());
        let (r_word, r_bit) = (r / 64, 1u64 << (r % 64));
        let (f_word, f_bit) = (f / 64, 1u64 << (f % 64));
        if (rising[r_word] & r_bit) | (falling[f_word] & f_bit) != 0 {
            return false;
        }
        rising[r_word] |= r_bit;
        falling[f_word] |= f_bit;
        true
    }

    /// Whether a queen on the square shares one of its diagonals with another queen.
    #[inline]
    pub(super) fn is_crowded(&self, col: usize, row: usize) -> bool {
        if self.crowded.is_empty() {
            return false;
        }
        let (r, f) = self.indices(col, row);
        self.crowded.contains_key(&key(Direction::Rising, r))
            || self.crowded.contains_key(&key(Direction::Falling, f))
    }

    /// Adds a queen; returns the collisions it creates (the diagonals already occupied).
    #[inline]
    pub(super) fn add(&mut self, col: usize, row: usize) -> u64 {
        let (r, f) = self.indices(col, row);
        u64::from(self.add_on(Direction::Rising, r)) + u64::from(self.add_on(Direction::Falling, f))
    }

    /// Removes a queen; returns the collisions it ends (the diagonals it leaves still occupied).
    #[inline]
    pub(super) fn remove(&mut self, col: usize, row: usize) -> u64 {
        let (r, f) = self.indices(col, row);
        u64::from(self.remove_from(Direction::Rising, r))
            + u64::from(self.remove_from(Direction::Falling, f))
    }

    fn bits(&mut self, direction: Direction) -> &mut HugeBits {
        match direction {
            Direction::Rising => &mut self.rising,
            Direction::Falling => &mut self.falling,
        }
    }

    /// Adds a queen to one diagonal; whether it already held one.
    #[inline]
    fn add_on(&mut self, direction: Direction, index: usize) -> bool {
        let bits = self.bits(direction);
        if bits.get(index) {
            *self.crowded.entry(key(direction, index)).or_insert(0) += 1;
            true
        } else {
            bits.set(index);
            false
        }
    }

    /// Removes a queen from one diagonal; whether another one stays on it.
    #[inline]
    fn remove_from(&mut self, direction: Direction, index: usize) -> bool {
        debug_assert!(
            match direction {
                Direction::Rising => self.rising.get(index),
                Direction::Falling => self.falling.get(index),
            },
            "a queen to remove"
        );
        if !self.crowded.is_empty()
            && let std::collections::hash_map::Entry::Occupied(mut extra) =
                self.crowded.entry(key(direction, index))
        {
            *extra.get_mut() -= 1;
            if *extra.get() == 0 {
                extra.remove();
            }
            return true;
        }
        self.bits(direction).clear(index);
        false
    }
}

/// The crowded map's key for a diagonal.
#[inline]
fn key(direction: Direction, index: usize) -> usize {
    2 * index + direction as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Queens per diagonal, counted plainly: the reference.
    struct Counters {
        n: usize,
        rising: Vec<u32>,
        falling: Vec<u32>,
    }

    impl Counters {
        fn add(&mut self, col: usize, row: usize) -> u64 {
            let (r, f) = (col + self.n - 1 - row, col + row);
            let created = u64::from(self.rising[r] > 0) + u64::from(self.falling[f] > 0);
            self.rising[r] += 1;
            self.falling[f] += 1;
            created
        }

        fn remove(&mut self, col: usize, row: usize) -> u64 {
            let (r, f) = (col + self.n - 1 - row, col + row);
            self.rising[r] -= 1;
            self.falling[f] -= 1;
            u64::from(self.rising[r] > 0) + u64::from(self.falling[f] > 0)
        }

        fn crowded(&self, col: usize, row: usize) -> bool {
            self.rising[col + self.n - 1 - row] > 1 || self.falling[col + row] > 1
        }
    }

    #[test]
    fn bits_and_a_map_count_like_counters_and_claims_take_only_empty_diagonals() {
        use queens_core::random::SeededRng;
        use rand::{RngExt, SeedableRng};
        let n = 7;
        let mut rng = SeededRng::seed_from_u64(3);
        let mut diagonals = Diagonals::new(n);
        let mut counters = Counters {
            n,
            rising: vec![0; 2 * n - 1],
            falling: vec![0; 2 * n - 1],
        };
        let mut queens: Vec<(usize, usize)> = Vec::new();
        for _ in 0..20_000 {
            if queens.len() < 12 && (queens.is_empty() || rng.random_bool(0.55)) {
                let square = (rng.random_range(0..n), rng.random_range(0..n));
                if rng.random_bool(0.3) {
                    // A claim puts the queen only where both diagonals are empty.
                    let (r, f) = (square.0 + n - 1 - square.1, square.0 + square.1);
                    let free = counters.rising[r] == 0 && counters.falling[f] == 0;
                    assert_eq!(diagonals.claim(square.0, square.1), free);
                    if !free {
                        continue;
                    }
                    counters.add(square.0, square.1);
                } else {
                    assert_eq!(
                        diagonals.add(square.0, square.1),
                        counters.add(square.0, square.1)
                    );
                }
                queens.push(square);
            } else {
                let (col, row) = queens.swap_remove(rng.random_range(0..queens.len()));
                assert_eq!(diagonals.remove(col, row), counters.remove(col, row));
            }
            for col in 0..n {
                for row in 0..n {
                    let (r, f) = (col + n - 1 - row, col + row);
                    let free = counters.rising[r] == 0 && counters.falling[f] == 0;
                    assert_eq!(diagonals.is_free(col, row), free);
                    assert_eq!(diagonals.is_crowded(col, row), counters.crowded(col, row));
                }
            }
        }
        while let Some((col, row)) = queens.pop() {
            diagonals.remove(col, row);
        }
        assert!(diagonals.crowded.is_empty(), "every extra queen accounted");
    }
}
