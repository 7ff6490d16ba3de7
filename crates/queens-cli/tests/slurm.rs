//! Counting on a Slurm cluster: N = 12 in four shards through `queens count --slurm --wait`,
//! against OEIS, then one shard lost and resubmitted alone.
//!
//! Needs a running cluster (`scripts/slurm/local-cluster.sh start` and its `SLURM_CONF`); when
//! `sinfo` cannot reach one, the cluster tests say so and pass, unless `QUEENS_REQUIRE_SLURM` is
//! set, as `.ci/run` sets it.

use std::fmt::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::{Scratch, assert_counts, scratch};

fn queens() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("queens"))
}

/// Whether `sinfo` reaches a cluster with a node up.
fn cluster_available() -> bool {
    let reachable = Command::new("sinfo")
        .args(["-h", "-o", "%T"])
        .output()
        .is_ok_and(|output| output.status.success() && !output.stdout.trim_ascii().is_empty());
    if !reachable {
        assert!(
            std::env::var_os("QUEENS_REQUIRE_SLURM").is_none(),
            "QUEENS_REQUIRE_SLURM is set but sinfo reaches no Slurm cluster"
        );
        eprintln!("skipped: no Slurm cluster (start one with scripts/slurm/local-cluster.sh)");
    }
    reachable
}

/// Points `command` at the first GPU adapter found (lavapipe here, a node's GPU on a cluster),
/// or gives it `cpu` where there is none.
fn on_a_gpu_if_any(command: &mut Command, cpu: &[&str]) {
    let devices = queens().args(["devices", "--json"]).output().unwrap();
    let devices: serde_json::Value =
        serde_json::from_slice(&devices.stdout).unwrap_or(serde_json::Value::Null);
    match devices["devices"][0]["index"].as_u64() {
        Some(index) => command.args(["--engine", "gpu", "--device", &index.to_string()]),
        None => command.args(cpu),
    };
}

/// A fresh directory `name` for a test's count on the cluster, or `None` (with a note) where
/// no cluster answers and none is required.
fn on_the_cluster(name: &str) -> Option<Scratch> {
    cluster_available().then(|| fresh_dir(name))
}

/// What a failed cluster test leaves to read: every log in `dir` and what `scontrol` still
/// knows of the jobs in `submitted` (its `--json` answer).
fn what_happened(dir: &std::path::Path, submitted: &serde_json::Value) -> String {
    let mut text = String::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|entry| entry.path()).collect())
        .unwrap_or_default();
    entries.sort();
    for path in entries {
        let contents = std::fs::read_to_string(&path).unwrap_or_default();
        let shown = if path.extension().is_some_and(|ext| ext == "log") {
            contents
        } else {
            format!("({} bytes)", contents.len())
        };
        let _ = writeln!(text, "--- {}\n{shown}", path.display());
    }
    let jobs = submitted["shards_jobs"]
        .as_array()
        .into_iter()
        .flatten()
        .chain([&submitted["merge_job"]])
        .filter_map(serde_json::Value::as_str);
    for job in jobs {
        let shown = Command::new("scontrol")
            .args(["show", "job", job])
            .output()
            .map(|output| String::from_utf8_lossy(&output.stdout).into_owned())
            .unwrap_or_default();
        let _ = writeln!(text, "--- scontrol show job {job}\n{shown}");
    }
    text
}

/// A fresh, empty directory `name` for a test's files, removed when dropped.
fn fresh_dir(name: &str) -> Scratch {
    scratch(&format!("slurm-{name}"))
}

