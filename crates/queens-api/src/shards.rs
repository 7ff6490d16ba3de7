//! A count split into shards, as `queens count --shard`, `queens merge`, `--plan` and `--slurm`
//! handle it: a shard's report, the merge that refuses missing, duplicate and contradicting
//! parts, the recount check, and a record campaign's plan; and reports read from their files
//! (patterns expanded, a file named twice read once) or their text as every front end reads
//! them ([`read_reports`], [`read_report`], [`parse_report`]). The counting is
//! `queens-exact`'s; this is its door.
//!
//! ```
//! use queens_api::count::{CountRequest, CountSpec, Shard};
//! use queens_api::shards::{ShardReport, merge};
//!
//! let mut reports = Vec::new();
//! for index in 0..2 {
//!     let shard = Shard::new(index, 2)?;
//!     let request = CountRequest::new(&CountSpec { shard: Some(shard), ..CountSpec::new(8) })?;
//!     let result = request.job().run(&queens_core::Budget::unlimited(), |_, _| {})?;
//!     let report = ShardReport::new(request.job().plan(), shard, result.tally);
//!     reports.push((format!("shard-{index}"), report));
//! }
//! assert_eq!(merge(&reports)?.total, 92);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use queens_exact::count::campaign::{
    ARRAY_TASKS, Campaign, MAX_SHARDS, MEASURED_GPU_RATE, RECOUNT_SHARE, SLURM_MOST_TASK_HOURS,
};
pub use queens_exact::count::shard::{
    MergeError, Merged, ShardReport, check_recounts, checkpoint_index, merge, report_pattern,
};

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use queens_io::files::{self, FileError};
use queens_io::identity::FileIdentity;
use thiserror::Error;

/// The largest file read as a shard report: a report is a few hundred bytes.
pub const MAX_REPORT_BYTES: u64 = 64 << 10;

