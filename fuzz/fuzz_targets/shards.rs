//! Shard reports and checkpoints as `queens merge` and a resumed count read them: any JSON,
//! any numbers, must be refused or add up without panicking or allocating what they claim.
#![no_main]

use libfuzzer_sys::fuzz_target;
use queens_exact::count::shard::{ShardReport, merge};
use queens_exact::count::{CountPlan, Shard, checkpoint};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let n = u32::from(selector % 10) + 1;
    let plan = CountPlan::new(n).expect("N from 1 to 10");
    let shard = Shard::new(u32::from(selector >> 6), 4).expect("index below 4");
    let _ = checkpoint::parse(text, "fuzz.json", &plan, shard);
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
});
