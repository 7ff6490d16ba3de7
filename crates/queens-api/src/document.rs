//! The JSON documents of the contracts (listed in the guide, `docs/cli.md` and `docs/http.md`),
//! one definition each, so that `queens solve --format json`, `queens count --json`,
//! `/api/solvers` and the Python module print the same.

use queens_core::verify::{Collision, PermutationCheck, PermutationReport, Verification};
use queens_core::words::counted;
use queens_core::{Outcome, Problem, QueenList, SolveError, Square, Verdict};
use queens_exact::count::shard::ShardReport;
use queens_exact::count::{CountResult, Tally};
use queens_gpu::DeviceInfo;
use serde::Serialize;

use crate::catalogue::SolverKind;

/// A solver's descriptor as `/api/solvers` and Python's `queens_workbench.solvers()` list it: name,
/// summary, explanation (with the default values), score, pseudo-code, unit, counts,
/// randomized, shapes and parameters, then the extensions `explanation_template` (the
/// explanation quoting each parameter as `{name}`, for a page that shows the values set),
/// `marks` (what its own marks on a watched board mean, or `null`) and `neighbourhood` (whether
/// its steps take the best single-queen move, whose neighbourhood `/api/neighbourhood` scores).
pub fn solver_document(solver: &SolverKind) -> serde_json::Value {
    serde_json::json!({
        "name": solver.name,
        "summary": solver.summary,
        "explanation": solver.explain(&solver.defaults()),
        "score": solver.score,
        "pseudo_code": solver.pseudo_code,
        "unit": solver.unit,
        "counts": solver.counts,
        "randomized": solver.randomized,
        "shapes": solver.shapes,
        "parameters": solver.parameters,
        "explanation_template": solver.explanation,
        "marks": solver.marks,
        "neighbourhood": solver.neighbourhood,
    })
}

/// A solve: `{"n", "rows", "cols", "solver", "seed", "solved", "queens", "iterations",
/// "nodes", "elapsed_ms"}` in that order, then the extensions `status`, `stop_reason`,
/// `queen_count`, `fixed` and `blocked`. Fields a solver does not track are `null`. `queens`
/// is the solution, or for a stopped run the board it ended on where the solver has one (a
/// local search's last position; `solved` says it is no solution), else `null`.
#[derive(Serialize)]
pub struct SolveDocument<'a> {
    n: Option<u32>,
    rows: u32,
    cols: u32,
    solver: &'static str,
    seed: Option<u64>,
    solved: bool,
    queens: Option<QueenList<'a>>,
    iterations: Option<u64>,
    nodes: Option<u64>,
    #[serde(serialize_with = "queens_core::figures::milliseconds")]
    elapsed_ms: f64,
    status: &'static str,
    stop_reason: Option<String>,
    /// Solutions found, where the solver counts them (the exhaustive searches).
    solutions: Option<u64>,
    queen_count: u32,
    fixed: &'a [Square],
    blocked: &'a [Square],
}

impl<'a> SolveDocument<'a> {
    /// The document of `solver`'s `outcome` on `problem`.
    pub fn new(problem: &'a Problem, solver: SolverKind, outcome: &'a Outcome) -> Self {
        SolveDocument {
            n: problem.side(),
            rows: problem.rows(),
            cols: problem.cols(),
            solver: solver.name(),
            seed: outcome.stats.seed,
            solved: outcome.solution().is_some(),
            queens: outcome.board().map(QueenList),
            iterations: outcome.stats.iterations,
            nodes: outcome.stats.nodes,
            solutions: outcome.stats.solutions,
            elapsed_ms: outcome.stats.elapsed.as_secs_f64() * 1e3,
            status: outcome.verdict.status(),
            stop_reason: match &outcome.verdict {
                Verdict::Stopped(reason) => Some(reason.to_string()),
                _ => None,
            },
            queen_count: problem.queens(),
            fixed: problem.fixed(),
            blocked: problem.blocked(),
        }
    }

