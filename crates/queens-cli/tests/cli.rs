//! The `queens` command's contracts: output formats, JSON fields, exit codes, notation, traces,
//! and a one-line error with exit 2 for every kind of bad input.

use predicates::prelude::*;
use serde_json::Value;

mod common;

use common::{assert_exit, json, queens, refuses, run, scratch};

/// The commands that do work (`completions`, `man` and `help` print text about them).
const COMMANDS: [&str; 9] = [
    "solve",
    "verify",
    "count",
    "merge",
    "experiment",
    "configure",
    "serve",
    "challenge",
    "devices",
];

/// Asserts that `printed` is the shared document `file` (`elapsed_ms`, a measurement, left out).
fn assert_shared_document(printed: &str, file: &str) {
    let documents =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../queens-api/tests/documents");
    let mut printed: Value = serde_json::from_str(printed).unwrap();
    // A measurement, and where a shard was counted (this machine's name), are the run's own.
    printed.as_object_mut().unwrap().remove("elapsed_ms");
    printed.as_object_mut().unwrap().remove("counted_on");
    let shared = std::fs::read_to_string(documents.join(file)).unwrap();
    assert_eq!(
        printed,
        serde_json::from_str::<Value>(&shared).unwrap(),
        "{file}"
    );
}

/// The validator's document is one for every front end: the command line prints the documents
/// that Python's `verify(...).to_dict()` is checked against too.
#[test]
fn verify_prints_the_shared_documents() {
    for (input, args, file) in [
        (
            "d1,e7,a1\n",
            &["--size", "8", "--json"][..],
            "verify-three-queens.json",
        ),
        ("QQQQ\n", &["--json"][..], "verify-one-rank.json"),
    ] {
        assert_shared_document(&verify(input, args, 1), file);
    }
}

/// The documents every front end prints alike: the command line's, checked here against
/// the shared files, are the ones Python's `to_dict()` and the server are checked against too
/// (`elapsed_ms`, a measurement, left out).
#[test]
fn solve_count_and_configure_print_the_shared_documents() {
    for (args, file) in [
        (
            &["solve", "8", "--solver", "backtracking", "--format", "json"][..],
            "solve-8-backtracking.json",
        ),
        (
            &[
                "count",
                "8",
                "--engine",
                "backtracking",
                "--threads",
                "1",
                "--json",
            ],
            "count-8.json",
        ),
        (
            &["count", "8", "--shard", "0/2", "--threads", "1", "--json"],
            "count-8-shard-0-of-2.json",
        ),
        (
            &["count", "8", "--fix", "b4", "--threads", "1", "--json"],
            "completions-8-b4.json",
        ),
        (
            &["configure", "5", "--queens", "b1", "--json"],
            "configure-5-b1.json",
        ),
    ] {
        assert_shared_document(&run(args, 0), file);
    }
}

/// `--block` keeps every queen off the squares it names, or says why it cannot.
#[test]
fn blocked_squares_are_kept_free() {
    let doc = json(
        &[
            "solve",
            "8",
            "--block",
            "a1,b1,c1,d1,e1,f1,g1",
            "--format",
            "json",
        ],
        0,
    );
    let queens = doc["queens"].as_array().unwrap();
    assert!(
        queens.contains(&serde_json::json!({"row": 0, "col": 7})),
        "{doc}"
    );
    assert_eq!(doc["blocked"].as_array().unwrap().len(), 7);
    // A whole rank blocked: no solution, proven.
    run(&["solve", "8", "--block", "a1,b1,c1,d1,e1,f1,g1,h1"], 1);
    refuses(
        &["solve", "8", "--block", "d1", "--fix", "d1"],
        "stands on a blocked square",
    );
    refuses(
        &["solve", "8", "--solver", "genetic", "--block", "a1"],
        "blocked squares",
    );
    refuses(&["solve", "8", "--block", "z9"], "z9 is off the 8×8 board");
    refuses(&["solve", "8", "--block", "a1,,b2"], "in --block");
}

/// `--instance` reads CSPLib's formats: the published answers decide, and a bad file names its
/// line.
#[test]
fn instances_are_read_from_their_files() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/completion");
    let instance = data.join("diag-10-4-66.param");
    let path = instance.to_str().unwrap();
    // Published: satisfiable with its first 4 diagonals, not with its first 5.
    let doc = json(
        &[
            "solve",
            "--instance",
            path,
            "--diagonals",
            "4",
            "--format",
            "json",
        ],
        0,
    );
    assert_eq!(doc["n"], 10);
    assert!(!doc["blocked"].as_array().unwrap().is_empty());
    run(&["solve", "--instance", path, "--diagonals", "5"], 1);
    refuses(
        &["solve", "--instance", path, "--diagonals", "99"],
        "fewer than the 99 asked for",
    );
    refuses(&["solve", "8", "--instance", path], "cannot be used with");
    refuses(&["solve", "8", "--diagonals", "3"], "none is given");
    let dir = scratch("instance");
    let bad = dir.join("bad.param");
    std::fs::write(&bad, "n = 8\ndiags = [[1, 1],\n [2, 3]]\n").unwrap();
    refuses(
        &["solve", "--instance", bad.to_str().unwrap()],
        "bad.param: line 3: a diagonal is [number, 1]",
    );
}

/// `count` of a position counts its completions: Nauck's b4 and d5 complete in two ways, an
/// instance as many ways as the oracle-checked search finds, whole-count flags refused.
#[test]
fn completions_of_a_position_are_counted() {
    let doc = json(&["count", "8", "--fix", "b4,d5", "--json"], 0);
    assert_eq!(
        (doc["completions"].as_u64(), doc["engine"].as_str()),
        (Some(2), Some("completion"))
    );
    let text = run(&["count", "8", "--block", "a1,b1,c1,d1,e1,f1,g1"], 0);
    // The 92 solutions of 8×8 with their rank-1 queen on h1.
    assert!(
        text.starts_with("N = 8, 0 placed, 7 blocked: 4 completions"),
        "{text}"
    );
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/completion");
    let instance = data.join("diag-10-4-66.param");
    let path = instance.to_str().unwrap();
    // Published unsatisfiable with its first 5 diagonals: no completion.
    let doc = json(
        &["count", "--instance", path, "--diagonals", "5", "--json"],
        0,
    );
    assert_eq!(doc["completions"].as_u64(), Some(0));
    // Every whole-count flag is refused with a position, none dropped.
    for (flags, named) in [
        (&["--checkpoint", "c.json"][..], "--checkpoint"),
        (&["--checkpoint-every", "9"][..], "--checkpoint-every"),
        (&["--on-save-failure", "stop"][..], "--on-save-failure"),
        (&["--device", "0"][..], "--device"),
        (&["--max-estimate", "5"][..], "--max-estimate"),
        (&["--memory", "1G"][..], "--memory"),
        (&["--plan"][..], "--plan"),
        (&["--shard", "1/2"][..], "--shard"),
    ] {
        for position in [&["--fix", "d1"][..], &["--block", "a1"][..]] {
            let mut command = vec!["count", "8"];
            command.extend_from_slice(position);
            command.extend_from_slice(flags);
            refuses(&command, &format!("{named} is for whole counts"));
        }
    }
    refuses(&["count", "1025", "--block", "a1"], "up to 1024×1024");
    // A checkpoint's options without a checkpoint are refused, not dropped; with one, taken.
    for flags in [
        &["--checkpoint-every", "9"][..],
        &["--on-save-failure", "stop"][..],
    ] {
        let mut command = vec!["count", "8"];
        command.extend_from_slice(flags);
        refuses(&command, &format!("{} goes with a checkpoint", flags[0]));
    }
    let dir = scratch("checkpoint-options");
    let checkpoint = dir.join("c.json");
    let checkpoint = checkpoint.to_str().unwrap();
    let doc = json(
        &[
            "count",
            "8",
            "--json",
            "--checkpoint",
            checkpoint,
            "--checkpoint-every",
            "9",
            "--on-save-failure",
            "stop",
        ],
        0,
    );
    assert_eq!(doc["total"].as_u64(), Some(92));
    // The front door's sentences, as Python gives them: a whole-board engine is refused.
    for engine in ["join", "gpu"] {
        refuses(
            &["count", "8", "--fix", "b4", "--engine", engine],
            &format!("the {engine} engine counts whole boards"),
        );
    }
    refuses(&["count", "8", "--diagonals", "2"], "none is given");
}

/// An experiment takes its sizes as every command takes a size, in front; `--n`, as earlier
/// versions took them, says the same, and both at once are refused.
#[test]
fn experiment_sizes_are_given_like_every_size() {
    let rows = |args: &[&str]| -> Vec<Value> {
        let doc = json(args, 0);
        let mut rows = doc["rows"].as_array().unwrap().clone();
        for row in &mut rows {
            row["median_ms"] = Value::Null;
        }
        rows
    };
    let common = ["--solver", "hill-climbing", "--runs", "20", "--json"];
    let positional = rows(&[&["experiment", "4,6"][..], &common].concat());
    assert_eq!(positional.len(), 2);
    assert_eq!(positional[1]["n"], 6);
    assert_eq!(
        positional,
        rows(&[&["experiment", "--n", "4,6"][..], &common].concat())
    );
    refuses(&["experiment", "4", "--n", "6"], "cannot be used with");
    // `--solvers` says `--solver`, as in `challenge`.
    assert_eq!(
        positional,
        rows(&[
            "experiment",
            "4,6",
            "--solvers",
            "hill-climbing",
            "--runs",
            "20",
            "--json"
        ])
    );
}

/// Every command that takes a board size as its argument takes it as `--n` too, as
/// `experiment` takes its sizes (a user who learnt one tries it on the others), and refuses
/// both at once.
#[test]
fn every_size_argument_is_taken_as_n_too() {
    let answer = |args: &[&str]| {
        let doc = json(args, 0);
        // Times and thread counts aside.
        let mut text = doc.to_string();
        for field in ["elapsed_ms", "threads", "counted_on", "rate"] {
            if let Some(value) = doc.get(field) {
                text = text.replace(&format!("\"{field}\":{value}"), "");
            }
        }
        text
    };
    for (command, extra) in [
        ("solve", &["--json"][..]),
        ("count", &["--json"]),
        ("configure", &["--json"]),
        ("challenge", &["--json", "--solvers", "backtracking"]),
    ] {
        let positional = answer(&[&[command, "6"][..], extra].concat());
        let flagged = answer(&[&[command, "--n", "6"][..], extra].concat());
        assert_eq!(positional, flagged, "{command}");
        assert!(positional.contains('6'), "{command}: {positional}");
        refuses(&[command, "6", "--n", "6"], "cannot be used with");
    }
    refuses(
        &["solve", "--n", "6", "--instance", "i.json"],
        "cannot be used with",
    );
    refuses(&["solve", "--n", "0"], "at least 1");
    // `-j` and `--jobs` say `--threads`, as make and cargo name it.
    for threads in ["-j", "--jobs", "--threads"] {
        let counted = run(&["count", "10", threads, "1"], 0);
        assert!(counted.contains("on 1 thread ("), "{threads}: {counted}");
    }
}

/// Feeds `input` to `queens verify`, expecting `code`; returns stdout.
fn verify(input: &str, extra: &[&str], code: i32) -> String {
    let output = queens()
        .arg("verify")
        .args(extra)
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(code),
        "{input:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn solve_prints_a_diagram_that_verifies() {
    // Labelled: each rank's number before it, the file letters under it.
    let diagram = run(&["solve", "8"], 0);
    let lines: Vec<&str> = diagram.lines().collect();
    assert_eq!(lines.len(), 9, "{diagram}");
    for (line, rank) in lines.iter().zip((1..=8).rev()) {
        let (number, squares) = line.split_once("  ").unwrap();
        assert_eq!(number, rank.to_string(), "{diagram}");
        assert_eq!(squares.split(' ').count(), 8, "{diagram}");
        assert_eq!(squares.matches('Q').count(), 1, "{diagram}");
    }
    assert_eq!(lines[8], "   a b c d e f g h");
    assert!(verify(&diagram, &[], 0).contains("a valid solution"));
    // Without labels, for scripts: eight ranks of squares alone, which verify reads too.
    let plain = run(&["solve", "8", "--no-labels"], 0);
    assert_eq!(plain.lines().count(), 8);
    assert!(
        plain
            .lines()
            .all(|l| l.split(' ').count() == 8 && l.matches('Q').count() == 1)
    );
    assert!(verify(&plain, &[], 0).contains("a valid solution"));
    // Labels belong to text boards alone.
    refuses(
        &["solve", "8", "--no-labels", "--format", "perm"],
        "--no-labels is for text boards, and this answer is --format perm",
    );
}

