//! The compact document says what the whole one says: a status symbol per square, the counts
//! when exact, and the reasons of every square on small boards or of the squares asked for on
//! large ones, each the same reason the whole document gives.

use queens_configurator::{Analysis, Configurator, Engine, Position, Status};
use queens_core::{Budget, Square};

fn analyse(n: u32, queens: &[Square]) -> Analysis {
    let position = Position::new(n, queens.iter().copied()).unwrap();
    Configurator::new()
        .analyse(&position, Engine::Auto, &Budget::unlimited())
        .unwrap()
}

/// The compact document as JSON, read back.
fn compact_json(analysis: &Analysis, asked: &[Square]) -> serde_json::Value {
    serde_json::to_value(analysis.compact(asked)).unwrap()
}

fn status_of(document: &serde_json::Value, index: usize) -> String {
    let symbol = document["statuses"]
        .as_str()
        .unwrap()
        .chars()
        .nth(index)
        .unwrap();
    document["legend"][symbol.to_string()]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn a_small_board_carries_every_status_count_and_reason() {
    let analysis = analyse(8, &[Square::new(0, 3), Square::new(1, 5)]);
    let full = serde_json::to_value(&analysis).unwrap();
    let compact = compact_json(&analysis, &[]);
    assert_eq!(compact["all_reasons"], true);
    assert_eq!(compact["statuses"].as_str().unwrap().chars().count(), 64);
    for (index, cell) in full["cells"].as_array().unwrap().iter().enumerate() {
        assert_eq!(status_of(&compact, index), cell["status"], "square {index}");
        assert_eq!(
            compact["counts"][index], cell["completions"],
            "square {index}"
        );
        let reason = &compact["reasons"][index.to_string()];
        match cell.get("reason") {
            Some(expected) => assert_eq!(reason, expected, "square {index}"),
            None => assert!(reason.is_null(), "square {index}"),
        }
    }
    for field in [
        "n",
        "solvable",
        "queens",
        "forced",
        "completions",
        "engine",
        "nodes",
    ] {
        assert_eq!(compact[field], full[field], "{field}");
    }
    assert!(analysis.count(Status::Attacked) > 0);
}

#[test]
fn a_large_board_carries_the_reasons_asked_for_in_a_few_bytes() {
    let n = 200;
    let analysis = analyse(n, &[Square::new(0, 3)]);
    let attacked = Square::new(0, 150);
    let open = Square::new(100, 100);
    let compact = compact_json(&analysis, &[attacked, open, Square::new(n, 0)]);
    assert_eq!(compact["all_reasons"], false);
    let reasons = compact["reasons"].as_object().unwrap();
    assert_eq!(
        reasons.len(),
        1,
        "only the attacked square asked has a reason"
    );
    let index = (attacked.row * n + attacked.col) as usize;
    assert_eq!(
        reasons[&index.to_string()]["text"],
        "attacked by the queen on r1c4 along its row"
    );
    assert_eq!(status_of(&compact, index), "attacked");
    let bytes = serde_json::to_vec(&analysis.compact(&[])).unwrap().len();
    let whole = serde_json::to_vec(&analysis).unwrap().len();
    assert!(bytes <= 200_000, "{bytes} bytes");
    assert!(bytes * 10 < whole, "{bytes} bytes against {whole}");
}
