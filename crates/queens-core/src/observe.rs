//! What a run reports: [`Event`]s, sent to an [`Observer`] that says which it wants.
//!
//! Observers are sampled: a solver only builds move and step events when the observer's
//! [`Interest`] asks for them (through its [`Reporter`]), so an unobserved run pays nothing for
//! the feature. The CLI's `--trace`, the experiment harness and the web page's animation are all
//! observers.

use std::num::NonZeroU64;
use std::ops::ControlFlow;

use serde::Serialize;

use crate::board::QueenList;
use crate::budget::StopReason;
use crate::square::Square;

/// Something a solver reports while it runs. Serialized as JSON with a `type` field
/// (`{"type": "place", "square": {"row": 0, "col": 3}}`), one per line in a trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event<'a> {
    /// A run begins.
    Started {
        /// The solver's name.
        solver: &'static str,
        /// Board ranks.
        rows: u32,
        /// Board files.
        cols: u32,
        /// Queens to place.
        queens: u32,
        /// The fixed queens.
        fixed: &'a [Square],
        /// Every queen on the board when the search begins, fixed ones included: replaying
        /// the events from here always gives the solver's current board. The whole start
        /// board when the observer wants moves; only the fixed queens otherwise.
        board: &'a [Square],
    },
    /// A solver's board before its first step (a local search's random start): the executor
    /// turns it into the `board` of `Started`; observers never receive it.
    #[serde(skip)]
    StartBoard {
        /// Its queens.
        queens: &'a [Square],
    },
    /// How far a solver's preparation has got before its first step, sent to observers that
    /// want steps but not moves (those get the start board instead): min-conflicts' start has
    /// placed `done` of `of` queens. Sent at its start, every million or so units and at its
    /// end (`done == of`).
    Preparing {
        /// What is being prepared, as a phrase (`"placing queens"`).
        stage: &'static str,
        /// Units done.
        done: u64,
        /// Units in all.
        of: u64,
        /// The share of the preparation's expected time behind it, 0 to 1: units may cost more
        /// as it goes (a queen is harder to place on a fuller board), so an estimate of the
        /// time left comes from this, not from `done / of`.
        share: f64,
    },
    /// A queen is put on a square.
    Place {
        /// Where.
        square: Square,
    },
    /// A queen is taken off a square.
    Remove {
        /// Where.
        square: Square,
    },
    /// A queen moves.
    Move {
        /// From here.
        from: Square,
        /// To here.
        to: Square,
    },
    /// The force on a queen as a force-driven solver (the electric force) pushes it, in
    /// squares per unit of force: `col` toward higher files, `row` toward higher ranks. Sent
    /// before the queen's move (none if the push is blocked), only when moves are wanted.
    Force {
        /// The queen pushed.
        queen: Square,
        /// The force along the ranks (toward higher files).
        col: f64,
        /// The force along the files (toward higher ranks).
        row: f64,
    },
    /// Progress of an iterative search: `score` is solver-defined (higher is better for local
    /// search, the depth for a tree search).
    /// It comes after the step's own moves, so that the board replayed up to a `Step` is the
    /// board after that step.
    Step {
        /// Iterations or nodes so far.
        iteration: u64,
        /// The current score.
        score: i64,
        /// The square a tree search examined in this step (its candidate), if it examines
        /// squares.
        #[serde(skip_serializing_if = "Option::is_none")]
        square: Option<Square>,
        /// What the step did and why, where the solver says (the local-search family,
        /// min-conflicts, the electric force, the genetic algorithm).
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<StepNote>,
    },
    /// A genetic algorithm's generation as bred, sent before its `Step` when moves are wanted
    /// and its chromosomes have at most [`POPULATION_MAX_QUEENS`] queens:
    /// its best chromosomes and how its fitness is spread, and one crossover and one mutation
    /// that bred it (what the page's population view draws).
    Population {
        /// The generation (0: the random start).
        generation: u64,
        /// Chromosomes in the population.
        size: u32,
        /// The best chromosomes, best first: at most [`POPULATION_SHOWN`] of them.
        best: &'a [Individual],
        /// How many chromosomes have each fitness, best first.
        spread: &'a [FitnessCount],
        /// The generation's first crossover, if it had one.
        #[serde(skip_serializing_if = "Option::is_none")]
        crossover: Option<&'a Crossover>,
        /// The generation's first mutation, if it had one.
        #[serde(skip_serializing_if = "Option::is_none")]
        mutation: Option<&'a Mutation>,
    },
    /// A solution an exhaustive search found on its way to more (asked for several, or every
    /// one), sent as it is found to an observer that wants them
    /// ([`Observer::wants_solutions`]): the `solution`-th, its queens sorted.
    Found {
        /// Which, counting from 1.
        solution: u64,
        /// Its queens, by row, then column.
        queens: &'a [Square],
    },
    /// The validated solution.
    Solution {
        /// Its queens.
        queens: QueenList<'a>,
    },
    /// The run is over.
    Finished {
        /// `"solved"`, `"unsolvable"` or `"stopped"`.
        status: &'static str,
        /// Nodes examined, if counted.
        nodes: Option<u64>,
        /// Iterations run, if counted.
        iterations: Option<u64>,
        /// Solutions an exhaustive search found, if it counts them.
        #[serde(skip_serializing_if = "Option::is_none")]
        solutions: Option<u64>,
        /// Wall time in milliseconds.
        #[serde(serialize_with = "crate::figures::milliseconds")]
        elapsed_ms: f64,
    },
}

