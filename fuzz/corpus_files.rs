//! The files of a fuzzer's corpus, which the crates' tests read again as regression tests
//! (each includes this file with `#[path]`).

use std::path::Path;

/// Every input of `fuzz/corpus/<name>`; a corpus with none is a failure, not a pass.
pub fn corpus(name: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(name);
    let inputs: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| std::fs::read(entry.unwrap().path()).unwrap())
        .collect();
    assert!(!inputs.is_empty(), "{} is empty", dir.display());
    inputs
}
