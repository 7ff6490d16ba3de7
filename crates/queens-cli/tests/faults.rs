//! Stops, files and inputs that an unlucky user or an attacker meets: every stop is honoured
//! and told truthfully, no output loses work, only regular files are read where a file is
//! read, and locks and temporary files are never left to block a later run.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::{Scratch, output, root_powers, scratch};

fn queens() -> Command {
    Command::new(env!("CARGO_BIN_EXE_queens"))
}

/// `queens count 19 --time-limit 0.3 ARGS`, which must stop at its limit: its stdout.
fn count_stopped_at_its_limit(args: &[&str]) -> String {
    let started = Instant::now();
    let (code, stdout, stderr) = output(
        queens()
            .args(["count", "19", "--time-limit", "0.3"])
            .args(args),
    );
    assert_eq!(code, Some(1), "{args:?}: {stderr}");
    assert!(stderr.contains("time limit reached"), "{args:?}: {stderr}");
    assert!(started.elapsed() < Duration::from_secs(20), "{args:?}");
    stdout
}

#[test]
fn a_count_stops_at_its_time_limit_on_either_engine() {
    for engine in ["backtracking", "join"] {
        count_stopped_at_its_limit(&["--engine", engine, "--threads", "1"]);
    }
}

#[test]
fn a_stopped_count_prints_the_count_document_with_how_far_it_got() {
    let stdout = count_stopped_at_its_limit(&["--engine", "backtracking", "--json"]);
    let document: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
    assert_eq!(document["complete"], false);
    assert!(document["unique"].is_null());
    // The reason itself, as the server and Python give it, not the sentence around it.
    assert!(
        document["stop_reason"]
            .as_str()
            .unwrap()
            .starts_with("time limit reached"),
        "{document}"
    );
    let (finished, parts) = (
        document["finished"].as_u64().unwrap(),
        document["parts"].as_u64().unwrap(),
    );
    assert!(finished < parts && parts == document["subproblems"].as_u64().unwrap());
    // The finished one has the same fields, but how far a stopped one got.
    let (code, stdout, _) = output(queens().args(["count", "8", "--json"]));
    assert_eq!(code, Some(0));
    let whole: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(whole["complete"], true);
    let keys = |value: &serde_json::Value| -> Vec<String> {
        let mut keys: Vec<String> = value.as_object().unwrap().keys().cloned().collect();
        keys.retain(|key| !["stop_reason", "finished", "parts"].contains(&key.as_str()));
        keys.sort();
        keys
    };
    assert_eq!(keys(&document), keys(&whole));
    // A position's count too.
    let (code, stdout, _) = output(queens().args([
        "count",
        "200",
        "--fix",
        "a1",
        "--time-limit",
        "0.3",
        "--json",
    ]));
    assert_eq!(code, Some(1));
    let position: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(position["complete"], false);
    assert!(position["parts"].as_u64().unwrap() >= position["finished"].as_u64().unwrap());
}

/// Every file the command line reads or writes, in a directory that is not there: one error
/// line naming the file and what went wrong in words, without the operating system's error
/// number.
#[test]
fn a_missing_directory_is_told_in_words_for_every_file() {
    let dir = scratch("missing");
    let gone = dir.join("gone");
    let at = |name: &str| gone.join(name).to_str().unwrap().to_owned();
    let (code, _, stderr) = output(
        queens()
            .args(["count", "8", "--shard", "0/1", "--dir"])
            .arg(&dir),
    );
    assert_eq!(code, Some(0), "{stderr}");
    let report = dir.join("shard-0-of-1.json").to_str().unwrap().to_owned();
    let cases: [(Vec<String>, &str); 9] = [
        (vec!["verify".into(), at("b.txt")], "cannot read"),
        (vec!["merge".into(), at("s.json")], "cannot read"),
        (
            vec!["merge".into(), "-o".into(), at("r.json"), report.clone()],
            "cannot",
        ),
        (
            vec!["solve".into(), "8".into(), "-o".into(), at("x.txt")],
            "cannot create",
        ),
        (
            vec!["solve".into(), "8".into(), "--trace".into(), at("t.jsonl")],
            "cannot create",
        ),
        (
            vec![
                "count".into(),
                "8".into(),
                "--checkpoint".into(),
                at("c.json"),
            ],
            "cannot lock checkpoint",
        ),
        (
            vec!["solve".into(), "--instance".into(), at("i.json")],
            "cannot read",
        ),
        (
            vec![
                "count".into(),
                "8".into(),
                "--shard".into(),
                "0/2".into(),
                "--dir".into(),
                "/proc/gone".into(),
            ],
            "cannot create the --dir directory",
        ),
        (
            vec![
                "experiment".into(),
                "6".into(),
                "--runs".into(),
                "2".into(),
                "--out".into(),
                "/proc/gone".into(),
            ],
            "cannot create the --out directory",
        ),
    ];
    for (args, says) in cases {
        let (code, _, stderr) = output(queens().args(&args));
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(
            stderr.contains("No such file or directory"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("os error"), "{args:?}: {stderr}");
        if args[..2] == ["merge", "-o"] {
            // The total, added up before its file was refused, is not lost with it.
            let (_, total, _) = output(queens().args(["merge", &report]));
            assert_kept(&stderr, &at("r.json"), &total, &format!("{args:?}"));
        } else {
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        }
    }
}

#[test]
fn only_regular_files_are_read_as_checkpoints_and_reports() {
    let dir = scratch("regular");
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|status| status.success()) {
        let started = Instant::now();
        let (code, _, stderr) = output(queens().args(["count", "8", "--checkpoint"]).arg(&fifo));
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains("is a FIFO, not a regular file"), "{stderr}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    let (code, _, stderr) = output(queens().args(["merge", "/dev/zero"]));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("character device"), "{stderr}");
    let (code, _, stderr) = output(queens().args(["count", "8", "--checkpoint", "/dev/zero"]));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("character device"), "{stderr}");
}

