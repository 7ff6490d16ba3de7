//! The text of the job scripts a cluster runs (`count --slurm` submits them, `count --plan`
//! prints them): words single-quoted for a POSIX shell, this program's own command, and the
//! refusal of a path that a script cannot name.

use std::path::Path;

use anyhow::{Context, bail};

/// `text` in single quotes for a POSIX shell, so that the shell takes it as one literal word.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// `path` in single quotes for a POSIX shell; exact for a path [`check_nameable`] took.
pub fn quote_path(path: &Path) -> String {
    quote(&path.display().to_string())
}

/// The command that starts this program again in a task, each word quoted.
pub fn program() -> anyhow::Result<String> {
    let words = crate::own_command()
        .context("cannot find this program's own path for the cluster's tasks")?;
    let quoted = words
        .iter()
        .map(|word| match word.to_str() {
            Some(word) => Ok(quote(word)),
            None => bail!(
                "cannot name this program in a job script: its path {} is not UTF-8",
                Path::new(word).display()
            ),
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(quoted.join(" "))
}

/// Refuses a directory that a job script cannot name: a script is text, and one written with a
/// lossy copy of a path that is not UTF-8 would send every task's report somewhere else.
pub fn check_nameable(dir: &Path) -> anyhow::Result<()> {
    if dir.to_str().is_none() {
        bail!(
            "cannot name {} in a job script: the path is not UTF-8; choose another --dir",
            dir.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn quotes_survive_the_shell() {
        assert_eq!(quote("/a b/it's"), r"'/a b/it'\''s'");
        for text in ["/a b/it's", "$HOME `x` \"y\" \\z", "''", ""] {
            let echoed = std::process::Command::new("sh")
                .args(["-c", &format!("printf %s {}", quote(text))])
                .output()
                .expect("sh runs");
            assert_eq!(String::from_utf8_lossy(&echoed.stdout), text);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_path_that_is_not_utf8_is_refused() {
        use std::os::unix::ffi::OsStrExt;
        let dir = Path::new(std::ffi::OsStr::from_bytes(b"/tmp/q\xff"));
        let error = check_nameable(dir).unwrap_err().to_string();
        assert!(error.contains("not UTF-8"), "{error}");
        assert!(check_nameable(Path::new("/tmp/it's here")).is_ok());
    }
}
