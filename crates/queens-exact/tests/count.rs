//! The counting engine against the published sequences (OEIS A000170 total, A002562 unique),
//! read from `data/nqueens-counts.tsv`, and the laws of shards and checkpoints.

use queens_core::Budget;

use queens_exact::count::integrity::Contradiction;
use queens_exact::count::shard::{MergeError, ShardReport, merge};
use queens_exact::count::{
    Case, CountError, CountJob, CountPlan, CountRunError, CounterError, Engine, PartCounter,
    PartsToCount, Shard, Subproblem, Tally, Turn, checkpoint, count, count_subproblem,
};

/// (n, total, unique) from the reference table.
fn reference() -> Vec<(u32, u128, u128)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/nqueens-counts.tsv");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            (
                fields[0].parse().unwrap(),
                fields[1].parse().unwrap(),
                fields[2].parse().unwrap(),
            )
        })
        .collect()
}

/// Counts every N that `sizes` accepts with `engine` and compares with OEIS.
fn check_against_reference(engine: Engine, sizes: impl Fn(u32) -> bool) {
    for (n, total, unique) in reference()
        .into_iter()
        .filter(|&(n, ..)| sizes(n) && engine.sizes().contains(&n))
    {
        let plan = CountPlan::with_engine(n, engine).unwrap();
        let result = CountJob::new(plan)
            .run(&Budget::unlimited(), |_, _| {})
            .unwrap();
        let tally = result.tally;
        assert_eq!(
            (tally.total, tally.unique()),
            (total, unique),
            "N = {n}, {engine}"
        );
    }
}

#[test]
fn both_engines_match_oeis_up_to_15() {
    for engine in Engine::ALL {
        check_against_reference(engine, |n| n <= 15);
    }
}

#[test]
fn the_join_matches_oeis_for_16() {
    check_against_reference(Engine::Join, |n| n == 16);
}

/// `cargo test --release -p queens-exact -- --ignored` (about a minute on two cores).
#[test]
#[ignore = "heavy: run in release mode on purpose"]
fn the_join_matches_oeis_for_17_and_18() {
    check_against_reference(Engine::Join, |n| (17..=18).contains(&n));
}

/// Minutes in a debug build: `cargo test --release -p queens-exact -- --ignored`.
#[test]
#[ignore = "heavy: run in release mode on purpose"]
fn backtracking_matches_oeis_for_16_and_17() {
    check_against_reference(Engine::Backtracking, |n| (16..=17).contains(&n));
}

#[test]
fn the_engines_agree_on_every_part_of_their_plans() {
    let eight = count(8).unwrap();
    assert_eq!((eight.total, eight.unique()), (92, 12));
    assert_eq!(CountPlan::new(13).unwrap().engine(), Engine::Backtracking);
    assert_eq!(CountPlan::new(14).unwrap().engine(), Engine::Join);
    assert_ne!(
        CountPlan::with_engine(12, Engine::Join)
            .unwrap()
            .fingerprint(),
        CountPlan::with_engine(12, Engine::Backtracking)
            .unwrap()
            .fingerprint()
    );
    assert_eq!("join".parse::<Engine>(), Ok(Engine::Join));
    assert_eq!("backtracking".parse::<Engine>(), Ok(Engine::Backtracking));
    assert!(
        "magic"
            .parse::<Engine>()
            .unwrap_err()
            .contains("backtracking, join or gpu")
    );
    assert_eq!(
        CountPlan::with_engine(3, Engine::Join).unwrap_err(),
        CountError::EngineSize {
            engine: Engine::Join,
            n: 3
        }
    );
    // The join's unique count comes from Burnside's lemma; its parts are of two kinds.
    let plan = CountPlan::with_engine(13, Engine::Join).unwrap();
    let budget = Budget::unlimited();
    let parts: Vec<Tally> = (0..plan.len())
        .map(|id| plan.count_one(id, &budget).unwrap())
        .collect();
    for (id, part) in parts.iter().enumerate() {
        assert!(plan.plausible(id, part), "part {id}: {part:?}");
        assert!(part.total == 0 || part.fixed == 0, "part {id}: {part:?}");
    }
    assert!(!plan.plausible(
        0,
        &Tally {
            total: 8,
            fixed: 0,
            nodes: 0
        }
    ));
}

