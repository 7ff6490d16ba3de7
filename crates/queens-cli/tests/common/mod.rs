//! Helpers shared by the command-line tests.
#![allow(
    dead_code,
    reason = "each test binary that includes this module uses only some helpers"
)]

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `queens`, as the tests run it.
pub fn queens() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("queens").unwrap()
}

/// Asserts that `output` ended with exit `code`, showing both streams otherwise.
pub fn assert_exit(output: &Output, code: i32, what: &str) {
    assert_eq!(
        output.status.code(),
        Some(code),
        "{what}\nstdout: {}\nstderr: {}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Runs `queens args…`, expecting exit `code`; returns stdout.
pub fn run(args: &[&str], code: i32) -> String {
    let output = queens().args(args).output().unwrap();
    assert_exit(&output, code, &format!("queens {args:?}"));
    String::from_utf8(output.stdout).unwrap()
}

/// Runs `queens args…`, expecting exit `code`; returns stdout as JSON.
pub fn json(args: &[&str], code: i32) -> serde_json::Value {
    serde_json::from_str(&run(args, code)).unwrap()
}

/// Asserts that a count's `document` gives `total` solutions, `unique` of them unique.
pub fn assert_counts(document: &serde_json::Value, total: u64, unique: u64) {
    assert_eq!(
        (document["total"].as_u64(), document["unique"].as_u64()),
        (Some(total), Some(unique)),
        "{document}"
    );
}

/// Runs `queens args…`, expecting exit 2 and `message` on stderr.
pub fn refuses(args: &[&str], message: &str) {
    queens()
        .args(args)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(message));
}

/// `queens`, run under an address-space limit of `kib` KiB (the shell's `ulimit -v`).
pub fn under_an_address_limit(kib: u32) -> Command {
    under_a_limit("-v", kib)
}

/// `queens`, run under the shell's `ulimit FLAG kib` (`-v`: address space, `-d`: data, which
/// since Linux 4.7 holds every private writable mapping).
pub fn under_a_limit(flag: &str, kib: u32) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit {flag} {kib}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_queens"));
    command
}

/// Runs `command` with no input: its exit code, stdout and stderr.
pub fn output(command: &mut Command) -> (Option<i32>, String, String) {
    let output = command.stdin(Stdio::null()).output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A fresh, empty scratch directory for one test, removed with everything in it when dropped,
/// so when the test ends, whether it passes or fails.
pub fn scratch(name: &str) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix(&format!("queens-{name}-"))
        .tempdir()
        .unwrap();
    Scratch(dir)
}

/// A test's scratch directory ([`scratch`]): a path while it lives, removed when dropped.
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.path().as_os_str()
    }
}

/// `queens serve` on a free port, killed when dropped.
pub struct Server {
    pub child: Child,
    pub address: String,
}

impl Server {
    pub fn start() -> Server {
        Server::spawn(Command::new(assert_cmd::cargo::cargo_bin("queens")))
    }

    /// A server allowed only `files` open files (the shell's `ulimit -n`).
    pub fn with_open_files(files: u32) -> Server {
        let mut command = Command::new("bash");
        command
            .arg("-c")
            .arg(format!("ulimit -n {files}; exec \"$0\" \"$@\""))
            .arg(assert_cmd::cargo::cargo_bin("queens"));
        Server::spawn(command)
    }

    fn spawn(command: Command) -> Server {
        Server::spawn_with_stderr(command, Stdio::null())
    }