/// Whether the permutation `line` (`solve --format perm`: a queen's row for each column,
/// from 0) places N queens of which no two attack each other.
fn peaceful(line: &str) -> bool {
    let rows: Vec<i64> = line.split(' ').map(|row| row.parse().unwrap()).collect();
    let n = rows.len() as i64;
    rows.iter().enumerate().all(|(col, &row)| {
        (0..n).contains(&row)
            && rows
                .iter()
                .enumerate()
                .skip(col + 1)
                .all(|(other, &r)| r != row && (r - row).abs() != (other - col) as i64)
    })
}

/// `solve --all` lists every solution, each a solution, none twice, as many as `count` counts,
/// with queens fixed too, by every exhaustive solver.
#[test]
fn solve_all_lists_every_solution() {
    let output = queens()
        .args(["solve", "8", "--all", "--format", "perm"])
        .output()
        .unwrap();
    assert_exit(&output, 0, "solve 8 --all");
    let listed = String::from_utf8(output.stdout).unwrap();
    let lines: std::collections::BTreeSet<&str> = listed.lines().collect();
    assert_eq!((listed.lines().count(), lines.len()), (92, 92));
    assert!(lines.iter().all(|line| peaceful(line)), "{listed}");
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "92 solutions in all, every one found; each is listed\n"
    );
    // With a fixed queen, as many as the count of its completions, by every exhaustive solver
    // (brute force, a hundred times slower, at N = 6).
    for (n, fix, solver) in [
        ("6", "b1", "brute-force"),
        ("8", "d1", "row-brute-force"),
        ("8", "d1", "backtracking"),
        ("8", "d1", "forward-checking"),
    ] {
        let total = json(&["count", n, "--fix", fix, "--json"], 0)["completions"].as_u64();
        let args = [
            "solve", n, "--all", "--fix", fix, "-s", solver, "--format", "perm",
        ];
        let listed = run(&args, 0);
        assert_eq!(Some(listed.lines().count() as u64), total, "{solver}");
        // The fixed queen on rank 1, in its column.
        let col = if fix == "b1" { 1 } else { 3 };
        assert!(
            listed
                .lines()
                .all(|line| peaceful(line) && line.split(' ').nth(col) == Some("0")),
            "{solver}: {listed}"
        );
    }
}

/// A perm line's eight turns and mirrors on its square board, as perm lines (the row of each
/// column).
fn turns_and_mirrors(line: &str) -> Vec<Vec<usize>> {
    type Map = fn(usize, usize, usize) -> (usize, usize);
    let rows: Vec<usize> = line.split(' ').map(|r| r.parse().unwrap()).collect();
    let n = rows.len();
    let maps: [Map; 8] = [
        |r, c, _| (r, c),
        |r, c, n| (c, n - 1 - r),
        |r, c, n| (n - 1 - r, n - 1 - c),
        |r, c, n| (n - 1 - c, r),
        |r, c, n| (r, n - 1 - c),
        |r, c, n| (n - 1 - r, c),
        |r, c, _| (c, r),
        |r, c, n| (n - 1 - c, n - 1 - r),
    ];
    maps.iter()
        .map(|map| {
            let mut image = vec![0; n];
            for (c, &r) in rows.iter().enumerate() {
                let (r, c) = map(r, c, n);
                image[c] = r;
            }
            image
        })
        .collect()
}

/// `solve --all --unique` lists each solution once up to turning and mirroring: as many as
/// OEIS A002562 counts, none a turn or mirror of another, every solution of `--all` a turn or
/// mirror of one listed; by every exhaustive solver the same ones; with squares blocked, by the
/// turns and mirrors that keep them.
#[test]
fn solve_all_unique_lists_each_kind_once() {
    const UNIQUE: [usize; 11] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341];
    for n in 1..=11 {
        let size = n.to_string();
        let code = i32::from(UNIQUE[n - 1] == 0);
        let listed = run(
            &["solve", &size, "--all", "--unique", "--format", "perm"],
            code,
        );
        let listed: Vec<&str> = listed.lines().collect();
        assert_eq!(listed.len(), UNIQUE[n - 1], "N = {n}");
        let every = run(&["solve", &size, "--all", "--format", "perm"], code);
        let kinds: Vec<Vec<Vec<usize>>> =
            listed.iter().map(|line| turns_and_mirrors(line)).collect();
        for (i, kind) in kinds.iter().enumerate() {
            assert!(peaceful(listed[i]), "N = {n}: {}", listed[i]);
            // No other listed solution is a turn or mirror of this one.
            assert!(
                kinds
                    .iter()
                    .enumerate()
                    .all(|(j, other)| i == j || !kind.contains(&other[0])),
                "N = {n}: {} twice",
                listed[i]
            );
        }
        for line in every.lines() {
            let own: Vec<usize> = line.split(' ').map(|r| r.parse().unwrap()).collect();
            assert!(
                kinds.iter().any(|kind| kind.contains(&own)),
                "N = {n}: {line} of no kind"
            );
        }
    }
    let output = queens()
        .args(["solve", "8", "--all", "--unique", "--format", "perm"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "92 solutions in all, every one found; the 12 unique up to turning and mirroring the \
         board are listed, the least of each kind\n"
    );
    // Every exhaustive solver lists the same ones, the first of each kind it finds.
    let forward = run(&["solve", "8", "--all", "--unique", "--format", "perm"], 0);
    for solver in ["row-brute-force", "backtracking"] {
        let args = [
            "solve", "8", "--all", "--unique", "-s", solver, "--format", "perm",
        ];
        assert_eq!(run(&args, 0), forward, "{solver}");
    }
    // Squares blocked on a1 and h1 keep the left-to-right mirror alone: the 84 solutions are
    // 42 kinds of two, none a mirror of itself (Burnside: (84 + 0) / 2).
    let args = [
        "solve", "8", "--all", "--unique", "--block", "a1,h1", "--format", "perm",
    ];
    let output = queens().args(args).output().unwrap();
    assert_exit(&output, 0, "--block a1,h1");
    assert_eq!(
        String::from_utf8(output.stdout).unwrap().lines().count(),
        42
    );
    let said = String::from_utf8(output.stderr).unwrap();
    assert!(said.contains("the 42 unique up to the turns and mirrors that keep the problem (mirroring left to right)"), "{said}");
    // Only with --all, and over every solution.
    for args in [
        &["solve", "8", "--unique"][..],
        &["solve", "8", "--all", "--unique", "--set", "solutions=3"],
    ] {
        let output = queens().args(args).output().unwrap();
        assert_exit(&output, 2, &format!("{args:?}"));
        let said = String::from_utf8(output.stderr).unwrap();
        assert!(
            said.starts_with("error: ")
                && (said.contains("--all") || said.contains("no --set solutions")),
            "{said}"
        );
    }
}

