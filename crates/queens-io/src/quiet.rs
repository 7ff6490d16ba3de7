//! Standard error kept quiet while a library that writes to it on its own runs (a graphics
//! driver as it is enumerated), and given back whatever the process's open-files limit.
//!
//! A redirection that gives standard error back by duplicating a descriptor needs a free one at
//! the end; where the driver had taken the last (`ulimit -n 5`), the copy failed, standard error
//! stayed on `/dev/null`, and every later message of the run was lost: a count exited 2 saying
//! nothing. Here the original is kept open for the whole while and put back with `dup2`, which
//! takes no new descriptor.

/// Standard error on `/dev/null` until dropped, then on what it was.
pub struct QuietStderr {
    #[cfg(unix)]
    saved: std::os::fd::OwnedFd,
}

impl QuietStderr {
    /// Puts standard error on `/dev/null`, keeping what it was; `None` (nothing changed) where
    /// that cannot be done, such as with no descriptor left to open `/dev/null` with.
    pub fn new() -> Option<Self> {
        #[cfg(unix)]
        {
            let saved = rustix::io::fcntl_dupfd_cloexec(std::io::stderr(), 0).ok()?;
            let null = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/null")
                .ok()?;
            rustix::stdio::dup2_stderr(&null).ok()?;
            Some(QuietStderr { saved })
        }
        #[cfg(not(unix))]
        None
    }
}

impl Drop for QuietStderr {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            // `dup2` onto an open descriptor needs no free one; it fails only for a bad
            // descriptor, which `saved` is not.
            let _ = rustix::stdio::dup2_stderr(&self.saved);
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::fd::AsFd;

    /// The identity of what a descriptor is open on.
    fn identity(fd: impl AsFd) -> (u64, u64) {
        let stat = rustix::fs::fstat(fd).unwrap();
        (stat.st_dev, stat.st_ino)
    }

    #[test]
    fn standard_error_is_put_back_on_what_it_was() {
        let before = identity(std::io::stderr());
        let null = identity(std::fs::File::open("/dev/null").unwrap());
        {
            let quiet = QuietStderr::new().expect("quiet");
            assert_eq!(identity(std::io::stderr()), null);
            drop(quiet);
        }
        assert_eq!(identity(std::io::stderr()), before);
    }
}
