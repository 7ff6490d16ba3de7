//! `queens solve`: one solution, printed as a diagram, a permutation, JSON or a summary line.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::ValueEnum;
use queens_api::bounds::Bounds;
use queens_api::document::SolveDocument;
use queens_api::every::every_solution;
use queens_api::request::Streamed;
use queens_api::{Catalogue, SolveRequest, SolveSpec, SolverKind};
use queens_core::notation::{self};
use queens_core::{Outcome, Problem, StopReason, Verdict};
use queens_io::files::StagedFile;
use queens_io::streams::{GatedWriter, StopRule};

use crate::args::{Format, SolveArgs};
use crate::commands::listing::{Listed, Listing};
use crate::commands::{Written, interrupt_token, parse_setting, stop_rule};
use crate::exit::Exit;
use crate::output::{Held, Named, stderr};
use crate::progress::Spinner;
use crate::trace::TraceWriter;

/// The widest board drawn as a text diagram.
const TEXT_MAX_SIDE: u32 = 1000;

/// The most queens written as JSON (about 25 bytes a queen).
const JSON_MAX_QUEENS: u32 = 10_000_000;

/// A validated `solve` command: the request, and where its answer goes.
#[derive(Debug)]
pub struct SolveConfig {
    pub request: SolveRequest,
    pub format: Format,
    /// A text board's rank numbers and file letters.
    pub labels: bool,
    pub trace: Option<PathBuf>,
    pub output: Option<PathBuf>,
    /// A board too large to read on a terminal, summarised there instead of written out: the
    /// rows go to `-o FILE` or a pipe.
    pub rows_withheld: bool,
    /// `--all` (and `--unique`): the solutions written as they are found ([`listing`]).
    pub listed: Option<Listed>,
}

impl SolveConfig {
    /// Checks every flag; the first problem found is the error.
    pub fn from_args(args: SolveArgs) -> anyhow::Result<Self> {
        let instance = args.position.board.instance.as_deref();
        let outputs: Vec<Written<'_>> = [
            ("-o", "the answer", args.output.as_deref()),
            ("--trace", "the trace", args.trace.as_deref()),
        ]
        .into_iter()
        .filter_map(|(flag, holds, path)| {
            Some(Written {
                flag,
                holds,
                path: path?,
            })
        })
        .collect();
        let inputs: Vec<(&str, &Path)> = instance
            .map(|path| ("the --instance file", path))
            .into_iter()
            .collect();
        super::refuse_overlapping_files(&inputs, &outputs)?;
        let position = args.position.read(queens_core::side::ANY_BOARD)?;
        let (rows, cols) = (position.rows, position.cols);
        let mut params = args
            .sets
            .iter()
            .map(|set| parse_setting(set))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let queens = args.queen_count.or(position.queens);
        if args.unique && params.iter().any(|(name, _)| name == "solutions") {
            anyhow::bail!(
                "--unique lists the least of each kind among every solution, so the search must \
                 see them all: it takes no --set solutions=K"
            );
        }
        let solver = if args.all {
            let solver = every_solution(args.solver.as_deref(), rows, cols, queens, &mut params)?;
            Some(solver.name().to_owned())
        } else {
            args.solver
        };
        let spec = SolveSpec {
            rows,
            cols,
            queen_count: queens,
            fixed: position.fixed,
            blocked: position.blocked,
            solver,
            seed: Some(args.seed),
            params,
            bounds: Bounds {
                time_limit: args.time_limit,
                max_nodes: args.max_nodes,
                threads: None,
            },
            max_iterations: args.max_iters,
        };
        let asked = if args.json {
            Some(Format::Json)
        } else {
            args.format
        };
        let format = match asked {
            Some(Format::Text) if rows.max(cols) > TEXT_MAX_SIDE => anyhow::bail!(
                "a text diagram is for boards up to {TEXT_MAX_SIDE} wide: use --format perm or summary"
            ),
            Some(Format::Json) if rows.min(cols) > JSON_MAX_QUEENS => anyhow::bail!(
                "--format json writes boards of up to {JSON_MAX_QUEENS} queens (25 bytes each): use --format perm or summary"
            ),
            Some(format) => format,
            None if rows.max(cols) > TEXT_MAX_SIDE
                && rows_reach_a_terminal(args.output.as_ref()) =>
            {
                Format::Summary
            }
            None if rows.max(cols) > TEXT_MAX_SIDE => Format::Perm,
            None => Format::Text,
        };
        if args.no_labels && format != Format::Text {
            anyhow::bail!(
                "--no-labels is for text boards, and this answer is {}",
                format_name(format)
            );
        }
        let rows_withheld = asked.is_none() && format == Format::Summary;
        let request = SolveRequest::new(Catalogue::standard(), spec)?;
        Ok(SolveConfig {
            request,
            format,
            labels: !args.no_labels,
            trace: args.trace,
            output: args.output,
            rows_withheld,
            listed: match (args.all, args.unique) {
                (false, _) => None,
                (true, false) => Some(Listed::Every),
                (true, true) => Some(Listed::LeastOfEachKind),
            },
        })
    }

    /// The answer streams from the construction without holding the board.
    fn streams(&self) -> bool {
        self.request.streams()
            && matches!(self.format, Format::Perm | Format::Summary)
            && self.trace.is_none()
    }
}