/// `solve --all` in text (boards apart by a blank line) and JSON (a line each, then the run's
/// document), on boards where a row may hold no queen; with `solutions=K` it lists the first
/// K, a stop keeps those found, and a solver that finds one is refused.
#[test]
fn solve_all_lists_in_every_format_and_keeps_what_a_stop_found() {
    let boards = run(&["solve", "6", "--all", "--no-labels"], 0);
    assert_eq!(boards.split("\n\n").count(), 4, "{boards}");
    let lines = run(&["solve", "6", "--all", "--json"], 0);
    let lines: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    for (i, line) in lines[..4].iter().enumerate() {
        assert_eq!(line["solution"], i + 1);
        assert_eq!(line["queens"].as_array().unwrap().len(), 6);
    }
    assert_eq!(
        (lines[4]["solutions"].as_u64(), lines[4]["solved"].as_bool()),
        (Some(4), Some(true))
    );
    // A board with rows left empty (-m) is listed by brute force.
    let placed = run(&["solve", "3x4", "-m", "2", "--all", "--json"], 0);
    assert!(
        placed
            .lines()
            .last()
            .unwrap()
            .contains(r#""solver":"brute-force""#),
        "{placed}"
    );
    // A board without a solution says so once.
    let output = queens().args(["solve", "2", "--all"]).output().unwrap();
    assert_exit(&output, 1, "solve 2 --all");
    assert_eq!(String::from_utf8(output.stderr).unwrap(), "no solution\n");
    // The first K, and a stop that keeps what was found, in its file too.
    assert_eq!(
        run(
            &[
                "solve",
                "8",
                "--all",
                "--set",
                "solutions=3",
                "--format",
                "perm"
            ],
            0
        )
        .lines()
        .count(),
        3
    );
    let dir = scratch("all");
    let file = dir.join("some.txt");
    let output = queens()
        .args([
            "solve",
            "8",
            "--all",
            "--max-nodes",
            "300",
            "--format",
            "perm",
            "-o",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert_exit(&output, 1, "a listing stopped by its node cap");
    let kept = std::fs::read_to_string(&file).unwrap();
    assert!(
        kept.lines().count() >= 1 && kept.lines().all(peaceful),
        "{kept}"
    );
    assert!(
        String::from_utf8(output.stderr)
            .unwrap()
            .ends_with(&format!(
                "{} solutions found before the search stopped, each listed\n",
                kept.lines().count()
            )),
    );
    refuses(
        &["solve", "8", "--all", "--solver", "min-conflicts"],
        "min-conflicts finds one solution; every solution is listed by an exhaustive search (brute-force, row-brute-force, backtracking, forward-checking)",
    );
}

#[test]
fn every_solver_solves_with_a_locked_queen() {
    // Brute force needs 344 million boards for d1 on 8×8; 6×6 with b1 keeps this test quick.
    for (solver, n, locked, col) in [
        ("brute-force", "6", "b1", 1),
        ("row-brute-force", "8", "d1", 3),
        ("backtracking", "8", "d1", 3),
        ("forward-checking", "8", "d1", 3),
    ] {
        let doc = json(
            &[
                "solve", n, "--solver", solver, "--fix", locked, "--format", "json",
            ],
            0,
        );
        assert_eq!(doc["solver"], solver);
        assert_eq!(doc["solved"], true);
        let queens = doc["queens"].as_array().unwrap();
        assert_eq!(queens.len().to_string(), n);
        assert!(
            queens.contains(&serde_json::json!({"row": 0, "col": col})),
            "{solver}"
        );
        let text = serde_json::to_string(&doc).unwrap();
        verify(&text, &[], 0);
    }
}

#[test]
fn solve_json_has_the_contract_fields_in_order() {
    let text = run(&["solve", "6", "--format", "json"], 0);
    let doc: Value = serde_json::from_str(&text).unwrap();
    let contract = [
        "n",
        "rows",
        "cols",
        "solver",
        "seed",
        "solved",
        "queens",
        "iterations",
        "nodes",
        "elapsed_ms",
    ];
    let positions: Vec<usize> = contract
        .iter()
        .map(|k| text.find(&format!("\"{k}\":")).unwrap())
        .collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "fields out of order: {text}"
    );
    assert_eq!(doc["n"], 6);
    assert_eq!(
        (doc["rows"].as_u64(), doc["cols"].as_u64()),
        (Some(6), Some(6))
    );
    assert_eq!(doc["seed"], Value::Null);
    assert_eq!(
        doc["iterations"],
        Value::Null,
        "exhaustive solvers count nodes, not iterations"
    );
    assert!(doc["nodes"].as_u64().unwrap() > 0);
    assert!(doc["elapsed_ms"].as_f64().unwrap() >= 0.0);
    for queen in doc["queens"].as_array().unwrap() {
        assert!(queen["row"].as_u64().unwrap() < 6 && queen["col"].as_u64().unwrap() < 6);
    }
}

#[test]
fn perm_format_is_one_line_per_column() {
    let perm = run(&["solve", "10", "--format", "perm"], 0);
    assert_eq!(perm.lines().count(), 1);
    let rows: Vec<u32> = perm
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(rows.len(), 10);
    verify(&perm, &[], 0);
}

#[test]
fn summary_is_one_line_without_a_board() {
    let line = run(&["solve", "8", "--format", "summary"], 0);
    assert_eq!(line.lines().count(), 1);
    for field in [
        "n=8",
        "solver=forward-checking",
        "solved=true",
        "nodes=",
        "iterations=-",
        "elapsed_ms=",
    ] {
        assert!(line.contains(field), "{field} missing from {line}");
    }
}

#[test]
fn rectangular_boards_and_queen_counts() {
    let doc = json(&["solve", "5x7", "--format", "json"], 0);
    assert_eq!(
        (doc["n"].clone(), doc["rows"].as_u64(), doc["cols"].as_u64()),
        (Value::Null, Some(5), Some(7))
    );
    assert_eq!(doc["queens"].as_array().unwrap().len(), 5);
    let doc = json(&["solve", "6", "-m", "3", "--format", "json"], 0);
    assert_eq!(
        doc["solver"], "brute-force",
        "row-by-row solvers need a queen in every row"
    );
    assert_eq!(doc["queens"].as_array().unwrap().len(), 3);
}

#[test]
fn squares_accept_both_notations_in_any_case() {
    let algebraic = json(&["solve", "8", "--fix", "D1,e7", "--format", "json"], 0);
    let r1c1 = json(&["solve", "8", "--fix", "r1c4,R7C5", "--format", "json"], 0);
    assert_eq!(algebraic["queens"], r1c1["queens"]);
    assert_eq!(
        algebraic["fixed"],
        serde_json::json!([{"row": 0, "col": 3}, {"row": 6, "col": 4}])
    );
}

#[test]
fn no_solution_exits_one() {
    for args in [
        &["solve", "2"][..],
        &["solve", "3"],
        &["solve", "4", "--fix", "a1"],
    ] {
        queens()
            .args(args)
            .assert()
            .code(1)
            .stdout("")
            .stderr("no solution\n");
    }
    let doc = json(&["solve", "3", "--format", "json"], 1);
    assert_eq!(
        (
            doc["solved"].clone(),
            doc["queens"].clone(),
            doc["status"].clone()
        ),
        (Value::Bool(false), Value::Null, "unsolvable".into())
    );
}

#[test]
fn brute_force_stops_honestly_at_its_budget() {
    queens()
        .args([
            "solve",
            "8",
            "--solver",
            "brute-force",
            "--max-nodes",
            "5000",
        ])
        .assert()
        .code(1)
        .stderr("stopped: budget exhausted (5000 nodes); raise --max-nodes to search further\n");
    let doc = json(
        &[
            "solve",
            "8",
            "--solver",
            "brute-force",
            "--max-nodes",
            "5000",
            "--format",
            "json",
        ],
        1,
    );
    assert_eq!(doc["status"], "stopped");
    assert_eq!(doc["nodes"], 5000);
}

#[test]
fn a_time_limit_stops_a_long_run() {
    let doc = json(
        &[
            "solve",
            "9",
            "--solver",
            "brute-force",
            "--max-nodes",
            "100000000000",
            "--time-limit",
            "0.2",
            "--format",
            "json",
        ],
        1,
    );
    assert_eq!(doc["status"], "stopped");
    assert!(
        doc["stop_reason"]
            .as_str()
            .unwrap()
            .starts_with("time limit")
    );
}

#[test]
fn a_run_stopped_while_placing_says_how_far_it_got() {
    let output = queens()
        .args([
            "solve",
            "30000000",
            "--solver",
            "min-conflicts",
            "--format",
            "summary",
            "--time-limit",
            "0.3",
            "--progress",
            "never",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stdout).contains("status=stopped"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("stopped while placing queens: at least ")
            && stderr.contains(" of 30,000,000 done"),
        "{stderr}"
    );
}

#[test]
fn trace_writes_one_json_event_per_line() {
    let dir = scratch("trace");
    let path = dir.join("trace.jsonl");
    run(
        &[
            "solve",
            "6",
            "--solver",
            "backtracking",
            "--trace",
            path.to_str().unwrap(),
        ],
        0,
    );
    let lines: Vec<Value> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.first().unwrap()["type"], "started");
    assert_eq!(lines.last().unwrap()["type"], "finished");
    assert_eq!(lines[lines.len() - 2]["type"], "solution");
    let places = lines.iter().filter(|e| e["type"] == "place").count();
    let removes = lines.iter().filter(|e| e["type"] == "remove").count();
    assert_eq!(
        places - removes,
        6,
        "the queens left standing are the solution"
    );
}

/// Every directory a command writes into is made, or refused, before the work: an experiment
/// whose `--out` is a file runs nothing (its table never prints), and neither does a shard or a
/// cluster count whose `--dir` is one.
#[test]
fn an_output_directory_is_refused_before_the_work_when_a_file_holds_its_place() {
    let dir = scratch("output-dir");
    let file = dir.join("taken");
    std::fs::write(&file, "a file").unwrap();
    let taken = file.to_str().unwrap();
    let under = file.join("below");
    let cases: [(&[&str], String); 4] = [
        (
            &["experiment", "8", "--runs", "1000", "--out", taken],
            format!("--out {taken} is a file, not a directory"),
        ),
        (
            &["count", "12", "--shard", "0/2", "--dir", taken],
            format!("--dir {taken} is a file, not a directory"),
        ),
        (
            &["count", "12", "--slurm", "--shards", "2", "--dir", taken],
            format!("--dir {taken} is a file, not a directory"),
        ),
        (
            &["experiment", "8", "--out", under.to_str().unwrap()],
            "cannot create the --out directory".to_owned(),
        ),
    ];
    for (args, message) in cases {
        let output = queens().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(&message), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?} worked before refusing");
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "a file");
}

/// Every kind of line is named in a sentence with its article, in `verify`'s list and in the
/// refusal of fixed queens that attack each other: "along a row", "along an anti-diagonal".
#[test]
fn attacking_lines_are_named_with_their_article() {
    let dir = scratch("verify-lines");
    // (queens as a list of squares, the phrase expected)
    let cases = [
        ("a1,c1", "along a row"),
        ("a1,a3", "along a column"),
        ("a1,c3", "along a diagonal"),
        ("a3,c1", "along an anti-diagonal"),
    ];
    for (queens, phrase) in cases {
        let path = dir.join("pair.txt");
        std::fs::write(&path, queens).unwrap();
        let out = run(&["verify", "--size", "4", path.to_str().unwrap()], 1);
        assert!(out.contains(phrase), "verify {queens}: {out}");
        refuses(
            &["solve", "4", "--fix", queens],
            &format!("attack each other {phrase}"),
        );
    }
}

/// `text` written to the file `name` in `dir`: its path, as an argument.
fn written(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

/// Every JSON file the command line reads (a shard report, a checkpoint, a JSON problem) is
/// refused, when it has the wrong shape, in JSON's words and naming the field, as the server
/// refuses a request body: never the Rust types it is read into.
#[test]
fn json_files_of_the_wrong_shape_are_refused_in_jsons_words() {
    let dir = scratch("json-shapes");
    let file = |name: &str, text: &str| written(&dir, name, text);
    let cases = [
        (
            vec!["merge".to_owned(), file("a.json", r#"{"n": "x"}"#)],
            "n: invalid type: string \"x\", expected a whole number from 0 to 4294967295",
        ),
        (
            vec!["merge".to_owned(), file("b.json", "[1, 2]")],
            "the report: invalid type: array, expected an object",
        ),
        (
            vec![
                "count".to_owned(),
                "8".to_owned(),
                "--checkpoint".to_owned(),
                file("c.json", "[]"),
            ],
            "the file: invalid type: array, expected an object",
        ),
        (
            vec![
                "solve".to_owned(),
                "--instance".to_owned(),
                file("i.json", r#"{"n": 8, "fixed": [{"row": 1.5, "col": 0}]}"#),
            ],
            "fixed[0].row: invalid type: number `1.5`, expected a whole number from 0 to",
        ),
    ];
    for (args, says) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = queens().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        for word in ["struct", "u32", "u64", "sequence", "floating point"] {
            assert!(!stderr.contains(word), "{args:?}: {stderr}");
        }
    }
}

/// A count of one takes the noun in the singular, in refusals as in reports.
#[test]
fn a_count_of_one_has_its_noun_in_the_singular() {
    let dir = scratch("counts-of-one");
    let file = |name: &str, text: &str| written(&dir, name, text);
    refuses(
        &["verify", &file("row.txt", "5")],
        "an input of 1 byte holds at most 1 column,",
    );
    refuses(
        &["verify", &file("ragged.txt", "Q.\n.\n")],
        "line 2 has 1 square, expected 2",
    );
    refuses(
        &["solve", "3", "--queen-count", "1", "--fix", "a1,b3"],
        "2 fixed queens but only 1 queen in total",
    );
    let one = run(&["verify", "--size", "2", &file("one.txt", "a1")], 1);
    assert!(one.contains("2×2 board, 1 queen:"), "{one}");
}

#[test]
fn verify_reads_files_and_names_attacking_pairs() {
    let dir = scratch("verify");
    let path = dir.join("board.txt");
    std::fs::write(&path, "Q . .\n. . Q\n. Q .\n").unwrap();
    let out = run(&["verify", path.to_str().unwrap()], 1);
    assert!(
        out.contains("3×3 board, 3 queens: not a solution: 1 attacking pair"),
        "{out}"
    );
    assert!(out.contains("b1 attacks c2 along a diagonal"), "{out}");
    let doc: Value =
        serde_json::from_str(&run(&["verify", "--json", path.to_str().unwrap()], 1)).unwrap();
    assert_eq!(
        doc["conflicts"],
        serde_json::json!([{"a": {"row": 0, "col": 1}, "b": {"row": 1, "col": 2}, "line": "diagonal"}])
    );
}

#[test]
fn verify_reports_missing_queens() {
    let out = verify("b1,d2,a3", &[], 1);
    assert!(out.contains("1 missing"), "{out}");
    // A list of squares does not say its board: the board judged is named as a guess, and
    // --size, or a board that says its size, judges it without one.
    let guessed = verify("d1,e7", &[], 1);
    assert!(
        guessed.starts_with("7×7 board (the smallest holding these queens; --size N sets it)"),
        "{guessed}"
    );
    assert!(verify("d1,e7", &["--size", "8"], 1).starts_with("8×8 board, 2 queens"));
    let said = verify("{\"n\": 8, \"queens\": [{\"row\": 0, \"col\": 3}]}", &[], 1);
    assert!(said.starts_with("8×8 board, 1 queen:"), "{said}");
    let out = verify(
        "{\"rows\": 4, \"cols\": 4, \"queens\": [{\"row\": 0, \"col\": 1}]}",
        &["--json"],
        1,
    );
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (doc["missing"].as_u64(), doc["valid"].as_bool()),
        (Some(3), Some(false))
    );
}

/// Bad input: one line on stderr, exit 2, never a panic.
#[test]
fn bad_input_is_one_line_and_exit_two() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "0"], "at least 1"),
        (&["solve", "-3"], "at least 1"),
        (&["solve", "eight"], "positive whole number"),
        (&["solve", "99999999999"], "at most 4294967295"),
        (&["solve", "8", "--fix", "i1"], "off the 8×8 board"),
        (&["solve", "8", "--fix", "d0"], "not a square"),
        (&["solve", "8", "--fix", "d1,,e7"], "empty square"),
        (&["solve", "8", "--fix", "a1,h8"], "attack each other"),
        (&["solve", "8", "--fix", "d1,d1"], "two queens on square d1"),
        (
            &["solve", "8", "--solver", "quantum"],
            "unknown solver 'quantum'",
        ),
        (&["solve", "8", "-m", "9"], "cannot fit"),
        (&["solve", "8", "-m", "0"], "at least 1"),
        (
            &["solve", "8", "-m", "6", "--solver", "backtracking"],
            "one queen per row",
        ),
        (&["solve", "8", "--time-limit", "-1"], "time-limit"),
        (
            &["solve", "8", "--trace", "/nonexistent/dir/trace"],
            "cannot create trace file",
        ),
        (&["verify", "/nonexistent/board"], "cannot read"),
        (
            &["solve", "100000", "--solver", "brute-force"],
            "more than its limit",
        ),
        (
            &["solve", "4000000000", "--solver", "forward-checking"],
            "more than its limit",
        ),
        (&["solve", "5000", "--format", "text"], "text diagram"),
        (
            &["solve", "20", "--fix", "a1", "--solver", "construct"],
            "cannot honour fixed queens",
        ),
    ];
    for (args, message) in cases {
        let output = queens().args(*args).output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // The largest board needs about 20 GB: under an 8 GB limit it is refused before anything
    // is allocated.
    #[cfg(unix)]
    {
        let output = common::under_an_address_limit(8_000_000)
            .args(["solve", "4294967295", "--solver", "min-conflicts"])
            .args(["--format", "summary"])
            .output()
            .unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("of memory is available"), "{stderr}");
    }
}

