//! The command line at its edges, one test per class of fault rather than per input: every
//! command whose answer goes to standard output (help and the version too) refuses a closed
//! one; every number of seconds is refused past its largest with that largest named; instance
//! readers refuse at the first token that cannot be right, in memory bounded by the board;
//! outputs reach streams and files that cannot be replaced, and an output nobody reads gives up
//! at the stop; every time limit bounds the set-up too; the worker threads are sized within
//! the limits whatever `RAYON_NUM_THREADS` says, and their stacks whatever `RUST_MIN_STACK` says.
#![cfg(unix)]

mod common;

use common::{Server, output, root_powers, scratch, under_an_address_limit};

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn queens() -> Command {
    Command::new(env!("CARGO_BIN_EXE_queens"))
}

/// Runs `queens ARGS` through a shell that closes its standard output first.
fn with_stdout_closed(args: &[&str]) -> (Option<i32>, String) {
    let (code, _, stderr) = output(
        Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" \"$@\" >&-")
            .arg(env!("CARGO_BIN_EXE_queens"))
            .args(args),
    );
    (code, stderr)
}

#[test]
fn every_answer_refuses_a_closed_standard_output() {
    let dir = scratch("edges");
    let board = dir.join("board.txt");
    std::fs::write(&board, "1 3 0 2\n").unwrap();
    for args in [
        &["count", "8"][..],
        &["count", "8", "--json"],
        &["solve", "8"],
        &["solve", "8", "--format", "json"],
        &["configure", "6", "--json"],
        &["challenge", "5", "--solver", "backtracking", "--json"],
        &[
            "experiment",
            "6",
            "--solver",
            "hill-climbing",
            "--runs",
            "2",
        ],
        &["devices"],
        &["verify", board.to_str().unwrap()],
    ] {
        let (code, stderr) = with_stdout_closed(args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("standard output is closed"),
            "{args:?}: {stderr}"
        );
    }
    // Help and the version are answers too: where the standard library would swallow them,
    // they are refused in the same words.
    for (args, what) in [
        (&["--help"][..], "the help"),
        (&["-h"], "the help"),
        (&["help", "count"], "the help"),
        (&["solve", "--help"], "the help"),
        (&["--version"], "the version"),
    ] {
        let (code, stderr) = with_stdout_closed(args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("standard output is closed, so {what} would")),
            "{args:?}: {stderr}"
        );
    }
    // An answer with a file of its own still goes there.
    let file = dir.join("answer.txt");
    let (code, stderr) = with_stdout_closed(&["solve", "8", "-o", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(std::fs::read_to_string(&file).unwrap().contains('Q'));
}

#[test]
fn every_number_of_seconds_names_its_largest() {
    for args in [
        &["solve", "8", "--time-limit", "1e20"][..],
        &["count", "8", "--time-limit", "1e20"],
        &["configure", "8", "--time-limit", "1e20"],
        &["challenge", "5", "--time-limit", "1e20"],
        &[
            "experiment",
            "6",
            "--solver",
            "hill-climbing",
            "--time-limit",
            "1e20",
        ],
        &[
            "count",
            "8",
            "--checkpoint",
            "/nonexistent/c.json",
            "--checkpoint-every",
            "1e20",
        ],
        &["solve", "8", "--time-limit", "1e400"],
    ] {
        let (code, _, stderr) = output(queens().args(args));
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("too large: at most 1000000000") && !stderr.contains("inf"),
            "{args:?}: {stderr}"
        );
    }
    for bad in ["0", "-1", "nan", "inf"] {
        let (code, _, stderr) = output(queens().args(["solve", "8", "--time-limit", bad]));
        assert_eq!(code, Some(2), "{bad}: {stderr}");
    }
}

/// A checkpoint asked for every millisecond is taken (saves are floored at a tenth of a
/// second inside the count driver, whose unit test checks the floor) and counts right.
#[test]
fn an_eager_checkpoint_interval_still_counts() {
    let dir = scratch("edges-every");
    let checkpoint = dir.join("count.json");
    let eager = ["count", "12", "--checkpoint-every", "0.001", "--checkpoint"];
    let (code, stdout, stderr) = output(queens().args(eager).arg(&checkpoint));
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("14200"), "{stdout}");
    assert!(checkpoint.exists());
}

/// A list of tens of megabytes of commas is refused at its first comma, quickly and in
/// little memory, under an address-space limit that the old whole-file tokeniser broke.
#[test]
fn instance_readers_refuse_at_the_first_wrong_token() {
    let dir = scratch("edges-instance");
    let file = dir.join("commas.param");
    {
        let mut writer = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
        writer.write_all(b"n = 8\nblocks = [").unwrap();
        let commas = vec![b','; 1 << 20];
        for _ in 0..40 {
            writer.write_all(&commas).unwrap();
        }
        writer.write_all(b"]\n").unwrap();
    }
    for command in ["solve", "count", "configure"] {
        let started = Instant::now();
        let (code, _, stderr) = output(under_an_address_limit(1_000_000).args([
            command,
            "--instance",
            file.to_str().unwrap(),
        ]));
        assert_eq!(code, Some(2), "{command}: {stderr}");
        assert!(stderr.contains("line 2"), "{command}: {stderr}");
        assert!(started.elapsed() < Duration::from_secs(10), "{command}");
    }
    let missing = dir.join("numdiags.param");
    std::fs::write(&missing, "n = 8\nnumdiags = 5\n").unwrap();
    let (code, _, stderr) =
        output(queens().args(["solve", "--instance", missing.to_str().unwrap()]));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("no diags list"), "{stderr}");
}