/// The longest answer held whole for standard output until it ends, so that where it cannot be
/// written it goes to standard error instead: a board of about 150,000 queens in `--format
/// perm`, as much as the buffer before standard output holds anyway. A longer one is written
/// as it comes.
const HELD_ANSWER_BYTES: usize = 1 << 20;

/// Where the answer goes: standard output, or the `--output` file, which is replaced only by a
/// whole answer (a run without one leaves an existing file as it was). Either holds an answer
/// of up to [`HELD_ANSWER_BYTES`] whole until it ends, to give it to standard error where it is
/// refused (see [`Held`]).
enum Output {
    Stdout(Held<BufWriter<Named<GatedWriter<io::StdoutLock<'static>>>>>),
    File(Held<StagedFile>),
}

impl Output {
    /// Opens the output; one nobody reads gives up once `stop` says the run is stopped.
    fn open(path: Option<&std::path::Path>, stop: &StopRule) -> anyhow::Result<Output> {
        Ok(match path {
            Some(path) => Output::File(Held::new(
                StagedFile::create_with(path, stop)?,
                path.display().to_string(),
                HELD_ANSWER_BYTES,
            )),
            None => Output::Stdout(Held::new(
                BufWriter::with_capacity(
                    1 << 20,
                    Named::new(
                        GatedWriter::new(io::stdout().lock(), stop.clone(), "standard output"),
                        "standard output",
                    ),
                ),
                "standard output",
                HELD_ANSWER_BYTES,
            )),
        })
    }

    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Output::Stdout(out) => out,
            Output::File(file) => file,
        }
    }

    /// What the output is, and whether a refusal of the answer is settled already (see
    /// [`Held::settled`]).
    fn refusal(&self) -> (String, bool) {
        match self {
            Output::Stdout(out) => (out.what().to_owned(), out.settled()),
            Output::File(file) => (file.what().to_owned(), file.settled()),
        }
    }

    /// Ends the output: a file is put in place when `complete`, and otherwise discarded.
    fn finish(self, complete: bool) -> anyhow::Result<()> {
        match self {
            Output::Stdout(mut out) => Ok(out.flush()?),
            Output::File(mut file) if complete => {
                file.flush()?;
                Ok(file.into_inner().commit()?)
            }
            Output::File(_) => Ok(()),
        }
    }
}

/// Whether rows written to `output` (standard output when `None`) would fill a terminal.
fn rows_reach_a_terminal(output: Option<&PathBuf>) -> bool {
    use std::io::IsTerminal;
    output.is_none() && io::stdout().is_terminal()
}

/// Where the rows of a board summarised on a terminal can be had, on stderr.
fn say_where_the_rows_go(config: &SolveConfig) {
    if config.rows_withheld {
        let problem = &config.request.problem;
        stderr!(
            "the {}×{} board's rows are not written to a terminal: add -o FILE, pipe them \
             (| queens verify), or ask for them here with --format perm",
            problem.rows(),
            problem.cols()
        );
    }
}

