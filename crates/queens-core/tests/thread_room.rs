//! Threads started under an address-space limit (`ulimit -v`) never end the process: Rust's
//! runtime maps each new thread a signal stack as it begins and aborts where that fails, so a
//! thread whose stack takes the last of the address space would abort the run. Threads are
//! started here until none has room ([`queens_core::parallel::begin`] then does the work on
//! the caller's thread), and a rayon pool of more threads than fit is built through
//! [`queens_core::parallel::spawn_worker`] (whose build then fails), under every limit a page
//! apart across one thread's stack and guard page: whatever the limit, the process ends
//! normally.

use std::process::Command;
use std::thread;

use queens_core::parallel::{Begun, begin, spawn_worker};

/// Set in the child processes: `size` to print the child's address space before its threads,
/// `threads` to start threads until none has room, `pool` to build a pool too large to fit.
const CHILD: &str = "QUEENS_THREAD_ROOM_CHILD";

/// The test's own name, which the child processes run alone.
const NAME: &str = "every_limit_ends_normally";

#[test]
fn every_limit_ends_normally() {
    match std::env::var(CHILD).as_deref() {
        Ok("size") => return println!("VmSize {}", own_size_kib()),
        Ok("pool") => return build_a_pool_too_large_to_fit(),
        Ok(_) => return start_threads_until_none_has_room(),
        Err(_) => {}
    }
    if !cfg!(target_os = "linux") {
        return;
    }
    let size: u64 = child("size", None)
        .trim()
        .strip_prefix("VmSize ")
        .and_then(|kib| kib.parse().ok())
        .expect("the child's size");
    // A thread takes its stack (2 MiB) and a guard page, and its signal stack as it begins (12
    // KiB on x86-64): a limit a page apart from the last across that span meets every way the
    // last thread's stack can end beside the limit.
    for extra in (0..=2 * 1024 + 64).step_by(4) {
        let limit = size + 8 * 1024 + extra;
        let said = child("threads", Some(limit));
        let started: u32 = said
            .trim()
            .strip_prefix("started ")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("under {limit} KiB: {said}"));
        assert!(started >= 1, "under {limit} KiB no thread started");
        assert_eq!(
            child("pool", Some(limit)),
            "built false",
            "under {limit} KiB"
        );
    }
}

/// Runs this test alone in a child process with `CHILD` set to `mode`, under `limit` KiB of
/// address space where given; its standard output, once it ended normally.
fn child(mode: &str, limit: Option<u64>) -> String {
    let limit = limit.map_or(String::new(), |kib| format!("ulimit -v {kib}; "));
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("{limit}exec \"$0\" \"$@\""))
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", NAME, "--nocapture", "--test-threads", "1"])
        .env(CHILD, mode)
        // One malloc arena: a thread's own arena reserves 64 MiB of address space at its first
        // allocation where that much is left, which would make the child's size under a limit
        // differ from its size without one.
        .env("MALLOC_ARENA_MAX", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{limit}{mode}: {:?}\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    // The harness writes the test's name on the line the child's words begin.
    ["VmSize ", "started ", "built "]
        .iter()
        .find_map(|word| {
            let at = stdout.find(word)?;
            stdout[at..].lines().next()
        })
        .unwrap_or_default()
        .to_owned()
}

/// Starts threads that wait for ever until one is refused and its work done here; prints how
/// many started.
fn start_threads_until_none_has_room() {
    let here = thread::current().id();
    let mut started = 0u32;
    loop {
        let waits = move || {
            while thread::current().id() != here {
                thread::park();
            }
        };
        match begin(waits) {
            Begun::Running(_) => started += 1,
            Begun::Done(()) => break,
        }
        assert!(started < 100_000, "threads never ran out of room");
    }
    println!("started {started}");
}

/// Builds a pool of more threads than any limit of the test leaves room for; prints whether it
/// was built.
fn build_a_pool_too_large_to_fit() {
    let built = rayon::ThreadPoolBuilder::new()
        .num_threads(64)
        .spawn_handler(spawn_worker)
        .build();
    println!("built {}", built.is_ok());
}

/// This process's address space, in KiB (`VmSize` of `/proc/self/status`).
fn own_size_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|line| line.strip_prefix("VmSize:"))
        .and_then(|kib| kib.split_whitespace().next()?.parse().ok())
        .unwrap()
}
