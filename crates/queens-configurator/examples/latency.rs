//! Per-click latency of the configurator over simulated sessions: starting from an empty board,
//! analyse, place a queen on a random open square, and repeat until the board is full or stuck.
//!
//! ```text
//! cargo run --release -p queens-configurator --example latency -- [SESSIONS] [clicks=K]
//!     [N[:ENGINE]]...
//! ```
//! prints, per board size and engine, the number of clicks analysed, the median, 95th
//! percentile and maximum analysis time, how many analyses had exact counts and how many left
//! squares unknown, the share of all squares whose status was decided (not unknown), how the
//! dead squares were explained, and the median and largest documents a click sends: the whole
//! one (`queens configure --json`) and the compact one the page asks for. `clicks=K` ends each session after K clicks. The diagram's build time is printed
//! separately (it is built once per size).

use std::time::{Duration, Instant};

use queens_configurator::{Configurator, Engine, Position, Reason, Status};
use queens_core::Budget;
use queens_core::Square;
use queens_core::random::SeededRng;
use rand::{RngExt, SeedableRng};

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let sessions: u64 = args
        .next_if(|arg| !arg.contains(':'))
        .map_or(20, |arg| arg.parse().expect("SESSIONS is a number"));
    let most_clicks: usize = args
        .next_if(|arg| arg.starts_with("clicks="))
        .map_or(usize::MAX, |arg| {
            arg["clicks=".len()..].parse().expect("clicks=K")
        });
    let mut cases: Vec<(u32, Engine)> = args
        .map(|arg| {
            let (n, engine) = arg.split_once(':').unwrap_or((&arg, "auto"));
            (
                n.parse().expect("N is a number"),
                engine.parse().expect("an engine name"),
            )
        })
        .collect();
    if cases.is_empty() {
        cases = vec![
            (8, Engine::Auto),
            (12, Engine::Bdd),
            (12, Engine::Search),
            (32, Engine::Auto),
            (64, Engine::Auto),
            (100, Engine::Auto),
        ];
    }
    let configurator = Configurator::new();
    println!("{sessions} sessions per case; times per click (one analysis)");
    println!(
        "{:>5} {:>7} {:>7} {:>10} {:>10} {:>10} {:>7} {:>8} {:>9}",
        "n", "engine", "clicks", "median", "p95", "max", "exact", "unknown", "decided"
    );
    for (n, engine) in cases {
        if engine == Engine::Bdd {
            build_diagram(&configurator, n);
        }
        let mut times = Vec::new();
        let (mut exact, mut with_unknown) = (0, 0);
        let (mut decided, mut cells) = (0usize, 0usize);
        let mut reasons = [0usize; 6];
        let (mut whole_bytes, mut compact_bytes) = (Vec::new(), Vec::new());
        for session in 0..sessions {
            let mut rng = SeededRng::seed_from_u64(session ^ u64::from(n) << 32);
            let mut position = Position::empty(n).expect("a valid size");
            loop {
                let started = Instant::now();
                let analysis = configurator
                    .analyse(&position, engine, &Budget::unlimited())
                    .expect("not cancelled");
                times.push(started.elapsed());
                let (whole, compact) = document_sizes(&analysis);
                whole_bytes.push(whole);
                compact_bytes.push(compact);
                exact += usize::from(analysis.completions.is_some());
                with_unknown += usize::from(analysis.count(Status::Unknown) > 0);
                decided += analysis.cells.len() - analysis.count(Status::Unknown);
                cells += analysis.cells.len();
                for cell in analysis.cells.iter().filter(|c| c.status == Status::Dead) {
                    let kind = reason_kind(cell.reason.as_ref().map(|r| &r.reason));
                    reasons[kind] += 1;
                }
                let open: Vec<Square> = analysis
                    .cells
                    .iter()
                    .filter(|cell| cell.status == Status::Open)
                    .map(|cell| Square::new(cell.row, cell.col))
                    .collect();
                if open.is_empty() || position.queens().len() >= most_clicks {
                    break;
                }
                let pick = open[rng.random_range(0..open.len())];
                position.place(pick).expect("open squares are free");
            }
        }
        times.sort();
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        println!(
            "{n:>5} {:>7} {:>7} {:>10} {:>10} {:>10} {:>7} {:>8} {:>8.3}%",
            format!("{engine:?}").to_lowercase(),
            times.len(),
            ms(at(0.5)),
            ms(at(0.95)),
            ms(at(1.0)),
            exact,
            with_unknown,
            100.0 * decided as f64 / cells.max(1) as f64
        );
        let (whole, compact) = (sizes(&mut whole_bytes), sizes(&mut compact_bytes));
        println!("      documents: whole {whole}; compact {compact}");
        println!(
            "      dead squares explained by an emptied line {}, crowding {}, a case split {}, a \
             minimal set of queens {}, all queens (budget) {}, nothing {}",
            reasons[0], reasons[1], reasons[5], reasons[2], reasons[3], reasons[4]
        );
    }
}

/// Builds the diagram of N×N and says how long that took (once per size).
fn build_diagram(configurator: &Configurator, n: u32) {
    let started = Instant::now();
    let diagram = configurator.diagram(n).expect("a diagram for this size");
    println!(
        "      diagram for n = {n}: {} nodes, built in {:.1?}",
        diagram.node_count(),
        started.elapsed()
    );
}

/// The bytes of an analysis's whole document and of its compact one.
fn document_sizes(analysis: &queens_configurator::Analysis) -> (usize, usize) {
    let bytes = |document: Result<Vec<u8>, _>| document.expect("serializes").len();
    (
        bytes(serde_json::to_vec(analysis)),
        bytes(serde_json::to_vec(&analysis.compact(&[]))),
    )
}

/// The median and largest of documents' sizes in bytes.
fn sizes(bytes: &mut [usize]) -> String {
    bytes.sort_unstable();
    let kb = |size: usize| size as f64 / 1e3;
    format!(
        "median {:.1} KB, largest {:.1} KB",
        kb(bytes[bytes.len() / 2]),
        kb(bytes[bytes.len() - 1])
    )
}

fn ms(duration: Duration) -> String {
    format!("{:.3} ms", duration.as_secs_f64() * 1e3)
}

/// The column of the reasons' tally a dead square's reason counts in.
fn reason_kind(reason: Option<&Reason>) -> usize {
    match reason {
        Some(
            Reason::EmptiesLine { .. } | Reason::ForcedChain { .. } | Reason::NoFreeSquare { .. },
        ) => 0,
        Some(Reason::Crowded { .. }) => 1,
        Some(Reason::Conflict { minimal: true, .. } | Reason::Unsolvable { minimal: true, .. }) => {
            2
        }
        Some(Reason::Conflict { .. } | Reason::Unsolvable { .. }) => 3,
        Some(Reason::Attacked { .. }) | None => 4,
        Some(Reason::CaseSplit { .. }) => 5,
    }
}
