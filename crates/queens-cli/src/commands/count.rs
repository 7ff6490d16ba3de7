//! `queens count`: all and unique solutions, on all cores, in shards, with checkpoints.

use queens_core::words::counted;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, bail};
use queens_api::document::CountDocument;
use queens_exact::count::shard::ShardReport;
use queens_exact::count::{
    CHECKPOINT_EVERY, CountJob, CountPlan, CountResult, CountRunError, DEFAULT_MEMORY_LIMIT,
    Engine, OnSaveFailure, Shard,
};
use serde::Serialize;

use crate::args::{CountArgs, EngineChoice, SaveFailureChoice};
use crate::commands::{
    command_budget, interrupt_token, parse_bytes, parse_side, slurm, write_atomically,
};
use crate::exit::Exit;
use crate::progress;

/// A validated `count` request.
struct CountConfig {
    job: CountJob,
    json: bool,
    shard: Option<Shard>,
    /// Where the shard's report goes, when `--dir` is given.
    report: Option<PathBuf>,
}

impl CountConfig {
    fn from_args(args: &CountArgs) -> anyhow::Result<Self> {
        let (plan, memory_limit) = plan(args)?;
        let mut job = CountJob::new(plan).with_memory_limit(memory_limit);
        if let Some(threads) = args.threads {
            job = job.with_threads(threads)?;
        }
        let shard = match args.shard.as_deref().map(str::trim) {
            Some("slurm") => Some(slurm::shard_from_environment(|name| {
                std::env::var(name).ok()
            })?),
            Some(text) => Some(text.parse::<Shard>()?),
            None => None,
        };
        if let Some(shard) = shard {
            job = job.with_shard(shard);
        }
        let mut report = None;
        if let Some(dir) = &args.dir {
            let Some(shard) = shard else {
                bail!("--dir goes with --shard (a shard's files) or --slurm (a cluster count)");
            };
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            report = Some(slurm::report_path(dir, shard.index, shard.count));
            if args.checkpoint.is_none() {
                job = job.with_checkpoint(
                    slurm::checkpoint_path(dir, shard.index, shard.count),
                    CHECKPOINT_EVERY,
                );
            }
        }
        if let Some(path) = &args.checkpoint {
            let every = Duration::try_from_secs_f64(args.checkpoint_every)
                .ok()
                .filter(|every| !every.is_zero())
                .with_context(|| {
                    format!(
                        "--checkpoint-every must be a positive number of seconds, got {}",
                        args.checkpoint_every
                    )
                })?;
            job = job.with_checkpoint(path.clone(), every);
        }
        job = job.on_save_failure(match args.on_save_failure {
            SaveFailureChoice::Continue => OnSaveFailure::KeepCounting,
            SaveFailureChoice::Stop => OnSaveFailure::Stop,
        });
        Ok(CountConfig {
            job,
            json: args.json,
            shard,
            report,
        })
    }
}

/// The count's plan by the engine asked for (auto: by N and the memory limit only, so that
/// every shard of a count picks the same), and the memory limit.
fn plan(args: &CountArgs) -> anyhow::Result<(CountPlan, u64)> {
    let size = args
        .position
        .board
        .size
        .as_deref()
        .context("a whole count needs N (an --instance counts completions)")?;
    let n = parse_side(size)?;
    let memory_limit = args
        .memory
        .as_deref()
        .map(parse_bytes)
        .transpose()?
        .unwrap_or(DEFAULT_MEMORY_LIMIT);
    let engine = match args.engine {
        EngineChoice::Auto => Engine::for_count(n, memory_limit),
        EngineChoice::Join => Engine::Join,
        EngineChoice::Backtracking => Engine::Backtracking,
    };
    Ok((CountPlan::with_engine(n, engine)?, memory_limit))
}

/// `count --shard`: the shard report, with the run's own figures.
#[derive(Serialize)]
struct ShardDocument {
    #[serde(flatten)]
    report: ShardReport,
    threads: usize,
    elapsed_ms: f64,
}