    /// `command` (the `queens` binary, with its environment set) serving, its standard error
    /// going to `stderr`.
    pub fn spawn_with_stderr(mut command: Command, stderr: impl Into<Stdio>) -> Server {
        let mut child = command
            .args(["serve", "--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap()
            .to_owned();
        Server { child, address }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends a request to the server at `address` on a fresh connection (closed after the answer).
pub fn send(address: &str, method: &str, path: &str, body: &str) -> std::io::Result<TcpStream> {
    let mut stream = TcpStream::connect(address)?;
    stream.set_read_timeout(Some(Duration::from_secs(40)))?;
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    Ok(stream)
}

/// Runs `queens args…` with its standard output closed before it writes: it must end as a
/// normal run (exit 0). Returns its stderr.
pub fn run_into_a_closed_pipe(args: &[&str]) -> String {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("queens"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
    stderr
}

/// Runs `queens args…`, sends it `SIG{signal}` (`INT`, `TERM`, …) after `after`, and waits for
/// it: its output and how long it took to end after the signal.
pub fn stopped_by_signal(args: &[&str], signal: &str, after: Duration) -> (Output, Duration) {
    let started = Instant::now();
    stopped_by_signal_once(args, signal, || started.elapsed() >= after)
}

/// Runs `queens args…` and sends it `signal` as soon as `ready()` says so (asked every few
/// milliseconds, for a minute at most); returns its output and how long it took to end after
/// the signal.
pub fn stopped_by_signal_once(
    args: &[&str],
    signal: &str,
    ready: impl Fn() -> bool,
) -> (Output, Duration) {
    stopped_by_signal_once_with(&[], args, signal, ready)
}

/// [`stopped_by_signal_once`] with the variables `env` set.
pub fn stopped_by_signal_once_with(
    env: &[(&str, &str)],
    args: &[&str],
    signal: &str,
    ready: impl Fn() -> bool,
) -> (Output, Duration) {
    let child = Command::new(assert_cmd::cargo::cargo_bin("queens"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let waiting = Instant::now();
    while !ready() {
        assert!(
            waiting.elapsed() < Duration::from_secs(60),
            "queens {args:?} was never ready for its signal"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    let sent = Instant::now();
    let killed = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success(), "kill -{signal}");
    let output = child.wait_with_output().unwrap();
    (output, sent.elapsed())
}

/// Whether `queens devices` lists an adapter (lavapipe, where CI installs it): the GPU engine's
/// cases of the tests that sweep a limit run only then.
pub fn an_adapter_is_listed() -> bool {
    let (_, devices, _) = output(queens_command().arg("devices"));
    devices.starts_with("0:")
}

/// `queens`, as a plain command.
fn queens_command() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("queens"))
}

/// The user the thread-limit tests run `queens` as: one no process runs as, so that only the
/// process under test counts against its limit.
pub const NOBODYS_UID: &str = "64999";

/// A copy of `queens` in `dir` that [`NOBODYS_UID`] may run (the build's may sit where that
/// user cannot reach), and a command that runs it as that user allowed `threads` threads and
/// processes in all (`ulimit -u`), with two shared workers. `None` where this process cannot
/// run a command as another user (it needs root), after [`root_powers`] has said so.
pub fn as_a_user_allowed_threads(dir: &Path) -> Option<impl Fn(u32) -> Command> {
    use std::os::unix::fs::PermissionsExt;

    let binary = dir.join("queens");
    std::fs::copy(assert_cmd::cargo::cargo_bin("queens"), &binary).unwrap();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let allowed = move |threads: u32| {
        let mut command = Command::new("prlimit");
        command
            .arg(format!("--nproc={threads}"))
            .args(["setpriv", "--reuid", NOBODYS_UID, "--regid", NOBODYS_UID])
            .arg("--clear-groups")
            .arg(&binary)
            .env("RAYON_NUM_THREADS", "2");
        command
    };
    let (code, _, _) = output(allowed(64).arg("--version"));
    root_powers(
        code == Some(0),
        "setpriv cannot run a command as another user (needs root)",
    )
    .then_some(allowed)
}

/// Whether a test that needs root (a tmpfs mounted, a device node made, another user's file)
/// can run: when it cannot, it says `why` and is skipped, unless `QUEENS_REQUIRE_ROOT=1` (as CI
/// sets) makes that a failure.
pub fn root_powers(available: bool, why: &str) -> bool {
    if available {
        return true;
    }
    assert!(
        std::env::var("QUEENS_REQUIRE_ROOT").as_deref() != Ok("1"),
        "QUEENS_REQUIRE_ROOT=1 but {why}"
    );
    eprintln!("skipped: {why}");
    false
}