    /// The same document with `queens` left `null`: for a caller who hands the queens over in
    /// another form (a million rows as bytes, not as JSON).
    #[must_use]
    pub fn without_queens(mut self) -> Self {
        self.queens = None;
        self
    }

    /// The same document with the stop told in the caller's terms (a server's event cap rather
    /// than "stopped by its observer").
    #[must_use]
    pub fn with_stop_reason(mut self, reason: String) -> Self {
        self.stop_reason = Some(reason);
        self
    }

    /// The document of a run that failed with `error` (status `error`, the reason in
    /// `stop_reason`): what a stream ends with when its run cannot end otherwise.
    pub fn failed(problem: &'a Problem, solver: SolverKind, error: &SolveError) -> Self {
        SolveDocument {
            n: problem.side(),
            rows: problem.rows(),
            cols: problem.cols(),
            solver: solver.name(),
            seed: None,
            solved: false,
            queens: None,
            iterations: None,
            nodes: None,
            solutions: None,
            elapsed_ms: 0.0,
            status: "error",
            stop_reason: Some(error.to_string()),
            queen_count: problem.queens(),
            fixed: problem.fixed(),
            blocked: problem.blocked(),
        }
    }
}

/// A document as a stream's event: `{"type": kind}` followed by the document's own fields
/// (the server's `/api/count` ends with `{"type": "finished"}` and the count document).
#[derive(Serialize)]
pub struct Typed<T> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    document: T,
}

impl<T: Serialize> Typed<T> {
    /// `document` as the event `kind`.
    pub fn new(kind: &'static str, document: T) -> Self {
        Typed { kind, document }
    }
}

/// The last event of a watched run's stream (`/api/solve`): `{"type": "finished"}`, the
/// [`SolveDocument`] of the run, then `events` (the lines streamed) and `sampled` (`{"from",
/// "every"}` once the stream went over to samples, else `null`).
#[derive(Serialize)]
pub struct FinishedEvent<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    solve: SolveDocument<'a>,
    events: u64,
    sampled: Option<Sampled>,
}

/// Where a streamed run went over to samples, and the rate it ended at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Sampled {
    /// The first iteration or node not streamed whole.
    pub from: u64,
    /// One step in `every` streamed at the end.
    pub every: u64,
}

impl<'a> FinishedEvent<'a> {
    /// The stream's last event for the run `solve` tells, after `events` lines.
    pub fn new(solve: SolveDocument<'a>, events: u64, sampled: Option<Sampled>) -> Self {
        FinishedEvent {
            kind: "finished",
            solve,
            events,
            sampled,
        }
    }
}

/// How far a stopped run got: `{"stop_reason", "finished", "parts"}`, beside the figures it
/// had (a lower bound of what the whole run would give).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Partial {
    /// Why it stopped: the time limit, Ctrl-C, a client that left.
    pub stop_reason: String,
    /// Parts finished.
    pub finished: usize,
    /// Parts in all.
    pub parts: usize,
}

/// Whether a run finished: `"complete": true`, or `false` followed by its [`Partial`] fields.
/// Every count document ends with it, in the CLI's `--json`, the server's last event and
/// Python's `to_dict()` alike.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Completeness {
    complete: bool,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    partial: Option<Partial>,
}

impl Completeness {
    /// A run that finished all its parts.
    pub fn complete() -> Self {
        Completeness {
            complete: true,
            partial: None,
        }
    }

    /// A run that stopped for `stop_reason` with `finished` of its `parts` done, or, with no
    /// reason, one that finished.
    pub fn of(stop_reason: Option<impl std::fmt::Display>, finished: usize, parts: usize) -> Self {
        match stop_reason {
            None => Completeness::complete(),
            Some(reason) => Completeness {
                complete: false,
                partial: Some(Partial {
                    stop_reason: reason.to_string(),
                    finished,
                    parts,
                }),
            },
        }
    }

    /// Whether the run finished.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// How far a stopped run got.
    pub fn partial(&self) -> Option<&Partial> {
        self.partial.as_ref()
    }
}

