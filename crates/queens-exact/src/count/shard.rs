//! Shards: a count cut into M deterministic parts for M machines, the files each writes in a
//! count's directory, and the merge that checks the parts form one complete count.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::driver::PLACES_JOINED;
use super::integrity::{self, Contradiction};
use super::{CountError, CountPlan, CountResult, KERNEL_VERSION, Tally};

/// Part `index` of `count`: the subproblems whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// Which part, from 0.
    pub index: u32,
    /// How many parts.
    pub count: u32,
}

impl Shard {
    /// The whole count as one part.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Part `index` of `count`, checked.
    pub fn new(index: u32, count: u32) -> Result<Self, CountError> {
        if index < count {
            Ok(Shard { index, count })
        } else {
            Err(CountError::BadShard { index, count })
        }
    }

    /// Whether subproblem `id` belongs to this part.
    pub fn owns(self, id: usize) -> bool {
        id % self.count as usize == self.index as usize
    }

    /// The name its files share in a count's directory: `shard-I-of-M`.
    pub fn file_stem(self) -> String {
        format!("shard-{}-of-{}", self.index, self.count)
    }

    /// Its report in `dir`: `shard-I-of-M.json`, what `queens merge` reads.
    pub fn report_file(self, dir: &Path) -> PathBuf {
        dir.join(format!("{}.json", self.file_stem()))
    }

    /// Its checkpoint in `dir`: `shard-I-of-M.checkpoint`.
    pub fn checkpoint_file(self, dir: &Path) -> PathBuf {
        dir.join(format!("{}.checkpoint", self.file_stem()))
    }

    /// Its log in `dir`, where a cluster's task writes: `shard-I-of-M.log`.
    pub fn log_file(self, dir: &Path) -> PathBuf {
        dir.join(format!("{}.log", self.file_stem()))
    }
}

/// The file names of a count's reports in `count` shards, as a shell pattern:
/// `shard-*-of-M.json`.
pub fn report_pattern(count: u32) -> String {
    format!("shard-*-of-{count}.json")
}

/// The index of the shard of a count in `count` shards whose checkpoint is named `name`
/// (`shard-I-of-M.checkpoint`), or `None` for any other file.
pub fn checkpoint_index(name: &str, count: u32) -> Option<u32> {
    let index = name
        .strip_prefix("shard-")?
        .strip_suffix(&format!("-of-{count}.checkpoint"))?;
    // Digits only, as `file_stem` writes them: no sign, no second `-of-`.
    let index: u32 = index
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| index.parse().ok())??;
    (index < count).then_some(index)
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Text that is not `I/M`.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("'{0}' is not a shard: expected I/M with 0 ≤ I < M, e.g. 0/4")]
pub struct BadShardText(String);

impl FromStr for Shard {
    type Err = BadShardText;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || BadShardText(text.to_owned());
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index = index.trim().parse().map_err(|_| bad())?;
        let count = count.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count).map_err(|_| bad())
    }
}

/// The result of counting one shard: what `queens count --shard I/M` prints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardReport {
    /// Board side.
    pub n: u32,
    /// This shard's index.
    pub shard: u32,
    /// The number of shards.
    pub shards: u32,
    /// Solutions found in this shard.
    pub total: u128,
    /// Solutions left unchanged by each symmetry other than the identity, summed (see
    /// [`Tally`]): with the total, what gives the unique count once every shard is merged.
    pub fixed: u128,
    /// Nodes searched (past 2⁶⁴ in a record's count: N = 28 searches about 6·10¹⁹).
    pub nodes: u128,
    /// The split's fingerprint, hexadecimal.
    pub fingerprint: String,
    /// Subproblems in this shard.
    pub subproblems: usize,
    /// The kernel version that made it.
    pub kernel_version: u32,
    /// SHA-256 over the fingerprint and the numbers above: a damaged or edited file is refused.
    pub checksum: String,
    /// Where its parts were counted (a host and its GPU or threads: `node17, NVIDIA H100 80GB
    /// HBM3 at 0000:3b:00.0 (gpu engine)`), for finding the machines of a report that a recount
    /// contradicts: every place that counted some (a task requeued onto another node resumes
    /// from its checkpoint there), in the order each last counted, joined by "; then ". Not a
    /// number of the count, so outside the checksum; reports without it read as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counted_on: Option<String>,
}

