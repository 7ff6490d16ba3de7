//! The completions of the 400 blocked n-Queens instances of the ASP competitions (CSPLib problem
//! 080), counted by two engines that share no code: the completion search of `queens-exact`
//! (the one `queens count --instance` runs, on all cores) and the configurator's own search on
//! bit boards (one thread). Every count must agree, and be positive exactly where the published
//! answer (Lingeling's, in the paper's results) says the instance is satisfiable; the table goes
//! to standard output as Markdown.
//!
//! ```text
//! cargo run --release -p queens-configurator --example asp_counts -- /path/to/csplib > docs/asp-completions.md
//! ```
//!
//! `/path/to/csplib` is a checkout of github.com/csplib/csplib; the archives are unpacked with the
//! system's `tar` and `gzip`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use queens_configurator::{Position, count_completions};
use queens_core::Budget;
use queens_core::instance::Instance;
use queens_exact::completion;

struct Row {
    name: String,
    n: u32,
    blocked: usize,
    satisfiable: bool,
    completions: u128,
    search: Duration,
    configurator: Duration,
}

fn main() {
    let csplib = PathBuf::from(
        std::env::args()
            .nth(1)
            .expect("usage: asp_counts /path/to/csplib"),
    );
    let root = csplib.join("Problems/prob080");
    let published = gunzip(&root.join("results/run-aspbenchmarks-lingeling-python.txt.gz"));
    let work = std::env::temp_dir().join(format!("queens-asp-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a scratch directory");
    let status = Command::new("tar")
        .arg("xzf")
        .arg(root.join("data/asp-competition-instances.tar.gz"))
        .arg("-C")
        .arg(&work)
        .status()
        .expect("tar runs");
    assert!(status.success(), "the instances unpack");
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let mut rows = Vec::new();
    for line in published.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (n, id, status) = (fields[0], fields[2], fields[3]);
        let name = format!("blockedqueens.{n}.{id}.param");
        let text = std::fs::read_to_string(work.join("asp-competition-instances").join(&name))
            .expect("every published instance is in the archive");
        let instance = Instance::parse(&text).expect("a well-formed instance");
        let problem = instance.problem().expect("a valid problem");
        let started = Instant::now();
        let count = completion::count(
            &problem,
            completion::Method::Search,
            &Budget::unlimited(),
            threads,
            |_, _| {},
        )
        .expect("an N×N board up to 64");
        let search = started.elapsed();
        let position = Position::with_blocked(
            problem.rows(),
            problem.fixed().iter().copied(),
            problem.blocked().iter().copied(),
        )
        .expect("a valid position");
        let started = Instant::now();
        let second = count_completions(&position, &Budget::unlimited()).expect("no budget");
        let configurator = started.elapsed();
        let completions = count.counted.completions;
        assert_eq!(
            completions,
            u128::from(second),
            "{name}: the engines disagree"
        );
        let satisfiable = status == "SATISFIABLE";
        assert_eq!(
            completions > 0,
            satisfiable,
            "{name}: unlike the published answer"
        );
        eprintln!(
            "{name}: {completions} ({:.2} s, {:.2} s)",
            search.as_secs_f64(),
            configurator.as_secs_f64()
        );
        rows.push(Row {
            name,
            n: problem.rows(),
            blocked: problem.blocked().len(),
            satisfiable,
            completions,
            search,
            configurator,
        });
    }
    std::fs::remove_dir_all(&work).expect("the scratch directory goes");
    print_table(&rows, threads);
}

fn print_table(rows: &[Row], threads: usize) {
    let total = |f: fn(&Row) -> Duration| rows.iter().map(f).sum::<Duration>().as_secs_f64();
    let satisfiable = rows.iter().filter(|row| row.satisfiable).count();
    println!("# Completions of the ASP blocked n-Queens instances\n");
    println!(
        "The {} instances of CSPLib problem 080 (`asp-competition-instances.tar.gz`), counted by \
         two engines that share no code and agree on every one: the completion search \
         (`queens count --instance FILE`, {threads} threads) and the configurator's own search \
         (one thread). {satisfiable} are satisfiable, as Lingeling's published answers say; the \
         others have no completion. In all: {:.1} s and {:.1} s. Made by `cargo run --release -p \
         queens-configurator --example asp_counts -- CSPLIB`.\n",
        rows.len(),
        total(|row| row.search),
        total(|row| row.configurator)
    );
    println!(
        "| instance | N | blocked | published | completions | completion search s | configurator s |"
    );
    println!("|---|---:|---:|---|---:|---:|---:|");
    for row in rows {
        println!(
            "| {} | {} | {} | {} | {} | {:.3} | {:.3} |",
            row.name,
            row.n,
            row.blocked,
            if row.satisfiable { "SAT" } else { "UNSAT" },
            row.completions,
            row.search.as_secs_f64(),
            row.configurator.as_secs_f64()
        );
    }
}

fn gunzip(path: &Path) -> String {
    let output = Command::new("gzip")
        .arg("-dc")
        .arg(path)
        .output()
        .expect("gzip runs");
    assert!(output.status.success(), "gzip -dc {}", path.display());
    String::from_utf8(output.stdout).expect("text")
}
