//! The help texts that list solvers, written from the catalogue's descriptors so that they can
//! never disagree with what the solvers accept.

use std::fmt::Write as _;

use clap::{CommandFactory, FromArgMatches};
use queens_api::Catalogue;
use queens_api::limits::{DEFAULTS, LIMITS};
use queens_core::{Parameter, SolverDescriptor};

use crate::args::Cli;

/// The width this module wraps its indented lists to: within an 80-column terminal, so that
/// clap (which wraps everything else to the terminal, at most [`MAX_WIDTH`]) leaves them whole.
const WIDTH: usize = 78;

/// The widest help clap writes, however wide the terminal.
const MAX_WIDTH: usize = 100;

/// The whole command line, with the solver lists of `catalogue` in the help of `solve` and
/// `experiment`.
pub fn command(catalogue: &Catalogue) -> clap::Command {
    let mut command = Cli::command().max_term_width(MAX_WIDTH);
    // Off a terminal clap takes its width from COLUMNS, and 0 (no width known) as a terminal
    // no column wide: every word on a line of its own. It is the width of no terminal.
    if std::env::var("COLUMNS").is_ok_and(|columns| columns.trim() == "0") {
        command = command.term_width(MAX_WIDTH);
    }
    for (subcommand, arg, short, long) in defaults_help() {
        command = command.mut_subcommand(subcommand, |sub| {
            sub.mut_arg(arg, |a| a.help(short).long_help(long))
        });
    }
    command
        .mut_subcommand("solve", |solve| {
            solve
                .after_help(solve_short_help(catalogue))
                .after_long_help(solve_help(catalogue))
                .mut_arg("size", |size| size.long_help(SOLVE_SIZE))
        })
        .mut_subcommand("verify", |verify| verify.after_help(verify_after_help()))
        .mut_subcommand("count", |count| {
            count
                .after_help(count_short_after_help())
                .after_long_help(count_after_help())
                .mut_arg("size", |size| size.long_help(count_size()))
                .mut_arg("engine", |engine| engine.long_help(count_engine()))
                .mut_arg("max_estimate", |limit| {
                    limit
                        .help("Refuse a count whose estimate is longer [default: an hour]")
                        .long_help(count_max_estimate())
                })
        })
        .mut_subcommand("configure", |configure| {
            configure
                .after_help(configure_short_after_help())
                .after_long_help(configure_after_help())
                .mut_arg("size", |size| size.long_help(configure_size()))
        })
        .mut_subcommand("experiment", |experiment| {
            experiment
                .after_help(experiment_short_help(catalogue))
                .after_long_help(experiment_help(catalogue))
        })
}

/// An argument whose help states a default or a limit: subcommand, argument, short help and
/// long help.
type DefaultHelp = (&'static str, &'static str, String, String);

/// The arguments whose help states a default or a limit, each written from the table of
/// limits and defaults, so that no help holds a copy.
fn defaults_help() -> Vec<DefaultHelp> {
    let mut all = count_defaults_help().to_vec();
    all.extend([
        (
            "solve",
            "max_nodes",
            format!(
                "Node cap: boards or placements examined [default: {}]",
                DEFAULTS.solve_max_nodes
            ),
            format!(
                "Stop after this many nodes (boards or placements examined) [default: {}, none \
                 for the completion search, which runs until it decides the position]",
                DEFAULTS.solve_max_nodes
            ),
        ),
        (
            "experiment",
            "sizes",
            format!(
                "Board sides N, comma-separated [default: {}]",
                DEFAULTS.side
            ),
            format!(
                "Board sides N, comma-separated, e.g. 4,8,16 [default: {}]. (`--n 4,8,16` says \
                 the same.)",
                DEFAULTS.side
            ),
        ),
        (
            "verify",
            "all_conflicts",
            format!(
                "List every attacking pair [default: the first {}]",
                LIMITS.shown_conflicts
            ),
            format!(
                "List every attacking pair, however many [default: the first {}, and their \
                 count]",
                LIMITS.shown_conflicts
            ),
        ),
        (
            "configure",
            "max_nodes",
            format!(
                "Search nodes the analysis may spend [default: {}]",
                DEFAULTS.configure_max_nodes
            ),
            format!(
                "Search nodes the analysis may spend (squares it cannot decide are reported \
                 unknown) [default: {}]",
                DEFAULTS.configure_max_nodes
            ),
        ),
        (
            "serve",
            "max_connections",
            format!(
                "Connections open at once [default: {}]",
                queens_web::MAX_CONNECTIONS
            ),
            format!(
                "Connections open at once [default: {}, or fewer under a lower `ulimit -n`]",
                queens_web::MAX_CONNECTIONS
            ),
        ),
    ]);
    all
}

