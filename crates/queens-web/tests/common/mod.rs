//! What the socket tests share: a server on a free port.

use std::net::SocketAddr;

use queens_web::{ServeLimits, serve};

/// Serves the page on a free port of 127.0.0.1 for the rest of the test; its address.
pub async fn start_server() -> SocketAddr {
    let (bound, address) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let any_port: SocketAddr = "127.0.0.1:0".parse().unwrap();
        serve(any_port, ServeLimits::default(), |addr| {
            let _ = bound.send(addr);
        })
        .await
        .unwrap();
    });
    address.await.unwrap()
}
