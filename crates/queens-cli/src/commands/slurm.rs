//! `queens count N --slurm --shards M --dir DIR`: a count as a Slurm job array of shards and a
//! merge job that runs after them.
//!
//! Task `i` of the array runs this same program (by its absolute path) as `queens count N --shard
//! i/M --dir DIR`, which writes `DIR/shard-i-of-M.json` and checkpoints to
//! `DIR/shard-i-of-M.checkpoint`, so a task re-run after a failure or preemption resumes. The
//! merge job (`--dependency=afterok`, `--kill-on-invalid-dep=yes`) runs `queens merge` into
//! `DIR/result.json`. Submitting again submits only the shards without a report: that is how a
//! failed shard is resubmitted.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, bail};
use queens_api::count::{CountPlan, Shard};
use queens_api::setting::Setting;
use queens_api::shards::{Merged, ShardReport, report_pattern};
use queens_core::CancelToken;
use queens_core::parallel::system_refusal;
use queens_core::words::counted;
use serde_json::json;

use crate::args::{CountArgs, SaveFailureChoice};
use crate::commands::script::{self, quote_path};
use crate::exit::Exit;
use crate::output::stderr;

/// The most shards a `--slurm` count submits, in arrays of at most `--array-size` tasks
/// ([`ARRAY_TASKS`] unless told: Slurm's default `MaxArraySize` of 1,001 allows indices 0 to
/// 1,000; `sbatch` refuses an array beyond its own cluster's limit with a message this command
/// passes on).
const MAX_SHARDS: u32 = queens_api::limits::LIMITS.max_shards;
const ARRAY_TASKS: u32 = queens_api::limits::LIMITS.array_tasks;

/// A validated `--slurm` request.
pub struct SlurmCount {
    /// The count.
    pub plan: CountPlan,
    /// Shards in the array.
    pub shards: u32,
    /// Where reports, checkpoints, logs and the result go (absolute).
    pub dir: PathBuf,
    /// The options every task is given after its engine ([`task_options`]).
    pub task_options: String,
    /// Wait for the result and print it.
    pub wait: bool,
    /// Print JSON.
    pub json: bool,
    /// Options passed to every `sbatch` call.
    pub sbatch_args: Vec<String>,
    /// The most tasks an array has (shards beyond go to further arrays).
    pub array_tasks: u32,
}

/// `--shard slurm`: this array task's shard, from `SLURM_ARRAY_TASK_ID` and
/// `SLURM_ARRAY_TASK_COUNT` (or `_MIN` and `_MAX`), for an array that covers every shard once.
pub fn shard_from_environment(var: impl Fn(&str) -> Option<String>) -> anyhow::Result<Shard> {
    let number = |name: &str| -> anyhow::Result<Option<u32>> {
        var(name)
            .map(|text| {
                text.trim()
                    .parse::<u32>()
                    .with_context(|| format!("{name} is not a task number: '{text}'"))
            })
            .transpose()
    };
    let Some(id) = number("SLURM_ARRAY_TASK_ID")? else {
        bail!("--shard slurm runs inside a Slurm job array: SLURM_ARRAY_TASK_ID is not set");
    };
    let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
    let count = match (
        number("SLURM_ARRAY_TASK_COUNT")?,
        number("SLURM_ARRAY_TASK_MAX")?,
    ) {
        (Some(count), _) => count,
        (None, Some(max)) if max >= min => max - min + 1,
        _ => bail!(
            "--shard slurm needs SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MAX beside the task id"
        ),
    };
    let index = id
        .checked_sub(min)
        .with_context(|| format!("task {id} lies below the array's first task {min}"))?;
    Ok(Shard::new(index, count)?)
}

/// The most tasks an array has: `asked`, or [`ARRAY_TASKS`] (Slurm's default `MaxArraySize`
/// less one).
pub fn array_tasks(asked: Option<u32>) -> anyhow::Result<u32> {
    match asked {
        None => Ok(ARRAY_TASKS),
        Some(tasks) if (1..=MAX_SHARDS).contains(&tasks) => Ok(tasks),
        Some(tasks) => {
            bail!("--array-size must be at least 1 and at most {MAX_SHARDS}, got {tasks}")
        }
    }
}