/// A count: `{"n", "total", "unique", "threads", "elapsed_ms", "nodes", "subproblems",
/// "engine"}`, `"device"` for the GPU engine, `"counted_on"` where said
/// ([`with_places`](Self::with_places)), then `"complete"` and, for a stopped count, its
/// [`Partial`] fields. A stopped count's `total` is what its finished parts counted and its
/// `unique` is `null` (the unique count needs every part).
#[derive(Serialize)]
pub struct CountDocument {
    /// Board side.
    pub n: u32,
    /// All solutions (of the finished parts, for a stopped count).
    pub total: u128,
    /// Solutions up to rotation and reflection; `None` for a stopped count.
    pub unique: Option<u128>,
    /// Worker threads.
    pub threads: usize,
    /// Wall time.
    #[serde(serialize_with = "queens_core::figures::milliseconds")]
    pub elapsed_ms: f64,
    /// Nodes searched.
    pub nodes: u128,
    /// Parts counted (subproblems or pieces).
    pub subproblems: usize,
    /// The engine that counted: `backtracking`, `join` or `gpu`.
    pub engine: &'static str,
    /// The GPU that counted (its name), for the `gpu` engine.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
    /// Where its finished parts were counted, as a shard's report says it: this run's place
    /// and, for a count resumed from a checkpoint, those of the runs before it ("node-a, 64
    /// threads (backtracking engine); then node-b, … (gpu engine)").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counted_on: Option<String>,
    /// Whether it finished, and if not how far it got.
    #[serde(flatten)]
    pub end: Completeness,
}

impl CountDocument {
    /// The document of a count that ended as `end` says.
    pub fn new(
        n: u32,
        tally: Tally,
        threads: usize,
        elapsed_ms: f64,
        subproblems: usize,
        engine: &'static str,
        end: Completeness,
    ) -> Self {
        CountDocument {
            n,
            total: tally.total,
            unique: end.is_complete().then(|| tally.unique()),
            threads,
            elapsed_ms,
            nodes: tally.nodes,
            subproblems,
            engine,
            device: None,
            counted_on: None,
            end,
        }
    }

    /// The document of a count job's `result` on `threads` by `engine`: finished when every
    /// part was, else stopped for the result's reason (its stop, or the failed save that stopped
    /// it).
    pub fn of_result(n: u32, result: &CountResult, threads: usize, engine: &'static str) -> Self {
        let reason = (!result.is_complete()).then(|| {
            result
                .stopped
                .map(|stop| stop.to_string())
                .or_else(|| result.save_failure.clone())
                .unwrap_or_else(|| "stopped".to_owned())
        });
        CountDocument::new(
            n,
            result.tally,
            threads,
            result.elapsed.as_secs_f64() * 1e3,
            result.subproblems,
            engine,
            Completeness::of(reason, result.finished, result.subproblems),
        )
    }

    /// A stopped count's reason said otherwise (the command line names the failed save that
    /// `--on-save-failure stop` stopped on); a finished count is left as it is.
    #[must_use]
    pub fn stopped_for(mut self, reason: impl std::fmt::Display) -> Self {
        if let Some(partial) = &mut self.end.partial {
            partial.stop_reason = reason.to_string();
        }
        self
    }

    /// Naming the GPU that counted.
    #[must_use]
    pub fn on_device(mut self, device: Option<String>) -> Self {
        self.device = device;
        self
    }

    /// Saying where `result`'s parts were counted ([`CountResult::counted_on`]), as the command
    /// line and Python do. The server leaves it out: its clients need not learn its host's name.
    #[must_use]
    pub fn with_places(mut self, result: &CountResult) -> Self {
        self.counted_on = result.counted_on();
        self
    }
}

/// What a count ran on: a GPU by its name and PCI address (which tells apart a node's GPUs of one
/// name), as "NVIDIA H100 80GB HBM3 at 0000:3b:00.0", or the CPU's threads, "64 threads".
pub fn counted_on(device: Option<&DeviceInfo>, threads: usize) -> String {
    match device {
        Some(device) => match &device.pci_bus {
            Some(bus) => format!("{} at {bus}", device.name),
            None => device.name.clone(),
        },
        None => counted(threads, "thread", "threads"),
    }
}

