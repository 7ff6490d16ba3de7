//! Zeroed arrays for large boards and solver state, backed by huge pages where the system
//! grants them.
//!
//! Local search on millions of queens reads its arrays at random: with 4 KiB pages nearly every
//! read also misses the TLB. An anonymous map advised `MADV_HUGEPAGE` lets Linux back it with
//! 2 MiB pages (when transparent huge pages are set to `madvise` or `always`); elsewhere, or if
//! the advice is refused, it is an ordinary zeroed allocation.

use std::ops::{Deref, DerefMut};

use bytemuck::Pod;
use memmap2::MmapMut;

/// Below this size a plain vector is as good.
const HUGE_FROM_BYTES: usize = 4 << 20;

/// A fixed-length array of `T`, zeroed when made: a huge-page map from 4 MiB on (where the
/// system maps one), a vector below or otherwise. It reads and writes as a slice.
pub enum HugeArray<T: Pod> {
    /// An anonymous map, advised to use huge pages.
    Mapped(MmapMut, std::marker::PhantomData<T>),
    /// An ordinary vector.
    Plain(Vec<T>),
}

impl<T: Pod> HugeArray<T> {
    /// `len` zeroed elements.
    pub fn zeroed(len: usize) -> Self {
        let bytes = len * size_of::<T>();
        if bytes >= HUGE_FROM_BYTES
            && let Ok(map) = MmapMut::map_anon(bytes)
        {
            #[cfg(target_os = "linux")]
            let _ = map.advise(memmap2::Advice::HugePage);
            return HugeArray::Mapped(map, std::marker::PhantomData);
        }
        HugeArray::Plain(vec![T::zeroed(); len])
    }
}

impl<T: Pod> Deref for HugeArray<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            HugeArray::Mapped(map, _) => bytemuck::cast_slice(map),
            HugeArray::Plain(vec) => vec,
        }
    }
}

impl<T: Pod> DerefMut for HugeArray<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            HugeArray::Mapped(map, _) => bytemuck::cast_slice_mut(map),
            HugeArray::Plain(vec) => vec,
        }
    }
}

/// A fixed-length set of bits, backed by huge pages where the system grants them: the
/// validator's lines and a solver's diagonals for billions of queens, read at random.
pub struct HugeBits {
    words: HugeArray<u64>,
}

impl HugeBits {
    /// `len` clear bits.
    pub fn new(len: usize) -> Self {
        HugeBits {
            words: HugeArray::zeroed(len.div_ceil(64).max(1)),
        }
    }

    /// The bits, 64 to a word, bit `i` of word `w` standing for `64 w + i`: for loops that
    /// reach the words once rather than through each call.
    #[inline]
    pub fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }

    /// Whether `index` is in the set.
    #[inline]
    pub fn get(&self, index: usize) -> bool {
        self.words[index / 64] & (1 << (index % 64)) != 0
    }

    /// Adds `index`.
    #[inline]
    pub fn set(&mut self, index: usize) {
        self.words[index / 64] |= 1 << (index % 64);
    }

    /// Adds `index`; returns whether it was already there.
    #[inline]
    pub fn insert(&mut self, index: usize) -> bool {
        let (word, bit) = (&mut self.words[index / 64], 1u64 << (index % 64));
        let present = *word & bit != 0;
        *word |= bit;
        present
    }

    /// Removes `index`.
    #[inline]
    pub fn clear(&mut self, index: usize) {
        self.words[index / 64] &= !(1 << (index % 64));
    }

    /// Reads the word holding `index` ahead of need, so that it is in cache when needed; an
    /// index past the end reads nothing.
    #[inline]
    pub fn touch(&self, index: usize) -> u64 {
        self.words.get(index / 64).copied().unwrap_or(0)
    }

    /// The clear bits below `len`, in increasing order.
    pub fn clear_below(&self, len: usize) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(move |(w, &word)| {
            let mut clear = !word;
            std::iter::from_fn(move || {
                let index = w * 64 + clear.trailing_zeros() as usize;
                (clear != 0 && index < len).then(|| {
                    clear &= clear - 1;
                    index
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_and_small_arrays_read_and_write_as_slices() {
        for len in [10, (HUGE_FROM_BYTES / 4) + 3] {
            let mut array = HugeArray::<u32>::zeroed(len);
            assert_eq!(array.len(), len);
            assert!(array.iter().all(|&x| x == 0));
            array[len - 1] = 7;
            assert_eq!(array[len - 1], 7);
            assert_eq!(array.iter().map(|&x| u64::from(x)).sum::<u64>(), 7);
        }
    }

    #[test]
    fn clear_bits_are_listed_in_order() {
        let mut bits = HugeBits::new(130);
        for index in (0..130).filter(|i| i % 3 != 0) {
            bits.set(index);
        }
        bits.clear(64);
        let listed: Vec<usize> = bits.clear_below(130).collect();
        let expected: Vec<usize> = (0..130).filter(|i| i % 3 == 0 || *i == 64).collect();
        assert_eq!(listed, expected);
    }
}
