//! The front ends — the command line, the server and Python — reach the engines through
//! `queens-api` alone: none of their manifests lists an engine crate, and none of their Rust
//! files names one.

use std::path::{Path, PathBuf};

/// The crates behind the front door.
const ENGINES: [&str; 6] = [
    "queens-exact",
    "queens-heuristic",
    "queens-configurator",
    "queens-lab",
    "queens-gpu",
    "queens-solvers",
];

/// The front ends.
const FRONT_ENDS: [&str; 3] = ["queens-cli", "queens-web", "queens-py"];

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/")
        .to_path_buf()
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("a readable entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|name| name != "target") {
                rust_files(&path, found);
            }
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn no_front_end_depends_on_an_engine_crate() {
    for front_end in FRONT_ENDS {
        let manifest = crates_dir().join(front_end).join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest).expect("the manifest");
        for line in text.lines() {
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
            assert!(
                !ENGINES.contains(&name),
                "{} depends on {name}: reach it through queens-api",
                manifest.display()
            );
        }
    }
}

#[test]
fn no_front_end_file_names_an_engine_crate() {
    let mut checked = 0;
    for front_end in FRONT_ENDS {
        let mut files = Vec::new();
        rust_files(&crates_dir().join(front_end), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a source file");
            for engine in ENGINES {
                let path = engine.replace('-', "_");
                assert!(
                    !text.contains(&format!("{path}::")) && !text.contains(&format!("use {path}")),
                    "{} names {path}: reach it through queens-api",
                    file.display()
                );
            }
            checked += 1;
        }
    }
    assert!(
        checked > 40,
        "only {checked} files found: the walk is wrong"
    );
}

