//! Integrity of the files a count writes and reads: checksums of shard reports and
//! checkpoints, the plausibility of the numbers in them, and the published counts they must
//! agree with.
//!
//! A checksum (SHA-256 over the split's fingerprint and the file's numbers) catches a damaged
//! or hand-edited file; it cannot stop someone who recomputes it. What catches that too: every
//! part's tally must be plausible for its kind (see [`super::CountPlan::plausible`]), a whole
//! count must be one (a class of solutions has 1, 2, 4 or 8 members, so Burnside's sum
//! `total + fixed` is a multiple of 8 and `unique ≤ total ≤ 8 · unique`), sums are checked for
//! overflow, and a complete count of N ≤ 27 must equal OEIS A000170 and A002562.

use sha2::{Digest, Sha256};

use super::Tally;

/// SHA-256, hexadecimal, of the split's `fingerprint` and `content`.
pub fn checksum(fingerprint: &str, content: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(fingerprint.as_bytes());
    hash.update(b"\n");
    hash.update(content.as_bytes());
    hash.finalize()
        .iter()
        .fold(String::with_capacity(64), |mut hex, byte| {
            use std::fmt::Write as _;
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

/// Whether `tally` could be a count of whole classes of solutions: each class adds 8 to
/// Burnside's sum `total + fixed`, with 1 to 8 solutions.
pub fn plausible(tally: &Tally) -> bool {
    let Some(burnside) = tally.total.checked_add(tally.fixed) else {
        return false;
    };
    let classes = burnside / 8;
    burnside % 8 == 0 && classes <= tally.total && tally.total <= classes.saturating_mul(8)
}

/// `a + b`, refused on overflow.
pub fn add(a: Tally, b: Tally) -> Option<Tally> {
    Some(Tally {
        total: a.total.checked_add(b.total)?,
        fixed: a.fixed.checked_add(b.fixed)?,
        nodes: a.nodes.checked_add(b.nodes)?,
    })
}

/// OEIS A000170 (all solutions) and A002562 (up to rotation and reflection), N = 1..=27.
const PUBLISHED: [(u128, u128); 27] = [
    (1, 1),
    (0, 0),
    (0, 0),
    (2, 1),
    (10, 2),
    (4, 1),
    (40, 6),
    (92, 12),
    (352, 46),
    (724, 92),
    (2680, 341),
    (14_200, 1787),
    (73_712, 9233),
    (365_596, 45_752),
    (2_279_184, 285_053),
    (14_772_512, 1_846_955),
    (95_815_104, 11_977_939),
    (666_090_624, 83_263_591),
    (4_968_057_848, 621_012_754),
    (39_029_188_884, 4_878_666_808),
    (314_666_222_712, 39_333_324_973),
    (2_691_008_701_644, 336_376_244_042),
    (24_233_937_684_440, 3_029_242_658_210),
    (227_514_171_973_736, 28_439_272_956_934),
    (2_207_893_435_808_352, 275_986_683_743_434),
    (22_317_699_616_364_044, 2_789_712_466_510_289),
    (234_907_967_154_122_528, 29_363_495_934_315_694),
];

/// The published (total, unique) for N, where known (N ≤ 27).
pub fn published(n: u32) -> Option<(u128, u128)> {
    PUBLISHED.get((n as usize).checked_sub(1)?).copied()
}

/// A complete count that is not the published one: "92 solutions and 12 unique for N = 8, but
/// OEIS gives …".
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{total} solutions and {unique} unique for N = {n}, but OEIS gives {published_total} and {published_unique}"
)]
pub struct Contradiction {
    /// Board side.
    pub n: u32,
    /// Counted.
    pub total: u128,
    /// Counted.
    pub unique: u128,
    /// A000170.
    pub published_total: u128,
    /// A002562.
    pub published_unique: u128,
}

/// The contradiction, when the count of N = `n` is published and `(total, unique)` is not it.
pub fn contradiction(n: u32, total: u128, unique: u128) -> Option<Contradiction> {
    let (published_total, published_unique) = published(n)?;
    ((total, unique) != (published_total, published_unique)).then_some(Contradiction {
        n,
        total,
        unique,
        published_total,
        published_unique,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksums_change_with_every_number() {
        let a = checksum("00ff", "n=8 total=92");
        assert_eq!(a.len(), 64);
        assert_ne!(a, checksum("00fe", "n=8 total=92"));
        assert_ne!(a, checksum("00ff", "n=8 total=93"));
        assert_eq!(a, checksum("00ff", "n=8 total=92"));
    }

    #[test]
    fn tallies_are_plausible_or_not() {
        let tally = |total, fixed| Tally {
            total,
            fixed,
            nodes: 0,
        };
        // N = 8: 92 solutions in 12 classes, one of them of 4.
        assert!(plausible(&tally(92, 4)));
        assert!(plausible(&tally(0, 0)));
        assert!(plausible(&tally(1, 7)));
        assert!(!plausible(&tally(92, 5)));
        assert!(!plausible(&tally(1, 15)));
        assert!(!plausible(&tally(u128::MAX, 8)));
        assert_eq!(add(tally(u128::MAX, 1), tally(1, 1)), None);
        assert_eq!(published(8), Some((92, 12)));
        assert_eq!(published(27).map(|p| p.0), Some(234_907_967_154_122_528));
        assert_eq!(published(28), None);
    }
}