/// Runs `queens solve`.
pub fn run(args: SolveArgs) -> anyhow::Result<Exit> {
    let config = SolveConfig::from_args(args)?;
    // The time limit counts from here: opening the outputs and setting up are part of it.
    let mut budget = config.request.budget(interrupt_token());
    let stop = stop_rule(&budget);
    let mut out = Output::open(config.output.as_deref(), &stop)?;
    if config.streams() {
        let (exit, complete) = stream(&config, &budget, out.writer())?;
        out.finish(complete)?;
        say_where_the_rows_go(&config);
        return Ok(exit);
    }
    let request = &config.request;
    let trace = config
        .trace
        .as_deref()
        .map(|path| TraceWriter::create(path, &stop))
        .transpose()?;
    // A local search counts iterations, a tree search nodes: its steps stop at that cap.
    let cap = request.max_iterations.or(request.bounds.max_nodes());
    let listing = config.listed.map(|listed| {
        Listing::new(
            &request.problem,
            config.format,
            config.labels,
            listed,
            out.writer(),
        )
    });
    let mut observer = (trace, (Spinner::new(request.solver.name(), cap), listing));
    let outcome = request.run(&mut budget, &mut observer)?;
    let (trace, (spinner, listing)) = observer;
    let kinds = listing
        .as_ref()
        .and_then(Listing::kinds)
        .map(|kinds| (kinds.listed(), kinds.up_to()));
    if let Some(failure) = listing.and_then(Listing::failure) {
        return Err(failure);
    }
    if let Some(trace) = trace {
        trace.finish()?;
    }
    if matches!(outcome.verdict, Verdict::Stopped(_))
        && let Some(preparation) = spinner.preparation().filter(|p| !p.over)
    {
        stderr!("{}", preparation.stopped_sentence());
    }
    let printed = write_answer(&config, &outcome, out.writer(), &stop);
    if matches!(config.format, Format::Text | Format::Perm)
        && let Some(sentence) = solutions_found(
            &request.params,
            &outcome,
            config.listed.is_some(),
            kinds.as_ref(),
        )
    {
        stderr!("{sentence}");
    }
    let (what, settled) = out.refusal();
    if let Err(error) = printed {
        if !stopped_writing(&error) {
            if !settled {
                keep_on_stderr(&config, &outcome, &what, &error);
            }
            return Err(error);
        }
        let left = match config.output.as_deref() {
            Some(path) => format!("{} is left as it was", path.display()),
            None => "the answer written is incomplete".to_owned(),
        };
        stderr!("stopped while writing the answer (interrupted or out of time): {left}");
        out.finish(false)?;
        return Ok(Exit::NoAnswer);
    }
    // A document (JSON, summary) is whole either way; a board only when there is one; a
    // listing with what it found.
    let complete = matches!(config.format, Format::Json | Format::Summary)
        || outcome.solution().is_some()
        || config.listed.is_some();
    if let Err(error) = out.finish(complete) {
        keep_on_stderr(&config, &outcome, &what, &error);
        return Err(error);
    }
    say_where_the_rows_go(&config);
    Ok(match outcome.verdict {
        Verdict::Solved(_) => Exit::Success,
        Verdict::Unsolvable | Verdict::Stopped(_) => Exit::NoAnswer,
    })
}

/// Writes the run's answer to `out`: its board (unless a listing wrote them), its document or
/// its summary, or, on standard error, why there is none. Writing a board can take a minute,
/// and a stop ends it; what says how the run ended (a summary, or a document without a board)
/// is written whatever stopped the run.
fn write_answer(
    config: &SolveConfig,
    outcome: &Outcome,
    out: &mut dyn Write,
    stop: &StopRule,
) -> anyhow::Result<()> {
    let writes_board = outcome.solution().is_some() && config.format != Format::Summary;
    if config.listed.is_some() {
        // A listing goes before what is said of it (one held is delivered here); its boards
        // are the answer's.
        out.flush()?;
        if writes_board && matches!(config.format, Format::Text | Format::Perm) {
            return Ok(());
        }
    }
    let mut writer = BufWriter::with_capacity(
        1 << 20,
        StopsWriting {
            inner: out,
            stop: if writes_board {
                stop.clone()
            } else {
                queens_io::streams::never()
            },
        },
    );
    print_answer(config, outcome, &mut writer)
}

