//! The page in a real headless Chromium, driven through chromedriver: click queens onto an 8×8
//! board and read the statuses and a reason, watch a solver run to a finished board, and save
//! screenshots to `target/browser/`.
//!
//! Needs `chromium` and `chromium-driver` (Debian's packages; `.ci/run` installs them), hence
//! ignored by default: `cargo test --workspace --test browser -- --ignored`. `CHROMIUM` and
//! `CHROMEDRIVER` override the binaries' paths.

mod common;

use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;

/// chromedriver on a free port, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let binary = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let child = Command::new(&binary)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {binary}: {e}"));
        Driver { child, port }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn connect(driver: &Driver) -> Client {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chromium,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,860"],
        }),
    );
    let url = format!("http://127.0.0.1:{}", driver.port);
    for _ in 0..100 {
        let attempt = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities.clone())
            .connect(&url)
            .await;
        if let Ok(client) = attempt {
            return client;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("chromedriver did not accept a session at {url}");
}

async fn click(client: &Client, locator: Locator<'_>) {
    client.find(locator).await.unwrap().click().await.unwrap();
}

async fn text_of(client: &Client, id: &str) -> String {
    client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

async fn status_of(client: &Client, square: &str) -> String {
    let css = format!("#cfg-board [data-square='{square}']");
    let cell = client.find(Locator::Css(&css)).await.unwrap();
    cell.attr("data-status").await.unwrap().unwrap_or_default()
}

async fn wait_for(client: &Client, css: &str) {
    client
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css} never appeared: {e}"));
}

fn screenshot_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/browser");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver; .ci/run installs them and runs it"]
async fn a_browser_configures_a_position_and_watches_a_solver() {
    let addr = common::start_server().await;
    let driver = Driver::start();
    let client = connect(&driver).await;
    configure(&client, addr).await;
    watch(&client).await;
    client.close().await.unwrap();
    drop(driver);
}

/// Configure: queens on d1 and e7 of an 8×8 board; statuses, a reason, the URL.
async fn configure(client: &Client, addr: SocketAddr) {
    client
        .goto(&format!("http://{addr}/#configure?n=8"))
        .await
        .unwrap();
    wait_for(client, "body[data-ready='true']").await;
    for square in ["d1", "e7"] {
        let css = format!("#cfg-board [data-square='{square}']");
        click(client, Locator::Css(&css)).await;
        wait_for(client, &format!("{css}[data-status='queen']")).await;
    }
    wait_for(client, "#cfg-board [data-status='dead']").await;
    assert_eq!(status_of(client, "d2").await, "attacked");
    assert_eq!(status_of(client, "a2").await, "dead");
    assert_eq!(status_of(client, "a1").await, "attacked");
    assert_eq!(status_of(client, "a8").await, "open");
    let summary = client.find(Locator::Id("cfg-summary")).await.unwrap();
    assert!(summary.text().await.unwrap().contains("3 completions"));
    // Clicking a blocked square shows its reason and highlights the attacker.
    click(client, Locator::Css("#cfg-board [data-square='d5']")).await;
    let reason = client.find(Locator::Id("cfg-reason")).await.unwrap();
    let text = reason.text().await.unwrap();
    assert!(text.contains("attacked by the queen on d1"), "{text}");
    wait_for(client, "#cfg-board [data-square='d1'].hl-source").await;
    assert!(
        client
            .current_url()
            .await
            .unwrap()
            .as_str()
            .contains("q=d1,e7")
    );
    std::fs::write(
        screenshot_dir().join("configure.png"),
        client.screenshot().await.unwrap(),
    )
    .unwrap();
}

/// Runs the watch tab's solver to the end at `speed` (log10 of events a second, 6 for as fast
/// as they come) and checks the finished board: 8 queens, as sprites and on their cells, none
/// attacked.
async fn run_to_solved(client: &Client, solver: &str, speed: &str) {
    client
        .execute(
            "document.getElementById('w-solver').value = arguments[0];
             const speed = document.getElementById('w-speed');
             speed.value = arguments[1]; speed.dispatchEvent(new Event('input'));",
            vec![json!(solver), json!(speed)],
        )
        .await
        .unwrap();
    click(client, Locator::Id("w-start")).await;
    let mut status = String::new();
    for _ in 0..200 {
        status = text_of(client, "w-status").await;
        if status.starts_with("solved") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(status.starts_with("solved"), "{solver}: {status}");
    for css in ["#w-board .cell.piece", "#w-board .sprite"] {
        let found = client.find_all(Locator::Css(css)).await.unwrap();
        assert_eq!(found.len(), 8, "{solver}: {css}");
    }
    let clashes = client
        .find_all(Locator::Css("#w-board .clash"))
        .await
        .unwrap();
    assert!(clashes.is_empty(), "{solver}");
    assert_eq!(text_of(client, "w-pairs").await, "0");
}

/// Watch: backtracking on 8×8 with a queen locked on c1, then the electric force gliding its
/// queens, each to a solved board.
async fn watch(client: &Client) {
    click(client, Locator::Css("nav button[data-tab='watch']")).await;
    click(client, Locator::Css("#w-board [data-square='c1']")).await;
    run_to_solved(client, "backtracking", "3").await;
    let locked = client
        .find(Locator::Css("#w-board [data-square='c1']"))
        .await
        .unwrap();
    assert!(
        locked
            .attr("class")
            .await
            .unwrap()
            .unwrap()
            .contains("piece")
    );
    std::fs::write(
        screenshot_dir().join("watch.png"),
        client.screenshot().await.unwrap(),
    )
    .unwrap();
    click(client, Locator::Id("w-unlock")).await;
    run_to_solved(client, "electric-force", "6").await;
}