#[test]
fn an_output_is_replaced_only_by_a_whole_answer() {
    let dir = scratch("outputs");
    let answer = dir.join("answer.txt");
    fs::write(&answer, "kept\n").unwrap();
    // N = 3 has no solution: the old answer stays.
    let (code, _, _) = output(queens().arg("solve").arg("3").arg("-o").arg(&answer));
    assert_eq!(code, Some(1));
    assert_eq!(fs::read_to_string(&answer).unwrap(), "kept\n");
    let (code, _, _) = output(queens().arg("solve").arg("4").arg("-o").arg(&answer));
    assert_eq!(code, Some(0));
    assert!(fs::read_to_string(&answer).unwrap().contains('Q'));
    // A merge through a symbolic link writes the link's file and keeps the link.
    let shards: Vec<PathBuf> = (0..2)
        .map(|i| {
            let path = dir.join(format!("s{i}.json"));
            let (code, stdout, _) =
                output(queens().args(["count", "9", "--shard", &format!("{i}/2")]));
            assert_eq!(code, Some(0));
            fs::write(&path, stdout).unwrap();
            path
        })
        .collect();
    let link = dir.join("result.txt");
    #[cfg(unix)]
    std::os::unix::fs::symlink("real.txt", &link).unwrap();
    let (code, _, stderr) = output(queens().arg("merge").args(&shards).arg("-o").arg(&link));
    assert_eq!(code, Some(0), "{stderr}");
    #[cfg(unix)]
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        fs::read_to_string(dir.join("real.txt"))
            .unwrap()
            .contains("352 solutions")
    );
    // A directory is refused, not replaced.
    let (code, _, stderr) = output(queens().arg("merge").args(&shards).arg("-o").arg(&dir));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("it is a directory"), "{stderr}");
    assert_no_temporaries(&dir);
}

/// Leaves of a killed count: a lock naming a live process (pid 1, which is not a count) and a
/// temporary file of a save. Neither may block or outlive the next run.
#[test]
fn a_killed_counts_lock_and_temporary_file_do_not_outlive_the_next_run() {
    let dir = scratch("leftovers");
    let checkpoint = dir.join("c.json");
    fs::write(dir.join("c.json.lock"), "1").unwrap();
    fs::write(dir.join("c.json.4194311.tmp"), "half a save").unwrap();
    let (code, stdout, stderr) = output(
        queens()
            .args(["count", "10", "--checkpoint"])
            .arg(&checkpoint),
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("724 solutions"), "{stdout}");
    let names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["c.json"], "only the checkpoint is left");
}

#[test]
fn a_second_count_on_a_checkpoint_in_use_is_refused() {
    let dir = scratch("busy");
    let checkpoint = dir.join("c.json");
    let mut first = queens()
        .args([
            "count",
            "19",
            "--engine",
            "backtracking",
            "--threads",
            "1",
            "--checkpoint",
        ])
        .arg(&checkpoint)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lock = dir.join("c.json.lock");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !fs::read_to_string(&lock).is_ok_and(|text| !text.is_empty()) && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    let (code, _, stderr) = output(
        queens()
            .arg("count")
            .arg("19")
            .args(["--engine", "backtracking"])
            .arg("--checkpoint")
            .arg(&checkpoint),
    );
    let _ = first.kill();
    let _ = first.wait();
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("in use by another count"), "{stderr}");
}

/// A closed pipe ends every command normally, the streamed construction included.
#[test]
fn a_closed_pipe_is_a_normal_end_everywhere() {
    let cases: [&[&str]; 5] = [
        &[
            "solve",
            "2000000",
            "--solver",
            "construct",
            "--format",
            "perm",
        ],
        &[
            "solve",
            "200000",
            "--solver",
            "min-conflicts",
            "--format",
            "perm",
        ],
        &["solve", "400", "--format", "text"],
        &["configure", "60", "--json"],
        &["count", "8", "--shard", "0/1"],
    ];
    for args in cases {
        common::run_into_a_closed_pipe(args);
    }
}

#[test]
fn inputs_with_a_byte_order_mark_are_read() {
    let dir = scratch("bom");
    for (name, text) in [
        ("perm.txt", "\u{feff}1 3 0 2\n"),
        ("board.txt", "\u{feff}. Q . .\n. . . Q\nQ . . .\n. . Q .\n"),
    ] {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        let (code, stdout, stderr) = output(queens().arg("verify").arg(&path));
        assert_eq!(code, Some(0), "{name}: {stdout}{stderr}");
    }
}

#[test]
fn every_node_cap_of_zero_is_refused() {
    for args in [
        &["challenge", "--max-nodes", "0"][..],
        &["solve", "8", "--solver", "backtracking", "--max-nodes", "0"],
        &[
            "experiment",
            "--solver",
            "backtracking",
            "--n",
            "6",
            "--max-nodes",
            "0",
        ],
        &["configure", "8", "--max-nodes", "0"],
    ] {
        // One sentence for every command.
        common::refuses(args, "--max-nodes must be at least 1, got 0");
    }
}