/// Above its memory limit a count is refused before it starts; auto then picks backtracking.
#[test]
fn memory_limits_are_checked_before_counting() {
    let plan = CountPlan::with_engine(16, Engine::Join).unwrap();
    let needed = plan.memory_estimate(1);
    let job = CountJob::new(plan)
        .with_threads(1)
        .unwrap()
        .with_memory_limit(needed - 1);
    let error = job.run(&Budget::unlimited(), |_, _| {}).unwrap_err();
    assert!(matches!(error, CountRunError::Memory(_)), "{error}");
    assert!(error.to_string().contains("more than the limit"), "{error}");
    assert_eq!(Engine::for_count(16, needed - 1), Engine::Backtracking);
    assert_eq!(Engine::for_count(16, needed), Engine::Join);
    // The default limit admits the join up to N = 21 on two threads.
    for n in 10..=21 {
        assert!(
            Engine::Join.memory_estimate(n, 2) <= queens_exact::count::DEFAULT_MEMORY_LIMIT,
            "N = {n}"
        );
    }
}

#[test]
fn sizes_beyond_the_kernel_are_errors() {
    assert_eq!(CountPlan::new(0).unwrap_err(), CountError::Size(0));
    assert_eq!(CountPlan::new(33).unwrap_err(), CountError::Size(33));
    assert!(CountPlan::new(32).is_ok());
}

/// Every plan's subproblems fit their board; what a subproblem made by hand can get wrong is
/// caught before a kernel counts it: the board, the case's parameter, a column off the board,
/// two queens that attack, a column the case keeps free, the side columns' deadline, no row
/// left below the prefix.
#[test]
fn subproblems_fit_their_board_and_misfits_made_by_hand_are_caught() {
    for n in 1..=16 {
        let plan = CountPlan::with_engine(n, Engine::Backtracking).unwrap();
        for sub in plan.subproblems() {
            assert!(sub.fits(n), "N = {n}: {sub:?}");
        }
    }
    let part = |case, prefix: &[u32]| Subproblem {
        case,
        prefix: prefix.to_vec(),
    };
    let edge = Case::Edge { b: 2 };
    assert!(part(edge, &[2, 4, 7]).fits(10));
    assert!(part(Case::Single, &[0]).fits(1));
    assert!(part(Case::Turn(Turn::Half), &[]).fits(32));
    // On the 6×6 board with b = 1 the deadline row is 4: a solution's first five rows meet
    // it; rows 0 to 3 of another put one side queen down, and row 4 skips the other.
    assert!(part(Case::Edge { b: 1 }, &[1, 3, 5, 0, 2]).fits(6));
    let misfits = [
        (part(Case::Turn(Turn::Half), &[]), 0, "no board"),
        (
            part(Case::Turn(Turn::Half), &[]),
            33,
            "past the kernel's width",
        ),
        (
            part(Case::Turn(Turn::Half), &[0]),
            8,
            "a turn's search fixes nothing",
        ),
        (part(Case::Single, &[0]), 2, "a 1×1 case on a 2×2 board"),
        (part(Case::Edge { b: 0 }, &[0]), 10, "b of 0"),
        (part(Case::Edge { b: 5 }, &[5]), 10, "b past the middle"),
        (part(Case::Corner { c1: 1 }, &[0, 1]), 10, "c1 of 1"),
        (part(Case::Corner { c1: 10 }, &[0]), 10, "c1 off the board"),
        (part(edge, &[2, 4, 10]), 10, "a column off the board"),
        (part(edge, &[2, 4, 40]), 10, "a column past 32 bits"),
        (part(edge, &[2, 3]), 10, "two queens that attack"),
        (part(edge, &[2, 9]), 10, "a side column above row b"),
        (part(edge, &[3]), 10, "row 0 off column b"),
        (
            part(Case::Edge { b: 1 }, &[1, 3, 5, 2, 4]),
            6,
            "the deadline row",
        ),
        (
            part(Case::Edge { b: 1 }, &[1, 3, 5, 0, 2, 4]),
            6,
            "no row left",
        ),
    ];
    for (sub, n, what) in misfits {
        assert!(!sub.fits(n), "{what}: {sub:?} on {n}×{n}");
    }
}

