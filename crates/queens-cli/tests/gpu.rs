//! `queens count --engine gpu` and `queens devices` as a user runs them: the refusal that names
//! what is missing when there is no driver, and — on whatever adapter the machine has, in CI
//! Mesa's software Vulkan — counts, shards that merge with the CPU's, and a stopped count
//! resumed from its checkpoint. Without an adapter the device tests pass vacuously, saying so,
//! unless `QUEENS_REQUIRE_GPU=1` (as CI sets) makes that a failure.

use serde_json::Value;

mod common;

use common::{Scratch, assert_counts, json, queens, refuses, run, scratch};
use queens_api::count::{CountPlan, Engine, Shard};
use queens_api::shards::ShardReport;

/// `queens args…` with no Vulkan driver to be found.
fn without_driver(args: &[&str]) -> std::process::Output {
    queens()
        .args(args)
        .env("VK_DRIVER_FILES", "/nonexistent")
        .env("VK_ICD_FILENAMES", "/nonexistent")
        .output()
        .unwrap()
}

/// The first adapter, as [`first_device`] finds it, and a fresh scratch directory `name` for
/// a test that writes files there.
fn first_device_and_scratch(name: &str) -> Option<(String, Scratch)> {
    first_device().map(|device| (device, scratch(name)))
}

/// The index of the first adapter (`--device`), or `None` with a note.
fn first_device() -> Option<String> {
    let listed = json(&["devices", "--json"], 0);
    let first = listed["devices"].as_array().unwrap().first().cloned();
    let required = std::env::var("QUEENS_REQUIRE_GPU").as_deref() == Ok("1");
    let missing = "`queens devices` lists no adapter";
    assert!(
        first.is_some() || !required,
        "QUEENS_REQUIRE_GPU=1 but {missing}"
    );
    let Some(first) = first else {
        eprintln!("{missing}: the device tests are skipped");
        return None;
    };
    for field in ["index", "name", "type", "backend", "driver", "limits"] {
        assert!(!first[field].is_null(), "{field} missing from {first}");
    }
    Some(first["index"].to_string())
}

#[test]
fn without_a_driver_the_gpu_engine_is_refused_and_auto_counts_on_the_cpu() {
    let refused = without_driver(&["count", "10", "--engine", "gpu"]);
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains("no GPU to count on"), "{message}");
    assert!(message.contains("Vulkan"), "{message}");
    assert!(refused.stdout.is_empty());

    let named = without_driver(&["count", "10", "--engine", "gpu", "--device", "0"]);
    assert_eq!(named.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&named.stderr).contains("no GPU to count on"));

    let auto = without_driver(&["count", "18", "--json", "--time-limit", "0.2"]);
    let document: Value = serde_json::from_slice(&auto.stdout).unwrap_or(Value::Null);
    // Stopped by its time limit (exit 1, nothing on stdout) or done: on the CPU either way.
    assert!(
        matches!(auto.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&auto.stderr)
    );
    if auto.status.code() == Some(0) {
        assert_ne!(document["engine"], "gpu");
    }
    let auto = without_driver(&["count", "12", "--json"]);
    assert_eq!(auto.status.code(), Some(0));
    let document: Value = serde_json::from_slice(&auto.stdout).unwrap();
    assert_eq!(document["engine"], "backtracking");

    let listed = without_driver(&["devices"]);
    assert_eq!(listed.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&listed.stdout).contains("no GPU to count on"));
    let listed = without_driver(&["devices", "--json"]);
    let document: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(document["devices"], Value::Array(Vec::new()));
}

/// `WGPU_BACKEND` naming no graphics API this system reaches a GPU through is said, where wgpu
/// passes over the names it does not know and the refusal blamed a missing driver.
#[test]
fn a_backend_variable_that_reaches_no_gpu_is_named() {
    for given in ["garbage", "gl", ""] {
        let with = |args: &[&str]| {
            queens()
                .args(args)
                .env("WGPU_BACKEND", given)
                .output()
                .unwrap()
        };
        let said = format!("WGPU_BACKEND is set to \"{given}\", which leaves out");
        let refused = with(&["count", "10", "--engine", "gpu"]);
        assert_eq!(refused.status.code(), Some(2));
        let message = String::from_utf8_lossy(&refused.stderr);
        assert!(
            message.starts_with("error: no GPU to count on: ") && message.contains(&said),
            "{message}"
        );
        let listed = with(&["devices"]);
        assert_eq!(listed.status.code(), Some(0));
        assert!(String::from_utf8_lossy(&listed.stdout).contains(&said));
    }
}

