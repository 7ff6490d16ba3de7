//! `queens count`: all and unique solutions, on all cores, in shards, with checkpoints.

use queens_core::words::counted;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, bail};
use queens_api::bounds::{Bounds, CheckedBounds};
use queens_api::count::{
    CHECKPOINT_EVERY, CountJob, CountRequest, CountResult, CountRunError, CountSpec, Engine,
    OnSaveFailure, Shard,
};
use queens_api::devices::DeviceInfo;
use queens_api::document::{Completeness, CountDocument, ShardDocument, counted_on};
use queens_api::shards::ShardReport;

use crate::args::{CountArgs, SaveFailureChoice};
use crate::commands::{interrupt_token, parse_bytes, parse_side_for, slurm, write_atomically};
use crate::exit::Exit;
use crate::output::stderr;
use crate::progress;

/// What a count refused for memory can do instead: only what would help this count (the
/// backtracking engine needs little memory, so it is named only for the join; under an
/// address-space limit, `--memory` alone cannot give more).
fn memory_remedies(job: &CountJob, message: &str) -> String {
    let first = if queens_core::memory::address_space_limit().is_some() {
        let limit = queens_core::memory::address_space_limit_words();
        // The refusal names the limit where it is what leaves too little.
        let limit = if message.ends_with(limit) {
            "it"
        } else {
            limit
        };
        format!("raise {limit} and --memory")
    } else {
        "raise the limit with --memory".to_owned()
    };
    let mut more = Vec::new();
    if job.threads() > 1 {
        more.push("use fewer --threads");
    }
    if job.plan().engine() == Engine::Join {
        more.push("count with --engine backtracking");
    }
    match more.pop() {
        None => first,
        Some(last) => {
            let before: Vec<&str> = std::iter::once(first.as_str()).chain(more).collect();
            format!("{}, or {last}", before.join(", "))
        }
    }
}

/// A validated `count` request.
struct CountConfig {
    job: CountJob,
    /// The count's time limit and threads, checked.
    bounds: CheckedBounds,
    /// The GPU counting, for the GPU engine.
    device: Option<DeviceInfo>,
    json: bool,
    shard: Option<Shard>,
    /// Where the shard's report goes, when `--dir` is given.
    report: Option<PathBuf>,
}

impl CountConfig {
    fn from_args(args: &CountArgs) -> anyhow::Result<Self> {
        let shard = match args.shard.as_deref().map(str::trim) {
            Some("slurm") => Some(slurm::shard_from_environment(|name| {
                std::env::var(name).ok()
            })?),
            Some(text) => Some(text.parse::<Shard>()?),
            None => None,
        };
        let request = CountRequest::new(&spec(args, shard)?)?;
        let device = request.device().cloned();
        // A GPU assigned by a job scheduler but not found is said, not passed over: the count
        // goes on, on a GPU another task may be counting on.
        if let Some(warning) = request.device_warning() {
            stderr!("warning: {warning}");
        }
        let bounds = *request.bounds();
        let mut job = request.into_job();
        let mut report = None;
        // The spacing of saves holds for the checkpoint given and for a shard's own alike.
        let every = args
            .checkpoint_every
            .map(|seconds| {
                queens_api::request::parse_seconds(
                    seconds,
                    queens_api::setting::Setting::CheckpointEvery,
                )
            })
            .transpose()?
            .unwrap_or(CHECKPOINT_EVERY);
        if let Some(dir) = &args.dir {
            let Some(shard) = shard else {
                bail!("--dir goes with --shard (a shard's files) or --slurm (a cluster count)");
            };
            super::output_dir("--dir", dir)?;
            report = Some(shard.report_file(dir));
            if args.checkpoint.is_none() {
                job = job.with_checkpoint(shard.checkpoint_file(dir), every);
            }
        }
        if let Some(path) = &args.checkpoint {
            job = job.with_checkpoint(path.clone(), every);
        }
        // Options of a checkpoint are refused, not dropped, where there is none.
        if job.checkpoint().is_none() {
            for (given, flag) in [
                (args.checkpoint_every.is_some(), "--checkpoint-every"),
                (args.on_save_failure.is_some(), "--on-save-failure"),
            ] {
                if given {
                    bail!(
                        "{flag} goes with a checkpoint: --checkpoint FILE, or a shard's --dir DIR"
                    );
                }
            }
        }
        job = job.on_save_failure(match args.on_save_failure.unwrap_or_default() {
            SaveFailureChoice::Continue => OnSaveFailure::KeepCounting,
            SaveFailureChoice::Stop => OnSaveFailure::Stop,
        });
        Ok(CountConfig {
            job,
            bounds,
            device,
            json: args.json,
            shard,
            report,
        })
    }
}

