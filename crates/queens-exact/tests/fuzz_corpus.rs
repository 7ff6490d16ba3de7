//! The shard fuzzer's corpus (`fuzz/corpus/shards`) as a regression test: checkpoints and sets
//! of shard reports, each refused or merged without a panic.

#[path = "../../../fuzz/corpus_files.rs"]
mod corpus_files;

use queens_exact::count::shard::{ShardReport, merge};
use queens_exact::count::{CountPlan, Shard, checkpoint};

use corpus_files::corpus;

#[test]
fn the_shards_corpus() {
    for input in corpus("shards") {
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
}