/// What one step of a local search (a push of the electric force, a generation of a genetic
/// algorithm) did, and why: the reason behind the board's change, or
/// behind its lack of one. Serialized with a `kind` field
/// (`{"kind": "proposal", "from": …, "to": …, "loss": 2, "probability": 0.31, …}`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StepNote {
    /// Every queen thrown to a random row of its column.
    Thrown,
    /// Each queen in turn tried on a random row: `kept` moves kept, `undone` put back because
    /// they lowered the score.
    Tried {
        /// Moves kept (no worse).
        kept: u32,
        /// Moves put back (worse).
        undone: u32,
    },
    /// One proposed move (simulated annealing): `loss` is how much it lowers the score (0 or
    /// less: it does not), `probability` the chance it had of being taken at `temperature`.
    Proposal {
        /// The queen's square.
        from: Square,
        /// The square proposed.
        to: Square,
        /// Score lost by the move (negative: gained).
        loss: i64,
        /// The chance of taking it: 1 for a move no worse, e^(−loss/T) for a worse one.
        probability: f64,
        /// The temperature T of this step.
        temperature: f64,
        /// Whether it was taken.
        taken: bool,
    },
    /// The best single-queen move taken: it improves the score.
    Climbed {
        /// How much it improves the score (at least 1).
        gain: i64,
    },
    /// No single-queen move improves the score: a local optimum (the board stays).
    Stuck,
    /// `queens` random queens thrown to random rows instead of climbing.
    Shake {
        /// Queens thrown.
        queens: u32,
        /// The chance of a shake at this step.
        probability: f64,
    },
    /// The score stalled, so `queens` random queens were thrown to random rows: a partial
    /// random restart.
    Restart {
        /// Queens thrown.
        queens: u32,
    },
    /// Min-conflicts' repair of an attacked queen: a swap of its row with a random partner's,
    /// `taken` when it lowers the collisions, or made regardless (`kicked`) when the queen has
    /// found no better swap for too long.
    Swap {
        /// The attacked queen being repaired.
        queen: Square,
        /// The partner drawn (the queen itself when the draw fell on its own column).
        partner: Square,
        /// Whether the swap was made.
        taken: bool,
        /// Whether the swap was made regardless of its gain.
        kicked: bool,
    },
    /// Minton's min-conflicts: the attacked `queen` went to `to`, a row of its column where it
    /// has the fewest conflicts (`to` is `queen` when it stays).
    Repair {
        /// The attacked queen picked.
        queen: Square,
        /// Where it went.
        to: Square,
    },
    /// The electric force's push: every one of the `attacked` queens moved one square along
    /// the force on it; `restarted` when the step begins from a new random board (the last
    /// one did not settle, or its loose queens had no placement).
    Push {
        /// Queens attacked before the push.
        attacked: u32,
        /// Whether a new random board came before it.
        restarted: bool,
    },
    /// The last `queens` loose queens placed by brute force on free squares: a solution.
    BruteForce {
        /// Queens placed.
        queens: u32,
    },
    /// A genetic algorithm's generation, bred: its size and its best, mean and worst fitness
    /// (the board shown is its best).
    Generation {
        /// Chromosomes in the population.
        size: u32,
        /// The best fitness (0: a solution).
        best: i64,
        /// The mean fitness.
        mean: f64,
        /// The worst fitness.
        worst: i64,
    },
    /// An exhaustive search's board is a solution, its `solutions`-th: the search returns it,
    /// or goes on to the next when asked for more (its `solutions` parameter). Always sent to an
    /// observer that wants steps, whatever its sampling.
    Found {
        /// Solutions found so far, this one included.
        solutions: u64,
    },
}