#[test]
fn a_device_goes_with_the_gpu_engine_and_must_exist() {
    let output = queens()
        .args(["count", "10", "--engine", "join", "--device", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("gpu engine"));
    // A GPU by an index past the list or an address where none is: refused, with the list
    // (or, with no adapter at all, what is missing).
    let adapters = !json(&["devices", "--json"], 0)["devices"]
        .as_array()
        .unwrap()
        .is_empty();
    for (device, refusal) in [
        ("99", "there is no device 99: "),
        (
            "0000:ff:1f.7",
            "there is no GPU at PCI address 0000:ff:1f.7: 0: ",
        ),
        (
            "FF:1F.7",
            "there is no GPU at PCI address 0000:ff:1f.7: 0: ",
        ),
    ] {
        let refusal = if adapters {
            refusal
        } else {
            "no GPU to count on"
        };
        refuses(
            &["count", "10", "--engine", "gpu", "--device", device],
            refusal,
        );
    }
    // Neither an index nor an address: refused as it is read.
    refuses(
        &["count", "10", "--device", "gpu0"],
        "--device must be an index that `queens devices` lists (0, 1, …) or a PCI address it \
         shows (0000:3b:00.0), got 'gpu0'",
    );
    refuses(
        &["count", "10", "--device", "0000:3b:00"],
        "--device: '0000:3b:00' is not a PCI address",
    );
}

#[test]
fn the_gpu_counts_as_published_and_names_its_device() {
    let Some(device) = first_device() else {
        return;
    };
    let document = json(
        &[
            "count", "12", "--engine", "gpu", "--device", &device, "--json",
        ],
        0,
    );
    assert_counts(&document, 14_200, 1_787);
    assert_eq!(document["engine"], "gpu");
    assert!(document["device"].is_string());
    let cpu = json(&["count", "12", "--engine", "backtracking", "--json"], 0);
    assert_eq!(
        document["nodes"], cpu["nodes"],
        "the same search, node for node"
    );
    assert_eq!(document["subproblems"], cpu["subproblems"]);
    let text = run(&["count", "11", "--engine", "gpu", "--device", &device], 0);
    assert!(
        text.starts_with("N = 11: 2680 solutions, 341 unique\n"),
        "{text}"
    );
    assert!(text.contains("(gpu engine)"), "{text}");
}

#[test]
fn gpu_shards_merge_with_cpu_shards_into_the_whole() {
    let Some((device, dir)) = first_device_and_scratch("gpu-shards") else {
        return;
    };
    let files: Vec<String> = (0..3)
        .map(|i| {
            let shard = format!("{i}/3");
            // Shards 0 and 2 on the GPU, shard 1 on the CPU: one split, any worker.
            let mut args = vec!["count", "13", "--shard", &shard, "--engine"];
            if i == 1 {
                args.push("backtracking");
            } else {
                args.extend(["gpu", "--device", &device]);
            }
            let path = dir.join(format!("{i}.json"));
            std::fs::write(&path, run(&args, 0)).unwrap();
            path.to_str().unwrap().to_owned()
        })
        .collect();
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = json(&args, 0);
    assert_counts(&merged, 73_712, 9_233);
}

#[test]
fn a_stopped_gpu_count_resumes_from_its_checkpoint() {
    let Some((device, dir)) = first_device_and_scratch("gpu-resume") else {
        return;
    };
    let checkpoint = dir.join("count.checkpoint");
    let checkpoint = checkpoint.to_str().unwrap();
    // N = 16: several seconds on lavapipe, so that the limit stops it part way.
    let base = ["count", "16", "--engine", "gpu", "--device", &device];
    let stopped = queens()
        .args(base)
        .args(["--checkpoint", checkpoint, "--checkpoint-every", "0.2"])
        .args(["--time-limit", "1.5"])
        .output()
        .unwrap();
    common::assert_exit(&stopped, 1, "stopped by its time limit");
    let message = String::from_utf8_lossy(&stopped.stderr);
    assert!(message.contains("stopped"), "{message}");
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(checkpoint).unwrap()).unwrap();
    assert!(!saved.is_null());
    // Resumed on the GPU.
    let document = json(
        &[&base[..], &["--checkpoint", checkpoint, "--json"]].concat(),
        0,
    );
    assert_counts(&document, 14_772_512, 1_846_955);
}