/// Outputs to streams are written through, to files with the longest names are staged beside
/// them, and the answer always arrives.
#[test]
fn outputs_reach_streams_and_long_names() {
    for target in ["/dev/stdout", "/dev/fd/1"] {
        let (code, stdout, stderr) = output(queens().args(["solve", "8", "-o", target]));
        assert_eq!(code, Some(0), "{target}: {stderr}");
        assert_eq!(stdout.matches('Q').count(), 8, "{target}: {stdout}");
    }
    let dir = scratch("streams");
    let fd3 = dir.join("fd3.txt");
    let (code, _, stderr) = output(
        Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" solve 6 -o /dev/fd/3 3>\"$1\"")
            .arg(env!("CARGO_BIN_EXE_queens"))
            .arg(&fd3),
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&fd3).unwrap().matches('Q').count(),
        6
    );
    // A 250-byte name: the temporary file beside it must still be a legal name.
    let long = dir.join("q".repeat(250));
    let (code, _, stderr) = output(queens().args(["solve", "8", "-o"]).arg(&long));
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&long).unwrap().matches('Q').count(),
        8
    );
    let checkpoint = dir.join(format!("{}.json", "c".repeat(245)));
    let (code, _, stderr) = output(
        queens()
            .args(["count", "10", "--checkpoint"])
            .arg(&checkpoint),
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(checkpoint.exists(), "the checkpoint was saved");
}

/// Files this user may write but not replace — another user's file in a sticky directory, a
/// file in a read-only directory — are written in place. Needs root (to make them) and
/// `setpriv` (to run as nobody); skipped otherwise (a failure with `QUEENS_REQUIRE_ROOT=1`).
#[test]
fn files_that_cannot_be_replaced_are_written_in_place() {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.stdout == b"0\n");
    let setpriv = Command::new("setpriv").arg("--version").output().is_ok();
    if !root_powers(root && setpriv, "needs root and setpriv") {
        return;
    }
    let dir = scratch("in-place");
    let set_mode = |path: &std::path::Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    set_mode(&dir, 0o755);
    // The binary where nobody can run it.
    let binary = dir.join("queens");
    std::fs::copy(env!("CARGO_BIN_EXE_queens"), &binary).unwrap();
    set_mode(&binary, 0o755);
    for (name, dir_mode) in [("sticky", 0o1777), ("read-only", 0o555)] {
        let sub = dir.join(name);
        std::fs::create_dir(&sub).unwrap();
        let file = sub.join("answer.txt");
        std::fs::write(&file, "old\n").unwrap();
        set_mode(&file, 0o666);
        set_mode(&sub, dir_mode);
        let (code, _, stderr) = output(
            Command::new("setpriv")
                .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(&binary)
                .args(["solve", "8", "-o"])
                .arg(&file),
        );
        assert_eq!(code, Some(0), "{name}: {stderr}");
        let written = std::fs::read_to_string(&file).unwrap();
        assert_eq!(written.matches('Q').count(), 8, "{name}: {written}");
        set_mode(&sub, 0o755);
    }
}