/// The most chromosomes a [`Event::Population`] shows.
pub const POPULATION_SHOWN: usize = 24;

/// The most queens a chromosome may have for its population to be shown: beyond, a board
/// drawn small is unreadable, and each [`Event::Population`] would cost tens of kilobytes a
/// generation on a stream.
pub const POPULATION_MAX_QUEENS: usize = 50;

/// One chromosome of a population, as shown: its queens and its fitness.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Individual {
    /// Minus the pairs of queens attacking each other (0: a solution).
    pub fitness: i64,
    /// Its queens, in gene order.
    pub queens: Vec<Square>,
}

/// How many chromosomes of a population have one fitness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FitnessCount {
    /// The fitness.
    pub fitness: i64,
    /// Chromosomes with it.
    pub count: u32,
}

/// A crossover: two parents' genes merged alternately (duplicates skipped), the children
/// taking the first and the last genes of the merged list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Crossover {
    /// The two parents, in gene order.
    pub parents: [Vec<Square>; 2],
    /// Their genes merged alternately, duplicates skipped.
    pub merged: Vec<Square>,
    /// The two children, before any mutation.
    pub children: [Vec<Square>; 2],
}

/// A mutation: one queen of a child moved to a square no queen holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mutation {
    /// The child before the mutation, in gene order.
    pub before: Vec<Square>,
    /// The queen moved.
    pub from: Square,
    /// Where it went.
    pub to: Square,
}

/// Which events an observer wants beyond `Started`, `Solution` and `Finished` (always sent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Interest {
    /// `Place`, `Remove` and `Move` events, every one of them.
    pub moves: bool,
    /// A `Step` event every so many iterations or nodes; `None` for none.
    pub steps: Option<NonZeroU64>,
}

impl Interest {
    /// Nothing beyond the start and the end.
    pub const NONE: Interest = Interest {
        moves: false,
        steps: None,
    };

    /// Every event.
    pub const ALL: Interest = Interest {
        moves: true,
        steps: Some(NonZeroU64::MIN),
    };
}

/// Receives a run's events and may stop it by returning [`ControlFlow::Break`].
///
/// Both methods have no-op defaults. Override [`interest`](Observer::interest) to receive
/// moves or steps: solvers ask it once per run and skip building events nobody wants.
pub trait Observer {
    /// The events wanted beyond start and finish.
    fn interest(&self) -> Interest {
        Interest::NONE
    }

    /// One event; `Break` stops the run with [`StopReason::Observer`].
    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        let _ = event;
        ControlFlow::Continue(())
    }

    /// Whether to receive every solution an exhaustive search finds as [`Event::Found`] (what
    /// `solve --all` prints); asked once per run, like the interest.
    fn wants_solutions(&self) -> bool {
        false
    }
}

/// An observer that wants nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {}

/// Any closure over events is an observer of every event.
impl<F: FnMut(&Event<'_>) -> ControlFlow<()>> Observer for F {
    fn interest(&self) -> Interest {
        Interest::ALL
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        self(event)
    }
}

/// Two observers in one: both see every event; the run stops if either asks.
impl<A: Observer, B: Observer> Observer for (A, B) {
    fn interest(&self) -> Interest {
        let (a, b) = (self.0.interest(), self.1.interest());
        Interest {
            moves: a.moves || b.moves,
            steps: match (a.steps, b.steps) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            },
        }
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        let first = self.0.observe(event);
        let second = self.1.observe(event);
        if first.is_break() || second.is_break() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn wants_solutions(&self) -> bool {
        self.0.wants_solutions() || self.1.wants_solutions()
    }
}

/// An optional observer: `None` wants nothing.
impl<O: Observer> Observer for Option<O> {
    fn interest(&self) -> Interest {
        self.as_ref().map_or(Interest::NONE, Observer::interest)
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        self.as_mut().map_or(ControlFlow::Continue(()), |observer| {
            observer.observe(event)
        })
    }

