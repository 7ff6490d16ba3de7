//! Checkpoints: the finished subproblems of a long count, saved atomically so that a killed run
//! resumes where it stopped, with nothing lost and nothing counted twice.
//!
//! A checkpoint carries a checksum of its entries ([`super::integrity`]); loading
//! refuses a damaged or edited file, a subproblem listed twice or outside the shard, and a tally
//! no count can give. Saving writes a temporary file of this process's own, syncs it, renames it
//! over the checkpoint and syncs the directory. While a count runs it holds [`Lock`], so that a
//! second count on the same file refuses instead of racing it; the kernel releases the lock
//! when its process ends, so a killed count never leaves a lock behind.
//!
//! A checkpoint also says where its parts were counted ([`Progress::places`]): a task requeued
//! onto another machine resumes there, and a shard's report names every place that counted it,
//! so that a recount that disagrees points at each machine that may be at fault.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use queens_io::{files, identity};

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
    /// Where the parts were counted ([`Progress::places`]): not a number of the count, so
    /// outside the checksum; checkpoints without it read as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    counted_on: Vec<String>,
}

/// One finished subproblem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Finished {
    id: usize,
    total: u128,
    fixed: u128,
    nodes: u128,
}

/// A checkpoint that cannot be used.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// Writing it failed.
    #[error("cannot save checkpoint {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What failed.
        source: io::Error,
    },
    /// Its lock file cannot be made, locked or written.
    #[error("cannot lock checkpoint {path} with its lock file {lock}: {source}")]
    Lock {
        /// The checkpoint.
        path: String,
        /// Its lock file.
        lock: String,
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
    /// The checkpoint is not a file that can be read (a device, a FIFO, too large).
    #[error("checkpoint: {0}")]
    File(#[from] files::FileError),
    /// Another count holds the checkpoint's lock.
    #[error("checkpoint {path} is in use by another count (process {pid}); wait for it or stop it")]
    Busy {
        /// The file.
        path: String,
        /// The process holding it.
        pid: u32,
    },
    /// Larger than any checkpoint of this count can be: another count's (a larger board's, or
    /// one of more of the board's parts than this shard holds), or not a checkpoint.
    #[error(
        "checkpoint {path} is {size} bytes, more than any checkpoint of this count ({expected}) \
         can be ({max} bytes): it belongs to another count, or is not a checkpoint"
    )]
    TooLarge {
        /// The file.
        path: String,
        /// Its size.
        size: u64,
        /// The most a checkpoint of this count takes.
        max: u64,
        /// What this run is.
        expected: String,
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

/// The most places a checkpoint keeps ([`Progress::places`]): the latest, where a task was
/// moved more often than this.
pub const MAX_PLACES: usize = 16;

/// The most characters of one place that a checkpoint keeps.
pub const PLACE_KEPT: usize = 160;

/// Finished subproblems by index, and where they were counted.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    done: BTreeMap<usize, Tally>,
    places: Vec<String>,
}

impl Progress {
    /// Where the finished subproblems were counted, as far as the counts said (a host and its
    /// GPU or threads): each place once, in the order each last counted, so the last is where
    /// the latest parts were counted. At most [`MAX_PLACES`], the latest, each without control
    /// characters and at most [`PLACE_KEPT`] characters long.
    pub fn places(&self) -> &[String] {
        &self.places
    }

