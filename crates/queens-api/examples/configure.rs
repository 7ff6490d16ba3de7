//! The configurator through the library: which squares of a position can still complete it,
//! which queens are forced, and why a square cannot take a queen.
//!
//! `cargo run --release -p queens-api --example configure -- d1 e7`

use queens_api::configure::{Configurator, ConfigureRequest, ConfigureSpec, Status};
use queens_core::CancelToken;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let names: Vec<String> = std::env::args().skip(1).collect();
    let names = if names.is_empty() {
        vec!["d1".to_owned()]
    } else {
        names
    };
    let n = 8;
    let queens = queens_core::notation::parse_squares(&names.join(","))?;
    let request = ConfigureRequest::new(&ConfigureSpec {
        queens,
        ..ConfigureSpec::new(n)
    })?;
    let budget = request.bounds().budget(CancelToken::new());
    let analysis = request.analyse(&Configurator::new(), &budget)?;
    print!("{}", analysis.render());
    println!(
        "solvable: {:?}; {} forced, {} open, {} dead",
        analysis.solvable,
        analysis.count(Status::Forced),
        analysis.count(Status::Open),
        analysis.count(Status::Dead)
    );
    Ok(())
}
