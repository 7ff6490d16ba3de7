//! The help texts that list solvers, written from the catalogue's descriptors so that they can
//! never disagree with what the solvers accept.

use std::fmt::Write as _;

use clap::{CommandFactory, FromArgMatches};
use queens_api::Catalogue;
use queens_core::{Parameter, SolverDescriptor};

use crate::args::Cli;

/// The width help text is wrapped to.
const WIDTH: usize = 96;

/// The whole command line, with the solver lists of `catalogue` in the help of `solve` and
/// `experiment`.
pub fn command(catalogue: &Catalogue) -> clap::Command {
    Cli::command()
        .mut_subcommand("solve", |solve| solve.after_help(solve_help(catalogue)))
        .mut_subcommand("experiment", |experiment| {
            experiment.after_help(experiment_help(catalogue))
        })
}

/// Parses the process's arguments against [`command`].
pub fn parse(catalogue: &Catalogue) -> Result<Cli, clap::Error> {
    let mut command = command(catalogue);
    let matches = command.try_get_matches_from_mut(std::env::args_os())?;
    Cli::from_arg_matches(&matches).map_err(|error| error.format(&mut command))
}

/// `queens solve --help`'s list: every solver, what it does, what it takes, its parameters.
pub fn solve_help(catalogue: &Catalogue) -> String {
    let mut text = String::from("Solvers (--solver NAME):\n");
    for solver in catalogue.solvers() {
        describe(&mut text, solver, true);
    }
    text.push_str(
        "\nDefault: forward-checking up to N = 20, then construct (min-conflicts with --fix); \
         brute-force when the queen count differs from the row count.\n\
         Squares are algebraic (d1) or R1C1 (r1c4), comma-separated: --fix d1,e7.\n\
         Exit codes: 0 solved, 1 no solution or stopped (budget, Ctrl-C), 2 bad input.",
    );
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
        if let Some(cap) = (solver.default_max_iterations)(&eight()) {
            let _ = write!(facts, "; {cap} iterations on 8×8 unless --max-iters");
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

/// The 8×8 board the help quotes default caps for.
fn eight() -> queens_core::Problem {
    queens_core::Problem::square(8).expect("8×8 is a board")
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