/// A board side past what a command takes is refused in that command's sentence however large
/// it is: past 2³²−1, which no board holds, the command's own limit is named, never the board
/// type's 4294967295 (which the next try would meet refused again), and digits past any machine
/// number are a number too large, never "not a whole number".
#[test]
fn a_side_too_large_for_a_command_names_the_commands_limit() {
    let huge = "9".repeat(45);
    let shown = format!("{}… (45 characters)", "9".repeat(40));
    for side in ["5000000000", huge.as_str()] {
        let got = if side == huge { shown.as_str() } else { side };
        for (args, says) in [
            (
                vec!["count", side],
                format!("counting supports N from 1 to 32 (the kernel's bit width), got {got}"),
            ),
            (
                vec!["count", side, "--plan"],
                format!("counting supports N from 1 to 32 (the kernel's bit width), got {got}"),
            ),
            (
                vec!["count", side, "--fix", "a1"],
                format!(
                    "completions are counted by the completion search on boards up to \
                     1024×1024, got N = {got}"
                ),
            ),
            (
                vec!["count", side, "--block", "a1", "--engine", "backtracking"],
                format!("completions are counted row by row on boards up to 64×64, got N = {got}"),
            ),
            (
                vec!["configure", side],
                format!("the configurator works on boards of side 1 to 512, not {got}"),
            ),
            (
                vec!["challenge", side],
                format!(
                    "the challenge table runs every square of the board: N = {got} is too \
                     large (at most 64)"
                ),
            ),
            (
                vec!["solve", side],
                format!("N must be at most 4294967295, got {got}"),
            ),
        ] {
            let (code, stdout, stderr) = output(queens().args(&args));
            assert_eq!(code, Some(2), "{args:?}: {stderr}");
            assert_eq!(stderr, format!("error: {says}\n"), "{args:?}");
            assert!(stdout.is_empty(), "{args:?}: {stdout}");
        }
    }
    // Within the board type, the same sentence as past it.
    common::refuses(
        &["count", "33"],
        "error: counting supports N from 1 to 32 (the kernel's bit width), got 33\n",
    );
}

/// Memory a board from a file needs is checked before it is built: under a small address
/// space a large board is a clean refusal (exit 2), never an abort.
#[cfg(target_os = "linux")]
#[test]
fn a_board_too_large_for_the_memory_is_refused_cleanly() {
    let dir = scratch("memory");
    let path = dir.join("queens.txt");
    // 8 million queens on one rank.
    fs::write(&path, "Q".repeat(8_000_000)).unwrap();
    let (code, _, stderr) = output(
        common::under_an_address_limit(400_000)
            .arg("verify")
            .arg(&path),
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("memory"), "{stderr}");
}

/// `queens` with files limited to `kib` KiB (the shell's `ulimit -f`), where a write past the
/// limit fails as on a disk that fills up. The signal that limit sends (`SIGXFSZ`) keeps the
/// default a user's shell gives it, which ends a process that does not take it: the command
/// takes it as a failed write (before, with no `trap '' XFSZ` here, a count was killed saving its
/// checkpoint and left its temporary file and lock behind).
fn on_a_full_disk(kib: u32, dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let script = format!("ulimit -f {kib}; exec \"$0\" \"$@\"");
    output(
        Command::new("bash")
            .arg("-c")
            .arg(script)
            .arg(env!("CARGO_BIN_EXE_queens"))
            .args(args)
            .current_dir(dir),
    )
}

