//! The server under load on loopback: 50 concurrent clients mixing long streams, experiments,
//! clients that never read and clients that leave, while the page and a small configure stay
//! quick, the server's memory stays small, and no job is left running afterwards.
//!
//! Also: 500 idle connections against a server with 256 open files, and sixteen clients building
//! diagrams at once. Ignored by default (about 25 s in all); `.ci/run` runs them:
//! `cargo test --workspace --test load -- --ignored --nocapture`.

use std::io::Read;
use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod common;

use common::{Server, send};

/// How long the clients run.
const LOAD: Duration = Duration::from_secs(15);

/// Concurrent clients of each kind.
const EACH: usize = 10;

impl Server {
    /// The server's peak resident memory so far, in bytes (Linux).
    fn peak_memory(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
    }
}

/// A whole request: its status and how long the answer took.
fn exchange(address: &str, method: &str, path: &str, body: &str) -> (u16, Duration) {
    let started = Instant::now();
    let mut answer = Vec::new();
    let status = send(address, method, path, body)
        .and_then(|mut stream| stream.read_to_end(&mut answer))
        .ok()
        .and_then(|_| {
            std::str::from_utf8(answer.get(9..12)?)
                .ok()?
                .parse::<u16>()
                .ok()
        })
        .unwrap_or(0);
    (status, started.elapsed())
}

/// Latencies of the quick requests, and counts of everything.
#[derive(Default)]
struct Tally {
    page: Vec<Duration>,
    configure: Vec<Duration>,
    requests: u64,
    refused: u64,
    failed: Vec<String>,
}

fn percentile(times: &mut [Duration], p: f64) -> Duration {
    times.sort();
    let index = ((times.len() as f64 * p).ceil() as usize).clamp(1, times.len()) - 1;
    times[index]
}

/// Counts a request's answer: 200, a refusal (429, 503), or a failure to report.
fn record(tally: &Mutex<Tally>, status: u16, what: &str) {
    let mut tally = tally.lock().unwrap();
    tally.requests += 1;
    match status {
        200 => {}
        429 | 503 => tally.refused += 1,
        other => tally.failed.push(format!("{what}: {other}")),
    }
}

