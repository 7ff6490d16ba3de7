//! Helpers shared by the command-line tests.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// `queens serve` on a free port, killed when dropped.
pub struct Server {
    pub child: Child,
    pub address: String,
}

impl Server {
    pub fn start() -> Server {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("queens"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap()
            .to_owned();
        Server { child, address }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