#[test]
#[should_panic(expected = "not a subproblem of the 10×10 board")]
fn a_kernel_refuses_a_subproblem_that_does_not_fit() {
    let sub = Subproblem {
        case: Case::Edge { b: 2 },
        prefix: vec![2, 4, 40],
    };
    count_subproblem(10, &sub, &Budget::unlimited());
}

fn count_shard(plan: &CountPlan, shard: Shard) -> Tally {
    let mut sum = Tally::default();
    let budget = Budget::unlimited();
    for id in plan.shard_ids(shard) {
        sum += plan.count_one(id, &budget).unwrap();
    }
    sum
}

#[test]
fn shards_of_several_splits_sum_to_the_whole() {
    for engine in Engine::ALL {
        shards_sum_to_the_whole(engine);
    }
}

fn shards_sum_to_the_whole(engine: Engine) {
    let plan = CountPlan::with_engine(11, engine).unwrap();
    let whole = count_shard(&plan, Shard::WHOLE);
    assert_eq!((whole.total, whole.unique()), (2680, 341));
    for shards in [1, 2, 3, 7, 64] {
        let reports: Vec<(String, ShardReport)> = (0..shards)
            .map(|i| {
                let shard = Shard::new(i, shards).unwrap();
                (
                    format!("{i}.json"),
                    ShardReport::new(&plan, shard, count_shard(&plan, shard)),
                )
            })
            .collect();
        let merged = merge(&reports).unwrap();
        assert_eq!(
            (merged.total, merged.unique, merged.nodes),
            (whole.total, whole.unique(), whole.nodes),
            "{shards} shards, {engine}"
        );
    }
}

#[test]
fn merge_rejects_incomplete_duplicated_and_mixed_sets() {
    let eleven = CountPlan::new(11).unwrap();
    let twelve = CountPlan::new(12).unwrap();
    let report = |plan: &CountPlan, i, m| {
        let shard = Shard::new(i, m).unwrap();
        (
            format!("{}-{i}of{m}.json", plan.n()),
            ShardReport::new(plan, shard, Tally::default()),
        )
    };
    assert_eq!(merge(&[]), Err(MergeError::Empty));
    assert!(matches!(
        merge(&[report(&eleven, 0, 3), report(&eleven, 2, 3)]),
        Err(MergeError::Missing { runs, missing: 1, count: 3 }) if runs == vec![(1, 1)]
    ));
    assert!(matches!(
        merge(&[
            report(&eleven, 0, 2),
            report(&eleven, 1, 2),
            report(&eleven, 1, 2)
        ]),
        Err(MergeError::Duplicate { shard: 1, .. })
    ));
    assert!(matches!(
        merge(&[report(&eleven, 0, 2), report(&twelve, 1, 2)]),
        Err(MergeError::Mismatch { what: "N", .. })
    ));
    // The same N counted by the other engine: another split.
    let eleven_joined = CountPlan::with_engine(11, Engine::Join).unwrap();
    assert!(matches!(
        merge(&[report(&eleven, 0, 2), report(&eleven_joined, 1, 2)]),
        Err(MergeError::Mismatch {
            what: "split fingerprint",
            ..
        })
    ));
    assert!(matches!(
        merge(&[report(&eleven, 0, 2), report(&eleven, 1, 3)]),
        Err(MergeError::Mismatch {
            what: "shard count",
            ..
        })
    ));
    let mut forged = report(&eleven, 1, 2);
    forged.1.fingerprint = "0000000000000000".into();
    assert!(matches!(
        merge(&[report(&eleven, 0, 2), forged]),
        Err(MergeError::Mismatch {
            what: "split fingerprint",
            ..
        })
    ));
}

