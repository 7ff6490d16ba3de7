//! `queens configure`: the configurator's analysis of a position, as a diagram or JSON.

use std::io::Write;

use std::time::Instant;

use queens_api::bounds::Bounds;
use queens_api::configure::{AnalysisError, Configurator, ConfigureRequest, ConfigureSpec};

use crate::args::ConfigureArgs;
use crate::commands::interrupt_token;
use crate::commands::position::square_side;
use crate::exit::Exit;
use crate::output::stderr;

/// Runs `queens configure`.
pub fn run(args: &ConfigureArgs) -> anyhow::Result<Exit> {
    // The time limit counts from the start: reading and setting up the position are in it.
    let started = Instant::now();
    let given = args.board.read(
        args.queens.as_deref(),
        "--queens",
        queens_api::configure::SIDES,
    )?;
    let n = square_side(&given, "the configurator works on")?;
    let request = ConfigureRequest::new(&ConfigureSpec {
        n,
        queens: given.fixed,
        blocked: given.blocked,
        engine: Some(args.engine.clone()),
        bounds: Bounds {
            time_limit: args.time_limit,
            max_nodes: args.max_nodes,
            threads: None,
        },
    })?;
    let budget = request.bounds().budget_since(interrupt_token(), started);
    let analysis = match request.analyse(&Configurator::new(), &budget) {
        Ok(analysis) => analysis,
        Err(AnalysisError::Cancelled) => {
            stderr!("stopped: interrupted before the analysis was complete");
            return Ok(Exit::NoAnswer);
        }
        Err(stopped @ AnalysisError::DiagramStopped { .. }) => {
            stderr!("stopped: {stopped}");
            return Ok(Exit::NoAnswer);
        }
        Err(error) => return Err(error.into()),
    };
    let mut out = crate::output::Answer::new();
    if args.json {
        super::write_json_line(&mut out, &analysis)?;
    } else {
        out.write_all(analysis.render().as_bytes())?;
    }
    out.deliver()?;
    Ok(if analysis.solvable == Some(true) {
        Exit::Success
    } else {
        Exit::NoAnswer
    })
}
