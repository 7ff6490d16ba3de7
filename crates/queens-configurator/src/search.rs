//! Depth-first completion search on bit boards, for boards of any size.
//!
//! Every node branches on the empty row or column with the fewest free squares, so a line with a
//! single free square is a forced placement and a line with none fails at once. The same search
//! either looks for one completion (preferring squares the caller still wants witnessed) or
//! counts all of them with a tally per square. Both stop when their [`NodeBudget`] runs out.

use queens_core::random::SeededRng;
use queens_core::{CancelToken, Square, StopReason};
use rand::SeedableRng;
use rand::seq::SliceRandom;

use crate::bits::FreeBoard;

/// Counts down the nodes of one or several searches, carved from the analysis's [`Budget`]
/// (its node cap), and watches the budget's token: a cancelled token stops the analysis, a time
/// limit ends the search as if the nodes ran out.
///
/// [`Budget`]: queens_core::Budget
#[derive(Debug)]
pub(crate) struct NodeBudget<'a> {
    remaining: u64,
    token: Option<&'a CancelToken>,
    polls: u32,
    stop: Option<StopReason>,
}

/// The budget ran out, or the analysis was cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OutOfBudget;

impl<'a> NodeBudget<'a> {
    /// A budget of `nodes` nodes that also stops when `token` is raised.
    pub(crate) fn new(nodes: u64, token: Option<&'a CancelToken>) -> Self {
        NodeBudget {
            remaining: nodes,
            token,
            polls: 0,
            stop: None,
        }
    }

    /// Spends one node.
    pub(crate) fn spend(&mut self) -> Result<(), OutOfBudget> {
        if self.remaining == 0 || self.stop.is_some() {
            return Err(OutOfBudget);
        }
        self.remaining -= 1;
        self.polls += 1;
        if self.polls == 1024 {
            self.polls = 0;
            if let Some(Err(stop)) = self.token.map(CancelToken::check) {
                self.stop = Some(stop);
                return Err(OutOfBudget);
            }
        }
        Ok(())
    }

    /// The nodes left.
    pub(crate) fn remaining(&self) -> u64 {
        self.remaining
    }

    /// Whether nothing is left to spend: no nodes, or the token was raised.
    pub(crate) fn is_spent(&self) -> bool {
        self.remaining == 0 || self.stop.is_some()
    }

    /// Whether the work should stop: nothing left to spend, or the token raised (cancelled or
    /// timed out), looked at now rather than at the next poll.
    pub(crate) fn stopping(&self) -> bool {
        self.is_spent() || self.token.is_some_and(|token| token.reason().is_some())
    }

    /// Whether the token was raised (cancelled or timed out), looked at now: the work left
    /// is cut short, whatever nodes are left.
    pub(crate) fn token_raised(&self) -> bool {
        self.stop.is_some() || self.token.is_some_and(|token| token.reason().is_some())
    }

    /// The token, if the budget has one.
    pub(crate) fn token(&self) -> Option<&'a CancelToken> {
        self.token
    }

    /// Whether the token was cancelled (not merely timed out): the analysis is abandoned.
    pub(crate) fn was_cancelled(&self) -> bool {
        self.stop == Some(StopReason::Cancelled)
            || self
                .token
                .is_some_and(|token| token.reason() == Some(StopReason::Cancelled))
    }

    /// A budget for a sub-task: at most `nodes` of what is left, same token. Spend it and
    /// then hand it back with [`absorb`](Self::absorb).
    pub(crate) fn carve(&mut self, nodes: u64) -> NodeBudget<'a> {
        let share = nodes.min(self.remaining);
        self.remaining -= share;
        // The nodes since the token was last looked at go with the share, so that many small
        // carved searches in a row still look at it every 1024 nodes in all.
        NodeBudget {
            stop: self.stop,
            polls: self.polls,
            ..NodeBudget::new(share, self.token)
        }
    }

    /// Returns what a carved budget did not spend.
    pub(crate) fn absorb(&mut self, carved: &NodeBudget<'a>) {
        self.remaining += carved.remaining;
        self.polls = carved.polls;
        self.stop = self.stop.or(carved.stop);
    }
}

/// Why an attempt of [`Search::find`] stopped early.
enum Stop {
    /// The budget ran out.
    Budget,
    /// The attempt reached its cutoff; start over in a new order.
    Restart,
}