/// Command-line mistakes get clap's whole message: the error on the first line, then what helps
/// (a similar name, the valid values, the usage).
#[test]
fn command_line_mistakes_say_what_would_work() {
    let cases: &[(&[&str], &str, &str)] = &[
        (&["solve", "8", "--seed", "x"], "invalid value", "--help"),
        (
            &["solve", "8", "--format", "xml"],
            "invalid value",
            "possible values: text, perm, json, summary",
        ),
        (
            &["solve", "8", "-f", "jsn"],
            "invalid value",
            "possible values",
        ),
        (&["frobnicate"], "unrecognized subcommand", "Usage: queens"),
        (&["slove", "8"], "unrecognized subcommand", "'solve'"),
        (
            &["solve", "8", "--fromat", "json"],
            "unexpected argument",
            "a similar argument exists: '--format'",
        ),
        (
            &["solve"],
            "the following required arguments were not provided",
            "<SIZE>",
        ),
    ];
    for (args, first, help) in cases {
        let output = queens().args(*args).output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        let first_line = stderr.lines().next().unwrap_or_default();
        assert!(
            first_line.starts_with("error: ") && first_line.contains(first),
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains(help), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// A mistyped flag is never pointed to a flag the help does not show: the hidden spellings kept
/// for earlier versions (`--n`, `--checkpoint-every`) were suggested for `count 12 --uniq`
/// and other short flags by clap's measure of likeness. Every command, typos near short and
/// near hidden names alike: a suggestion, where one is made, is in the command's own help.
#[test]
fn a_mistyped_flag_is_only_pointed_to_flags_the_help_shows() {
    let typos = [
        "--uniqe",
        "--uniq",
        "--nn",
        "--no",
        "--m",
        "--checkpoint-evry",
        "--checkpoint-ever",
        "--fromat",
        "--sed",
    ];
    let mut suggested = 0;
    for command in COMMANDS {
        let help = queens().args([command, "--help"]).output().unwrap();
        let help = String::from_utf8(help.stdout).unwrap();
        for typo in typos {
            let output = queens().args([command, typo]).output().unwrap();
            let stderr = String::from_utf8(output.stderr).unwrap();
            let said = format!("{command} {typo}: {stderr}");
            assert_eq!(output.status.code(), Some(2), "{said}");
            assert!(stderr.starts_with("error: unexpected argument"), "{said}");
            let Some((_, rest)) = stderr.split_once("a similar argument exists: '") else {
                continue;
            };
            let flag = rest.split('\'').next().unwrap();
            assert!(
                help.contains(&format!("{flag} "))
                    || help.contains(&format!("{flag},"))
                    || help.contains(&format!("{flag}\n")),
                "{said}"
            );
            suggested += 1;
        }
    }
    // The typos of shown flags are still helped (`--fromat`, `--sed`).
    assert!(suggested >= 4, "{suggested} suggestions");
}

#[test]
fn unreadable_boards_are_exit_two() {
    for input in [
        "",
        "hello there",
        "Q .\n.",
        "0 9 1",
        "{\"rows\": 3",
        "[{\"row\": 0}]",
    ] {
        queens()
            .arg("verify")
            .write_stdin(input)
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with("error:"));
    }
    // A directory names itself, rather than failing to read with no name.
    let dir = std::env::temp_dir();
    queens()
        .arg("verify")
        .arg(&dir)
        .assert()
        .code(2)
        .stderr(format!(
            "error: {} is a directory, not a board\n",
            dir.display()
        ));
}

#[test]
fn challenge_tabulates_every_locked_square() {
    let doc = json(
        &[
            "challenge",
            "5",
            "--solver",
            "backtracking,forward-checking",
            "--json",
        ],
        0,
    );
    let rows = doc["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for row in rows {
        assert_eq!(row["runs"], 25);
        // Every square of the 5×5 board lies on one of its ten solutions.
        assert_eq!(row["solved"], 25);
        let (min, max) = (row["min"].as_u64().unwrap(), row["max"].as_u64().unwrap());
        let (median, mean) = (
            row["median"].as_f64().unwrap(),
            row["mean"].as_f64().unwrap(),
        );
        assert!(
            min as f64 <= median
                && median <= max as f64
                && min as f64 <= mean
                && mean <= max as f64
        );
    }
    let table = run(&["challenge", "4", "--solver", "backtracking"], 0);
    // The old spelling stays an alias, so that scripts written for it keep working.
    assert_eq!(
        run(&["challenge", "4", "--solvers", "backtracking"], 0),
        table
    );
    assert!(table.contains("| backtracking"), "{table}");
    assert!(table.contains("0/16") || table.contains("/16"), "{table}");
}

#[test]
fn help_and_version_succeed() {
    queens()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("solve"));
    queens()
        .args(["solve", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("forward-checking"));
    queens().arg("--version").assert().success();
}

/// Ctrl-C (SIGINT) stops a long run cleanly: exit 1, "stopped: cancelled", JSON still printed.
#[cfg(unix)]
#[test]
fn interrupt_stops_a_long_run_cleanly() {
    use std::time::Duration;

    let args = [
        "solve",
        "12",
        "--solver",
        "brute-force",
        "--max-nodes",
        "100000000000",
        "--format",
        "json",
    ];
    let (output, took) = common::stopped_by_signal(&args, "INT", Duration::from_millis(300));
    assert!(took < Duration::from_secs(5), "took {took:?} to stop");
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(doc["status"], "stopped");
    assert_eq!(doc["stop_reason"], "cancelled");
    assert!(doc["nodes"].as_u64().unwrap() > 0);
}

/// (total, unique) from the reference table for `n`.
fn reference(n: u32) -> (u64, u64) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/nqueens-counts.tsv");
    let table = std::fs::read_to_string(path).unwrap();
    let line = table
        .lines()
        .find(|l| l.split('\t').next() == Some(&n.to_string()))
        .unwrap();
    let fields: Vec<u64> = line
        .split('\t')
        .skip(1)
        .map(|f| f.parse().unwrap())
        .collect();
    (fields[0], fields[1])
}

#[test]
fn count_prints_total_and_unique() {
    let doc = json(&["count", "10", "--json"], 0);
    assert_eq!(
        (
            doc["total"].as_u64().unwrap(),
            doc["unique"].as_u64().unwrap()
        ),
        reference(10)
    );
    assert_eq!(doc["n"], 10);
    assert!(doc["threads"].as_u64().unwrap() >= 1);
    assert!(doc["elapsed_ms"].as_f64().unwrap() >= 0.0);
    let text = run(&["count", "8", "--threads", "1"], 0);
    assert!(
        text.starts_with("N = 8: 92 solutions, 12 unique\n"),
        "{text}"
    );
    assert!(text.contains(" on 1 thread ("), "{text}");
    // Nouns agree with their counts: one solution in one subproblem; none in the two
    // subproblems of N = 2 (the half and quarter turns' searches, which find nothing).
    let one = run(&["count", "1", "--engine", "backtracking"], 0);
    assert!(one.starts_with("N = 1: 1 solution, 1 unique\n"), "{one}");
    assert!(one.contains(" in 1 subproblem,"), "{one}");
    let none = run(&["count", "2", "--engine", "backtracking"], 0);
    assert!(none.starts_with("N = 2: 0 solutions, 0 unique\n"), "{none}");
    assert!(none.contains(" nodes in 2 subproblems,"), "{none}");
    for (args, message) in [
        (&["count", "33"][..], "1 to 32"),
        (&["count", "0"], "at least 1"),
        (
            &["count", "8", "--threads", "0"],
            "--threads must be at least 1 and at most 1024, got 0",
        ),
        (
            &["count", "20", "--plan", "--threads", "0"],
            "--threads must be at least 1 and at most 1024, got 0",
        ),
        (&["count", "8", "--shard", "2/2"], "not a shard"),
    ] {
        refuses(args, message);
    }
}

/// `--engine` picks how a count is made (auto: the join from N = 14), `--memory` bounds it.
#[test]
fn count_engines_and_memory() {
    for (args, engine) in [
        (&["count", "14", "--json"][..], "join"),
        (&["count", "12", "--json", "--engine", "join"], "join"),
        (
            &["count", "12", "--json", "--engine", "backtracking"],
            "backtracking",
        ),
        (&["count", "13", "--json"], "backtracking"),
        (&["count", "9", "--json", "--engine", "join"], "join"),
    ] {
        let document = json(args, 0);
        assert_eq!(document["engine"], engine, "{args:?}");
        let n: u32 = args[1].parse().unwrap();
        assert_eq!(
            (
                document["total"].as_u64().unwrap(),
                document["unique"].as_u64().unwrap()
            ),
            reference(n),
            "{args:?}"
        );
    }
    let text = run(&["count", "14", "--threads", "1"], 0);
    assert!(text.contains("half boards in"), "{text}");
    assert!(text.contains("(join engine)"), "{text}");
    // Too little memory: the join is refused before it starts, auto falls back.
    refuses(
        &["count", "16", "--engine", "join", "--memory", "1M"],
        "more than the limit of 1.0 MiB",
    );
    // The remedies named are the ones that would help this count.
    refuses(
        &["count", "16", "--engine", "join", "--memory", "1M"],
        "count with --engine backtracking",
    );
    let refused = queens()
        .args([
            "count",
            "16",
            "--engine",
            "backtracking",
            "--threads",
            "1",
            "--memory",
            "1K",
        ])
        .output()
        .unwrap();
    let refusal = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{refusal}");
    assert!(
        refusal.contains("raise the limit with --memory"),
        "{refusal}"
    );
    assert!(!refusal.contains("--engine backtracking"), "{refusal}");
    assert!(!refusal.contains("fewer --threads"), "{refusal}");
    let fallback = json(&["count", "14", "--json", "--memory", "4M"], 0);
    assert_eq!(fallback["engine"], "backtracking");
    for (args, message) in [
        (
            &["count", "3", "--engine", "join"][..],
            "counts N from 4 to 25",
        ),
        (&["count", "8", "--memory", "8X"], "unknown unit"),
        (&["count", "8", "--memory", "0"], "more than 0"),
        // A value that begins with a minus sign is the flag's, refused in its words.
        (
            &["count", "8", "--memory", "-5"],
            "error: --memory must be more than 0 and below 16 EiB, got '-5'",
        ),
        (
            &["count", "8", "--shard", "-1/4"],
            "error: '-1/4' is not a shard",
        ),
        (
            &["experiment", "--solver", "min-conflicts", "-3"],
            "error: N must be at least 1, got -3",
        ),
        (
            &["experiment", "--solver", "min-conflicts", "--n", "-3"],
            "error: N must be at least 1, got -3",
        ),
        (
            &["count", "8", "--engine", "magic"],
            "invalid value 'magic'",
        ),
    ] {
        refuses(args, message);
    }
}

/// N = 12 counted in four shards, each report written to `dir`: their paths.
fn four_shards_of_twelve(dir: &std::path::Path) -> Vec<String> {
    (0..4)
        .map(|i| {
            let report = run(&["count", "12", "--shard", &format!("{i}/4")], 0);
            let path = dir.join(format!("{i}.json"));
            std::fs::write(&path, report).unwrap();
            path.to_str().unwrap().to_owned()
        })
        .collect()
}

#[test]
fn shards_merge_to_the_whole() {
    let dir = scratch("shards");
    let files = four_shards_of_twelve(&dir);
    let first: Value = serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    for field in [
        "n",
        "shard",
        "shards",
        "total",
        "fixed",
        "nodes",
        "fingerprint",
    ] {
        assert!(!first[field].is_null(), "{field} missing from {first}");
    }
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = json(&args, 0);
    assert_eq!(
        (
            merged["total"].as_u64().unwrap(),
            merged["unique"].as_u64().unwrap()
        ),
        reference(12)
    );
    // Where the shards were counted: here, all four.
    let place = first["counted_on"].as_str().unwrap();
    assert_eq!(
        merged["counted_on"],
        serde_json::json!([{"place": place, "shards": 4}])
    );
    let mut text_args = vec!["merge"];
    text_args.extend(files.iter().map(String::as_str));
    let line = run(&text_args, 0);
    assert!(
        line.ends_with(&format!(", counted on {place})\n")),
        "{line}"
    );
}

#[test]
fn bad_sets_of_shards_are_refused_by_name() {
    let dir = scratch("bad-shards");
    let files = four_shards_of_twelve(&dir);
    let missing = queens()
        .args(["merge", &files[0], &files[1], &files[3]])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("missing shard 2 of 4"));
    // A shard given twice, in two files, is refused by both names; one file named twice (by a
    // pattern and by its name) is read once.
    let copy = dir.join("copy.json");
    std::fs::copy(&files[1], &copy).unwrap();
    let twice = queens()
        .args(["merge", &files[0], &files[1]])
        .arg(&copy)
        .args([&files[2], &files[3]])
        .output()
        .unwrap();
    // A set merely missing shards has no answer yet (1); a duplicated or foreign one is wrong (2).
    assert_eq!(twice.status.code(), Some(2));
    let said = String::from_utf8_lossy(&twice.stderr);
    assert!(
        said.contains("appears twice") && said.contains("copy.json") && said.contains(&files[1]),
        "{said}"
    );
    std::fs::remove_file(&copy).unwrap();
    // A hard link is the file it links: read once.
    let link = dir.join("link.json");
    std::fs::hard_link(&files[1], &link).unwrap();
    let pattern = std::path::Path::new(&files[1]).with_file_name("*.json");
    let named_twice = run(
        &[
            "merge",
            &files[1],
            pattern.to_str().unwrap(),
            &files[1],
            "--json",
        ],
        0,
    );
    assert_eq!(
        named_twice,
        run(
            &[
                "merge", &files[0], &files[1], &files[2], &files[3], "--json"
            ],
            0
        )
    );
    let other = dir.join("other.json");
    std::fs::write(&other, run(&["count", "11", "--shard", "1/4"], 0)).unwrap();
    let mixed = queens()
        .args([
            "merge",
            &files[0],
            other.to_str().unwrap(),
            &files[2],
            &files[3],
        ])
        .output()
        .unwrap();
    assert_eq!(mixed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("does not belong"));
    // Every report says it finished; one that says it stopped (as Python's document of a
    // stopped shard does) is refused, though its checksum holds.
    let first: Value = serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    assert_eq!(first["complete"], true);
    let mut stopped = first.clone();
    stopped["complete"] = Value::Bool(false);
    stopped["stop_reason"] = Value::from("time limit reached (1.000 s)");
    let stopped_file = dir.join("stopped.json");
    std::fs::write(&stopped_file, stopped.to_string()).unwrap();
    let refused = queens()
        .args([
            "merge",
            stopped_file.to_str().unwrap(),
            &files[1],
            &files[2],
            &files[3],
        ])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("stopped before its end"));
    queens()
        .args(["merge", "/nonexistent.json"])
        .assert()
        .code(2);
}

