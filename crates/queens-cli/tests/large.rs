//! One solution for the largest boards, run on purpose (`cargo test --release -p queens-cli
//! --test large -- --ignored`): they allocate gigabytes. Stops are honoured from the first
//! instant, during the start's allocation and placement, at N = 10⁹ and at the largest N the
//! format holds.
#![cfg(unix)]

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// N = 10⁹ and 2³² − 1.
const SIZES: [&str; 2] = ["1000000000", "4294967295"];

#[test]
#[ignore = "allocates gigabytes; run on purpose"]
fn a_time_limit_stops_the_largest_boards_within_a_second() {
    for n in SIZES {
        let started = Instant::now();
        let output = Command::new(env!("CARGO_BIN_EXE_queens"))
            .args([
                "solve",
                n,
                "--solver",
                "min-conflicts",
                "--format",
                "summary",
            ])
            .args(["--time-limit", "2"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let took = started.elapsed();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "N = {n}: {stdout}");
        assert!(stdout.contains("status=stopped"), "N = {n}: {stdout}");
        assert!(took < Duration::from_secs(3), "N = {n}: {took:?}");
    }
}

#[test]
#[ignore = "allocates gigabytes; run on purpose"]
fn ctrl_c_and_sigterm_stop_the_largest_boards_within_a_second() {
    for n in SIZES {
        for (signal, after) in [("INT", 1500), ("TERM", 300)] {
            let args = [
                "solve",
                n,
                "--solver",
                "min-conflicts",
                "--format",
                "summary",
            ];
            let (output, took) =
                common::stopped_by_signal(&args, signal, Duration::from_millis(after));
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert!(
                stdout.contains("status=stopped"),
                "N = {n}, SIG{signal}: {stdout}"
            );
            assert!(
                took < Duration::from_secs(1),
                "N = {n}, SIG{signal}: {took:?}"
            );
        }
    }
}