/// An output nobody reads — a FIFO nobody opens, a pipe nobody drains — gives up within a
/// second or two of the stop instead of holding the run.
#[test]
fn blocked_outputs_honour_the_stop() {
    let dir = scratch("blocked");
    let fifo = dir.join("trace.fifo");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        let started = Instant::now();
        let (code, _, stderr) = output(
            queens()
                .args(["solve", "8", "--time-limit", "0.5", "--trace"])
                .arg(&fifo),
        );
        assert_ne!(code, Some(0), "{stderr}");
        assert!(stderr.contains("nobody reads it"), "{stderr}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }
    // A shard report onto a FIFO nobody opens: Ctrl-C ends the wait.
    let cluster = dir.join("cluster");
    std::fs::create_dir_all(&cluster).unwrap();
    let report = cluster.join("shard-0-of-2.json");
    if Command::new("mkfifo")
        .arg(&report)
        .status()
        .is_ok_and(|s| s.success())
    {
        let (output, took) = common::stopped_by_signal(
            &[
                "count",
                "10",
                "--shard",
                "0/2",
                "--dir",
                cluster.to_str().unwrap(),
            ],
            "INT",
            Duration::from_secs(1),
        );
        assert!(!output.status.success());
        assert!(took < Duration::from_secs(3), "{took:?}");
    }
    // A pipe whose reader never reads: 8 MB of answer into a 64 KiB pipe.
    let started = Instant::now();
    let mut child = queens()
        .args(["solve", "1000000", "--format", "perm", "--time-limit", "3"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let status = status.expect("the run ended without its output being read");
    assert!(!status.success());
}

/// Runs `queens ARGS` and returns its exit code, stderr and wall time.
fn timed(args: &[&str]) -> (Option<i32>, String, Duration) {
    let started = Instant::now();
    let (code, _, stderr) = output(queens().args(args));
    (code, stderr, started.elapsed())
}

/// No output replaces a file the command reads, or another of its outputs, by any name or link:
/// each is refused before any work, naming both, and the files are left as they were. Devices
/// are written through, not replaced, so two outputs may share one.
#[cfg(unix)]
#[test]
fn an_output_never_replaces_an_input_or_another_output() {
    let dir = scratch("overlap");
    let at = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let instance = r#"{"n": 8, "fixed": [{"row": 0, "col": 0}]}"#;
    std::fs::write(dir.join("i.json"), instance).unwrap();
    std::os::unix::fs::symlink("i.json", dir.join("link.json")).unwrap();
    for i in 0..3 {
        let shard = format!("{i}/3");
        let (code, _, stderr) = output(
            queens()
                .args(["count", "10", "--shard", &shard, "--dir"])
                .arg(&*dir),
        );
        assert_eq!(code, Some(0), "{stderr}");
    }
    let report = at("shard-1-of-3.json");
    let reported = std::fs::read(&report).unwrap();
    let dotted = format!("{}/./shard-1-of-3.json", dir.display());
    let pattern = at("shard-*-of-3.json");
    for (args, said) in [
        (
            vec![
                "solve",
                "8",
                "-o",
                &at("a.txt"),
                "--trace",
                &format!("{}/./a.txt", dir.display()),
            ],
            "name one file: the trace would replace the answer; give each its own file",
        ),
        (
            vec![
                "solve",
                "--instance",
                &at("i.json"),
                "--trace",
                &at("i.json"),
            ],
            "is the --instance file: the trace would replace it; name another file",
        ),
        (
            vec!["solve", "--instance", &at("i.json"), "-o", &at("link.json")],
            "is the --instance file (",
        ),
        (
            vec!["merge", &pattern, "-o", &dotted],
            "is a report merged: the total would replace it",
        ),
        (
            vec![
                "merge",
                &at("shard-0-of-3.json"),
                "--recount",
                &report,
                "-o",
                &report,
            ],
            "is a recount: the total would replace it; name another file",
        ),
    ] {
        let (code, stdout, stderr) = output(queens().args(&args));
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(
            stdout.is_empty() && stderr.starts_with("error: ") && stderr.contains(said),
            "{args:?}: {stderr}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("i.json")).unwrap(),
        instance
    );
    assert_eq!(std::fs::read(&report).unwrap(), reported);
    assert!(!dir.join("a.txt").exists());
    // A device is no file to replace.
    let (code, stdout, stderr) =
        output(queens().args(["solve", "6", "-o", "/dev/stdout", "--trace", "/dev/stdout"]));
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("\"type\":\"started\"") && stdout.contains(" Q "),
        "{stdout}"
    );
    // And a merge into a file of its own goes through.
    let (code, _, stderr) = output(queens().args(["merge", &pattern, "-o", &at("total.txt")]));
    assert_eq!(code, Some(0), "{stderr}");
}

/// Ctrl-C or SIGTERM while the diagram is built says the analysis was interrupted, not that a
/// time limit passed (there was none to give longer).
#[cfg(unix)]
#[test]
fn a_diagram_build_interrupted_is_not_called_a_time_limit() {
    for signal in ["INT", "TERM"] {
        let (output, took) = common::stopped_by_signal(
            &["configure", "13", "--engine", "bdd"],
            signal,
            Duration::from_millis(400),
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{signal}: {stderr}");
        assert_eq!(
            stderr.trim(),
            "stopped: interrupted before the analysis was complete",
            "{signal}"
        );
        assert!(took < Duration::from_secs(2), "{signal}: {took:?}");
    }
}

/// Every time limit bounds the wall time, set-up included: building the diagram, sorting the
/// blocked squares of a large position, dealing a large start.
#[test]
fn time_limits_bound_the_set_up_too() {
    let (code, stderr, took) =
        timed(&["configure", "13", "--engine", "bdd", "--time-limit", "0.3"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("not built within the time limit"),
        "{stderr}"
    );
    assert!(took < Duration::from_secs(3), "{took:?}");
    let dir = scratch("budgets");
    let instance = dir.join("reversed.json");
    let n = 300;
    let squares: Vec<String> = (0..n * n)
        .rev()
        .map(|k| format!("{{\"row\": {}, \"col\": {}}}", k / n, k % n))
        .collect();
    std::fs::write(
        &instance,
        format!("{{\"n\": {n}, \"blocked\": [{}]}}", squares.join(", ")),
    )
    .unwrap();
    let path = instance.to_str().unwrap();
    let (code, stderr, took) = timed(&["configure", "--time-limit", "1", "--instance", path]);
    assert_eq!(code, Some(1), "no solution on a blocked board: {stderr}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    // A billion rows are 4 GB to deal: seconds of page faults, now read between chunks (a
    // machine without the memory refuses the run at once instead).
    let (code, stderr, took) = timed(&[
        "solve",
        "1000000000",
        "--solver",
        "min-conflicts",
        "--time-limit",
        "0.2",
        "--format",
        "summary",
    ]);
    assert!(
        code == Some(1) || (code == Some(2) && stderr.contains("memory")),
        "{stderr}"
    );
    assert!(took < Duration::from_secs(2), "{took:?}");
}

/// A bad token of a megabyte (in a file; 100 kB as an argument) is quoted by a short excerpt wherever it is read: an argument, a
/// flag's value, a solver parameter, an instance file, a board file, a JSON problem. Every
/// error line stays short.
#[test]
fn a_megabyte_token_gives_a_short_error_line() {
    let dir = scratch("long-token");
    // Files hold a megabyte; an argument at most 128 KiB (Linux's MAX_ARG_STRLEN).
    let token = "9".repeat(100_000);
    let word = "x".repeat(100_000);
    let (long_token, long_word) = ("9".repeat(1 << 20), "x".repeat(1 << 20));
    let instance = dir.join("long.param");
    std::fs::write(&instance, format!("n = 8\nblocks = [{long_token}]\n")).unwrap();
    let board = dir.join("long.txt");
    std::fs::write(&board, format!("1 3 {long_word} 2\n")).unwrap();
    let problem = dir.join("long.json");
    std::fs::write(&problem, format!("{{\"n\": \"{long_word}\"}}")).unwrap();
    let set = format!("p={word}");
    let named = format!("{word}=1");
    let (instance, board, problem) = (
        instance.to_str().unwrap(),
        board.to_str().unwrap(),
        problem.to_str().unwrap(),
    );
    for args in [
        &["count", &token][..],
        &["count", "8", "--threads", &token],
        &["count", "8", "--memory", &word],
        &["solve", "8", "--fix", &word],
        &["solve", "8", "--solver", &word],
        &[
            "solve",
            "8",
            "--solver",
            "hill-climbing-constant-shake",
            "--set",
            &set,
        ],
        &["solve", "8", "--solver", "hill-climbing", "--set", &named],
        &["count", "--instance", instance],
        &["solve", "--instance", problem],
        &["verify", board],
        &[
            "experiment",
            "8",
            "--solver",
            "hill-climbing",
            "--set",
            &set,
        ],
    ] {
        let (code, _, stderr) = output(queens().args(args));
        assert_eq!(code, Some(2), "{}", &args[..1].join(" "));
        assert!(
            stderr.lines().all(|line| line.len() < 1000),
            "{:?}: {} bytes of error",
            &args[..2],
            stderr.len()
        );
    }
}

/// A permutation's row that no board of its input's length has is refused as it comes, from a
/// named file and from a file redirected into standard input, before the rows waiting for
/// their columns grow in memory.
#[test]
fn rows_no_board_of_the_input_can_hold_are_refused_at_first_sight() {
    let dir = scratch("far-rows");
    let file = dir.join("far.txt");
    let rows = vec!["4000000000"; 200_000].join(" ");
    std::fs::write(&file, &rows).unwrap();
    let words = "permutation entry 0 is row 4000000000, but an input of 2199999 bytes holds at most 1100000 columns";
    let (code, _, stderr) = output(queens().arg("verify").arg(&file));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains(words), "{stderr}");
    let redirected = queens()
        .arg("verify")
        .stdin(std::fs::File::open(&file).unwrap())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&redirected.stderr);
    assert_eq!(redirected.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(words), "{stderr}");
    // A row within reach of the input is read on and judged as before.
    std::fs::write(&file, "1 3 0 2 9").unwrap();
    let (code, _, stderr) = output(queens().arg("verify").arg(&file));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("row 9, but an input of 9 bytes holds at most 5 columns"),
        "{stderr}"
    );
}

/// The automatic look for a GPU has no side effects: a driver's chatter stays off stderr (Mesa
/// without `XDG_RUNTIME_DIR`), and under `ulimit -v` no driver is loaded, so a count the CPU
/// engines fit runs as `--engine join` does.
#[test]
fn the_gpu_probe_leaves_no_trace() {
    for args in [&["count", "18", "--json"][..], &["devices"]] {
        let (code, _, stderr) = output(queens().args(args).env_remove("XDG_RUNTIME_DIR"));
        assert!(code == Some(0) || args[0] == "devices", "{stderr}");
        assert!(!stderr.contains("error"), "{args:?}: {stderr}");
    }
    let (code, stdout, stderr) =
        output(under_an_address_limit(400_000).args(["count", "18", "--json"]));
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("\"total\":666090624"), "{stdout}");
}

/// Counts started at once on the server each ask whether there is a GPU: the drivers' chatter
/// stays off its stderr for every one of them, not only for the first (the gag that hides it
/// is process-wide, and a second is refused while one is held).
#[test]
fn gpu_probes_at_once_leave_no_trace() {
    let dir = scratch("probes-at-once");
    // Three servers, each sent four counts at once (a client's most jobs).
    for round in 0..3 {
        let log = dir.join(format!("stderr-{round}"));
        let mut command = Command::new(env!("CARGO_BIN_EXE_queens"));
        command.env_remove("XDG_RUNTIME_DIR");
        let server = Server::spawn_with_stderr(command, std::fs::File::create(&log).unwrap());
        // From N = 18 a count with the automatic engine looks for a GPU before it answers.
        let clients: Vec<_> = (0..4)
            .map(|_| {
                let address = server.address.clone();
                std::thread::spawn(move || first_bytes(&address, "/api/count?n=18"))
            })
            .collect();
        for client in clients {
            let status = client.join().unwrap();
            assert!(status.ends_with("200"), "{status}");
        }
        drop(server);
        let stderr = std::fs::read_to_string(&log).unwrap();
        assert!(!stderr.contains("error"), "round {round}: {stderr}");
    }
}

/// Under any address-space limit (`ulimit -v`) the server refuses to start in one sentence, or
/// serves, and then answers every request or refuses it with a JSON error, and keeps serving:
/// it ended with "OS can't spawn worker thread" (its runtime's threads, a job's thread) or an
/// allocation that failed (the configurator's diagrams it builds as it starts) from 19 to 94
/// MiB.
#[test]
fn a_server_under_an_address_space_limit_refuses_or_answers() {
    let dir = scratch("serve-address-limit");
    let mut answered = [false; SERVER_REQUESTS.len()];
    for mib in (20..=200).step_by(12) {
        let mut command = under_an_address_limit(mib * 1024);
        command.env("RAYON_NUM_THREADS", "2");
        serves_or_refuses(command, &format!("{mib} MiB"), &dir, &mut answered);
    }
    assert_eq!(
        answered,
        [true; SERVER_REQUESTS.len()],
        "every request answered under some limit"
    );
}

/// Under any limit on a user's threads (`ulimit -u`, as a control group's `pids.max` sets one
/// too) the server refuses to start in a sentence that names it, or serves, and then answers
/// every request or refuses it with a JSON error, and keeps serving: with room for three
/// threads it panicked starting its runtime (`OS can't spawn worker thread`), with four it hung
/// as that panic unwound, and with five it ended at its first job's thread.
#[test]
fn a_server_under_a_limit_on_threads_refuses_or_answers() {
    let dir = scratch("serve-thread-limit");
    let Some(allowed) = common::as_a_user_allowed_threads(&dir) else {
        return;
    };
    let mut answered = [false; SERVER_REQUESTS.len()];
    for threads in 1..=10 {
        let refusal = serves_or_refuses(
            allowed(threads),
            &format!("ulimit -u {threads}"),
            &dir,
            &mut answered,
        );
        if let Some(refusal) = refusal {
            assert!(refusal.contains("ulimit -u"), "{threads}: {refusal}");
        }
    }
    assert_eq!(
        answered,
        [true; SERVER_REQUESTS.len()],
        "every request answered under some limit"
    );
}

/// What [`serves_or_refuses`] asks, and what each answer holds where it is given.
const SERVER_REQUESTS: [(&str, &str, &str, &str); 4] = [
    (
        "POST",
        "/api/configure",
        r#"{"n":12,"queens":[],"engine":"bdd"}"#,
        "\"solvable\":true",
    ),
    (
        "POST",
        "/api/configure",
        r#"{"n":11,"queens":[]}"#,
        "\"solvable\":true",
    ),
    ("GET", "/api/count?n=10", "", "\"total\":724"),
    ("GET", "/api/solve?n=8", "", "\"solved\""),
];

/// Starts `command serve` on a free port (said as `label`, its standard error in a file of
/// `dir`), and checks that it either refuses to start in one sentence, which is returned, or
/// serves and answers each of [`SERVER_REQUESTS`] (marked in `answered`) or refuses it with a
/// JSON error, and is still serving after them, with no panic and no failed allocation.
fn serves_or_refuses(
    mut command: Command,
    label: &str,
    dir: &std::path::Path,
    answered: &mut [bool; SERVER_REQUESTS.len()],
) -> Option<String> {
    use std::io::{BufRead, Read};

    let log = dir.join("stderr");
    let mut child = command
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    // Its first line, or nothing where it ends (or hangs, as a server did whose runtime
    // panicked on starting) first.
    let stdout = child.stdout.take().unwrap();
    let (sender, first_line) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        let _ = sender.send(line);
    });
    let Ok(line) = first_line.recv_timeout(Duration::from_secs(60)) else {
        let _ = child.kill();
        panic!("{label}: neither served nor ended within a minute");
    };
    let Some(address) = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
    else {
        let code = child.wait().unwrap().code();
        let stderr = std::fs::read_to_string(&log).unwrap();
        assert_eq!(code, Some(2), "{label}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.lines().count() == 1,
            "{label}: {stderr}"
        );
        return Some(stderr);
    };
    for (at, (method, path, body, answer)) in SERVER_REQUESTS.iter().enumerate() {
        let mut reply = String::new();
        common::send(address, method, path, body)
            .unwrap()
            .read_to_string(&mut reply)
            .unwrap();
        let said = format!("{label}, {method} {path}: {reply}");
        let status: u16 = reply[9..12].parse().expect(&said);
        if status == 200 {
            answered[at] |= reply.contains(answer);
        } else {
            assert!(
                matches!(status, 400 | 503) && reply.contains("{\"error\":"),
                "{said}"
            );
        }
    }
    assert!(child.try_wait().unwrap().is_none(), "{label}: it ended");
    let _ = child.kill();
    let _ = child.wait();
    let stderr = std::fs::read_to_string(&log).unwrap();
    assert!(
        !stderr.contains("panicked") && !stderr.contains("memory allocation"),
        "{label}: {stderr}"
    );
    None
}