/// A count killed without warning (SIGKILL) resumes from its last checkpoint and gives the
/// published numbers: nothing lost, nothing counted twice. The kill comes as soon as the
/// checkpoint holds finished subproblems, on a count long enough to be killed before its end in
/// this build (N = 16 takes about 2 s unoptimised, 17 about 2.5 s optimised on one thread).
#[cfg(unix)]
#[test]
fn a_killed_count_resumes_from_its_checkpoint() {
    use std::os::unix::process::ExitStatusExt;

    let n: u32 = if cfg!(debug_assertions) { 16 } else { 17 };
    let size = n.to_string();
    let dir = scratch("resume");
    let checkpoint = dir.join("count.json");
    let path = checkpoint.to_str().unwrap();
    let finished_parts = || -> usize {
        std::fs::read_to_string(&checkpoint)
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
            .and_then(|saved| saved["done"].as_array().map(Vec::len))
            .unwrap_or(0)
    };
    let (killed, _) = common::stopped_by_signal_once(
        &[
            "count",
            &size,
            "--threads",
            "1",
            "--json",
            "--checkpoint",
            path,
            "--checkpoint-every",
            "0.05",
        ],
        "KILL",
        || finished_parts() > 0,
    );
    assert_eq!(killed.status.signal(), Some(9), "killed before its end");
    assert!(
        finished_parts() > 0,
        "the checkpoint holds finished subproblems"
    );
    let doc = json(&["count", &size, "--json", "--checkpoint", path], 0);
    assert_eq!(
        (
            doc["total"].as_u64().unwrap(),
            doc["unique"].as_u64().unwrap()
        ),
        reference(n)
    );
    // A checkpoint of another count is refused.
    refuses(&["count", "15", "--checkpoint", path], "another count");
}

/// A shard's task killed on one node and requeued onto another resumes from its checkpoint
/// there, and its report names both nodes, the first first: a recount that disagrees points at
/// every machine that counted part of it.
#[cfg(unix)]
#[test]
fn a_shard_resumed_elsewhere_names_every_place_that_counted_it() {
    use std::os::unix::process::ExitStatusExt;

    // Half of N = 17 takes about a second on one thread; the first save comes at a tenth.
    let n = "17";
    let dir = scratch("requeued");
    let dir_arg = dir.to_str().unwrap();
    let checkpoint = dir.join("shard-0-of-2.checkpoint");
    let finished_parts = || -> usize {
        std::fs::read_to_string(&checkpoint)
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
            .and_then(|saved| saved["done"].as_array().map(Vec::len))
            .unwrap_or(0)
    };
    let count = [
        "count",
        n,
        "--engine",
        "backtracking",
        "--shard",
        "0/2",
        "--dir",
        dir_arg,
        "--threads",
        "1",
    ];
    let (killed, _) = common::stopped_by_signal_once_with(
        &[("SLURMD_NODENAME", "node-a")],
        &[&count[..], &["--checkpoint-every", "0.05"]].concat(),
        "KILL",
        || finished_parts() > 0,
    );
    assert_eq!(killed.status.signal(), Some(9), "killed before its end");
    let resumed = queens()
        .args(count)
        .env("SLURMD_NODENAME", "node-b")
        .output()
        .unwrap();
    common::assert_exit(&resumed, 0, "the resumed shard");
    let report: Value = serde_json::from_slice(&resumed.stdout).unwrap();
    assert_eq!(
        report["counted_on"],
        "node-a, 1 thread (backtracking engine); then node-b, 1 thread (backtracking engine)"
    );
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("shard-0-of-2.json")).unwrap())
            .unwrap();
    assert_eq!(file["counted_on"], report["counted_on"]);
}

/// A whole count resumed from its checkpoint says where its parts were counted, as a shard's
/// report does: the runs that counted, in order, and not a run that only read the checkpoint.
#[test]
fn a_resumed_count_names_every_place_that_counted_it() {
    let dir = scratch("resumed-places");
    let checkpoint = dir.join("count.json");
    let count = |node: &str, more: &[&str]| {
        queens()
            .args(["count", "16", "--engine", "backtracking", "--threads", "1"])
            .args(["--checkpoint", checkpoint.to_str().unwrap()])
            .args(more)
            .env("SLURMD_NODENAME", node)
            .output()
            .unwrap()
    };
    // N = 16 takes about a second on one thread.
    let stopped = count("node-a", &["--time-limit", "0.2"]);
    common::assert_exit(&stopped, 1, "the count stopped at its time limit");
    let here = |node: &str| format!("{node}, 1 thread (backtracking engine)");
    let finished = count("node-b", &["--json"]);
    common::assert_exit(&finished, 0, "the resumed count");
    let document: Value = serde_json::from_slice(&finished.stdout).unwrap();
    assert_eq!(document["total"], 14_772_512);
    assert_eq!(
        document["counted_on"],
        format!("{}; then {}", here("node-a"), here("node-b"))
    );
    // A run that finds every part counted adds no place, and the text says where they were.
    let read_only = count("node-c", &[]);
    common::assert_exit(&read_only, 0, "the count read back");
    let text = String::from_utf8_lossy(&read_only.stdout);
    let said = format!(
        "resumed from {} (6872 subproblems); counted on {}; then {}\n",
        checkpoint.display(),
        here("node-a"),
        here("node-b")
    );
    assert!(text.ends_with(&said), "{text}");
    // A count without a checkpoint says only where it ran, in its document.
    let fresh = queens()
        .args(["count", "9", "--threads", "1", "--json"])
        .env("SLURMD_NODENAME", "node-d")
        .output()
        .unwrap();
    let document: Value = serde_json::from_slice(&fresh.stdout).unwrap();
    assert_eq!(document["counted_on"], here("node-d"));
}

/// A campaign's merge before its end names the missing shards as runs, and how many of them a
/// task has begun: a checkpoint beside the reports.
#[test]
fn an_unfinished_campaign_says_what_is_missing_and_what_has_begun() {
    let dir = scratch("campaign-missing");
    let shard = |index: &str, more: &[&str]| {
        queens()
            .args([
                "count",
                "17",
                "--shard",
                &format!("{index}/8"),
                "--threads",
                "1",
            ])
            .args(["--dir", dir.to_str().unwrap()])
            .args(more)
            .output()
            .unwrap()
    };
    common::assert_exit(&shard("3", &[]), 0, "shard 3 of N = 17's 8");
    // A shard takes about a second on one thread.
    let stopped = shard("5", &["--time-limit", "0.2"]);
    common::assert_exit(&stopped, 1, "shard 5 stopped at its time limit");
    let pattern = dir.join("shard-*-of-8.json");
    let merge = queens()
        .args(["merge", pattern.to_str().unwrap()])
        .output()
        .unwrap();
    common::assert_exit(&merge, 1, "the merge of one shard of 8");
    let said = format!(
        "error: incomplete: missing shards 0-2, 4-7 (7 of 8); one of them has begun (a \
         checkpoint in {})\n",
        dir.display()
    );
    assert_eq!(String::from_utf8_lossy(&merge.stderr), said);
}