/// The options of `args` that reach every task of a cluster count, as `--slurm` passes them and
/// `--plan` prints them: progress lines for its log (unless `--progress never`), the threads, the
/// GPU (by its index or address on the task's node), the
/// memory limit, the longest estimate a task starts unasked, and its checkpoint's spacing and
/// what a failed save does, where given. Each is checked here as a task would check it, so that
/// a value a task would refuse is refused before anything is submitted or printed.
pub fn task_options(args: &CountArgs) -> anyhow::Result<String> {
    // Each task's log says how far it got, unless `--progress never` was asked.
    let mut options = if crate::progress::is_never() {
        String::new()
    } else {
        " --progress lines".to_owned()
    };
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
        let _ = write!(options, " --memory {}", super::parse_bytes(memory)?);
    }
    if let Some(seconds) = args.max_estimate {
        let seconds = queens_api::count::check_max_estimate(seconds)?;
        let _ = write!(options, " --max-estimate {seconds}");
    }
    if let Some(seconds) = args.checkpoint_every {
        queens_api::request::parse_seconds(seconds, Setting::CheckpointEvery)?;
        let _ = write!(options, " --checkpoint-every {seconds}");
    }
    if let Some(choice) = args.on_save_failure {
        let choice = match choice {
            SaveFailureChoice::Continue => "continue",
            SaveFailureChoice::Stop => "stop",
        };
        let _ = write!(options, " --on-save-failure {choice}");
    }
    Ok(options)
}

/// Checks the shard count.
pub fn check_shards(shards: u32) -> anyhow::Result<()> {
    if !(1..=MAX_SHARDS).contains(&shards) {
        bail!("--shards must be at least 1 and at most {MAX_SHARDS}, got {shards}");
    }
    Ok(())
}

/// Submits the array and the merge, then waits for them when asked.
pub fn run(count: &SlurmCount, token: &CancelToken) -> anyhow::Result<Exit> {
    let program = script::program()?;
    script::check_nameable(&count.dir)?;
    std::fs::create_dir_all(&count.dir)
        .with_context(|| format!("cannot create {}", count.dir.display()))?;
    let n = count.plan.n();
    let m = count.shards;
    let pending: Vec<u32> = (0..m).filter(|&i| !has_report(count, i)).collect();
    let shards_jobs = submit_arrays(count, &program, &pending)?;
    // The reports' pattern quoted, for `merge` to expand: 100,000 names would outgrow any
    // shell's command line.
    let merge = format!(
        "exec {} merge --json --output {} {}",
        program,
        quote_path(&count.dir.join("result.json")),
        quote_path(&count.dir.join(report_pattern(m)))
    );
    let mut args: Vec<String> = vec![
        format!("--job-name=queens-merge-{n}"),
        format!("--output={}", count.dir.join("merge.log").display()),
    ];
    if !shards_jobs.is_empty() {
        args.push(format!("--dependency=afterok:{}", shards_jobs.join(":")));
        args.push("--kill-on-invalid-dep=yes".into());
    }
    args.extend(count.sbatch_args.iter().cloned());
    args.push(format!("--wrap={merge}"));
    // A result from an earlier submission is not this one's.
    let _ = std::fs::remove_file(count.dir.join("result.json"));
    let merge_job = sbatch(&args)?;
    let jobs: Vec<&str> = shards_jobs
        .iter()
        .map(String::as_str)
        .chain([merge_job.as_str()])
        .collect();
    let submitted = match shards_jobs.as_slice() {
        [] => format!(
            "every shard of N = {n} is already counted; submitted the merge as job {merge_job}"
        ),
        [job] => format!(
            "submitted {} of {m} shards of N = {n} as job {job} and their merge as job {merge_job}",
            pending.len()
        ),
        several => format!(
            "submitted {} of {m} shards of N = {n} as jobs {} (arrays of at most {} tasks) and their merge as job {merge_job}",
            pending.len(),
            several.join(", "),
            count.array_tasks
        ),
    };
    stderr!("{submitted}");
    stderr!("follow them with: squeue -j {}", jobs.join(","));
    stderr!(
        "the result goes to {}",
        count.dir.join("result.json").display()
    );
    if !count.wait {
        if count.json {
            // The jobs run whether or not their ids can be printed: a script that reads only
            // the exit status must not take the failure for no submission and submit again.
            super::print_json_line(&json!({
                "shards_job": shards_jobs.first(),
                "shards_jobs": shards_jobs,
                "merge_job": merge_job,
                "dir": count.dir
            }))
            .with_context(|| {
                format!(
                    "cannot print the jobs' ids, which were submitted all the same and run on \
                     (squeue -j {})",
                    jobs.join(",")
                )
            })?;
        }
        return Ok(Exit::Success);
    }
    if !wait_for(&jobs, token)? {
        stderr!(
            "stopped waiting; the jobs run on: squeue -j {}",
            jobs.join(",")
        );
        return Ok(Exit::NoAnswer);
    }
    finish(count)
}