impl ShardReport {
    /// The report of `shard` of `plan` with the given sums.
    pub fn new(plan: &CountPlan, shard: Shard, tally: Tally) -> Self {
        let mut report = ShardReport {
            n: plan.n(),
            shard: shard.index,
            shards: shard.count,
            total: tally.total,
            fixed: tally.fixed,
            nodes: tally.nodes,
            fingerprint: plan.fingerprint_text(),
            subproblems: plan.shard_ids(shard).len(),
            kernel_version: KERNEL_VERSION,
            checksum: String::new(),
            counted_on: None,
        };
        report.checksum = report.expected_checksum();
        report
    }

    /// The report of `shard` of `plan` that the count `result` gives, saying where its parts
    /// were counted (see [`CountResult::counted_on`]).
    pub fn of_result(plan: &CountPlan, shard: Shard, result: &CountResult) -> Self {
        ShardReport {
            counted_on: result.counted_on(),
            ..ShardReport::new(plan, shard, result.tally)
        }
    }

    /// Whether it is a report of `shard` of `plan`, intact, wherever it was counted: what a
    /// resubmission asks before it counts the shard again.
    pub fn is_of(&self, plan: &CountPlan, shard: Shard) -> bool {
        let expected = ShardReport::new(plan, shard, self.tally());
        ShardReport {
            counted_on: None,
            ..self.clone()
        } == expected
    }

    /// The report, saying where it was counted (see [`ShardReport::counted_on`]).
    #[must_use]
    pub fn counted_on(mut self, place: impl Into<String>) -> Self {
        self.counted_on = Some(place.into());
        self
    }

    /// The checksum its numbers call for.
    fn expected_checksum(&self) -> String {
        integrity::checksum(
            &self.fingerprint,
            &format!(
                "shard n={} shard={}/{} total={} fixed={} nodes={} subproblems={} kernel={}",
                self.n,
                self.shard,
                self.shards,
                self.total,
                self.fixed,
                self.nodes,
                self.subproblems,
                self.kernel_version
            ),
        )
    }

    /// Whether the checksum matches the numbers.
    pub fn is_intact(&self) -> bool {
        self.checksum == self.expected_checksum()
    }

    /// The sums it reports.
    pub fn tally(&self) -> Tally {
        Tally {
            total: self.total,
            fixed: self.fixed,
            nodes: self.nodes,
        }
    }
}

/// The sums of a complete set of shards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Merged {
    /// Board side.
    pub n: u32,
    /// How many shards were merged.
    pub shards: u32,
    /// All solutions.
    pub total: u128,
    /// All symmetry classes.
    pub unique: u128,
    /// All nodes.
    pub nodes: u128,
    /// The split's fingerprint.
    pub fingerprint: String,
    /// Where the shards were counted, as their reports say ([`ShardReport::counted_on`]): each
    /// place once, the most shards first. Empty where no report says (reports from before
    /// they did).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counted_on: Vec<CountedAt>,
}

/// A place that counted shards of a merged count, and how many: the shards it counted, or
/// counted part of (a shard resumed elsewhere names every place that counted it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountedAt {
    /// The place, as the reports name it: "node17, NVIDIA H100 80GB HBM3 at 0000:3b:00.0 (gpu
    /// engine)".
    pub place: String,
    /// The shards it counted, or counted part of.
    pub shards: u32,
}

/// The places that counted `reports`, each once with its shards, the most first (then by name),
/// as a file's words are shown ([`shown`]).
fn places_of(reports: &[(String, ShardReport)]) -> Vec<CountedAt> {
    let mut shards: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    for (_, report) in reports {
        let Some(places) = &report.counted_on else {
            continue;
        };
        let mut named = std::collections::HashSet::new();
        for place in places.split(PLACES_JOINED).map(shown) {
            if named.insert(place.clone()) {
                *shards.entry(place).or_default() += 1;
            }
        }
    }
    let mut places: Vec<CountedAt> = shards
        .into_iter()
        .map(|(place, shards)| CountedAt { place, shards })
        .collect();
    places.sort_by(|a, b| b.shards.cmp(&a.shards).then_with(|| a.place.cmp(&b.place)));
    places
}