/// The page and a small configure, timed, twenty times a second.
fn prober(address: &str, tally: &Mutex<Tally>, deadline: Instant, client: u64) {
    let mut round = 0;
    while Instant::now() < deadline {
        round += 1;
        let (status, took) = exchange(address, "GET", "/", "");
        record(tally, status, "GET /");
        tally.lock().unwrap().page.push(took);
        let body = format!(
            r#"{{"n": 8, "queens": [{{"row": 0, "col": {}}}]}}"#,
            (client + round) % 8
        );
        let (status, took) = exchange(address, "POST", "/api/configure", &body);
        record(tally, status, "configure");
        if status == 200 {
            tally.lock().unwrap().configure.push(took);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Long streams, each read slowly to its end.
fn slow_reader(address: &str, tally: &Mutex<Tally>, deadline: Instant) {
    while Instant::now() < deadline {
        let Ok(mut stream) = send(address, "GET", "/api/solve?n=10&solver=brute-force", "") else {
            continue;
        };
        let mut chunk = [0u8; 1024];
        let mut first = Vec::new();
        while let Ok(read) = stream.read(&mut chunk) {
            if first.len() < 12 {
                first.extend_from_slice(&chunk[..read]);
            }
            if read == 0 || Instant::now() > deadline {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let status = std::str::from_utf8(first.get(9..12).unwrap_or(b"000"))
            .unwrap_or("0")
            .parse()
            .unwrap_or(0);
        record(tally, status, "stream");
    }
}

/// Experiments, each waited for.
fn experimenter(address: &str, tally: &Mutex<Tally>, deadline: Instant) {
    let body =
        r#"{"solvers": ["hill-climbing", "simulated-annealing"], "sizes": [24], "runs": 200}"#;
    while Instant::now() < deadline {
        let (status, _) = exchange(address, "POST", "/api/experiment", body);
        record(tally, status, "experiment");
    }
}

/// A stream never read, held to the end of the load.
fn never_reader(address: &str, tally: &Mutex<Tally>, deadline: Instant) {
    if let Ok(stream) = send(address, "GET", "/api/solve?n=9&solver=brute-force", "") {
        std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
        drop(stream);
    }
    tally.lock().unwrap().requests += 1;
}

/// Streams and experiments left after their first bytes.
fn leaver(address: &str, tally: &Mutex<Tally>, deadline: Instant) {
    let mut round = 0u64;
    while Instant::now() < deadline {
        round += 1;
        let (path, body, method) = if round.is_multiple_of(2) {
            ("/api/solve?n=10&solver=backtracking", "", "GET")
        } else {
            (
                "/api/experiment",
                r#"{"solvers": ["optimized-hill-climbing"], "sizes": [32], "runs": 500}"#,
                "POST",
            )
        };
        if let Ok(mut stream) = send(address, method, path, body) {
            let mut chunk = [0u8; 100];
            let _ = stream.read(&mut chunk);
            drop(stream);
        }
        tally.lock().unwrap().requests += 1;
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Polls `/api/status` until no job runs, at most 40 s; the jobs still running.
fn jobs_after(address: &str) -> (u64, Duration) {
    let settled = Instant::now();
    loop {
        let mut stream = send(address, "GET", "/api/status", "").unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
        let status: serde_json::Value = serde_json::from_str(body).unwrap();
        let running = status["jobs_running"].as_u64().unwrap();
        if running == 0 || settled.elapsed() > Duration::from_secs(40) {
            return (running, settled.elapsed());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
#[ignore = "a 20-second load test: .ci/run runs it"]
fn fifty_clients_cannot_slow_the_page_or_leave_jobs_behind() {
    let server = Server::start();
    let tally = Arc::new(Mutex::new(Tally::default()));
    let deadline = Instant::now() + LOAD;
    let mut clients = Vec::new();
    for kind in 0..5 {
        for client in 0..EACH {
            let (address, tally) = (server.address.clone(), Arc::clone(&tally));
            clients.push(std::thread::spawn(move || match kind {
                0 => prober(&address, &tally, deadline, client as u64),
                1 => slow_reader(&address, &tally, deadline),
                2 => experimenter(&address, &tally, deadline),
                3 => never_reader(&address, &tally, deadline),
                _ => leaver(&address, &tally, deadline),
            }));
        }
    }
    for client in clients {
        client.join().unwrap();
    }
    let peak = server.peak_memory();
    let (running, settled) = jobs_after(&server.address);
    let mut tally = Arc::try_unwrap(tally).ok().unwrap().into_inner().unwrap();
    let (page_p50, page_p99) = (
        percentile(&mut tally.page, 0.5),
        percentile(&mut tally.page, 0.99),
    );
    let (configure_p50, configure_p99) = (
        percentile(&mut tally.configure, 0.5),
        percentile(&mut tally.configure, 0.99),
    );
    println!(
        "load: {} clients for {LOAD:?}: {} requests ({} refused with 429/503); GET / p50 {page_p50:?} p99 {page_p99:?} ({} requests); configure p50 {configure_p50:?} p99 {configure_p99:?} ({} answered); peak memory {:.1} MB; jobs settled to {running} in {settled:?}",
        5 * EACH,
        tally.requests,
        tally.refused,
        tally.page.len(),
        tally.configure.len(),
        peak.unwrap_or(0) as f64 / 1e6,
    );
    assert!(tally.failed.is_empty(), "failures: {:?}", tally.failed);
    assert!(
        page_p99 < Duration::from_millis(100),
        "GET / p99 {page_p99:?}"
    );
    assert!(
        configure_p99 < Duration::from_millis(100),
        "configure p99 {configure_p99:?}"
    );
    assert!(
        tally.configure.len() > 100,
        "configure answered {} times",
        tally.configure.len()
    );
    if let Some(peak) = peak {
        assert!(peak < 300 << 20, "peak memory {peak} bytes");
    }
    assert_eq!(running, 0, "jobs left running");
}

/// `GET /api/status` as JSON.
fn status(address: &str) -> serde_json::Value {
    let mut stream = send(address, "GET", "/api/status", "").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap_or_default()).unwrap()
}

#[test]
#[ignore = "a server test with 500 sockets: .ci/run runs it"]
fn five_hundred_idle_connections_cannot_lock_users_out() {
    // 256 open files: the server caps its connections at 192 and drops the oldest silent one
    // when a new connection comes.
    let server = Server::with_open_files(256);
    let idle: Vec<TcpStream> = (0..500)
        .filter_map(|_| TcpStream::connect(&server.address).ok())
        .collect();
    let mut times = Vec::new();
    for _ in 0..200 {
        let (code, took) = exchange(&server.address, "GET", "/", "");
        assert_eq!(code, 200, "GET / under {} idle connections", idle.len());
        times.push(took);
    }
    let (p50, p99) = (percentile(&mut times, 0.5), percentile(&mut times, 0.99));
    let now = status(&server.address);
    println!(
        "idle: {} idle connections under ulimit -n 256: GET / p50 {p50:?} p99 {p99:?}; {} of {} connections open",
        idle.len(),
        now["connections"],
        now["max_connections"]
    );
    assert!(p99 < Duration::from_millis(100), "GET / p99 {p99:?}");
    assert!(now["connections"].as_u64() <= now["max_connections"].as_u64());
    assert_eq!(now["max_connections"], 192);
}

#[test]
#[ignore = "a server test of sixteen concurrent diagram builds: .ci/run runs it"]
fn sixteen_concurrent_diagram_builds_stay_within_the_job_memory() {
    let server = Server::start();
    let answers: Vec<(u16, u16)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..16)
            .map(|_| {
                let address = server.address.clone();
                scope.spawn(move || {
                    let shared = exchange(
                        &address,
                        "POST",
                        "/api/configure",
                        r#"{"n": 12, "engine": "bdd"}"#,
                    );
                    let refused = exchange(
                        &address,
                        "POST",
                        "/api/configure",
                        r#"{"n": 13, "engine": "bdd"}"#,
                    );
                    (shared.0, refused.0)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().unwrap())
            .collect()
    });
    let peak = server.peak_memory().unwrap_or(0);
    println!(
        "diagrams: 16 clients building 12×12 and asking 13×13 at once: answers {answers:?}; peak memory {:.1} MB",
        peak as f64 / 1e6
    );
    // One shared 12×12 build answers every client (or a busy client is told to wait); the
    // 13×13 build, over the job memory, is refused, never started.
    for &(shared, refused) in &answers {
        assert!(
            shared == 200 || shared == 429 || shared == 503,
            "{answers:?}"
        );
        assert!((400..500).contains(&refused), "{answers:?}");
    }
    assert!(answers.iter().any(|&(shared, _)| shared == 200));
    assert!(peak < 400_000_000, "peak memory {peak} bytes");
}
