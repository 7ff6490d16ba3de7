//! `queens count N --plan`: a record count planned without counting — its nodes estimated by
//! random probes, the device-hours at a rate, shards of about an hour, and the Slurm arrays of
//! at most 1,000 tasks that run them, printed as the lines to submit.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Context, bail};
use queens_api::count::{CountPlan, Engine};
use queens_api::shards::{Campaign, MEASURED_GPU_RATE, report_pattern};
use queens_core::words::counted;
use serde::Serialize;

use crate::args::{CountArgs, EngineChoice};
use crate::commands::{parse_side, slurm};
use crate::exit::Exit;

/// What `--plan --json` prints: the campaign's numbers (the node estimate a whole number, past
/// 2⁶⁴ from N = 28), the `sbatch` lines and the merge.
#[derive(Serialize)]
struct PlanDocument<'a> {
    engine: &'static str,
    #[serde(flatten)]
    campaign: &'a Campaign,
    sbatch: &'a [String],
    merge: &'a str,
}

/// Runs `queens count N --plan`.
pub fn run(args: &CountArgs) -> anyhow::Result<Exit> {
    let size = args
        .position
        .board
        .size
        .as_deref()
        .context("--plan plans a whole count: give N")?;
    let n = parse_side(size)?;
    if args.position.fix.is_some() || args.position.board.block.is_some() {
        bail!("--plan plans a whole count of N; a position's completions are not planned");
    }
    let engine = match args.engine {
        EngineChoice::Auto | EngineChoice::Gpu => Engine::Gpu,
        EngineChoice::Backtracking => Engine::Backtracking,
        EngineChoice::Join => {
            bail!("--plan plans the GPU and backtracking engines' split; the join's is not one")
        }
    };
    let rate = match (args.rate, engine) {
        (Some(rate), _) if rate.is_finite() && rate > 0.0 => rate,
        (Some(rate), _) => bail!("--rate must be a positive number of nodes a second, got {rate}"),
        (None, Engine::Gpu) => MEASURED_GPU_RATE,
        (None, _) => {
            bail!("--plan --engine backtracking needs --rate: the nodes a second of one task")
        }
    };
    if let Some(shards) = args.shards {
        slurm::check_shards(shards)?;
    }
    let plan = CountPlan::with_engine(n, engine)?;
    let array_tasks = slurm::array_tasks(args.array_size)?;
    let campaign = Campaign::new(&plan, rate, args.shards, array_tasks)
        .context("the split has no parts to plan")?;
    let dir = match &args.dir {
        Some(dir) => {
            std::path::absolute(dir).with_context(|| format!("cannot use {}", dir.display()))?
        }
        None => PathBuf::from(format!("queens-{n}")),
    };
    let program = crate::own_command()
        .context("cannot find this program's own path for the cluster's tasks")?
        .iter()
        .map(|word| quote(&word.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ");
    // The task options given here reach every task, as --slurm passes them.
    let mut options = String::new();
    let bounds = queens_api::bounds::Bounds {
        threads: args.threads,
        ..Default::default()
    }
    .check()?;
    if let Some(threads) = bounds.threads() {
        let _ = write!(options, " --threads {threads}");
    }
    if let Some(device) = args.device {
        let _ = write!(options, " --device {device}");
    }
    if let Some(memory) = &args.memory {
        let _ = write!(options, " --memory {}", quote(memory));
    }
    if let Some(seconds) = args.max_estimate {
        let _ = write!(options, " --max-estimate {seconds}");
    }
    let lines = sbatch_lines(&campaign, engine, &program, &options, &dir);
    let merge = format!(
        "{program} merge --json --output {} {}",
        quote(&dir.join("result.json").display().to_string()),
        quote(
            &dir.join(report_pattern(campaign.shards))
                .display()
                .to_string()
        )
    );
    let mut out = io::stdout().lock();
    if args.json {
        let document = PlanDocument {
            engine: engine.name(),
            campaign: &campaign,
            sbatch: &lines,
            merge: &merge,
        };
        super::write_json_line(&mut out, &document)?;
    } else {
        write_text(&mut out, &campaign, engine, &lines, &merge)?;
    }
    out.flush()?;
    Ok(Exit::Success)
}

/// The `sbatch` line of each array: its tasks count shards `first + SLURM_ARRAY_TASK_ID`, may
/// be requeued (a task resumes from its checkpoint), and get twice a shard's hours.
fn sbatch_lines(
    campaign: &Campaign,
    engine: Engine,
    program: &str,
    options: &str,
    dir: &std::path::Path,
) -> Vec<String> {
    let hours = campaign.task_hours();
    let gres = if engine == Engine::Gpu {
        " --gres=gpu:1"
    } else {
        ""
    };
    campaign
        .arrays
        .iter()
        .map(|array| {
            let task = format!(
                "exec {program} count {} --engine {} --shard $(({} + SLURM_ARRAY_TASK_ID))/{} --dir {}{options}",
                campaign.n,
                engine.name(),
                array.first,
                campaign.shards,
                quote(&dir.display().to_string()),
            );
            format!(
                "sbatch --array=0-{} --requeue{gres} --time={hours}:00:00 --job-name=queens-{}-{} --output={} --wrap={}",
                array.tasks - 1,
                campaign.n,
                array.first,
                quote(&dir.join(format!("array-{}-%a.log", array.first)).display().to_string()),
                quote(&task),
            )
        })
        .collect()
}

fn write_text(
    out: &mut impl Write,
    campaign: &Campaign,
    engine: Engine,
    lines: &[String],
    merge: &str,
) -> io::Result<()> {
    let device = if engine == Engine::Gpu { "GPU" } else { "task" };
    let estimate = &campaign.estimate;
    // Past a million, the figure is read by its power of ten, and the whole number follows.
    let (nodes, whole) = if estimate.nodes < 1_000_000 {
        (estimate.nodes.to_string(), String::new())
    } else {
        (
            format!("{:.3e}", estimate.nodes as f64),
            format!("{}, ", estimate.nodes),
        )
    };
    writeln!(
        out,
        "N = {}: about {nodes} nodes ({whole}±{:.2} %, {} probes over {} parts)",
        campaign.n,
        100.0 * estimate.relative_error,
        estimate.probes,
        campaign.parts
    )?;
    let hours = campaign.device_hours;
    writeln!(
        out,
        "at {:.3e} nodes a second a {device}: {} on one {device}, {} on 8, {} on 64",
        campaign.rate,
        span(hours),
        span(hours / 8.0),
        span(hours / 64.0),
    )?;
    if hours < SMALL_COUNT_HOURS {
        writeln!(
            out,
            "One {device} counts this in under a minute: `queens count {}` needs no cluster.",
            campaign.n
        )?;
    }
    writeln!(
        out,
        "{} of about {} each, in {} of at most {} tasks:",
        counted(campaign.shards, "shard", "shards"),
        span(campaign.shard_hours),
        counted(campaign.arrays.len(), "job array", "job arrays"),
        campaign.array_tasks,
    )?;
    writeln!(out)?;
    for line in lines {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "Each task checkpoints as it counts; a preempted task is requeued and resumes. Submit \
         the same lines again for the tasks that failed (a finished shard's task only reads its \
         checkpoint). When every report is there:"
    )?;
    writeln!(out)?;
    writeln!(out, "{merge}")
}

/// Under a minute on one device, a campaign is more work to submit than to count.
const SMALL_COUNT_HOURS: f64 = 1.0 / 60.0;

/// A span of `hours` in the unit that reads best.
fn span(hours: f64) -> String {
    match hours {
        h if h < 1.0 / 60.0 => format!("{:.1} s", h * 3600.0),
        h if h < 1.0 => format!("{:.1} minutes", h * 60.0),
        h if h < 48.0 => format!("{h:.1} hours"),
        h => format!("{:.1} days", h / 24.0),
    }
}

/// `text` in single quotes for a POSIX shell.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}
