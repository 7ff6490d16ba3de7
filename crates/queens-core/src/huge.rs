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
}