/// The names of the files in `dir`, sorted.
fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Asserts that `dir` holds no temporary file and no lock: nothing a run left behind.
fn assert_no_temporaries(dir: &std::path::Path) {
    let left: Vec<String> = listing(dir)
        .into_iter()
        .filter(|name| name.contains(".tmp") || name.contains(".lock"))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// On a disk with no room left at all (`run` runs `queens` with these arguments in `dir`, whose
/// `old.txt` says "keep me"): a checkpoint's lock is refused at the start, an answer that
/// cannot be written leaves the old file whole and is given on standard error, and an
/// experiment prints its table before it fails to write its files, each naming the file.
fn nothing_fits(dir: &std::path::Path, run: impl Fn(&[&str]) -> (Option<i32>, String, String)) {
    let (code, _, stderr) = run(&["count", "13", "--checkpoint", "c.json"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("c.json.lock"), "{stderr}");
    let (code, _, stderr) = run(&["solve", "8", "-o", "old.txt"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("cannot write old.txt"), "{stderr}");
    let (_, board, _) = output(queens().args(["solve", "8"]));
    assert_kept(
        &stderr,
        "old.txt",
        &board,
        "solve 8 -o old.txt on a full disk",
    );
    assert_eq!(
        fs::read_to_string(dir.join("old.txt")).unwrap(),
        "keep me\n"
    );
    let (code, stdout, stderr) = run(&[&SMALL_EXPERIMENT[..], &["--out", "exp"]].concat());
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stdout.contains("min-conflicts") && stdout.contains("100.0%"),
        "{stdout}"
    );
    assert!(stderr.contains("cannot write exp/results.csv"), "{stderr}");
    assert!(
        stderr.starts_with("exp/results.csv did not take the answer; here it is:\nsolver,n,"),
        "{stderr}"
    );
}

#[test]
fn a_full_disk_loses_no_work_and_leaves_no_litter() {
    let dir = scratch("full");
    fs::write(dir.join("old.txt"), "keep me\n").unwrap();

    // A checkpoint that cannot be saved: the count goes on, says so, and prints its result.
    let (code, stdout, stderr) = on_a_full_disk(
        1,
        &dir,
        &["count", "14", "--checkpoint", "c.json", "--threads", "1"],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("365596 solutions"), "{stdout}");
    assert!(stderr.contains("cannot write c.json"), "{stderr}");
    // Asked to stop instead, it stops at the failed save (the first, after half a second, well
    // before the count's few seconds are over) and prints what it counted.
    let (code, _, stderr) = on_a_full_disk(
        1,
        &dir,
        &[
            "count",
            "18",
            "--checkpoint",
            "c.json",
            "--checkpoint-every",
            "0.5",
            "--threads",
            "1",
            "--on-save-failure",
            "stop",
        ],
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("subproblems counted"), "{stderr}");
    // A save that fitted before the one that failed is work kept, not litter (on a slow
    // machine the first, small checkpoint may fit): it goes before the next run.
    let _ = fs::remove_file(dir.join("c.json"));
    nothing_fits(&dir, |args| on_a_full_disk(0, &dir, args));
    assert_eq!(
        listing(&dir),
        ["exp", "old.txt"],
        "no temporary file, lock or checkpoint left"
    );
    assert!(listing(&dir.join("exp")).is_empty());
}

/// A real file system that fills up: a 256 KiB tmpfs, where one can be mounted (root on Linux).
struct TinyDisk {
    dir: Scratch,
}

impl TinyDisk {
    fn mount(name: &str) -> Option<TinyDisk> {
        let dir = scratch(name);
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
            .arg(&dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if !mounted {
            return None;
        }
        Some(TinyDisk { dir })
    }

    /// Fills the disk with a file called `filler`, then gives back `pages` pages of 4 KiB.
    fn fill_leaving(&self, pages: u64) {
        use std::io::Write;
        let path = self.dir.join("filler");
        let mut filler = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .unwrap();
        while filler.write_all(&[0; 4096]).is_ok() && filler.flush().is_ok() {}
        let length = fs::metadata(&path).unwrap().len();
        filler
            .set_len(length.saturating_sub(pages * 4096) / 4096 * 4096)
            .unwrap();
    }
}

impl Drop for TinyDisk {
    /// Unmounts the disk; its directory goes after, as the field drops.
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.dir).status();
    }
}

/// The full-disk cases again on a disk that is really full (ENOSPC, where the test above has
/// the file-size limit's EFBIG): skipped, and said so, where no tmpfs can be mounted
/// (a failure with `QUEENS_REQUIRE_ROOT=1`).
#[test]
fn a_really_full_disk_loses_no_work_and_leaves_no_litter() {
    let disk = TinyDisk::mount("tmpfs");
    if !root_powers(disk.is_some(), "no tmpfs can be mounted here (needs root)") {
        return;
    }
    let disk = disk.expect("mounted");
    let dir = &disk.dir;
    let queens_in = |args: &[&str]| output(queens().args(args).current_dir(dir));
    fs::write(dir.join("old.txt"), "keep me\n").unwrap();

    // One page left: the lock takes it, so no save of the checkpoint fits; the count goes on.
    disk.fill_leaving(1);
    let (code, stdout, stderr) =
        queens_in(&["count", "14", "--checkpoint", "c.json", "--threads", "1"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("365596 solutions"), "{stdout}");
    assert!(stderr.contains("cannot write c.json"), "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");

    // Nothing left.
    disk.fill_leaving(0);
    nothing_fits(dir, queens_in);

    let mut left = listing(dir);
    if dir.join("exp").exists() {
        assert!(listing(&dir.join("exp")).is_empty());
        left.retain(|name| name != "exp");
    }
    assert_eq!(
        left,
        ["filler", "old.txt"],
        "no temporary file, lock or checkpoint left"
    );
}

/// Outputs named by a device node (made here, as root, like `/dev/null`) are written through:
/// the node stays a device and is never replaced by a regular file.
#[cfg(target_os = "linux")]
#[test]
fn an_output_onto_a_device_node_writes_through_it() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("devices");
    let device = dir.join("null");
    let made = Command::new("mknod")
        .arg(&device)
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !root_powers(made, "mknod needs root") {
        return;
    }
    let is_device = |path: &std::path::Path| {
        fs::symlink_metadata(path)
            .unwrap()
            .file_type()
            .is_char_device()
    };
    let shard = dir.join("s.json");
    let (code, stdout, _) = output(queens().args(["count", "8", "--shard", "0/1"]));
    assert_eq!(code, Some(0));
    fs::write(&shard, stdout).unwrap();
    let (code, _, stderr) = output(queens().arg("merge").arg(&shard).arg("-o").arg(&device));
    assert_eq!(code, Some(0), "merge: {stderr}");
    assert!(is_device(&device), "merge -o replaced the device");
    let (code, _, stderr) = output(queens().args(["solve", "8", "-o"]).arg(&device));
    assert_eq!(code, Some(0), "solve: {stderr}");
    assert!(is_device(&device), "solve -o replaced the device");
    // An experiment's results file taken by a device node is written through too.
    let results = dir.join("results.csv");
    fs::hard_link(&device, &results).unwrap();
    let (code, _, stderr) = output(
        queens()
            .args([
                "experiment",
                "8",
                "--solver",
                "min-conflicts",
                "--runs",
                "2",
                "--out",
            ])
            .arg(&dir),
    );
    assert_eq!(code, Some(0), "experiment: {stderr}");
    assert!(is_device(&results), "experiment --out replaced the device");
    assert_no_temporaries(&dir);
}

#[test]
fn big_local_searches_stop_within_a_second_of_a_signal_or_their_time_limit() {
    // One iteration of these is N² looks (a million million at N = 100,000); they must ask
    // the budget inside it.
    for solver in [
        "hill-climbing",
        "optimized-hill-climbing",
        "min-conflicts-minton",
    ] {
        let started = Instant::now();
        let (code, _, stderr) = output(queens().args([
            "solve",
            "100000",
            "--solver",
            solver,
            "--time-limit",
            "1",
            "--format",
            "json",
        ]));
        let took = started.elapsed();
        assert_eq!(code, Some(1), "{solver}: {stderr}");
        assert!(
            took < Duration::from_secs(6),
            "{solver}: --time-limit 1 took {took:?}"
        );
    }
    for signal in ["INT", "TERM"] {
        let args = [
            "solve",
            "100000",
            "--solver",
            "hill-climbing",
            "--format",
            "json",
        ];
        let (output, took) = common::stopped_by_signal(&args, signal, Duration::from_millis(1500));
        assert_eq!(output.status.code(), Some(1), "SIG{signal}");
        assert!(
            took < Duration::from_secs(3),
            "SIG{signal}: stopped {took:?} after the signal"
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains("\"status\":\"stopped\""),
            "SIG{signal}: {stdout}"
        );
    }
}

/// The configurator's large analyses copy a 512×512 board per undecided square, work that
/// spends no search nodes: the stop is looked at there too.
#[test]
fn a_large_analysis_stops_within_a_second_of_a_signal_or_its_time_limit() {
    let args = ["configure", "512", "--queens", "a1,c2,e3", "--json"];
    let started = Instant::now();
    let (code, _, stderr) = output(queens().args(args).args(["--time-limit", "0.5"]));
    let took = started.elapsed();
    assert!(code == Some(0) || code == Some(1), "{stderr}");
    assert!(
        took < Duration::from_secs(2),
        "--time-limit 0.5 took {took:?}"
    );
    let (output, took) = common::stopped_by_signal(&args, "INT", Duration::from_millis(800));
    assert_eq!(output.status.code(), Some(1), "SIGINT");
    assert!(
        took < Duration::from_secs(1),
        "stopped {took:?} after the signal"
    );
}

#[test]
fn a_count_killed_twenty_five_times_mid_save_resumes_to_the_published_count() {
    killed_and_resumed(
        17,
        1,
        60..560,
        "N = 17: 95815104 solutions, 11977939 unique",
    );
}

/// The issue's own case, a minute of counting on two threads, killed over its first 25 s:
/// `cargo test --release -p queens-cli --test faults -- --ignored` (run by `.ci/run`).
#[test]
#[ignore = "about two minutes of counting: .ci/run runs it in release mode"]
fn a_count_of_nineteen_killed_twenty_five_times_resumes_to_the_published_count() {
    killed_and_resumed(
        19,
        2,
        100..2_000,
        "N = 19: 4968057848 solutions, 621012754 unique",
    );
}

/// `count N --checkpoint F` on `threads` threads, saving every 10 ms, killed with SIGKILL 25
/// times, each after a wait drawn from `wait_ms` by a fixed sequence (so that kills land in
/// saves, between them and at the start alike): after every kill the checkpoint parses and has
/// lost no finished subproblem; the last run resumes to `published`; no temporary file or lock
/// is left.
fn killed_and_resumed(n: u32, threads: u32, wait_ms: std::ops::Range<u64>, published: &str) {
    let dir = scratch(&format!("kills-{n}"));
    let checkpoint = dir.join("c.json");
    let count = || {
        let mut command = queens();
        command
            .args(["count", &n.to_string(), "--threads", &threads.to_string()])
            .args(["--checkpoint-every", "0.01"]);
        command.arg("--checkpoint").arg(&checkpoint);
        command
    };
    let mut state = 12_345_u64;
    let mut saved = 0;
    for kill in 0..25 {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let wait = wait_ms.start + (state >> 33) % (wait_ms.end - wait_ms.start);
        let mut child = count()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(wait));
        child.kill().unwrap();
        child.wait().unwrap();
        if checkpoint.exists() {
            let text = fs::read_to_string(&checkpoint).unwrap();
            let document: serde_json::Value = serde_json::from_str(&text)
                .unwrap_or_else(|_| panic!("kill {kill} after {wait} ms tore the checkpoint"));
            let done = document["done"].as_array().map_or(0, Vec::len);
            assert!(
                done >= saved,
                "kill {kill}: {done} subproblems saved after {saved}"
            );
            saved = done;
        }
    }
    assert!(saved > 0, "the killed runs kept their work");
    let (code, stdout, stderr) = output(&mut count());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains(published), "{stdout}");
    assert_no_temporaries(&dir);
}