/// Reports that are damaged, edited, implausible, overflowing or contradict OEIS are refused;
/// a report claiming billions of shards allocates nothing.
#[test]
fn merge_refuses_forged_reports() {
    let eight = CountPlan::new(8).unwrap();
    let honest = |i, m| {
        let shard = Shard::new(i, m).unwrap();
        (
            format!("{i}of{m}.json"),
            ShardReport::new(&eight, shard, count_shard(&eight, shard)),
        )
    };
    let whole = merge(&[honest(0, 2), honest(1, 2)]).unwrap();
    assert_eq!((whole.total, whole.unique), (92, 12));

    // Edited numbers: the checksum no longer matches.
    let mut edited = honest(1, 2);
    edited.1.total += 8;
    assert!(matches!(
        merge(&[honest(0, 2), edited]),
        Err(MergeError::Damaged { .. })
    ));
    // Recomputed checksums: numbers no count gives, sums that overflow, totals against OEIS.
    let forged = |total, fixed| {
        let shard = Shard::new(1, 2).unwrap();
        let tally = Tally {
            total,
            fixed,
            nodes: 0,
        };
        (
            "forged.json".to_owned(),
            ShardReport::new(&eight, shard, tally),
        )
    };
    assert!(matches!(
        merge(&[honest(0, 2), forged(100, 3)]),
        Err(MergeError::Implausible { .. })
    ));
    assert!(matches!(
        merge(&[forged(u128::MAX - 7, u128::MAX / 8), {
            let mut other = forged(u128::MAX - 7, u128::MAX / 8);
            other.1 = ShardReport::new(&eight, Shard::new(0, 2).unwrap(), other.1.tally());
            other
        }]),
        Err(MergeError::Overflow { .. })
    ));
    // One more class of eight: a plausible sum that OEIS contradicts.
    let true_half = honest(1, 2).1.tally();
    assert!(matches!(
        merge(&[honest(0, 2), forged(true_half.total + 8, true_half.fixed)]),
        Err(MergeError::Contradicts(Contradiction { n: 8, .. }))
    ));
    // A claim of four billion shards is checked against the files given, not allocated.
    let huge = Shard::new(0, u32::MAX).unwrap();
    let claim = (
        "huge.json".to_owned(),
        ShardReport::new(&eight, huge, Tally::default()),
    );
    assert!(matches!(
        merge(&[claim]),
        Err(MergeError::Missing { ref runs, missing, .. })
            if missing == u32::MAX as usize - 1 && *runs == vec![(1, u32::MAX - 1)]
    ));
}