/// [`print`]s the run's answer as `config` asks for it.
fn print_answer(
    config: &SolveConfig,
    outcome: &Outcome,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let request = &config.request;
    print(
        &request.problem,
        request.solver,
        outcome,
        config.format,
        config.labels,
        out,
    )
}

/// Where `what` (standard output, the `-o` file) failed with `error` on an answer it was not
/// holding (a board over [`HELD_ANSWER_BYTES`], written through as it came, or a file that
/// failed as it was put in place), the answer again, whole, on standard error under the line
/// that says so: the solution is still here, and a search of minutes is not lost with a full
/// disk. A listing's boards were written as they were found and are not kept; a closed pipe
/// is the reader's choice.
fn keep_on_stderr(config: &SolveConfig, outcome: &Outcome, what: &str, error: &anyhow::Error) {
    let no_answer =
        matches!(config.format, Format::Text | Format::Perm) && outcome.solution().is_none();
    if config.listed.is_some() || no_answer || crate::exit::is_broken_pipe(error) {
        return;
    }
    crate::output::keep_with(what, &mut BufWriter::new(io::stderr().lock()), |fallback| {
        print_answer(config, outcome, fallback).map_err(io::Error::other)
    });
}

/// Writes to `inner` until `stop` says the run is stopped, then fails with [`WritingStopped`]:
/// a board of a billion queens takes a minute to write, and Ctrl-C, SIGTERM or the time limit
/// end that too. Placed under a buffer, it looks at `stop` once a megabyte.
struct StopsWriting<'w> {
    inner: &'w mut dyn Write,
    stop: StopRule,
}

/// Why [`StopsWriting`] refused a write.
#[derive(Debug)]
struct WritingStopped;

impl std::fmt::Display for WritingStopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped while writing the answer")
    }
}

impl std::error::Error for WritingStopped {}

impl Write for StopsWriting<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if (self.stop)() {
            return Err(io::Error::other(WritingStopped));
        }
        self.inner.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        if (self.stop)() {
            return Err(io::Error::other(WritingStopped));
        }
        self.inner.flush()
    }
}

/// Whether `error` is [`StopsWriting`]'s refusal.
fn stopped_writing(error: &anyhow::Error) -> bool {
    error
        .downcast_ref::<io::Error>()
        .and_then(io::Error::get_ref)
        .is_some_and(<dyn std::error::Error + Send + Sync>::is::<WritingStopped>)
}

/// How the answer's format is named on the command line (`--format perm`).
fn format_name(format: Format) -> String {
    let value = format.to_possible_value().expect("every format is a value");
    format!("--format {}", value.get_name())
}