/// The status line's first twelve bytes of the server's answer to `GET path`.
fn first_bytes(address: &str, path: &str) -> String {
    use std::io::Read;

    let mut stream = common::send(address, "GET", path, "").unwrap();
    let mut status = [0; 12];
    stream.read_exact(&mut status).unwrap();
    String::from_utf8_lossy(&status).into_owned()
}

/// `-o` naming the process's own standard output (`/dev/stdout`, `/proc/self/fd/1`, or a link to
/// either) is written through that descriptor: the answer lands between what the shell writes
/// before and after it, nothing is replaced or overwritten.
#[test]
fn an_output_through_a_descriptor_keeps_its_place_in_the_stream() {
    let dir = scratch("descriptor-output");
    let to_stdout = dir.join("to-stdout");
    std::os::unix::fs::symlink("/dev/stdout", &to_stdout).unwrap();
    let to_fd = dir.join("to-fd");
    std::os::unix::fs::symlink("/proc/self/fd/1", &to_fd).unwrap();
    let answer = dir.join("answer.txt");
    for target in [
        "/dev/stdout".into(),
        "/proc/self/fd/1".into(),
        to_stdout.display().to_string(),
        to_fd.display().to_string(),
    ] {
        let script = format!(
            "(echo HEADER; \"$0\" solve 4 --format perm -o '{target}'; echo FOOTER) > '{}'",
            answer.display()
        );
        let (code, _, stderr) = output(
            Command::new("sh")
                .arg("-c")
                .arg(&script)
                .arg(env!("CARGO_BIN_EXE_queens")),
        );
        assert_eq!(code, Some(0), "{target}: {stderr}");
        let written = std::fs::read_to_string(&answer).unwrap();
        assert_eq!(written, "HEADER\n2 0 3 1\nFOOTER\n", "{target}");
        // The links are still links, to where they led.
        assert!(std::fs::symlink_metadata(&to_stdout).unwrap().is_symlink());
        assert!(std::fs::symlink_metadata(&to_fd).unwrap().is_symlink());
    }
}