/// A checkpoint that is damaged, lists a subproblem twice, holds impossible numbers, or whose
/// totals (checksum recomputed) contradict OEIS is refused; a second count on the same
/// checkpoint refuses while the first runs.
#[test]
fn checkpoints_refuse_forgery_and_a_second_writer() {
    use queens_exact::count::CountJob;

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("count.json");
    let plan = CountPlan::new(9).unwrap();
    let budget = Budget::unlimited();
    let mut progress = checkpoint::Progress::default();
    for id in 0..3 {
        progress.record(id, plan.count_one(id, &budget).unwrap());
    }
    checkpoint::save(&path, &plan, Shard::WHOLE, &progress).unwrap();
    let saved = std::fs::read_to_string(&path).unwrap();
    let mut document: serde_json::Value = serde_json::from_str(&saved).unwrap();

    // An edited total: the checksum tells.
    let mut edited = document.clone();
    edited["done"][0]["total"] =
        serde_json::json!(edited["done"][0]["total"].as_u64().unwrap() + 8);
    std::fs::write(&path, edited.to_string()).unwrap();
    let error = checkpoint::load(&path, &plan, Shard::WHOLE)
        .unwrap_err()
        .to_string();
    assert!(error.contains("checksum"), "{error}");

    // A subproblem listed twice, even with a fitting checksum.
    let entries = document["done"].as_array_mut().unwrap();
    entries.push(entries[0].clone());
    let mut twice = checkpoint::Progress::default();
    twice.record(0, plan.count_one(0, &budget).unwrap());
    std::fs::write(&path, document.to_string()).unwrap();
    assert!(checkpoint::load(&path, &plan, Shard::WHOLE).is_err());

    // Plausible but wrong numbers with a recomputed checksum: the finished count contradicts
    // OEIS and is refused, never printed.
    let mut wrong = checkpoint::Progress::default();
    wrong.record(
        0,
        Tally {
            total: 8_000,
            fixed: 0,
            nodes: 1,
        },
    );
    checkpoint::save(&path, &plan, Shard::WHOLE, &wrong).unwrap();
    let job = CountJob::new(plan.clone())
        .with_checkpoint(path.clone(), std::time::Duration::from_secs(60));
    assert!(matches!(
        job.run(&budget, |_, _| {}),
        Err(CountRunError::Contradicts {
            contradiction: Contradiction { n: 9, .. },
            resumed: true,
        })
    ));

    // While one count holds the checkpoint, another refuses.
    std::fs::remove_file(&path).unwrap();
    let held = checkpoint::Lock::take(&path).unwrap();
    let second = CountJob::new(plan.clone())
        .with_checkpoint(path.clone(), std::time::Duration::from_secs(60));
    let error = second.run(&budget, |_, _| {}).unwrap_err().to_string();
    assert!(error.contains("in use by another count"), "{error}");
    drop(held);
    let result = second.run(&budget, |_, _| {}).unwrap();
    assert_eq!((result.tally.total, result.tally.unique()), (352, 46));
}

#[test]
fn shard_text_is_checked() {
    assert_eq!("3/8".parse::<Shard>().unwrap(), Shard::new(3, 8).unwrap());
    for bad in ["8/8", "1/0", "3", "a/b", "-1/4", ""] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
}

#[test]
fn checkpoints_resume_without_loss_or_double_counting() {
    for engine in Engine::ALL {
        checkpoint_round_trip(engine);
    }
}

fn checkpoint_round_trip(engine: Engine) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("count.json");
    let plan = CountPlan::with_engine(10, engine).unwrap();
    let shard = Shard::WHOLE;
    let budget = Budget::unlimited();
    let ids = plan.shard_ids(shard);

    // A first run finishes every third subproblem, then "dies".
    let mut progress = checkpoint::load(&path, &plan, shard).unwrap();
    assert!(progress.is_empty(), "no file yet");
    for &id in ids.iter().step_by(3) {
        progress.record(id, plan.count_one(id, &budget).unwrap());
    }
    checkpoint::save(&path, &plan, shard, &progress).unwrap();

    // The resumed run skips what is done and finishes the rest.
    let mut resumed = checkpoint::load(&path, &plan, shard).unwrap();
    assert_eq!(resumed.len(), progress.len());
    for &id in &ids {
        if !resumed.is_done(id) {
            resumed.record(id, plan.count_one(id, &budget).unwrap());
        }
    }
    let sum = resumed.sum();
    assert_eq!((sum.total, sum.unique()), (724, 92));
    assert_eq!(sum, count_shard(&plan, shard));

    // A checkpoint of another count (another N, another engine's split) is refused, not
    // merged; backtracking's and the GPU's are one split, so either resumes the other's.
    let another_count = |plan: &CountPlan| {
        let error = checkpoint::load(&path, plan, shard)
            .unwrap_err()
            .to_string();
        assert!(error.contains("belongs to another count"), "{error}");
    };
    another_count(&CountPlan::with_engine(9, engine).unwrap());
    // Too large for a checkpoint of the smaller board at all: said so, and whose it may be.
    let small = CountPlan::with_engine(4, engine).unwrap();
    let larger = std::fs::read_to_string(&path).unwrap() + &" ".repeat(1 << 16);
    let oversized = dir.path().join("oversized.json");
    std::fs::write(&oversized, larger).unwrap();
    let error = checkpoint::load(&oversized, &small, shard)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("more than any checkpoint of this count (N = 4")
            && error.contains("belongs to another count, or is not a checkpoint"),
        "{error}"
    );
    let (other_split, same_split) = match engine {
        Engine::Join => (Engine::Backtracking, None),
        Engine::Backtracking => (Engine::Join, Some(Engine::Gpu)),
        Engine::Gpu => (Engine::Join, Some(Engine::Backtracking)),
    };
    another_count(&CountPlan::with_engine(10, other_split).unwrap());
    if let Some(same_split) = same_split {
        let same = CountPlan::with_engine(10, same_split).unwrap();
        assert_eq!(
            checkpoint::load(&path, &same, shard).unwrap().len(),
            progress.len()
        );
    }
    assert!(checkpoint::load(&path, &plan, Shard::new(0, 2).unwrap()).is_err());
    std::fs::write(&path, "not json").unwrap();
    assert!(checkpoint::load(&path, &plan, shard).is_err());
}