/// Slow positions, each stopped by its time limit, by SIGINT and by SIGTERM within about a
/// second of the stop, whatever a node or a pre-pass costs there: a fully blocked symmetric
/// board (the symmetry stabiliser), a count at N = 1024 (nodes of tens of microseconds), an
/// unsolvable position whose dead squares are explained by matchings (the explanation phase).
/// The measured stops are printed (`cargo test -- --nocapture`).
#[test]
fn slow_positions_stop_on_time_and_on_signals() {
    use std::fmt::Write as _;
    let dir = scratch("slow-positions");
    // A 200×200 instance blocking the squares of `rows` × `cols`, written to `name`.
    let instance = |name: &str, rows: std::ops::Range<u32>, cols: std::ops::Range<u32>| {
        let blocked: Vec<String> = rows
            .flat_map(|row| cols.clone().map(move |col| (row, col)))
            .map(|(row, col)| format!("{{\"row\": {row}, \"col\": {col}}}"))
            .collect();
        let path = dir.join(name);
        let text = format!("{{\"n\": 200, \"blocked\": [{}]}}", blocked.join(","));
        std::fs::write(&path, text).unwrap();
        path
    };
    let full = instance("full-200.json", 0..200, 0..200);
    let hall = instance("crowded-200.json", 0..3, 2..200);
    let (full, hall) = (full.to_str().unwrap(), hall.to_str().unwrap());
    let cases: [&[&str]; 3] = [
        &["count", "--instance", full],
        &["count", "1024", "--fix", "r1c2", "--threads", "2"],
        &["configure", "--instance", hall],
    ];
    let mut table = String::from("| command | --time-limit 0.5 | SIGINT | SIGTERM |\n");
    for args in cases {
        let mut limited = args.to_vec();
        limited.extend(["--time-limit", "0.5"]);
        let started = Instant::now();
        let (code, _, stderr) = output(queens().args(&limited));
        let took = started.elapsed();
        assert!(code == Some(0) || code == Some(1), "{args:?}: {stderr}");
        assert!(
            took < Duration::from_secs(2),
            "{args:?}: {took:?} with a 0.5 s limit"
        );
        let _ = write!(table, "| {} | {:.2} s", args.join(" "), took.as_secs_f64());
        for signal in ["INT", "TERM"] {
            let (ended, after) =
                common::stopped_by_signal(args, signal, Duration::from_millis(700));
            assert!(
                after < Duration::from_millis(2500),
                "{args:?}: {after:?} after SIG{signal}: {}",
                String::from_utf8_lossy(&ended.stderr)
            );
            let _ = write!(table, " | {:.2} s", after.as_secs_f64());
        }
        table.push_str(" |\n");
    }
    println!("{table}");
}