/// One attempt of [`Search::find`]: the budget, the attempt's node cutoff and the generator
/// that orders squares (seeded, so every analysis of a position gives the same answer).
struct Attempt<'r, 'b> {
    budget: &'r mut NodeBudget<'b>,
    nodes_left: u64,
    order: &'r mut SeededRng,
}

/// What a search for one completion found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Completion {
    /// A completion: the queens it adds to the board.
    Found(Vec<Square>),
    /// The board has no completion.
    None,
    /// The budget ran out first.
    Unknown,
}

/// Searches from a board; reuses one board and one list of candidate squares per depth, also
/// from one search to the next ([`restart`](Self::restart)): an analysis runs hundreds.
pub(crate) struct Search {
    stack: Vec<FreeBoard>,
    candidates: Vec<Vec<Square>>,
}

impl Search {
    /// A search from `start`.
    pub(crate) fn new(start: &FreeBoard) -> Self {
        Search {
            stack: vec![start.clone()],
            candidates: Vec::new(),
        }
    }

    /// Searches from `start` with a queen put on `square` next; returns that board (which may
    /// have a line with no free square left).
    pub(crate) fn restart(&mut self, start: &FreeBoard, square: Square) -> &FreeBoard {
        self.stack[0].clone_from(start);
        self.stack[0].place(square);
        &self.stack[0]
    }

    fn child(&mut self, depth: usize, square: Square) -> &FreeBoard {
        if self.stack.len() == depth + 1 {
            let copy = self.stack[depth].clone();
            self.stack.push(copy);
        } else {
            let (parents, children) = self.stack.split_at_mut(depth + 1);
            children[0].clone_from(&parents[depth]);
        }
        self.stack[depth + 1].place(square);
        &self.stack[depth + 1]
    }

    /// One completion, trying the squares `prefer` accepts first on every line.
    ///
    /// The search restarts with a fresh (seeded) order of the squares on each line whenever an
    /// attempt exceeds its node cutoff, which doubles every time: a depth-first search stuck
    /// below a bad early choice is the common way such searches fail on large boards. The last
    /// attempt runs to completion, so `None` is still a proof.
    pub(crate) fn find(
        &mut self,
        budget: &mut NodeBudget<'_>,
        prefer: &dyn Fn(Square) -> bool,
    ) -> Completion {
        let mut cutoff = 4 * u64::from(self.stack[0].side()) + 64;
        let mut order = SeededRng::seed_from_u64(0x0051_7e5e_a7c4);
        loop {
            let mut path = Vec::new();
            let mut attempt = Attempt {
                budget: &mut *budget,
                nodes_left: cutoff,
                order: &mut order,
            };
            match self.find_from(0, prefer, &mut path, &mut attempt) {
                Ok(true) => return Completion::Found(path),
                Ok(false) => return Completion::None,
                Err(Stop::Budget) => return Completion::Unknown,
                Err(Stop::Restart) => cutoff = cutoff.saturating_mul(2),
            }
        }
    }

    fn find_from(
        &mut self,
        depth: usize,
        prefer: &dyn Fn(Square) -> bool,
        path: &mut Vec<Square>,
        attempt: &mut Attempt<'_, '_>,
    ) -> Result<bool, Stop> {
        let board = &self.stack[depth];
        let Some((rank, free)) = board.tightest_rank() else {
            return Ok(true);
        };
        if free == 0 {
            return Ok(false);
        }
        // The preferred squares first, then the others, each part in a random order (the
        // others shuffled only if the search gets to them); one list per depth, reused.
        if self.candidates.len() <= depth {
            self.candidates.resize_with(depth + 1, Vec::new);
        }
        let mut candidates = std::mem::take(&mut self.candidates[depth]);
        candidates.clear();
        candidates.extend(board.free_in(rank).filter(|&square| prefer(square)));
        let preferred = candidates.len();
        candidates.extend(board.free_in(rank).filter(|&square| !prefer(square)));
        candidates[..preferred].shuffle(attempt.order);
        let found = self.try_candidates(depth, &mut candidates, preferred, prefer, path, attempt);
        self.candidates[depth] = candidates;
        found
    }