/// Submits the shards `pending` in arrays of at most `count.array_tasks` tasks, each running
/// the shards from its base (a task's index is its shard less the base, so that no index passes
/// the cluster's `MaxArraySize`); returns the arrays' job ids.
fn submit_arrays(
    count: &SlurmCount,
    program: &str,
    pending: &[u32],
) -> anyhow::Result<Vec<String>> {
    let (n, m) = (count.plan.n(), count.shards);
    let mut shards_jobs = Vec::new();
    for group in pending.chunk_by(|a, b| a / count.array_tasks == b / count.array_tasks) {
        let base = group[0] / count.array_tasks * count.array_tasks;
        let indices: Vec<u32> = group.iter().map(|&i| i - base).collect();
        let shard = format!("$(({base} + SLURM_ARRAY_TASK_ID))");
        let mut task = format!(
            "exec {} count {n} --shard \"{shard}/{m}\" --dir {}",
            program,
            quote_path(&count.dir)
        );
        // Every task counts by the same engine, so that the shards' splits agree.
        let _ = write!(
            task,
            " --engine {}{}",
            count.plan.engine(),
            count.task_options
        );
        // Each task writes its shard's log itself (Slurm's file names know the task's index,
        // not its shard), appending, so that a requeued task's log keeps the run before; what
        // the shell says before that goes to the array's log.
        let dir = escape_in_double_quotes(&count.dir.display().to_string());
        let _ = write!(task, " >>\"{dir}/shard-{shard}-of-{m}.log\" 2>&1");
        let mut args: Vec<String> = vec![
            format!("--array={}", ranges(&indices)),
            format!("--job-name=queens-count-{n}"),
            format!(
                "--output={}",
                count.dir.join(format!("array-{base}-%a.log")).display()
            ),
        ];
        args.extend(count.sbatch_args.iter().cloned());
        args.push(format!("--wrap={task}"));
        shards_jobs.push(sbatch(&args)?);
    }
    Ok(shards_jobs)
}

/// Whether shard `index` already has a report of this count in the directory.
fn has_report(count: &SlurmCount, index: u32) -> bool {
    let Ok(shard) = Shard::new(index, count.shards) else {
        return false;
    };
    let Ok(text) = std::fs::read_to_string(shard.report_file(&count.dir)) else {
        return false;
    };
    serde_json::from_str::<ShardReport>(&text).is_ok_and(|report| report.is_of(&count.plan, shard))
}

/// After the jobs left the queue: the merged result, or which shards failed.
fn finish(count: &SlurmCount) -> anyhow::Result<Exit> {
    let result = count.dir.join("result.json");
    if let Ok(text) = std::fs::read_to_string(&result) {
        let merged: Merged = queens_core::json::read_object(text.as_bytes(), "the file")
            .with_context(|| format!("{} is not a merged count", result.display()))?;
        let mut out = crate::output::standard_output();
        if count.json {
            super::write_json_line(&mut out, &merged)?;
        } else {
            writeln!(
                out,
                "{}",
                super::solutions_line(merged.n, merged.total, merged.unique)
            )?;
            writeln!(
                out,
                "{} nodes in {} on the cluster",
                merged.nodes,
                counted(merged.shards, "shard", "shards")
            )?;
        }
        out.flush()?;
        return Ok(Exit::Success);
    }
    let failed: Vec<u32> = (0..count.shards)
        .filter(|&i| !has_report(count, i))
        .collect();
    if failed.is_empty() {
        stderr!(
            "every shard finished but the merge did not; see {}",
            count.dir.join("merge.log").display()
        );
    }
    for &i in &failed {
        stderr!(
            "shard {i} of {} failed; its log: {}",
            count.shards,
            Shard {
                index: i,
                count: count.shards
            }
            .log_file(&count.dir)
            .display()
        );
    }
    stderr!(
        "run the same command again to resubmit just the {}",
        if failed.len() == 1 {
            "failed shard"
        } else {
            "failed shards"
        }
    );
    Ok(Exit::NoAnswer)
}

