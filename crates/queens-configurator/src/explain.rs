//! Reasons for blocked squares, simplest first.
//!
//! An attacked square names its attacker. A dead square is first placed and propagated: if a row
//! or column empties at once, or after a chain of queens each forced onto the last free square of
//! some line, that is the reason. Next comes the pigeonhole argument: `k` empty rows whose free
//! squares lie in only `k − 1` columns (or the reverse). Then a case split: a line left with at
//! most three free squares, each of which fails in turn (it empties a line, or leaves a crowding
//! or a split of its own one level down). Otherwise the reason is a set of user queens that rules
//! the square out, found by dropping the user's queens (and then the blocked squares) one at a
//! time and keeping only those whose removal lets the square be completed again (a deletion
//! filter, as in `QuickXplain`); every queen and blocked square left is needed.
//!
//! Blocked squares take part in every reason: a line emptied by a queen names the blocked squares
//! the queens do not attack there, and a position that has a line with no free square at all
//! says so before anything is placed.

use queens_core::Square;

use crate::analysis::{Case, Reason};
use crate::bits::{FreeBoard, Rank};
use crate::hall::{Crowding, crowding};
use crate::position::Position;
use crate::search::{Completion, NodeBudget, Search};

/// The nodes one "is this still impossible?" check of the deletion filter may spend.
const CHECK_NODES: u64 = 50_000;

/// How many earlier conflicts are tried on a new dead square before starting from all queens.
const REUSED_CONFLICTS: usize = 4;

/// Where placing a queen and its forced consequences led.
enum Propagation {
    /// A row or column emptied, after the queens forced on the way (often none).
    Emptied { chain: Vec<Square>, line: Rank },
    /// Nothing more is forced: the board and the queens forced on the way.
    Settled {
        board: FreeBoard,
        chain: Vec<Square>,
    },
}

/// The user queens and blocked squares a conflict is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Culprits {
    queens: Vec<Square>,
    blocked: Vec<Square>,
}

/// Explains the blocked squares of one position.
pub(crate) struct Explainer<'p> {
    n: u32,
    user: &'p [Square],
    blocked: &'p [Square],
    forced: &'p [Square],
    /// The board with the blocked squares and the user's and the forced queens.
    settled: FreeBoard,
    /// The reason of every dead square when that board already has a line with no free square
    /// (the same for all of them, so worked out once).
    no_free_square: Option<Reason>,
    /// The culprits that make an unsolvable position unsolvable, once computed.
    /// Why the position has no completion: the reason of all its dead squares, whose lists
    /// they share.
    unsolvable_core: Option<Reason>,
    /// Minimal conflicts found for other squares, most recent last: tried first, since
    /// neighbouring dead squares are often ruled out by the same few queens.
    conflicts: Vec<Culprits>,
}

impl<'p> Explainer<'p> {
    pub(crate) fn new(n: u32, position: &'p Position, forced: &'p [Square]) -> Self {
        let mut settled = FreeBoard::of(position);
        for &queen in forced {
            settled.place(queen);
        }
        let mut explainer = Explainer {
            n,
            user: position.queens(),
            blocked: position.blocked(),
            forced,
            settled,
            no_free_square: None,
            unsolvable_core: None,
            conflicts: Vec::new(),
        };
        explainer.no_free_square =
            explainer
                .settled
                .empty_rank()
                .map(|line| Reason::NoFreeSquare {
                    line,
                    blocked: explainer.unattacked_blocked(line, &[]).into(),
                });
        explainer
    }

    /// Whether `square` is attacked by a user or forced queen (or holds one).
    pub(crate) fn is_attacked(&self, square: Square) -> bool {
        !self.settled.is_free(square)
    }

    /// The first user queen, else forced queen, attacking `square`.
    pub(crate) fn attacker(&self, square: Square) -> Option<Reason> {
        let user = self.user.iter().map(|&queen| (queen, false));
        let forced = self.forced.iter().map(|&queen| (queen, true));
        user.chain(forced).find_map(|(queen, forced)| {
            queen.shared_line(square).map(|line| Reason::Attacked {
                by: queen,
                forced,
                line,
            })
        })
    }

