//! Solving through the library, as the command line does: a checked request, its budget, one
//! run, and the answer checked by the independent validator.
//!
//! `cargo run --release -p queens-api --example solve -- 12 min-conflicts`

use queens_api::{Catalogue, SolveRequest, SolveSpec};
use queens_core::{CancelToken, NoObserver, Square};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: u32 = args.next().as_deref().unwrap_or("8").parse()?;
    let solver = args.next();
    let spec = SolveSpec {
        solver,
        // A queen every solution must hold: d1.
        fixed: vec![Square::new(0, 3)],
        ..SolveSpec::square(n)
    };
    let request = SolveRequest::new(Catalogue::standard(), spec)?;
    let mut budget = request.budget(CancelToken::new());
    let outcome = request.run(&mut budget, &mut NoObserver)?;
    match outcome.solution() {
        Some(board) => {
            // Every answer a solver gives has passed the validator before it is returned.
            println!("{} found on {n}×{n}:", request.solver.name());
            queens_core::notation::write_labelled_text(board, &mut std::io::stdout())?;
        }
        None => println!("no solution: {:?}", outcome.verdict),
    }
    Ok(())
}
