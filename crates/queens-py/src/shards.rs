//! `merge`: a count's shard reports added up into the whole count, as `queens merge` does it.

use std::path::Path;

use pyo3::prelude::*;
use queens_api::shards::{
    ReportFiles, ShardReport, check_recounts, merge as merge_reports, parse_report,
};

use crate::refused;

/// The merged count as `queens merge --json` prints it (`n`, `shards`, `total`, `unique`,
/// `nodes`, `fingerprint`, `counted_on`) from `shards`, each a report's file (`(path, None)`) or
/// a shard's document (`(name, Some(json))`); `recount`'s reports, given the same way, must
/// each equal the shard of the same index. Missing, duplicate, foreign, stopped and forged
/// reports are refused by name, as the command line refuses them.
#[pyfunction]
#[pyo3(signature = (shards, recount=Vec::new()))]
#[expect(
    clippy::needless_pass_by_value,
    reason = "PyO3 extracts a Python list as a Vec"
)]
pub fn merge(
    py: Python<'_>,
    shards: Vec<(String, Option<String>)>,
    recount: Vec<(String, Option<String>)>,
) -> PyResult<String> {
    py.detach(|| {
        let reports = reports(&shards)?;
        let merged = merge_reports(&reports).map_err(refused)?;
        if !recount.is_empty() {
            check_recounts(&reports, &self::reports(&recount)?).map_err(refused)?;
        }
        Ok(serde_json::to_string(&merged).expect("a document serializes"))
    })
}

/// Each of `given`, read from its text or its file, with its name: a file named by a pattern
/// is each file it matches, and a file named twice (by two names, or through a link) is read
/// once, as `queens merge` reads its files ([`ReportFiles`]).
fn reports(given: &[(String, Option<String>)]) -> PyResult<Vec<(String, ShardReport)>> {
    let mut files = ReportFiles::default();
    let mut reports = Vec::with_capacity(given.len());
    for (name, text) in given {
        match text {
            Some(text) => reports.push((name.clone(), parse_report(name, text).map_err(refused)?)),
            None => reports.extend(files.read(Path::new(name)).map_err(refused)?),
        }
    }
    Ok(reports)
}
