//! `queens merge`: checks that shard reports form one complete count and adds them up.

use queens_core::words::counted;
use std::io::{self, Write};

use anyhow::{Context, bail};
use queens_core::files;
use queens_exact::count::shard::{Merged, ShardReport, merge};

use crate::args::MergeArgs;
use crate::commands::write_atomically;
use crate::exit::Exit;

/// The largest file read as a shard report.
const MAX_REPORT_BYTES: u64 = 64 << 10;

/// Runs `queens merge`.
pub fn run(args: &MergeArgs) -> anyhow::Result<Exit> {
    let mut reports = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let name = path.display().to_string();
        let text =
            files::read_regular_text(path, MAX_REPORT_BYTES).map_err(|error| match error {
                files::FileError::TooLarge { size, .. } => anyhow::anyhow!(
                    "{name} is {size} bytes: a shard report is a few hundred, so it is not one"
                ),
                other => other.into(),
            })?;
        let report: ShardReport = serde_json::from_str(&text)
            .with_context(|| format!("{name} is not a shard report of `queens count --shard`"))?;
        // A shard stopped before its end (Python's `to_dict()` of a stopped shard) says so: its
        // sums would pass every other check and make the merged count wrong.
        if serde_json::from_str::<Finished>(&text).is_ok_and(|shard| !shard.complete) {
            bail!("{name} is a shard that stopped before its end: count it again to finish it");
        }
        reports.push((name, report));
    }
    let merged = match merge(&reports) {
        Ok(merged) => merged,
        // A set still missing shards is a count without an answer yet; anything else is wrong.
        Err(error) if error.is_incomplete() => {
            eprintln!("error: {error}");
            return Ok(Exit::NoAnswer);
        }
        Err(error) => return Err(error.into()),
    };
    if let Some(path) = &args.output {
        let text = if args.json {
            serde_json::to_string(&merged)? + "\n"
        } else {
            format!("{}\n", summary(&merged))
        };
        write_atomically(path, text.as_bytes())?;
        return Ok(Exit::Success);
    }
    let mut out = io::stdout().lock();
    if args.json {
        super::write_json_line(&mut out, &merged)?;
    } else {
        writeln!(out, "{}", summary(&merged))?;
    }
    out.flush()?;
    Ok(Exit::Success)
}

/// The merged count in one line.
fn summary(merged: &Merged) -> String {
    format!(
        "{} ({}, {})",
        super::solutions_line(merged.n, merged.total, merged.unique),
        counted(merged.shards, "shard", "shards"),
        counted(merged.nodes, "node", "nodes")
    )
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
