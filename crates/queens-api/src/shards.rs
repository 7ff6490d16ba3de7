//! A count split into shards, as `queens count --shard`, `queens merge`, `--plan` and `--slurm`
//! handle it: a shard's report, the merge that refuses missing, duplicate and contradicting
//! parts, the recount check, and a record campaign's plan; and a report read from its file or
//! its text as every front end reads it ([`read_report`], [`parse_report`]). The counting is
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

use std::path::Path;

use queens_io::files::{self, FileError};
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
}
