//! A counting sort on high bits: numbers put in order of their region of a large array, so that
//! reading or marking that array afterwards walks memory nearly in order instead of missing the
//! cache at random. The validators and the large-board search both mark a bit per line for
//! hundreds of millions of lines; sorted first, their marks land several to a cache line.
//!
//! ```
//! use queens_core::buckets::counting_sort;
//!
//! let numbers = [7u32, 2, 5, 0, 6];
//! let mut sorted = [0u32; 5];
//! let mut starts = [0usize; 5]; // four buckets of two numbers, plus one
//! counting_sort(numbers.iter().copied(), &mut sorted, &mut starts, |n| (n / 2) as usize, |n| n);
//! assert_eq!(sorted, [0, 2, 5, 7, 6]);
//! assert_eq!(starts[..4], [1, 2, 3, 5]); // where each bucket ends
//! ```

/// Sorts `items` into the front of `to` by `bucket`, stably (items of one bucket keep their
/// order), keeping `keep(item)` of each. `starts` holds one entry more than there are buckets;
/// afterwards bucket `b` ends at `starts[b]` and begins where bucket `b − 1` ends (at 0 for the
/// first). `items` is read twice. Returns how many items were sorted.
///
/// Panics if an item's bucket is not below `starts.len() − 1` or `to` is too short.
pub fn counting_sort<I: Copy, T>(
    items: impl Iterator<Item = I> + Clone,
    to: &mut [T],
    starts: &mut [usize],
    bucket: impl Fn(I) -> usize,
    keep: impl Fn(I) -> T,
) -> usize {
    starts.fill(0);
    let mut count = 0;
    for item in items.clone() {
        starts[bucket(item) + 1] += 1;
        count += 1;
    }
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    for item in items {
        let at = &mut starts[bucket(item)];
        to[*at] = keep(item);
        *at += 1;
    }
    count
}

/// The shift that leaves about `2^bucket_bits` buckets for numbers below `len`: a number's
/// bucket is `number >> shift`, and there are `(len >> shift) + 1` of them at most.
pub fn bucket_shift(len: u64, bucket_bits: u32) -> u32 {
    (u64::BITS - len.leading_zeros()).saturating_sub(bucket_bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn sorts_stably_by_bucket(numbers in proptest::collection::vec(0u32..5000, 0..300)) {
            let shift = bucket_shift(5000, 4);
            let buckets = (5000 >> shift) + 1;
            let mut to = vec![(0, 0); numbers.len()];
            let mut starts = vec![0; buckets as usize + 1];
            let items = numbers.iter().copied().enumerate();
            let count = counting_sort(items, &mut to, &mut starts, |(_, n)| (n >> shift) as usize, |i| i);
            prop_assert_eq!(count, numbers.len());
            let mut expected: Vec<(usize, u32)> = numbers.iter().copied().enumerate().collect();
            expected.sort_by_key(|&(index, n)| (n >> shift, index));
            prop_assert_eq!(&to, &expected);
            let mut from = 0;
            for (bucket, &end) in starts.iter().enumerate().take(buckets as usize) {
                prop_assert!(to[from..end].iter().all(|&(_, n)| (n >> shift) as usize == bucket));
                from = end;
            }
            prop_assert_eq!(from, numbers.len());
        }
    }

    #[test]
    fn the_shift_leaves_about_the_buckets_asked_for() {
        assert_eq!(bucket_shift(1000, 10), 0);
        assert_eq!(bucket_shift(1 << 20, 10), 11);
        assert_eq!(
            (((1u64 << 20) - 1) >> bucket_shift((1 << 20) - 1, 10)),
            1023
        );
        assert_eq!(bucket_shift(u64::MAX, 10), 54);
    }
}