/// The count asked for, before the front door checks it (auto: by N and the memory limit
/// only for a shard, so that every shard of a count picks the same).
fn spec(args: &CountArgs, shard: Option<Shard>) -> anyhow::Result<CountSpec> {
    let size = args
        .position
        .board
        .size()
        .context("a whole count needs N (an --instance counts completions)")?;
    Ok(CountSpec {
        n: parse_side_for(size, queens_api::count::SIDES)?,
        engine: args.engine.choice(),
        device: args.device,
        bounds: Bounds {
            time_limit: args.time_limit,
            max_nodes: None,
            threads: args.threads,
        },
        memory_limit: args.memory.as_deref().map(parse_bytes).transpose()?,
        shard,
        max_estimate: args.max_estimate,
    })
}

/// Runs `queens count`.
pub fn run(args: &CountArgs) -> anyhow::Result<Exit> {
    if super::completions::wanted(args) {
        return super::completions::run(args);
    }
    if args.position.board.diagonals.is_some() {
        bail!("--diagonals takes the first diagonals of an --instance; none is given");
    }
    if args.plan {
        return super::plan::run(args);
    }
    if args.slurm {
        return submit(args);
    }
    if args.shards.is_some() || args.array_size.is_some() {
        bail!("--shards and --array-size go with --slurm (a cluster count) or --plan");
    }
    if !args.sbatch_args.is_empty() {
        bail!("options after -- are for sbatch and go with --slurm");
    }
    let started = Instant::now();
    let config = CountConfig::from_args(args)?;
    let budget = config.bounds.budget_since(interrupt_token(), started);
    let parts = config.job.subproblems() as u64;
    let what = match config.shard {
        Some(shard) => format!("N = {}, shard {shard}", config.job.plan().n()),
        None => format!("N = {}", config.job.plan().n()),
    };
    let bar = if config.json || config.shard.is_some() {
        progress::document_bar(parts, &what)
    } else {
        progress::bar(parts, &what)
    };
    // The bar's position only moves forward, whatever order the workers report in.
    let shown = Mutex::new(0usize);
    let result = config
        .job
        .run_reporting(
            &budget,
            |done, _| {
                let mut shown = shown
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if done > *shown {
                    *shown = done;
                    bar.set_position(done as u64);
                }
            },
            |error| {
                let then = match args.on_save_failure.unwrap_or_default() {
                    SaveFailureChoice::Continue => "the count goes on and will try again",
                    SaveFailureChoice::Stop => "stopping (--on-save-failure stop)",
                };
                let warning = crate::exit::one_line(&format!("{error}; {then}"));
                bar.suspend(|| stderr!("warning: {warning}"));
            },
        )
        .map_err(|error| match error {
            CountRunError::Memory(message) => {
                anyhow::anyhow!("{message}: {}", memory_remedies(&config.job, &message))
            }
            // A GPU that failed mid-count (lost, reset): the parts it finished are kept.
            CountRunError::Counter(failure) => match config.job.checkpoint() {
                Some(path) => anyhow::anyhow!(
                    "{failure}; the parts counted are saved in {}: run the same command to \
                     resume (on this or another GPU, or another engine)",
                    path.display()
                ),
                None => anyhow::anyhow!("{failure}; {KEEP_FINISHED_WORK}"),
            },
            other => other.into(),
        })?;
    bar.finish_and_clear();
    if !result.is_complete() {
        return report_stopped(args, &config, &result);
    }
    print(&config, &result)?;
    if let Some(failure) = &result.save_failure {
        let failure = crate::exit::one_line(failure);
        stderr!("warning: the count is complete, but its last {failure}");
    }
    Ok(Exit::Success)
}

/// What a count without a checkpoint that stopped or failed tells its user.
const KEEP_FINISHED_WORK: &str = "use --checkpoint FILE to keep finished work";