/// Under a low stack limit (`ulimit -s`) a command runs as under the usual 8 MiB: the deepest
/// search (completion of a 1024×1024 board), the configurator, a count and the validator each
/// ended in a stack overflow under 64 KiB, some of them while the command was being parsed.
#[test]
fn a_low_stack_limit_gives_the_same_answers() {
    let dir = scratch("low-stack");
    let board = dir.join("board.txt");
    std::fs::write(&board, "1 3 0 2\n").unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "solve",
                "1024",
                "--solver",
                "completion",
                "--format",
                "summary",
            ],
            "solved=true",
        ),
        (&["configure", "64"], "open: 4096"),
        (&["count", "12"], "N = 12: 14200 solutions, 1787 unique"),
        (&["verify", board.to_str().unwrap()], "a valid solution"),
    ];
    for (args, answer) in cases {
        // The limit holds the environment and the loader's work too: where they fill it (16 KiB
        // beside a 4 KiB environment), the process ends before the program runs.
        for kib in [64, 256] {
            let (code, stdout, stderr) = output(
                Command::new("sh")
                    .arg("-c")
                    .arg(format!("ulimit -s {kib}; exec \"$0\" \"$@\""))
                    .arg(env!("CARGO_BIN_EXE_queens"))
                    .args(args),
            );
            let said = format!("{args:?} under a stack of {kib} KiB: {code:?} {stderr}");
            assert_eq!(code, Some(0), "{said}");
            assert!(stdout.contains(answer), "{said}\n{stdout}");
        }
    }
}

