//! Deciding a position: whether it completes, and one completion if it does.
//!
//! The proof is one exhaustive search: each step branches on the most constrained free line
//! ([`Position::next`]), every open square of that line is tried in turn, and the position has no
//! completion exactly when every branch ends on a line with no open square. Nothing is learnt
//! or pruned beyond that, so the proof is the whole tree below the position, and its size does
//! not depend on the order in which a line's squares are tried.
//!
//! That order matters when there is a completion: on a large, nearly empty board the search can
//! wander for hours in a barren subtree below its first choice while another first choice leads
//! straight to a completion — the heavy tail of backtracking. So on positions with
//! [`PROBES_FROM`] or more free rows, short *probes* run beside the exhaustive search: probe i
//! tries each line's squares from a rotated point of its own and may place 64·N·2ⁱ queens. The
//! exhaustive search is never thrown away; it pauses while a probe runs and resumes where it
//! stopped, and it is given [`SEARCH_PER_PROBE`] times the probes' work before the next one. A
//! position with no completion thus costs its one proof plus probes that add up to at most
//! 2/[`SEARCH_PER_PROBE`] of it (and one first probe of 64·N queens), while a search stuck in a
//! heavy tail is overtaken by a probe within a small multiple of that probe's work. Every run is
//! deterministic, so node counts are too.

use queens_core::solve::Reporter;
use queens_core::{Budget, Problem, Square, StopReason};

use super::bits::Lines;
use super::{Next, Position, branch_square};
use crate::{Found, Walk, count_node};

/// From this many free rows on, probes run beside the exhaustive search.
pub(super) const PROBES_FROM: u32 = 32;

/// The exhaustive search's work between probes, as a multiple of all the probes' work so far:
/// the probes add at most 2/8 = 25 % to a proof that no completion exists.
pub(super) const SEARCH_PER_PROBE: u64 = 8;

/// The queens the first probe may place, per row of the board.
const FIRST_PROBE_PER_ROW: u64 = 64;

/// The search as the tree-search runner calls it.
pub(super) fn search(problem: &Problem, walk: &mut Walk<'_, '_>) -> Found {
    let n = problem.rows();
    with_lines!(n, L => {
        let Some(mut position) = Position::<L>::of(problem) else {
            // The descriptor's check refuses such a problem before the run.
            return Ok(());
        };
        let (budget, reporter, nodes, tally) = walk.parts();
        if decide(&mut position, budget, nodes, reporter)? {
            tally.found_silently(reporter, || position.queens.clone())?;
        }
        Ok(())
    }, Ok(()))
}

/// Why a run of the search ended before its end.
enum Halt {
    /// The budget stopped it.
    Stop(StopReason),
    /// It placed the queens its run allowed.
    Cap,
}

impl From<StopReason> for Halt {
    fn from(stop: StopReason) -> Self {
        Halt::Stop(stop)
    }
}

/// Whether `position` completes; on `true` the position holds the completion. The exhaustive
/// search alone on positions with fewer than [`PROBES_FROM`] free rows, with probes beside it on
/// the others (see the module's documentation).
pub(super) fn decide<L: Lines>(
    position: &mut Position<L>,
    budget: &Budget,
    nodes: &mut u64,
    reporter: &mut Reporter<'_>,
) -> Result<bool, StopReason> {
    let mut exhaustive = Exhaustive::default();
    if position.free_rows.count() < PROBES_FROM {
        return exhaustive
            .run(position, u64::MAX, budget, nodes, reporter)
            .map_err(Halt::into_stop);
    }
    let mut probe_cap = FIRST_PROBE_PER_ROW * u64::from(position.n);
    let mut probed = 0u64;
    let mut searched = 0u64;
    for index in 1.. {
        let mut left = probe_cap;
        match probe(position, index, &mut left, budget, nodes, reporter) {
            // A probe that ends within its cap has searched the whole tree: its answer stands.
            Ok(found) => return Ok(found),
            Err(Halt::Stop(stop)) => return Err(stop),
            Err(Halt::Cap) => {}
        }
        probed = probed.saturating_add(probe_cap);
        probe_cap = probe_cap.saturating_mul(2);
        let goal = probed.saturating_mul(SEARCH_PER_PROBE);
        exhaustive.resume(position, reporter)?;
        match exhaustive.run(position, goal - searched, budget, nodes, reporter) {
            Ok(found) => return Ok(found),
            Err(Halt::Stop(stop)) => return Err(stop),
            Err(Halt::Cap) => exhaustive.pause(position, reporter)?,
        }
        searched = goal;
    }
    unreachable!("the exhaustive search ends once its work reaches the tree's size")
}

impl Halt {
    /// The stop, for a run without a cap.
    fn into_stop(self) -> StopReason {
        match self {
            Halt::Stop(stop) => stop,
            Halt::Cap => unreachable!("an uncapped run is never capped"),
        }
    }
}

