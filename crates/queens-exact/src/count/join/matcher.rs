//! Counting, for one key, the stored keys it shares no bit with: the join's inner loop.
//!
//! The stored keys (the east halves' diagonals) are kept bit-sliced: in groups of 512, each
//! bit position becomes a 512-bit lane whose bit `p` says "key `p` of the group does *not*
//! use this diagonal". A west half's key is then disjoint from exactly the keys whose lanes
//! survive the AND of its bits' lanes, and a popcount counts 512 pairs at once. To spend fewer
//! ANDs, the key is cut into 4-bit chunks and every chunk value's AND is stored ready-made
//! (16 lanes per chunk): a key costs one AND per chunk per group, whatever its weight.
//!
//! The loop is compiled for AVX-512 (one lane is one register), AVX2 and the baseline, and
//! the best the processor has is chosen at run time.

use multiversion::multiversion;

/// Bits of a key looked up at once.
const CHUNK_BITS: u32 = 4;
/// Lanes stored per chunk: one per chunk value.
const ENTRIES: usize = 1 << CHUNK_BITS;
/// Keys per group: one bit of a lane each.
pub(crate) const GROUP: usize = 512;
const WORDS: usize = GROUP / 64;

/// 512 bits, one per key of a group, aligned to a cache line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
struct Lane([u64; WORDS]);

impl Lane {
    const ALL: Lane = Lane([u64::MAX; WORDS]);
    const NONE: Lane = Lane([0; WORDS]);

    #[inline]
    fn and(self, other: Lane) -> Lane {
        let mut out = self;
        for (word, other) in out.0.iter_mut().zip(other.0) {
            *word &= other;
        }
        out
    }
}

/// Stored keys, bit-sliced, ready to count the ones disjoint from a given key.
#[derive(Debug, Default)]
pub(crate) struct DisjointCounter {
    /// Chunks per key.
    chunks: usize,
    /// Group after group: `chunks` runs of [`ENTRIES`] lanes.
    lanes: Vec<[Lane; ENTRIES]>,
    /// Keys stored.
    len: usize,
}

impl DisjointCounter {
    /// An empty counter for keys of `bits` bits.
    pub fn new(bits: u32) -> Self {
        DisjointCounter {
            chunks: bits.div_ceil(CHUNK_BITS).max(1) as usize,
            lanes: Vec::new(),
            len: 0,
        }
    }

    /// Bytes the counter takes per stored key (rounded up to whole groups).
    pub fn bytes_per_key(bits: u32) -> u64 {
        let chunks = u64::from(bits.div_ceil(CHUNK_BITS).max(1));
        chunks * (ENTRIES * std::mem::size_of::<Lane>()) as u64 / GROUP as u64
    }

    /// Replaces the stored keys by `keys` (each below 2^bits), keeping the allocation.
    pub fn store(&mut self, keys: &[u64]) {
        self.lanes.clear();
        self.len = keys.len();
        for group in keys.chunks(GROUP) {
            self.store_group(group);
        }
    }

    fn store_group(&mut self, keys: &[u64]) {
        let bits = self.chunks * CHUNK_BITS as usize;
        // uses[b]: which keys of the group have bit b.
        let mut uses = vec![Lane::NONE; bits];
        let mut present = Lane::NONE;
        for (slot, &key) in keys.iter().enumerate() {
            let (word, bit) = (slot / 64, 1u64 << (slot % 64));
            present.0[word] |= bit;
            let mut rest = key;
            while rest != 0 {
                uses[rest.trailing_zeros() as usize].0[word] |= bit;
                rest &= rest - 1;
            }
        }
        for chunk in 0..self.chunks {
            // The first chunk starts from the keys present, so that empty slots never count.
            let mut entries = [if chunk == 0 { present } else { Lane::ALL }; ENTRIES];
            for value in 1..ENTRIES {
                let low = value.trailing_zeros() as usize;
                let free = Lane(uses[chunk * CHUNK_BITS as usize + low].0.map(|word| !word));
                entries[value] = entries[value & (value - 1)].and(free);
            }
            self.lanes.push(entries);
        }
    }

    /// Keys stored.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// How many stored keys share no bit with `key`.
    #[cfg(test)]
    pub fn count_disjoint(&self, key: u64) -> u64 {
        self.count_disjoint_all(std::slice::from_ref(&key))
    }

    /// The sum over `keys` of how many stored keys share no bit with each: one pass over the
    /// stored groups, each group's lanes staying in the cache while every key reads them.
    pub fn count_disjoint_all(&self, keys: &[u64]) -> u64 {
        if keys.is_empty() || self.len == 0 {
            return 0;
        }
        count_disjoint_all(&self.lanes, self.chunks, keys)
    }
}

/// The sum over `keys` of the disjoint stored keys, `chunks` runs of entries per group.
#[multiversion(targets(
    "x86_64+avx512f+avx512vpopcntdq+avx512bw+avx512vl+popcnt",
    "x86_64+avx2+popcnt",
    "x86_64+popcnt",
))]
fn count_disjoint_all(lanes: &[[Lane; ENTRIES]], chunks: usize, keys: &[u64]) -> u64 {
    let mut counts = [0u64; WORDS];
    let groups = lanes.len() / chunks;
    for index in 0..groups {
        let group = &lanes[index * chunks..(index + 1) * chunks];
        for &key in keys {
            let mut survivors = Lane::ALL;
            let mut rest = key;
            for entries in group {
                survivors = survivors.and(entries[(rest & (ENTRIES as u64 - 1)) as usize]);
                rest >>= CHUNK_BITS;
            }
            for (count, word) in counts.iter_mut().zip(survivors.0) {
                *count += u64::from(word.count_ones());
            }
        }
    }
    counts.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn plain(keys: &[u64], key: u64) -> u64 {
        keys.iter().filter(|&&k| k & key == 0).count() as u64
    }

    #[test]
    fn counts_the_disjoint_keys() {
        let keys = [0b1010, 0b0010, 0b0100, 0b0001, 0];
        let mut counter = DisjointCounter::new(4);
        counter.store(&keys);
        assert_eq!(counter.count_disjoint(0b0101), 3);
        assert_eq!(counter.count_disjoint(0), 5);
        assert_eq!(counter.count_disjoint(0b1111), 1);
    }

    proptest! {
        #[test]
        fn agrees_with_the_plain_count(
            bits in 1u32..40,
            raw in prop::collection::vec(any::<u64>(), 0..1300),
            probes in prop::collection::vec(any::<u64>(), 1..20),
        ) {
            let mask = (1u64 << bits) - 1;
            // Sparse keys, as the join's are, so that some pairs are disjoint.
            let keys: Vec<u64> = raw.iter().map(|k| k & k.rotate_left(17) & k.rotate_left(31) & mask).collect();
            let mut counter = DisjointCounter::new(bits);
            counter.store(&keys);
            prop_assert_eq!(counter.len(), keys.len());
            for probe in probes {
                let probe = probe & probe.rotate_left(7) & mask;
                prop_assert_eq!(counter.count_disjoint(probe), plain(&keys, probe));
            }
        }
    }
}
