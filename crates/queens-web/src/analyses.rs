//! The last few analyses the server made, by position: the page asks again for the reasons of a
//! square it shows, and gets them from here instead of a second analysis.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use queens_api::configure::{Analysis, Engine};
use queens_core::Square;

/// Analyses kept at most.
const KEPT: usize = 16;

/// The bytes the kept analyses may hold together (by [`Analysis::approximate_bytes`]): a
/// 200×200 analysis holds about 2 MB, one whose dead squares name a blocked rank each tens of
/// MB, so the cache holds a few of those or all sixteen small ones, never gigabytes.
const KEPT_BYTES: usize = 128 << 20;

/// A position as analysed: its side, queens and blocked squares (each sorted) and engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    n: u32,
    queens: Vec<Square>,
    blocked: Vec<Square>,
    engine: Engine,
}

impl Key {
    /// The bytes its lists hold.
    fn bytes(&self) -> usize {
        std::mem::size_of_val(self.queens.as_slice())
            + std::mem::size_of_val(self.blocked.as_slice())
    }

    pub(crate) fn new(n: u32, queens: &[Square], blocked: &[Square], engine: Engine) -> Self {
        let sorted = |squares: &[Square]| {
            let mut squares = squares.to_vec();
            squares.sort_unstable_by_key(|square| (square.row, square.col));
            squares
        };
        Key {
            n,
            queens: sorted(queens),
            blocked: sorted(blocked),
            engine,
        }
    }
}

/// The most recent analyses, newest first, each with its weight in bytes.
#[derive(Debug, Default)]
pub(crate) struct Analyses {
    kept: Mutex<VecDeque<(Key, Arc<Analysis>, usize)>>,
}

impl Analyses {
    /// The analysis of `key`, if it is kept (it becomes the newest).
    pub(crate) fn get(&self, key: &Key) -> Option<Arc<Analysis>> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let at = kept.iter().position(|(kept_key, _, _)| kept_key == key)?;
        let entry = kept.remove(at)?;
        let analysis = Arc::clone(&entry.1);
        kept.push_front(entry);
        Some(analysis)
    }

    /// Keeps `analysis` of `key` as the newest, forgetting the oldest beyond [`KEPT`] or
    /// [`KEPT_BYTES`]; one heavier than half of that is not kept at all.
    pub(crate) fn keep(&self, key: Key, analysis: Arc<Analysis>) {
        let bytes = analysis.approximate_bytes() + key.bytes();
        if bytes > KEPT_BYTES / 2 {
            return;
        }
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.retain(|(kept_key, _, _)| *kept_key != key);
        kept.push_front((key, analysis, bytes));
        kept.truncate(KEPT);
        while kept.iter().map(|(_, _, bytes)| bytes).sum::<usize>() > KEPT_BYTES {
            kept.pop_back();
        }
    }

    /// The bytes the kept analyses hold, about.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.iter().map(|(_, _, bytes)| bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use queens_api::configure::{Configurator, Position};
    use queens_core::Budget;

    use super::*;

    /// Twenty analyses of 400×400 boards with a blocked rank (unsolvable positions, every
    /// square dead) weigh hundreds of megabytes together; the cache keeps what fits its bytes.
    /// The reason and sentence every dead square gives are held once, not once a square.
    #[test]
    fn heavy_analyses_are_kept_within_the_byte_limit() {
        let configurator = Configurator::new();
        let n = 400;
        let mut weights = Vec::new();
        let cache = Analyses::default();
        for rank in 0..20 {
            let blocked: Vec<Square> = (0..n).map(|col| Square::new(rank, col)).collect();
            let position = Position::with_blocked(n, Vec::new(), blocked.clone()).unwrap();
            let analysis = configurator
                .analyse(&position, Engine::Auto, &Budget::unlimited())
                .unwrap();
            let cells = (n * n) as usize;
            let shared = cells * (std::mem::size_of::<queens_api::configure::Cell>() + 8);
            assert!(
                analysis.approximate_bytes() < shared + (1 << 20),
                "{} bytes for {cells} cells",
                analysis.approximate_bytes()
            );
            weights.push(analysis.approximate_bytes());
            cache.keep(Key::new(n, &[], &blocked, Engine::Auto), Arc::new(analysis));
            assert!(cache.bytes() <= KEPT_BYTES, "{} bytes", cache.bytes());
        }
        let all: usize = weights.iter().sum();
        assert!(
            all > KEPT_BYTES,
            "the test's analyses weigh {all} bytes together"
        );
        assert!(cache.bytes() > KEPT_BYTES / 2, "the newest are kept");
    }
}