/// `text` with its numbers (digits and points) and its runs of spaces each made one mark: the
/// same answer computed twice has one shape, whatever its timings.
fn answer_shape(text: &str) -> String {
    let mut shape = String::new();
    for c in text.chars() {
        let mark = match c {
            '0'..='9' | '.' => '#',
            ' ' => ' ',
            other => other,
        };
        if !(matches!(mark, '#' | ' ') && shape.ends_with(mark)) {
            shape.push(mark);
        }
    }
    shape
}

/// Checks `stderr`, what `queens ARGS` said with its standard output on a full disk: the error
/// that names standard output last, and before it, where the command computed its answer (not
/// a plan, a list or a page of help; a board of any length, but one `construct` streams), the
/// answer itself, whole, so that it is not lost with the write.
fn assert_the_answer_is_kept(args: &[&str], stderr: &str) {
    let computed = [
        "solve",
        "count",
        "merge",
        "configure",
        "experiment",
        "challenge",
    ];
    let error = stderr.lines().last().unwrap_or_default();
    assert!(
        error.starts_with("error: ") && error.contains("cannot write to standard output: "),
        "{args:?}: {stderr}"
    );
    let asks_for_help_or_a_plan = args.iter().any(|arg| ["--help", "--plan"].contains(arg));
    if !computed.contains(&args[0]) || asks_for_help_or_a_plan {
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        return;
    }
    if args.contains(&"construct") {
        // Its rows were computed as they were written, and are had again by running it again.
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        return;
    }
    let (_, answer, _) = output(queens().args(args));
    assert_kept(stderr, "standard output", &answer, &format!("{args:?}"));
}

/// Asserts that `stderr` is `answer` (up to its numbers: timings differ) under `WHAT did not
/// take the answer; here it is:`, then the error, on one line, that ends the command.
fn assert_kept(stderr: &str, what: &str, answer: &str, context: &str) {
    assert!(!answer.trim().is_empty(), "{context}");
    let error = stderr.lines().last().unwrap_or_default();
    assert!(error.starts_with("error: "), "{context}: {stderr}");
    let told = stderr.strip_suffix(&format!("{error}\n")).unwrap();
    let (heading, text) = told
        .split_once('\n')
        .unwrap_or_else(|| panic!("{context}: {stderr}"));
    assert_eq!(
        heading,
        format!("{what} did not take the answer; here it is:"),
        "{context}: {stderr}"
    );
    assert_eq!(
        answer_shape(text),
        answer_shape(answer),
        "{context}: {stderr}"
    );
}

/// A board over the megabyte that an answer is held to before it is written through: a line
/// of 200,000 queens.
const LONG_BOARD: [&str; 8] = [
    "solve",
    "200000",
    "--solver",
    "min-conflicts",
    "--format",
    "perm",
    "--seed",
    "1",
];

/// An experiment of a moment: three runs of min-conflicts at N = 8.
const SMALL_EXPERIMENT: [&str; 7] = [
    "experiment",
    "--solver",
    "min-conflicts",
    "--n",
    "8",
    "--runs",
    "3",
];