/// The refusals every front end gives in the same words (crates/queens-api/tests/documents).
fn shared_refusals() -> serde_json::Value {
    let path = crates_dir().join("queens-api/tests/documents/refusals.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("the file")).expect("JSON")
}

/// Each refusal of a board size is one sentence, the one the shared file gives, which the
/// server's, Python's and the page's tests hold their front ends to as well.
#[test]
fn board_sizes_are_refused_in_the_shared_sentences() {
    let sizes = &shared_refusals()["sizes"];
    let most = sizes["most"].as_u64().expect("most") as u32;
    for case in sizes["refused"].as_array().expect("refused") {
        let size = case["size"].as_str().expect("size");
        let refusal = queens_api::request::parse_size_up_to(size, most).expect_err(size);
        assert_eq!(refusal.to_string(), case["sentence"], "{size}");
    }
}

/// Each refusal of a solver's parameter value is one sentence, the shared file's.
#[test]
fn parameter_values_are_refused_in_the_shared_sentences() {
    let parameters = &shared_refusals()["parameters"];
    let declared: Vec<queens_core::Parameter> = parameters["declared"]
        .as_array()
        .expect("declared")
        .iter()
        .map(|p| queens_core::Parameter {
            name: String::leak(p["name"].as_str().expect("name").to_owned()),
            default: p["min"].as_f64().expect("min"),
            min: p["min"].as_f64().expect("min"),
            max: p["max"].as_f64().expect("max"),
            integer: p["integer"].as_bool().expect("integer"),
            doc: "",
        })
        .collect();
    for case in parameters["refused"].as_array().expect("refused") {
        let (name, value) = (
            case["name"].as_str().unwrap(),
            case["value"].as_str().unwrap(),
        );
        let parameter = declared.iter().find(|p| p.name == name).expect(name);
        let refusal = queens_core::parameters::parse_value(name, value)
            .and_then(|number| parameter.check(number))
            .expect_err(value);
        assert_eq!(refusal.to_string(), case["sentence"], "{name}={value}");
    }
}

/// Each refusal of a list of squares is one sentence, the shared file's: a slip or a word the
/// notation does not read, then a square off the board.
#[test]
fn square_lists_are_refused_in_the_shared_sentences() {
    let squares = &shared_refusals()["squares"];
    let rows = squares["rows"].as_u64().expect("rows") as u32;
    let cols = squares["cols"].as_u64().expect("cols") as u32;
    for case in squares["refused"].as_array().expect("refused") {
        let list = case["list"].as_str().expect("list");
        let refusal = match queens_core::notation::parse_squares(list) {
            Err(unread) => unread.to_string(),
            Ok(read) => queens_core::Problem::rectangular(rows, cols)
                .and_then(|problem| problem.with_fixed(read))
                .expect_err(list)
                .to_string(),
        };
        assert_eq!(refusal, case["sentence"], "{list}");
    }
}

/// Every request carries its bounds and checks them alike: a time limit that is not a positive
/// number is refused by a solve, a count, a count of completions and an analysis with one
/// sentence, and each refuses the bound it has no use for.
#[test]
fn every_request_checks_its_bounds_alike() {
    use queens_api::bounds::Bounds;
    use queens_api::completions::{CompletionsRequest, CompletionsSpec};
    use queens_api::configure::{ConfigureRequest, ConfigureSpec};
    use queens_api::count::{CountRequest, CountSpec};
    use queens_api::{Catalogue, SolveRequest, SolveSpec, Worded, Words};

    let refusals = |bounds: Bounds| -> [Option<String>; 4] {
        let worded = |error: &dyn Worded| Some(error.worded(Words::CommandLine));
        let solve = SolveRequest::new(
            Catalogue::standard(),
            SolveSpec {
                bounds,
                ..SolveSpec::square(8)
            },
        );
        let count = CountRequest::new(&CountSpec {
            bounds,
            ..CountSpec::new(8)
        });
        let completions = CompletionsRequest::new(CompletionsSpec {
            n: 8,
            bounds,
            ..CompletionsSpec::default()
        });
        let configure = ConfigureRequest::new(&ConfigureSpec {
            bounds,
            ..ConfigureSpec::new(8)
        });
        [
            solve.err().and_then(|error| worded(&error)),
            count.err().and_then(|error| worded(&error)),
            completions.err().and_then(|error| worded(&error)),
            configure.err().and_then(|error| worded(&error)),
        ]
    };
    for seconds in [0.0, -2.0, f64::NAN] {
        let said = refusals(Bounds::default().with_time_limit(seconds));
        for refusal in &said {
            assert_eq!(
                refusal.as_deref(),
                Some(
                    format!("--time-limit must be a positive number of seconds, got {seconds}")
                        .as_str()
                )
            );
        }
    }
    let [solve, count, completions, configure] = refusals(Bounds::default().with_threads(2));
    assert_eq!(
        solve.as_deref(),
        Some("--threads is for counts, not solves")
    );
    assert_eq!(
        configure.as_deref(),
        Some("--threads is for counts, not analyses")
    );
    assert_eq!((count, completions), (None, None));
    let [solve, count, completions, configure] = refusals(Bounds::default().with_max_nodes(5));
    assert_eq!((solve, configure), (None, None));
    for refusal in [count, completions] {
        assert_eq!(
            refusal.as_deref(),
            Some("--max-nodes is for solves and analyses, not counts")
        );
    }
}

/// A request's budget runs its own time limit: a count of N = 16 on one thread given 0.2 s
/// stops, keeping what its finished parts hold.
#[test]
fn a_request_budget_stops_the_run_at_its_time_limit() {
    use queens_api::bounds::Bounds;
    use queens_api::count::{CountRequest, CountSpec, Engine, EngineChoice};

    let request = CountRequest::new(&CountSpec {
        engine: EngineChoice::Named(Engine::Backtracking),
        bounds: Bounds::default().with_time_limit(0.2).with_threads(1),
        ..CountSpec::new(16)
    })
    .unwrap();
    let started = std::time::Instant::now();
    let budget = request.bounds().budget(queens_core::CancelToken::new());
    let result = request.job().run(&budget, |_, _| {}).unwrap();
    assert!(!result.is_complete());
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

/// Each refusal of a seed is one sentence, the shared file's, and the seeds it takes are read.
#[test]
fn seeds_are_refused_in_the_shared_sentences() {
    let seeds = &shared_refusals()["seeds"];
    for case in seeds["refused"].as_array().expect("refused") {
        let seed = case["seed"].as_str().expect("seed");
        let refusal = queens_api::request::parse_whole(seed, "seed", 0, u64::MAX).expect_err(seed);
        assert_eq!(refusal.to_string(), case["sentence"], "{seed}");
    }
    for seed in seeds["taken"].as_array().expect("taken") {
        let seed = seed.as_str().expect("seed");
        let value = queens_api::request::parse_whole(seed, "seed", 0, u64::MAX).expect(seed);
        assert_eq!(Ok(value), seed.parse::<u64>(), "{seed}");
    }
}

/// A computation that takes fewer sides than a board holds: its limit, and its library's own
/// check of a side it is handed.
struct Computation {
    name: &'static str,
    sides: queens_core::side::SideLimit,
    library: fn(u32) -> Result<(), String>,
}

/// The library's check of the completions of an N×N board counted by `method`.
fn completions_of(method: queens_api::completions::Method, n: u32) -> Result<(), String> {
    use queens_api::completions::{CompletionsRequest, CompletionsSpec, Method};
    use queens_api::count::{Engine, EngineChoice};
    let engine = match method {
        Method::Search => EngineChoice::Auto,
        Method::RowByRow => EngineChoice::Named(Engine::Backtracking),
    };
    CompletionsRequest::new(CompletionsSpec {
        n,
        engine,
        ..CompletionsSpec::default()
    })
    .map(|_| ())
    .map_err(|error| error.to_string())
}

/// Every computation with a limit of its own on the board side.
fn limited_computations() -> [Computation; 5] {
    use queens_api::completions::{self, Method};
    [
        Computation {
            name: "count",
            sides: queens_api::count::SIDES,
            library: |n| {
                queens_api::count::CountPlan::new(n)
                    .map(|_| ())
                    .map_err(|error| error.to_string())
            },
        },
        Computation {
            name: "challenge",
            sides: queens_api::challenge::SIDES,
            library: |n| {
                queens_api::challenge::Challenge {
                    n,
                    solvers: queens_api::Catalogue::standard().tree_searches(),
                    max_nodes: None,
                }
                .check()
                .map_err(|error| error.to_string())
            },
        },
        Computation {
            name: "configure",
            sides: queens_api::configure::SIDES,
            library: |n| {
                queens_api::configure::Position::empty(n)
                    .map(|_| ())
                    .map_err(|error| error.to_string())
            },
        },
        Computation {
            name: "completions",
            sides: completions::sides(Method::Search),
            library: |n| completions_of(Method::Search, n),
        },
        Computation {
            name: "completions row by row",
            sides: completions::sides(Method::RowByRow),
            library: |n| completions_of(Method::RowByRow, n),
        },
    ]
}

/// Every computation that takes fewer sides than a board holds refuses a larger side read from
/// text in the sentence its library gives for a side it is handed, whether the side is just
/// past its limit, past 2³²−1 (which no board type holds) or past any machine number; never in
/// the board type's words ("at most 4294967295") or as "not a number".
#[test]
fn a_side_past_a_computations_limit_is_refused_in_its_words_however_large() {
    use queens_api::request::{SizeError, parse_side_for, parse_size_for};

    let beyond_any_number = "9".repeat(60);
    for Computation {
        name,
        sides,
        library,
    } in limited_computations()
    {
        let most = sides.most();
        assert!(most < u32::MAX, "{name}");
        assert_eq!(library(most), Ok(()), "{name} takes its largest side");
        assert_eq!(parse_side_for(&most.to_string(), sides), Ok(most), "{name}");
        let just_past = (most + 1).to_string();
        let library_says = library(most + 1).expect_err(name);
        assert_eq!(
            library_says,
            sides.refusal(&just_past),
            "{name}: one sentence"
        );
        for text in [
            just_past.as_str(),
            "4294967296",
            "5000000000",
            &beyond_any_number,
        ] {
            let read = parse_side_for(text, sides).expect_err(text);
            let said = read.to_string();
            assert!(
                matches!(read, SizeError::Refused(_)),
                "{name} {text}: {said}"
            );
            let shown = queens_core::error::excerpt(text);
            assert_eq!(said, sides.refusal(&shown), "{name} {text}");
            assert!(!said.contains("4294967295"), "{name} {text}: {said}");
            // A size, square or one side of `RxC`, is refused alike.
            let square = parse_size_for(text, sides).expect_err(text).to_string();
            assert_eq!(square, said, "{name} {text}");
            let rectangle = parse_size_for(&format!("{most}x{text}"), sides)
                .expect_err(text)
                .to_string();
            assert_eq!(rectangle, said, "{name} {most}x{text}");
        }
        // What is not a side keeps the sentences every size is refused in.
        for (text, says) in [
            ("0", "N must be at least 1, got 0"),
            ("-7", "N must be at least 1, got -7"),
        ] {
            assert_eq!(
                parse_side_for(text, sides).expect_err(text).to_string(),
                says
            );
        }
    }
    // A computation that takes every board keeps the board type's sentences, `RxC`'s side named.
    let any = queens_core::side::ANY_BOARD;
    assert_eq!(
        parse_side_for("5000000000", any).unwrap_err().to_string(),
        "N must be at most 4294967295, got 5000000000"
    );
    assert_eq!(
        parse_size_for("8x5000000000", any).unwrap_err().to_string(),
        "in board size '8x5000000000': the columns must be at most 4294967295, got 5000000000"
    );
}
