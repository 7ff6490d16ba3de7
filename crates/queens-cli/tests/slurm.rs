//! Counting on a Slurm cluster: N = 12 in four shards through `queens count --slurm --wait`,
//! against OEIS, then one shard lost and resubmitted alone.
//!
//! Needs a running cluster (`scripts/slurm/local-cluster.sh start` and its `SLURM_CONF`); when
//! `sinfo` cannot reach one, the cluster tests say so and pass, unless `QUEENS_REQUIRE_SLURM` is
//! set, as `.ci/run` sets it.

use std::path::PathBuf;
use std::process::Command;

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

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("queens-slurm-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn twelve_counts_in_four_shards_on_the_cluster() {
    if !cluster_available() {
        return;
    }
    let dir = fresh_dir("twelve");
    let count = |dir: &PathBuf| {
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
    assert_eq!(
        (merged["total"].as_u64(), merged["unique"].as_u64()),
        (Some(14_200), Some(1_787))
    );
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
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_failing_shard_is_named_with_how_to_resubmit_it() {
    if !cluster_available() {
        return;
    }
    let dir = fresh_dir("failing");
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
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn without_sbatch_the_error_says_what_is_missing() {
    let output = queens()
        .args(["count", "10", "--slurm", "--shards", "2", "--dir"])
        .arg(fresh_dir("nosbatch"))
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("sbatch not found"), "{stderr}");
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
    std::fs::remove_dir_all(dir).unwrap();
}
