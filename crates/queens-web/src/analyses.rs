//! The last few analyses the server made, by position: the page asks again for the reasons of a
//! square it shows, and gets them from here instead of a second analysis.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use queens_configurator::{Analysis, Engine};
use queens_core::Square;

/// Analyses kept (a 200×200 one holds about 2 MB).
const KEPT: usize = 16;

/// A position as analysed: its side, queens and blocked squares (each sorted) and engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    n: u32,
    queens: Vec<Square>,
    blocked: Vec<Square>,
    engine: Engine,
}

impl Key {
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

/// The most recent analyses, newest first.
#[derive(Debug, Default)]
pub(crate) struct Analyses {
    kept: Mutex<VecDeque<(Key, Arc<Analysis>)>>,
}

impl Analyses {
    /// The analysis of `key`, if it is kept (it becomes the newest).
    pub(crate) fn get(&self, key: &Key) -> Option<Arc<Analysis>> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let at = kept.iter().position(|(kept_key, _)| kept_key == key)?;
        let entry = kept.remove(at)?;
        let analysis = Arc::clone(&entry.1);
        kept.push_front(entry);
        Some(analysis)
    }

    /// Keeps `analysis` of `key` as the newest, forgetting the oldest beyond [`KEPT`].
    pub(crate) fn keep(&self, key: Key, analysis: Arc<Analysis>) {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.retain(|(kept_key, _)| *kept_key != key);
        kept.push_front((key, analysis));
        kept.truncate(KEPT);
    }
}
