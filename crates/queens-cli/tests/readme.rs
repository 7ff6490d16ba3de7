//! The README's command examples: every `console` block runs the `queens` it shows and
//! compares what it prints, so the README cannot drift from the program. `[..]` in a block
//! stands for what depends on the machine (a time, a thread count), `...` for lines left out.

#[test]
fn the_readme_examples_print_what_the_readme_says() {
    trycmd::TestCases::new().case("../../README.md");
}
