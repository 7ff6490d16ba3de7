//! What every request may bound, checked once: its wall time, its search nodes and its worker
//! threads. A solve, a count, a count of completions and an analysis each carry [`Bounds`];
//! their request checks them with the same sentences and hands out the run's [`Budget`], its
//! clock running, so that no front end builds a budget of its own.
//!
//! ```
//! use queens_api::bounds::Bounds;
//! use queens_core::CancelToken;
//!
//! let bounds = Bounds::default().with_time_limit(2.5).check()?;
//! let budget = bounds.budget(CancelToken::new());
//! assert_eq!(budget.time_limit(), Some(std::time::Duration::from_millis(2500)));
//! assert!(Bounds::default().with_threads(0).check().is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::{Duration, Instant};

use queens_core::{Budget, CancelToken};
use queens_exact::count::MAX_THREADS;

use crate::request::parse_seconds;
use crate::setting::{Refusal, Setting, SettingError};

/// A request's bounds as asked for, before they are checked; `None` leaves each to the
/// request's default.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bounds {
    /// Wall time in seconds, from the run's start (default: none).
    pub time_limit: Option<f64>,
    /// The most search nodes (default: the request's own).
    pub max_nodes: Option<u64>,
    /// Worker threads (default: one per core).
    pub threads: Option<usize>,
}

/// Bounds that passed every check.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CheckedBounds {
    time_limit: Option<Duration>,
    max_nodes: Option<u64>,
    threads: Option<usize>,
}

impl Bounds {
    /// These bounds with `seconds` of wall time.
    #[must_use]
    pub fn with_time_limit(self, seconds: f64) -> Self {
        Bounds {
            time_limit: Some(seconds),
            ..self
        }
    }

    /// These bounds with a cap of `nodes` search nodes.
    #[must_use]
    pub fn with_max_nodes(self, nodes: u64) -> Self {
        Bounds {
            max_nodes: Some(nodes),
            ..self
        }
    }

    /// These bounds on `threads` worker threads.
    #[must_use]
    pub fn with_threads(self, threads: usize) -> Self {
        Bounds {
            threads: Some(threads),
            ..self
        }
    }

    /// Checks each bound: the time limit a positive number of seconds (at most
    /// [`MAX_SECONDS`](crate::request::MAX_SECONDS)), the node cap at least 1, the threads
    /// from 1 to [`MAX_THREADS`].
    pub fn check(&self) -> Result<CheckedBounds, SettingError> {
        let time_limit = self
            .time_limit
            .map(|seconds| parse_seconds(seconds, Setting::TimeLimit))
            .transpose()?;
        if self.max_nodes == Some(0) {
            return Err(SettingError::new(
                Setting::MaxNodes,
                Refusal::AtLeast { least: 1, got: 0 },
            ));
        }
        if let Some(threads) = self
            .threads
            .filter(|threads| !(1..=MAX_THREADS).contains(threads))
        {
            return Err(SettingError::new(
                Setting::Threads,
                Refusal::Range {
                    least: 1,
                    most: MAX_THREADS as u64,
                    got: threads as u64,
                },
            ));
        }
        Ok(CheckedBounds {
            time_limit,
            max_nodes: self.max_nodes,
            threads: self.threads,
        })
    }
}

impl CheckedBounds {
    /// The node cap asked for, if any.
    pub fn max_nodes(&self) -> Option<u64> {
        self.max_nodes
    }

    /// The threads asked for, if any.
    pub fn threads(&self) -> Option<usize> {
        self.threads
    }

    /// The threads to run on: those asked for, else one per core.
    pub fn threads_or_cores(&self) -> usize {
        self.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        })
    }

    /// The same bounds with `nodes` as the node cap where none was asked for.
    #[must_use]
    pub fn with_default_nodes(mut self, nodes: Option<u64>) -> Self {
        self.max_nodes = self.max_nodes.or(nodes);
        self
    }

    /// Refuses `setting` where it was given: the request has no use for it, as `what` says
    /// ("for counts, not solves").
    pub(crate) fn without(self, setting: Setting, what: &str) -> Result<Self, SettingError> {
        let given = match setting {
            Setting::TimeLimit => self.time_limit.is_some(),
            Setting::MaxNodes => self.max_nodes.is_some(),
            Setting::Threads => self.threads.is_some(),
            _ => false,
        };
        if given {
            return Err(SettingError::new(
                setting,
                Refusal::OnlyWith(what.to_owned()),
            ));
        }
        Ok(self)
    }

    /// The run's budget, its clock started now: the time limit and node cap, stopped too when
    /// `cancel` is raised (Ctrl-C, a closed connection, Python's interrupt).
    pub fn budget(&self, cancel: CancelToken) -> Budget {
        self.budget_since(cancel, Instant::now())
    }

    /// The run's budget, its clock started at `since`: a command whose limit counts from its
    /// own start (reading its input included) gets what is left of it. A limit already spent
    /// stops the run at its first check.
    pub fn budget_since(&self, cancel: CancelToken, since: Instant) -> Budget {
        let mut budget = Budget::unlimited().with_cancel(cancel);
        if let Some(limit) = self.time_limit {
            budget = budget.with_time_limit(limit);
        }
        if let Some(nodes) = self.max_nodes {
            budget = budget.with_max_nodes(nodes);
        }
        budget.start_from(since);
        budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bound_is_refused_with_its_setting() {
        let refused = |bounds: Bounds| bounds.check().unwrap_err().setting;
        for seconds in [0.0, -1.0, f64::NAN, 1e12] {
            let bounds = Bounds {
                time_limit: Some(seconds),
                ..Bounds::default()
            };
            assert_eq!(refused(bounds), Setting::TimeLimit, "{seconds}");
        }
        let nodes = Bounds {
            max_nodes: Some(0),
            ..Bounds::default()
        };
        assert_eq!(refused(nodes), Setting::MaxNodes);
        for threads in [0, MAX_THREADS + 1] {
            let bounds = Bounds {
                threads: Some(threads),
                ..Bounds::default()
            };
            assert_eq!(refused(bounds), Setting::Threads, "{threads}");
        }
    }

    #[test]
    fn a_spent_limit_stops_the_budget_at_once_and_a_fresh_one_does_not() {
        let bounds = Bounds {
            time_limit: Some(0.05),
            max_nodes: Some(7),
            ..Bounds::default()
        }
        .check()
        .unwrap();
        let fresh = bounds.budget(CancelToken::new());
        assert!(!fresh.is_stopped());
        assert_eq!(fresh.max_nodes(), Some(7));
        let long_ago = Instant::now().checked_sub(Duration::from_secs(1)).unwrap();
        let spent = bounds.budget_since(CancelToken::new(), long_ago);
        assert!(spent.is_stopped());
    }

    #[test]
    fn a_bound_a_request_has_no_use_for_is_refused_only_when_given() {
        let none = Bounds::default().check().unwrap();
        assert!(none.without(Setting::Threads, "for counts").is_ok());
        let threads = Bounds {
            threads: Some(2),
            ..Bounds::default()
        }
        .check()
        .unwrap();
        let error = threads.without(Setting::Threads, "for counts").unwrap_err();
        assert_eq!(error.to_string(), "threads is for counts");
    }
}
