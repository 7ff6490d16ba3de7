//! Files as the workbench reads and writes them, so that no input can hang or exhaust a run and
//! no output can lose work.
//!
//! - **Reading** ([`read_regular`]): only a regular file is read. It is opened without blocking
//!   (a FIFO cannot stall the open), its type and size are checked on the open handle before
//!   anything is allocated (a character device such as `/dev/zero` is refused, not read to
//!   its end), and at most the limit is ever read, even if the file grows meanwhile.
//! - **Writing** ([`StagedFile`], [`write_atomically`]): an output is written to a temporary
//!   file beside its target, synced, and renamed over the target only when complete, so a
//!   reader sees the old file or the whole new one, and a failed or interrupted write leaves the
//!   old one untouched. A symbolic link is followed (its target is replaced, the link stays); a
//!   directory is refused; a device or FIFO (`-o /dev/null`, `-o /dev/stdout`) is written
//!   directly, never replaced. The temporary file is removed on every exit path that runs
//!   destructors; one left by a killed process is removed by the next writer of the same target
//!   ([`remove_stale_temporaries`]).
//!
//! ```
//! use queens_io::files::{read_regular, write_atomically};
//!
//! let dir = std::env::temp_dir().join(format!("queens-files-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("answer.txt");
//! write_atomically(&path, b"1 3 0 2\n")?;
//! assert_eq!(read_regular(&path, 1024)?, b"1 3 0 2\n");
//! assert!(read_regular(&path, 4).is_err()); // over the limit: refused before it is read
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::streams::{self, GatedWriter, StopRule, open_stream};

/// A file that could not be read or written.
#[derive(Debug, Error)]
pub enum FileError {
    /// The path is not a regular file where one is read.
    #[error("{path} is {kind}, not a regular file")]
    NotRegular {
        /// The path.
        path: String,
        /// What it is ("a directory", "a FIFO", "a character device", …).
        kind: &'static str,
    },
    /// The file is larger than the reader accepts.
    #[error("{path} is {size} bytes, more than the {max} bytes read from such a file")]
    TooLarge {
        /// The path.
        path: String,
        /// Its size.
        size: u64,
        /// The limit.
        max: u64,
    },
    /// An output cannot go there.
    #[error("cannot write {path}: it is {kind}")]
    BadTarget {
        /// The path.
        path: String,
        /// What it is.
        kind: &'static str,
    },
    /// The output could be neither replaced nor written in place: the answer is kept.
    #[error("cannot write {path}: {source}; the whole output is kept in {kept}")]
    Kept {
        /// The path.
        path: String,
        /// The file holding the output.
        kept: String,
        /// What failed.
        #[source]
        source: io::Error,
    },
    /// The system refused.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// What was being done ("read", "write", "create", …).
        action: &'static str,
        /// The path.
        path: String,
        /// What failed.
        #[source]
        source: io::Error,
    },
}

/// Makes a write past the file-size limit (`ulimit -f`) fail as that write does on a full disk,
/// with `EFBIG` ("File too large"), which the writer reports and recovers from like any other
/// failed write, instead of raising `SIGXFSZ`, whose default ends the process: a count under
/// `ulimit -f 8` was killed saving its checkpoint, its work lost and its temporary file and lock
/// left behind. For a program's start, as it changes how the process takes that signal (to a
/// handler that does nothing); Python's interpreter already ignores it. Where the handler
/// cannot be set, the signal keeps its default.
pub fn writes_past_the_file_size_limit_fail() {
    #[cfg(unix)]
    {
        let noted = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let _ = signal_hook::flag::register(signal_hook::consts::SIGXFSZ, noted);
    }
}

