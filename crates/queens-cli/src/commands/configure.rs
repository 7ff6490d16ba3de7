//! `queens configure`: the configurator's analysis of a position, as a diagram or JSON.

use std::io::{self, Write};

use queens_configurator::{AnalysisError, Configurator, Engine, Position};

use crate::args::ConfigureArgs;
use crate::commands::command_budget;
use crate::commands::position::square_side;
use crate::exit::Exit;

/// Runs `queens configure`.
pub fn run(args: &ConfigureArgs) -> anyhow::Result<Exit> {
    // The time limit counts from the start: reading and setting up the position are in it.
    let mut budget = command_budget(args.time_limit)?;
    let given = args.board.read(args.queens.as_deref(), "--queens")?;
    let n = square_side(&given, "the configurator works on")?;
    let position = Position::with_blocked(n, given.fixed, given.blocked)?;
    let engine: Engine = args.engine.parse()?;
    if let Some(nodes) = args.max_nodes {
        anyhow::ensure!(nodes > 0, "--max-nodes must be at least 1");
        budget = budget.with_max_nodes(nodes);
    }
    let analysis = match Configurator::new().analyse(&position, engine, &budget) {
        Ok(analysis) => analysis,
        Err(AnalysisError::Cancelled) => {
            eprintln!("stopped: interrupted before the analysis was complete");
            return Ok(Exit::NoAnswer);
        }
        Err(stopped @ AnalysisError::DiagramStopped { .. }) => {
            eprintln!("stopped: {stopped}");
            return Ok(Exit::NoAnswer);
        }
        Err(error) => return Err(error.into()),
    };
    let mut out = io::stdout().lock();
    if args.json {
        super::write_json_line(&mut out, &analysis)?;
    } else {
        out.write_all(analysis.render().as_bytes())?;
    }
    out.flush()?;
    Ok(if analysis.solvable == Some(true) {
        Exit::Success
    } else {
        Exit::NoAnswer
    })
}
