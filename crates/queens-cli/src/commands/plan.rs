//! `queens count N --plan`: a record count planned without counting — its nodes estimated by
//! random probes, the device-hours at a rate, shards of about an hour, and the Slurm arrays of
//! at most 1,000 tasks that run them, printed as the lines to submit; then the arrays that count
//! a sample of the shards again on other devices, and the merge that checks them.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use queens_api::count::{CountPlan, Engine};
use queens_api::shards::{
    Campaign, MEASURED_GPU_RATE, RECOUNT_SHARE, SLURM_MOST_TASK_HOURS, report_pattern,
};
use queens_core::words::counted;
use serde::Serialize;

use crate::args::{CountArgs, EngineChoice};
use crate::commands::script::{self, quote, quote_path};
use crate::commands::{parse_side_for, slurm};
use crate::exit::Exit;

/// What `--plan --json` prints: the campaign's numbers (the node estimate a whole number, past
/// 2⁶⁴ from N = 28; the shards to count again), the line that makes the directories (`setup`:
/// Slurm writes a task's log there before the task runs), the `sbatch` lines of the count and
/// of the recount, and the merge.
#[derive(Serialize)]
struct PlanDocument<'a> {
    engine: &'static str,
    #[serde(flatten)]
    campaign: &'a Campaign,
    #[serde(flatten)]
    lines: &'a Lines,
}

/// Where the recounts' reports go, in the campaign's directory.
const RECOUNT_DIR: &str = "recount";

/// Runs `queens count N --plan`.
pub fn run(args: &CountArgs) -> anyhow::Result<Exit> {
    let size = args
        .position
        .board
        .size()
        .context("--plan plans a whole count: give N")?;
    let n = parse_side_for(size, queens_api::count::SIDES)?;
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
    if args.device.is_some() && engine != Engine::Gpu {
        bail!("--device is for the gpu engine, not {engine}");
    }
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
    let recount_share = match args.recount_share {
        None => RECOUNT_SHARE,
        Some(share) if (0.0..=1.0).contains(&share) => share,
        Some(share) => bail!("--recount-share must be a share from 0 to 1, got {share}"),
    };
    let plan = CountPlan::with_engine(n, engine)?;
    let array_tasks = slurm::array_tasks(args.array_size)?;
    let campaign = Campaign::new(&plan, rate, args.shards, array_tasks, recount_share)
        .context("the split has no parts to plan")?;
    if !campaign.fits_a_task() {
        let (device, measured) = if engine == Engine::Gpu {
            (
                "GPU",
                format!(" (an H100 counts about {MEASURED_GPU_RATE:.2e})"),
            )
        } else {
            ("task", String::new())
        };
        bail!(
            "at {rate:.3e} nodes a second a {device}, a shard would run longer than Slurm gives a \
             task (at most {SLURM_MOST_TASK_HOURS} hours): give --rate as the nodes a second one \
             {device} counts{measured}"
        );
    }
    let dir = match &args.dir {
        Some(dir) => {
            std::path::absolute(dir).with_context(|| format!("cannot use {}", dir.display()))?
        }
        None => PathBuf::from(format!("queens-{n}")),
    };
    script::check_nameable(&dir)?;
    let program = script::program()?;
    let task = Task {
        campaign: &campaign,
        engine,
        program: &program,
        options: &slurm::task_options(args)?,
    };
    let lines = task.lines(&dir);
    let mut out = crate::output::standard_output();
    if args.json {
        let document = PlanDocument {
            engine: engine.name(),
            campaign: &campaign,
            lines: &lines,
        };
        super::write_json_line(&mut out, &document)?;
    } else {
        write_text(&mut out, &campaign, engine, &lines)?;
    }
    out.flush()?;
    Ok(Exit::Success)
}

/// What every task of a campaign runs: this program, counting N's shards with the engine and
/// the task options given.
struct Task<'a> {
    campaign: &'a Campaign,
    engine: Engine,
    program: &'a str,
    options: &'a str,
}