/// `count`'s arguments whose help states a default.
fn count_defaults_help() -> [DefaultHelp; 3] {
    [
        (
            "count",
            "array_size",
            format!(
                "The most tasks of a Slurm array [default: {}]",
                LIMITS.array_tasks
            ),
            format!(
                "The most tasks a Slurm array of --slurm or --plan has (the cluster's largest \
                 array size less one); more shards go to further arrays [default: {}]",
                LIMITS.array_tasks
            ),
        ),
        (
            "count",
            "rate",
            "With --plan: nodes a second of one device".to_owned(),
            format!(
                "With --plan: nodes a second of one device [default: {:e}, measured on an H100]",
                DEFAULTS.gpu_nodes_per_second
            ),
        ),
        (
            "count",
            "memory",
            format!(
                "The most memory the count may plan to use [default: {}]",
                size_text(DEFAULTS.count_memory_bytes)
            ),
            format!(
                "The most memory the count may plan to use, like 8G or 512M [default: {}]; a \
                 count that needs more is refused before it starts (auto then chooses \
                 backtracking)",
                size_text(DEFAULTS.count_memory_bytes)
            ),
        ),
    ]
}

/// A size in bytes as `--memory` takes it: `2G`, `512M`, or bytes.
fn size_text(bytes: u64) -> String {
    match bytes.trailing_zeros() {
        30.. => format!("{}G", bytes >> 30),
        20..=29 => format!("{}M", bytes >> 20),
        _ => bytes.to_string(),
    }
}

/// `configure -h`'s closing help: statuses, an example, exit codes.
fn configure_short_after_help() -> String {
    "Statuses: Q queen, F forced, . open, x attacked, # dead, ? unknown (see --help).\n\
     Example: queens configure 8 --queens d1,e7\n\
     Exit codes: 0 the position can be completed, 1 it cannot (or the budget could not tell), \
     2 bad input."
        .to_owned()
}

/// `configure --help`'s closing help: statuses, engines, an example, exit codes.
fn configure_after_help() -> String {
    format!(
        "Statuses: Q queen (yours), F forced (in every completion, placed for you), . open (in \
         some completion), x attacked (by a queen or a forced queen), # dead (not attacked, in \
         no completion), ? unknown (the node budget ran out first). Every attacked and dead \
         square has a reason.\n\n\
         Engines: bdd, the diagram of all solutions (N <= {}, exact counts, built once per \
         size); search, for any N up to {} (exact counts where enumerating is cheap); auto \
         picks the diagram up to N = {} and the search beyond.\n\n\
         Example: queens configure 8 --queens d1,e7\n\n\
         Exit codes: 0 the position can be completed, 1 it cannot (or the budget could not \
         tell), 2 bad input (a square off the board, two queens attacking each other).",
        LIMITS.diagram_max_n, LIMITS.configure_max_n, DEFAULTS.configure_auto_diagram_max_n
    )
}

/// `count -h`'s closing help: what is counted, where the rest is, exit codes.
fn count_short_after_help() -> String {
    format!(
        "Totals follow OEIS A000170, unique counts A002562; N goes up to {}.\n\
         Shards, Slurm campaigns and their plans, memory and checkpoints: see --help.\n\
         Exit codes: 0 counted, 1 stopped before the end (Ctrl-C, --time-limit), 2 bad input.",
        LIMITS.count_max_n
    )
}

/// `count --help`'s closing help: what is counted, shards, checkpoints, exit codes.
fn count_after_help() -> String {
    format!(
        "Totals follow OEIS A000170, unique counts A002562; N goes up to {}.\n\n\
         A count is split into subproblems that depend on N only. --shard I/M counts every M-th \
         of them, starting at I, and prints a JSON report; `queens merge` adds up a complete set \
         of reports.\n\n\
         --slurm --shards M --dir DIR submits the shards as a Slurm job array and a merge job \
         after them; --wait follows them and prints the result; submitting again resubmits \
         failed shards.\n\n\
         --checkpoint FILE saves finished subproblems every few seconds and on Ctrl-C; running \
         the same command again resumes from it.\n\n\
         Exit codes: 0 counted, 1 stopped before the end (Ctrl-C, --time-limit), 2 bad input.",
        LIMITS.count_max_n
    )
}

/// `count --engine`'s help: what auto picks.
fn count_engine() -> String {
    format!(
        "The counting engine [auto: a hardware GPU from N = {} if there is one, else the join \
         where it is faster and fits --memory, else backtracking]",
        DEFAULTS.gpu_from
    )
}

/// `count --max-estimate`'s help, with its default.
fn count_max_estimate() -> String {
    format!(
        "Refuse a count whose estimated time is longer than this many seconds [default: {}]",
        DEFAULTS.max_estimate_seconds
    )
}

