//! Figures as the JSON documents write them: rounded to what they mean, so that a document
//! reads `"elapsed_ms": 0.058`, not `0.058338999999999995`. Wall times are good to the
//! microsecond, rates and means to a millionth.
//!
//! ```
//! #[derive(serde::Serialize)]
//! struct Run {
//!     #[serde(serialize_with = "queens_core::figures::milliseconds")]
//!     elapsed_ms: f64,
//! }
//! let json = serde_json::to_string(&Run { elapsed_ms: 0.058338999999999995 }).unwrap();
//! assert_eq!(json, r#"{"elapsed_ms":0.058}"#);
//! ```

use serde::Serializer;

/// `value` rounded to `decimals` places (a value too large to have a fraction as it is).
pub fn rounded(value: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    let scaled = value * scale;
    if scaled.is_finite() && scaled.abs() < 1e15 {
        scaled.round() / scale
    } else {
        value
    }
}

/// Milliseconds of wall time, to the microsecond.
pub fn milliseconds<S: Serializer>(ms: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(rounded(*ms, 3))
}

/// A rate or a mean, to a millionth.
pub fn fraction<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(rounded(*value, 6))
}

/// A mean that may be missing, to a millionth.
pub fn optional_fraction<S: Serializer>(
    value: &Option<f64>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(value) => serializer.serialize_some(&rounded(*value, 6)),
        None => serializer.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_keep_what_they_mean_and_nothing_else() {
        let written =
            |value: f64, decimals: i32| serde_json::to_string(&rounded(value, decimals)).unwrap();
        assert_eq!(written(0.058_338_999_999_999_995, 3), "0.058");
        assert_eq!(written(1234.5678, 3), "1234.568");
        assert_eq!(written(2.0 / 3.0, 6), "0.666667");
        assert_eq!(written(0.1 + 0.2, 6), "0.3");
        assert_eq!(written(1e300, 3), "1e+300");
        assert!(rounded(f64::INFINITY, 3).is_infinite());
    }
}
