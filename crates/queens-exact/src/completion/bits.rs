//! The bit sets the completion search works in, one width per board size: a machine word for
//! boards up to 64 (its diagonals in a `u128`, as fast as a hand-written 64-bit search), and
//! [`Wide`] sets of 2, 4, 8 or 16 words up to 128, 256, 512 and 1024, their diagonals twice as
//! wide. The search is written once over [`Lines`].

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A set of lines (columns, rows, the squares along a line) as bits, with the set of diagonals
/// that goes with it (2N − 1 bits).
pub trait Lines:
    Copy
    + Debug
    + Eq
    + Send
    + Sync
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// A set of diagonals.
    type Diagonals: Copy + Debug + Send + Sync;

    /// The most lines a set holds.
    const CAPACITY: u32;
    /// Bits a count of lines needs, up to [`CAPACITY`](Self::CAPACITY) (7 for 64, 11 for 1024).
    const COUNT_BITS: usize;

    /// The empty set.
    fn empty() -> Self;
    /// Lines `0..n`.
    fn first(n: u32) -> Self;
    /// The empty set of diagonals.
    fn no_diagonals() -> Self::Diagonals;

    /// Whether it holds line `i`.
    fn has(&self, i: u32) -> bool;
    /// Adds line `i`.
    fn insert(&mut self, i: u32);
    /// Removes line `i`.
    fn remove(&mut self, i: u32);
    /// Whether it is empty.
    fn is_empty(&self) -> bool;
    /// How many lines it holds.
    fn count(&self) -> u32;
    /// Removes and returns its lowest line.
    fn pop_lowest(&mut self) -> Option<u32>;

    /// Adds diagonal `i`.
    fn insert_diagonal(diagonals: &mut Self::Diagonals, i: u32);
    /// Removes diagonal `i`.
    fn remove_diagonal(diagonals: &mut Self::Diagonals, i: u32);
    /// Diagonals `from..from + CAPACITY`, as a set of lines.
    fn window(diagonals: &Self::Diagonals, from: u32) -> Self;
}

impl Lines for u64 {
    type Diagonals = u128;
    const CAPACITY: u32 = 64;
    const COUNT_BITS: usize = 7;

    #[inline]
    fn empty() -> Self {
        0
    }
    #[inline]
    fn first(n: u32) -> Self {
        if n >= 64 { u64::MAX } else { (1 << n) - 1 }
    }
    #[inline]
    fn no_diagonals() -> u128 {
        0
    }
    #[inline]
    fn has(&self, i: u32) -> bool {
        self >> i & 1 == 1
    }
    #[inline]
    fn insert(&mut self, i: u32) {
        *self |= 1 << i;
    }
    #[inline]
    fn remove(&mut self, i: u32) {
        *self &= !(1 << i);
    }
    #[inline]
    fn is_empty(&self) -> bool {
        *self == 0
    }
    #[inline]
    fn count(&self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn pop_lowest(&mut self) -> Option<u32> {
        if *self == 0 {
            return None;
        }
        let lowest = self.trailing_zeros();
        *self &= *self - 1;
        Some(lowest)
    }
    #[inline]
    fn insert_diagonal(diagonals: &mut u128, i: u32) {
        *diagonals |= 1 << i;
    }
    #[inline]
    fn remove_diagonal(diagonals: &mut u128, i: u32) {
        *diagonals &= !(1 << i);
    }
    #[inline]
    fn window(diagonals: &u128, from: u32) -> u64 {
        (diagonals >> from) as u64
    }
}

/// A set of up to 64·K lines in K words, its diagonals in D = 2K words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wide<const K: usize, const D: usize>([u64; K]);

impl<const K: usize, const D: usize> BitAnd for Wide<K, D> {
    type Output = Self;
    #[inline]
    fn bitand(mut self, other: Self) -> Self {
        self &= other;
        self
    }
}

impl<const K: usize, const D: usize> BitOr for Wide<K, D> {
    type Output = Self;
    #[inline]
    fn bitor(mut self, other: Self) -> Self {
        self |= other;
        self
    }
}

impl<const K: usize, const D: usize> BitXor for Wide<K, D> {
    type Output = Self;
    #[inline]
    fn bitxor(mut self, other: Self) -> Self {
        for (word, other) in self.0.iter_mut().zip(other.0) {
            *word ^= other;
        }
        self
    }
}

impl<const K: usize, const D: usize> BitAndAssign for Wide<K, D> {
    #[inline]
    fn bitand_assign(&mut self, other: Self) {
        for (word, other) in self.0.iter_mut().zip(other.0) {
            *word &= other;
        }
    }
}

impl<const K: usize, const D: usize> BitOrAssign for Wide<K, D> {
    #[inline]
    fn bitor_assign(&mut self, other: Self) {
        for (word, other) in self.0.iter_mut().zip(other.0) {
            *word |= other;
        }
    }
}

impl<const K: usize, const D: usize> Not for Wide<K, D> {
    type Output = Self;
    #[inline]
    fn not(mut self) -> Self {
        for word in &mut self.0 {
            *word = !*word;
        }
        self
    }
}

impl<const K: usize, const D: usize> Lines for Wide<K, D> {
    type Diagonals = [u64; D];
    const CAPACITY: u32 = 64 * K as u32;
    const COUNT_BITS: usize = (64 * K).ilog2() as usize + 1;