/// `verify`'s closing help: the formats and exit codes.
fn verify_after_help() -> String {
    format!(
        "Formats are recognised by content: a text diagram (top rank first, Q and .), a \
         permutation (for each column the 0-based row of its queen), JSON ({{\"rows\", \"cols\", \
         \"queens\"}}, as `solve --format json` prints), or a comma-separated list of squares. A \
         permutation is read as a stream, of any length; the other formats up to {} MiB.\n\
         Exit codes: 0 a full peaceful solution, 1 conflicts or missing queens, 2 unreadable \
         input.",
        LIMITS.text_max_bytes >> 20
    )
}

/// `solve --help`'s SIZE: the sizes `solve` takes.
const SOLVE_SIZE: &str = "Board size: N for an N×N board, or RxC (rows × columns) for the \
    solvers that take one, e.g. 8 or 6x9; a side from 1 to 4294967295 (2³²−1), within the \
    memory the solver needs. None with --instance, whose file gives it.";

/// `count --help`'s SIZE: the sizes `count` takes.
fn count_size() -> String {
    format!(
        "Board size N (N×N): from 1 to {} for a whole count; with a position (--fix, --block, \
         --instance), whose completions are counted, up to {}. None with --instance, whose file \
         gives it.",
        LIMITS.count_max_n, LIMITS.completion_max_n
    )
}

/// `configure --help`'s SIZE: the sizes the configurator takes.
fn configure_size() -> String {
    format!(
        "Board size N (N×N), from 1 to {}. None with --instance, whose file gives it.",
        LIMITS.configure_max_n
    )
}

/// `queens solve -h`'s list: the solvers by name, the defaults, where the detail is.
fn solve_short_help(catalogue: &Catalogue) -> String {
    let mut text =
        String::from("Solvers (--solver NAME; --help describes each, with its parameters):\n");
    names(&mut text, catalogue);
    text.push_str(
        "Squares are algebraic (d1) or R1C1 (r1c4), comma-separated: --fix d1,e7.\n\
         Exit codes: 0 solved, 1 no solution or stopped (budget, Ctrl-C), 2 bad input.",
    );
    text
}

/// The default solver, square names and exit codes, closing both forms of `solve`'s help.
fn solve_footer() -> String {
    let mut text = format!(
        "Default solver: with --fix or --block on an N×N board up to N = {}, completion (it \
         proves when there is no solution); otherwise forward-checking up to N = 20, then \
         construct, or min-conflicts with --fix; brute-force when the queen count differs from \
         the row count.\n",
        LIMITS.completion_max_n
    );
    text.push_str(
        "Squares are algebraic (d1) or R1C1 (r1c4), comma-separated: --fix d1,e7.\n\
         Exit codes: 0 solved, 1 no solution or stopped (budget, Ctrl-C), 2 bad input.",
    );
    text
}

/// `queens experiment -h`'s list: the solvers by name and an example.
fn experiment_short_help(catalogue: &Catalogue) -> String {
    let mut text =
        String::from("Solvers (--solver NAME; --help describes each, with its parameters):\n");
    names(&mut text, catalogue);
    text.push_str(
        "Example: queens experiment 16 --solver hill-climbing-constant-shake --runs 200 \\\n    \
         --set p=0.06,0.1,0.14 --set q=1,2",
    );
    text
}

/// The catalogue's solver names, comma-separated and wrapped.
fn names(text: &mut String, catalogue: &Catalogue) {
    wrap(text, &catalogue.names().join(", "), 2);
}

/// Parses `args` (the program's name first) against [`command`].
pub fn parse<I, T>(catalogue: &Catalogue, args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let mut command = command(catalogue);
    let matches = command
        .try_get_matches_from_mut(args)
        .map_err(|error| with_abbreviation_suggested(error, &command))
        .map_err(|error| without_hidden_suggestions(error, &command))?;
    Cli::from_arg_matches(&matches).map_err(|error| error.format(&mut command))
}

/// An unknown subcommand that clap found nothing like, with the subcommand it abbreviates
/// suggested where there is exactly one: `cnt` for `count`, `cfg` for `configure` (its letters
/// in order). clap's own suggestions catch misspellings (`sovle`), not abbreviations.
fn with_abbreviation_suggested(mut error: clap::Error, command: &clap::Command) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::InvalidSubcommand
        || error.get(ContextKind::SuggestedSubcommand).is_some()
    {
        return error;
    }
    let Some(ContextValue::String(typed)) = error.get(ContextKind::InvalidSubcommand) else {
        return error;
    };
    let typed = typed.to_lowercase();
    let abbreviates = |name: &str| {
        let mut letters = name.chars();
        typed.len() >= 2 && typed.chars().all(|wanted| letters.any(|c| c == wanted))
    };
    let matching: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .filter(|name| abbreviates(name))
        .collect();
    if let [only] = &matching[..] {
        error.insert(
            ContextKind::SuggestedSubcommand,
            ContextValue::Strings(vec![only.clone()]),
        );
    }
    error
}