impl FileError {
    fn io(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> FileError {
        let path = path.display().to_string();
        move |source| FileError::Io {
            action,
            path,
            source,
        }
    }

    /// The operating system's error behind this one, if any.
    pub fn io_error(&self) -> Option<&io::Error> {
        match self {
            FileError::Io { source, .. } | FileError::Kept { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// What a file's type is, in words.
fn kind_of(file_type: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_symlink() {
        "a symbolic link"
    } else if file_type.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

/// Opens `path` for reading without blocking on a FIFO or a device.
fn open_for_reading(path: &Path) -> io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Opens the regular file at `path` for reading, refusing anything else and any file over
/// `max_bytes`; returns the file and its size.
pub fn open_regular(path: &Path, max_bytes: u64) -> Result<(File, u64), FileError> {
    let file = open_for_reading(path).map_err(FileError::io("read", path))?;
    let metadata = file.metadata().map_err(FileError::io("read", path))?;
    if !metadata.is_file() {
        return Err(FileError::NotRegular {
            path: path.display().to_string(),
            kind: kind_of(metadata.file_type()),
        });
    }
    if metadata.len() > max_bytes {
        return Err(FileError::TooLarge {
            path: path.display().to_string(),
            size: metadata.len(),
            max: max_bytes,
        });
    }
    Ok((file, metadata.len()))
}

/// The bytes of the regular file at `path`, at most `max_bytes` of them (a larger file, or one
/// that grows past the limit while it is read, is refused).
pub fn read_regular(path: &Path, max_bytes: u64) -> Result<Vec<u8>, FileError> {
    let (file, size) = open_regular(path, max_bytes)?;
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(FileError::io("read", path))?;
    if bytes.len() as u64 > max_bytes {
        return Err(FileError::TooLarge {
            path: path.display().to_string(),
            size: bytes.len() as u64,
            max: max_bytes,
        });
    }
    Ok(bytes)
}

/// The text of the regular file at `path` (see [`read_regular`]); a UTF-8 byte-order mark is
/// dropped.
pub fn read_regular_text(path: &Path, max_bytes: u64) -> Result<String, FileError> {
    let bytes = read_regular(path, max_bytes)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        FileError::io("read", path)(io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()))
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

/// Where an output to `path` really goes: through every symbolic link (at most 40) to the file
/// it names, existing or not, or to one of the process's descriptors (`/dev/stdout`,
/// `/proc/self/fd/1`), where it stops: the kernel's own links past it lead to the file the
/// descriptor has open, which is written through the descriptor, never replaced.
pub fn resolve_target(path: &Path) -> Result<PathBuf, FileError> {
    let mut target = path.to_path_buf();
    for _ in 0..40 {
        if is_descriptor(&target) {
            return Ok(target);
        }
        match fs::symlink_metadata(&target) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let link = fs::read_link(&target).map_err(FileError::io("follow", &target))?;
                target = match target.parent() {
                    Some(parent) if link.is_relative() => parent.join(link),
                    _ => link,
                };
            }
            _ => return Ok(target),
        }
    }
    Err(FileError::BadTarget {
        path: path.display().to_string(),
        kind: "a loop of symbolic links",
    })
}

/// The most bytes of a target's file name kept in its temporary file's name, so that
/// `NAME.PID.tmp` stays within the 255 bytes a file name may have.
const TEMPORARY_NAME_BYTES: usize = 200;

/// A file name cut to at most [`TEMPORARY_NAME_BYTES`], at a character boundary.
fn short_name(name: &str) -> &str {
    let mut end = name.len().min(TEMPORARY_NAME_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// The temporary file of process `pid` for the target `target`: `TARGET.PID.tmp` (the target's
/// name cut to 200 bytes).
fn temporary_for(target: &Path, pid: u32) -> PathBuf {
    let name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    target.with_file_name(format!("{}.{pid}.tmp", short_name(&name)))
}

/// The process ids of the temporary files beside `target` (`TARGET.PID.tmp`), with their paths.
fn temporaries(target: &Path) -> Vec<(u32, PathBuf)> {
    let Some(file_name) = target.file_name().and_then(|name| name.to_str()) else {
        return Vec::new();
    };
    let file_name = short_name(file_name);
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name();
            let pid = name
                .to_str()?
                .strip_prefix(file_name)?
                .strip_prefix('.')?
                .strip_suffix(".tmp")?
                .parse::<u32>()
                .ok()?;
            Some((pid, entry.path()))
        })
        .collect()
}

/// Removes the temporary files beside `target` left by processes that no longer run (a write
/// killed with SIGKILL), or, with `all_but_mine`, every one but this process's own (for a
/// caller that holds a lock no other writer can hold). Returns how many were removed.
pub fn remove_stale_temporaries(target: &Path, all_but_mine: bool) -> usize {
    let me = std::process::id();
    temporaries(target)
        .into_iter()
        .filter(|&(pid, _)| pid != me && (all_but_mine || !process_runs(pid)))
        .filter(|(_, path)| fs::remove_file(path).is_ok())
        .count()
}

/// Whether process `pid` runs (Linux: `/proc/PID` exists; elsewhere assumed).
pub fn process_runs(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new(&format!("/proc/{pid}")).exists()
    } else {
        true
    }
}

/// An output being written: to a temporary file beside its target, which [`commit`] renames
/// over the target; dropped without a commit, the temporary file is removed and the target is
/// as it was.
///
/// Where the target cannot be replaced by a rename, it is written in place at the commit: a
/// file in a directory this user may not write (the temporary file is then staged in the
/// system's temporary directory), or one in a sticky directory (like `/tmp`) that another user
/// owns. If even that fails, the temporary file is kept and the error names it, so that a
/// computed answer is never lost. A stream — a device, a FIFO, one of the process's
/// descriptors such as `/dev/stdout` or `/dev/fd/3` — is written directly, through a
/// [`GatedWriter`] that gives up on a reader that never comes once the run is stopped.
///
/// [`commit`]: StagedFile::commit
pub struct StagedFile {
    /// What the user named.
    path: PathBuf,
    /// Where it goes, links followed.
    target: PathBuf,
    /// The temporary file, `None` for a direct write.
    temporary: Option<PathBuf>,
    file: io::BufWriter<GatedWriter<File>>,
}

impl std::fmt::Debug for StagedFile {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("StagedFile")
            .field("path", &self.path)
            .field("target", &self.target)
            .field("temporary", &self.temporary)
            .finish_non_exhaustive()
    }
}

/// Whether `path` names a stream to write through rather than a file to replace: one of the
/// process's descriptors (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`, whose
/// links only the kernel resolves, even when they lead to a regular file), or an existing file
/// that is neither a regular file nor a directory. A regular file elsewhere under `/dev` (as
/// in `/dev/shm`) is replaced like any other.
fn is_stream(path: &Path) -> bool {
    is_descriptor(path)
        || fs::metadata(path).is_ok_and(|metadata| !metadata.is_file() && !metadata.is_dir())
}

/// Whether `path` names an open descriptor of this process rather than a file.
fn is_descriptor(path: &Path) -> bool {
    descriptor_number(path).is_some()
}

/// The descriptor `path` names, if it names one of this process's: `/dev/stdout` (1),
/// `/dev/stderr` (2), `/dev/stdin` (0), `/dev/fd/N`, `/proc/self/fd/N`, `/proc/PID/fd/N`.
fn descriptor_number(path: &Path) -> Option<u32> {
    let text = path.to_str()?;
    match text {
        "/dev/stdin" => return Some(0),
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let number = text
        .strip_prefix("/dev/fd/")
        .or_else(|| text.strip_prefix("/proc/self/fd/"))
        .or_else(|| {
            let rest = text.strip_prefix("/proc/")?;
            let (pid, fd) = rest.split_once("/fd/")?;
            pid.bytes().all(|b| b.is_ascii_digit()).then_some(fd)
        })?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    number.parse().ok()
}

/// The process's standard output or error, when `path` names it, as a file of its own that
/// shares the descriptor's offset: written through, the answer lands where the shell's next
/// write follows it (`(echo A; queens … -o /dev/stdout; echo B) > f`), as reopening the path
/// would not. Other descriptors are reopened by name.
#[cfg(unix)]
fn standard_stream(path: &Path) -> Option<io::Result<File>> {
    use std::os::fd::AsFd;
    // Another process's descriptor (`/proc/PID/fd/1`) is that process's, reopened by name.
    let text = path.to_str()?;
    let own = format!("/proc/{}/", std::process::id());
    if text.starts_with("/proc/") && !text.starts_with("/proc/self/") && !text.starts_with(&own) {
        return None;
    }
    let duplicate = match descriptor_number(path)? {
        1 => rustix::io::dup(io::stdout().as_fd()),
        2 => rustix::io::dup(io::stderr().as_fd()),
        _ => return None,
    };
    Some(duplicate.map(File::from).map_err(io::Error::from))
}

#[cfg(not(unix))]
fn standard_stream(_: &Path) -> Option<io::Result<File>> {
    None
}

/// A writer for `file`, gated by `stop` where writes to it can block.
fn gated(file: File, stop: &StopRule, path: &Path) -> io::BufWriter<GatedWriter<File>> {
    let writer = GatedWriter::new(file, stop.clone(), path.display().to_string());
    io::BufWriter::with_capacity(1 << 20, writer)
}

impl StagedFile {
    /// Starts an output to `path`, never giving up on a stream without a reader.
    pub fn create(path: &Path) -> Result<StagedFile, FileError> {
        Self::create_with(path, &streams::never())
    }

    /// Starts an output to `path`; a stream without a reader is given up on once `stop` says
    /// stop.
    pub fn create_with(path: &Path, stop: &StopRule) -> Result<StagedFile, FileError> {
        // Links first: one that leads to a descriptor or a device is a stream too.
        let target = resolve_target(path)?;
        if let Some(file) = standard_stream(&target) {
            let file = file.map_err(FileError::io("write", path))?;
            return Ok(StagedFile {
                path: path.to_path_buf(),
                target,
                temporary: None,
                file: gated(file, stop, path),
            });
        }
        if is_stream(&target) {
            let file = open_stream(&target, stop).map_err(FileError::io("write", path))?;
            return Ok(StagedFile {
                path: path.to_path_buf(),
                target,
                temporary: None,
                file: gated(file, stop, path),
            });
        }
        let existing = match fs::metadata(&target) {
            Ok(metadata) => Some(metadata),
            Err(error) if error.kind() == io::ErrorKind::NotFound => None,
            Err(error) => return Err(FileError::io("write", path)(error)),
        };
        if existing.as_ref().is_some_and(fs::Metadata::is_dir) {
            return Err(FileError::BadTarget {
                path: path.display().to_string(),
                kind: "a directory",
            });
        }
        remove_stale_temporaries(&target, false);
        let beside = temporary_for(&target, std::process::id());
        // Named by the user's path: the temporary file is ours, not theirs.
        let (temporary, file) = match File::create(&beside) {
            Ok(file) => (beside, file),
            // No temporary file can sit beside an existing target (a directory this user may
            // not write): stage it elsewhere, and write the target in place at the commit.
            Err(error) if existing.is_some() && writable(&target) => {
                let elsewhere = std::env::temp_dir().join(format!(
                    "queens-output.{}.{}.tmp",
                    std::process::id(),
                    STAGED.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                ));
                match File::create(&elsewhere) {
                    Ok(file) => (elsewhere, file),
                    Err(_) => return Err(FileError::io("create", path)(error)),
                }
            }
            Err(error) => return Err(FileError::io("create", path)(error)),
        };
        let staged = StagedFile {
            path: path.to_path_buf(),
            target,
            temporary: Some(temporary),
            file: gated(file, &streams::never(), path),
        };
        if let Some(metadata) = existing {
            // The new file keeps the old one's permissions.
            let _ = staged
                .file
                .get_ref()
                .get_ref()
                .set_permissions(metadata.permissions());
        }
        Ok(staged)
    }

    /// The path the user named.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Finishes the output: flushed, synced, renamed over the target (or, where no rename can
    /// replace it, copied into it in place), the directory synced. If the target can be
    /// neither replaced nor written, the temporary file is kept and the error names it.
    pub fn commit(mut self) -> Result<(), FileError> {
        let path = self.path.clone();
        self.file.flush().map_err(FileError::io("write", &path))?;
        let Some(temporary) = self.temporary.take() else {
            return Ok(());
        };
        self.file
            .get_ref()
            .get_ref()
            .sync_all()
            .map_err(FileError::io("write", &path))?;
        let renamed = fs::rename(&temporary, &self.target);
        if renamed.is_ok() {
            return sync_directory(&self.target)
                .map_err(FileError::io("sync the directory of", &path));
        }
        // Not replaceable (another user's file in a sticky directory, or staged on another
        // file system): write it in place.
        let copied = fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(&self.target)
            .and_then(|mut target| {
                io::copy(&mut File::open(&temporary)?, &mut target)?;
                target.sync_all()
            });
        match copied {
            Ok(()) => {
                let _ = fs::remove_file(&temporary);
                Ok(())
            }
            Err(error) => Err(FileError::Kept {
                path: path.display().to_string(),
                kept: temporary.display().to_string(),
                source: error,
            }),
        }
    }
}

/// Counts the outputs staged away from their targets, for unique names.
static STAGED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Whether this user may write the file at `path` (Unix: `access(W_OK)`; elsewhere: not
/// read-only).
fn writable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        rustix::fs::access(path, rustix::fs::Access::WRITE_OK).is_ok()
    }
    #[cfg(not(unix))]
    {
        fs::metadata(path).is_ok_and(|metadata| !metadata.permissions().readonly())
    }
}

impl StagedFile {
    /// An error of writing this output, naming the output: "cannot write run.json: No space
    /// left on device", whoever reports it.
    fn named(&self, error: &io::Error) -> io::Error {
        io::Error::new(
            error.kind(),
            format!("cannot write {}: {error}", self.path.display()),
        )
    }
}

/// Writes to the temporary file (or the device); every error names the output.
impl Write for StagedFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.file.write(bytes).map_err(|error| self.named(&error))
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.file
            .write_all(bytes)
            .map_err(|error| self.named(&error))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush().map_err(|error| self.named(&error))
    }
}

