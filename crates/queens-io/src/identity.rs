//! Which file a path names, so that one file reached by two names, or through a symbolic or
//! hard link, is known as one: `queens merge` reads a report named twice once, and a count's
//! lock checks that the file it holds is still the one at its path.
//!
//! ```
//! use queens_io::identity::FileIdentity;
//!
//! let path = std::env::temp_dir().join(format!("queens-identity-doc-{}", std::process::id()));
//! std::fs::write(&path, "{}")?;
//! let again = path.parent().unwrap().join(".").join(path.file_name().unwrap());
//! assert_eq!(FileIdentity::of(&path), FileIdentity::of(&again));
//! # std::fs::remove_file(&path)?;
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fs;
use std::path::{Path, PathBuf};

/// Which file a path names: its device and inode where the system gives them ([`inode`]), else
/// its canonical path, else the path as given (a file that cannot be read, which reading it then
/// says).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FileIdentity {
    /// The device and inode.
    Inode(u64, u64),
    /// The canonical path, or the path as given.
    Path(PathBuf),
}

impl FileIdentity {
    /// The file `path` names.
    pub fn of(path: &Path) -> FileIdentity {
        match fs::metadata(path)
            .ok()
            .and_then(|metadata| inode(&metadata))
        {
            Some((device, inode)) => FileIdentity::Inode(device, inode),
            None => {
                FileIdentity::Path(fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
            }
        }
    }
}

/// Which file writing to `path` would replace: the file there (as [`FileIdentity::of`]), or,
/// where none is, the canonical directory with the name, so that two outputs named `a.txt` and
/// `./a.txt` are known as one before either is written. A path whose directory is not there is
/// known by itself.
pub fn of_output(path: &Path) -> FileIdentity {
    if fs::symlink_metadata(path).is_ok() {
        return FileIdentity::of(path);
    }
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    match (fs::canonicalize(dir), path.file_name()) {
        (Ok(dir), Some(name)) => FileIdentity::Path(dir.join(name)),
        _ => FileIdentity::Path(path.to_path_buf()),
    }
}

/// The device and inode number of the file `metadata` describes (of a path or of an open
/// file). `None` where the system does not number files so (not Unix), so that two `None`s say
/// nothing either way.
pub fn inode(metadata: &fs::Metadata) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((metadata.dev(), metadata.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_file_is_known_as_one_through_any_name_or_link() {
        let scratch = tempfile::Builder::new()
            .prefix("queens-identity-")
            .tempdir()
            .unwrap();
        let dir = scratch.path();
        let real = dir.join("real.json");
        fs::write(&real, "{}").unwrap();
        fs::write(dir.join("other.json"), "{}").unwrap();
        fs::hard_link(&real, dir.join("hard.json")).unwrap();
        std::os::unix::fs::symlink("real.json", dir.join("soft.json")).unwrap();
        let named = |name: &str| FileIdentity::of(&dir.join(name));
        assert!(matches!(named("real.json"), FileIdentity::Inode(..)));
        assert_eq!(named("hard.json"), named("real.json"));
        assert_eq!(named("soft.json"), named("real.json"));
        assert_ne!(
            named("other.json"),
            named("real.json"),
            "the same bytes, another file"
        );
        // An output is known before it is written, under any spelling of its path.
        assert_eq!(
            of_output(&dir.join("new.json")),
            of_output(&dir.join(".").join("new.json"))
        );
        assert_ne!(of_output(&dir.join("new.json")), named("real.json"));
        assert_eq!(of_output(&dir.join("soft.json")), named("real.json"));
        // An open file is the file at its path.
        let open = fs::File::open(&real).unwrap().metadata().unwrap();
        let at_path = fs::metadata(&real).unwrap();
        assert_eq!(inode(&open), inode(&at_path));
        // A path to nothing is known by itself, for its reader to refuse.
        assert_eq!(
            named("none.json"),
            FileIdentity::Path(dir.join("none.json"))
        );
    }
}