/// A shard's report is a document, so its run keeps stderr quiet unless `--progress lines`
/// asks, as a cluster count's tasks do: then its log says how far the shard got.
#[test]
fn a_shard_reports_progress_in_lines_when_asked() {
    let dir = scratch("shard-progress");
    let shard = |more: &[&str]| {
        let output = queens()
            .args(["count", "19", "--shard", "0/2", "--threads", "1"])
            .args(["--time-limit", "5.5", "--dir", dir.to_str().unwrap()])
            .args(more)
            .output()
            .unwrap();
        common::assert_exit(&output, 1, "the shard stopped at its time limit");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let progress = "N = 19, shard 0/2: ";
    let asked = shard(&["--progress", "lines"]);
    assert!(
        asked.lines().any(|line| line.starts_with(progress)),
        "{asked}"
    );
    let quiet = shard(&[]);
    assert!(!quiet.contains(progress), "{quiet}");
}

/// Ctrl-C stops a count cleanly, saves the checkpoint and says how to resume.
#[cfg(unix)]
#[test]
fn an_interrupted_count_saves_and_says_so() {
    use std::time::Duration;

    let dir = scratch("interrupt");
    let checkpoint = dir.join("count.json");
    let (output, _) = common::stopped_by_signal(
        &["count", "17", "--checkpoint", checkpoint.to_str().unwrap()],
        "INT",
        Duration::from_millis(400),
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("run the same command to resume"));
    assert!(checkpoint.exists());
}

#[test]
fn large_boards_default_to_construction_and_local_search() {
    // No flags at all: a permutation line, since a diagram would be millions of characters wide.
    let perm = run(&["solve", "2000000"], 0);
    assert_eq!(perm.lines().count(), 1);
    assert_eq!(perm.split_whitespace().count(), 2_000_000);
    let line = run(&["solve", "1000000", "--format", "summary"], 0);
    assert!(
        line.contains("solver=construct") && line.contains("solved=true"),
        "{line}"
    );
    // A position on a board the completion search takes is decided by it, exactly.
    let doc = json(&["solve", "500", "--fix", "a1", "--format", "json"], 0);
    assert_eq!(doc["solver"], "completion");
    assert!(
        doc["queens"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({"row": 0, "col": 0}))
    );
    verify(&serde_json::to_string(&doc).unwrap(), &[], 0);
    // Beyond it, min-conflicts.
    let doc = json(
        &[
            "solve", "2000", "--fix", "a1", "--format", "json", "--seed", "7",
        ],
        0,
    );
    assert_eq!(doc["solver"], "min-conflicts");
    assert_eq!(doc["seed"], 7);
    assert!(
        doc["queens"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({"row": 0, "col": 0}))
    );
    verify(&serde_json::to_string(&doc).unwrap(), &[], 0);
}

#[test]
fn huge_permutations_round_trip_through_verify() {
    let dir = scratch("stream");
    for solver in ["construct", "min-conflicts"] {
        let path = dir.join(format!("{solver}.perm"));
        let file = path.to_str().unwrap();
        run(
            &[
                "solve", "300000", "--solver", solver, "--format", "perm", "--output", file,
            ],
            0,
        );
        let out = run(&["verify", file], 0);
        assert_eq!(
            out,
            "300000×300000 board, 300000 queens: a valid solution\n"
        );
        // Break it: the first two columns share a row.
        let text = std::fs::read_to_string(&path).unwrap();
        let mut rows: Vec<&str> = text.split_whitespace().collect();
        rows[1] = rows[0];
        std::fs::write(&path, rows.join(" ")).unwrap();
        let out = run(&["verify", file], 1);
        // The copied queen shares a row, and may also land on an occupied diagonal.
        assert!(out.contains("not a solution:"), "{out}");
        assert!(
            out.contains("shares its row with an earlier queen"),
            "{out}"
        );
    }
}

#[test]
fn the_local_search_family_runs_from_the_cli() {
    let args = [
        "solve",
        "8",
        "--solver",
        "optimized-hill-climbing",
        "--seed",
        "4",
        "--format",
        "json",
    ];
    let first = json(&args, 0);
    assert_eq!(first, {
        let mut again = json(&args, 0);
        again["elapsed_ms"] = first["elapsed_ms"].clone();
        again
    });
    assert_eq!(first["seed"], 4);
    verify(&serde_json::to_string(&first).unwrap(), &[], 0);
    // Plain hill climbing gets stuck on most seeds, and stops there, saying so (the original
    // stopped "when there is no better move"), well before the original's cap.
    let stuck = json(
        &[
            "solve",
            "8",
            "--solver",
            "hill-climbing",
            "--seed",
            "1",
            "--format",
            "json",
        ],
        1,
    );
    assert_eq!(stuck["status"].as_str(), Some("stopped"));
    assert!(stuck["iterations"].as_u64().unwrap() < 1000, "{stuck}");
    assert!(
        stuck["stop_reason"]
            .as_str()
            .unwrap()
            .starts_with("stuck on a local optimum"),
        "{stuck}"
    );
    // A cap of K reports K iterations in every solver that counts them.
    for solver in [
        "min-conflicts",
        "min-conflicts-minton",
        "hill-climbing",
        "random-search",
        "genetic",
        "electric-force",
    ] {
        let doc = json(
            &[
                "solve",
                "60",
                "--solver",
                solver,
                "--seed",
                "1",
                "--max-iters",
                "5",
                "--format",
                "json",
            ],
            1,
        );
        assert_eq!(
            (doc["status"].as_str(), doc["iterations"].as_u64()),
            (Some("stopped"), Some(5)),
            "{solver}"
        );
    }
    for (args, message) in [
        (
            &["solve", "8", "--solver", "hill-climbing", "--fix", "a1"][..],
            "fixed queens",
        ),
        (
            &[
                "solve",
                "8",
                "--solver",
                "simulated-annealing",
                "--max-iters",
                "0",
            ],
            "at least 1",
        ),
    ] {
        refuses(args, message);
    }
}

#[test]
fn experiments_print_rows_and_write_files() {
    let dir = scratch("experiment");
    let out = dir.to_str().unwrap();
    let doc = json(
        &[
            "experiment",
            "--solver",
            "optimized-hill-climbing,hill-climbing",
            "--n",
            "6,8",
            "--runs",
            "20",
            "--seed",
            "3",
            "--json",
            "--out",
            out,
        ],
        0,
    );
    let rows = doc["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for row in rows {
        for field in [
            "solver",
            "n",
            "params",
            "runs",
            "solved",
            "success_rate",
            "mean_iterations",
            "median_ms",
        ] {
            assert!(row.get(field).is_some(), "{field} missing from {row}");
        }
        assert_eq!(row["runs"], 20);
    }
    for file in [
        "results.csv",
        "results.json",
        "success-rate.svg",
        "success-rate.png",
        "score-per-iteration.png",
    ] {
        assert!(dir.join(file).exists(), "{file}");
    }
    let table = run(
        &[
            "experiment",
            "--solver",
            "optimized-hill-climbing",
            "--n",
            "8",
            "--runs",
            "10",
        ],
        0,
    );
    assert!(table.starts_with("solver"), "{table}");
    for (args, message) in [
        (
            &["experiment", "--solver", "hill-climbing", "--set", "p=0.1"][..],
            "no parameter 'p'",
        ),
        (
            &[
                "experiment",
                "--solver",
                "hill-climbing-constant-shake",
                "--set",
                "p=2",
            ],
            "[0, 1]",
        ),
        (
            &[
                "experiment",
                "--solver",
                "optimized-hill-climbing",
                "--set",
                "q=9",
            ],
            "between 1 and N",
        ),
        (&["experiment", "--set", "p"], "NAME=V1"),
        (&["experiment", "--runs", "0"], "at least 1"),
        (&["experiment", "--solver", "nope"], "unknown solver"),
        (
            &["experiment", "--solver", "genetic", "--set", "population=0"],
            "population",
        ),
    ] {
        refuses(args, message);
    }
}

#[test]
fn configure_json_follows_the_contract() {
    let raw = run(&["configure", "8", "--queens", "d1,e7", "--json"], 0);
    let at = |key: &str| raw.find(&format!("\"{key}\":")).unwrap();
    let order = ["n", "solvable", "queens", "forced", "cells", "completions"].map(at);
    assert!(order.is_sorted(), "contract fields first, in order: {raw}");
    let analysis: Value = serde_json::from_str(&raw).unwrap();
    assert_eq!(analysis["n"], 8);
    assert_eq!(analysis["solvable"], true);
    assert_eq!(analysis["completions"], 3);
    assert_eq!(
        analysis["queens"][1],
        serde_json::json!({"row": 6, "col": 4})
    );
    let cells = analysis["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 64);
    for cell in cells {
        let status = cell["status"].as_str().unwrap();
        assert!(["queen", "forced", "open", "attacked", "dead"].contains(&status));
        let blocked = status == "attacked" || status == "dead";
        assert_eq!(cell["reason"].is_object(), blocked, "{cell}");
        if blocked {
            assert!(!cell["reason"]["text"].as_str().unwrap().is_empty());
        }
    }
    // d2 shares the queen on d1's column.
    let d2 = &cells[8 + 3];
    assert_eq!(d2["status"], "attacked");
    assert_eq!(d2["reason"]["by"], serde_json::json!({"row": 0, "col": 3}));
    assert_eq!(d2["reason"]["line"], "column");
}

#[test]
fn configure_places_forced_queens_and_reports_unsolvable_positions() {
    // On 4×4 a queen on b1 leaves one solution: b1, d2, a3, c4.
    let analysis = json(&["configure", "4", "--queens", "b1", "--json"], 0);
    let forced: Vec<(u64, u64)> = analysis["forced"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["row"].as_u64().unwrap(), s["col"].as_u64().unwrap()))
        .collect();
    assert_eq!(forced, [(1, 3), (2, 0), (3, 2)]);
    // A queen in a corner of 4×4 is in no solution: exit 1, every free square dead.
    let text = run(&["configure", "4", "--queens", "a1"], 1);
    assert!(text.contains("solvable: no"), "{text}");
    assert!(text.contains("is dead: a queen here"), "{text}");
    // Both engines agree, and the diagram is the default at this size.
    let bdd = json(
        &[
            "configure",
            "7",
            "--queens",
            "c2",
            "--json",
            "--engine",
            "bdd",
        ],
        0,
    );
    let search = json(
        &[
            "configure",
            "7",
            "--queens",
            "c2",
            "--json",
            "--engine",
            "search",
        ],
        0,
    );
    assert_eq!(bdd["engine"], "bdd");
    assert_eq!(search["engine"], "search");
    assert_eq!(bdd["cells"], search["cells"]);
}

#[test]
fn configure_reports_unknown_squares_when_the_budget_is_tiny() {
    let analysis = json(
        &[
            "configure",
            "40",
            "--queens",
            "r1c1",
            "--json",
            "--max-nodes",
            "30",
        ],
        1,
    );
    assert_eq!(analysis["solvable"], serde_json::Value::Null);
    let cells = analysis["cells"].as_array().unwrap();
    let unknown = cells.iter().filter(|c| c["status"] == "unknown").count();
    assert!(unknown > 1000, "{unknown}");
}

#[test]
fn configure_refuses_bad_input() {
    for (args, message) in [
        (
            &["configure", "8", "--queens", "d1,e2"][..],
            "d1 and e2 attack each other",
        ),
        (&["configure", "8", "--queens", "i1"], "off the 8×8 board"),
        (&["configure", "8", "--queens", "d1,,e7"], "--queens"),
        (&["configure", "0"], "at least 1"),
        (&["configure", "513"], "1 to 512"),
        (&["configure", "20", "--engine", "bdd"], "up to 13×13"),
        (&["configure", "8", "--engine", "magic"], "unknown engine"),
    ] {
        refuses(args, message);
    }
}

#[test]
fn serve_refuses_a_bad_address() {
    for bad in ["localhost", "localhost:http", "127.0.0.1:99999", "[::1]"] {
        refuses(
            &["serve", "--addr", bad],
            "--addr must be a host and port such as 127.0.0.1:7878 or localhost:7878",
        );
    }
    refuses(
        &["serve", "--addr", "no-such-host.invalid:7878"],
        "--addr: cannot find the host 'no-such-host.invalid'",
    );
    // A port given twice, and ports no machine has.
    refuses(
        &["serve", "--addr", "127.0.0.1:80", "--port", "0"],
        "--addr '127.0.0.1:80' has a port already: give the port once, in --addr or in --port",
    );
    refuses(
        &["serve", "--addr", "[::1]:80", "-p", "0"],
        "has a port already",
    );
    for port in ["65536", "-1", "http"] {
        refuses(&["serve", "--port", port], "--port must be");
    }
}

/// A host name is an address to serve on: `localhost` listens on the loopback; `--port` takes
/// the port on the loopback, or on a host `--addr` gives alone.
#[test]
fn serve_takes_a_host_name_and_a_port_apart() {
    use std::io::BufRead;
    for (args, serving) in [
        (&["--addr", "localhost:0"][..], "http://127.0.0.1:"),
        (&["--port", "0"], "http://127.0.0.1:"),
        (&["--addr", "localhost", "--port", "0"], "http://127.0.0.1:"),
    ] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("queens"))
            .arg("serve")
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(line.contains(serving), "{args:?}: {line}");
    }
}

#[test]
fn electric_force_solves_and_refuses_bad_settings() {
    let solved = json(
        &[
            "solve",
            "8",
            "--solver",
            "electric-force",
            "--seed",
            "1",
            "--format",
            "json",
        ],
        0,
    );
    assert_eq!(solved["solved"], true);
    assert!(solved["iterations"].as_u64().unwrap() <= 10_000);
    // Fixed queens push the others but stay where they are.
    let fixed = json(
        &[
            "solve",
            "8",
            "--solver",
            "electric-force",
            "--fix",
            "d1",
            "--seed",
            "1",
            "--format",
            "json",
        ],
        0,
    );
    assert!(
        fixed["queens"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({"row": 0, "col": 3}))
    );
    for (args, message) in [
        (
            &[
                "experiment",
                "--solver",
                "electric-force",
                "--set",
                "avoid=2",
            ][..],
            "avoid must be 0 or 1",
        ),
        (
            &[
                "experiment",
                "--solver",
                "electric-force",
                "--set",
                "restart=0",
            ],
            "at least 1",
        ),
        (
            &["solve", "8x9", "--solver", "electric-force"],
            "N queens on an N×N board",
        ),
    ] {
        refuses(args, message);
    }
}

/// Ctrl-C on an experiment prints the rows of the runs that finished, marked partial, exit 1.
#[cfg(unix)]
#[test]
fn an_interrupted_experiment_prints_its_partial_rows() {
    use std::time::Duration;

    let (output, took) = common::stopped_by_signal(
        &[
            "experiment",
            "--solver",
            "electric-force",
            "--n",
            "12",
            "--runs",
            "200000",
            "--json",
        ],
        "INT",
        Duration::from_millis(1500),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(took < Duration::from_secs(5), "took {took:?} to stop");
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("partial results: stopped (cancelled)"),
        "{stderr}"
    );
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(doc["complete"], false);
    let runs = doc["rows"][0]["runs"].as_u64().unwrap();
    assert!(runs > 0 && runs < 200_000, "{runs} runs");
    assert_eq!(doc["finished"].as_u64(), Some(runs));
}

/// Ctrl-C on the challenge table prints the table so far, marked partial, exit 1 (not 2); so
/// does a node cap, whose runs are counted as stopped.
#[cfg(unix)]
#[test]
fn an_interrupted_or_capped_challenge_keeps_its_table() {
    use std::time::Duration;

    let (output, took) = common::stopped_by_signal(
        &["challenge", "8", "--solver", "brute-force,backtracking"],
        "INT",
        Duration::from_millis(1500),
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(took < Duration::from_secs(5), "took {took:?} to stop");
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stdout.contains("(partial)") && stdout.contains("| backtracking"),
        "{stdout}"
    );
    assert!(
        stderr.contains("partial table: stopped (cancelled)"),
        "{stderr}"
    );

    let capped = queens()
        .args([
            "challenge",
            "6",
            "--solver",
            "brute-force",
            "--max-nodes",
            "1000",
        ])
        .output()
        .unwrap();
    assert_eq!(capped.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&capped.stdout).contains("| brute-force"));
    assert!(String::from_utf8_lossy(&capped.stderr).contains("reached --max-nodes"));
}