    /// Why the free square `square`, which is in no completion, is dead.
    pub(crate) fn dead(
        &mut self,
        square: Square,
        solvable: bool,
        budget: &mut NodeBudget<'_>,
    ) -> Reason {
        if let Some(reason) = &self.no_free_square {
            return reason.clone();
        }
        let (board, chain) = match self.propagate(square) {
            Propagation::Emptied { chain, line } => {
                let mut queens = chain.clone();
                queens.push(square);
                let blocked = self.unattacked_blocked(line, &queens);
                return if chain.is_empty() {
                    Reason::EmptiesLine { line, blocked }
                } else {
                    Reason::ForcedChain {
                        chain,
                        line,
                        blocked,
                    }
                };
            }
            Propagation::Settled { board, chain } => (board, chain),
        };
        // The matching and the case splits look at the token as they go: a stop cuts them
        // short, and the reason falls back to the conflict's.
        let token = budget.token();
        let stopped = move || token.is_some_and(|token| token.reason().is_some());
        if let Some(Crowding { lines, onto }) = crowding(&board, &stopped) {
            return Reason::Crowded { chain, lines, onto };
        }
        if let Some(reason) = case_split(&board, &chain, NESTED_SPLITS, &stopped) {
            return reason;
        }
        if solvable {
            let (culprits, minimal) = self.conflict(Some(square), budget);
            if minimal && !self.conflicts.contains(&culprits) {
                self.conflicts.push(culprits.clone());
            }
            Reason::Conflict {
                queens: culprits.queens,
                blocked: culprits.blocked,
                minimal,
            }
        } else {
            if self.unsolvable_core.is_none() {
                let (culprits, minimal) = self.conflict(None, budget);
                self.unsolvable_core = Some(Reason::Unsolvable {
                    queens: culprits.queens.into(),
                    blocked: culprits.blocked.into(),
                    minimal,
                });
            }
            self.unsolvable_core.clone().expect("computed above")
        }
    }

    /// The blocked squares of `line` that no user, forced or `extra` queen attacks or holds:
    /// with the queens' attacks, what leaves the line without a free square.
    fn unattacked_blocked(&self, line: Rank, extra: &[Square]) -> Vec<Square> {
        let on_line = |square: &&Square| match line {
            Rank::Row(row) => square.row == row,
            Rank::Col(col) => square.col == col,
        };
        self.blocked
            .iter()
            .filter(on_line)
            .filter(|&&square| {
                !self
                    .user
                    .iter()
                    .chain(self.forced)
                    .chain(extra)
                    .any(|queen| *queen == square || queen.attacks(square))
            })
            .copied()
            .collect()
    }

    /// Places `square` and then every queen that is the last free square of its line, until a
    /// line empties (the reason) or nothing more is forced (the board and the forced chain).
    fn propagate(&self, square: Square) -> Propagation {
        propagate_on(self.settled.clone(), square)
    }

    /// User queens and blocked squares that, with `extra` when given, have no completion;
    /// dropped one at a time, queens first. `minimal` is false when some check ran out of nodes
    /// and its queen or square was kept.
    fn conflict(&self, extra: Option<Square>, budget: &mut NodeBudget<'_>) -> (Culprits, bool) {
        let reused = self
            .conflicts
            .iter()
            .rev()
            .take(REUSED_CONFLICTS)
            .find(|earlier| self.has_no_completion(earlier, extra, budget) == Some(true));
        let mut kept = reused.cloned().unwrap_or_else(|| Culprits {
            queens: self.user.to_vec(),
            blocked: self.blocked.to_vec(),
        });
        let mut minimal = true;
        let queens = kept.queens.clone().into_iter().map(|square| (square, true));
        let blocked = kept
            .blocked
            .clone()
            .into_iter()
            .map(|square| (square, false));
        for (square, is_queen) in queens.chain(blocked) {
            // Each check sets up a board before its first node: look at the token each time.
            if budget.stopping() {
                minimal = false;
                break;
            }
            let mut candidate = kept.clone();
            let list = if is_queen {
                &mut candidate.queens
            } else {
                &mut candidate.blocked
            };
            list.retain(|&other| other != square);
            match self.has_no_completion(&candidate, extra, budget) {
                Some(true) => kept = candidate,
                Some(false) => {}
                None => minimal = false,
            }
        }
        (kept, minimal)
    }