#[test]
fn a_cancelled_subproblem_reports_nothing() {
    let plan = CountPlan::with_engine(18, Engine::Backtracking).unwrap();
    let cancelled = Budget::unlimited();
    cancelled.token().cancel();
    // The largest subproblems of N = 18 run well past the first cancel poll.
    let stopped = (0..plan.len()).any(|id| plan.count_one(id, &cancelled).is_none());
    assert!(stopped);
    // A join piece reads the budget before every row set.
    let join = CountPlan::with_engine(18, Engine::Join).unwrap();
    assert_eq!(join.count_one(join.len() - 1, &cancelled), None);
}

/// Nodes pass 2⁶⁴ at N = 28 (about 6·10¹⁹): shard files carry them whole, read back from their
/// JSON, and their merge sums them exactly.
#[test]
fn node_sums_past_two_to_the_sixty_fourth_merge_exactly() {
    let plan = CountPlan::with_engine(28, Engine::Backtracking).unwrap();
    let big = u128::from(u64::MAX) + 12_345;
    let reports: Vec<(String, ShardReport)> = (0..3)
        .map(|index| {
            let tally = Tally {
                total: 8 * (index + 1),
                fixed: 0,
                nodes: big + index,
            };
            let report = ShardReport::new(&plan, Shard::new(index as u32, 3).unwrap(), tally);
            let text = serde_json::to_string(&report).unwrap();
            assert!(
                text.contains(&format!("\"nodes\":{}", big + index)),
                "{text}"
            );
            let read: ShardReport = serde_json::from_str(&text).unwrap();
            assert!(read.is_intact());
            (format!("{index}of3.json"), read)
        })
        .collect();
    let merged = merge(&reports).unwrap();
    assert_eq!(merged.nodes, 3 * big + 3);
    assert!(merged.nodes > 3 * u128::from(u64::MAX));
    assert_eq!((merged.total, merged.unique), (48, 6));
}

