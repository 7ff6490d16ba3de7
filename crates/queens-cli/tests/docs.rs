//! The README and the guide in `docs/` say what a newcomer can rely on: every install line
//! keeps to the lock file, so that a fresh machine builds what CI tested.

use std::path::{Path, PathBuf};

/// The README and every page of the guide.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|ext| ext == "md") {
            pages.push(path);
        }
    }
    pages
}

/// `cargo install` without `--locked` re-resolves every dependency to its newest version; the
/// docs never ask for that.
#[test]
fn every_cargo_install_keeps_to_the_lock_file() {
    let mut found = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a readable page");
        for (number, line) in text.lines().enumerate() {
            if line.contains("cargo install") {
                found += 1;
                assert!(
                    line.contains("cargo install --locked"),
                    "{}:{}: {line}",
                    page.display(),
                    number + 1
                );
            }
        }
    }
    assert!(found >= 2, "the README and the guide say how to install");
}
