//! The shard fuzzer's corpus (`fuzz/corpus/shards`) as a regression test: checkpoints and sets
//! of shard reports, each refused or merged without a panic.

use std::path::Path;

use queens_exact::count::shard::{ShardReport, merge};
use queens_exact::count::{CountPlan, Shard, checkpoint};

#[test]
fn the_shards_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/shards");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let input = std::fs::read(entry.unwrap().path()).unwrap();
        seen += 1;
        let Some((&selector, rest)) = input.split_first() else {
            continue;
        };
        let Ok(text) = std::str::from_utf8(rest) else {
            continue;
        };
        let plan = CountPlan::new(u32::from(selector % 10) + 1).unwrap();
        let shard = Shard::new(u32::from(selector >> 6), 4).unwrap();
        let _ = checkpoint::parse(text, "corpus.json", &plan, shard);
        let reports: Vec<(String, ShardReport)> = text
            .lines()
            .take(16)
            .filter_map(|line| serde_json::from_str(line).ok())
            .enumerate()
            .map(|(i, report)| (format!("{i}.json"), report))
            .collect();
        if let Ok(merged) = merge(&reports) {
            assert!(merged.unique <= merged.total);
        }
    }
    assert!(seen > 0, "{} is empty", dir.display());
}