/// Under any address-space limit (`ulimit -v`) or data limit (`ulimit -d`, which since Linux
/// 4.7 holds every private writable mapping) a command refuses with a sentence or runs to its
/// answer: never an allocation that aborts or a thread that cannot start. Swept from a limit
/// that leaves no room for worker threads up to one that fits the run, in steps of 4 MiB,
/// across the commands that start threads (the dealing and the validator of a million queens,
/// the count's workers). Under the data limit every command below 100 MiB aborted (`memory
/// allocation of 67428448 bytes failed`), as only the address-space limit was read.
#[test]
fn an_address_space_limit_gives_a_refusal_or_an_answer() {
    let cases: [&[&str]; 4] = [
        &[
            "solve",
            "1100000",
            "--solver",
            "min-conflicts",
            "--format",
            "summary",
        ],
        &["count", "11"],
        // The configurator's diagram: built where the memory left has room for it (the
        // automatic engine searches instead), refused where it has not.
        &["configure", "11"],
        &["configure", "12", "--engine", "bdd"],
    ];
    for (flag, args) in ["-v", "-d"]
        .into_iter()
        .flat_map(|flag| cases.map(|args| (flag, args)))
    {
        let mut answered = false;
        for mib in (24..=160).step_by(4) {
            let (code, _, stderr) = output(
                common::under_a_limit(flag, mib * 1024)
                    .args(args)
                    // Two workers, as on the reference machine: each thread's stack counts
                    // against the limit, so a many-core machine would need a higher one.
                    .env("RAYON_NUM_THREADS", "2"),
            );
            let said = format!("{args:?} under ulimit {flag} of {mib} MiB: {code:?} {stderr}");
            assert!(matches!(code, Some(0 | 2)), "{said}");
            assert!(
                !stderr.contains("panicked") && !stderr.contains("memory allocation"),
                "{said}"
            );
            if code == Some(2) {
                assert!(
                    stderr.starts_with("error: ") && stderr.lines().count() == 1,
                    "{said}"
                );
                // A refusal for memory names the limit that leaves too little, never "0 B".
                if stderr.contains(" needs about ") {
                    assert!(
                        stderr.contains(&format!("(ulimit {flag})")) && !stderr.contains(" 0 B "),
                        "{said}"
                    );
                }
            }
            answered |= code == Some(0);
        }
        assert!(
            answered,
            "{args:?} ran under none of the ulimit {flag} limits"
        );
    }
    // N = 28's split (2.1 million parts, about 160 MiB) is sized before it is made: under
    // these limits it is refused in one sentence, where every limit to 100 MiB aborted.
    for (flag, mib) in ["-v", "-d"]
        .into_iter()
        .flat_map(|flag| (24..=128).step_by(8).map(move |mib| (flag, mib)))
    {
        let (code, _, stderr) = output(
            common::under_a_limit(flag, mib * 1024)
                .args(["count", "28", "--plan"])
                .env("RAYON_NUM_THREADS", "2"),
        );
        let said = format!("count 28 --plan under ulimit {flag} of {mib} MiB: {code:?} {stderr}");
        assert_eq!(code, Some(2), "{said}");
        assert!(
            stderr.starts_with("error: ") && stderr.lines().count() == 1,
            "{said}"
        );
    }
}