impl Drop for StagedFile {
    fn drop(&mut self) {
        if let Some(temporary) = self.temporary.take() {
            let _ = fs::remove_file(temporary);
        }
    }
}

/// Writes `bytes` to `path` through a [`StagedFile`]: readers see the old file or the whole
/// new one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let mut file = StagedFile::create(path)?;
    file.file
        .write_all(bytes)
        .map_err(FileError::io("write", path))?;
    file.commit()
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
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh scratch directory, removed when dropped.
    fn scratch(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("queens-files-{name}-"))
            .tempdir()
            .unwrap()
    }

    #[test]
    fn only_regular_files_are_read_and_within_their_limit() {
        let scratch = scratch("read");
        let dir = scratch.path();
        let path = dir.join("board.txt");
        fs::write(&path, "\u{feff}Q.\n").unwrap();
        assert_eq!(read_regular_text(&path, 64).unwrap(), "Q.\n");
        let error = read_regular(&path, 2).unwrap_err().to_string();
        assert!(error.contains("more than the 2 bytes"), "{error}");
        let error = read_regular(dir, 64).unwrap_err().to_string();
        assert!(
            error.contains("is a directory, not a regular file"),
            "{error}"
        );
        let error = read_regular(Path::new("/dev/zero"), 64)
            .unwrap_err()
            .to_string();
        assert!(error.contains("character device"), "{error}");
    }

    #[test]
    fn an_uncommitted_output_leaves_the_target_as_it_was() {
        let scratch = scratch("staged");
        let dir = scratch.path();
        let path = dir.join("out.txt");
        fs::write(&path, "old").unwrap();
        {
            let mut file = StagedFile::create(&path).unwrap();
            file.write_all(b"new, unfinished").unwrap();
        }
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(fs::read_dir(dir).unwrap().count(), 1, "no temporary left");
        write_atomically(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_directories_refused() {
        let scratch = scratch("targets");
        let dir = scratch.path();
        let real = dir.join("real.txt");
        let link = dir.join("link.txt");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink("real.txt", &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        let error = write_atomically(dir, b"x").unwrap_err().to_string();
        assert!(error.contains("it is a directory"), "{error}");
        // Devices are written through, never replaced: the command line's faults test writes
        // onto a device node of its own (a copy of /dev/null, made as root).
    }

    #[test]
    fn descriptors_are_streams_and_dev_shm_files_are_files() {
        for path in [
            "/dev/stdout",
            "/dev/fd/3",
            "/proc/self/fd/1",
            "/proc/42/fd/7",
        ] {
            assert!(is_descriptor(Path::new(path)), "{path}");
        }
        for path in [
            "/dev/shm/out.txt",
            "/dev/fd/",
            "/proc/self/status",
            "out.txt",
        ] {
            assert!(!is_descriptor(Path::new(path)), "{path}");
        }
        if Path::new("/dev/shm").is_dir() {
            let path = Path::new("/dev/shm").join(format!("queens-files-{}", std::process::id()));
            fs::write(&path, "old").unwrap();
            assert!(!is_stream(&path));
            write_atomically(&path, b"new").unwrap();
            assert_eq!(
                fs::read_to_string(&path).unwrap(),
                "new",
                "replaced, not appended"
            );
            fs::remove_file(&path).unwrap();
        }
    }

    #[test]
    fn temporaries_of_dead_processes_are_removed() {
        let scratch = scratch("stale");
        let dir = scratch.path();
        let target = dir.join("count.checkpoint");
        // No process has pid 4194304 + 7 (above Linux's largest pid).
        let stale = temporary_for(&target, 4_194_311);
        let live = temporary_for(&target, 1);
        fs::write(&stale, "x").unwrap();
        fs::write(&live, "x").unwrap();
        assert_eq!(remove_stale_temporaries(&target, false), 1);
        assert!(!stale.exists() && live.exists());
        assert_eq!(remove_stale_temporaries(&target, true), 1);
        assert!(!live.exists());
    }
}
