//! Refusals as data: a request's settings (threads, time limit, caps, device, …) are refused
//! as a [`SettingError`] — which setting, and what is wrong with its value — and each front end
//! words it in its own terms from one table: `--threads` on the command line, `threads=` in
//! Python, `threads` for the page and the server's fields. Nothing below the front door names a
//! flag.
//!
//! ```
//! use queens_api::setting::{Refusal, Setting, SettingError, Words};
//!
//! let error = SettingError::new(Setting::Threads, Refusal::Range { least: 1, most: 1024, got: 0 });
//! assert_eq!(error.worded(Words::CommandLine), "--threads must be at least 1 and at most 1024, got 0");
//! assert_eq!(error.worded(Words::Python), "threads= must be at least 1 and at most 1024, got 0");
//! assert_eq!(error.to_string(), "threads must be at least 1 and at most 1024, got 0");
//! ```

use std::fmt;

use serde::Serialize;
use thiserror::Error;

/// Whose terms a refusal is said in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Words {
    /// Plain words, as a library user reads them (the errors' `Display`).
    Prose,
    /// The command line's flags.
    CommandLine,
    /// Python's keyword arguments.
    Python,
    /// The server's fields and query parameters, as the page sends them.
    Page,
}

/// A setting of a request, beside its board and solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Setting {
    /// Worker threads.
    Threads,
    /// Wall time.
    TimeLimit,
    /// The node cap.
    MaxNodes,
    /// The iteration cap.
    MaxIterations,
    /// The longest estimate a count starts without asking.
    MaxEstimate,
    /// The GPU adapter.
    Device,
    /// How often a checkpoint is saved.
    CheckpointEvery,
    /// Runs of an experiment.
    Runs,
}

/// Each setting's name in prose, on the command line, in Python and on the page: the one table
/// every refusal is worded from.
const NAMES: [(Setting, [&str; 4]); 8] = [
    (
        Setting::Threads,
        ["threads", "--threads", "threads=", "threads"],
    ),
    (
        Setting::TimeLimit,
        [
            "the time limit",
            "--time-limit",
            "time_limit=",
            "time_limit",
        ],
    ),
    (
        Setting::MaxNodes,
        ["the node cap", "--max-nodes", "max_nodes=", "max_nodes"],
    ),
    (
        Setting::MaxIterations,
        [
            "the iteration cap",
            "--max-iters",
            "max_iters=",
            "max_iters",
        ],
    ),
    (
        Setting::MaxEstimate,
        [
            "the longest estimate to start",
            "--max-estimate",
            "max_estimate=",
            "max_estimate",
        ],
    ),
    (
        Setting::Device,
        ["a device", "--device", "device=", "device"],
    ),
    (
        Setting::CheckpointEvery,
        [
            "the checkpoint interval",
            "--checkpoint-every",
            "checkpoint_every=",
            "checkpoint_every",
        ],
    ),
    (Setting::Runs, ["runs", "--runs", "runs=", "runs"]),
];

impl Setting {
    /// The setting as `words` name it.
    pub fn named(self, words: Words) -> &'static str {
        let column = match words {
            Words::Prose => 0,
            Words::CommandLine => 1,
            Words::Python => 2,
            Words::Page => 3,
        };
        NAMES
            .iter()
            .find(|(setting, _)| *setting == self)
            .map_or("a setting", |(_, names)| names[column])
    }
}

/// What is wrong with a setting's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// A whole number out of its range.
    Range {
        /// The least value taken.
        least: u64,
        /// The most value taken.
        most: u64,
        /// The value given.
        got: u64,
    },
    /// A whole number below its least value (no most).
    AtLeast {
        /// The least value taken.
        least: u64,
        /// The value given.
        got: u64,
    },
    /// Seconds that are not a positive number.
    NotPositiveSeconds {
        /// The value given.
        got: f64,
    },
    /// Seconds beyond the most a duration holds here.
    TooManySeconds {
        /// The value given.
        got: f64,
        /// The most taken.
        most: f64,
    },
    /// Given where it has no use: the sentence says for what it is.
    OnlyWith(String),
}