/// An unknown flag's error without clap's tip of a flag the help does not show: the hidden
/// spellings kept for earlier versions (`--n`) are near every short flag by clap's measure, so
/// `count 12 --unique` was told "a similar argument exists: '--n'".
fn without_hidden_suggestions(error: clap::Error, command: &clap::Command) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::UnknownArgument {
        return error;
    }
    let hidden = hidden_flags(command);
    let suggests_hidden = match error.get(ContextKind::SuggestedArg) {
        Some(ContextValue::String(flag)) => hidden.contains(flag),
        Some(ContextValue::Strings(flags)) => flags.iter().any(|flag| hidden.contains(flag)),
        _ => false,
    };
    if !suggests_hidden {
        return error;
    }
    let mut told = clap::Error::new(ErrorKind::UnknownArgument).with_cmd(command);
    for (kind, value) in error.context() {
        if kind != ContextKind::SuggestedArg {
            told.insert(kind, value.clone());
        }
    }
    told
}

/// Every hidden flag of `command` and its subcommands, as `--name`.
fn hidden_flags(command: &clap::Command) -> Vec<String> {
    let own = command
        .get_arguments()
        .filter(|arg| arg.is_hide_set())
        .filter_map(|arg| arg.get_long().map(|long| format!("--{long}")));
    let below = command.get_subcommands().flat_map(hidden_flags);
    own.chain(below).collect()
}

/// `queens solve --help`'s list: every solver, what it does, what it takes, its parameters.
pub fn solve_help(catalogue: &Catalogue) -> String {
    let mut text = String::from("Solvers (--solver NAME):\n");
    for solver in catalogue.solvers() {
        describe(&mut text, solver, true);
    }
    text.push('\n');
    text.push_str(&solve_footer());
    text
}

/// `queens experiment --help`'s text: how cells are formed, then the solvers with parameters.
pub fn experiment_help(catalogue: &Catalogue) -> String {
    let mut text = String::from(
        "Every combination of --solver, --n and --set values is a cell; each cell runs --runs \
         times, run i seeded from (--seed, i), on all cores. Ctrl-C or --time-limit stops it and \
         prints the rows of the runs that finished, marked partial (exit 1).\n\n\
         Solvers and their parameters (--set NAME=V1,V2,...):\n",
    );
    for solver in catalogue.solvers() {
        describe(&mut text, solver, false);
    }
    text.push_str(
        "\nExamples:\n  queens experiment 4,8,16,24,32 --runs 1000\n  \
         queens experiment 16 --solver hill-climbing-constant-shake --runs 200 \\\n      \
         --set p=0.06,0.1,0.14,0.18,0.22,0.26 --set q=1,2,3,4",
    );
    text
}

/// One solver's entry: name, summary, shape and cap, parameters.
fn describe(text: &mut String, solver: &SolverDescriptor, details: bool) {
    let _ = writeln!(text, "  {}", solver.name);
    wrap(text, solver.summary, 6);
    if details {
        let mut facts = solver.shapes.describe();
        if solver.unit != "—" {
            let _ = write!(facts, "; one step is {}", solver.unit);
        }
        if let Some(cap) = iteration_cap(solver) {
            let _ = write!(facts, "; {cap}");
        }
        wrap(text, &format!("({facts})"), 6);
    }
    for parameter in solver.parameters {
        wrap(text, &parameter_line(parameter), 6);
    }
}

fn parameter_line(parameter: &Parameter) -> String {
    format!(
        "--set {}={} ({}{}): {}",
        parameter.name,
        parameter.default,
        parameter.range(),
        if parameter.integer { ", whole" } else { "" },
        parameter.doc
    )
}

/// The default iteration cap in words: one number where it is the same for every size, else
/// its value on 8×8 and on a million queens (where the caps that grow with N have grown).
fn iteration_cap(solver: &SolverDescriptor) -> Option<String> {
    let square = |n| queens_core::Problem::square(n).expect("a square board");
    let small = (solver.default_max_iterations)(&square(8))?;
    let large = (solver.default_max_iterations)(&square(1_000_000));
    Some(match large {
        Some(large) if large != small => format!(
            "stops after {small} iterations on 8×8, {large} at N = 1000000, unless --max-iters"
        ),
        _ => format!("stops after {small} iterations unless --max-iters"),
    })
}

/// Appends `words` wrapped to [`WIDTH`], every line indented by `indent`.
fn wrap(text: &mut String, words: &str, indent: usize) {
    let mut line = String::new();
    for word in words.split_whitespace() {
        if !line.is_empty() && indent + line.len() + 1 + word.len() > WIDTH {
            let _ = writeln!(text, "{:indent$}{line}", "");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        let _ = writeln!(text, "{:indent$}{line}", "");
    }
}