/// What a count refused for want of `sbatch` is told.
const NO_SBATCH: &str =
    "sbatch not found: --slurm submits the count to a Slurm cluster and needs its sbatch on PATH";

/// Refuses a `--slurm` count where no `sbatch` is on PATH, before anything is made for it (its
/// `--dir` above all); `sbatch`'s own run says so too, should it go in between.
pub fn require_sbatch() -> anyhow::Result<()> {
    let found = std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| is_executable(&dir.join("sbatch")))
    });
    if !found {
        bail!(NO_SBATCH);
    }
    Ok(())
}

/// Whether `path` is a file marked as a program.
#[cfg(unix)]
fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .is_ok_and(|found| found.is_file() && found.permissions().mode() & 0o111 != 0)
}

/// Whether `path` is a file (where files carry no mark of a program).
#[cfg(not(unix))]
fn is_executable(path: &std::path::Path) -> bool {
    path.is_file()
}

/// Runs `sbatch --parsable ARGS` and returns the job id.
fn sbatch(args: &[String]) -> anyhow::Result<String> {
    let output = match Command::new("sbatch").arg("--parsable").args(args).output() {
        Ok(output) => output,
        Err(error) if error.kind() == io::ErrorKind::NotFound => bail!(NO_SBATCH),
        Err(error) => return Err(system_refusal(error)).context("cannot run sbatch"),
    };
    if !output.status.success() {
        let message = String::from_utf8_lossy(&output.stderr);
        bail!("the cluster refused the job: {}", message.trim());
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let id = stdout.trim().split(';').next().unwrap_or_default();
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        bail!("sbatch answered '{}' instead of a job id", stdout.trim());
    }
    Ok(id.to_owned())
}

/// Polls `squeue` until none of `jobs` is queued or running; `false` if `token` stopped the
/// wait first.
fn wait_for(jobs: &[&str], token: &CancelToken) -> anyhow::Result<bool> {
    let mut pause = Duration::from_millis(200);
    loop {
        let output = match Command::new("squeue")
            .args(["-h", "-o", "%i", "-j", &jobs.join(",")])
            .output()
        {
            Ok(output) => output,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                bail!("squeue not found: --wait follows the jobs with Slurm's squeue")
            }
            Err(error) => return Err(system_refusal(error)).context("cannot run squeue"),
        };
        // squeue refuses job ids it has already forgotten: they are done too.
        if output.stdout.iter().all(u8::is_ascii_whitespace) {
            return Ok(true);
        }
        let mut waited = Duration::ZERO;
        while waited < pause {
            if token.is_cancelled() {
                return Ok(false);
            }
            std::thread::sleep(Duration::from_millis(50));
            waited += Duration::from_millis(50);
        }
        pause = (pause * 2).min(Duration::from_secs(2));
    }
}

/// `0-3`, or `2,5,7-9`: the array indices of `indices` (sorted).
fn ranges(indices: &[u32]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let start = indices[i];
        let mut end = start;
        while i + 1 < indices.len() && indices[i + 1] == end + 1 {
            i += 1;
            end += 1;
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    parts.join(",")
}

/// `text` escaped for the inside of double quotes in a POSIX shell: `"`, `\`, `$` and `` ` ``.
fn escape_in_double_quotes(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '"' | '\\' | '$' | '`') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_indices_collapse_into_ranges() {
        assert_eq!(ranges(&[0, 1, 2, 3]), "0-3");
        assert_eq!(ranges(&[2, 5, 7, 8, 9]), "2,5,7-9");
        assert_eq!(ranges(&[4]), "4");
    }

    #[test]
    fn the_shard_comes_from_the_array_variables() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| (*value).to_owned())
            }
        };
        let shard = shard_from_environment(env(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ]))
        .unwrap();
        assert_eq!(shard, Shard::new(3, 8).unwrap());
        let from_one = shard_from_environment(env(&[
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "4"),
        ]))
        .unwrap();
        assert_eq!(from_one, Shard::new(3, 4).unwrap());
        assert!(shard_from_environment(env(&[])).is_err());
        assert!(shard_from_environment(env(&[("SLURM_ARRAY_TASK_ID", "2")])).is_err());
    }

    #[test]
    fn double_quotes_keep_a_path_literal() {
        assert_eq!(
            escape_in_double_quotes(r#"/a $b/`c`/"d"\e"#),
            r#"/a \$b/\`c\`/\"d\"\\e"#
        );
    }
}