/// A shard report that cannot be taken.
#[derive(Debug, Error)]
pub enum ReportError {
    /// The file cannot be read: missing, unreadable, or not a regular file.
    #[error(transparent)]
    File(FileError),
    /// The file is far larger than any report.
    #[error("{name} is {size} bytes: a shard report is a few hundred, so it is not one")]
    TooLarge {
        /// The file.
        name: String,
        /// Its size.
        size: u64,
    },
    /// The text is not a shard report.
    #[error("{name} is not a shard report of `queens count --shard`: {reason}")]
    NotAReport {
        /// The file, or what names the text.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A pattern that matches no file.
    #[error("no file matches {pattern}")]
    NoMatch {
        /// The pattern.
        pattern: String,
    },
    /// A pattern's directory cannot be listed.
    #[error("cannot list {dir}: {source}")]
    Unlisted {
        /// The directory.
        dir: String,
        /// What failed.
        #[source]
        source: std::io::Error,
    },
    /// The document of a shard that stopped before its end (Python's `to_dict()` of a stopped
    /// shard): its sums would pass every other check and make the merged count wrong.
    #[error("{name} is a shard that stopped before its end: count it again to finish it")]
    Stopped {
        /// The file, or what names the text.
        name: String,
    },
}

/// The shard report in the file at `path` (at most [`MAX_REPORT_BYTES`], a regular file).
pub fn read_report(path: &Path) -> Result<ShardReport, ReportError> {
    let name = path.display().to_string();
    let text = files::read_regular_text(path, MAX_REPORT_BYTES).map_err(|error| match error {
        FileError::TooLarge { size, .. } => ReportError::TooLarge {
            name: name.clone(),
            size,
        },
        other => ReportError::File(other),
    })?;
    parse_report(&name, &text)
}

/// The shard reports `names` name, each with its file's name, as every front end reads a list
/// of report files ([`ReportFiles`]).
pub fn read_reports(names: &[PathBuf]) -> Result<Vec<(String, ShardReport)>, ReportError> {
    let mut files = ReportFiles::default();
    let mut reports = Vec::with_capacity(names.len());
    for name in names {
        reports.extend(files.read(name)?);
    }
    Ok(reports)
}

/// Report files read one name at a time, as a list names them: each name is a file, or a pattern
/// ([`report_files`]); a file named twice (by a pattern and by its name, by two names, or
/// through a link) is read once, since the same report is not a shard given twice.
#[derive(Debug, Default)]
pub struct ReportFiles {
    seen: HashSet<FileIdentity>,
}

impl ReportFiles {
    /// The reports `name` names that no name before it named, each with its file's name.
    pub fn read(&mut self, name: &Path) -> Result<Vec<(String, ShardReport)>, ReportError> {
        let mut reports = Vec::new();
        for path in report_files(name)? {
            if self.seen.insert(FileIdentity::of(&path)) {
                reports.push((path.display().to_string(), read_report(&path)?));
            }
        }
        Ok(reports)
    }
}

/// The files `path` names: itself, or, when no such file exists and its file name holds a `*`,
/// the files of its directory that the name matches (`*` standing for any characters), in
/// order: so that a count of 100,000 shards is merged from one pattern, which no shell could
/// pass expanded.
pub fn report_files(path: &Path) -> Result<Vec<PathBuf>, ReportError> {
    let pattern = path.file_name().and_then(|name| name.to_str());
    let Some(pattern) = pattern.filter(|name| name.contains('*') && !path.exists()) else {
        return Ok(vec![path.to_path_buf()]);
    };
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let unlisted = |source| ReportError::Unlisted {
        dir: dir.display().to_string(),
        source,
    };
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unlisted)? {
        let entry = entry.map_err(unlisted)?;
        if entry
            .file_name()
            .to_str()
            .is_some_and(|name| matches(pattern, name))
        {
            found.push(entry.path());
        }
    }
    if found.is_empty() {
        return Err(ReportError::NoMatch {
            pattern: path.display().to_string(),
        });
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

/// The shard report in `text`, named `name` in any refusal: a report as `queens count --shard`
/// writes it, or the document of a finished shard (`--json`, Python's `to_dict()`).
pub fn parse_report(name: &str, text: &str) -> Result<ShardReport, ReportError> {
    let report: ShardReport = queens_core::json::read_object(text.as_bytes(), "the report")
        .map_err(|refusal| ReportError::NotAReport {
            name: name.to_owned(),
            reason: refusal.to_string(),
        })?;
    if serde_json::from_str::<Finished>(text).is_ok_and(|shard| !shard.complete) {
        return Err(ReportError::Stopped {
            name: name.to_owned(),
        });
    }
    Ok(report)
}

/// Whether a shard's document says it finished (a report without the field did).
#[derive(serde::Deserialize)]
struct Finished {
    #[serde(default = "finished")]
    complete: bool,
}

fn finished() -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::{CountRequest, CountSpec, Shard};

    /// Shard 0 of 2 of N = 8, counted, as its report's text.
    fn report_text() -> String {
        let shard = Shard::new(0, 2).unwrap();
        let request = CountRequest::new(&CountSpec {
            shard: Some(shard),
            ..CountSpec::new(8)
        })
        .unwrap();
        let result = request
            .job()
            .run(&queens_core::Budget::unlimited(), |_, _| {})
            .unwrap();
        let report = ShardReport::new(request.job().plan(), shard, result.tally);
        serde_json::to_string(&report).unwrap()
    }

    #[test]
    fn a_report_is_read_from_its_text_or_its_file_and_anything_else_is_named() {
        let text = report_text();
        let report = parse_report("given", &text).unwrap();
        assert_eq!((report.n, report.shard, report.shards), (8, 0, 2));
        // A finished shard's document says `"complete": true`; a stopped one's is refused.
        let finished = text.replacen('{', "{\"complete\":true,", 1);
        assert_eq!(parse_report("given", &finished).unwrap(), report);
        let stopped = text.replacen('{', "{\"complete\":false,", 1);
        let error = parse_report("shards[1]", &stopped).unwrap_err().to_string();
        assert!(
            error.starts_with("shards[1] is a shard that stopped"),
            "{error}"
        );
        let error = parse_report("shards[0]", "[1, 2]").unwrap_err().to_string();
        assert!(
            error.starts_with("shards[0] is not a shard report") && error.contains("the report"),
            "{error}"
        );

        let dir = std::env::temp_dir().join(format!("queens-api-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("shard-0-of-2.json");
        std::fs::write(&file, &text).unwrap();
        assert_eq!(read_report(&file).unwrap(), report);
        let large = dir.join("large.json");
        std::fs::write(&large, " ".repeat(MAX_REPORT_BYTES as usize + 1)).unwrap();
        let error = read_report(&large).unwrap_err().to_string();
        assert!(error.contains("a shard report is a few hundred"), "{error}");
        let error = read_report(&dir.join("none.json")).unwrap_err().to_string();
        assert!(error.contains("none.json"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

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