fn print(
    problem: &Problem,
    solver: SolverKind,
    outcome: &Outcome,
    format: Format,
    labels: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    match (format, &outcome.verdict) {
        (Format::Text | Format::Perm, Verdict::Solved(board)) => {
            write_board(board, format, labels, out)?;
        }
        (Format::Text | Format::Perm, verdict) => {
            stderr!("{}", describe_failure(verdict));
            if let Some(note) = no_proof(problem, solver, verdict) {
                stderr!("{note}");
            }
        }
        (Format::Json, _) => {
            serde_json::to_writer(&mut *out, &SolveDocument::new(problem, solver, outcome))?;
            writeln!(out)?;
        }
        (Format::Summary, _) => {
            let summary = Summary::of(problem, solver, outcome);
            writeln!(out, "{summary}")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Writes `board` as `format` shows a board: a permutation's line for `--format perm`, else a
/// diagram, with its rows' and columns' labels where `labels`.
pub(super) fn write_board(
    board: &queens_core::Board,
    format: Format,
    labels: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    match (format, labels) {
        (Format::Perm, _) => notation::write_perm(board, out),
        (_, true) => notation::write_labelled_text(board, out),
        (_, false) => notation::write_text(board, out),
    }
}

/// `construct` with `--format perm` or `summary`: rows are computed, checked and written column
/// by column, so that N = 10⁹ needs no board in memory — only the validator's bits.
fn stream(
    config: &SolveConfig,
    budget: &queens_core::Budget,
    out: &mut dyn Write,
) -> anyhow::Result<(Exit, bool)> {
    let started = Instant::now();
    let n = config.request.problem.rows();
    let mut budget = budget.clone();
    budget.start();
    let write = config.format == Format::Perm;
    let ended = config.request.stream(write.then_some(&mut *out), &budget)?;
    let elapsed = started.elapsed();
    let status = match ended {
        Streamed::Solved => "solved",
        Streamed::Unsolvable => "unsolvable",
        Streamed::Stopped(_) => "stopped",
    };
    if config.format == Format::Summary {
        let summary = Summary {
            size: n.to_string(),
            solver: config.request.solver,
            solved: ended == Streamed::Solved,
            status,
            nodes: None,
            iterations: None,
            solutions: None,
            elapsed,
        };
        writeln!(out, "{summary}")?;
    }
    out.flush()?;
    let complete = config.format == Format::Summary || ended == Streamed::Solved;
    match ended {
        Streamed::Solved => Ok((Exit::Success, complete)),
        Streamed::Unsolvable => {
            if config.format != Format::Summary {
                stderr!("no solution");
            }
            Ok((Exit::NoAnswer, complete))
        }
        Streamed::Stopped(reason) => {
            if write {
                out.write_all(b"\n")?;
                out.flush()?;
            }
            stderr!("{}", describe_failure(&Verdict::Stopped(reason)));
            Ok((Exit::NoAnswer, complete))
        }
    }
}

/// What a heuristic that stopped on a position cannot say: whether a completion exists.
fn no_proof(problem: &Problem, solver: SolverKind, verdict: &Verdict) -> Option<String> {
    let position = !problem.fixed().is_empty() || !problem.blocked().is_empty();
    let heuristic = solver.counts != queens_core::descriptor::Counts::Nodes;
    (position && heuristic && matches!(verdict, Verdict::Stopped(_))).then(|| {
        format!(
            "{} cannot prove that no completion exists; the completion search decides \
             positions on boards up to {n}×{n} (--solver completion)",
            solver.name(),
            n = queens_api::limits::LIMITS.completion_max_n
        )
    })
}

/// What a run asked for more than its first solution (`--set solutions=K`) found, in words
/// (`listed`: each was written, not the first alone); `None` for a run that wanted its first
/// only.
fn solutions_found(
    params: &queens_core::ParamValues,
    outcome: &Outcome,
    listed: bool,
    kinds: Option<&(u64, Option<String>)>,
) -> Option<String> {
    let wanted = params
        .value("solutions")
        .map(<u64 as queens_core::parameters::Value>::from_value)
        .filter(|&wanted| wanted != 1)?;
    let found = outcome.stats.solutions?;
    let plural = |count: u64| {
        let s = if count == 1 { "" } else { "s" };
        format!("{count} solution{s}")
    };
    let are = |count: u64| if count == 1 { "is" } else { "are" };
    let shown = match kinds {
        Some(&(listed, Some(ref up_to))) => format!(
            "the {listed} unique up to {up_to} {} listed, the least of each kind",
            are(listed)
        ),
        Some((_, None)) => "no turn or mirror of the board keeps the problem, so each is a kind \
                            of its own and is listed"
            .to_owned(),
        None if listed => "each is listed".to_owned(),
        None => "the first is shown".to_owned(),
    };
    Some(match outcome.verdict {
        // "no solution" is said already, once.
        Verdict::Unsolvable => return None,
        Verdict::Stopped(_) if listed && found > 0 => match kinds {
            Some(&(listed, Some(ref up_to))) => format!(
                "{} found before the search stopped; of them, the {listed} unique up to \
                 {up_to} {} listed",
                plural(found),
                are(listed)
            ),
            _ => format!(
                "{} found before the search stopped, each listed",
                plural(found)
            ),
        },
        Verdict::Stopped(_) => format!("{} found before the search stopped", plural(found)),
        Verdict::Solved(_) if wanted == 0 => {
            format!("{} in all, every one found; {shown}", plural(found))
        }
        Verdict::Solved(_) if found < wanted => format!(
            "{} in all, fewer than the {wanted} asked for; {shown}",
            plural(found)
        ),
        Verdict::Solved(_) => format!("{} found, as asked; {shown}", plural(found)),
    })
}

fn describe_failure(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Solved(_) => unreachable!("only failures are described"),
        Verdict::Unsolvable => "no solution".to_owned(),
        Verdict::Stopped(reason @ StopReason::NodeLimit(_)) => {
            format!("stopped: {reason}; raise --max-nodes to search further")
        }
        Verdict::Stopped(reason @ StopReason::IterationLimit(_)) => {
            format!("stopped: {reason}; raise --max-iters or try another --seed")
        }
        Verdict::Stopped(reason) => format!("stopped: {reason}"),
    }
}

/// `--format summary`: one line of `key=value` pairs, no board.
struct Summary {
    size: String,
    solver: SolverKind,
    solved: bool,
    status: &'static str,
    nodes: Option<u64>,
    iterations: Option<u64>,
    solutions: Option<u64>,
    elapsed: Duration,
}

impl Summary {
    fn of(problem: &Problem, solver: SolverKind, outcome: &Outcome) -> Self {
        Summary {
            size: problem.side().map_or_else(
                || format!("{}x{}", problem.rows(), problem.cols()),
                |n| n.to_string(),
            ),
            solver,
            solved: outcome.solution().is_some(),
            status: outcome.verdict.status(),
            nodes: outcome.stats.nodes,
            iterations: outcome.stats.iterations,
            solutions: outcome.stats.solutions,
            elapsed: outcome.stats.elapsed,
        }
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = |value: Option<u64>| value.map_or_else(|| "-".to_owned(), |v| v.to_string());
        write!(
            f,
            "n={} solver={} solved={} status={} nodes={} iterations={} solutions={} elapsed_ms={:.3}",
            self.size,
            self.solver,
            self.solved,
            self.status,
            count(self.nodes),
            count(self.iterations),
            count(self.solutions),
            self.elapsed.as_secs_f64() * 1e3,
        )
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;

    #[test]
    fn a_stop_ends_the_writing_of_a_board_and_is_told_apart() {
        let board = queens_core::Board::from_permutation((0..3_000_000).collect()).unwrap();
        let problem = Problem::square(3_000_000).unwrap();
        let solver = Catalogue::standard().get("construct").unwrap();
        let outcome = Outcome::new(Verdict::Solved(board));
        let stopped = Arc::new(AtomicBool::new(false));
        let mut sink = Vec::new();
        let written = {
            let flag = Arc::clone(&stopped);
            let mut calls = 0;
            let mut inner = std::io::sink();
            let counting: &mut dyn Write = &mut inner;
            let stop: StopRule = Arc::new(move || flag.load(Ordering::Relaxed));
            let mut buffered = BufWriter::with_capacity(
                1 << 16,
                StopsWriting {
                    inner: counting,
                    stop,
                },
            );
            // Raised after the first few writes.
            let mut tee = Tee {
                out: &mut buffered,
                copy: &mut sink,
                after: &mut calls,
                stopped: &stopped,
            };
            print(&problem, solver, &outcome, Format::Perm, false, &mut tee)
        };
        let error = written.unwrap_err();
        assert!(stopped_writing(&error), "{error}");
        assert!(
            sink.len() < 20_000_000,
            "it stopped early: {} bytes",
            sink.len()
        );
        // Any other failure is not a stop.
        assert!(!stopped_writing(&anyhow::Error::from(io::Error::other(
            "disk full"
        ))));
    }

    /// Passes writes on, raising `stopped` after ten of them.
    struct Tee<'a> {
        out: &'a mut dyn Write,
        copy: &'a mut Vec<u8>,
        after: &'a mut u32,
        stopped: &'a AtomicBool,
    }

    impl Write for Tee<'_> {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            *self.after += 1;
            if *self.after > 10 {
                self.stopped.store(true, Ordering::Relaxed);
            }
            let n = self.out.write(bytes)?;
            self.copy.extend_from_slice(&bytes[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            self.out.flush()
        }
    }
}