/// Under both limits at once a memory refusal names the one that leaves less room, which need
/// not be the lower: the room each leaves alone is read from the refusal under it alone, and
/// the refusal under both says the smaller, under that limit's name. Before, the lower limit
/// was named whatever was left under it (`-d` of 100 MiB under `-v` of 120 MiB, where the
/// program's own mappings leave less under `-v`).
#[test]
fn under_both_limits_a_refusal_names_the_one_that_leaves_less() {
    let refusal = |limits: &[(&str, u32)]| {
        let settings: Vec<String> = limits
            .iter()
            .map(|(flag, mib)| format!("ulimit {flag} {};", mib * 1024))
            .collect();
        let (code, _, stderr) = output(
            Command::new("sh")
                .arg("-c")
                .arg(format!("{} exec \"$0\" \"$@\"", settings.join(" ")))
                .arg(env!("CARGO_BIN_EXE_queens"))
                .args(["count", "28", "--plan"])
                .env("RAYON_NUM_THREADS", "2"),
        );
        let said = format!("count 28 --plan under {limits:?}: {code:?} {stderr}");
        assert_eq!(code, Some(2), "{said}");
        let (room, limit) = stderr
            .trim_end()
            .split_once("but only ")
            .and_then(|(_, rest)| rest.split_once(" of memory is available under "))
            .unwrap_or_else(|| panic!("{said}"));
        let mib: f64 = room
            .strip_suffix(" MiB")
            .and_then(|m| m.parse().ok())
            .unwrap_or_else(|| panic!("{said}"));
        (mib, limit.to_owned())
    };
    // What the program maps beyond its data (its code, its libraries) counts under `-v` alone,
    // so a `-d` a little lower than a `-v` can leave more room: read both overheads, then set
    // `-d` between the two limits' crossing and `-v`.
    let space = 120;
    let (space_room, space_words) = refusal(&[("-v", space)]);
    let (data_room, data_words) = refusal(&[("-d", space)]);
    assert!(space_words.ends_with("(ulimit -v)") && data_words.ends_with("(ulimit -d)"));
    let beyond_data = data_room - space_room;
    assert!(
        beyond_data >= 4.0,
        "{space_room} MiB left under -v, {data_room} under -d"
    );
    let data_lower_but_looser = space - (beyond_data / 2.0) as u32;
    let mut named = Vec::new();
    for data in [
        data_lower_but_looser,
        space - beyond_data as u32 - 4,
        space + 20,
    ] {
        let (data_room, data_words) = refusal(&[("-d", data)]);
        let (room, words) = refusal(&[("-v", space), ("-d", data)]);
        let said = format!(
            "-v {space} MiB leaves {space_room} MiB, -d {data} MiB {data_room} MiB; both: \
             {room} MiB under {words}"
        );
        assert!((room - space_room.min(data_room)).abs() <= 1.0, "{said}");
        let tighter = if space_room < data_room {
            &space_words
        } else {
            &data_words
        };
        assert_eq!(&words, tighter, "{said}");
        named.push(words);
    }
    assert!(named[0].ends_with("(ulimit -v)"), "{named:?}");
    assert!(named[1].ends_with("(ulimit -d)"), "{named:?}");
}