impl Task<'_> {
    /// Every line of the campaign in `dir`: the directories made, the count's arrays, the
    /// recount's into `dir/recount`, and the merge (checking the recounts if any).
    fn lines(&self, dir: &Path) -> Lines {
        let count = self.sbatch_lines(dir);
        let recount_dir = dir.join(RECOUNT_DIR);
        let recount = self.recount_lines(&recount_dir);
        let pattern = |dir: &Path| quote_path(&dir.join(report_pattern(self.campaign.shards)));
        let mut merge = format!(
            "{} merge --json --output {} {}",
            self.program,
            quote_path(&dir.join("result.json")),
            pattern(dir)
        );
        if !recount.is_empty() {
            let _ = write!(merge, " --recount {}", pattern(&recount_dir));
        }
        // Slurm opens each task's log before the task runs, so the directories must be there.
        let made = if recount.is_empty() {
            dir
        } else {
            &recount_dir
        };
        Lines {
            setup: format!("mkdir -p {}", quote_path(made)),
            count,
            recount,
            merge,
        }
    }

    /// The `sbatch` line of each array: its tasks count shards `first + SLURM_ARRAY_TASK_ID`,
    /// may be requeued (a task resumes from its checkpoint), and get twice a shard's hours.
    fn sbatch_lines(&self, dir: &Path) -> Vec<String> {
        self.campaign
            .arrays
            .iter()
            .map(|array| {
                let shard = format!("$(({} + SLURM_ARRAY_TASK_ID))", array.first);
                self.array_line(&array.first.to_string(), array.tasks, "", &shard, dir)
            })
            .collect()
    }

    /// The `sbatch` lines that count the recount sample again into `dir`, in arrays of at most
    /// the campaign's array size: each task's shard is the one its index picks from its array's
    /// list (`set --` and `shift`, which any POSIX shell runs), since array indices cannot reach
    /// shard numbers past the cluster's `MaxArraySize`.
    fn recount_lines(&self, dir: &Path) -> Vec<String> {
        let campaign = self.campaign;
        campaign
            .recount
            .chunks(campaign.array_tasks as usize)
            .enumerate()
            .map(|(array, shards)| {
                let list: Vec<String> = shards.iter().map(u32::to_string).collect();
                let pick = format!("set -- {}; shift $SLURM_ARRAY_TASK_ID; ", list.join(" "));
                let name = format!("recount-{}", array as u32 * campaign.array_tasks);
                self.array_line(&name, shards.len() as u32, &pick, "$1", dir)
            })
            .collect()
    }

    /// One array's `sbatch` line: `tasks` tasks, its job and logs named by `name`, each
    /// running `before` and then counting shard `shard` (a shell expression) into `dir`.
    fn array_line(&self, name: &str, tasks: u32, before: &str, shard: &str, dir: &Path) -> String {
        let campaign = self.campaign;
        let gres = if self.engine == Engine::Gpu {
            " --gres=gpu:1"
        } else {
            ""
        };
        let task = format!(
            "{before}exec {} count {} --engine {} --shard {shard}/{} --dir {}{}",
            self.program,
            campaign.n,
            self.engine.name(),
            campaign.shards,
            quote_path(dir),
            self.options,
        );
        format!(
            "sbatch --array=0-{} --requeue{gres} --time={}:00:00 --job-name=queens-{}-{name} --output={} --wrap={}",
            tasks - 1,
            campaign.task_hours(),
            campaign.n,
            quote_path(&dir.join(format!("array-{name}-%a.log"))),
            quote(&task),
        )
    }
}

/// The lines a plan prints: the directories made, the count's arrays, the recount's, and the
/// merge, under the names `--plan --json` gives them.
#[derive(Serialize)]
struct Lines {
    setup: String,
    #[serde(rename = "sbatch")]
    count: Vec<String>,
    #[serde(rename = "recount_sbatch")]
    recount: Vec<String>,
    merge: String,
}

fn write_text(
    out: &mut impl Write,
    campaign: &Campaign,
    engine: Engine,
    lines: &Lines,
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
    writeln!(out, "{}", lines.setup)?;
    for line in &lines.count {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "Each task checkpoints as it counts; a preempted task is requeued and resumes. Submit \
         the same lines again for the tasks that failed (a finished shard's task only reads its \
         checkpoint)."
    )?;
    writeln!(out)?;
    if !lines.recount.is_empty() {
        let machines = if engine == Engine::Gpu {
            "GPUs"
        } else {
            "nodes"
        };
        writeln!(
            out,
            "Count {} again, drawn at random ({} of the shards, rounded up), on other {machines} \
             than the ones that counted them (add a --partition, or --exclude their nodes):",
            counted(campaign.recount.len(), "shard", "shards"),
            percent(campaign.recount_share),
        )?;
        writeln!(out)?;
        for line in &lines.recount {
            writeln!(out, "{line}")?;
        }
        writeln!(out)?;
    }
    let merge = if lines.recount.is_empty() {
        "When every report is there:"
    } else {
        "When every report is there (the merge refuses the count if any shard counted again \
         differs):"
    };
    writeln!(out, "{merge}")?;
    writeln!(out)?;
    writeln!(out, "{}", lines.merge)
}

/// A share as a percentage that reads whole where it is: "1 %", "0.5 %", "100 %".
fn percent(share: f64) -> String {
    format!("{} %", (share * 1e4).round() / 1e2)
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
