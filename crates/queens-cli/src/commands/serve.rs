//! `queens serve`: the web page on an address, until Ctrl-C.

use std::io::Write;
use std::net::SocketAddr;

use anyhow::Context;
use queens_web::ServeLimits;

use crate::args::ServeArgs;
use crate::exit::Exit;

/// Runs `queens serve`.
pub fn run(args: &ServeArgs) -> anyhow::Result<Exit> {
    let addr: SocketAddr = args.addr.trim().parse().with_context(|| {
        format!(
            "--addr must be an IP address and port such as 127.0.0.1:7878, got '{}'",
            args.addr
        )
    })?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the server's runtime")?;
    runtime
        .block_on(queens_web::serve(addr, ServeLimits::default(), |bound| {
            println!("queens is serving http://{bound}/ (Ctrl-C stops it)");
            let _ = std::io::stdout().flush();
        }))
        .with_context(|| format!("cannot serve on {addr}"))?;
    Ok(Exit::Success)
}
