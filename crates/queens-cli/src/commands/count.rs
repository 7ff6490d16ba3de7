//! `queens count`: all and unique solutions, on all cores, in shards, with checkpoints.

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::ProgressBar;
use queens_exact::count::checkpoint::{self, Progress};
use queens_exact::count::shard::ShardReport;
use queens_exact::count::{CountPlan, Shard, Tally};
use serde::Serialize;

use crate::args::CountArgs;
use crate::commands::{interrupt_flag, parse_side};
use crate::exit::Exit;
use crate::progress;

/// A validated `count` request.
struct CountConfig {
    plan: CountPlan,
    threads: usize,
    json: bool,
    shard: Option<Shard>,
    checkpoint: Option<PathBuf>,
    checkpoint_every: Duration,
}

impl CountConfig {
    fn from_args(args: &CountArgs) -> anyhow::Result<Self> {
        let plan = CountPlan::new(parse_side(&args.size)?)?;
        let threads = match args.threads {
            Some(0) => anyhow::bail!("--threads must be at least 1"),
            Some(threads) => threads,
            None => std::thread::available_parallelism().map_or(1, usize::from),
        };
        let shard = args.shard.as_deref().map(str::parse::<Shard>).transpose()?;
        let checkpoint_every = Duration::try_from_secs_f64(args.checkpoint_every)
            .ok()
            .filter(|every| !every.is_zero())
            .with_context(|| {
                format!(
                    "--checkpoint-every must be a positive number of seconds, got {}",
                    args.checkpoint_every
                )
            })?;
        Ok(CountConfig {
            plan,
            threads,
            json: args.json,
            shard,
            checkpoint: args.checkpoint.clone(),
            checkpoint_every,
        })
    }
}

/// `count --json`: the contract fields, then the extensions.
#[derive(Serialize)]
struct CountDocument {
    n: u32,
    total: u128,
    unique: u128,
    threads: usize,
    elapsed_ms: f64,
    nodes: u64,
    subproblems: usize,
}

/// `count --shard`: the shard report, with the run's own figures.
#[derive(Serialize)]
struct ShardDocument {
    #[serde(flatten)]
    report: ShardReport,
    threads: usize,
    elapsed_ms: f64,
}

/// What the workers share while a count runs.
struct Running<'a> {
    progress: Progress,
    bar: ProgressBar,
    checkpoint: Option<(&'a std::path::Path, Instant)>,
    checkpoint_every: Duration,
    save_error: Option<anyhow::Error>,
}

/// Runs `queens count`.
pub fn run(args: &CountArgs) -> anyhow::Result<Exit> {
    let config = CountConfig::from_args(args)?;
    let plan = &config.plan;
    let shard = config.shard.unwrap_or(Shard::WHOLE);
    let ids = plan.shard_ids(shard);
    let resumed = match &config.checkpoint {
        Some(path) => checkpoint::load(path, plan, shard)?,
        None => Progress::default(),
    };
    let todo: Vec<usize> = ids
        .iter()
        .copied()
        .filter(|&id| !resumed.is_done(id))
        .collect();
    let quiet = config.json || config.shard.is_some();
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        progress::bar(ids.len() as u64, &format!("N = {}", plan.n()))
    };
    bar.set_position(resumed.len() as u64);
    let running = Mutex::new(Running {
        progress: resumed,
        bar,
        checkpoint: config
            .checkpoint
            .as_deref()
            .map(|path| (path, Instant::now())),
        checkpoint_every: config.checkpoint_every,
        save_error: None,
    });
    let cancel = interrupt_flag();
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .context("cannot start the worker threads")?;
    pool.install(|| {
        plan.count_parallel(&todo, cancel.as_atomic(), |id, tally| {
            let mut running = running.lock().expect("no worker panics holding the lock");
            record(&mut running, plan, shard, id, tally);
        });
    });
    let elapsed = started.elapsed();
    let running = running
        .into_inner()
        .expect("no worker panics holding the lock");
    running.bar.finish_and_clear();
    if let Some((path, _)) = running.checkpoint {
        checkpoint::save(path, plan, shard, &running.progress)?;
    }
    if let Some(error) = running.save_error {
        return Err(error);
    }
    let finished = running.progress.len();
    if finished < ids.len() {
        let resume = match &config.checkpoint {
            Some(path) => format!("; run the same command to resume from {}", path.display()),
            None => "; use --checkpoint FILE to keep finished work".to_owned(),
        };
        eprintln!(
            "interrupted: {finished} of {} subproblems counted{resume}",
            ids.len()
        );
        return Ok(Exit::NoAnswer);
    }
    print(&config, shard, running.progress.sum(), elapsed, ids.len())?;
    Ok(Exit::Success)
}

/// Records a finished subproblem, advances the bar and saves the checkpoint when it is due.
fn record(running: &mut Running<'_>, plan: &CountPlan, shard: Shard, id: usize, tally: Tally) {
    running.progress.record(id, tally);
    running.bar.inc(1);
    if let Some((path, last_save)) = &mut running.checkpoint
        && last_save.elapsed() >= running.checkpoint_every
        && running.save_error.is_none()
    {
        *last_save = Instant::now();
        if let Err(error) = checkpoint::save(path, plan, shard, &running.progress) {
            running.save_error = Some(error.into());
        }
    }
}

fn print(
    config: &CountConfig,
    shard: Shard,
    sum: Tally,
    elapsed: Duration,
    subproblems: usize,
) -> anyhow::Result<()> {
    let elapsed_ms = elapsed.as_secs_f64() * 1e3;
    let mut out = io::stdout().lock();
    if config.shard.is_some() {
        let document = ShardDocument {
            report: ShardReport::new(&config.plan, shard, sum),
            threads: config.threads,
            elapsed_ms,
        };
        serde_json::to_writer(&mut out, &document)?;
        writeln!(out)?;
    } else if config.json {
        let document = CountDocument {
            n: config.plan.n(),
            total: sum.total,
            unique: sum.unique,
            threads: config.threads,
            elapsed_ms,
            nodes: sum.nodes,
            subproblems,
        };
        serde_json::to_writer(&mut out, &document)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "N = {}: {} solutions, {} unique",
            config.plan.n(),
            sum.total,
            sum.unique
        )?;
        writeln!(
            out,
            "{} nodes in {subproblems} subproblems, {:.3} s on {} thread{}",
            sum.nodes,
            elapsed.as_secs_f64(),
            config.threads,
            if config.threads == 1 { "" } else { "s" }
        )?;
    }
    out.flush()?;
    Ok(())
}
