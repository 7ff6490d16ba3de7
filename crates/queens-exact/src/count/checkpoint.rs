//! Checkpoints: the finished subproblems of a long count, saved atomically so that a killed run
//! resumes where it stopped, with nothing lost and nothing counted twice.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{CountPlan, KERNEL_VERSION, Shard, Tally};

/// The finished subproblems of one count (or shard of a count).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    kernel_version: u32,
    n: u32,
    fingerprint: String,
    shard: Shard,
    done: Vec<Finished>,
}

/// One finished subproblem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Finished {
    id: usize,
    total: u128,
    unique: u128,
    nodes: u64,
}

/// A checkpoint that cannot be used.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// Reading or writing failed.
    #[error("checkpoint {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What failed.
        source: io::Error,
    },
    /// Not a checkpoint file.
    #[error("checkpoint {path} is not a checkpoint file: {reason}")]
    Corrupt {
        /// The file.
        path: String,
        /// The parser's message.
        reason: String,
    },
    /// A checkpoint of another count.
    #[error("checkpoint {path} belongs to another count ({found}), not this one ({expected})")]
    Foreign {
        /// The file.
        path: String,
        /// What the file describes.
        found: String,
        /// What this run is.
        expected: String,
    },
}

/// Finished subproblems by index.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    done: BTreeMap<usize, Tally>,
}

impl Progress {
    /// Records a finished subproblem.
    pub fn record(&mut self, id: usize, tally: Tally) {
        self.done.insert(id, tally);
    }

    /// Whether subproblem `id` is finished.
    pub fn is_done(&self, id: usize) -> bool {
        self.done.contains_key(&id)
    }

    /// How many subproblems are finished.
    pub fn len(&self) -> usize {
        self.done.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.done.is_empty()
    }

    /// The sum over the finished subproblems.
    pub fn sum(&self) -> Tally {
        let mut sum = Tally::default();
        for &tally in self.done.values() {
            sum += tally;
        }
        sum
    }
}

fn describe(n: u32, shard: Shard, fingerprint: &str, version: u32) -> String {
    format!("N = {n}, shard {shard}, split {fingerprint}, kernel {version}")
}

/// Loads the progress saved at `path` for `plan` and `shard`: empty if the file does not exist,
/// an error if it is unreadable or belongs to another count.
pub fn load(path: &Path, plan: &CountPlan, shard: Shard) -> Result<Progress, CheckpointError> {
    let name = path.display().to_string();
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Progress::default()),
        Err(source) => return Err(CheckpointError::Io { path: name, source }),
    };
    let saved: Checkpoint = serde_json::from_str(&text).map_err(|e| CheckpointError::Corrupt {
        path: name.clone(),
        reason: e.to_string(),
    })?;
    let fingerprint = format!("{:016x}", plan.fingerprint());
    if (
        saved.n,
        saved.shard,
        &saved.fingerprint,
        saved.kernel_version,
    ) != (plan.n(), shard, &fingerprint, KERNEL_VERSION)
    {
        return Err(CheckpointError::Foreign {
            path: name,
            found: describe(
                saved.n,
                saved.shard,
                &saved.fingerprint,
                saved.kernel_version,
            ),
            expected: describe(plan.n(), shard, &fingerprint, KERNEL_VERSION),
        });
    }
    let mut progress = Progress::default();
    for entry in saved.done {
        if entry.id >= plan.subproblems().len() || !shard.owns(entry.id) {
            return Err(CheckpointError::Corrupt {
                path: name,
                reason: format!("subproblem {} is not part of shard {shard}", entry.id),
            });
        }
        progress.record(
            entry.id,
            Tally {
                total: entry.total,
                unique: entry.unique,
                nodes: entry.nodes,
            },
        );
    }
    Ok(progress)
}

/// Saves `progress` to `path` atomically: written to a temporary file beside it, flushed to
/// disk, then renamed over it, so a crash leaves either the old or the new checkpoint.
pub fn save(
    path: &Path,
    plan: &CountPlan,
    shard: Shard,
    progress: &Progress,
) -> Result<(), CheckpointError> {
    let io_error = |source| CheckpointError::Io {
        path: path.display().to_string(),
        source,
    };
    let checkpoint = Checkpoint {
        kernel_version: KERNEL_VERSION,
        n: plan.n(),
        fingerprint: format!("{:016x}", plan.fingerprint()),
        shard,
        done: progress
            .done
            .iter()
            .map(|(&id, tally)| Finished {
                id,
                total: tally.total,
                unique: tally.unique,
                nodes: tally.nodes,
            })
            .collect(),
    };
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = Path::new(&temporary);
    let mut file = fs::File::create(temporary).map_err(io_error)?;
    serde_json::to_writer(&mut file, &checkpoint).map_err(|e| io_error(e.into()))?;
    file.write_all(b"\n").map_err(io_error)?;
    file.sync_all().map_err(io_error)?;
    fs::rename(temporary, path).map_err(io_error)
}