    /// Tries `candidates` in turn below `depth`; the first `preferred` are in order, the rest
    /// are shuffled when reached.
    fn try_candidates(
        &mut self,
        depth: usize,
        candidates: &mut [Square],
        preferred: usize,
        prefer: &dyn Fn(Square) -> bool,
        path: &mut Vec<Square>,
        attempt: &mut Attempt<'_, '_>,
    ) -> Result<bool, Stop> {
        for index in 0..candidates.len() {
            if index == preferred {
                candidates[preferred..].shuffle(attempt.order);
            }
            let square = candidates[index];
            attempt.budget.spend().map_err(|OutOfBudget| Stop::Budget)?;
            attempt.nodes_left = attempt.nodes_left.checked_sub(1).ok_or(Stop::Restart)?;
            self.child(depth, square);
            path.push(square);
            if self.find_from(depth + 1, prefer, path, attempt)? {
                return Ok(true);
            }
            path.pop();
        }
        Ok(false)
    }

    /// The number of completions, adding to `tally[row * n + col]` the completions that put a
    /// queen on each square the search places.
    pub(crate) fn count(
        &mut self,
        budget: &mut NodeBudget<'_>,
        tally: &mut [u64],
    ) -> Result<u64, OutOfBudget> {
        self.count_from(0, budget, tally)
    }

    fn count_from(
        &mut self,
        depth: usize,
        budget: &mut NodeBudget<'_>,
        tally: &mut [u64],
    ) -> Result<u64, OutOfBudget> {
        let board = &self.stack[depth];
        let n = board.side() as usize;
        let Some((rank, free)) = board.tightest_rank() else {
            return Ok(1);
        };
        if free == 0 {
            return Ok(0);
        }
        let squares: Vec<Square> = board.free_in(rank).collect();
        let mut total = 0;
        for square in squares {
            budget.spend()?;
            self.child(depth, square);
            let below = self.count_from(depth + 1, budget, tally)?;
            tally[square.row as usize * n + square.col as usize] += below;
            total += below;
        }
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A000170: [u64; 11] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

    /// Many small carved searches in a row (an explanation's checks, a square's attempts) see a
    /// raised token within 1024 nodes in all, as one search does: a carved budget does not
    /// start its count to the next look afresh.
    #[test]
    fn small_carved_budgets_see_a_raised_token() {
        let token = CancelToken::new();
        let mut budget = NodeBudget::new(u64::MAX, Some(&token));
        // Some nodes before the token is raised, so that the next look is mid-count.
        for _ in 0..500 {
            budget.spend().expect("the token is not raised yet");
        }
        token.cancel();
        let mut spent = 0;
        while !budget.is_spent() {
            let mut check = budget.carve(10);
            while check.spend().is_ok() {
                spent += 1;
            }
            budget.absorb(&check);
            assert!(
                spent <= 1024,
                "{spent} nodes spent after the token was raised"
            );
        }
        assert_eq!(budget.stop, Some(StopReason::Cancelled));
    }

    #[test]
    fn counts_match_oeis_and_tallies_sum_to_n_per_solution() {
        for n in 1..=10u32 {
            let mut budget = NodeBudget::new(u64::MAX, None);
            let mut tally = vec![0; (n * n) as usize];
            let total = Search::new(&FreeBoard::new(n))
                .count(&mut budget, &mut tally)
                .unwrap();
            assert_eq!(total, A000170[n as usize], "n = {n}");
            assert_eq!(tally.iter().sum::<u64>(), total * u64::from(n));
        }
    }

    #[test]
    fn finds_a_completion_or_proves_there_is_none() {
        for n in 1..=40u32 {
            let mut budget = NodeBudget::new(1_000_000, None);
            let found = Search::new(&FreeBoard::new(n)).find(&mut budget, &|_| false);
            match found {
                Completion::Found(queens) => {
                    assert_eq!(queens.len(), n as usize);
                    let board = queens_core::Board::with_queens(n, n, queens).unwrap();
                    assert!(queens_core::verify::verify(&board).is_solution());
                }
                other => assert!(n == 2 || n == 3, "n = {n}: {other:?}"),
            }
        }
    }

    #[test]
    fn an_exhausted_budget_is_unknown_not_none() {
        let mut budget = NodeBudget::new(3, None);
        assert_eq!(
            Search::new(&FreeBoard::new(12)).find(&mut budget, &|_| false),
            Completion::Unknown
        );
        let mut budget = NodeBudget::new(10, None);
        let mut tally = vec![0; 144];
        assert!(
            Search::new(&FreeBoard::new(12))
                .count(&mut budget, &mut tally)
                .is_err()
        );
    }
}
