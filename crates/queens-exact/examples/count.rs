//! Counts N×N solutions with the library: `cargo run --release -p queens-exact --example count -- 16 [threads]`.

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(12);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let started = std::time::Instant::now();
    let tally = pool
        .install(|| queens_exact::count::count(n))
        .expect("N within the kernel's range");
    println!(
        "N={n} total={} unique={} nodes={} {:.3}s",
        tally.total,
        tally.unique(),
        tally.nodes,
        started.elapsed().as_secs_f64()
    );
}