    /// Records that parts are being counted at `place`: it becomes the last of
    /// [`places`](Self::places).
    pub fn counted_at(&mut self, place: &str) {
        let place = kept(place);
        if place.is_empty() {
            return;
        }
        self.places.retain(|known| *known != place);
        self.places.push(place);
        let surplus = self.places.len().saturating_sub(MAX_PLACES);
        self.places.drain(..surplus);
    }

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

/// A place as a checkpoint keeps it: without control characters, at most [`PLACE_KEPT`]
/// characters, trimmed.
fn kept(place: &str) -> String {
    let shown: String = place
        .chars()
        .filter(|c| !c.is_control())
        .take(PLACE_KEPT)
        .collect();
    shown.trim().to_owned()
}

fn describe(n: u32, shard: Shard, fingerprint: &str, version: u32) -> String {
    format!("N = {n}, shard {shard}, split {fingerprint}, kernel {version}")
}

/// Loads the progress saved at `path` for `plan` and `shard`: empty if the file does not exist,
/// an error if it is not a regular file, is larger than a checkpoint of this plan can be, is
/// unreadable or belongs to another count.
pub fn load(path: &Path, plan: &CountPlan, shard: Shard) -> Result<Progress, CheckpointError> {
    let name = path.display().to_string();
    let text = match files::read_regular_text(path, max_bytes(plan)) {
        Ok(text) => text,
        Err(error)
            if error
                .io_error()
                .is_some_and(|e| e.kind() == io::ErrorKind::NotFound) =>
        {
            return Ok(Progress::default());
        }
        Err(files::FileError::TooLarge { size, max, .. }) => {
            return Err(CheckpointError::TooLarge {
                path: name,
                size,
                max,
                expected: describe(plan.n(), shard, &plan.fingerprint_text(), KERNEL_VERSION),
            });
        }
        Err(error) => return Err(CheckpointError::File(error)),
    };
    parse(&text, &name, plan, shard)
}

/// The largest checkpoint of `plan`: a header, one entry per subproblem, each at most a few
/// dozen digits, and its places (each character at most four bytes, or six escaped).
fn max_bytes(plan: &CountPlan) -> u64 {
    4096 + 160 * plan.len() as u64 + (MAX_PLACES * (PLACE_KEPT * 6 + 8)) as u64
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
    let saved: Checkpoint =
        queens_core::json::read_object(text.as_bytes(), "the file").map_err(|refusal| {
            CheckpointError::Corrupt {
                path: name.clone(),
                reason: refusal.to_string(),
            }
        })?;
    let fingerprint = plan.fingerprint_text();
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
    // Read as written; a list edited past what a count writes keeps its latest places.
    for place in &saved.counted_on {
        progress.counted_at(place);
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
    let fingerprint = plan.fingerprint_text();
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
        counted_on: progress.places.clone(),
    };
    let mut file = files::StagedFile::create(path)?;
    serde_json::to_writer(&mut file, &checkpoint).map_err(|e| io_error(e.into()))?;
    file.write_all(b"\n").map_err(io_error)?;
    Ok(file.commit()?)
}

/// The lock of a checkpoint while a count uses it: an exclusive lock of the kernel on
/// `FILE.lock` (which holds the process id, for the message of a count that finds it taken).
/// The kernel releases it when the process ends, however it ends, so a lock is never stale and
/// two counts can never both hold it. Taking it also removes the temporary files that killed
/// saves left beside the checkpoint (no other writer can exist while it is held).
#[derive(Debug)]
pub struct Lock {
    path: std::path::PathBuf,
    file: fs::File,
}

impl Lock {
    /// Takes the lock of the checkpoint at `checkpoint`.
    pub fn take(checkpoint: &Path) -> Result<Lock, CheckpointError> {
        let mut path = checkpoint.as_os_str().to_owned();
        path.push(".lock");
        let path = std::path::PathBuf::from(path);
        let io_error = |source| CheckpointError::Lock {
            path: checkpoint.display().to_string(),
            lock: path.display().to_string(),
            source,
        };
        // A lock file removed by its holder between our open and our lock is not the lock
        // any more: try again on the file now at the path.
        for _ in 0..16 {
            let file = fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(io_error)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(fs::TryLockError::WouldBlock) => {
                    let pid = fs::read_to_string(&path)
                        .ok()
                        .and_then(|text| text.trim().parse::<u32>().ok())
                        .unwrap_or(0);
                    return Err(CheckpointError::Busy {
                        path: checkpoint.display().to_string(),
                        pid,
                    });
                }
                Err(fs::TryLockError::Error(error)) => return Err(io_error(error)),
            }
            if !same_file(&file, &path) {
                continue;
            }
            // Held from here: a lock that cannot be written (a full disk) is dropped, which
            // removes its file, so the failed start leaves nothing behind.
            let mut lock = Lock {
                path: path.clone(),
                file,
            };
            lock.file.set_len(0).map_err(io_error)?;
            write!(lock.file, "{}", std::process::id()).map_err(io_error)?;
            files::remove_stale_temporaries(checkpoint, true);
            return Ok(lock);
        }
        Err(io_error(io::Error::other("the lock keeps disappearing")))
    }
}

/// Whether `file` is the file now at `path` (assumed where the system does not number files).
fn same_file(file: &fs::File, path: &Path) -> bool {
    match (file.metadata(), fs::metadata(path)) {
        (Ok(open), Ok(named)) => identity::inode(&open) == identity::inode(&named),
        _ => false,
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held, so that no one locks a file that is no longer the lock.
        let _ = fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}
