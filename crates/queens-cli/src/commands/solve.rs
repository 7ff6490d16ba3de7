//! `queens solve`: one solution, printed as a diagram, a permutation, JSON or a summary line.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use queens_core::error::human_bytes;
use queens_core::notation::{self, parse_squares};
use queens_core::verify::PermutationCheck;
use queens_core::{Budget, Outcome, Problem, QueenList, Square, StopReason, Verdict, solve};
use serde::Serialize;

use crate::args::{Format, SolveArgs};
use crate::commands::{interrupt_flag, parse_size};
use crate::exit::Exit;
use crate::progress::Spinner;
use crate::trace::TraceWriter;
use queens_lab::{Settings, SolverKind};

/// The seed of randomized solvers when none is given.
const DEFAULT_SEED: u64 = 1;

/// The widest board drawn as a text diagram.
const TEXT_MAX_SIDE: u32 = 1000;

/// A validated `solve` request.
#[derive(Debug)]
pub struct SolveConfig {
    pub problem: Problem,
    pub solver: SolverKind,
    pub seed: u64,
    /// `--max-iters`, when given.
    pub max_iterations: Option<u64>,
    pub budget: Budget,
    pub format: Format,
    pub trace: Option<PathBuf>,
    pub output: Option<PathBuf>,
}

impl SolveConfig {
    /// Checks every flag; the first problem found is the error.
    pub fn from_args(args: SolveArgs) -> anyhow::Result<Self> {
        let (rows, cols) = parse_size(&args.size)?;
        let mut problem = Problem::rectangular(rows, cols)?;
        if let Some(count) = args.queen_count {
            problem = problem.with_queen_count(count)?;
        }
        if let Some(list) = &args.fix {
            problem = problem.with_fixed(parse_squares(list).context("in --fix")?)?;
        }
        let solver = match &args.solver {
            Some(name) => name.parse::<SolverKind>()?,
            None => SolverKind::best_for(&problem),
        };
        solver.check(&problem)?;
        let format = match args.format {
            Some(Format::Text) if rows.max(cols) > TEXT_MAX_SIDE => anyhow::bail!(
                "a text diagram is for boards up to {TEXT_MAX_SIDE} wide: use --format perm or summary"
            ),
            Some(format) => format,
            None if rows.max(cols) > TEXT_MAX_SIDE => Format::Perm,
            None => Format::Text,
        };
        let mut budget = Budget::unlimited().with_max_nodes(args.max_nodes);
        let default_iterations = (100 * u64::from(rows)).max(10_000_000);
        budget = budget.with_max_iterations(args.max_iters.unwrap_or(default_iterations));
        if let Some(seconds) = args.time_limit {
            let limit = Duration::try_from_secs_f64(seconds)
                .ok()
                .filter(|limit| !limit.is_zero())
                .with_context(|| {
                    format!("--time-limit must be a positive number of seconds, got {seconds}")
                })?;
            budget = budget.with_time_limit(limit);
        }
        Ok(SolveConfig {
            problem,
            solver,
            seed: args.seed.unwrap_or(DEFAULT_SEED),
            max_iterations: args.max_iters,
            budget,
            format,
            trace: args.trace,
            output: args.output,
        })
    }

    /// Refuses a run that cannot fit in this machine's available memory.
    fn check_memory(&self) -> anyhow::Result<()> {
        let n = u128::from(self.problem.rows().max(self.problem.cols()));
        // The solver's state, and the validator's bit per line (about 6 bits a queen).
        let needed = self.solver.memory_estimate(&self.problem) + n;
        if let Some(available) = available_memory()
            && needed > available
        {
            anyhow::bail!(
                "{} needs about {} for this board, but only {} of memory is available",
                self.solver,
                human_bytes(needed),
                human_bytes(available)
            );
        }
        Ok(())
    }

    /// The answer streams from the construction without holding the board.
    fn streams(&self) -> bool {
        self.solver == SolverKind::Construct
            && matches!(self.format, Format::Perm | Format::Summary)
            && self.trace.is_none()
    }
}

