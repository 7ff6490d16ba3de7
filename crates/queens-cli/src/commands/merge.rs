//! `queens merge`: checks that shard reports form one complete count and adds them up.

use queens_core::words::counted;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use queens_api::shards::{
    Merged, ShardReport, check_recounts, checkpoint_index, merge, read_report,
};
use queens_io::identity::FileIdentity;

use crate::args::MergeArgs;
use crate::commands::write_atomically;
use crate::exit::Exit;
use crate::output::stderr;

/// Runs `queens merge`.
pub fn run(args: &MergeArgs) -> anyhow::Result<Exit> {
    let reports = read_reports(&args.files)?;
    let merged = match merge(&reports) {
        Ok(merged) => merged,
        // A set still missing shards is a count without an answer yet; anything else is wrong.
        Err(error) if error.is_incomplete() => {
            let begun = begun(&reports).unwrap_or_default();
            stderr!(
                "error: {}{begun}",
                crate::exit::one_line(&error.to_string())
            );
            return Ok(Exit::NoAnswer);
        }
        Err(error) => return Err(error.into()),
    };
    if !args.recount.is_empty() {
        let recounts = read_reports(&args.recount)?;
        let recounted = check_recounts(&reports, &recounts)?;
        stderr!(
            "{} of {} counted again: every one agrees",
            counted(recounted, "shard", "shards"),
            merged.shards
        );
    }
    if let Some(path) = &args.output {
        let text = if args.json {
            serde_json::to_string(&merged)? + "\n"
        } else {
            format!("{}\n", summary(&merged))
        };
        write_atomically(path, text.as_bytes())?;
        return Ok(Exit::Success);
    }
    let mut out = crate::output::standard_output();
    if args.json {
        super::write_json_line(&mut out, &merged)?;
    } else {
        writeln!(out, "{}", summary(&merged))?;
    }
    out.flush()?;
    Ok(Exit::Success)
}

/// The shard reports `files` name (patterns expanded), each with its name.
fn read_reports(files: &[PathBuf]) -> anyhow::Result<Vec<(String, ShardReport)>> {
    let mut paths = Vec::with_capacity(files.len());
    let mut seen = std::collections::HashSet::new();
    for path in files {
        // A file named twice (by a pattern and by its name, by two names, or by two links) is
        // read once: the same report is not a shard given twice.
        let fresh = expand(path)?
            .into_iter()
            .filter(|path| seen.insert(FileIdentity::of(path)));
        paths.extend(fresh);
    }
    let mut reports = Vec::with_capacity(paths.len());
    for path in &paths {
        reports.push((path.display().to_string(), read_report(path)?));
    }
    Ok(reports)
}

/// `path` itself, or, when no such file exists and its name holds a `*`, the files of its
/// directory that the name matches (`*` standing for any characters), in order: so that a
/// count of 100,000 shards is merged from one pattern, which no shell could pass expanded.
fn expand(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let pattern = path.file_name().and_then(|name| name.to_str());
    let Some(pattern) = pattern.filter(|name| name.contains('*') && !path.exists()) else {
        return Ok(vec![path.to_path_buf()]);
    };
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        if entry
            .file_name()
            .to_str()
            .is_some_and(|name| matches(pattern, name))
        {
            found.push(entry.path());
        }
    }
    if found.is_empty() {
        bail!("no file matches {}", path.display());
    }
    found.sort();
    Ok(found)
}

/// Whether `name` matches `pattern`, whose `*`s stand for any characters.
fn matches(pattern: &str, name: &str) -> bool {
    let mut pieces = pattern.split('*');
    let first = pieces.next().unwrap_or("");
    let Some(mut rest) = name.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = pieces.collect();
    let Some((last, middle)) = pieces.split_last() else {
        return rest.is_empty();
    };
    for piece in middle {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Of a campaign's missing shards, how many have begun: where every report is in one
/// directory, the missing shards with a checkpoint there (a task that runs, or stopped and
/// awaits its requeue), as "; 5 of them have begun (a checkpoint in DIR)". `None` where the
/// reports are in several directories, the directory cannot be listed, or none has begun.
fn begun(reports: &[(String, ShardReport)]) -> Option<String> {
    let ((first, report), rest) = reports.split_first()?;
    let dir = Path::new(first).parent()?;
    if rest
        .iter()
        .any(|(name, _)| Path::new(name).parent() != Some(dir))
    {
        return None;
    }
    let reported: std::collections::HashSet<u32> =
        reports.iter().map(|(_, report)| report.shard).collect();
    let listed = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let begun = std::fs::read_dir(listed)
        .ok()?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter_map(|name| checkpoint_index(&name, report.shards))
        .filter(|index| !reported.contains(index))
        .count();
    let them = match begun {
        0 => return None,
        1 => "one of them has".to_owned(),
        begun => format!("{begun} of them have"),
    };
    Some(format!(
        "; {them} begun (a checkpoint in {})",
        listed.display()
    ))
}

/// The merged count in one line, with where it was counted: the place, or how many (which
/// `--json` lists).
fn summary(merged: &Merged) -> String {
    let places = match merged.counted_on.as_slice() {
        [] => String::new(),
        [only] => format!(", counted on {}", only.place),
        places => format!(
            ", counted at {} that --json lists",
            counted(places.len(), "place", "places")
        ),
    };
    format!(
        "{} ({}, {}{places})",
        super::solutions_line(merged.n, merged.total, merged.unique),
        counted(merged.shards, "shard", "shards"),
        counted(merged.nodes, "node", "nodes")
    )
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn patterns_match_the_reports_of_one_count() {
        let pattern = "shard-*-of-12.json";
        assert!(matches(pattern, "shard-0-of-12.json"));
        assert!(matches(pattern, "shard-11-of-12.json"));
        assert!(!matches(pattern, "shard-1-of-120.json"));
        assert!(!matches(pattern, "shard-1-of-12.checkpoint"));
        assert!(!matches(pattern, "xshard-1-of-12.json"));
        assert!(matches("*", "anything"));
        assert!(matches("a*b*c", "abc"));
        assert!(!matches("a*b*c", "acb"));
    }
}