    #[inline]
    fn empty() -> Self {
        Wide([0; K])
    }
    fn first(n: u32) -> Self {
        let mut set = Self::empty();
        for (index, word) in set.0.iter_mut().enumerate() {
            let below = n.saturating_sub(64 * index as u32);
            *word = u64::first(below);
        }
        set
    }
    #[inline]
    fn no_diagonals() -> [u64; D] {
        [0; D]
    }
    #[inline]
    fn has(&self, i: u32) -> bool {
        self.0[i as usize / 64] >> (i % 64) & 1 == 1
    }
    #[inline]
    fn insert(&mut self, i: u32) {
        self.0[i as usize / 64] |= 1 << (i % 64);
    }
    #[inline]
    fn remove(&mut self, i: u32) {
        self.0[i as usize / 64] &= !(1 << (i % 64));
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&word| word == 0)
    }
    #[inline]
    fn count(&self) -> u32 {
        self.0.iter().map(|word| word.count_ones()).sum()
    }
    #[inline]
    fn pop_lowest(&mut self) -> Option<u32> {
        for (index, word) in self.0.iter_mut().enumerate() {
            if *word != 0 {
                let lowest = word.trailing_zeros();
                *word &= *word - 1;
                return Some(64 * index as u32 + lowest);
            }
        }
        None
    }
    #[inline]
    fn insert_diagonal(diagonals: &mut [u64; D], i: u32) {
        diagonals[i as usize / 64] |= 1 << (i % 64);
    }
    #[inline]
    fn remove_diagonal(diagonals: &mut [u64; D], i: u32) {
        diagonals[i as usize / 64] &= !(1 << (i % 64));
    }
    #[inline]
    fn window(diagonals: &[u64; D], from: u32) -> Self {
        let (skip, shift) = (from as usize / 64, from % 64);
        let word = |index: usize| diagonals.get(index).copied().unwrap_or(0);
        let mut set = Self::empty();
        for (index, out) in set.0.iter_mut().enumerate() {
            let low = word(skip + index);
            *out = if shift == 0 {
                low
            } else {
                low >> shift | word(skip + index + 1) << (64 - shift)
            };
        }
        set
    }
}

/// Up to 128 lines.
pub type Lines128 = Wide<2, 4>;
/// Up to 256 lines.
pub type Lines256 = Wide<4, 8>;
/// Up to 512 lines.
pub type Lines512 = Wide<8, 16>;
/// Up to 1024 lines.
pub type Lines1024 = Wide<16, 32>;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The wide sets agree with a set of numbers.
    fn model<L: Lines>(set: &L) -> Vec<u32> {
        let mut copy = *set;
        std::iter::from_fn(|| copy.pop_lowest()).collect()
    }

    proptest! {
        #[test]
        fn wide_sets_behave_as_sets(
            members in proptest::collection::btree_set(0u32..256, 0..40),
            others in proptest::collection::btree_set(0u32..256, 0..40),
            n in 0u32..=256,
        ) {
            let mut a = Lines256::empty();
            for &i in &members {
                a.insert(i);
            }
            let mut b = Lines256::empty();
            for &i in &others {
                b.insert(i);
            }
            prop_assert_eq!(model(&a), members.iter().copied().collect::<Vec<_>>());
            prop_assert_eq!(a.count() as usize, members.len());
            let both: Vec<u32> = members.intersection(&others).copied().collect();
            prop_assert_eq!(model(&(a & b)), both);
            let either: Vec<u32> = members.union(&others).copied().collect();
            prop_assert_eq!(model(&(a | b)), either);
            let below: Vec<u32> = (0..n).filter(|i| !members.contains(i)).collect();
            prop_assert_eq!(model(&(!a & Lines256::first(n))), below);
            for &i in &members {
                prop_assert!(a.has(i));
                a.remove(i);
            }
            prop_assert!(a.is_empty());
        }

        #[test]
        fn a_window_of_the_diagonals_is_a_shift(
            diagonals in proptest::collection::btree_set(0u32..511, 0..60),
            from in 0u32..511,
        ) {
            let mut wide = Lines256::no_diagonals();
            for &i in &diagonals {
                Lines256::insert_diagonal(&mut wide, i);
            }
            let window: Vec<u32> = diagonals
                .iter()
                .filter(|&&i| i >= from && i < from + 256)
                .map(|&i| i - from)
                .collect();
            prop_assert_eq!(model(&Lines256::window(&wide, from)), window);
        }
    }

    #[test]
    fn counts_of_lines_have_room_for_every_line() {
        for (bits, capacity) in [
            (u64::COUNT_BITS, u64::CAPACITY),
            (Lines128::COUNT_BITS, Lines128::CAPACITY),
            (Lines1024::COUNT_BITS, Lines1024::CAPACITY),
        ] {
            assert!(1 << bits > capacity, "{bits} bits count up to {capacity}");
            assert!(1 << (bits - 1) <= capacity, "no more bits than needed");
        }
    }

    #[test]
    fn the_machine_word_matches_the_wide_sets_below_64() {
        let mut narrow = 0u64;
        let mut wide = Lines128::empty();
        for i in [0, 5, 63] {
            narrow.insert(i);
            wide.insert(i);
        }
        assert_eq!(model(&narrow), model(&wide));
        let mut diagonals = 0u128;
        let mut wide_diagonals = Lines128::no_diagonals();
        for i in [3, 64, 100, 126] {
            u64::insert_diagonal(&mut diagonals, i);
            Lines128::insert_diagonal(&mut wide_diagonals, i);
        }
        for from in 0..127 {
            let window: Vec<u32> = model(&Lines128::window(&wide_diagonals, from))
                .into_iter()
                .filter(|&i| i < 64)
                .collect();
            assert_eq!(model(&u64::window(&diagonals, from)), window, "from {from}");
        }
    }
}