    fn wants_solutions(&self) -> bool {
        self.as_ref().is_some_and(Observer::wants_solutions)
    }
}

/// A solver's view of its observer: asks for the interest once, then turns unwanted events into
/// no-ops and counts down to the next sampled step.
pub struct Reporter<'o> {
    observer: &'o mut dyn Observer,
    moves: bool,
    solutions: bool,
    step_every: u64,
    until_step: u64,
}

impl<'o> Reporter<'o> {
    /// Wraps `observer`, reading its interest.
    pub fn new(observer: &'o mut dyn Observer) -> Self {
        let interest = observer.interest();
        let step_every = interest.steps.map_or(0, NonZeroU64::get);
        let solutions = observer.wants_solutions();
        Reporter {
            observer,
            moves: interest.moves,
            solutions,
            step_every,
            until_step: step_every,
        }
    }

    /// Whether move events are wanted (to skip work that only feeds them).
    #[inline]
    pub fn wants_moves(&self) -> bool {
        self.moves
    }

    /// Whether every solution found is wanted ([`Observer::wants_solutions`]).
    #[inline]
    pub fn wants_solutions(&self) -> bool {
        self.solutions
    }

    /// Reports the `solution`-th solution found, whose queens `queens` lists (sorted here), if
    /// solutions are wanted.
    pub fn found(&mut self, solution: u64, queens: &mut [Square]) -> Result<(), StopReason> {
        if !self.solutions {
            return Ok(());
        }
        queens.sort_unstable();
        self.send(&Event::Found { solution, queens })
    }

    /// Reports the board a search starts from, when moves are wanted: a solver that begins
    /// from a full board (a random start) calls this once, before any other event, so that
    /// `Started` carries it. `queens` is called only when moves are wanted.
    pub fn start_board(&mut self, queens: impl FnOnce() -> Vec<Square>) -> Result<(), StopReason> {
        if self.moves {
            let queens = queens();
            self.send(&Event::StartBoard { queens: &queens })
        } else {
            Ok(())
        }
    }

    /// Reports how far the preparation before the first step has got (`done` of `of` units of
    /// `stage`, `share` of its expected time), to an observer that wants steps but not moves.
    pub fn preparing(
        &mut self,
        stage: &'static str,
        done: u64,
        of: u64,
        share: f64,
    ) -> Result<(), StopReason> {
        if self.step_every == 0 || self.moves {
            return Ok(());
        }
        self.send(&Event::Preparing {
            stage,
            done,
            of,
            share,
        })
    }

    /// Reports a placement, if wanted.
    #[inline]
    pub fn place(&mut self, square: Square) -> Result<(), StopReason> {
        self.if_moves(&Event::Place { square })
    }

    /// Reports a removal, if wanted.
    #[inline]
    pub fn remove(&mut self, square: Square) -> Result<(), StopReason> {
        self.if_moves(&Event::Remove { square })
    }

    /// Reports a move, if wanted.
    #[inline]
    pub fn moved(&mut self, from: Square, to: Square) -> Result<(), StopReason> {
        self.if_moves(&Event::Move { from, to })
    }

    /// Reports the force on a queen about to be pushed, if moves are wanted.
    #[inline]
    pub fn force(&mut self, queen: Square, col: f64, row: f64) -> Result<(), StopReason> {
        self.if_moves(&Event::Force { queen, col, row })
    }

    /// Reports `event`, a change of the board, if moves are wanted.
    #[inline]
    fn if_moves(&mut self, event: &Event<'_>) -> Result<(), StopReason> {
        if self.moves { self.send(event) } else { Ok(()) }
    }

    /// Reports an event that the solver built itself because [`wants_moves`](Self::wants_moves)
    /// said moves are wanted (a genetic population).
    pub fn report(&mut self, event: &Event<'_>) -> Result<(), StopReason> {
        self.send(event)
    }

    /// Counts one iteration; every `steps`-th one reports `score()`.
    #[inline]
    pub fn step(&mut self, iteration: u64, score: impl FnOnce() -> i64) -> Result<(), StopReason> {
        self.send_step(iteration, score, None, || None)
    }

    /// Counts one iteration; every `steps`-th one reports `score()` and what the step did.
    #[inline]
    pub fn step_noted(
        &mut self,
        iteration: u64,
        score: impl FnOnce() -> i64,
        note: impl FnOnce() -> StepNote,
    ) -> Result<(), StopReason> {
        self.send_step(iteration, score, None, || Some(note()))
    }