/// A set of shards that is not one complete count.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no shard files given")]
    Empty,
    /// Two files from different counts.
    #[error(
        "{second} does not belong with {first}: {what} differs ({first_value} vs {second_value})"
    )]
    Mismatch {
        /// The first file.
        first: String,
        /// The offending file.
        second: String,
        /// Which field.
        what: &'static str,
        /// Its value in the first file.
        first_value: String,
        /// Its value in the offending file.
        second_value: String,
    },
    /// The same shard twice.
    #[error("shard {shard}/{count} appears twice: {first} and {second}")]
    Duplicate {
        /// The shard index.
        shard: u32,
        /// The shard count.
        count: u32,
        /// One file.
        first: String,
        /// The other.
        second: String,
    },
    /// Shards not given.
    #[error("incomplete: {}", missing_sentence(runs, *missing, *count))]
    Missing {
        /// The first runs of missing indices, each its first and last index (up to
        /// [`RUNS_SHOWN`]), in order.
        runs: Vec<(u32, u32)>,
        /// How many are missing.
        missing: usize,
        /// The shard count.
        count: u32,
    },
    /// A report whose checksum does not match its numbers.
    #[error("{file} is damaged or was edited: its checksum does not match its numbers")]
    Damaged {
        /// The file.
        file: String,
    },
    /// Sums no count can give.
    #[error(
        "the shards add up to {total} solutions and {fixed} left unchanged by symmetries, which no count gives (a class has 1 to 8 solutions): a report is wrong"
    )]
    Implausible {
        /// The sum of the totals.
        total: u128,
        /// The sum of the symmetric solutions.
        fixed: u128,
    },
    /// Sums beyond 128 bits.
    #[error("the reports' sums overflow: {file} cannot belong to a real count")]
    Overflow {
        /// The file whose numbers overflowed the sum.
        file: String,
    },
    /// A complete set whose sums contradict the published counts.
    #[error("the shards add up to {0}: a report is wrong")]
    Contradicts(Contradiction),
    /// A shard counted again (on another device or engine) that disagrees with its report.
    #[error(
        "shard {shard}/{count} was counted again in {recount} and disagrees with {report}: {what} {report_value} vs {recount_value}{places}; count it a third time before trusting either"
    )]
    Recount {
        /// The shard index.
        shard: u32,
        /// The shard count.
        count: u32,
        /// The report merged.
        report: String,
        /// The recount.
        recount: String,
        /// Which number differs.
        what: &'static str,
        /// The report's number.
        report_value: u128,
        /// The recount's number.
        recount_value: u128,
        /// Where each was counted, as far as they say: ` (counted on A, counted again on
        /// B)`, or empty.
        places: Box<str>,
    },
}

/// The most characters of a report's `counted_on` that an error shows: a few places.
const PLACE_SHOWN: usize = 480;

/// Where a report and its recount were counted, as far as they say: ` (counted on A, counted
/// again on B)`, or nothing. What a file says is shown without control characters (a terminal's
/// escapes, line breaks) and at most [`PLACE_SHOWN`] characters long.
fn places(report: Option<&str>, recount: Option<&str>) -> String {
    match (report.map(shown), recount.map(shown)) {
        (None, None) => String::new(),
        (Some(report), None) => format!(" (counted on {report})"),
        (None, Some(recount)) => format!(" (counted again on {recount})"),
        (Some(report), Some(recount)) => {
            format!(" (counted on {report}, counted again on {recount})")
        }
    }
}

/// What a file says of a place, as it is shown: without control characters (a terminal's
/// escapes, line breaks) and at most [`PLACE_SHOWN`] characters long.
fn shown(place: &str) -> String {
    place
        .chars()
        .filter(|c| !c.is_control())
        .take(PLACE_SHOWN)
        .collect()
}

impl MergeError {
    /// `second` does not belong with `first`: `what` is `first_value` in one, `second_value`
    /// in the other.
    fn mismatch(
        first: &str,
        second: &str,
        what: &'static str,
        first_value: String,
        second_value: String,
    ) -> Self {
        MergeError::Mismatch {
            first: first.to_owned(),
            second: second.to_owned(),
            what,
            first_value,
            second_value,
        }
    }

    /// Whether the set is merely incomplete (a well-formed request without an answer yet),
    /// rather than wrong.
    pub fn is_incomplete(&self) -> bool {
        matches!(self, MergeError::Missing { .. })
    }
}

/// The most runs of missing shards an error names: a line's worth.
pub const RUNS_SHOWN: usize = 12;

