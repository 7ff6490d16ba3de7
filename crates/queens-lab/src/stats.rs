//! The few statistics the tables report: median, mean and extremes of a sample.

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
    fn medians_of_odd_and_even_samples() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&mut []), None);
        let spread = Spread::of(&[35, 1221, 272, 273]).unwrap();
        assert_eq!((spread.min, spread.median, spread.max), (35, 272.5, 1221));
        assert!((spread.mean - 450.25).abs() < 1e-9);
    }
}
