//! `queens merge`: checks that shard reports form one complete count and adds them up.

use queens_core::words::counted;
use std::io::Write;
use std::path::{Path, PathBuf};

use queens_api::shards::{
    Merged, ShardReport, check_recounts, checkpoint_index, merge, read_reports, report_files,
};

use crate::args::MergeArgs;
use crate::commands::{Written, refuse_overlapping_files, write_atomically};
use crate::exit::Exit;
use crate::output::stderr;

/// Runs `queens merge`.
pub fn run(args: &MergeArgs) -> anyhow::Result<Exit> {
    // Each name's files, a pattern's listed once: a pattern that matches none is refused here.
    let files = listed(&args.files)?;
    let recount_files = listed(&args.recount)?;
    if let Some(output) = &args.output {
        let inputs: Vec<(&str, &Path)> = files
            .iter()
            .map(|path| ("a report merged", path.as_path()))
            .chain(
                recount_files
                    .iter()
                    .map(|path| ("a recount", path.as_path())),
            )
            .collect();
        let total = Written {
            flag: "-o",
            holds: "the total",
            path: output,
        };
        refuse_overlapping_files(&inputs, &[total])?;
    }
    let reports = read_reports(&files)?;
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
        let recounts = read_reports(&recount_files)?;
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
    let mut out = crate::output::Answer::new();
    if args.json {
        super::write_json_line(&mut out, &merged)?;
    } else {
        writeln!(out, "{}", summary(&merged))?;
    }
    out.deliver()?;
    Ok(Exit::Success)
}

/// The files `names` name, each a file or a pattern ([`report_files`]), in order.
fn listed(names: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for name in names {
        files.extend(report_files(name)?);
    }
    Ok(files)
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