/// An answer a command computed for a file that refuses it (a link to `/dev/full`, which fails
/// every write as a full disk does) goes to standard error under a line that names the file,
/// from every command that writes its answer to a file: `solve -o`, `merge -o`, a shard's
/// report in `count --dir`, an experiment's table in `--out`.
#[test]
fn an_answer_a_file_refuses_is_kept_on_standard_error() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let dir = scratch("full-file");
    let refusing = |name: &str| {
        let path = dir.join(name);
        std::os::unix::fs::symlink("/dev/full", &path).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let shard = dir.join("shard.json");
    let (_, report, _) = output(queens().args(["count", "8", "--shard", "0/1"]));
    fs::write(&shard, &report).unwrap();
    let shard = shard.to_str().unwrap();
    let board = refusing("board.txt");
    let document = refusing("board.json");
    let merged = refusing("merged.txt");
    for within in ["campaign", "experiment"] {
        fs::create_dir(dir.join(within)).unwrap();
    }
    let shard_report = refusing("campaign/shard-0-of-2.json");
    let table = refusing("experiment/results.csv");
    let (campaign, experiment) = (dir.join("campaign"), dir.join("experiment"));
    let runs = SMALL_EXPERIMENT;
    // Each: the command with its file, the file, and the same command's answer on standard output.
    let long_board = refusing("long-board.txt");
    let cases: [(Vec<&str>, &str, Vec<&str>); 6] = [
        (vec!["solve", "8", "-o", &board], &board, vec!["solve", "8"]),
        (
            [&LONG_BOARD[..], &["-o", &long_board]].concat(),
            &long_board,
            LONG_BOARD.to_vec(),
        ),
        (
            vec!["solve", "8", "--format", "json", "-o", &document],
            &document,
            vec!["solve", "8", "--format", "json"],
        ),
        (
            vec!["merge", shard, "-o", &merged],
            &merged,
            vec!["merge", shard],
        ),
        (
            vec![
                "count",
                "8",
                "--shard",
                "0/2",
                "--dir",
                campaign.to_str().unwrap(),
            ],
            &shard_report,
            vec!["count", "8", "--shard", "0/2"],
        ),
        (
            [&runs[..], &["--out", experiment.to_str().unwrap()]].concat(),
            &table,
            vec![],
        ),
    ];
    for (args, file, on_stdout) in cases {
        let (code, _, stderr) = output(queens().args(&args));
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.ends_with(&format!("cannot write {file}: No space left on device\n")),
            "{args:?}: {stderr}"
        );
        let answer = if on_stdout.is_empty() {
            // The experiment's table as a file holds it, from a run whose directory takes it.
            let taken = dir.join("taken");
            output(queens().args(runs).args(["--out", taken.to_str().unwrap()]));
            fs::read_to_string(taken.join("results.csv")).unwrap()
        } else {
            output(queens().args(&on_stdout)).1
        };
        assert_kept(&stderr, file, &answer, &format!("{args:?}"));
    }
}

/// `queens ARGS` with standard output (`stdout`) or standard error on `/dev/full`, which
/// refuses every write as a full disk does.
fn onto_a_full_stream(args: &[&str], stdout: bool) -> (Option<i32>, String, String) {
    let full = || Stdio::from(fs::File::create("/dev/full").unwrap());
    let mut command = queens();
    command.args(args);
    if stdout {
        command.stdout(full());
    } else {
        command.stderr(full());
    }
    output(&mut command)
}

/// An answer that cannot be written is an error that names standard output, from every command
/// and from help; and a sentence that cannot be written to standard error is dropped, never a
/// panic (the standard printing macros panic there: exit 101).
#[test]
fn a_full_standard_stream_is_told_or_dropped_and_never_panics() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let dir = scratch("full-stream");
    let shard = dir.join("shard.json");
    let (code, report, stderr) = output(queens().args(["count", "8", "--shard", "0/1"]));
    assert_eq!(code, Some(0), "{stderr}");
    fs::write(&shard, report).unwrap();
    let shard = shard.to_str().unwrap();
    let answers: [&[&str]; 18] = [
        &["solve", "8"],
        &["solve", "8", "--format", "json"],
        &LONG_BOARD,
        &[
            "solve",
            "200000",
            "--solver",
            "construct",
            "--format",
            "perm",
        ],
        &["count", "8"],
        &["count", "8", "--json"],
        &["count", "8", "--shard", "0/1"],
        &["count", "24", "--plan"],
        &["merge", shard],
        &["configure", "6"],
        &SMALL_EXPERIMENT,
        &["challenge", "5"],
        &["devices"],
        &["completions", "bash"],
        &["man"],
        &["help"],
        &["solve", "--help"],
        &["--version"],
    ];
    for args in answers {
        let (code, _, stderr) = onto_a_full_stream(args, true);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert_the_answer_is_kept(args, &stderr);
    }
    let refusals: [(&[&str], i32); 5] = [
        (&["solve", "0"], 2),
        (&["solve", "8", "--solver", "nope"], 2),
        (&["verify", "no-such-board.txt"], 2),
        (
            &[
                "solve",
                "8",
                "--solver",
                "hill-climbing",
                "--max-iters",
                "1",
            ],
            1,
        ),
        (&["configure", "8", "--time-limit", "0"], 2),
    ];
    for (args, expected) in refusals {
        let (code, _, _) = onto_a_full_stream(args, false);
        assert_eq!(code, Some(expected), "{args:?}");
    }
}