/// The challenge's progress lines show the nodes examined by the runs under way, so that a
/// brute force that has not finished one locked square in seconds is still seen to move.
#[cfg(unix)]
#[test]
fn a_challenge_shows_the_nodes_its_runs_under_way_examine() {
    use std::time::Duration;

    let (output, _) = common::stopped_by_signal(
        &[
            "challenge",
            "9",
            "--solver",
            "brute-force",
            "--progress",
            "lines",
        ],
        "INT",
        Duration::from_secs(7),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = stderr
        .lines()
        .find(|line| line.starts_with("locked squares × solvers: "))
        .unwrap_or_else(|| panic!("no progress line: {stderr}"));
    let examined: u64 = line
        .strip_suffix(" nodes examined")
        .and_then(|line| line.rsplit(", ").next())
        .map(|figure| figure.replace(',', ""))
        .and_then(|figure| figure.parse().ok())
        .unwrap_or_else(|| panic!("no nodes examined: {line}"));
    assert!(examined > 1_000_000, "{line}");
}

/// The genetic algorithm on 4096 queens answers Ctrl-C and SIGTERM at once, in the middle of a
/// generation.
#[cfg(unix)]
#[test]
fn a_large_genetic_run_stops_at_once() {
    use std::time::Duration;

    for signal in ["INT", "TERM"] {
        let (output, took) = common::stopped_by_signal(
            &[
                "solve", "4096", "--solver", "genetic", "--format", "summary",
            ],
            signal,
            Duration::from_millis(1500),
        );
        assert!(
            took < Duration::from_secs(3),
            "{signal}: took {took:?} to stop"
        );
        assert_eq!(output.status.code(), Some(1), "{signal}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("status=stopped"), "{signal}: {stdout}");
    }
}

/// `--set` on `solve` takes the descriptor's names and ranges, with the same message as
/// `experiment --set` and the web API.
#[test]
fn solve_sets_solver_parameters() {
    let doc = json(
        &[
            "solve",
            "8",
            "--solver",
            "hill-climbing-constant-shake",
            "--set",
            "p=0.3",
            "--set",
            "q=3",
            "--seed",
            "2",
            "--format",
            "json",
        ],
        0,
    );
    assert_eq!(doc["status"], "solved");
    let message = "p must be in [0, 1], got 2";
    refuses(
        &[
            "solve",
            "8",
            "--solver",
            "hill-climbing-constant-shake",
            "--set",
            "p=2",
        ],
        message,
    );
    refuses(
        &[
            "experiment",
            "--solver",
            "hill-climbing-constant-shake",
            "--set",
            "p=2",
        ],
        message,
    );
    refuses(
        &["solve", "8", "--solver", "genetic", "--set", "p=0.1"],
        "genetic has no parameter 'p' (it reads: population, tournament, elite, crossover, mutation)",
    );
    // The name is refused before its value is read, on both commands.
    for command in ["solve", "experiment"] {
        refuses(
            &[command, "8", "--solver", "genetic", "--set", "pop=many"],
            "genetic has no parameter 'pop' (it reads: population, tournament, elite, crossover, mutation)",
        );
    }
    for setting in ["population", "=40", " =40"] {
        for (command, form) in [("solve", "NAME=VALUE"), ("experiment", "NAME=V1,V2,...")] {
            refuses(
                &[command, "8", "--solver", "genetic", "--set", setting],
                &format!("--set wants {form}, got '{setting}'"),
            );
        }
    }
    refuses(
        &[
            "solve",
            "8",
            "--solver",
            "genetic",
            "--set",
            "population=many",
        ],
        "population must be a number, got 'many'",
    );
}

/// `verify --size` places a list of squares on the stated board, and a permutation counted
/// from 1 gets a hint.
#[test]
fn verify_takes_a_size_and_hints_at_one_based_rows() {
    let out = verify("d1,e7", &["--size", "8"], 1);
    assert!(
        out.starts_with("8×8 board, 2 queens: not a solution: 6 missing"),
        "{out}"
    );
    let output = queens()
        .arg("verify")
        .write_stdin("2 4 1 3\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("the rows look 1-based"), "{stderr}");
    refuses(&["verify", "--size", "0"], "at least 1");
}

/// `configure --json | head` ends quietly, like the other commands on a closed pipe.
#[cfg(unix)]
#[test]
fn configure_is_quiet_on_a_closed_pipe() {
    let stderr = common::run_into_a_closed_pipe(&["configure", "60", "--json"]);
    assert!(stderr.is_empty(), "{stderr}");
}

/// Every hostile input of the command line is a clear refusal (exit 2, one line), checked
/// before anything is allocated.
#[test]
fn hostile_sizes_are_refused_before_anything_is_allocated() {
    let many = (0..3000)
        .map(|i| (f64::from(i) / 3000.0).to_string())
        .collect::<Vec<_>>()
        .join(",");
    let p = format!("p={many}");
    let q = format!(
        "q={}",
        (1..=3000)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["experiment", "--runs", "18446744073709551615", "--json"],
            "at most 10000000 runs",
        ),
        (
            vec!["experiment", "--runs", "1000000000"],
            "at most 10000000 runs",
        ),
        (
            vec![
                "experiment",
                "--solver",
                "genetic",
                "--n",
                "5000",
                "--runs",
                "1",
            ],
            "at most 2²⁴ = 16777216 (a 4096×4096 board); the 5000×5000 board has 25000000",
        ),
        (
            vec!["experiment", "--n", "4294967295"],
            "of memory is available",
        ),
        (
            vec![
                "experiment",
                "--solver",
                "genetic",
                "--set",
                "population=4294967295",
            ],
            "population must be at most 100000",
        ),
        (
            vec![
                "solve",
                "8",
                "--solver",
                "genetic",
                "--set",
                "population=4294967295",
            ],
            "population must be at most 100000",
        ),
        (
            vec![
                "experiment",
                "--solver",
                "hill-climbing-constant-shake",
                "--set",
                &p,
                "--set",
                &q,
            ],
            "at most 100000 cells",
        ),
        (
            vec!["solve", "4000000000", "--format", "json"],
            "--format json writes boards of up to",
        ),
        (vec!["count", "8", "--threads", "100000"], "at most 1024"),
    ];
    for (args, message) in &cases {
        let output = queens().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{:?}: {stderr}", &args[..2]);
        assert_eq!(stderr.lines().count(), 1, "{:?}: {stderr}", &args[..2]);
        assert!(stderr.contains(message), "{:?}: {stderr}", &args[..2]);
    }
}

/// `verify` reads at most 64 MiB of a board that is not a permutation, and lists at most 1000
/// attacking pairs (with their count) unless asked for all.
#[test]
fn verify_bounds_its_input_and_its_output() {
    use std::io::Write as _;
    use std::process::{Command as Process, Stdio};

    let mut child = Process::new(assert_cmd::cargo::cargo_bin("queens"))
        .arg("verify")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let zeros = vec![0u8; 1 << 20];
        // Stops when the reader gives up.
        for _ in 0..100 {
            if stdin.write_all(&zeros).is_err() {
                break;
            }
        }
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("over 64 MiB"));

    // 3000 queens on one row: 4,498,500 pairs, 1000 of them listed.
    let row: String = (1..=3000)
        .map(|c| format!("r1c{c}"))
        .collect::<Vec<_>>()
        .join(",");
    let doc: Value = serde_json::from_str(&verify(&row, &["--json"], 1)).unwrap();
    assert_eq!(doc["conflict_count"], 4_498_500);
    assert_eq!(doc["conflicts"].as_array().unwrap().len(), 1000);
    assert_eq!(doc["conflicts_truncated"], true);
    let text = verify(&row, &[], 1);
    assert!(
        text.contains("and 4497500 more pairs (--all-conflicts lists them all)"),
        "{}",
        &text[..200]
    );
    let all = verify("a1,b1,c1", &["--json", "--all-conflicts"], 1);
    let all: Value = serde_json::from_str(&all).unwrap();
    assert_eq!(all["conflicts"].as_array().unwrap().len(), 3);
}

/// Shard reports and checkpoints from files are checked: an edited report, a claim of billions
/// of shards, a forged checkpoint.
#[test]
fn forged_shard_files_are_refused() {
    let dir = scratch("forged");
    let report = run(&["count", "8", "--shard", "0/2"], 0);
    let mut edited: Value = serde_json::from_str(&report).unwrap();
    edited["total"] = serde_json::json!(edited["total"].as_u64().unwrap() + 8);
    let path = dir.join("edited.json");
    std::fs::write(&path, edited.to_string()).unwrap();
    let other = dir.join("other.json");
    std::fs::write(&other, run(&["count", "8", "--shard", "1/2"], 0)).unwrap();
    refuses(
        &["merge", path.to_str().unwrap(), other.to_str().unwrap()],
        "damaged or was edited",
    );
    let big = dir.join("big.json");
    std::fs::write(&big, " ".repeat(1 << 20)).unwrap();
    refuses(&["merge", big.to_str().unwrap()], "is not one");
    let checkpoint = dir.join("c.json");
    std::fs::write(
        &checkpoint,
        r#"{"kernel_version":1,"n":8,"fingerprint":"x","shard":{"index":0,"count":1},"done":[],"checksum":""}"#,
    )
    .unwrap();
    refuses(
        &["count", "8", "--checkpoint", checkpoint.to_str().unwrap()],
        "another count",
    );
}

/// The server stops within a few seconds of SIGTERM or Ctrl-C, even with a long job running.
#[cfg(unix)]
#[test]
fn the_server_stops_promptly_whatever_runs() {
    use std::io::Write as _;
    use std::process::Command as Process;
    use std::time::{Duration, Instant};

    for signal in ["-TERM", "-INT"] {
        let mut server = common::Server::start();
        let address = server.address.clone();
        // An experiment of many seconds (within the server's cost bound), and a stream nobody
        // reads.
        let body = r#"{"solvers": ["hill-climbing"], "sizes": [64], "runs": 2000}"#;
        let mut experiment = std::net::TcpStream::connect(&address).unwrap();
        write!(
            experiment,
            "POST /api/experiment HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        write!(
            stream,
            "GET /api/solve?n=9&solver=brute-force HTTP/1.1\r\nHost: {address}\r\n\r\n"
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(500));
        let sent = Instant::now();
        Process::new("kill")
            .args([signal, &server.child.id().to_string()])
            .status()
            .unwrap();
        let status = server.child.wait().unwrap();
        let took = sent.elapsed();
        assert!(
            took < Duration::from_secs(5),
            "{signal}: stopped after {took:?}"
        );
        assert!(status.success(), "{signal}: {status:?}");
        drop((experiment, stream));
    }
}

/// `count N --plan` prints a campaign without counting: the node estimate a whole number past
/// 2⁶⁴ at N = 28, shards of about an hour in arrays of at most 1,000 tasks, each task told its
/// shard by its array's offset, and the merge of every report by one pattern. The rate is
/// given, so that the shards are as many as the cap allows whatever the default's measure.
#[test]
fn a_record_count_is_planned_without_counting() {
    let text = run(&["count", "28", "--plan", "--json", "--rate", "1.25e11"], 0);
    let nodes: String = text
        .split("\"nodes\":")
        .nth(1)
        .unwrap()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let nodes: u128 = nodes.parse().unwrap();
    assert!(
        (5e19..7e19).contains(&(nodes as f64)),
        "about 6·10¹⁹: {nodes}"
    );
    assert!(nodes > u128::from(u64::MAX));
    let plan: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(plan["shards"], 100_000);
    let lines = plan["sbatch"].as_array().unwrap();
    assert_eq!(lines.len(), 100);
    let last = lines[99].as_str().unwrap();
    assert!(
        last.contains("--array=0-999 --requeue --gres=gpu:1"),
        "{last}"
    );
    assert!(
        last.contains("--shard $((99000 + SLURM_ARRAY_TASK_ID))/100000"),
        "{last}"
    );
    // One shard in a hundred drawn to count again, by one array of 1,000 tasks.
    assert_eq!(plan["recount"].as_array().unwrap().len(), 1_000);
    let again = plan["recount_sbatch"][0].as_str().unwrap();
    assert!(
        again.contains("--array=0-999 --requeue --gres=gpu:1"),
        "{again}"
    );
    assert!(
        plan["merge"].as_str().unwrap().ends_with(
            "shard-*-of-100000.json' --recount 'queens-28/recount/shard-*-of-100000.json'"
        ),
        "{plan}"
    );
    // A rate and a shard count of one's own; the text form.
    let small = json(
        &[
            "count", "16", "--plan", "--rate", "1e9", "--shards", "3", "--json",
        ],
        0,
    );
    assert_eq!(
        small["arrays"],
        serde_json::json!([{"first": 0, "tasks": 3}])
    );
    let text = run(&["count", "16", "--plan", "--rate", "1e9"], 0);
    assert!(text.starts_with("N = 16: about 2.4"), "{text}");
    assert!(text.contains("1 shard of about"), "{text}");
    assert!(
        text.contains(
            "Count 1 shard again, drawn at random (1 % of the shards, rounded up), on other GPUs"
        ),
        "{text}"
    );
    assert!(text.contains("--recount '"), "{text}");
    // A count of under a minute is said to need no cluster; a small estimate reads whole.
    assert!(
        text.contains("One GPU counts this in under a minute: `queens count 16` needs no"),
        "{text}"
    );
    let slow = run(&["count", "16", "--plan", "--rate", "1e3"], 0);
    assert!(!slow.contains("under a minute"), "{slow}");
    let tiny = run(&["count", "8", "--plan"], 0);
    let figure: String = tiny["N = 8: about ".len()..]
        .chars()
        .take_while(|c| *c != ' ')
        .collect();
    assert!(figure.parse::<u64>().is_ok(), "{tiny}");
}

/// A plan refuses what it cannot plan in one sentence: its flags out of range, an engine whose
/// split is no search of rows, and a rate at which a shard would run past the longest time
/// Slurm gives a task (where it printed shards of "inf days" and `--time` lines of 2⁶⁴ − 1
/// hours). Planned twice, it names the same nodes to the last digit.
#[test]
fn a_plan_refuses_what_it_cannot_plan_and_repeats_itself() {
    let first = run(&["count", "24", "--plan"], 0);
    for _ in 0..2 {
        assert_eq!(run(&["count", "24", "--plan"], 0), first);
    }
    for (args, message) in [
        (&["count", "16", "--shards", "3"][..], "go with --slurm"),
        (&["count", "16", "--array-size", "3"], "go with --slurm"),
        (
            &["count", "16", "--plan", "--array-size", "0"],
            "at least 1 and at most",
        ),
        (
            &["count", "16", "--plan", "--engine", "join"],
            "the join's is not one",
        ),
        (&["count", "16", "--plan", "--rate", "0"], "positive number"),
        (
            &["count", "28", "--plan", "--rate", "1e-308"],
            "a shard would run longer than Slurm gives a task (at most 71582788 hours)",
        ),
        (
            &[
                "count",
                "28",
                "--plan",
                "--engine",
                "backtracking",
                "--rate",
                "1e-3",
            ],
            "nodes a second a task, a shard would run longer",
        ),
        (
            &["count", "16", "--plan", "--engine", "backtracking"],
            "needs --rate",
        ),
        (
            &["count", "16", "--plan", "--shards", "100001"],
            "at least 1 and at most 100000",
        ),
    ] {
        refuses(args, message);
    }
}

/// A plan draws a share of its shards at random to count again (one in a hundred unless told,
/// rounded up), in arrays of at most `--array-size` tasks that count them into `recount/`, each
/// task picking its shard from its array's list; its merge checks them. A share of 0 draws
/// none.
#[test]
fn a_plan_draws_shards_to_count_again() {
    let plan = json(
        &[
            "count",
            "20",
            "--plan",
            "--rate",
            "1e6",
            "--shards",
            "2345",
            "--array-size",
            "10",
            "--json",
            "--dir",
            "/c",
        ],
        0,
    );
    assert_eq!(plan["recount_share"], 0.01);
    assert_eq!(plan["setup"], "mkdir -p '/c/recount'");
    let drawn: Vec<u64> = serde_json::from_value(plan["recount"].clone()).unwrap();
    assert_eq!(drawn.len(), 24);
    let again = plan["recount_sbatch"].as_array().unwrap();
    assert_eq!(again.len(), 3);
    for (array, (line, shards)) in again.iter().zip(drawn.chunks(10)).enumerate() {
        let line = line.as_str().unwrap();
        let list: Vec<String> = shards.iter().map(u64::to_string).collect();
        for piece in [
            format!("--array=0-{} --requeue --gres=gpu:1", shards.len() - 1),
            format!("--job-name=queens-20-recount-{}", array * 10),
            format!(
                "--wrap='set -- {}; shift $SLURM_ARRAY_TASK_ID; exec ",
                list.join(" ")
            ),
            "--shard $1/2345 --dir '\\''/c/recount'\\''".to_owned(),
        ] {
            assert!(line.contains(&piece), "{piece}: {line}");
        }
    }
    assert!(
        plan["merge"]
            .as_str()
            .unwrap()
            .ends_with(" '/c/shard-*-of-2345.json' --recount '/c/recount/shard-*-of-2345.json'"),
        "{plan}"
    );
    // None with a share of 0: no recount lines, and a merge without --recount.
    let no_share = [
        "count",
        "16",
        "--plan",
        "--rate",
        "1e9",
        "--recount-share",
        "0",
    ];
    let none = json(&[&no_share[..], &["--json", "--dir", "/c"]].concat(), 0);
    assert_eq!(none["recount"], serde_json::json!([]));
    assert_eq!(none["recount_sbatch"], serde_json::json!([]));
    assert_eq!(none["setup"], "mkdir -p '/c'");
    assert!(
        !none["merge"].as_str().unwrap().contains("--recount"),
        "{none}"
    );
    let text = run(&no_share, 0);
    assert!(!text.contains("drawn at random"), "{text}");
}

/// A recount share out of 0 to 1, or without --plan, is refused in the check's words.
#[test]
fn a_recount_share_out_of_its_range_is_refused() {
    for (args, message) in [
        (
            &["count", "16", "--plan", "--recount-share", "2"][..],
            "--recount-share must be a share from 0 to 1, got 2",
        ),
        (
            &["count", "16", "--plan", "--recount-share", "-0.5"],
            "--recount-share must be a share from 0 to 1, got -0.5",
        ),
        (
            &["count", "16", "--plan", "--recount-share", "NaN"],
            "--recount-share must be a share from 0 to 1, got NaN",
        ),
        (
            &["count", "16", "--plan", "--recount-share", "half"],
            "--recount-share must be a share from 0 to 1, got 'half'",
        ),
        (&["count", "16", "--recount-share", "0.1"], "--plan"),
    ] {
        refuses(args, message);
    }
}

/// A job script is text, so a `--dir` that is not UTF-8 is refused by name, by the plan and by
/// `--slurm` alike, where a lossy copy of it would send every task's report somewhere else.
#[cfg(unix)]
#[test]
fn a_cluster_directory_a_script_cannot_name_is_refused() {
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("not-utf8").join(std::ffi::OsStr::from_bytes(b"q\xff"));
    for way in [&["--plan"][..], &["--slurm", "--shards", "2"]] {
        let assert = queens()
            .args(["count", "10"])
            .args(way)
            .arg("--dir")
            .arg(&dir)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "is not UTF-8; choose another --dir",
            ));
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert_eq!(stderr.lines().count(), 1, "{way:?}: {stderr}");
        assert!(!dir.exists(), "{way:?} made the directory");
    }
}