/// "missing shard 2 of 4", or "missing shards 2, 4-199 (197 of 200)": the runs in `runs` as
/// Slurm's `--array` writes indices, then how many more are missing where runs were left out.
fn missing_sentence(runs: &[(u32, u32)], missing: usize, count: u32) -> String {
    if let ([(first, last)], 1) = (runs, missing)
        && first == last
    {
        return format!("missing shard {first} of {count}");
    }
    let shown: Vec<String> = runs
        .iter()
        .map(|&(first, last)| match last - first {
            0 => first.to_string(),
            _ => format!("{first}-{last}"),
        })
        .collect();
    let named: usize = runs
        .iter()
        .map(|&(first, last)| (last - first) as usize + 1)
        .sum();
    let more = match missing.saturating_sub(named) {
        0 => String::new(),
        more => format!(" and {more} more"),
    };
    format!(
        "missing shards {}{more} ({missing} of {count})",
        shown.join(", ")
    )
}

/// The runs of indices below `count` that `seen` (in order, each once) lacks, each its first and
/// last index: the first [`RUNS_SHOWN`], and how many are missing in all. Reads only what was
/// seen, so a report's claim of billions of shards allocates nothing.
fn missing_runs(seen: impl ExactSizeIterator<Item = u32>, count: u32) -> (Vec<(u32, u32)>, usize) {
    let missing = count as usize - seen.len();
    let mut runs = Vec::new();
    let mut next = 0u32;
    for index in seen.chain(std::iter::once(count)) {
        if index > next && runs.len() < RUNS_SHOWN {
            runs.push((next, index - 1));
        }
        next = index.saturating_add(1);
    }
    (runs, missing)
}

/// Checks that `reports` (each with the name of its source) are every shard of one count exactly
/// once, intact and plausible, and sums them with overflow refused; a complete count of N ≤ 27
/// must also equal the published one.
pub fn merge(reports: &[(String, ShardReport)]) -> Result<Merged, MergeError> {
    let (first_name, first) = reports.first().ok_or(MergeError::Empty)?;
    // Indices seen, by report: never allocated by what a file claims.
    let mut seen: std::collections::BTreeMap<u32, &str> = std::collections::BTreeMap::new();
    let mut sum = Tally::default();
    for (name, report) in reports {
        let mismatch = |what, a, b| MergeError::mismatch(first_name, name, what, a, b);
        if report.n != first.n {
            return Err(mismatch("N", first.n.to_string(), report.n.to_string()));
        }
        if report.kernel_version != first.kernel_version {
            return Err(mismatch(
                "kernel version",
                first.kernel_version.to_string(),
                report.kernel_version.to_string(),
            ));
        }
        if report.fingerprint != first.fingerprint {
            return Err(mismatch(
                "split fingerprint",
                first.fingerprint.clone(),
                report.fingerprint.clone(),
            ));
        }
        if report.shards != first.shards || report.shard >= report.shards {
            return Err(mismatch(
                "shard count",
                first.shards.to_string(),
                format!("{}/{}", report.shard, report.shards),
            ));
        }
        if !report.is_intact() {
            return Err(MergeError::Damaged { file: name.clone() });
        }
        if let Some(earlier) = seen.insert(report.shard, name) {
            return Err(MergeError::Duplicate {
                shard: report.shard,
                count: report.shards,
                first: earlier.to_owned(),
                second: name.clone(),
            });
        }
        sum = integrity::add(sum, report.tally())
            .ok_or_else(|| MergeError::Overflow { file: name.clone() })?;
    }
    if seen.len() < first.shards as usize {
        let (runs, missing) = missing_runs(seen.keys().copied(), first.shards);
        return Err(MergeError::Missing {
            runs,
            missing,
            count: first.shards,
        });
    }
    if !integrity::plausible(&sum) {
        return Err(MergeError::Implausible {
            total: sum.total,
            fixed: sum.fixed,
        });
    }
    if let Some(contradiction) = integrity::contradiction(first.n, sum.total, sum.unique()) {
        return Err(MergeError::Contradicts(contradiction));
    }
    Ok(Merged {
        n: first.n,
        shards: first.shards,
        total: sum.total,
        unique: sum.unique(),
        nodes: sum.nodes,
        fingerprint: first.fingerprint.clone(),
        counted_on: places_of(reports),
    })
}