/// Under any limit on a user's threads (`ulimit -u`, as a control group's `pids.max` sets one
/// too) a command answers, or refuses in one sentence that names the limit: never a panic, a
/// hang, or a driver's "device lost" alone. And a count given a number of threads runs on the
/// shared pool sized to it, rather than starting a second pool beside one of a worker a core:
/// with two shared workers, `count 10 --threads 2` was refused with room for four threads
/// (`cannot start the worker threads: Resource temporarily unavailable`), where `count 10`
/// counted, and `count 10 --threads 1` with room for two; every refusal blamed `ulimit -v`.
#[test]
fn under_a_limit_on_threads_a_command_answers_or_names_the_limit() {
    let dir = scratch("thread-limit");
    let Some(allowed) = common::as_a_user_allowed_threads(&dir) else {
        return;
    };
    let mut commands: Vec<(&[&str], &str)> = vec![
        (&["count", "10"], "724 solutions"),
        (&["count", "10", "--threads", "1"], "724 solutions"),
        (&["count", "10", "--threads", "2"], "724 solutions"),
        (&["solve", "12"], "a b c d e f g h i j k l"),
        (&["configure", "8"], "92 completions"),
        (&["experiment", "8", "--runs", "3"], "100.0%"),
        (&["challenge", "6"], "backtracking"),
    ];
    // A driver that runs on the CPU (lavapipe) starts threads of its own.
    if common::an_adapter_is_listed() {
        commands.push((
            &["count", "10", "--engine", "gpu", "--device", "0"],
            "724 solutions",
        ));
    }
    for (args, answer) in &commands {
        let mut answered = false;
        for threads in 1..=8 {
            let (code, stdout, stderr) = output(allowed(threads).args(*args));
            let said = format!("{args:?} under ulimit -u {threads}: {code:?} {stderr}");
            assert!(!stderr.contains("panicked"), "{said}");
            match code {
                Some(0) => answered = true,
                Some(2) => assert!(
                    stderr.starts_with("error: ")
                        && stderr.lines().count() == 1
                        && stderr.contains("ulimit -u"),
                    "{said}"
                ),
                _ => panic!("{said}"),
            }
            if code == Some(0) {
                assert!(stdout.contains(answer), "{said}\n{stdout}");
            }
        }
        assert!(answered, "{args:?} ran under none of the limits");
    }
    // `count --slurm` starts `sbatch` (here a stand-in that answers a job id), a process the
    // same limit counts.
    let bin = dir.join("bin");
    fs::create_dir(&bin).unwrap();
    fs::write(bin.join("sbatch"), "#!/bin/sh\necho 42\n").unwrap();
    fs::set_permissions(bin.join("sbatch"), fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(&bin, fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut submitted = false;
    for threads in 1..=8 {
        let jobs = dir.join(format!("jobs-{threads}"));
        fs::create_dir(&jobs).unwrap();
        fs::set_permissions(&jobs, fs::Permissions::from_mode(0o777)).unwrap();
        let (code, stdout, stderr) = output(
            allowed(threads)
                .args(["count", "12", "--slurm", "--shards", "2", "--dir"])
                .arg(&jobs)
                .env("PATH", &path),
        );
        let said = format!("count --slurm under ulimit -u {threads}: {code:?} {stderr}");
        match code {
            Some(0) => submitted |= format!("{stdout}{stderr}").contains("as job 42"),
            Some(2) => assert!(
                stderr.lines().count() == 1 && stderr.contains("ulimit -u"),
                "{said}"
            ),
            _ => panic!("{said}"),
        }
    }
    assert!(
        submitted,
        "count --slurm submitted under none of the limits"
    );
    // Two threads: this one and the count's worker.
    let (code, stdout, stderr) = output(allowed(2).args(["count", "10", "--threads", "1"]));
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("on 1 thread "), "{stdout}");
    for args in [&["count", "10"][..], &["count", "10", "--threads", "2"]] {
        let (code, stdout, stderr) = output(allowed(4).args(args));
        let said = format!("{args:?} under ulimit -u 4: {code:?} {stderr}");
        assert_eq!(code, Some(0), "{said}");
        assert!(
            stdout.contains("724 solutions") && stdout.contains("on 2 threads"),
            "{said}\n{stdout}"
        );
    }
}

/// At its soft CPU-time limit (`ulimit -St`, as batch schedulers set it to warn of the hard
/// one) a count stops as on Ctrl-C, saves what it counted and says how to resume, where the
/// limit's signal (`SIGXCPU`) ended it and lost the work since its last save. The same command
/// then resumes to the published count.
#[test]
fn the_cpu_time_limit_stops_a_count_keeping_its_work() {
    let dir = scratch("cpu-limit");
    let args = [
        "count",
        "16",
        "--engine",
        "backtracking",
        "--threads",
        "1",
        "--checkpoint",
        "c.json",
    ];
    let (code, _, stderr) = output(
        Command::new("bash")
            .arg("-c")
            .arg("ulimit -St 1; exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_queens"))
            .args(args)
            .current_dir(&dir),
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("stopped (cancelled)") && stderr.contains("resume from c.json"),
        "{stderr}"
    );
    let (code, stdout, stderr) = output(queens().args(args).current_dir(&dir));
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("14772512 solutions") && stdout.contains("resumed from c.json"),
        "{stdout}"
    );
}