/// Shard reports merged by a pattern in quotes, as a count of 100,000 shards must be (no shell
/// passes that many names); a pattern that matches nothing is an error.
#[test]
fn merge_expands_a_pattern_of_reports() {
    let dir = scratch("merge-pattern");
    let dir_name = dir.to_str().unwrap();
    for i in 0..3 {
        run(
            &[
                "count",
                "10",
                "--shard",
                &format!("{i}/3"),
                "--dir",
                dir_name,
            ],
            0,
        );
    }
    let pattern = dir.join("shard-*-of-3.json");
    let merged = json(&["merge", "--json", pattern.to_str().unwrap()], 0);
    assert_eq!(merged["shards"], 3);
    assert_eq!(
        (
            merged["total"].as_u64().unwrap(),
            merged["unique"].as_u64().unwrap()
        ),
        reference(10)
    );
    let nothing = dir.join("shard-*-of-4.json");
    refuses(&["merge", nothing.to_str().unwrap()], "no file matches");
}

/// Blocked squares on a board larger than the completion search takes are refused at once
/// when no solver is named (no solver would end), and searched when one is.
#[test]
fn blocked_squares_beyond_the_completion_search_need_a_named_solver() {
    refuses(
        &["solve", "2000", "--block", "a1"],
        "no solver takes blocked squares on a 2000×2000 board by itself",
    );
    let doc = json(&["solve", "1024", "--block", "a1", "--format", "json"], 0);
    assert_eq!(doc["solver"], "completion");
}

/// `--seed` is refused with the shared file's sentences, the flag named as the command line
/// names it, on `solve` and `experiment` alike.
#[test]
fn seeds_are_refused_in_the_shared_sentences() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../queens-api/tests/documents/refusals.json"
    );
    let shared: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for case in shared["seeds"]["refused"].as_array().unwrap() {
        let seed = case["seed"].as_str().unwrap();
        let sentence = case["sentence"]
            .as_str()
            .unwrap()
            .replacen("seed", "--seed", 1);
        let flag = format!("--seed={seed}");
        refuses(&["solve", "8", &flag], &sentence);
        refuses(&["experiment", &flag], &sentence);
    }
}

/// `-h` fits a screen: at 80 columns every command's short help is at most 40 lines, none
/// wider than the terminal; `--help` has the detail, and COLUMNS=0 is taken for no width.
#[test]
fn short_help_fits_a_screen_at_80_columns() {
    for command in std::iter::once("").chain(COMMANDS) {
        let help = |flag: &str| {
            let output = queens()
                .args(command.split_whitespace())
                .arg(flag)
                .env("COLUMNS", "80")
                .output()
                .unwrap();
            assert_eq!(output.status.code(), Some(0), "{command} {flag}");
            String::from_utf8(output.stdout).unwrap()
        };
        let short = help("-h");
        let lines = short.lines().count();
        assert!(lines <= 40, "queens {command} -h: {lines} lines\n{short}");
        for line in short.lines() {
            assert!(
                line.chars().count() <= 80,
                "queens {command} -h: a line of {}: {line}",
                line.chars().count()
            );
        }
        let long = help("--help");
        assert!(
            long.lines().count() >= lines,
            "queens {command}: --help is shorter than -h"
        );
        // COLUMNS=0 is no terminal's width: the help is as wide as where COLUMNS is unset,
        // where it was a word a line.
        let at = |columns: Option<&str>| {
            let mut queens = queens();
            queens.args(command.split_whitespace()).arg("--help");
            match columns {
                Some(columns) => queens.env("COLUMNS", columns),
                None => queens.env_remove("COLUMNS"),
            };
            String::from_utf8(queens.output().unwrap().stdout).unwrap()
        };
        assert_eq!(
            at(Some("0")),
            at(None),
            "queens {command} --help at COLUMNS=0"
        );
    }
}

/// `queens completions SHELL` writes a script that names every command and flag, in the
/// shell's syntax (bash's is checked by `bash -n` where bash is found).
#[test]
fn completions_name_every_command_in_each_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let output = queens().args(["completions", shell]).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{shell}");
        let script = String::from_utf8(output.stdout).unwrap();
        for word in [
            "solve",
            "count",
            "configure",
            "max-estimate",
            "on-save-failure",
        ] {
            assert!(script.contains(word), "{shell} completions lack {word}");
        }
        if shell == "bash" {
            let Ok(mut bash) = std::process::Command::new("bash")
                .arg("-n")
                .stdin(std::process::Stdio::piped())
                .spawn()
            else {
                continue;
            };
            let mut input = bash.stdin.take().unwrap();
            std::io::Write::write_all(&mut input, script.as_bytes()).unwrap();
            drop(input);
            assert!(bash.wait().unwrap().success(), "bash -n refuses the script");
        }
    }
    refuses(&["completions", "tcsh"], "invalid value 'tcsh'");
}

/// `queens man` writes the manual page of queens, `queens man count` the page of one command;
/// an unknown command is refused with the list of pages.
#[test]
fn man_pages_are_written_for_queens_and_each_command() {
    let page = run(&["man"], 0);
    assert!(page.contains(".TH queens 1"), "{page}");
    for command in ["solve", "count", "configure", "completions"] {
        assert!(page.contains(command), "the page lists {command}");
    }
    let count = run(&["man", "count"], 0);
    assert!(count.contains(".TH queens-count 1"), "{count}");
    assert!(count.contains("max\\-estimate"), "{count}");
    refuses(
        &["man", "nope"],
        "no command 'nope': the manual has pages for challenge",
    );
}

/// Times and rates in the JSON documents are rounded to what they mean: milliseconds to the
/// microsecond, a success rate to a millionth, as printed (no `0.058338999999999995`).
#[test]
fn json_figures_are_rounded_to_what_they_mean() {
    let decimals = |number: &str| {
        number
            .split_once('.')
            .map_or(0, |(_, fraction)| fraction.len())
    };
    let figures = |text: &str, field: &str| -> Vec<String> {
        text.match_indices(&format!("\"{field}\":"))
            .map(|(at, found)| {
                text[at + found.len()..]
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == 'e' || *c == '-')
                    .collect()
            })
            .collect()
    };
    let solve = run(&["solve", "9", "--solver", "min-conflicts", "--json"], 0);
    let count = run(&["count", "9", "--json"], 0);
    let experiment = run(
        &[
            "experiment",
            "6",
            "--solver",
            "hill-climbing",
            "--runs",
            "7",
            "--json",
        ],
        0,
    );
    for (text, field, most) in [
        (&solve, "elapsed_ms", 3),
        (&count, "elapsed_ms", 3),
        (&experiment, "median_ms", 3),
        (&experiment, "success_rate", 6),
        (&experiment, "mean_iterations", 6),
    ] {
        let found = figures(text, field);
        assert!(!found.is_empty(), "{field} in {text}");
        for number in found {
            assert!(decimals(&number) <= most, "{field}: {number}");
        }
    }
}

/// A board too large to read is summarised on a terminal, with a sentence saying how to get
/// its rows; to a pipe, or when asked for, the rows are written. (`script` gives the command
/// a terminal.)
#[cfg(unix)]
#[test]
fn a_large_board_is_summarised_on_a_terminal() {
    let binary = assert_cmd::cargo::cargo_bin("queens");
    let on_a_terminal = |args: &str| {
        let output = std::process::Command::new("script")
            .args(["-qec", &format!("{} {args}", binary.display()), "/dev/null"])
            .output()
            .expect("script (util-linux) runs a command on a terminal");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let summarised = on_a_terminal("solve 5000");
    assert!(
        summarised.contains("n=5000 solver=construct solved=true"),
        "{summarised}"
    );
    assert!(
        summarised.contains("add -o FILE, pipe them"),
        "{summarised}"
    );
    assert!(summarised.len() < 1000, "{} bytes", summarised.len());
    let asked = on_a_terminal("solve 5000 --format perm");
    assert!(asked.len() > 20_000, "{} bytes", asked.len());
    let piped = run(&["solve", "5000"], 0);
    assert_eq!(piped.split_whitespace().count(), 5000);
}
