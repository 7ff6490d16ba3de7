//! The option values the GPU benchmarks share: lists (`64,128`) and board sizes (`16..22` or a
//! list). A benchmark panics with the text it cannot read: these are tools for developers.

/// The comma-separated `text`, each part read by `parse`.
pub fn list<T>(text: &str, parse: impl Fn(&str) -> Option<T>) -> Vec<T> {
    text.split(',')
        .map(|part| parse(part.trim()).unwrap_or_else(|| panic!("cannot read {part:?}")))
        .collect()
}

/// Board sizes: a range `A..B` (both included) or a list.
pub fn sizes(text: &str) -> Vec<u32> {
    match text.split_once("..") {
        Some((low, high)) => {
            (low.parse().expect("--n A..B")..=high.parse().expect("--n A..B")).collect()
        }
        None => list(text, |n| n.parse().ok()),
    }
}
