//! The README and the guide in `docs/` say what a newcomer can rely on: every install line
//! keeps to the lock file, so that a fresh machine builds what CI tested.

mod common;

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

/// The durations stated in `text` within a sentence after `at`: numbers followed by `s` or
/// `min` (`3.6 s`, `5 min`).
fn durations_after(text: &str, at: usize) -> Vec<String> {
    let window: String = text[at..].chars().take(90).collect();
    let end = [". ", ";", ":", ".\n"]
        .iter()
        .filter_map(|mark| window.find(mark))
        .min()
        .unwrap_or(window.len());
    let sentence = &window[..end];
    let words: Vec<&str> = sentence.split_whitespace().collect();
    words
        .windows(2)
        .filter(|pair| {
            pair[0].chars().all(|c| c.is_ascii_digit() || c == '.')
                && matches!(pair[1].trim_end_matches([',', ')']), "s" | "min")
        })
        .map(|pair| format!("{} {}", pair[0], pair[1].trim_end_matches([',', ')'])))
        .collect()
}

/// A figure measured once is stated once: where several pages speak of the same workload, they
/// give it the same time or cite the page that measured it. Each workload below was once
/// timed differently on two pages.
#[test]
fn a_measured_figure_is_the_same_wherever_it_is_stated() {
    for workload in ["35,000 runs", "the Queen's Challenge table"] {
        let mut stated = std::collections::BTreeMap::<String, Vec<String>>::new();
        for page in pages() {
            let text = std::fs::read_to_string(&page).expect("a readable page");
            for (at, _) in text.match_indices(workload) {
                for duration in durations_after(&text, at + workload.len()) {
                    stated
                        .entry(duration)
                        .or_default()
                        .push(page.file_name().unwrap().to_string_lossy().into_owned());
                }
            }
        }
        assert!(
            stated.len() <= 1,
            "{workload} is timed differently: {stated:?}"
        );
    }
}

#[test]
fn durations_are_found_in_a_sentence() {
    let text = "the comparison of 35,000 runs takes 8 s on the 2-core machine. Then 9 s.";
    assert_eq!(durations_after(text, 0), ["8 s"]);
    let text = "these 35,000 runs in 3.6 s on 2 cores";
    assert_eq!(durations_after(text, 0), ["3.6 s"]);
}

/// The container recipe builds what CI tests (the lock file kept, the build outputs left out
/// of its context) and serves the page on the port it publishes, reachable from the host.
#[test]
fn the_container_recipe_builds_locked_and_serves_where_it_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let recipe = std::fs::read_to_string(root.join("Dockerfile")).expect("a Dockerfile");
    let builds: Vec<&str> = recipe
        .lines()
        .filter(|l| l.contains("cargo build"))
        .collect();
    assert!(!builds.is_empty());
    for build in builds {
        assert!(build.contains("--locked"), "{build}");
    }
    let exposed = recipe
        .lines()
        .find_map(|line| line.strip_prefix("EXPOSE "))
        .expect("a published port")
        .trim();
    let served = recipe
        .lines()
        .find(|line| line.starts_with("CMD"))
        .expect("a default command");
    assert!(served.contains(&format!("0.0.0.0:{exposed}")), "{served}");
    let ignored = std::fs::read_to_string(root.join(".dockerignore")).expect("a .dockerignore");
    assert!(ignored.lines().any(|line| line.trim() == "target"));
    // The default command is one the binary takes.
    let args: Vec<String> = serde_json::from_str(served.trim_start_matches("CMD").trim()).unwrap();
    let output = common::queens().args(&args).arg("--help").output().unwrap();
    assert_eq!(output.status.code(), Some(0));
}

/// The changelog names what is not released yet and the version the crates carry.
#[test]
fn the_changelog_has_the_crates_version() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let changelog = std::fs::read_to_string(root.join("CHANGELOG.md")).expect("a changelog");
    assert!(changelog.contains("## [Unreleased]"));
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        changelog.contains(&format!("## [{version}]")),
        "no section for {version}"
    );
}