/// One line branched on by the exhaustive search: the squares of it not yet tried, and the
/// one whose subtree is being searched.
#[derive(Clone, Copy, Debug)]
struct Frame<L> {
    on_row: bool,
    line: u32,
    untried: L,
    placed: Option<Square>,
}

/// The exhaustive search, each line's squares in order, as an explicit stack that can stop
/// after any number of queens and resume there.
#[derive(Debug)]
struct Exhaustive<L> {
    frames: Vec<Frame<L>>,
    /// Whether the position below the last queen placed is still to be looked at (true at the
    /// start, before the root is).
    look: bool,
}

impl<L> Default for Exhaustive<L> {
    fn default() -> Self {
        Exhaustive {
            frames: Vec::new(),
            look: true,
        }
    }
}

impl<L: Lines> Exhaustive<L> {
    /// Searches on from where it stopped, placing at most `cap` queens: `Ok(true)` with the
    /// completion on the board, `Ok(false)` once the whole tree is searched.
    fn run(
        &mut self,
        position: &mut Position<L>,
        cap: u64,
        budget: &Budget,
        nodes: &mut u64,
        reporter: &mut Reporter<'_>,
    ) -> Result<bool, Halt> {
        let mut left = cap;
        loop {
            if std::mem::take(&mut self.look) {
                let next = position.next();
                match next.branch() {
                    Some((on_row, line, untried)) => self.frames.push(Frame {
                        on_row,
                        line,
                        untried,
                        placed: None,
                    }),
                    None if matches!(next, Next::Complete) => return Ok(true),
                    None => {}
                }
            }
            let Some(frame) = self.frames.last_mut() else {
                return Ok(false);
            };
            if let Some(square) = frame.placed.take() {
                position.remove(square.row, square.col);
                reporter.remove(square)?;
            }
            if frame.untried.is_empty() {
                self.frames.pop();
                continue;
            }
            if left == 0 {
                return Err(Halt::Cap);
            }
            left -= 1;
            let bit = frame.untried.pop_lowest().unwrap_or_default();
            let (row, col) = branch_square(frame.on_row, frame.line, bit);
            count_node(nodes, budget)?;
            let square = Square::new(row, col);
            position.place(row, col);
            frame.placed = Some(square);
            self.look = true;
            reporter.place(square)?;
            let depth = position.queens.len() as i64;
            reporter.step_at(*nodes, || depth, Some(square))?;
        }
    }

    /// Takes its queens off the board (a probe starts from the position itself).
    fn pause(
        &self,
        position: &mut Position<L>,
        reporter: &mut Reporter<'_>,
    ) -> Result<(), StopReason> {
        for square in self.frames.iter().rev().filter_map(|frame| frame.placed) {
            position.remove(square.row, square.col);
            reporter.remove(square)?;
        }
        Ok(())
    }

    /// Puts its queens back where [`pause`](Self::pause) took them from.
    fn resume(
        &self,
        position: &mut Position<L>,
        reporter: &mut Reporter<'_>,
    ) -> Result<(), StopReason> {
        for square in self.frames.iter().filter_map(|frame| frame.placed) {
            position.place(square.row, square.col);
            reporter.place(square)?;
        }
        Ok(())
    }
}

/// A probe: whether `position` completes (on `true` the position holds the completion),
/// trying each line's squares from a point that depends on `probe` and the depth, placing at
/// most `left` queens.
fn probe<L: Lines>(
    position: &mut Position<L>,
    probe_index: u32,
    left: &mut u64,
    budget: &Budget,
    nodes: &mut u64,
    reporter: &mut Reporter<'_>,
) -> Result<bool, Halt> {
    let next = position.next();
    let Some((on_row, line, open)) = next.branch() else {
        return Ok(matches!(next, Next::Complete));
    };
    let pivot = rotation(probe_index, position.queens.len(), position.n);
    let from_pivot = open & !L::first(pivot);
    let before_pivot = open & L::first(pivot);
    for mut part in [from_pivot, before_pivot] {
        while let Some(bit) = part.pop_lowest() {
            if *left == 0 {
                return Err(Halt::Cap);
            }
            *left -= 1;
            let (row, col) = branch_square(on_row, line, bit);
            count_node(nodes, budget)?;
            let square = Square::new(row, col);
            position.place(row, col);
            reporter.place(square)?;
            let depth = position.queens.len() as i64;
            reporter.step_at(*nodes, || depth, Some(square))?;
            let below = probe(position, probe_index, left, budget, nodes, reporter);
            if matches!(below, Ok(true) | Err(Halt::Stop(_))) {
                return below;
            }
            position.remove(row, col);
            reporter.remove(square)?;
            below?;
        }
    }
    Ok(false)
}

