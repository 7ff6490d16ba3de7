//! `queens serve`: the web page on an address, until Ctrl-C.

use std::io::Write;
use std::net::SocketAddr;

use anyhow::Context;
use queens_web::{ClientKey, MAX_CONNECTIONS, ServeLimits};

use crate::args::ServeArgs;
use crate::exit::Exit;

/// Runs `queens serve`.
pub fn run(args: &ServeArgs) -> anyhow::Result<Exit> {
    let addr = address_of(args)?;
    for origin in &args.allowed_origins {
        let valid = origin.split_once("://").is_some_and(|(scheme, host)| {
            matches!(scheme, "http" | "https") && !host.is_empty() && !host.contains('/')
        });
        anyhow::ensure!(
            valid,
            "--allow-origin wants an origin such as https://queens.example.org or http://localhost:8000, got '{origin}'"
        );
    }
    let client_key: ClientKey = args
        .client_key
        .parse()
        .map_err(|message: String| anyhow::anyhow!(message))?;
    let defaults = ServeLimits::default();
    let connections = match args.max_connections {
        None => defaults.connections,
        Some(n) if (8..=MAX_CONNECTIONS * 64).contains(&n) => n,
        Some(n) => anyhow::bail!(
            "--max-connections must be at least 8 and at most {}, got {n}",
            MAX_CONNECTIONS * 64
        ),
    };
    let limits = ServeLimits {
        allowed_origins: args.allowed_origins.clone(),
        client_key,
        connections,
        ..defaults
    };
    let runtime = runtime()?;
    runtime
        .block_on(queens_web::serve(addr, limits, |bound| {
            // A server whose standard output cannot be written serves all the same.
            let mut out = crate::output::standard_output();
            let _ = writeln!(out, "{}", serving_line(bound));
            let _ = out.flush();
        }))
        .with_context(|| format!("cannot serve on {addr}"))?;
    Ok(Exit::Success)
}

/// The server's runtime: a worker thread a core, fewer where the address-space limit (`ulimit
/// -v`) or the limit on a user's threads (`ulimit -u`, a control group's `pids.max`) leaves
/// room for fewer (the runtime ends the process where it cannot start one), keeping room for a
/// job's thread and the deadlines' timer; a refusal where they leave room for none.
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    const JOB_THREADS: usize = 2;
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let stack = queens_web::JOB_STACK;
    let fit = queens_core::memory::threads_that_fit(stack as u128, cores);
    anyhow::ensure!(
        fit > 0,
        "could not start the server's threads: {} leaves no room for their stacks; raise it",
        queens_core::memory::address_space_limit_words()
    );
    // Two more than the workers: a job's thread and the thread that keeps the jobs' deadlines
    // (started with the first job). A server that has room for fewer serves the page with one
    // worker, and refuses jobs with 503 while no thread starts for them.
    let room = queens_core::parallel::threads_that_start(fit + JOB_THREADS);
    anyhow::ensure!(
        room > 0,
        "could not start the server's threads: {}; ask for fewer with RAYON_NUM_THREADS",
        queens_core::parallel::THREAD_LIMIT_REACHED
    );
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(fit.min(room.saturating_sub(JOB_THREADS)).max(1))
        .thread_stack_size(stack)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")
}

/// Where `serve` listens without --addr and --port.
const DEFAULT_ADDRESS: &str = "127.0.0.1:7878";

/// The address `serve` listens on: `--addr`, a host and port; or `--port` on the host that
/// `--addr` gives alone, or on 127.0.0.1.
fn address_of(args: &ServeArgs) -> anyhow::Result<SocketAddr> {
    let Some(port) = args.port else {
        return listen_address(args.addr.as_deref().unwrap_or(DEFAULT_ADDRESS));
    };
    let Some(host) = args.addr.as_deref().map(str::trim) else {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    };
    let has_port = host.parse::<SocketAddr>().is_ok()
        || host
            .rsplit_once(':')
            .is_some_and(|(name, port)| !name.contains(':') && port.parse::<u16>().is_ok());
    anyhow::ensure!(
        !has_port,
        "--addr '{}' has a port already: give the port once, in --addr or in --port",
        queens_core::error::excerpt(host)
    );
    // An IPv6 address alone (`::1`) is bracketed to take a port.
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    listen_address(&if bare.contains(':') {
        format!("[{bare}]:{port}")
    } else {
        format!("{host}:{port}")
    })
}

/// `--addr`: an IP address or a host name, and a port (`127.0.0.1:7878`, `localhost:7901`,
/// `[::1]:8000`). A name is looked up, and its first address taken, loopback first as
/// `localhost` resolves to both.
fn listen_address(text: &str) -> anyhow::Result<SocketAddr> {
    use std::net::ToSocketAddrs;
    let text = text.trim();
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let wanted = || {
        format!(
            "--addr must be a host and port such as 127.0.0.1:7878 or localhost:7878 (or a host, with --port), got '{}'",
            queens_core::error::excerpt(text)
        )
    };
    let (host, port) = text.rsplit_once(':').with_context(wanted)?;
    port.parse::<u16>().ok().with_context(wanted)?;
    let found: Vec<SocketAddr> = text
        .to_socket_addrs()
        .with_context(|| {
            format!(
                "--addr: cannot find the host '{}'",
                queens_core::error::excerpt(host)
            )
        })?
        .collect();
    found
        .iter()
        .find(|addr| addr.is_ipv4())
        .or(found.first())
        .copied()
        .with_context(|| {
            format!(
                "--addr: the host '{}' has no address",
                queens_core::error::excerpt(host)
            )
        })
}

/// What `serve` says once it listens: a URL a browser can open. An address that means "every
/// interface" (0.0.0.0, ::) is not one, so the line gives the loopback URL and says where it
/// listens.
fn serving_line(bound: std::net::SocketAddr) -> String {
    if bound.ip().is_unspecified() {
        let local = std::net::SocketAddr::new(
            if bound.is_ipv4() {
                std::net::Ipv4Addr::LOCALHOST.into()
            } else {
                std::net::Ipv6Addr::LOCALHOST.into()
            },
            bound.port(),
        );
        format!(
            "queens is serving http://{local}/ (listening on every interface, {bound}; Ctrl-C stops it)"
        )
    } else {
        format!("queens is serving http://{bound}/ (Ctrl-C stops it)")
    }
}

#[cfg(test)]
mod tests {
    use super::serving_line;

    #[test]
    fn the_line_gives_a_url_a_browser_can_open() {
        for (bound, url) in [
            ("127.0.0.1:7878", "http://127.0.0.1:7878/ "),
            ("0.0.0.0:7878", "http://127.0.0.1:7878/ "),
            ("[::]:8080", "http://[::1]:8080/ "),
            ("[::1]:8080", "http://[::1]:8080/ "),
            ("192.168.1.4:80", "http://192.168.1.4:80/ "),
        ] {
            let line = serving_line(bound.parse().unwrap());
            assert!(
                line.starts_with(&format!("queens is serving {url}")),
                "{line}"
            );
        }
        assert!(serving_line("0.0.0.0:1".parse().unwrap()).contains("every interface, 0.0.0.0:1"));
    }
}
