//! `queens completions SHELL` and `queens man [COMMAND]`: the shells' completion scripts and the
//! manual pages, written from the same command definition as `--help`, so that they list every
//! command, flag and value the parser takes.

use std::io::Write;

use anyhow::Context;
use queens_api::Catalogue;

use crate::args::{CompletionsArgs, ManArgs};
use crate::exit::Exit;
use crate::help;

/// Prints the completion script of `args.shell` to standard output.
pub fn completions(args: &CompletionsArgs) -> anyhow::Result<Exit> {
    let mut command = help::command(Catalogue::standard());
    // Written whole, then printed: the generator panics on a write error (a closed pipe).
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "queens", &mut script);
    print(&script)
}

/// Prints the manual page of queens, or of `args.command` (`queens-count(1)`), as roff.
pub fn man(args: &ManArgs) -> anyhow::Result<Exit> {
    let mut command = help::command(Catalogue::standard());
    // Built, each command knows its page's name (queens-count) and its version.
    command.build();
    let page = match &args.command {
        None => command,
        Some(name) => {
            let sub = command.find_subcommand(name).cloned();
            sub.with_context(|| {
                let mut names: Vec<&str> = command
                    .get_subcommands()
                    .map(clap::Command::get_name)
                    .filter(|&name| name != "help")
                    .collect();
                names.sort_unstable();
                format!(
                    "no command '{}': the manual has pages for {}",
                    queens_core::error::excerpt(name),
                    names.join(", ")
                )
            })?
        }
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page).render(&mut roff)?;
    print(&roff)
}

/// Writes `bytes` to standard output.
fn print(bytes: &[u8]) -> anyhow::Result<Exit> {
    let mut out = crate::output::standard_output();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(Exit::Success)
}