#[test]
fn twelve_counts_in_four_shards_on_the_cluster() {
    let Some(dir) = on_the_cluster("twelve") else {
        return;
    };
    let count = |dir: &Path| {
        queens()
            .args([
                "count", "12", "--engine", "join", "--slurm", "--shards", "4", "--wait", "--json",
                "--dir",
            ])
            .arg(dir)
            .output()
            .unwrap()
    };
    let output = count(&dir);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("submitted 4 of 4 shards of N = 12"),
        "{stderr}"
    );
    let merged: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_counts(&merged, 14_200, 1_787);
    assert_eq!(merged["shards"], 4);
    for i in 0..4 {
        assert!(dir.join(format!("shard-{i}-of-4.json")).exists());
    }

    // A lost shard is all that a second submission runs.
    std::fs::remove_file(dir.join("shard-2-of-4.json")).unwrap();
    let again = count(&dir);
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert_eq!(again.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("submitted 1 of 4 shards"), "{stderr}");
    let merged: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(merged["total"].as_u64(), Some(14_200));
}

#[test]
fn a_failing_shard_is_named_with_how_to_resubmit_it() {
    let Some(dir) = on_the_cluster("failing") else {
        return;
    };
    std::fs::create_dir_all(&dir).unwrap();
    // A checkpoint of another count makes shard 1 refuse to run.
    std::fs::write(dir.join("shard-1-of-3.checkpoint"), "not a checkpoint").unwrap();
    let output = queens()
        .args(["count", "10", "--slurm", "--shards", "3", "--wait", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("shard 1 of 3 failed"), "{stderr}");
    assert!(stderr.contains("run the same command again"), "{stderr}");
}

#[test]
fn without_sbatch_the_error_says_what_is_missing() {
    // With options for sbatch after `--` too: they are sbatch's, not a second size.
    // Refused before --dir is made (and the directories above it); one that was there stays.
    let scratch = fresh_dir("nosbatch");
    let there = scratch.join("there");
    std::fs::create_dir(&there).unwrap();
    for (extra, dir) in [
        (&[][..], scratch.join("new/and/deeper")),
        (&["--", "--partition=long", "--requeue"], there.clone()),
    ] {
        let output = queens()
            .args(["count", "10", "--slurm", "--shards", "2", "--dir"])
            .arg(&dir)
            .args(extra)
            .env("PATH", "/nonexistent")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("sbatch not found"), "{stderr}");
    }
    assert!(!scratch.join("new").exists());
    assert!(there.is_dir());
    // A count without its size asks for the size alone.
    let output = queens().args(["count", "--json"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("<SIZE>"), "{stderr}");
    assert!(!stderr.contains("SBATCH OPTIONS>...\n"), "{stderr}");
    assert!(
        stderr.contains("Usage: queens count --json <SIZE> [-- <SBATCH OPTIONS>...]"),
        "{stderr}"
    );
}

#[test]
fn shard_slurm_reads_the_array_variables() {
    let dir = fresh_dir("env");
    let output = queens()
        .args(["count", "8", "--shard", "slurm", "--dir"])
        .arg(&dir)
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("SLURM_ARRAY_TASK_COUNT", "2")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("shard-1-of-2.json")).unwrap())
            .unwrap();
    assert_eq!(
        (report["shard"].as_u64(), report["shards"].as_u64()),
        (Some(1), Some(2))
    );
    let outside = queens()
        .args(["count", "8", "--shard", "slurm"])
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    assert_eq!(outside.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&outside.stderr).contains("SLURM_ARRAY_TASK_ID"));
}