/// `count --shard I/M`'s document: the shard's report (what `queens merge` reads) with the
/// run's own figures, `threads` and `elapsed_ms`, and its [`Completeness`]. `queens merge`
/// refuses a shard that did not finish.
#[derive(Serialize)]
pub struct ShardDocument {
    /// The report.
    #[serde(flatten)]
    pub report: ShardReport,
    /// Worker threads.
    pub threads: usize,
    /// Wall time.
    #[serde(serialize_with = "queens_core::figures::milliseconds")]
    pub elapsed_ms: f64,
    /// Whether the shard finished.
    #[serde(flatten)]
    pub end: Completeness,
}

/// What the validator says about a board, as `queens verify --json` prints it and Python's
/// `verify` reads it: `{"rows", "cols", "queens", "expected", "valid", "peaceful", "missing",
/// "conflict_count", "conflicts": [{"a", "b", "line"}], "conflicts_truncated", "collisions",
/// "first_collisions": [{"queen", "line"}]}`. `collisions` means one thing however the board was
/// read: for every line, its queens after the first (see [`queens_core::verify`]), and
/// `first_collisions` lists the first ten of them in the order a column-by-column reading finds
/// them.
///
/// A board held in memory lists its first attacking pairs (at most the limit) and counts them
/// all exactly; a permutation checked as it streamed (too long to hold) knows only its
/// collisions, so its `conflicts` are empty and its
/// `conflict_count` is `null` — or 0 when there was no collision, since then no two queens
/// share a line. The pairs are written as they are serialized, never collected.
#[derive(Serialize)]
pub struct VerifyDocument<'a> {
    rows: u32,
    cols: u32,
    queens: u64,
    expected: u64,
    valid: bool,
    peaceful: bool,
    missing: u64,
    conflict_count: Option<u64>,
    conflicts: Pairs<'a>,
    conflicts_truncated: bool,
    collisions: u64,
    first_collisions: Collisions<'a>,
    /// Fixed squares of the board's problem without a queen (left out when none).
    #[serde(skip_serializing_if = "<[Square]>::is_empty")]
    unfixed: &'a [Square],
    /// Queens on blocked squares of the board's problem (left out when none).
    #[serde(skip_serializing_if = "<[Square]>::is_empty")]
    on_blocked: &'a [Square],
}

impl<'a> VerifyDocument<'a> {
    /// The findings on a `rows`×`cols` board, listing at most `limit` attacking pairs and, as a
    /// streamed check does, the first [`PermutationCheck::KEPT`] collisions.
    pub fn of_board(rows: u32, cols: u32, report: &'a Verification, limit: usize) -> Self {
        VerifyDocument {
            rows,
            cols,
            queens: report.queen_count() as u64,
            expected: report.expected() as u64,
            valid: report.is_solution(),
            peaceful: report.is_peaceful(),
            missing: report.missing() as u64,
            conflict_count: Some(report.conflict_count()),
            conflicts: Pairs(Some((report, limit))),
            conflicts_truncated: report.conflict_count() > limit as u64,
            collisions: report.collisions(),
            first_collisions: Collisions::Held(report, PermutationCheck::KEPT),
            unfixed: report.unfixed(),
            on_blocked: report.on_blocked(),
        }
    }

    /// The findings on a permutation checked as it streamed.
    pub fn streamed(report: &'a PermutationReport) -> Self {
        VerifyDocument {
            rows: report.n,
            cols: report.n,
            queens: report.queens,
            expected: u64::from(report.n),
            valid: report.is_solution(),
            peaceful: report.collisions == 0,
            missing: report.missing(),
            conflict_count: (report.collisions == 0).then_some(0),
            conflicts: Pairs(None),
            conflicts_truncated: report.collisions > 0,
            collisions: report.collisions,
            first_collisions: Collisions::Streamed(&report.first_collisions),
            unfixed: &[],
            on_blocked: &[],
        }
    }
}

