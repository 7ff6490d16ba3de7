//! The command examples of the README and of the guide in `docs/`: every `console` block runs
//! the `queens` it shows, from the repository's root as a reader would, and compares what it
//! prints, so neither can drift from the program. `[..]` in a block stands for what depends on
//! the machine (a time, a thread count), `...` for lines left out.

#[test]
fn the_readme_and_guide_examples_print_what_they_say() {
    // The only test of this binary: changing its directory disturbs no other.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::env::set_current_dir(&root).expect("the repository's root");
    trycmd::TestCases::new().case("README.md").case("docs/*.md");
}