/// A shard counted in several runs on several machines (a task requeued onto another node)
/// names every place that counted its parts, in the order each last counted; a run that counts
/// nothing adds none; a checkpoint without places (an earlier version's) reads, and a file's
/// places are kept without control characters, cut, and at most `MAX_PLACES`.
#[test]
fn checkpoints_say_where_each_part_was_counted() {
    use queens_core::CancelToken;

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("count.json");
    let plan = CountPlan::with_engine(11, Engine::Backtracking).unwrap();
    let shard = Shard::new(1, 2).unwrap();
    let job = |place: &str| {
        CountJob::new(plan.clone())
            .with_shard(shard)
            .with_threads(1)
            .unwrap()
            .with_checkpoint(path.clone(), std::time::Duration::from_secs(60))
            .with_place(place)
    };
    // Stops once `parts` parts are done.
    let run_until = |place: &str, parts: usize| {
        let token = CancelToken::new();
        let budget = Budget::unlimited().with_cancel(token.clone());
        job(place)
            .run(&budget, |done, _| {
                if done >= parts {
                    token.cancel();
                }
            })
            .unwrap()
    };
    let (a, b) = (
        "node1, 1 thread (backtracking engine)",
        "node2, NVIDIA H100 at 0000:3b:00.0",
    );

    let first = run_until(a, 3);
    assert!(!first.is_complete());
    assert_eq!(first.places, [a]);
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(
        saved.contains(&format!(r#""counted_on":["{a}"]"#)),
        "{saved}"
    );

    let second = run_until(b, usize::MAX);
    assert!(second.is_complete());
    assert_eq!(second.places, [a, b]);
    assert_eq!(second.counted_on().unwrap(), format!("{a}; then {b}"));
    assert_eq!(second.tally, count_shard(&plan, shard));

    // Nothing left to count: the place of a run that counted nothing is not added.
    let third = run_until("node3, 1 thread (backtracking engine)", usize::MAX);
    assert_eq!(
        (third.resumed, third.places.clone()),
        (third.subproblems, vec![a.to_owned(), b.to_owned()])
    );

    // An earlier version's checkpoint, without places: read as before, this run's place alone.
    let mut earlier = checkpoint::Progress::default();
    for &id in plan.shard_ids(shard).iter().take(2) {
        earlier.record(id, plan.count_one(id, &Budget::unlimited()).unwrap());
    }
    checkpoint::save(&path, &plan, shard, &earlier).unwrap();
    assert!(
        !std::fs::read_to_string(&path)
            .unwrap()
            .contains("counted_on")
    );
    assert!(
        checkpoint::load(&path, &plan, shard)
            .unwrap()
            .places()
            .is_empty()
    );
    let resumed = run_until(b, usize::MAX);
    assert_eq!(
        (resumed.resumed, resumed.places.clone()),
        (2, vec![b.to_owned()])
    );
    assert_eq!(resumed.tally, count_shard(&plan, shard));

    // Places are not numbers of the count: outside the checksum, and what a file says is kept
    // without control characters, cut, the latest MAX_PLACES.
    let mut document: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let hostile: Vec<String> = (0..40)
        .map(|at| format!("node{at}\u{1b}[2J\n{}", "x".repeat(500)))
        .collect();
    document["counted_on"] = serde_json::json!(hostile);
    std::fs::write(&path, document.to_string()).unwrap();
    let progress = checkpoint::load(&path, &plan, shard).unwrap();
    assert_eq!(progress.places().len(), checkpoint::MAX_PLACES);
    assert!(progress.places()[0].starts_with(&format!("node{}", 40 - checkpoint::MAX_PLACES)));
    for place in progress.places() {
        assert!(!place.chars().any(char::is_control), "{place:?}");
        assert!(place.chars().count() <= checkpoint::PLACE_KEPT, "{place}");
    }
    document["counted_on"] = serde_json::json!("not a list");
    std::fs::write(&path, document.to_string()).unwrap();
    assert!(checkpoint::load(&path, &plan, shard).is_err());
}

/// A counter that counts the first `before` parts it is given, then fails, as a GPU lost
/// mid-count does (an Xid error, a driver reset, a card pulled by the scheduler).
struct LostMidway {
    before: usize,
}

impl PartCounter for LostMidway {
    fn count_parts(&self, parts: PartsToCount<'_>) -> Result<(), CounterError> {
        for &id in parts.ids.iter().take(self.before) {
            (parts.done)(id, parts.plan.count_one(id, parts.budget).unwrap());
        }
        Err(CounterError("the device was lost".to_owned()))
    }

    fn describe(&self) -> String {
        "a device lost midway".to_owned()
    }
}

/// A counter that fails mid-count is an error of the run, not a result, and the parts it
/// reported before failing are in the checkpoint, so that the count resumes from them, on
/// the same engine or another of its split, to the published count.
#[test]
fn a_counter_that_fails_midway_keeps_what_it_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("count.json");
    let plan = CountPlan::with_engine(11, Engine::Gpu).unwrap();
    let every = std::time::Duration::from_secs(60);
    let failed = CountJob::new(plan.clone())
        .with_counter(std::sync::Arc::new(LostMidway { before: 7 }))
        .with_checkpoint(path.clone(), every)
        .run(&Budget::unlimited(), |_, _| {});
    match failed {
        Err(CountRunError::Counter(error)) => assert_eq!(error.to_string(), "the device was lost"),
        other => panic!("a lost device gave {other:?}"),
    }
    let kept = checkpoint::load(&path, &plan, Shard::WHOLE).unwrap();
    let first: Vec<usize> = plan.shard_ids(Shard::WHOLE).into_iter().take(7).collect();
    assert_eq!(kept.len(), 7);
    assert!(
        first.iter().all(|&id| kept.is_done(id)),
        "the parts reported"
    );

    let on_the_cpu = CountPlan::with_engine(11, Engine::Backtracking).unwrap();
    let resumed = CountJob::new(on_the_cpu)
        .with_checkpoint(path, every)
        .run(&Budget::unlimited(), |_, _| {})
        .unwrap();
    assert_eq!(resumed.resumed, 7);
    assert_eq!((resumed.tally.total, resumed.tally.unique()), (2680, 341));
}

/// A merged count says where it was counted: each place its reports name, once, with the
/// shards it counted or counted part of, the most first; a report that names none adds none,
/// and a merge of such reports (from before they named places) writes and reads as before.
#[test]
fn a_merge_says_where_its_shards_were_counted() {
    let plan = CountPlan::new(10).unwrap();
    let (a, b) = (
        "node-a, 2 threads (backtracking engine)",
        "node-b, NVIDIA H100 at 0000:3b:00.0 (gpu engine)",
    );
    let resumed = format!("{b}; then {a}");
    let twice = format!("{a}; then {a}");
    // What a file says is listed without a terminal's escapes or line breaks.
    let hostile = "\u{1b}[2Jnode-c\n";
    let places = [
        Some(a),
        Some(&resumed),
        Some(b),
        Some(&twice),
        None,
        Some(hostile),
    ];
    let reports = |named: bool| -> Vec<(String, ShardReport)> {
        places
            .iter()
            .enumerate()
            .map(|(index, place)| {
                let shard = Shard::new(index as u32, places.len() as u32).unwrap();
                let report = ShardReport::new(&plan, shard, count_shard(&plan, shard));
                let report = match place {
                    Some(place) if named => report.counted_on(*place),
                    _ => report,
                };
                (format!("shard-{index}.json"), report)
            })
            .collect()
    };
    let merged = merge(&reports(true)).unwrap();
    assert_eq!((merged.total, merged.unique), (724, 92));
    let listed: Vec<(&str, u32)> = merged
        .counted_on
        .iter()
        .map(|at| (at.place.as_str(), at.shards))
        .collect();
    assert_eq!(listed, [(a, 3), (b, 2), ("[2Jnode-c", 1)]);
    let text = serde_json::to_string(&merged).unwrap();
    assert!(
        text.contains(&format!(
            r#""counted_on":[{{"place":"{a}","shards":3}},{{"place":"{b}","shards":2}},"#
        )),
        "{text}"
    );

    let unnamed = merge(&reports(false)).unwrap();
    assert!(unnamed.counted_on.is_empty());
    let text = serde_json::to_string(&unnamed).unwrap();
    assert!(!text.contains("counted_on"), "{text}");
    let read: queens_exact::count::shard::Merged = serde_json::from_str(&text).unwrap();
    assert_eq!(read, unnamed);
}