/// The first attacking pairs of a report, serialized one by one.
struct Pairs<'a>(Option<(&'a Verification, usize)>);

impl Serialize for Pairs<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let pairs = self
            .0
            .into_iter()
            .flat_map(|(report, limit)| report.conflicts().take(limit));
        serializer.collect_seq(pairs)
    }
}

/// The first collisions: of a held board (its crowded lines' queens after the first), or as a
/// stream found them.
enum Collisions<'a> {
    Held(&'a Verification, usize),
    Streamed(&'a [Collision]),
}

impl Serialize for Collisions<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Collisions::Held(report, limit) => {
                serializer.collect_seq(report.first_collisions(*limit))
            }
            Collisions::Streamed(collisions) => serializer.collect_seq(collisions.iter()),
        }
    }
}

/// An error as the JSON of every front end says it: `{"error": "..."}`, a server's 4xx or 5xx
/// body, and with [`Typed`] a stream's `{"type": "error", "error"}` event.
#[derive(Serialize)]
pub struct ErrorDocument {
    error: String,
}

impl ErrorDocument {
    /// The document of `message` as users are told it ([`queens_core::error::for_users`]): a
    /// megabyte-long token cut to its excerpt, an OS error's number dropped.
    pub fn new(message: impl std::fmt::Display) -> Self {
        let error = message.to_string();
        ErrorDocument {
            error: match queens_core::error::for_users(&error) {
                std::borrow::Cow::Borrowed(_) => error,
                std::borrow::Cow::Owned(clipped) => clipped,
            },
        }
    }

    /// As a stream's last event: `{"type": "error", "error"}`.
    pub fn event(message: impl std::fmt::Display) -> String {
        serde_json::to_string(&Typed::new("error", ErrorDocument::new(message)))
            .expect("a document serializes")
    }

    /// As JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a document serializes")
    }
}

/// The completions of a position, as `queens count --json` prints them for `--fix`, `--block`
/// or `--instance`: `{"n", "fixed", "blocked", "completions", "nodes", "symmetries", "threads",
/// "elapsed_ms", "engine"}` (`engine` is `completion`, or `backtracking` for the row-by-row
/// count), then its [`Completeness`] (a stopped count's `completions` are a lower bound).
#[derive(Serialize)]
pub struct CompletionCountDocument<'a> {
    n: u32,
    fixed: &'a [Square],
    blocked: &'a [Square],
    completions: u128,
    nodes: u64,
    symmetries: usize,
    threads: usize,
    #[serde(serialize_with = "queens_core::figures::milliseconds")]
    elapsed_ms: f64,
    engine: &'static str,
    #[serde(flatten)]
    end: Completeness,
}

impl<'a> CompletionCountDocument<'a> {
    /// The document of a `count` of `problem` by `engine` (`completion`, or `backtracking` for
    /// the row-by-row count), complete or stopped as the count says.
    pub fn new(
        problem: &'a Problem,
        count: &queens_exact::completion::CompletionCount,
        engine: &'static str,
        threads: usize,
        elapsed: std::time::Duration,
    ) -> Self {
        CompletionCountDocument {
            n: problem.rows(),
            fixed: problem.fixed(),
            blocked: problem.blocked(),
            completions: count.counted.completions,
            nodes: count.counted.nodes,
            symmetries: count.symmetries,
            threads,
            elapsed_ms: elapsed.as_secs_f64() * 1e3,
            engine,
            end: Completeness::of(count.stopped, count.finished, count.parts),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorDocument;

    #[test]
    fn an_error_document_tells_an_os_error_in_words() {
        let error = format!("cannot read x: {}", std::io::Error::from_raw_os_error(2));
        assert_eq!(
            ErrorDocument::event(error),
            r#"{"type":"error","error":"cannot read x: No such file or directory"}"#
        );
    }
}
