//! One module per subcommand, and the validation they share.

pub mod challenge;
pub mod completions;
pub mod configure;
pub mod count;
pub mod devices;
pub mod experiment;
pub mod listing;
pub mod merge;
pub mod plan;
pub mod position;
pub mod script;
pub mod serve;
pub mod shell;
pub mod slurm;
pub mod solve;
pub mod verify;

use std::path::Path;

use anyhow::{Context, bail};
use queens_core::ParamValue;
use queens_core::side::SideLimit;
use queens_core::{Budget, CancelToken};

/// Writes `document` as one line of JSON.
pub fn write_json_line(
    out: &mut impl std::io::Write,
    document: &impl serde::Serialize,
) -> anyhow::Result<()> {
    serde_json::to_writer(&mut *out, document)?;
    writeln!(out)?;
    Ok(())
}

/// Writes `document` to standard output as one line of JSON, flushed (the document of a run
/// that stopped, printed before the sentence that says so), as an [`Answer`](crate::output::Answer):
/// to standard error where standard output cannot take it.
pub fn print_json_line(document: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut out = crate::output::Answer::new();
    write_json_line(&mut out, document)?;
    out.deliver()?;
    Ok(())
}

/// The squares of a `--fix` or `--block` list (`flag`), none when it is absent.
pub fn squares_flag(list: Option<&str>, flag: &str) -> anyhow::Result<Vec<queens_core::Square>> {
    list.map(|list| {
        queens_core::notation::parse_squares(list).with_context(|| format!("in {flag}"))
    })
    .transpose()
    .map(Option::unwrap_or_default)
}

/// Reads a board size: `N` for N×N or `RxC`.
pub fn parse_size(text: &str) -> anyhow::Result<(u32, u32)> {
    Ok(queens_api::request::parse_size(text)?)
}

/// A board size, `N` or `RxC`, for a computation that takes `sides`, a larger side refused in
/// its words.
pub fn parse_size_for(text: &str, sides: SideLimit) -> anyhow::Result<(u32, u32)> {
    Ok(queens_api::request::parse_size_for(text, sides)?)
}

/// A board side: a whole number from 1 to 2³²−1.
pub fn parse_side(text: &str) -> anyhow::Result<u32> {
    Ok(queens_api::request::parse_side(text)?)
}

/// A board side for a computation that takes `sides`, a larger one refused in its words.
pub fn parse_side_for(text: &str, sides: SideLimit) -> anyhow::Result<u32> {
    Ok(queens_api::request::parse_side_for(text, sides)?)
}

/// A number of bytes, like `8G` or `512MiB` (`--memory`).
pub fn parse_bytes(text: &str) -> anyhow::Result<u64> {
    queens_api::request::parse_bytes(text, "--memory").map_err(anyhow::Error::msg)
}

/// A token cancelled by Ctrl-C, SIGTERM or SIGHUP, so that long runs stop cleanly and report
/// what they did. Every command's budget holds it.
pub fn interrupt_token() -> CancelToken {
    INTERRUPT
        .get_or_init(|| {
            let token = CancelToken::new();
            let handler_token = token.clone();
            // A second handler cannot be installed (an embedding program's own), nor one whose
            // thread has no room under the address-space limit; then Ctrl-C keeps its default
            // behaviour.
            let stack = queens_core::memory::DEFAULT_THREAD_STACK;
            if queens_core::memory::room_for_threads(stack) {
                let _ = ctrlc::set_handler(move || handler_token.cancel());
            }
            stop_at_the_cpu_time_limit(&token);
            token
        })
        .clone()
}

/// Raises `token` when the process reaches its soft CPU-time limit (`ulimit -St`, which batch
/// schedulers set to warn of the hard one): the work stops and keeps what it has, as on
/// Ctrl-C, where the limit's signal (`SIGXCPU`) would end the process and lose the work since
/// a count's last save. Where no thread starts to hear it, the signal keeps its default.
fn stop_at_the_cpu_time_limit(token: &CancelToken) {
    #[cfg(unix)]
    {
        /// The stack of the thread that waits for the signal.
        const LISTENER_STACK: usize = 64 << 10;
        let token = token.clone();
        // The signal is taken only once a thread hears it. The system sends it again every
        // second past the limit, so it is heard for as long as the process runs.
        let _ = queens_core::parallel::spawn(
            Some("queens-cpu-limit"),
            Some(LISTENER_STACK),
            move || {
                let over = [signal_hook::consts::SIGXCPU];
                if let Ok(mut signals) = signal_hook::iterator::Signals::new(over) {
                    for _ in signals.forever() {
                        token.cancel();
                    }
                }
            },
        );
    }
    #[cfg(not(unix))]
    let _ = token;
}

/// The process's Ctrl-C token, once a command asked for one: every caller shares it.
static INTERRUPT: std::sync::OnceLock<CancelToken> = std::sync::OnceLock::new();

/// The rule by which an output nobody reads gives up: once `budget`'s token is raised (Ctrl-C,
/// or its time limit, whose clock must have started).
pub fn stop_rule(budget: &Budget) -> queens_io::streams::StopRule {
    let token = budget.token().clone();
    std::sync::Arc::new(move || token.is_cancelled())
}

/// The budget of a long command: the interrupt token, and `--time-limit` when given, its clock
/// already running (a command's time limit counts from the command's start, whatever the
/// library it calls does with the budget).
pub fn command_budget(time_limit: Option<f64>) -> anyhow::Result<Budget> {
    let bounds = queens_api::bounds::Bounds {
        time_limit,
        ..Default::default()
    };
    Ok(bounds.check()?.budget(interrupt_token()))
}

