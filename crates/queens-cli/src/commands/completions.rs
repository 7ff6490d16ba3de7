//! `queens count` of a position: the completions of placed queens (`--fix`), blocked squares
//! (`--block`) or an n-Queens Completion instance (`--instance`), counted by the completion
//! search on all cores.

use std::io::Write;
use std::time::Instant;

use anyhow::bail;
use queens_api::bounds::Bounds;
use queens_api::completions::{self, CompletionsRequest, CompletionsSpec, Method};
use queens_core::words::counted;

use crate::args::CountArgs;
use crate::commands::interrupt_token;
use crate::commands::position::square_side;
use crate::exit::Exit;
use crate::output::stderr;
use crate::progress;

/// Whether `args` ask for the completions of a position rather than the whole count.
pub fn wanted(args: &CountArgs) -> bool {
    let position = &args.position;
    position.board.instance.is_some() || position.fix.is_some() || position.board.block.is_some()
}

/// Runs `queens count` of a position.
pub fn run(args: &CountArgs) -> anyhow::Result<Exit> {
    // The time limit counts from the start: reading the position is in it.
    let started = Instant::now();
    // Every flag of a whole count that this search does not take is refused, never dropped.
    for (given, flag) in [
        (args.shard.is_some(), "--shard"),
        (args.slurm, "--slurm"),
        (args.shards.is_some(), "--shards"),
        (args.array_size.is_some(), "--array-size"),
        (!args.sbatch_args.is_empty(), "options for sbatch"),
        (args.plan, "--plan"),
        (args.checkpoint.is_some(), "--checkpoint"),
        (args.checkpoint_every.is_some(), "--checkpoint-every"),
        (args.on_save_failure.is_some(), "--on-save-failure"),
        (args.memory.is_some(), "--memory"),
        (args.device.is_some(), "--device"),
        (args.max_estimate.is_some(), "--max-estimate"),
    ] {
        if given {
            bail!(
                "{flag} is for whole counts; the completions of a position are counted in one run"
            );
        }
    }
    let method = completions::method(args.engine.choice())?;
    let position = args.position.read(completions::sides(method))?;
    let request = CompletionsRequest::new(CompletionsSpec {
        n: square_side(&position, "completions are counted for")?,
        fixed: position.fixed,
        blocked: position.blocked,
        engine: args.engine.choice(),
        bounds: Bounds {
            time_limit: args.time_limit,
            max_nodes: None,
            threads: args.threads,
        },
    })?;
    let problem = request.problem();
    let n = problem.rows();
    let budget = request.bounds().budget_since(interrupt_token(), started);
    let what = format!("N = {n}, completions");
    let bar = if args.json {
        progress::document_bar(0, &what)
    } else {
        progress::bar(0, &what)
    };
    let answer = request.run(&budget, |done: usize, of: usize| {
        bar.set_length(of as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let result = &answer.count;
    if let Some(stop) = result.stopped {
        if args.json {
            super::print_json_line(&answer.document(&request))?;
        }
        stderr!(
            "stopped ({stop}): {} of {} counted, at least {} so far; run it again with more time to count them all",
            result.finished,
            counted(result.parts as u64, "part", "parts"),
            counted(result.counted.completions, "completion", "completions")
        );
        return Ok(Exit::NoAnswer);
    }
    let tally = result.counted;
    let mut out = crate::output::standard_output();
    if args.json {
        super::write_json_line(&mut out, &answer.document(&request))?;
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
        let name = match request.method() {
            Method::Search => "completion search",
            Method::RowByRow => "row by row",
        };
        writeln!(
            out,
            "{} in {:.3} s on {} ({name}{symmetry})",
            counted(tally.nodes, "queen placed", "queens placed"),
            answer.elapsed.as_secs_f64(),
            counted(request.threads() as u64, "thread", "threads")
        )?;
    }
    out.flush()?;
    Ok(Exit::Success)
}
