//! Every analysis against brute force: all completions enumerated naively, for random positions
//! (placed queens and blocked squares) on boards from 4×4 to 10×10 and for positions cut from
//! solutions of boards up to 100×100, by both engines; every reason checked for truth; and
//! positions too hard to decide stay within their budget and never contradict a fuller
//! analysis.

use std::sync::OnceLock;

use proptest::prelude::*;
use queens_configurator::{
    Analysis, Case, Configurator, DEFAULT_NODES, Engine, Position, Rank, Reason, Shares, Status,
};
use queens_core::Budget;
use queens_core::Square;
use queens_core::random::SeededRng;
use rand::{RngExt, SeedableRng};

fn configurator() -> &'static Configurator {
    static SHARED: OnceLock<Configurator> = OnceLock::new();
    SHARED.get_or_init(Configurator::new)
}

/// All solutions containing `queens` and no square of `blocked`, one row at a time, every
/// column tried that is not blocked and attacks no queen placed so far and no given queen.
fn completions(n: u32, queens: &[Square], blocked: &[Square]) -> Vec<Vec<Square>> {
    fn extend(
        n: u32,
        placed: &mut Vec<Square>,
        queens: &[Square],
        blocked: &[Square],
        out: &mut Vec<Vec<Square>>,
    ) {
        let row = placed.len() as u32;
        if row == n {
            out.push(placed.clone());
            return;
        }
        for col in 0..n {
            let square = Square::new(row, col);
            let fixed_here = queens.iter().find(|q| q.row == row);
            if fixed_here.is_some_and(|&q| q != square) || blocked.contains(&square) {
                continue;
            }
            let peaceful = |other: &Square| *other == square || !other.attacks(square);
            if placed.iter().all(peaceful) && queens.iter().all(peaceful) {
                placed.push(square);
                extend(n, placed, queens, blocked, out);
                placed.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(n, &mut Vec::new(), queens, blocked, &mut out);
    out
}

/// Whether `queens` (not attacking each other) have a completion avoiding `blocked`; `None`
/// when more than [`BRUTE_FORCE_ROWS`] rows are empty, too many for the naive enumeration.
fn is_completable(n: u32, queens: &[Square], blocked: &[Square]) -> Option<bool> {
    if n as usize - queens.len() > BRUTE_FORCE_ROWS {
        return None;
    }
    let peaceful = queens
        .iter()
        .enumerate()
        .all(|(i, a)| queens[i + 1..].iter().all(|b| !a.attacks(*b)));
    Some(peaceful && !completions(n, queens, blocked).is_empty())
}

/// The most empty rows a claim about a set of queens is checked on by brute force (every claim
/// on boards up to 10×10).
const BRUTE_FORCE_ROWS: usize = 10;

/// The position's squares blocked from one list of candidates, then its queens placed greedily
/// from another.
fn position_from(
    n: u32,
    candidates: &[(u32, u32)],
    limit: usize,
    blocks: &[(u32, u32)],
) -> Position {
    let mut position = Position::empty(n).unwrap();
    for &(row, col) in blocks {
        let _ = position.block(Square::new(row % n, col % n));
    }
    for &(row, col) in candidates.iter().take(limit) {
        let _ = position.place(Square::new(row % n, col % n));
    }
    position
}

fn line_squares(n: u32, rank: Rank) -> Vec<Square> {
    match rank {
        Rank::Row(row) => (0..n).map(|col| Square::new(row, col)).collect(),
        Rank::Col(col) => (0..n).map(|row| Square::new(row, col)).collect(),
    }
}

/// Whether `square` can take a queen beside `queens`: not blocked, not one of them, attacked by
/// none.
fn is_free(square: Square, queens: &[Square], blocked: &[Square]) -> bool {
    !blocked.contains(&square)
        && !queens.contains(&square)
        && queens.iter().all(|q| !q.attacks(square))
}

/// Whether `line` has no queen and no free square.
fn is_emptied(n: u32, queens: &[Square], blocked: &[Square], line: Rank) -> bool {
    line_squares(n, line)
        .iter()
        .all(|&square| !queens.contains(&square) && !is_free(square, queens, blocked))
}

/// The blocked squares of `line` that no queen attacks: what a reason that empties the line
/// must name.
fn unattacked_blocked(n: u32, queens: &[Square], blocked: &[Square], line: Rank) -> Vec<Square> {
    line_squares(n, line)
        .into_iter()
        .filter(|&s| blocked.contains(&s) && queens.iter().all(|q| !q.attacks(s)))
        .collect()
}

/// The settled queens, the square and the chain of forced queens, each checked to be the last
/// free square of its row or column when it is placed.
fn replay_chain(
    n: u32,
    settled: &[Square],
    blocked: &[Square],
    square: Square,
    chain: &[Square],
) -> Vec<Square> {
    let mut with = settled.to_vec();
    with.push(square);
    for &link in chain {
        assert!(is_free(link, &with, blocked));
        let free = |rank| {
            line_squares(n, rank)
                .into_iter()
                .filter(|&s| is_free(s, &with, blocked))
                .count()
        };
        assert!(
            free(Rank::Row(link.row)) == 1 || free(Rank::Col(link.col)) == 1,
            "{link:?} was not the last free square of a line"
        );
        with.push(link);
    }
    with
}

/// `lines` are empty on the board of `queens`, one more than `onto`, and every free square of
/// them lies on a line of `onto`.
fn check_crowding(n: u32, queens: &[Square], blocked: &[Square], lines: &[Rank], onto: &[Rank]) {
    assert_eq!(onto.len() + 1, lines.len(), "{lines:?} onto {onto:?}");
    for &line in lines {
        for s in line_squares(n, line) {
            assert!(!queens.contains(&s), "{line:?} is not empty");
            if is_free(s, queens, blocked) {
                let crossing = match line {
                    Rank::Row(_) => Rank::Col(s.col),
                    Rank::Col(_) => Rank::Row(s.row),
                };
                assert!(
                    onto.contains(&crossing),
                    "{s:?} escapes {lines:?} onto {onto:?}"
                );
            }
        }
    }
}

/// The cases are every free square of `line` on the board of `queens`, and each fails as it
/// says: it empties its line, or the board it leaves is crowded or splits again (no deeper).
fn check_case_split(n: u32, queens: &[Square], blocked: &[Square], line: Rank, cases: &[Case]) {
    let free: Vec<Square> = line_squares(n, line)
        .into_iter()
        .filter(|&s| is_free(s, queens, blocked))
        .collect();
    let tried: Vec<Square> = cases.iter().map(|case| case.square).collect();
    assert_eq!(free, tried, "the cases are every free square of {line:?}");
    for case in cases {
        let after = replay_chain(n, queens, blocked, case.square, &case.chain);
        match (&case.empties, case.then.as_deref()) {
            (Some(empties), None) => {
                assert!(is_emptied(n, &after, blocked, *empties), "{case:?}");
            }
            (None, Some(Reason::Crowded { chain, lines, onto })) => {
                assert!(chain.is_empty(), "{case:?}");
                check_crowding(n, &after, blocked, lines, onto);
            }
            (None, Some(Reason::CaseSplit { chain, line, cases })) => {
                assert!(chain.is_empty(), "{case:?}");
                assert!(
                    cases.iter().all(|c| c.then.is_none()),
                    "nested deeper: {case:?}"
                );
                check_case_split(n, &after, blocked, *line, cases);
            }
            _ => panic!("a case fails by an emptied line or a further reason: {case:?}"),
        }
    }
}

/// Whether dropping any one of `queens` or `blocked` (with `extra` placed) lets the position be
/// completed again, where brute force can tell.
fn check_minimal(n: u32, queens: &[Square], blocked: &[Square], extra: Option<Square>) {
    let with: Vec<Square> = queens.iter().copied().chain(extra).collect();
    for dropped in queens {
        let fewer: Vec<Square> = with.iter().copied().filter(|q| q != dropped).collect();
        assert_ne!(
            is_completable(n, &fewer, blocked),
            Some(false),
            "the queen on {dropped:?} is not needed"
        );
    }
    for freed in blocked {
        let fewer: Vec<Square> = blocked.iter().copied().filter(|b| b != freed).collect();
        assert_ne!(
            is_completable(n, &with, &fewer),
            Some(false),
            "the block on {freed:?} is not needed"
        );
    }
}

fn check_reason(analysis: &Analysis, square: Square, reason: &Reason) {
    let n = analysis.n;
    let all_blocked = &analysis.blocked;
    let settled: Vec<Square> = analysis
        .queens
        .iter()
        .chain(&analysis.forced)
        .copied()
        .collect();
    match reason {
        Reason::Attacked { by, forced, line } => {
            assert_eq!(
                by.shared_line(square),
                Some(*line),
                "{square:?}: {reason:?}"
            );
            let from = if *forced {
                &analysis.forced
            } else {
                &analysis.queens
            };
            assert!(from.contains(by));
        }
        Reason::NoFreeSquare { line, blocked } => {
            assert!(is_emptied(n, &settled, all_blocked, *line), "{reason:?}");
            assert_eq!(
                blocked[..],
                unattacked_blocked(n, &settled, all_blocked, *line)
            );
            assert_eq!(analysis.solvable, Some(false));
        }
        Reason::EmptiesLine { line, blocked } => {
            let mut with = settled.clone();
            with.push(square);
            assert!(
                is_emptied(n, &with, all_blocked, *line),
                "{square:?}: {reason:?}"
            );
            assert_eq!(*blocked, unattacked_blocked(n, &with, all_blocked, *line));
        }
        Reason::ForcedChain {
            chain,
            line,
            blocked,
        } => {
            let with = replay_chain(n, &settled, all_blocked, square, chain);
            assert!(
                is_emptied(n, &with, all_blocked, *line),
                "{square:?}: {reason:?}"
            );
            assert_eq!(*blocked, unattacked_blocked(n, &with, all_blocked, *line));
        }
        Reason::Crowded { chain, lines, onto } => {
            let with = replay_chain(n, &settled, all_blocked, square, chain);
            check_crowding(n, &with, all_blocked, lines, onto);
        }
        Reason::CaseSplit { chain, line, cases } => {
            let with = replay_chain(n, &settled, all_blocked, square, chain);
            check_case_split(n, &with, all_blocked, *line, cases);
        }
        Reason::Conflict {
            queens,
            blocked,
            minimal,
        } => {
            assert!(queens.iter().all(|q| analysis.queens.contains(q)));
            assert!(blocked.iter().all(|b| all_blocked.contains(b)));
            let mut with = queens.clone();
            with.push(square);
            assert_ne!(
                is_completable(n, &with, blocked),
                Some(true),
                "{square:?}: {reason:?}"
            );
            assert!(*minimal);
            check_minimal(n, queens, blocked, Some(square));
        }
        Reason::Unsolvable {
            queens,
            blocked,
            minimal,
        } => {
            assert!(analysis.solvable == Some(false) && *minimal);
            assert!(blocked.iter().all(|b| all_blocked.contains(b)));
            assert_ne!(is_completable(n, queens, blocked), Some(true));
            check_minimal(n, queens, blocked, None);
        }
    }
}

/// How an analysis is run: which engine, and whether the search may count.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Diagram,
    CountingSearch,
    WitnessSearch,
}

fn check(position: &Position, mode: Mode) -> Analysis {
    let n = position.side();
    let solutions = completions(n, position.queens(), position.blocked());
    let (engine, shares) = match mode {
        Mode::Diagram => (Engine::Bdd, Shares::default()),
        Mode::CountingSearch => (Engine::Search, Shares::default()),
        Mode::WitnessSearch => (
            Engine::Search,
            Shares {
                count_nodes: 0,
                ..Shares::default()
            },
        ),
    };
    let exact = !matches!(mode, Mode::WitnessSearch);
    let analysis = configurator()
        .analyse_with(position, engine, &Budget::unlimited(), &shares)
        .unwrap();
    assert_eq!(analysis.solvable, Some(!solutions.is_empty()));
    // Without counting, counts appear only where the search finished at once.
    let exact = exact || analysis.completions.is_some();
    assert_eq!(
        analysis.completions,
        exact.then_some(solutions.len() as u64)
    );
    let mut forced = Vec::new();
    for row in 0..n {
        for col in 0..n {
            let square = Square::new(row, col);
            let through = solutions.iter().filter(|s| s.contains(&square)).count();
            let cell = analysis.cell(square).expect("on the board");
            assert_eq!(
                cell.completions,
                exact.then_some(through as u64),
                "{square:?}"
            );
            let is_user = position.has_queen(square);
            let is_forced = !is_user && !solutions.is_empty() && through == solutions.len();
            if is_forced {
                forced.push(square);
            }
            let expected = if is_user {
                Status::Queen
            } else if position.is_blocked(square) {
                Status::Blocked
            } else if is_forced {
                Status::Forced
            } else if analysis
                .queens
                .iter()
                .chain(&forced_so_far(&solutions, position))
                .any(|q| q.attacks(square))
            {
                Status::Attacked
            } else if through > 0 {
                Status::Open
            } else {
                Status::Dead
            };
            assert_eq!(
                cell.status,
                expected,
                "{mode:?} {square:?} in {:?}",
                position.queens()
            );
            match cell.status {
                Status::Attacked | Status::Dead => {
                    let explanation = cell.reason.as_ref().expect("blocked squares have a reason");
                    check_reason(&analysis, square, &explanation.reason);
                }
                _ => assert!(cell.reason.is_none()),
            }
        }
    }
    assert_eq!(analysis.forced, forced);
    assert_eq!(analysis.blocked, position.blocked());
    analysis
}

/// The squares in every completion (other than the user's queens).
fn forced_so_far(solutions: &[Vec<Square>], position: &Position) -> Vec<Square> {
    let Some(first) = solutions.first() else {
        return Vec::new();
    };
    first
        .iter()
        .copied()
        .filter(|q| !position.has_queen(*q) && solutions.iter().all(|s| s.contains(q)))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn both_engines_match_brute_force(
        n in 4u32..=10,
        candidates in proptest::collection::vec((0u32..10, 0u32..10), 0..6),
        limit in 0usize..6,
        blocks in proptest::collection::vec((0u32..10, 0u32..10), 0..12),
    ) {
        let position = position_from(n, &candidates, limit, &blocks);
        check(&position, Mode::Diagram);
        check(&position, Mode::CountingSearch);
        check(&position, Mode::WitnessSearch);
    }
}

#[test]
fn every_position_of_up_to_two_queens_on_small_boards() {
    for n in 4..=6u32 {
        let squares: Vec<Square> = (0..n)
            .flat_map(|r| (0..n).map(move |c| Square::new(r, c)))
            .collect();
        for (i, &a) in squares.iter().enumerate() {
            check(&Position::new(n, [a]).unwrap(), Mode::WitnessSearch);
            for &b in &squares[i + 1..] {
                if let Ok(position) = Position::new(n, [a, b]) {
                    check(&position, Mode::Diagram);
                    check(&position, Mode::CountingSearch);
                    check(&position, Mode::WitnessSearch);
                }
            }
        }
    }
}

/// A seeded generator of indices below a bound, for picking squares reproducibly.
fn stream(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut rng = SeededRng::seed_from_u64(seed);
    move |below| rng.random_range(0..below)
}

#[test]
fn positions_cut_from_large_solutions() {
    let (mut several_completions, mut dead, mut forced) = (0, 0, 0);
    for (case, n) in [20u32, 27, 40, 64, 100].into_iter().enumerate() {
        let solution: Vec<Square> = queens_heuristic::construction(n)
            .unwrap()
            .enumerate()
            .map(|(col, row)| Square::new(row, col as u32))
            .collect();
        let mut pick = stream(case as u64);
        for removed in [4usize, 8, 12] {
            let mut queens = solution.clone();
            for _ in 0..removed {
                let index = pick(queens.len() as u64) as usize;
                queens.swap_remove(index);
            }
            let position = Position::new(n, queens).unwrap();
            let counted = check(&position, Mode::CountingSearch);
            check(&position, Mode::WitnessSearch);
            several_completions += usize::from(counted.completions > Some(1));
            dead += counted.count(Status::Dead);
            forced += counted.count(Status::Forced);
        }
    }
    assert!(several_completions > 0 && dead > 0 && forced > 0);
}

#[test]
fn the_engines_agree_on_eleven_and_twelve() {
    for n in [11u32, 12] {
        let mut pick = stream(u64::from(n));
        for round in 0..12 {
            let mut position = Position::empty(n).unwrap();
            for _ in 0..round % 4 * 3 {
                let square = Square::new(pick(u64::from(n)) as u32, pick(u64::from(n)) as u32);
                let _ = position.block(square);
            }
            for _ in 0..round % 6 {
                let square = Square::new(pick(u64::from(n)) as u32, pick(u64::from(n)) as u32);
                let _ = position.place(square);
            }
            let bdd = configurator()
                .analyse(&position, Engine::Bdd, &Budget::unlimited())
                .unwrap();
            let search = configurator()
                .analyse(&position, Engine::Search, &Budget::unlimited())
                .unwrap();
            assert_eq!(bdd.completions, search.completions);
            assert!(bdd.completions.is_some());
            assert_eq!(bdd.cells, search.cells, "{:?}", position.queens());
            assert_eq!(bdd.forced, search.forced);
        }
    }
}

#[test]
fn adversarial_positions_stay_within_budget_and_never_contradict() {
    for (seed, n) in [30u32, 30, 50, 50, 80, 100].into_iter().enumerate() {
        let mut pick = stream(1000 + seed as u64);
        let mut position = Position::empty(n).unwrap();
        let wanted = n as usize * (4 + seed % 4) / 10;
        while position.queens().len() < wanted {
            let square = Square::new(pick(u64::from(n)) as u32, pick(u64::from(n)) as u32);
            let _ = position.place(square);
        }
        let tight_nodes = 5_000;
        let tight = Shares {
            count_nodes: 1_000,
            square_nodes: 500,
            explain_nodes: 1_000,
        };
        let quick = configurator()
            .analyse_with(
                &position,
                Engine::Search,
                &Budget::unlimited().with_max_nodes(tight_nodes),
                &tight,
            )
            .unwrap();
        let full = configurator()
            .analyse(&position, Engine::Search, &Budget::unlimited())
            .unwrap();
        assert!(
            quick.nodes <= tight_nodes,
            "{} > {}",
            quick.nodes,
            tight_nodes
        );
        assert!(full.nodes <= DEFAULT_NODES);
        if quick.solvable.is_some() && full.solvable.is_some() {
            assert_eq!(quick.solvable, full.solvable);
        }
        for (a, b) in quick.cells.iter().zip(&full.cells) {
            if a.status != Status::Unknown && b.status != Status::Unknown {
                assert_eq!(a.status, b.status, "n = {n}, ({}, {})", a.row, a.col);
            }
            // Whatever is called dead must really be: placing it leaves no completion that the
            // fuller analysis found.
            if a.status == Status::Dead {
                assert_ne!(b.status, Status::Open);
            }
        }
    }
}

/// Nauck's position of 1850 (b4 and d5, two completions) with one of its completions' squares
/// blocked: one completion is left, and every square of the other is dead or attacked, a dead
/// one explained with the blocked square where it is the reason.
#[test]
fn a_blocked_square_is_named_where_it_is_the_reason() {
    let (b4, d5) = (Square::new(3, 1), Square::new(4, 3));
    let free = Position::new(8, [b4, d5]).unwrap();
    let both = check(&free, Mode::Diagram);
    assert_eq!(both.completions, Some(2));
    let first = completions(8, &[b4, d5], &[]);
    let blocked_square = *first[0].iter().find(|q| **q != b4 && **q != d5).unwrap();
    let position = Position::with_blocked(8, [b4, d5], [blocked_square]).unwrap();
    for mode in [Mode::Diagram, Mode::CountingSearch, Mode::WitnessSearch] {
        let analysis = check(&position, mode);
        assert_eq!(analysis.solvable, Some(true));
        assert_eq!(analysis.status(blocked_square), Some(Status::Blocked));
        assert_eq!(analysis.forced.len(), 6, "the other completion is forced");
    }
    // A whole row blocked: nothing can be completed, and every free square says why.
    let row: Vec<Square> = (0..6).map(|col| Square::new(2, col)).collect();
    let walled = Position::with_blocked(6, [], row).unwrap();
    let analysis = check(&walled, Mode::CountingSearch);
    let reason = &analysis
        .cell(Square::new(0, 0))
        .expect("on the board")
        .reason
        .as_ref()
        .unwrap()
        .text;
    assert_eq!(
        &reason[..],
        "the position has no completion: every square of row 3 is blocked"
    );
    // Every dead square holds the same list and sentence, not a copy each.
    let explanations: Vec<_> = analysis
        .cells
        .iter()
        .filter_map(|cell| cell.reason.as_ref())
        .collect();
    assert!(explanations.len() > 20);
    for explanation in &explanations {
        assert!(std::sync::Arc::ptr_eq(&explanation.text, reason));
        let (Reason::NoFreeSquare { blocked, .. }, Reason::NoFreeSquare { blocked: first, .. }) =
            (&explanation.reason, &explanations[0].reason)
        else {
            panic!("{:?}", explanation.reason)
        };
        assert!(std::sync::Arc::ptr_eq(blocked, first));
    }
    // A line whose only unattacked squares are blocked names them.
    let mut named = 0;
    for cell in &analysis.cells {
        if let Some(explanation) = &cell.reason {
            named += usize::from(explanation.text.contains("blocked"));
        }
    }
    assert!(named > 0);
}

/// Random positions with many blocked squares agree with brute force (statuses, counts, forced
/// queens, every reason checked): densely blocked small boards, whose dead squares are
/// explained by lines the blocks help to empty, and sparsely blocked larger ones, where some
/// conflicts need blocked squares among their culprits.
#[test]
fn heavily_blocked_positions_match_brute_force() {
    let mut pick = stream(77);
    let (mut lines_naming_blocks, mut blocked_culprits) = (0, 0);
    for round in 0..60u32 {
        let dense = round % 2 == 0;
        let n = if dense { 5 + round % 4 } else { 7 + round % 4 };
        let mut position = Position::empty(n).unwrap();
        for _ in 0..if dense { n * n / 3 } else { n * n / 8 } {
            let square = Square::new(pick(u64::from(n)) as u32, pick(u64::from(n)) as u32);
            let _ = position.block(square);
        }
        for _ in 0..round % 3 {
            let square = Square::new(pick(u64::from(n)) as u32, pick(u64::from(n)) as u32);
            let _ = position.place(square);
        }
        for mode in [Mode::Diagram, Mode::CountingSearch, Mode::WitnessSearch] {
            let analysis = check(&position, mode);
            for explanation in analysis
                .cells
                .iter()
                .filter_map(|cell| cell.reason.as_ref())
            {
                match &explanation.reason {
                    Reason::EmptiesLine { blocked, .. } | Reason::ForcedChain { blocked, .. }
                        if !blocked.is_empty() =>
                    {
                        lines_naming_blocks += 1;
                    }
                    Reason::NoFreeSquare { blocked, .. } if !blocked.is_empty() => {
                        lines_naming_blocks += 1;
                    }
                    Reason::Conflict { blocked, .. } if !blocked.is_empty() => {
                        blocked_culprits += 1;
                    }
                    Reason::Unsolvable { blocked, .. } if !blocked.is_empty() => {
                        blocked_culprits += 1;
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(lines_naming_blocks > 0 && blocked_culprits > 0);
}