/// A setting refused: which one, and why. Its `Display` is in prose; a front end says it with
/// [`SettingError::worded`].
#[derive(Clone, Debug, PartialEq, Error)]
pub struct SettingError {
    /// The setting.
    pub setting: Setting,
    /// What is wrong with it.
    pub refusal: Refusal,
}

impl SettingError {
    /// `setting` refused for `refusal`.
    pub fn new(setting: Setting, refusal: Refusal) -> Self {
        SettingError { setting, refusal }
    }

    /// The refusal in one sentence, the setting named in `words`.
    pub fn worded(&self, words: Words) -> String {
        let name = self.setting.named(words);
        match &self.refusal {
            Refusal::Range { least, most, got } => {
                format!("{name} must be at least {least} and at most {most}, got {got}")
            }
            Refusal::AtLeast { least, got } => {
                format!("{name} must be at least {least}, got {got}")
            }
            Refusal::NotPositiveSeconds { got } => {
                format!("{name} must be a positive number of seconds, got {got}")
            }
            // A number past a float's range (a thousand digits) reads as infinity, which the
            // sentence does not repeat.
            Refusal::TooManySeconds { got, most } if !got.is_finite() => format!(
                "{name} is too large: at most {most:.0} seconds (about {} years)",
                (most / (365.25 * 86_400.0)).round()
            ),
            Refusal::TooManySeconds { got, most } => format!(
                "{name} of {got} seconds is too large: at most {most:.0} (about {} years)",
                (most / (365.25 * 86_400.0)).round()
            ),
            Refusal::OnlyWith(what) => format!("{name} is {what}"),
        }
    }
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.worded(Words::Prose))
    }
}

/// An error some of whose refusals name a setting, said in a front end's terms.
pub trait Worded: std::error::Error {
    /// The error in one sentence, any setting it names in `words`.
    fn worded(&self, words: Words) -> String;
}

impl Worded for SettingError {
    fn worded(&self, words: Words) -> String {
        SettingError::worded(self, words)
    }
}

/// `error` in a front end's terms where it is one of the front door's errors (a setting,
/// a solve, a count, completions or an analysis refused), `None` for any other: the one place
/// a front end that holds an error of unknown type (the command line's `anyhow` chain) words it.
pub fn worded(error: &(dyn std::error::Error + 'static), words: Words) -> Option<String> {
    macro_rules! as_any_of {
        ($($kind:ty),+) => {$(
            if let Some(error) = error.downcast_ref::<$kind>() {
                return Some(Worded::worded(error, words));
            }
        )+};
    }
    as_any_of!(SettingError, crate::error::RequestError);
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_has_a_name_in_every_front_end() {
        for (setting, names) in NAMES {
            for (column, words) in [Words::Prose, Words::CommandLine, Words::Python, Words::Page]
                .into_iter()
                .enumerate()
            {
                assert_eq!(setting.named(words), names[column]);
            }
            assert!(names[1].starts_with("--"), "{names:?}");
            assert!(names[2].ends_with('='), "{names:?}");
        }
        let named: std::collections::HashSet<_> =
            NAMES.iter().map(|(setting, _)| *setting).collect();
        assert_eq!(named.len(), NAMES.len(), "each setting once");
    }

    #[test]
    fn an_error_of_the_front_door_is_found_by_its_type() {
        let error = crate::error::RequestError::from(SettingError::new(
            Setting::MaxNodes,
            Refusal::AtLeast { least: 1, got: 0 },
        ));
        assert_eq!(
            worded(&error, Words::CommandLine).as_deref(),
            Some("--max-nodes must be at least 1, got 0")
        );
        let other = std::io::Error::other("disk on fire");
        assert_eq!(worded(&other, Words::CommandLine), None);
    }

    #[test]
    fn refusals_are_worded_alike_in_every_front_end() {
        let error = SettingError::new(
            Setting::TimeLimit,
            Refusal::NotPositiveSeconds { got: -1.0 },
        );
        assert_eq!(
            error.worded(Words::CommandLine),
            "--time-limit must be a positive number of seconds, got -1"
        );
        assert_eq!(
            error.worded(Words::Python),
            "time_limit= must be a positive number of seconds, got -1"
        );
        assert_eq!(
            error.to_string(),
            "the time limit must be a positive number of seconds, got -1"
        );
    }
}