/// A count stopped before the end: the document so far (with --json), and on stderr why it
/// stopped, how far it got and how to resume.
fn report_stopped(
    args: &CountArgs,
    config: &CountConfig,
    result: &CountResult,
) -> anyhow::Result<Exit> {
    let resume = match (config.job.checkpoint(), &result.save_failure) {
        (Some(path), None) => {
            format!("; run the same command to resume from {}", path.display())
        }
        (Some(path), Some(_)) => format!(
            "; {} could not be saved, so a new run starts from its last good save",
            path.display()
        ),
        (None, _) => format!("; {KEEP_FINISHED_WORK}"),
    };
    let reason = match (&result.save_failure, result.stopped) {
        (Some(failure), _) if args.on_save_failure == Some(SaveFailureChoice::Stop) => {
            Some(failure.clone())
        }
        (_, stop) => stop.map(|stop| stop.to_string()),
    };
    let why = reason.as_ref().map_or_else(
        || "stopped".to_owned(),
        |reason| format!("stopped ({reason})"),
    );
    // A document meant for a program says how far it got, as a finished one says its
    // answer; a shard's report is only for a finished shard.
    if config.json && config.shard.is_none() {
        let mut document = count_document(config, result);
        if let Some(reason) = &reason {
            document = document.stopped_for(reason);
        }
        super::print_json_line(&document)?;
    }
    stderr!(
        "{why}: {} of {} counted, {} so far{resume}",
        result.finished,
        counted(result.subproblems, "subproblem", "subproblems"),
        counted(result.tally.total, "solution", "solutions")
    );
    Ok(Exit::NoAnswer)
}

/// `--slurm`: the count as a job array and a merge job.
fn submit(args: &CountArgs) -> anyhow::Result<Exit> {
    let shards = args.shards.context("--slurm needs --shards M")?;
    if args.time_limit.is_some() {
        bail!(
            "--time-limit bounds one run; a cluster count's tasks are bounded by Slurm: pass \
             `-- --time=MINUTES` (a task saves its checkpoint when Slurm stops it, and resumes \
             from it when requeued or submitted again)"
        );
    }
    slurm::check_shards(shards)?;
    // Each task's share, checked here; the tasks open their own GPU, if any.
    let spec = spec(args, Some(Shard::new(0, shards)?))?;
    let plan = CountRequest::without_device(&spec)?.plan().clone();
    let task_options = slurm::task_options(args)?;
    let dir = args.dir.as_deref().context("--slurm needs --dir DIR")?;
    // Refused before it is made (and before the machine is asked for sbatch, as what was
    // given comes first); `run` checks the path it resolves to.
    super::script::check_nameable(dir)?;
    super::refuse_file_in_place("--dir", dir)?;
    slurm::require_sbatch()?;
    super::output_dir("--dir", dir)?;
    let dir =
        std::fs::canonicalize(dir).with_context(|| format!("cannot use {}", dir.display()))?;
    let count = slurm::SlurmCount {
        plan,
        shards,
        dir,
        task_options,
        wait: args.wait,
        json: args.json,
        sbatch_args: args.sbatch_args.clone(),
        array_tasks: slurm::array_tasks(args.array_size)?,
    };
    slurm::run(&count, &interrupt_token())
}

fn print(config: &CountConfig, result: &CountResult) -> anyhow::Result<()> {
    let elapsed_ms = result.elapsed.as_secs_f64() * 1e3;
    let threads = config.job.threads();
    let n = config.job.plan().n();
    let sum = result.tally;
    let mut out = crate::output::Answer::new();
    if let Some(shard) = config.shard {
        let document = ShardDocument {
            report: ShardReport::of_result(config.job.plan(), shard, result),
            threads,
            elapsed_ms,
            end: Completeness::complete(),
        };
        let text = serde_json::to_string(&document)? + "\n";
        if let Some(path) = &config.report {
            write_atomically(path, text.as_bytes())?;
        }
        out.write_all(text.as_bytes())?;
    } else if config.json {
        super::write_json_line(&mut out, &count_document(config, result))?;
    } else {
        writeln!(out, "{}", super::solutions_line(n, sum.total, sum.unique()))?;
        let (work, parts) = config.job.plan().engine().units();
        let on = counted_on(config.device.as_ref(), threads);
        writeln!(
            out,
            "{} in {}, {:.3} s on {on} ({} engine)",
            counted(sum.nodes, work.0, work.1),
            counted(result.subproblems, parts.0, parts.1),
            result.elapsed.as_secs_f64(),
            config.job.plan().engine()
        )?;
        // A resumed count's earlier parts were counted elsewhere, or by another engine.
        if let (true, Some(places), Some(checkpoint)) = (
            result.resumed > 0,
            result.counted_on(),
            config.job.checkpoint(),
        ) {
            writeln!(
                out,
                "resumed from {} ({}); counted on {places}",
                checkpoint.display(),
                counted(result.resumed, parts.0, parts.1),
            )?;
        }
    }
    out.deliver()?;
    Ok(())
}

/// The document of a whole count, finished or stopped.
fn count_document(config: &CountConfig, result: &CountResult) -> CountDocument {
    CountDocument::of_result(
        config.job.plan().n(),
        result,
        config.job.threads(),
        config.job.plan().engine().name(),
    )
    .on_device(config.device.as_ref().map(|device| device.name.clone()))
    .with_places(result)
}
