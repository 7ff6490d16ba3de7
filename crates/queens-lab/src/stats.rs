//! The few statistics the tables and plots report: median, mean and extremes of a sample, and
//! the 95 % (Wilson) interval of a success rate.

/// The median of `values` (the mean of the two middle ones for an even count); `None` for an
/// empty sample. Sorts `values`.
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[middle]
    } else {
        f64::midpoint(values[middle - 1], values[middle])
    })
}

/// The mean of `values`; `None` for an empty sample.
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The normal quantile of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_985;

/// The 95 % Wilson score interval of a success rate: `successes` out of `trials`, as fractions
/// in [0, 1]; `None` for no trials. Unlike the normal approximation it stays inside [0, 1] and
/// is not empty at 0 % or 100 %.
pub fn wilson(successes: u64, trials: u64) -> Option<(f64, f64)> {
    if trials == 0 {
        return None;
    }
    let n = trials as f64;
    let p = successes.min(trials) as f64 / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// Minimum, median, mean and maximum of counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// The smallest.
    pub min: u64,
    /// The median.
    pub median: f64,
    /// The mean.
    pub mean: f64,
    /// The largest.
    pub max: u64,
}

impl Spread {
    /// The spread of `counts`; `None` for an empty sample.
    pub fn of(counts: &[u64]) -> Option<Spread> {
        let mut values: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
        Some(Spread {
            min: *counts.iter().min()?,
            median: median(&mut values)?,
            mean: mean(&values)?,
            max: *counts.iter().max()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_published_values() {
        // Newcombe (1998), Statistics in Medicine 17, table I: 81/263 gives 0.2553–0.3662,
        // 15/148 gives 0.0624–0.1605, 0/20 gives 0–0.1611, 1/29 gives 0.0061–0.1718.
        for (successes, trials, low, high) in [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ] {
            let (lo, hi) = wilson(successes, trials).unwrap();
            assert!((lo - low).abs() < 5e-5, "{successes}/{trials}: low {lo}");
            assert!((hi - high).abs() < 5e-5, "{successes}/{trials}: high {hi}");
        }
        let (lo, hi) = wilson(20, 20).unwrap();
        assert!(hi > 1.0 - 1e-12 && (lo - 0.8389).abs() < 5e-5, "{lo}");
        assert_eq!(wilson(0, 0), None);
    }

    #[test]
    fn medians_of_odd_and_even_samples() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&mut []), None);
        let spread = Spread::of(&[35, 1221, 272, 273]).unwrap();
        assert_eq!((spread.min, spread.median, spread.max), (35, 272.5, 1221));
        assert!((spread.mean - 450.25).abs() < 1e-9);
    }
}