    /// Counts one node of a tree search that examined `square`; every `steps`-th one reports
    /// `score()` and the square.
    #[inline]
    pub fn step_at(
        &mut self,
        iteration: u64,
        score: impl FnOnce() -> i64,
        square: Option<Square>,
    ) -> Result<(), StopReason> {
        self.send_step(iteration, score, square, || None)
    }

    /// Counts one node of a tree search whose board is its `solutions`-th solution, and
    /// reports it (with `score()` and the square examined) whatever the sampling, so that an
    /// observer that wants steps misses no solution.
    pub fn step_found(
        &mut self,
        iteration: u64,
        score: impl FnOnce() -> i64,
        square: Option<Square>,
        solutions: u64,
    ) -> Result<(), StopReason> {
        if self.step_every == 0 {
            return Ok(());
        }
        self.send_step_now(
            iteration,
            score,
            square,
            Some(StepNote::Found { solutions }),
        )
    }

    #[inline]
    fn send_step(
        &mut self,
        iteration: u64,
        score: impl FnOnce() -> i64,
        square: Option<Square>,
        note: impl FnOnce() -> Option<StepNote>,
    ) -> Result<(), StopReason> {
        if self.step_every == 0 {
            return Ok(());
        }
        self.until_step -= 1;
        if self.until_step > 0 {
            return Ok(());
        }
        self.send_step_now(iteration, score, square, note())
    }

    /// Sends a step now, and counts the next sampled one from here.
    fn send_step_now(
        &mut self,
        iteration: u64,
        score: impl FnOnce() -> i64,
        square: Option<Square>,
        note: Option<StepNote>,
    ) -> Result<(), StopReason> {
        self.until_step = self.step_every;
        self.send(&Event::Step {
            iteration,
            score: score(),
            square,
            note,
        })
    }

    fn send(&mut self, event: &Event<'_>) -> Result<(), StopReason> {
        match self.observer.observe(event) {
            ControlFlow::Continue(()) => Ok(()),
            ControlFlow::Break(()) => Err(StopReason::Observer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_serialize_with_a_type_tag() {
        let json = serde_json::to_string(&Event::Place {
            square: Square::new(0, 3),
        })
        .unwrap();
        assert_eq!(json, r#"{"type":"place","square":{"row":0,"col":3}}"#);
    }

    #[test]
    fn reporter_samples_steps() {
        struct Every3(Vec<u64>);
        impl Observer for Every3 {
            fn interest(&self) -> Interest {
                Interest {
                    moves: false,
                    steps: NonZeroU64::new(3),
                }
            }
            fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
                if let Event::Step { iteration, .. } = event {
                    self.0.push(*iteration);
                }
                ControlFlow::Continue(())
            }
        }
        let mut observer = Every3(Vec::new());
        let mut reporter = Reporter::new(&mut observer);
        for i in 1..=10 {
            reporter.step(i, || 0).unwrap();
            reporter.place(Square::new(0, 0)).unwrap();
        }
        assert_eq!(observer.0, vec![3, 6, 9]);
    }

    #[test]
    fn a_found_solution_goes_only_to_an_observer_that_wants_every_one() {
        /// Keeps the `Found` events it is sent; wants them if `.1`.
        struct Solutions(Vec<(u64, Vec<Square>)>, bool);
        impl Observer for Solutions {
            fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
                if let Event::Found { solution, queens } = *event {
                    self.0.push((solution, queens.to_vec()));
                }
                ControlFlow::Continue(())
            }
            fn wants_solutions(&self) -> bool {
                self.1
            }
        }
        for wanted in [false, true] {
            // Through a pair and an option, as the command line combines its observers.
            let mut observer = (NoObserver, Some(Solutions(Vec::new(), wanted)));
            let mut reporter = Reporter::new(&mut observer);
            assert_eq!(reporter.wants_solutions(), wanted);
            let mut queens = vec![Square::new(1, 3), Square::new(0, 1)];
            reporter.found(1, &mut queens).unwrap();
            let told = observer.1.unwrap().0;
            if wanted {
                assert_eq!(told, vec![(1, vec![Square::new(0, 1), Square::new(1, 3)])]);
            } else {
                assert!(told.is_empty());
            }
        }
    }
}