/// A stand-in for `sbatch` in `dir` that records its arguments, a line each, in `dir/calls` and
/// answers a job id: the `PATH` that finds it first, and the file.
fn recording_sbatch(dir: &Path) -> (String, PathBuf) {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let calls = dir.join("calls");
    std::fs::write(
        bin.join("sbatch"),
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '{}'\necho 7\n",
            calls.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(bin.join("sbatch"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (path, calls)
}

/// Where the jobs' ids cannot be printed (`--json` into a full disk), the jobs still run: the
/// error says they were submitted and how to follow them, so that a script reading only the exit
/// status does not take it for no submission.
#[test]
fn ids_that_cannot_be_printed_are_named_as_submitted() {
    let dir = fresh_dir("ids-unprinted");
    let (path, calls) = recording_sbatch(&dir);
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let submitted = queens()
        .args(["count", "12", "--shards", "2", "--slurm", "--json", "--dir"])
        .arg(dir.join("out"))
        .env("PATH", &path)
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&submitted.stderr);
    assert_eq!(submitted.status.code(), Some(2), "{stderr}");
    assert!(std::fs::read_to_string(&calls).unwrap().contains("--wrap="));
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(
            "error: cannot print the jobs' ids, which were submitted all the same and run on \
             (squeue -j 7,7): cannot write to standard output: "
        ),
        "{stderr}"
    );
}

/// Every option of a count that its tasks take reaches every task, from `--slurm` (played by a
/// stand-in that records what it is asked) and `--plan` alike.
#[test]
fn every_task_option_reaches_every_task() {
    let dir = fresh_dir("task-options");
    let (path, calls) = recording_sbatch(&dir);
    let options = [
        "--threads",
        "3",
        "--memory",
        "2G",
        "--max-estimate",
        "100",
        "--checkpoint-every",
        "300",
        "--on-save-failure",
        "stop",
    ];
    let count = ["count", "12", "--engine", "backtracking", "--shards", "2"];
    let out = dir.join("out");
    let submitted = queens()
        .args(count)
        .args(options)
        .args(["--slurm", "--dir"])
        .arg(&out)
        .env("PATH", &path)
        .output()
        .unwrap();
    assert_eq!(submitted.status.code(), Some(0), "{submitted:?}");
    let asked = std::fs::read_to_string(&calls).unwrap();
    let task = asked
        .lines()
        .find(|line| line.starts_with("--wrap=") && line.contains("--shard"))
        .unwrap_or_else(|| panic!("no task line in {asked}"));
    // Each task's log says how far it got.
    let given = " --progress lines --threads 3 --memory 2147483648 --max-estimate 100 \
                 --checkpoint-every 300 --on-save-failure stop";
    assert!(task.contains(given), "{task}");

    let planned = queens()
        .args(count)
        .args(options)
        .args(["--plan", "--json", "--rate", "1e6", "--dir"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(planned.status.code(), Some(0), "{planned:?}");
    let plan: serde_json::Value = serde_json::from_slice(&planned.stdout).unwrap();
    for field in ["sbatch", "recount_sbatch"] {
        for line in plan_lines(&plan, field) {
            // Quoted once more inside the line's own quotes.
            assert!(line.replace(r"'\''", "'").contains(given), "{line}");
        }
    }
    // Unless no progress was asked for.
    let quiet = queens()
        .args(count)
        .args([
            "--progress",
            "never",
            "--plan",
            "--json",
            "--rate",
            "1e6",
            "--dir",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let plan: serde_json::Value = serde_json::from_slice(&quiet.stdout).unwrap();
    for line in plan_lines(&plan, "sbatch") {
        assert!(!line.contains("--progress"), "{line}");
    }

    // A GPU named by its address reaches each task as its address, written as `queens
    // devices` writes it.
    let planned = queens()
        .args([
            "count",
            "12",
            "--engine",
            "gpu",
            "--device",
            "00000000:3B:00.0",
            "--shards",
        ])
        .args(["2", "--plan", "--json", "--rate", "1e6", "--dir"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(planned.status.code(), Some(0), "{planned:?}");
    let plan: serde_json::Value = serde_json::from_slice(&planned.stdout).unwrap();
    for line in plan_lines(&plan, "sbatch") {
        assert!(line.contains(" --device 0000:3b:00.0"), "{line}");
    }
}

/// A value a task would refuse is refused by `--slurm` and `--plan` before anything is made,
/// submitted or printed; `--time-limit`, which bounds one run, is refused with what bounds a
/// task instead.
#[test]
fn options_a_task_would_refuse_are_refused_before_submitting() {
    let dir = fresh_dir("task-refusals");
    let (path, calls) = recording_sbatch(&dir);
    let count = ["count", "12", "--engine", "backtracking", "--shards", "2"];
    let untouched = dir.join("untouched");
    for (bad, refusal) in [
        (
            &["--checkpoint-every", "nan"][..],
            "--checkpoint-every must be a positive number",
        ),
        (
            &["--max-estimate", "-5"][..],
            "--max-estimate must be a positive number",
        ),
        (&["--memory", "junk"][..], "--memory must be a size"),
        (
            &["--device", "0"][..],
            "--device is for the gpu engine, not backtracking",
        ),
    ] {
        for how in [&["--slurm"][..], &["--plan", "--rate", "1e6"][..]] {
            std::fs::remove_file(&calls).ok();
            let refused = queens()
                .args(count)
                .args(bad)
                .args(how)
                .arg("--dir")
                .arg(&untouched)
                .env("PATH", &path)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&refused.stderr);
            assert_eq!(refused.status.code(), Some(2), "{bad:?} {how:?}: {stderr}");
            assert!(stderr.contains(refusal), "{bad:?} {how:?}: {stderr}");
            assert!(refused.stdout.is_empty(), "{bad:?} {how:?}");
            assert!(!calls.exists(), "{bad:?} {how:?}: sbatch was called");
            assert!(
                !untouched.exists(),
                "{bad:?} {how:?}: the directory was made"
            );
        }
    }

    let refused = queens()
        .args(count)
        .args(["--time-limit", "60", "--slurm", "--dir"])
        .arg(&untouched)
        .env("PATH", &path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("-- --time=MINUTES"), "{stderr}");
}

/// A stand-in for `sbatch` in `dir`, for the lines a plan prints: it runs each task of the
/// array (`--array=0-K`) in turn with its `SLURM_ARRAY_TASK_ID`, through `sh -c` as Slurm's
/// `--wrap` does, and fails if a task does.
fn sbatch_stand_in(dir: &std::path::Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = bin.join("sbatch");
    std::fs::write(
        &script,
        r#"#!/bin/sh
last=; wrap=
for arg in "$@"; do
  case "$arg" in
    --array=0-*) last="${arg#--array=0-}" ;;
    --wrap=*) wrap="${arg#--wrap=}" ;;
  esac
done
i=0
while [ "$i" -le "$last" ]; do
  SLURM_ARRAY_TASK_ID=$i sh -c "$wrap" || exit 1
  i=$((i + 1))
done
echo "Submitted batch job 1"
"#,
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

/// Runs `line`, as printed, in a shell whose `sbatch` is `bin`'s, or the cluster's.
fn run_line(line: &str, bin: Option<&std::path::Path>) -> std::process::Output {
    let mut shell = Command::new("sh");
    shell.args(["-c", line]);
    if let Some(bin) = bin {
        let path = std::env::var("PATH").unwrap_or_default();
        shell.env("PATH", format!("{}:{path}", bin.display()));
    }
    shell.output().unwrap()
}

/// `queens count 10 --plan --json` in six shards, in arrays of at most four tasks, half of them
/// drawn to count again, writing to `dir`.
fn plan_of_ten(dir: &std::path::Path) -> serde_json::Value {
    let output = queens()
        .args([
            "count",
            "10",
            "--plan",
            "--json",
            "--engine",
            "backtracking",
            "--rate",
            "1e3",
            "--shards",
            "6",
            "--array-size",
            "4",
            "--recount-share",
            "0.5",
            "--dir",
        ])
        .arg(dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The `sbatch` lines of `field` in a plan.
fn plan_lines(plan: &serde_json::Value, field: &str) -> Vec<String> {
    plan[field]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| line.as_str().unwrap().to_owned())
        .collect()
}

/// After a plan of ten's lines ran: every report there, a recount of exactly the shards drawn,
/// and the merge line checking them and giving OEIS.
fn assert_plan_of_ten_counted(
    plan: &serde_json::Value,
    dir: &std::path::Path,
    bin: Option<&std::path::Path>,
) {
    let drawn: Vec<u64> = serde_json::from_value(plan["recount"].clone()).unwrap();
    assert_eq!(drawn.len(), 3, "{plan}");
    for shard in 0..6 {
        let report = dir.join(format!("shard-{shard}-of-6.json"));
        assert!(report.exists(), "{}", report.display());
        let recounted = dir.join("recount").join(format!("shard-{shard}-of-6.json"));
        assert_eq!(recounted.exists(), drawn.contains(&shard), "shard {shard}");
    }
    let merge = plan["merge"].as_str().unwrap();
    let merged = run_line(merge, bin);
    let stderr = String::from_utf8_lossy(&merged.stderr);
    assert!(merged.status.success(), "{merge}: {stderr}");
    assert!(
        stderr.contains("3 shards of 6 counted again: every one agrees"),
        "{stderr}"
    );
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("result.json")).unwrap()).unwrap();
    assert_counts(&result, 724, 92);
}

/// The lines `--plan` prints run as printed: every array of the count (two here, of at most
/// four tasks), the arrays that count the drawn shards again into `recount/` (each task picking
/// its shard from its array's list), and the merge, which checks the recounts and gives OEIS.
/// Slurm is played by a stand-in that runs each array's tasks in turn.
#[test]
fn a_plans_lines_count_recount_and_merge_as_printed() {
    let dir = fresh_dir("plan-lines");
    let bin = sbatch_stand_in(&dir);
    let plan = plan_of_ten(&dir);
    let (count, again) = (
        plan_lines(&plan, "sbatch"),
        plan_lines(&plan, "recount_sbatch"),
    );
    assert_eq!((count.len(), again.len()), (2, 1), "{plan}");
    let setup = plan["setup"].as_str().unwrap();
    for line in std::iter::once(setup).chain(count.iter().chain(&again).map(String::as_str)) {
        let ran = run_line(line, Some(&bin));
        assert!(ran.status.success(), "{line}: {ran:?}");
    }
    assert_plan_of_ten_counted(&plan, &dir, Some(&bin));
}

/// The same plan's lines submitted to the cluster as printed: Slurm takes every option they
/// give (`--requeue`, `--time`, the job names and logs) and runs each `--wrap` in its shell.
#[test]
fn a_plans_lines_run_on_the_cluster_as_printed() {
    let Some(dir) = on_the_cluster("plan-cluster") else {
        return;
    };
    let plan = plan_of_ten(&dir);
    assert!(
        run_line(plan["setup"].as_str().unwrap(), None)
            .status
            .success()
    );
    let mut jobs = Vec::new();
    for line in plan_lines(&plan, "sbatch")
        .iter()
        .chain(&plan_lines(&plan, "recount_sbatch"))
    {
        let submitted = run_line(line, None);
        let stdout = String::from_utf8_lossy(&submitted.stdout);
        assert!(submitted.status.success(), "{line}: {submitted:?}");
        let job = stdout
            .trim()
            .rsplit(' ')
            .next()
            .unwrap_or_default()
            .to_owned();
        assert!(job.parse::<u64>().is_ok(), "{stdout}");
        jobs.push(job);
    }
    let started = std::time::Instant::now();
    loop {
        let queued = Command::new("squeue")
            .args(["-h", "-o", "%i", "-j", &jobs.join(",")])
            .output()
            .unwrap();
        if queued.stdout.trim_ascii().is_empty() {
            break;
        }
        assert!(started.elapsed().as_secs() < 300, "the arrays never ended");
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    assert_plan_of_ten_counted(&plan, &dir, None);
}

/// A count of more shards than an array may hold goes to several arrays, each task told its
/// shard by its array's base, and one merge after them all; here on the GPU engine (lavapipe
/// named by index, as a node's GPU would be) when an adapter is found.
#[test]
fn shards_beyond_an_array_go_to_further_arrays() {
    let Some(dir) = on_the_cluster("arrays") else {
        return;
    };
    let mut command = queens();
    command.args([
        "count",
        "12",
        "--slurm",
        "--shards",
        "5",
        "--array-size",
        "2",
        "--wait",
        "--json",
    ]);
    on_a_gpu_if_any(&mut command, &["--engine", "backtracking"]);
    let output = command.arg("--dir").arg(&dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("submitted 5 of 5 shards of N = 12 as jobs"),
        "{stderr}"
    );
    assert!(stderr.contains("(arrays of at most 2 tasks)"), "{stderr}");
    let merged: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_counts(&merged, 14_200, 1_787);
    assert_eq!(merged["shards"], 5);
    for i in 0..5 {
        assert!(
            dir.join(format!("shard-{i}-of-5.json")).exists(),
            "report {i}"
        );
        assert!(dir.join(format!("shard-{i}-of-5.log")).exists(), "log {i}");
    }
}

/// A task killed mid-count and requeued by Slurm (as a preemption does) runs again from its
/// checkpoint, and the merge is exact: N = 17 in two shards on the GPU engine (lavapipe) when
/// an adapter is found, else on the CPU.
#[test]
fn a_killed_task_is_requeued_and_the_merge_is_exact() {
    let Some(dir) = on_the_cluster("requeue") else {
        return;
    };
    let mut command = queens();
    command.args(["count", "17", "--slurm", "--shards", "2", "--json"]);
    on_a_gpu_if_any(
        &mut command,
        &["--engine", "backtracking", "--threads", "1"],
    );
    let output = command
        .arg("--dir")
        .arg(&dir)
        .args(["--", "--requeue"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let jobs: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let shards_job = jobs["shards_job"].as_str().unwrap().to_owned();
    let merge_job = jobs["merge_job"].as_str().unwrap().to_owned();
    let squeue = |format: &str, job: &str| {
        let output = Command::new("squeue")
            .args(["-h", "-o", format, "-j", job])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let scontrol = |args: &[&str]| Command::new("scontrol").args(args).status().unwrap();
    // Task 0 running for a second or two: killed and put back in the queue.
    let task = format!("{shards_job}_0");
    let started = std::time::Instant::now();
    while !squeue("%T", &task).contains("RUNNING") {
        assert!(started.elapsed().as_secs() < 60, "task 0 never ran");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    std::thread::sleep(std::time::Duration::from_secs(2));
    assert!(scontrol(&["requeue", &task]).success(), "requeue {task}");
    // Slurm holds a requeued job a couple of minutes (its begin time set ahead once the requeue
    // is done). Releasing it sooner has one limit: slurmd refuses to launch a job in the second
    // it revoked the job's credential ("Job credential revoked": the task fails with exit code
    // 1 and the merge is cancelled). So once the task has been back in the queue for two
    // seconds, let it start again now, and again until it does (an update that lands before the
    // requeue finishes is overwritten by it).
    let started = std::time::Instant::now();
    let mut pending_since = None;
    loop {
        if squeue("%T", &task).contains("PENDING") {
            let since = *pending_since.get_or_insert_with(std::time::Instant::now);
            if since.elapsed().as_secs() >= 2 {
                scontrol(&["update", &format!("JobId={task}"), "StartTime=now"]);
            }
        } else if pending_since.is_some() {
            break;
        }
        assert!(started.elapsed().as_secs() < 60, "{task} not released");
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    let started = std::time::Instant::now();
    while !squeue("%i", &format!("{shards_job},{merge_job}"))
        .trim()
        .is_empty()
    {
        assert!(started.elapsed().as_secs() < 300, "the jobs never ended");
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    let result = std::fs::read_to_string(dir.join("result.json")).unwrap_or_else(|error| {
        panic!("no result.json ({error}):\n{}", what_happened(&dir, &jobs))
    });
    let merged: serde_json::Value = serde_json::from_str(&result).unwrap();
    assert_counts(&merged, 95_815_104, 11_977_939);
    // The shard's log holds both runs: the one the requeue stopped, keeping its checkpoint,
    // then the one that resumed from it.
    let log = std::fs::read_to_string(dir.join("shard-0-of-2.log")).unwrap();
    assert!(log.contains("stopped (cancelled)"), "{log}");
    assert!(log.contains("to resume from"), "{log}");
    assert!(log.contains("\"complete\":true"), "{log}");
}