/// Memory available to a new process, from `/proc/meminfo` (Linux); `None` elsewhere.
fn available_memory() -> Option<u128> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u128 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Where the answer goes: standard output or the `--output` file.
fn open_output(path: Option<&std::path::Path>) -> anyhow::Result<Box<dyn Write>> {
    Ok(match path {
        Some(path) => Box::new(BufWriter::with_capacity(
            1 << 20,
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => Box::new(BufWriter::with_capacity(1 << 20, io::stdout().lock())),
    })
}

/// Runs `queens solve`.
pub fn run(args: SolveArgs) -> anyhow::Result<Exit> {
    let config = SolveConfig::from_args(args)?;
    config.check_memory()?;
    let mut out = open_output(config.output.as_deref())?;
    if config.streams() {
        return stream_construction(&config, &mut out);
    }
    let SolveConfig {
        problem,
        solver,
        seed,
        max_iterations,
        budget,
        format,
        trace,
        ..
    } = config;
    let mut budget = budget.with_cancel(interrupt_flag());
    let trace = trace.as_deref().map(TraceWriter::create).transpose()?;
    let mut observer = (trace, Spinner::new(solver.name()));
    let outcome = solve::run(
        solver
            .build(
                seed,
                &Settings {
                    max_iterations,
                    ..Settings::default()
                },
            )
            .as_mut(),
        &problem,
        &mut budget,
        &mut observer,
    )?;
    if let Some(trace) = observer.0 {
        trace.finish()?;
    }
    print(&problem, solver, &outcome, format, &mut out)?;
    Ok(match outcome.verdict {
        Verdict::Solved(_) => Exit::Success,
        Verdict::Unsolvable | Verdict::Stopped(_) => Exit::NoAnswer,
    })
}

fn print(
    problem: &Problem,
    solver: SolverKind,
    outcome: &Outcome,
    format: Format,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    match (format, &outcome.verdict) {
        (Format::Text, Verdict::Solved(board)) => notation::write_text(board, out)?,
        (Format::Perm, Verdict::Solved(board)) => notation::write_perm(board, out)?,
        (Format::Text | Format::Perm, verdict) => eprintln!("{}", describe_failure(verdict)),
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

/// `construct` with `--format perm` or `summary`: rows are computed, checked and written column
/// by column, so that N = 10⁹ needs no board in memory — only the validator's bits.
fn stream_construction(config: &SolveConfig, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let started = Instant::now();
    let n = config.problem.rows();
    let solved = if let Some(rows) = queens_heuristic::construction(n) {
        let mut check = PermutationCheck::default();
        let mut digits = itoa::Buffer::new();
        let write = config.format == Format::Perm;
        for (col, row) in rows.enumerate() {
            check.push(Some(row))?;
            if write {
                if col > 0 {
                    out.write_all(b" ")?;
                }
                out.write_all(digits.format(row).as_bytes())?;
            }
        }
        if write {
            out.write_all(b"\n")?;
        }
        let report = check.finish()?;
        anyhow::ensure!(
            report.is_solution(),
            "construct produced an invalid board for N = {n}: a bug, please report it"
        );
        true
    } else {
        false
    };
    let elapsed = started.elapsed();
    if config.format == Format::Summary {
        let summary = Summary {
            size: n.to_string(),
            solver: SolverKind::Construct,
            solved,
            status: if solved { "solved" } else { "unsolvable" },
            nodes: None,
            iterations: None,
            elapsed,
        };
        writeln!(out, "{summary}")?;
    } else if !solved {
        eprintln!("no solution");
    }
    out.flush()?;
    Ok(if solved {
        Exit::Success
    } else {
        Exit::NoAnswer
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

/// The contract: `{"n", "rows", "cols", "solver", "seed", "solved", "queens", "iterations",
/// "nodes", "elapsed_ms"}` in that order, then the extensions `status`, `stop_reason`,
/// `queen_count` and `fixed`. Fields a solver does not track are `null`.
#[derive(Serialize)]
struct SolveDocument<'a> {
    n: Option<u32>,
    rows: u32,
    cols: u32,
    solver: &'static str,
    seed: Option<u64>,
    solved: bool,
    queens: Option<QueenList<'a>>,
    iterations: Option<u64>,
    nodes: Option<u64>,
    elapsed_ms: f64,
    status: &'static str,
    stop_reason: Option<String>,
    queen_count: u32,
    fixed: &'a [Square],
}

impl<'a> SolveDocument<'a> {
    fn new(problem: &'a Problem, solver: SolverKind, outcome: &'a Outcome) -> Self {
        SolveDocument {
            n: problem.side(),
            rows: problem.rows(),
            cols: problem.cols(),
            solver: solver.name(),
            seed: outcome.stats.seed,
            solved: outcome.solution().is_some(),
            queens: outcome.solution().map(QueenList),
            iterations: outcome.stats.iterations,
            nodes: outcome.stats.nodes,
            elapsed_ms: outcome.stats.elapsed.as_secs_f64() * 1e3,
            status: outcome.verdict.status(),
            stop_reason: match &outcome.verdict {
                Verdict::Stopped(reason) => Some(reason.to_string()),
                _ => None,
            },
            queen_count: problem.queens(),
            fixed: problem.fixed(),
        }
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
            elapsed: outcome.stats.elapsed,
        }
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = |value: Option<u64>| value.map_or_else(|| "-".to_owned(), |v| v.to_string());
        write!(
            f,
            "n={} solver={} solved={} status={} nodes={} iterations={} elapsed_ms={:.3}",
            self.size,
            self.solver,
            self.solved,
            self.status,
            count(self.nodes),
            count(self.iterations),
            self.elapsed.as_secs_f64() * 1e3,
        )
    }
}
