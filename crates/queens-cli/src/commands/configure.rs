//! `queens configure`: the configurator's analysis of a position, as a diagram or JSON.

use std::io::{self, Write};

use anyhow::Context;
use queens_config::{AnalysisError, Configurator, Engine, Limits, Position};
use queens_core::notation::parse_squares;

use crate::args::ConfigureArgs;
use crate::commands::{interrupt_flag, parse_side};
use crate::exit::Exit;

/// Runs `queens configure`.
pub fn run(args: &ConfigureArgs) -> anyhow::Result<Exit> {
    let n = parse_side(&args.size)?;
    let queens = parse_squares(&args.queens).context("in --queens")?;
    let position = Position::new(n, queens)?;
    let engine: Engine = args.engine.parse()?;
    let defaults = Limits::default();
    let limits = Limits {
        nodes: args.max_nodes.unwrap_or(defaults.nodes),
        cancel: Some(interrupt_flag()),
        ..defaults
    };
    let analysis = match Configurator::new().analyse(&position, engine, &limits) {
        Ok(analysis) => analysis,
        Err(AnalysisError::Cancelled) => {
            eprintln!("stopped: interrupted before the analysis was complete");
            return Ok(Exit::NoAnswer);
        }
        Err(error) => return Err(error.into()),
    };
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut out, &analysis)?;
        writeln!(out)?;
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