/// Under any limit on open files (`ulimit -n`) a command answers, or refuses in a sentence that
/// reaches standard error: at 5 descriptors a GPU count exited 2 saying nothing, as the
/// redirection that keeps the driver's chatter off standard error could not give it back once
/// the driver had taken the last descriptor, and the loader, short of the two that redirection
/// held, found no driver.
#[test]
fn an_open_files_limit_gives_an_answer_or_a_sentence() {
    let dir = scratch("open-files-limit");
    let mut cases: Vec<(&[&str], &str)> = vec![
        (
            &["count", "12", "--checkpoint", "c.json"],
            "14200 solutions",
        ),
        (&["solve", "8", "-o", "answer.txt"], ""),
        (
            &["experiment", "8", "--runs", "3", "--out", "exp"],
            "100.0%",
        ),
        (&["configure", "8"], "92 completions"),
    ];
    // The Vulkan loader and a driver that runs on the CPU (lavapipe) open files of their own.
    if common::an_adapter_is_listed() {
        cases.push((
            &["count", "10", "--engine", "gpu", "--device", "0"],
            "724 solutions",
        ));
        cases.push((&["devices"], "0: "));
    }
    for (args, answer) in cases {
        let mut answered = false;
        for files in 4..=12 {
            let (code, stdout, stderr) = output(
                Command::new("bash")
                    .arg("-c")
                    .arg(format!("ulimit -n {files}; exec \"$0\" \"$@\""))
                    .arg(env!("CARGO_BIN_EXE_queens"))
                    .args(args)
                    .current_dir(&dir),
            );
            let said = format!("{args:?} under ulimit -n {files}: {code:?} {stderr}");
            assert!(!stderr.contains("panicked"), "{said}");
            match code {
                Some(0) => {
                    answered = true;
                    assert!(stdout.contains(answer), "{said}\n{stdout}");
                }
                Some(2) => assert!(
                    stderr
                        .lines()
                        .last()
                        .is_some_and(|line| line.starts_with("error: ") && line.len() > 10),
                    "{said}"
                ),
                _ => panic!("{said}"),
            }
            let _ = std::fs::remove_file(dir.join("c.json"));
        }
        assert!(answered, "{args:?} ran under none of the limits");
    }
}

/// `RAYON_NUM_THREADS` sizes the worker threads every command shares, within `--threads`'
/// limits: a value that says no number of threads is refused naming it before any command
/// runs, where `abc` was ignored and `99999999` held a process for minutes starting threads.
#[test]
fn the_worker_threads_variable_is_read_within_the_threads_limits() {
    let commands: [&[&str]; 3] = [&["count", "9"], &["solve", "8"], &["configure", "6"]];
    for given in ["abc", "-1", "2.5", "1025", "99999999"] {
        for args in commands {
            let (code, stdout, stderr) =
                output(queens().args(args).env("RAYON_NUM_THREADS", given));
            let said = format!("RAYON_NUM_THREADS={given} {args:?}: {code:?} {stderr}");
            assert_eq!(code, Some(2), "{said}");
            assert!(stdout.is_empty(), "{said}");
            assert_eq!(
                stderr.trim_end(),
                format!(
                    "error: RAYON_NUM_THREADS=\"{given}\" is not a number of worker threads: give \
                     a whole number from 1 to 1024 (0 for one a core), or unset it"
                ),
                "{said}"
            );
        }
    }
    let cores = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(1024);
    for (given, threads) in [("3", 3), (" 1 ", 1), ("0", cores), ("", cores)] {
        let (code, stdout, stderr) = output(
            queens()
                .args(["count", "9"])
                .env("RAYON_NUM_THREADS", given),
        );
        let said = format!("RAYON_NUM_THREADS={given:?}: {code:?} {stdout} {stderr}");
        assert_eq!(code, Some(0), "{said}");
        let on = if threads == 1 {
            "1 thread".to_owned()
        } else {
            format!("{threads} threads")
        };
        assert!(stdout.contains(&format!(" on {on} ")), "{said}");
    }
}

/// `RUST_MIN_STACK`, which the standard library reads for a thread started without a stack
/// size, changes no thread's stack: every thread is started with one. At 100 bytes the
/// completion search overflowed its worker's stack in an experiment (the process aborted), and
/// at 10¹² no worker started.
#[test]
fn the_stack_size_variable_leaves_the_threads_stacks_alone() {
    let cases: [(&[&str], &str); 3] = [
        (
            &[
                "experiment",
                "1000",
                "--solver",
                "completion",
                "--runs",
                "2",
            ],
            "100.0%",
        ),
        (&["count", "12"], "N = 12: 14200 solutions, 1787 unique"),
        (&["configure", "64"], "open: 4096"),
    ];
    for given in ["100", "65536", "1000000000000"] {
        for (args, answer) in cases {
            let (code, stdout, stderr) = output(queens().args(args).env("RUST_MIN_STACK", given));
            let said = format!("RUST_MIN_STACK={given} {args:?}: {code:?} {stderr}");
            assert_eq!(code, Some(0), "{said}");
            assert!(stdout.contains(answer), "{said}\n{stdout}");
        }
    }
}