/// Checks shards counted again (`recounts`, on another device or engine, each intact and of the
/// same count) against the reports of a merged set: every recount must equal its shard's report
/// in solutions, symmetric solutions and nodes (the engines that share a split count alike,
/// node for node). Returns how many shards were recounted.
pub fn check_recounts(
    reports: &[(String, ShardReport)],
    recounts: &[(String, ShardReport)],
) -> Result<usize, MergeError> {
    let Some((first_name, first)) = reports.first() else {
        return Err(MergeError::Empty);
    };
    let by_shard: std::collections::BTreeMap<u32, &(String, ShardReport)> =
        reports.iter().map(|entry| (entry.1.shard, entry)).collect();
    let mut recounted = std::collections::BTreeSet::new();
    for (name, recount) in recounts {
        let mismatch = |what, a, b| MergeError::mismatch(first_name, name, what, a, b);
        if (recount.n, recount.shards) != (first.n, first.shards) {
            return Err(mismatch(
                "count",
                format!("N = {}, {} shards", first.n, first.shards),
                format!("N = {}, {} shards", recount.n, recount.shards),
            ));
        }
        if recount.fingerprint != first.fingerprint {
            return Err(mismatch(
                "split fingerprint",
                first.fingerprint.clone(),
                recount.fingerprint.clone(),
            ));
        }
        if !recount.is_intact() {
            return Err(MergeError::Damaged { file: name.clone() });
        }
        let Some((report_name, report)) = by_shard.get(&recount.shard) else {
            return Err(MergeError::Missing {
                runs: vec![(recount.shard, recount.shard)],
                missing: 1,
                count: first.shards,
            });
        };
        for (what, report_value, recount_value) in [
            ("solutions", report.total, recount.total),
            ("symmetric solutions", report.fixed, recount.fixed),
            ("nodes", report.nodes, recount.nodes),
        ] {
            if report_value != recount_value {
                return Err(MergeError::Recount {
                    shard: recount.shard,
                    count: first.shards,
                    report: report_name.clone(),
                    recount: name.clone(),
                    what,
                    report_value,
                    recount_value,
                    places: places(report.counted_on.as_deref(), recount.counted_on.as_deref())
                        .into(),
                });
            }
        }
        recounted.insert(recount.shard);
    }
    Ok(recounted.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `name` matches a shell pattern with one `*`.
    fn matches(pattern: &str, name: &str) -> bool {
        let (head, tail) = pattern.split_once('*').expect("one star");
        name.len() >= head.len() + tail.len() && name.starts_with(head) && name.ends_with(tail)
    }

    /// The missing shards' runs and the sentence that names them, for the indices in `seen`.
    fn missing(seen: &[u32], count: u32) -> (Vec<(u32, u32)>, String) {
        let (runs, all) = missing_runs(seen.iter().copied(), count);
        let sentence = missing_sentence(&runs, all, count);
        (runs, sentence)
    }

    #[test]
    fn missing_shards_are_named_as_runs() {
        assert_eq!(missing(&[0, 1, 3], 4).1, "missing shard 2 of 4");
        assert_eq!(
            missing(&[0, 1, 3], 200),
            (
                vec![(2, 2), (4, 199)],
                "missing shards 2, 4-199 (197 of 200)".to_owned()
            )
        );
        assert_eq!(missing(&[], 3).1, "missing shards 0-2 (3 of 3)");
        assert_eq!(missing(&[1], 3).1, "missing shards 0, 2 (2 of 3)");
        // Every other shard of 100: fifty runs, the first twelve named.
        let even: Vec<u32> = (0..100).step_by(2).collect();
        let (runs, sentence) = missing(&even, 100);
        assert_eq!(runs.len(), RUNS_SHOWN);
        assert_eq!(
            sentence,
            "missing shards 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23 and 38 more (50 of 100)"
        );
        // The last shard of four billion: one run, read from the one index seen.
        assert_eq!(
            missing(&[u32::MAX - 1], u32::MAX).1,
            format!(
                "missing shards 0-{} ({} of {})",
                u32::MAX - 2,
                u32::MAX - 1,
                u32::MAX
            )
        );
    }

    #[test]
    fn the_report_pattern_takes_every_shard_of_its_count_and_no_other() {
        let dir = Path::new("/counts/q21");
        for shard in (0..12).map(|index| Shard::new(index, 12).unwrap()) {
            let report = shard.report_file(dir);
            assert_eq!(report.parent(), Some(dir));
            let name = report.file_name().unwrap().to_str().unwrap();
            assert!(matches(&report_pattern(12), name), "{name}");
            assert!(!matches(&report_pattern(2), name), "{name}");
            for other in [shard.checkpoint_file(dir), shard.log_file(dir)] {
                let other = other.file_name().unwrap().to_str().unwrap().to_owned();
                assert!(!matches(&report_pattern(12), &other), "{other}");
            }
        }
        assert!(
            Shard::new(5, 12)
                .unwrap()
                .log_file(dir)
                .ends_with("shard-5-of-12.log")
        );
    }

    #[test]
    fn a_checkpoint_is_known_by_its_name() {
        let dir = Path::new("/counts/q21");
        for index in [0, 7, 11] {
            let file = Shard::new(index, 12).unwrap().checkpoint_file(dir);
            let name = file.file_name().unwrap().to_str().unwrap();
            assert_eq!(checkpoint_index(name, 12), Some(index), "{name}");
            assert_eq!(checkpoint_index(name, 120), None, "{name}");
        }
        for other in [
            "shard-3-of-12.json",
            "shard-12-of-12.checkpoint",
            "shard-+3-of-12.checkpoint",
            "shard--of-12.checkpoint",
            "shard-1-of-2-of-12.checkpoint",
            "xshard-3-of-12.checkpoint",
        ] {
            assert_eq!(checkpoint_index(other, 12), None, "{other}");
        }
    }

    #[test]
    fn where_a_report_was_counted_is_outside_its_numbers() {
        let plan = CountPlan::new(8).unwrap();
        let shard = Shard::new(1, 2).unwrap();
        let tally = Tally {
            total: 46,
            fixed: 4,
            nodes: 1000,
        };
        let unplaced = ShardReport::new(&plan, shard, tally);
        let placed = unplaced.clone().counted_on("node17, 64 threads");
        assert!(placed.is_intact());
        // A report of the shard wherever it was counted; not of another shard or count.
        assert!(placed.is_of(&plan, shard) && unplaced.is_of(&plan, shard));
        assert!(!placed.is_of(&plan, Shard::new(0, 2).unwrap()));
        assert!(!placed.is_of(&CountPlan::new(9).unwrap(), shard));
        let mut edited = placed.clone();
        edited.nodes += 1;
        assert!(
            !edited.is_of(&plan, shard),
            "its checksum no longer matches"
        );
        assert_eq!(placed.checksum, unplaced.checksum);
        // Written when known, and read back; a report from before it reads as before.
        let text = serde_json::to_string(&placed).unwrap();
        assert!(
            text.contains(r#""counted_on":"node17, 64 threads""#),
            "{text}"
        );
        let read: ShardReport = serde_json::from_str(&text).unwrap();
        assert_eq!(read, placed);
        let text = serde_json::to_string(&unplaced).unwrap();
        assert!(!text.contains("counted_on"), "{text}");
        assert_eq!(
            serde_json::from_str::<ShardReport>(&text).unwrap(),
            unplaced
        );
        // A recount that disagrees names both places, as far as each says.
        let mut other = tally;
        other.nodes += 1;
        let recount =
            ShardReport::new(&plan, shard, other).counted_on("node3, H100 at 0000:3b:00.0");
        let reports = [
            (
                "a.json".to_owned(),
                ShardReport::new(&plan, Shard::new(0, 2).unwrap(), tally),
            ),
            ("b.json".to_owned(), placed),
        ];
        let refused = check_recounts(&reports, &[("r.json".to_owned(), recount.clone())])
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains(
                "nodes 1000 vs 1001 (counted on node17, 64 threads, counted again on node3, H100 \
                 at 0000:3b:00.0)"
            ),
            "{refused}"
        );
        let reports = [reports[0].clone(), ("b.json".to_owned(), unplaced)];
        let refused = check_recounts(&reports, &[("r.json".to_owned(), recount)])
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("vs 1001 (counted again on node3"),
            "{refused}"
        );
        // A file's words are shown without a terminal's escapes or line breaks, and cut short.
        let hostile = format!("\u{1b}[2J\u{1b}[31mnode9\n{}", "x".repeat(1000));
        let shown = places(Some(&hostile), None);
        assert!(shown.starts_with(" (counted on [2J[31mnode9xxx"), "{shown}");
        assert!(!shown.chars().any(char::is_control), "{shown}");
        assert_eq!(shown.chars().count(), " (counted on )".len() + PLACE_SHOWN);
    }
}