/// Writes `bytes` to `path` so that readers see the old file or the whole new one (see
/// [`queens_io::files`]: links followed, directories refused, devices written directly).
///
/// A FIFO nobody opens is waited for until Ctrl-C, where the command took Ctrl-C over (without
/// that, Ctrl-C ends the process as usual). What the file does not take goes to standard error
/// ([`crate::output::keep_on_stderr`]): these are answers the command computed.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let stop: queens_io::streams::StopRule = match INTERRUPT.get() {
        Some(token) => {
            let token = token.clone();
            std::sync::Arc::new(move || token.is_cancelled())
        }
        None => queens_io::streams::never(),
    };
    let written = (|| -> anyhow::Result<()> {
        let mut file = queens_io::files::StagedFile::create_with(path, &stop)?;
        file.write_all(bytes)?;
        Ok(file.commit()?)
    })();
    if let Err(error) = &written {
        crate::output::keep_on_stderr(path, bytes, error);
    }
    written
}

/// A file a command writes: the flag that names it, what it holds, and its path.
pub struct Written<'a> {
    /// The flag (`-o`, `--trace`).
    pub flag: &'a str,
    /// What goes into it (`the answer`).
    pub holds: &'a str,
    /// Where.
    pub path: &'a Path,
}

/// Refuses, before any work, an output that would replace a file the command reads or another
/// of its outputs (the same file by any name or link): where `solve --instance i.json -o
/// i.json` replaced the instance with its answer, or `merge -o` one of the reports it merged.
/// `inputs` are each what the file is to the command (`the --instance file`) and its path. A
/// device or a pipe (`/dev/stdout`) is no file to replace.
pub fn refuse_overlapping_files(
    inputs: &[(&str, &Path)],
    outputs: &[Written<'_>],
) -> anyhow::Result<()> {
    use queens_io::identity::{FileIdentity, of_output};
    // A device or a pipe is written through, not replaced: two outputs may share a terminal.
    let replaced = |path: &Path| std::fs::metadata(path).map_or(true, |found| found.is_file());
    let outputs: Vec<(&Written<'_>, FileIdentity)> = outputs
        .iter()
        .filter(|out| replaced(out.path))
        .map(|out| (out, of_output(out.path)))
        .collect();
    for (k, (output, identity)) in outputs.iter().enumerate() {
        for &(what, input) in inputs {
            if FileIdentity::of(input) == *identity {
                let spelled = if input == output.path {
                    String::new()
                } else {
                    format!(" ({})", input.display())
                };
                anyhow::bail!(
                    "{} {} is {what}{spelled}: {} would replace it; name another file",
                    output.flag,
                    output.path.display(),
                    output.holds
                );
            }
        }
        if let Some((first, _)) = outputs[..k].iter().find(|(_, first)| first == identity) {
            anyhow::bail!(
                "{} {} and {} {} name one file: {} would replace {}; give each its own file",
                first.flag,
                first.path.display(),
                output.flag,
                output.path.display(),
                output.holds,
                first.holds
            );
        }
    }
    Ok(())
}

/// Refuses a directory a command would write into (`--out`, `--dir`) where a file stands in its
/// place, making nothing: what [`output_dir`] checks first, for a command that checks what it
/// was given before what the machine has.
pub fn refuse_file_in_place(flag: &str, dir: &std::path::Path) -> anyhow::Result<()> {
    if std::fs::metadata(dir).is_ok_and(|found| !found.is_dir()) {
        anyhow::bail!("{flag} {} is a file, not a directory", dir.display());
    }
    Ok(())
}

/// A directory a command writes into (`--out`, `--dir`), made before any work starts, so that
/// hours of runs never end in finding that their files have nowhere to go: created with its
/// parents where missing, refused in one sentence where a file stands in its place.
pub fn output_dir(flag: &str, dir: &std::path::Path) -> anyhow::Result<()> {
    refuse_file_in_place(flag, dir)?;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the {flag} directory {}", dir.display()))
}

/// `--set NAME=VALUE`: a parameter and its value, as typed (read once the solver is known to
/// take the name).
pub fn parse_setting(text: &str) -> anyhow::Result<(String, ParamValue)> {
    let (name, value) = split_setting(text, "NAME=VALUE")?;
    Ok((name.to_owned(), value.into()))
}

/// A `--set` text split at its first `=`: the name, trimmed and not empty, and the rest;
/// `form` is what a refusal says --set wants ("NAME=VALUE").
pub fn split_setting<'a>(text: &'a str, form: &str) -> anyhow::Result<(&'a str, &'a str)> {
    let refusal = || {
        format!(
            "--set wants {form}, got '{}'",
            queens_core::error::excerpt(text)
        )
    };
    let (name, value) = text.split_once('=').with_context(refusal)?;
    let name = name.trim();
    if name.is_empty() {
        bail!(refusal());
    }
    Ok((name, value))
}

/// A count's answer in words, as `count`, `slurm` and `merge` print it: "N = 8: 92 solutions,
/// 12 unique".
pub fn solutions_line(n: u32, total: u128, unique: u128) -> String {
    format!(
        "N = {n}: {}, {unique} unique",
        queens_core::words::counted(total, "solution", "solutions")
    )
}