    /// Whether `culprits` (and `extra`) have no completion; `None` when the check ran out of
    /// nodes.
    fn has_no_completion(
        &self,
        culprits: &Culprits,
        extra: Option<Square>,
        budget: &mut NodeBudget<'_>,
    ) -> Option<bool> {
        let mut board = FreeBoard::with_blocked(self.n, &culprits.blocked);
        for &queen in culprits.queens.iter().chain(extra.iter()) {
            board.place(queen);
        }
        let mut check = budget.carve(CHECK_NODES);
        let found = Search::new(&board).find(&mut check, &|_| false);
        budget.absorb(&check);
        match found {
            Completion::None => Some(true),
            Completion::Found(_) => Some(false),
            Completion::Unknown => None,
        }
    }
}

/// `board` with a queen on `square` and then every queen that is the last free square of its
/// line, until a line empties or nothing more is forced.
fn propagate_on(mut board: FreeBoard, square: Square) -> Propagation {
    board.place(square);
    let mut chain = Vec::new();
    loop {
        match board.tightest_rank() {
            Some((line, 0)) => return Propagation::Emptied { chain, line },
            Some((line, 1)) => {
                let only = board.free_in(line).next().expect("one free square");
                board.place(only);
                chain.push(only);
            }
            _ => return Propagation::Settled { board, chain },
        }
    }
}

/// The most cases a case split may have and stay a reason a learner can follow.
const MAX_CASES: u32 = 3;

/// How deep case splits may nest: a case may fail by a split of its own whose cases each
/// empty a line, and no deeper.
const NESTED_SPLITS: u32 = 1;

/// A case split of a settled `board` (a queen placed, its forced `chain` on it): a row or
/// column with at most [`MAX_CASES`] free squares each of which fails, the lines with the
/// fewest free squares tried first. A case fails when it empties a line (at once or after its
/// own forced queens) or, while `depth` allows, when the board it leaves is crowded or splits
/// again.
fn case_split(
    board: &FreeBoard,
    chain: &[Square],
    depth: u32,
    stopped: &dyn Fn() -> bool,
) -> Option<Reason> {
    if stopped() {
        return None;
    }
    let mut lines: Vec<(Rank, u32)> = board
        .open_ranks()
        .filter(|&(_, free)| free <= MAX_CASES)
        .collect();
    lines.sort_by_key(|&(_, free)| free);
    lines.into_iter().find_map(|(line, _)| {
        let cases = board
            .free_in(line)
            .map(|square| refuted_case(board, square, depth, stopped))
            .collect::<Option<Vec<Case>>>()?;
        Some(Reason::CaseSplit {
            chain: chain.to_vec(),
            line,
            cases,
        })
    })
}

/// The case of a queen on `square` of `board`, when it fails: it empties a line at once or
/// after its own forced queens, or (while `depth` allows) the board it leaves is crowded or
/// splits into cases that each empty a line.
fn refuted_case(
    board: &FreeBoard,
    square: Square,
    depth: u32,
    stopped: &dyn Fn() -> bool,
) -> Option<Case> {
    let (chain, empties, then) = match propagate_on(board.clone(), square) {
        Propagation::Emptied { chain, line } => (chain, Some(line), None),
        Propagation::Settled { board, chain } if depth > 0 => {
            let then = match crowding(&board, stopped) {
                Some(Crowding { lines, onto }) => Reason::Crowded {
                    chain: Vec::new(),
                    lines,
                    onto,
                },
                None => case_split(&board, &[], depth - 1, stopped)?,
            };
            (chain, None, Some(Box::new(then)))
        }
        Propagation::Settled { .. } => return None,
    };
    Some(Case {
        square,
        chain,
        empties,
        then,
    })
}
