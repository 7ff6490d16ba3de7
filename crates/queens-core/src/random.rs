//! The generator every seeded draw of the workbench comes from: the solvers' moves, an
//! experiment's runs, a plan's node estimate and the configurator's search order.
//!
//! A seed names one run on every machine and in every release: [`SeededRng`] is Xoshiro256++
//! seeded through `SplitMix64`, from `rand_xoshiro`, whose values are fixed across platforms and
//! versions. `rand`'s `SmallRng` promises neither (it is Xoshiro128++ on 32-bit targets, and a
//! later `rand` may replace it), though on 64-bit machines today it draws the same values, so
//! the seeds of earlier runs still name the same runs there.
//!
//! ```
//! use queens_core::random::SeededRng;
//! use rand::{RngExt, SeedableRng};
//!
//! let draw = |seed| SeededRng::seed_from_u64(seed).random_range(0..1_000_000u32);
//! assert_eq!(draw(7), draw(7));
//! ```

/// The workbench's seeded generator: small, fast, and the same values everywhere.
pub type SeededRng = rand_xoshiro::Xoshiro256PlusPlus;

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::SeededRng;

    /// The first values for two seeds, from the algorithms as their authors publish them
    /// (`SplitMix64` filling the state, then xoshiro256++), written out apart from this crate: a
    /// generator swapped for another, or seeded otherwise, fails here.
    #[test]
    fn a_seed_draws_the_published_algorithms_values() {
        let first = |seed| {
            let mut rng = SeededRng::seed_from_u64(seed);
            [rng.next_u64(), rng.next_u64(), rng.next_u64()]
        };
        assert_eq!(
            first(0),
            [
                0x5317_5d61_490b_23df,
                0x61da_6f3d_c380_d507,
                0x5c0f_df91_ec9a_7bfc
            ]
        );
        assert_eq!(
            first(7),
            [
                0x0e2c_1a00_2aae_913d,
                0x2c0f_c8dd_fa4e_9e14,
                0xb7b3_11b3_b0d4_5872
            ]
        );
    }
}