/// Runs `queens count`.
pub fn run(args: &CountArgs) -> anyhow::Result<Exit> {
    if super::completions::wanted(args) {
        return super::completions::run(args);
    }
    if args.position.board.diagonals.is_some() {
        bail!("--diagonals takes the first diagonals of an --instance; none is given");
    }
    if args.slurm {
        return submit(args);
    }
    if !args.sbatch_args.is_empty() {
        bail!("options after -- are for sbatch and go with --slurm");
    }
    let config = CountConfig::from_args(args)?;
    let budget = command_budget(args.time_limit)?;
    let quiet = config.json || config.shard.is_some();
    let bar = if quiet {
        indicatif::ProgressBar::hidden()
    } else {
        progress::bar(
            config.job.subproblems() as u64,
            &format!("N = {}", config.job.plan().n()),
        )
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
                let then = match args.on_save_failure {
                    SaveFailureChoice::Continue => "the count goes on and will try again",
                    SaveFailureChoice::Stop => "stopping (--on-save-failure stop)",
                };
                bar.suspend(|| eprintln!("warning: {error}; {then}"));
            },
        )
        .map_err(|error| match error {
            CountRunError::Memory(message) => anyhow::anyhow!(
                "{message}: raise the limit with --memory, use fewer --threads, or count with --engine backtracking"
            ),
            other => other.into(),
        })?;
    bar.finish_and_clear();
    if !result.is_complete() {
        let resume = match (config.job.checkpoint(), &result.save_failure) {
            (Some(path), None) => {
                format!("; run the same command to resume from {}", path.display())
            }
            (Some(path), Some(_)) => format!(
                "; {} could not be saved, so a new run starts from its last good save",
                path.display()
            ),
            (None, _) => "; use --checkpoint FILE to keep finished work".to_owned(),
        };
        let why = match (&result.save_failure, result.stopped) {
            (Some(failure), _) if args.on_save_failure == SaveFailureChoice::Stop => {
                format!("stopped ({failure})")
            }
            (_, Some(stop)) => format!("stopped ({stop})"),
            (_, None) => "stopped".to_owned(),
        };
        eprintln!(
            "{why}: {} of {} counted, {} so far{resume}",
            result.finished,
            counted(result.subproblems, "subproblem", "subproblems"),
            counted(result.tally.total, "solution", "solutions")
        );
        return Ok(Exit::NoAnswer);
    }
    print(&config, &result)?;
    if let Some(failure) = &result.save_failure {
        eprintln!("warning: the count is complete, but its last {failure}");
    }
    Ok(Exit::Success)
}

/// `--slurm`: the count as a job array and a merge job.
fn submit(args: &CountArgs) -> anyhow::Result<Exit> {
    let (plan, memory_limit) = plan(args)?;
    let shards = args.shards.context("--slurm needs --shards M")?;
    slurm::check_shards(shards)?;
    let dir = args.dir.as_deref().context("--slurm needs --dir DIR")?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let dir =
        std::fs::canonicalize(dir).with_context(|| format!("cannot use {}", dir.display()))?;
    if let Some(threads) = args.threads {
        CountJob::new(plan.clone()).with_threads(threads)?;
    }
    let count = slurm::SlurmCount {
        plan,
        shards,
        dir,
        threads: args.threads,
        memory_limit: args.memory.is_some().then_some(memory_limit),
        wait: args.wait,
        json: args.json,
        sbatch_args: args.sbatch_args.clone(),
    };
    slurm::run(&count, &interrupt_token())
}

fn print(config: &CountConfig, result: &CountResult) -> anyhow::Result<()> {
    let elapsed_ms = result.elapsed.as_secs_f64() * 1e3;
    let threads = config.job.threads();
    let n = config.job.plan().n();
    let sum = result.tally;
    let mut out = io::stdout().lock();
    if let Some(shard) = config.shard {
        let document = ShardDocument {
            report: ShardReport::new(config.job.plan(), shard, sum),
            threads,
            elapsed_ms,
        };
        let text = serde_json::to_string(&document)? + "\n";
        if let Some(path) = &config.report {
            write_atomically(path, text.as_bytes())?;
        }
        out.write_all(text.as_bytes())?;
    } else if config.json {
        let document = CountDocument::new(
            n,
            sum,
            threads,
            elapsed_ms,
            result.subproblems,
            config.job.plan().engine().name(),
        );
        super::write_json_line(&mut out, &document)?;
    } else {
        writeln!(out, "{}", solutions_line(n, sum.total, sum.unique()))?;
        let (work, parts) = match config.job.plan().engine() {
            Engine::Backtracking => (("node", "nodes"), ("subproblem", "subproblems")),
            Engine::Join => (("half board", "half boards"), ("piece", "pieces")),
        };
        writeln!(
            out,
            "{} in {}, {:.3} s on {} ({} engine)",
            counted(sum.nodes, work.0, work.1),
            counted(result.subproblems, parts.0, parts.1),
            result.elapsed.as_secs_f64(),
            counted(threads, "thread", "threads"),
            config.job.plan().engine()
        )?;
    }
    out.flush()?;
    Ok(())
}

/// A count's answer in words, as `count`, `slurm` and `merge` print it: "N = 8: 92 solutions,
/// 12 unique".
pub fn solutions_line(n: u32, total: u128, unique: u128) -> String {
    format!(
        "N = {n}: {}, {unique} unique",
        counted(total, "solution", "solutions")
    )
}
