//! Counting all and unique solutions through the library, with a time limit, as
//! `queens count N --time-limit S` does.
//!
//! `cargo run --release -p queens-api --example count -- 14`

use queens_api::bounds::Bounds;
use queens_api::count::{CountRequest, CountSpec};
use queens_core::CancelToken;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: u32 = std::env::args().nth(1).as_deref().unwrap_or("12").parse()?;
    let request = CountRequest::new(&CountSpec {
        bounds: Bounds::default().with_time_limit(60.0),
        ..CountSpec::new(n)
    })?;
    let budget = request.bounds().budget(CancelToken::new());
    let result = request.job().run(&budget, |_finished, _parts| {})?;
    let tally = result.tally;
    if result.is_complete() {
        println!(
            "N = {n}: {} solutions, {} unique",
            tally.total,
            tally.unique()
        );
    } else {
        println!("N = {n}: stopped after {} so far", tally.total);
    }
    Ok(())
}