/// Where probe `probe_index` starts trying a line's squares at `depth`: a well-spread point of
/// the line.
fn rotation(probe_index: u32, depth: usize, n: u32) -> u32 {
    let mixed = (u64::from(probe_index) << 32 | depth as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    ((mixed >> 32) % u64::from(n)) as u32
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use queens_core::Event;

    use super::*;

    /// N×N with each square blocked where a hash of (`seed`, square) falls below `per_mille`.
    fn scattered_blocks(n: u32, seed: u64, per_mille: u64) -> Problem {
        let blocked = (0..n)
            .flat_map(|row| (0..n).map(move |col| Square::new(row, col)))
            .filter(|square| {
                let key = seed << 32 | u64::from(square.row) << 16 | u64::from(square.col);
                let mixed = key.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ key >> 29;
                (mixed.wrapping_mul(0xbf58_476d_1ce4_e5b9) >> 32) % 1000 < per_mille
            })
            .collect();
        Problem::square(n).unwrap().with_blocked(blocked).unwrap()
    }

    /// The exhaustive search alone, uncapped: its answer and nodes.
    fn exhaustive_alone(problem: &Problem) -> (bool, u64) {
        let mut position = Position::<u64>::of(problem).unwrap();
        let mut nodes = 0;
        let mut observer = queens_core::NoObserver;
        let mut reporter = Reporter::new(&mut observer);
        let found = Exhaustive::default()
            .run(
                &mut position,
                u64::MAX,
                &Budget::unlimited(),
                &mut nodes,
                &mut reporter,
            )
            .map_err(Halt::into_stop)
            .unwrap();
        (found, nodes)
    }

    /// `decide`'s answer and nodes, checking that the board its events draw is the search's
    /// board after every event and ends as the completion (or empty).
    fn decided(problem: &Problem) -> (bool, u64) {
        let mut position = Position::<u64>::of(problem).unwrap();
        let mut nodes = 0;
        let mut drawn: Vec<Square> = Vec::new();
        let mut observer = |event: &Event<'_>| {
            match *event {
                Event::Place { square } => {
                    assert!(!drawn.contains(&square), "{square:?} placed twice");
                    drawn.push(square);
                }
                Event::Remove { square } => {
                    let at = drawn.iter().position(|&q| q == square);
                    drawn.swap_remove(at.expect("a queen removed that is not on the board"));
                }
                _ => {}
            }
            ControlFlow::Continue(())
        };
        let mut reporter = Reporter::new(&mut observer);
        let found = decide(
            &mut position,
            &Budget::unlimited(),
            &mut nodes,
            &mut reporter,
        )
        .unwrap();
        let mut placed = position.queens.clone();
        placed.sort_unstable();
        drawn.sort_unstable();
        assert_eq!(drawn, placed, "the events draw the search's board");
        assert_eq!(found, placed.len() == problem.rows() as usize);
        (found, nodes)
    }

    #[test]
    fn probes_add_at_most_a_quarter_to_a_proof_that_no_completion_exists() {
        let mut proofs = 0;
        for seed in 0..30 {
            let problem = scattered_blocks(36, seed, 820);
            let (found, tree) = exhaustive_alone(&problem);
            // Trees big enough for a second probe.
            if found || tree < 2 * SEARCH_PER_PROBE * FIRST_PROBE_PER_ROW * 36 {
                continue;
            }
            let (decided_found, nodes) = decided(&problem);
            assert!(!decided_found, "seed {seed}");
            assert!(nodes > tree, "seed {seed}: probes ran beside the proof");
            let bound = tree + 2 * tree / SEARCH_PER_PROBE + FIRST_PROBE_PER_ROW * 36;
            assert!(
                nodes <= bound,
                "seed {seed}: {nodes} nodes for a proof of {tree}"
            );
            proofs += 1;
        }
        assert!(
            proofs >= 3,
            "only {proofs} hard unsolvable positions among the seeds"
        );
    }

    #[test]
    fn decide_agrees_with_the_exhaustive_search_and_its_events_draw_its_board() {
        for seed in 0..30 {
            let problem = scattered_blocks(36, seed, 820);
            let (found, _) = exhaustive_alone(&problem);
            assert_eq!(decided(&problem).0, found, "seed {seed}");
        }
    }

    #[test]
    fn a_paused_search_resumes_where_it_stopped() {
        let problem = scattered_blocks(36, 7, 820);
        let whole = exhaustive_alone(&problem);
        let mut position = Position::<u64>::of(&problem).unwrap();
        let mut exhaustive = Exhaustive::default();
        let (mut nodes, budget) = (0, Budget::unlimited());
        let mut observer = queens_core::NoObserver;
        let mut reporter = Reporter::new(&mut observer);
        let found = loop {
            match exhaustive.run(&mut position, 7, &budget, &mut nodes, &mut reporter) {
                Ok(found) => break found,
                Err(Halt::Stop(stop)) => panic!("stopped: {stop:?}"),
                Err(Halt::Cap) => {
                    exhaustive.pause(&mut position, &mut reporter).unwrap();
                    assert!(position.queens.is_empty(), "a pause clears the board");
                    exhaustive.resume(&mut position, &mut reporter).unwrap();
                }
            }
        };
        assert_eq!((found, nodes), whole);
    }
}
