//! Checkpoints: the finished subproblems of a long count, saved atomically so that a killed run
//! resumes where it stopped, with nothing lost and nothing counted twice.
//!
//! A checkpoint carries a checksum of its entries ([`super::integrity`]); loading
//! refuses a damaged or edited file, a subproblem listed twice or outside the shard, and a tally
//! no count can give. Saving writes a temporary file of this process's own, syncs it, renames it
//! over the checkpoint and syncs the directory. While a count runs it holds [`Lock`], so that a
//! second count on the same file refuses instead of racing it.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{CountPlan, KERNEL_VERSION, Shard, Tally, integrity};

/// The finished subproblems of one count (or shard of a count).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    kernel_version: u32,
    n: u32,
    fingerprint: String,
    shard: Shard,
    done: Vec<Finished>,
    /// SHA-256 over the fingerprint and every entry.
    checksum: String,
}

/// One finished subproblem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Finished {
    id: usize,
    total: u128,
    fixed: u128,
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
    /// Another count holds the checkpoint's lock.
    #[error("checkpoint {path} is in use by another count (process {pid}); wait for it or stop it")]
    Busy {
        /// The file.
        path: String,
        /// The process holding it.
        pid: u32,
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

/// The text the checksum covers: every entry, in order.
fn entries_text(done: &[Finished]) -> String {
    use std::fmt::Write as _;
    let mut text = String::with_capacity(done.len() * 32);
    for entry in done {
        let _ = writeln!(
            text,
            "{} {} {} {}",
            entry.id, entry.total, entry.fixed, entry.nodes
        );
    }
    text
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
    parse(&text, &name, plan, shard)
}

/// The progress in a checkpoint's `text` (read from the file `name`) for `plan` and `shard`,
/// every entry checked.
pub fn parse(
    text: &str,
    name: &str,
    plan: &CountPlan,
    shard: Shard,
) -> Result<Progress, CheckpointError> {
    let name = name.to_owned();
    let saved: Checkpoint = serde_json::from_str(text).map_err(|e| CheckpointError::Corrupt {
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
    if saved.checksum != integrity::checksum(&fingerprint, &entries_text(&saved.done)) {
        return Err(CheckpointError::Corrupt {
            path: name,
            reason: "it is damaged or was edited: its checksum does not match its entries".into(),
        });
    }
    let corrupt = |reason: String| CheckpointError::Corrupt {
        path: name.clone(),
        reason,
    };
    let mut progress = Progress::default();
    let mut sum = Tally::default();
    for entry in saved.done {
        if entry.id >= plan.len() || !shard.owns(entry.id) {
            return Err(corrupt(format!(
                "subproblem {} is not part of shard {shard}",
                entry.id
            )));
        }
        if progress.is_done(entry.id) {
            return Err(corrupt(format!("subproblem {} is listed twice", entry.id)));
        }
        let tally = Tally {
            total: entry.total,
            fixed: entry.fixed,
            nodes: entry.nodes,
        };
        if !plan.plausible(entry.id, &tally) {
            return Err(corrupt(format!(
                "subproblem {} has {} solutions and {} fixed by symmetries, which it cannot have",
                entry.id, tally.total, tally.fixed
            )));
        }
        sum = integrity::add(sum, tally).ok_or_else(|| corrupt("its totals overflow".into()))?;
        progress.record(entry.id, tally);
    }
    Ok(progress)
}

/// Saves `progress` to `path` atomically: written to a temporary file of this process's own
/// beside it, synced, renamed over it, and the directory synced, so a crash leaves either the old
/// or the new checkpoint.
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
    let fingerprint = format!("{:016x}", plan.fingerprint());
    let done: Vec<Finished> = progress
        .done
        .iter()
        .map(|(&id, tally)| Finished {
            id,
            total: tally.total,
            fixed: tally.fixed,
            nodes: tally.nodes,
        })
        .collect();
    let checkpoint = Checkpoint {
        kernel_version: KERNEL_VERSION,
        n: plan.n(),
        checksum: integrity::checksum(&fingerprint, &entries_text(&done)),
        fingerprint,
        shard,
        done,
    };
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(format!(".{}.tmp", std::process::id()));
    let temporary = Path::new(&temporary);
    let mut file = fs::File::create(temporary).map_err(io_error)?;
    serde_json::to_writer(&mut file, &checkpoint).map_err(|e| io_error(e.into()))?;
    file.write_all(b"\n").map_err(io_error)?;
    file.sync_all().map_err(io_error)?;
    fs::rename(temporary, path).map_err(io_error)?;
    sync_directory(path).map_err(io_error)
}

/// Syncs the directory holding `path`, so that a rename into it survives a crash (Unix; a no-op
/// elsewhere).
fn sync_directory(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(())
    }
}

/// The lock of a checkpoint while a count uses it: `FILE.lock`, holding the process id, created
/// only if absent and removed when dropped. A lock left by a process that no longer runs is
/// taken over.
#[derive(Debug)]
pub struct Lock {
    path: std::path::PathBuf,
}

impl Lock {
    /// Takes the lock of the checkpoint at `checkpoint`.
    pub fn take(checkpoint: &Path) -> Result<Lock, CheckpointError> {
        let mut path = checkpoint.as_os_str().to_owned();
        path.push(".lock");
        let path = std::path::PathBuf::from(path);
        let io_error = |source| CheckpointError::Io {
            path: path.display().to_string(),
            source,
        };
        for _ in 0..2 {
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut file) => {
                    write!(file, "{}", std::process::id()).map_err(io_error)?;
                    return Ok(Lock { path });
                }
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                    let holder = fs::read_to_string(&path)
                        .ok()
                        .and_then(|text| text.trim().parse::<u32>().ok());
                    match holder {
                        Some(pid) if process_runs(pid) => {
                            return Err(CheckpointError::Busy {
                                path: checkpoint.display().to_string(),
                                pid,
                            });
                        }
                        // Stale: its process is gone.
                        _ => fs::remove_file(&path).map_err(io_error)?,
                    }
                }
                Err(error) => return Err(io_error(error)),
            }
        }
        Err(io_error(io::Error::other("the lock keeps reappearing")))
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// Whether process `pid` runs (Linux: `/proc/PID` exists; elsewhere assumed).
fn process_runs(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new(&format!("/proc/{pid}")).exists()
    } else {
        true
    }
}