/// A campaign's check: shards counted on the GPU, some counted again on the CPU, and the merge
/// refused when a recount disagrees with its shard's report.
#[test]
fn recounts_on_another_engine_must_agree() {
    let Some((device, dir)) = first_device_and_scratch("gpu-recount") else {
        return;
    };
    let recounts = dir.join("recount");
    let (dir_name, recount_name) = (dir.to_str().unwrap(), recounts.to_str().unwrap());
    for i in 0..3 {
        let shard = format!("{i}/3");
        run(
            &[
                "count", "12", "--engine", "gpu", "--device", &device, "--shard", &shard, "--dir",
                dir_name,
            ],
            0,
        );
    }
    for i in [0, 2] {
        let shard = format!("{i}/3");
        run(
            &[
                "count",
                "12",
                "--engine",
                "backtracking",
                "--shard",
                &shard,
                "--dir",
                recount_name,
            ],
            0,
        );
    }
    // Each report says where it was counted: this machine, and the GPU or the threads.
    let listed = json(&["devices", "--json"], 0);
    let name = listed["devices"][device.parse::<usize>().unwrap()]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let read = |path: std::path::PathBuf| -> ShardReport {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let report_place = read(dir.join("shard-2-of-3.json")).counted_on.unwrap();
    assert!(
        report_place.ends_with(&format!("{name} (gpu engine)")),
        "{report_place}"
    );
    let recount_place = read(recounts.join("shard-2-of-3.json")).counted_on.unwrap();
    assert!(recount_place.contains(" thread"), "{recount_place}");
    assert!(
        recount_place.ends_with(" (backtracking engine)"),
        "{recount_place}"
    );
    let reports = dir.join("shard-*-of-3.json");
    let again = recounts.join("shard-*-of-3.json");
    let (reports, again) = (reports.to_str().unwrap(), again.to_str().unwrap());
    let output = queens()
        .args(["merge", "--json", reports, "--recount", again])
        .output()
        .unwrap();
    common::assert_exit(&output, 0, "recounts that agree");
    let merged: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(merged["total"], 14200);
    let told = String::from_utf8_lossy(&output.stderr);
    assert!(told.contains("2 shards of 3 counted again"), "{told}");
    // A recount that found another number (its checksum made anew): the merge is refused.
    let path = recounts.join("shard-2-of-3.json");
    let honest = read(path.clone());
    let mut tally = honest.tally();
    tally.nodes += 1;
    let plan = CountPlan::with_engine(12, Engine::Gpu).unwrap();
    let forged = ShardReport::new(&plan, Shard::new(2, 3).unwrap(), tally).counted_on("elsewhere");
    assert!(forged.is_intact());
    std::fs::write(&path, serde_json::to_string(&forged).unwrap()).unwrap();
    // The refusal names both places, so that the machine of a wrong report can be found.
    refuses(
        &["merge", reports, "--recount", again],
        &format!(
            "shard 2/3 was counted again in {} and disagrees with {}: nodes {} vs {} (counted \
             on {report_place}, counted again on elsewhere)",
            path.display(),
            dir.join("shard-2-of-3.json").display(),
            honest.nodes,
            honest.nodes + 1
        ),
    );
}

/// `queens devices args…` with Mesa's AMD driver on null hardware as the machine's one hardware
/// GPU (it lists, and builds kernels, but cannot count), the variables of `set` set and every
/// other GPU-assigning variable unset.
fn devices_on_null_hardware(args: &[&str], set: &[(&str, &str)]) -> std::process::Output {
    let mut command = queens();
    command
        .arg("devices")
        .args(args)
        .env("RADV_FORCE_FAMILY", "gfx1100")
        .env_remove("SLURM_STEP_GPUS")
        .env_remove("SLURM_JOB_GPUS")
        .env_remove("CUDA_VISIBLE_DEVICES");
    for (name, value) in set {
        command.env(name, value);
    }
    command.output().unwrap()
}

#[test]
fn devices_mark_the_default_and_say_when_a_scheduler_had_a_say() {
    let listed = devices_on_null_hardware(&["--json"], &[]);
    let document: Value = serde_json::from_slice(&listed.stdout).unwrap();
    let hardware = document["devices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|device| device["type"] != "software")
        .cloned();
    let Some(hardware) = hardware else {
        // CI installs Mesa's drivers, RADV among them; a machine without it has nothing to show.
        eprintln!("no hardware adapter, even RADV's null one: skipped");
        return;
    };
    assert_eq!(document["default"]["index"], hardware["index"]);
    assert_eq!(document["default"]["reason"], "the first hardware GPU");
    let text = String::from_utf8(devices_on_null_hardware(&[], &[]).stdout).unwrap();
    let marked: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("[default]"))
        .collect();
    assert_eq!(marked.len(), 1, "{text}");
    assert!(
        marked[0].starts_with(&format!("{}: ", hardware["index"])),
        "{text}"
    );
    assert!(!text.contains("A count takes"), "{text}");

    // A GPU that Slurm assigned but no file of this machine locates (no machine has a device
    // minor 999): the first hardware GPU, and the reason said.
    let assigned = [("SLURM_JOB_GPUS", "999")];
    let text = String::from_utf8(devices_on_null_hardware(&[], &assigned).stdout).unwrap();
    assert!(
        text.contains(&format!(
            "A count takes {} by default: the first hardware GPU (SLURM_JOB_GPUS=999 names no \
             GPU that this machine's driver files locate).",
            hardware["index"]
        )),
        "{text}"
    );
    let listed = devices_on_null_hardware(&["--json"], &assigned);
    let document: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(document["default"]["index"], hardware["index"]);
    assert!(
        document["default"]["reason"]
            .as_str()
            .unwrap()
            .contains("SLURM_JOB_GPUS=999"),
        "{document}"
    );
}
