//! `queens count` of a position: the completions of placed queens (`--fix`), blocked squares
//! (`--block`) or an n-Queens Completion instance (`--instance`), counted by the completion
//! search on all cores.

use std::io::{self, Write};
use std::time::Instant;

use anyhow::bail;
use queens_api::document::CompletionCountDocument;
use queens_core::Problem;
use queens_core::words::counted;
use queens_exact::completion::{self, MAX_N, Method};

use crate::args::{CountArgs, EngineChoice};
use crate::commands::command_budget;
use crate::commands::position::square_side;
use crate::exit::Exit;
use crate::progress;

/// Whether `args` ask for the completions of a position rather than the whole count.
pub fn wanted(args: &CountArgs) -> bool {
    let position = &args.position;
    position.board.instance.is_some() || position.fix.is_some() || position.board.block.is_some()
}

/// Runs `queens count` of a position.
pub fn run(args: &CountArgs) -> anyhow::Result<Exit> {
    for (given, flag) in [
        (args.shard.is_some(), "--shard"),
        (args.slurm, "--slurm"),
        (args.checkpoint.is_some(), "--checkpoint"),
        (args.memory.is_some(), "--memory"),
    ] {
        if given {
            bail!(
                "{flag} is for whole counts; the completions of a position are counted in one run"
            );
        }
    }
    if args.engine == EngineChoice::Join {
        bail!(
            "--engine join counts whole boards; the completions of a position are counted by the completion search (the default) or row by row (--engine backtracking)"
        );
    }
    let problem = problem(args)?;
    let n = problem.rows();
    let threads = match args.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(threads) => threads,
        None => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
    };
    let budget = command_budget(args.time_limit)?;
    let bar = if args.json {
        indicatif::ProgressBar::hidden()
    } else {
        progress::bar(0, &format!("N = {n}, completions"))
    };
    let started = Instant::now();
    let progress = |done: usize, of: usize| {
        bar.set_length(of as u64);
        bar.set_position(done as u64);
    };
    // The completion search, or (`--engine backtracking`) the plain row-by-row count that
    // shares none of its reasoning: a cross-check.
    let (method, name) = if args.engine == EngineChoice::Backtracking {
        (Method::RowByRow, "row by row")
    } else {
        (Method::Search, "completion search")
    };
    let result = completion::count(&problem, method, &budget, threads, progress);
    bar.finish_and_clear();
    let Some(result) = result else {
        bail!(
            "completions are counted {name} on N×N boards of N queens up to {}",
            method.max_n()
        );
    };
    if let Some(stop) = result.stopped {
        if args.json {
            let document = CompletionCountDocument::new(
                &problem,
                &result,
                method.name(),
                threads,
                started.elapsed(),
            );
            super::print_json_line(&document)?;
        }
        eprintln!(
            "stopped ({stop}): {} of {} counted, at least {} so far; run it again with more time to count them all",
            result.finished,
            counted(result.parts as u64, "part", "parts"),
            counted(result.counted.completions, "completion", "completions")
        );
        return Ok(Exit::NoAnswer);
    }
    let tally = result.counted;
    let elapsed = started.elapsed();
    let mut out = io::stdout().lock();
    if args.json {
        let document =
            CompletionCountDocument::new(&problem, &result, method.name(), threads, elapsed);
        super::write_json_line(&mut out, &document)?;
    } else {
        writeln!(
            out,
            "N = {n}, {} placed, {} blocked: {}",
            problem.fixed().len(),
            problem.blocked().len(),
            counted(tally.completions, "completion", "completions")
        )?;
        let symmetry = match result.symmetries {
            1 => String::new(),
            used => format!(", {used} symmetries of the position used"),
        };
        writeln!(
            out,
            "{} in {:.3} s on {} ({name}{symmetry})",
            counted(tally.nodes, "queen placed", "queens placed"),
            elapsed.as_secs_f64(),
            counted(threads as u64, "thread", "threads")
        )?;
    }
    out.flush()?;
    Ok(Exit::Success)
}

/// The position: the instance's or the size's board, with the placed and blocked squares.
fn problem(args: &CountArgs) -> anyhow::Result<Problem> {
    let position = args.position.read()?;
    let n = square_side(&position, "completions are counted for")?;
    if n > MAX_N {
        bail!("completions are counted on boards up to {MAX_N}×{MAX_N}, got N = {n}");
    }
    Ok(Problem::square(n)?
        .with_blocked(position.blocked)?
        .with_fixed(position.fixed)?)
}
