//! The two engines behind one interface, and the analysis they feed.
//!
//! Either engine answers one question per free square: is it in some completion? The diagram
//! answers exactly with counts; the search answers with exact counts when enumerating the
//! completions is cheap, and otherwise square by square with witnesses (every completion found
//! marks all of its squares possible) within a node budget, leaving `unknown` what the budget
//! could not decide. Forced queens, statuses and reasons are then derived the same way for both.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use queens_core::{Budget, Problem, Square};
use queens_exact::completion;
use thiserror::Error;

use crate::analysis::{Analysis, Cell, EngineUsed, Explanation, Reason, Status};
use crate::bits::FreeBoard;
use crate::diagram::{CompletionCounts, MAX_DIAGRAM_N, SolutionDiagram};
use crate::explain::Explainer;
use crate::position::Position;
use crate::search::{Completion, NodeBudget, Search};

/// Which engine analyses a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The diagram where it is cheap to build or already built, the search elsewhere.
    #[default]
    Auto,
    /// The binary decision diagram of all solutions (N ≤ 13); built on first use and cached.
    Bdd,
    /// Completion search on bit boards, for any N.
    Search,
}

impl Engine {
    /// The names accepted by [`FromStr`].
    pub const NAMES: [&'static str; 3] = ["auto", "bdd", "search"];
}

impl FromStr for Engine {
    type Err = UnknownEngine;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name {
            "auto" => Ok(Engine::Auto),
            "bdd" => Ok(Engine::Bdd),
            "search" => Ok(Engine::Search),
            _ => Err(UnknownEngine(name.to_owned())),
        }
    }
}

/// An engine name that is not one of [`Engine::NAMES`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown engine `{0}`; expected auto, bdd or search")]
pub struct UnknownEngine(pub String);

/// Why an analysis produced no result.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AnalysisError {
    /// Its budget's token was cancelled (a newer click, a client that left, Ctrl-C).
    #[error("the analysis was cancelled")]
    Cancelled,
    /// The diagram engine was asked for a board it is not built for.
    #[error("the diagram engine works up to {max}×{max}, not {n}×{n}; use the search engine")]
    DiagramTooLarge {
        /// The side asked for.
        n: u32,
        /// The largest side.
        max: u32,
    },
    /// The diagram was not built before the budget's time limit (a build stopped by Ctrl-C, a
    /// newer click or a client that left is [`Cancelled`](Self::Cancelled)).
    #[error(
        "the diagram of {n}×{n} was not built within the time limit; give it longer or use the search engine"
    )]
    DiagramStopped {
        /// The side asked for.
        n: u32,
    },
    /// Building the diagram would take more memory than this configurator may.
    #[error("building the diagram of {n}×{n} takes about {} MiB, more than the {} MiB allowed here; use the search engine", needed >> 20, limit >> 20)]
    DiagramMemory {
        /// The side asked for.
        n: u32,
        /// The build's estimated peak, in bytes.
        needed: u64,
        /// The limit, in bytes.
        limit: u64,
    },
    /// Building the diagram would take more memory than the machine, the control group or the
    /// address-space limit (`ulimit -v`) leaves the process now.
    #[error("building the diagram of {n}×{n} takes about {} MiB, but only {} MiB of memory is available; use the search engine", needed >> 20, available >> 20)]
    DiagramRoom {
        /// The side asked for.
        n: u32,
        /// The build's estimated peak, in bytes.
        needed: u64,
        /// What is left, in bytes ([`queens_core::memory::available`]).
        available: u64,
    },
}

/// The peak memory of building the diagram of N×N, in bytes: measured at 18, 72 and 395 MB
/// for N = 11, 12 and 13 (`/usr/bin/time -f %M queens configure N --engine bdd`), growing
/// about fivefold a side; this is the bound's fit with room to spare.
pub fn diagram_build_bytes(n: u32) -> u64 {
    let below = MAX_DIAGRAM_N.saturating_sub(n).min(20);
    (420 << 20) / 5u64.pow(below)
}

/// The search nodes an analysis may spend when its budget sets no node cap.
pub const DEFAULT_NODES: u64 = 2_000_000;

/// How an analysis divides its node budget (the [`Budget`]'s node cap, or
/// [`DEFAULT_NODES`]) between its tasks.
#[derive(Clone, Debug)]
pub struct Shares {
    /// The nodes spent trying to count all completions exactly.
    pub count_nodes: u64,
    /// The nodes one undecided square may spend.
    pub square_nodes: u64,
    /// The nodes spent narrowing down the queens to blame for dead squares that no line
    /// argument explains; past it, the reason names all user queens, marked not minimal.
    pub explain_nodes: u64,
}

impl Default for Shares {
    fn default() -> Self {
        Shares {
            count_nodes: 400_000,
            square_nodes: 50_000,
            explain_nodes: 100_000,
        }
    }
}

/// Counting is tried with the whole count budget while at most this many rows are empty;
/// beyond, only with a hundredth of it (enough for a tightly constrained position).
const COUNT_EMPTY_ROWS: usize = 13;

/// Boards up to this side get the diagram in [`Engine::Auto`] even when not built yet (it
/// builds in tens of milliseconds); larger ones up to [`MAX_DIAGRAM_N`] once it is cached.
pub const AUTO_BUILD_MAX: u32 = 11;

/// One size's diagram: built once, by whichever analysis asks first (`None` when the size has
/// none).
type DiagramCell = OnceLock<Option<Arc<SolutionDiagram>>>;

/// Analyses positions; keeps the diagrams it built, one per board size. Analyses that need the
/// same diagram at once wait for one build rather than each building their own.
#[derive(Debug, Default)]
pub struct Configurator {
    diagrams: Mutex<HashMap<u32, Arc<DiagramCell>>>,
    /// Held by the one build under way, so that others wait for it rather than build too.
    building: Mutex<()>,
    /// The most memory one build may take, if limited.
    build_memory: Option<u64>,
}

/// What an engine learned: per square, whether it is in some completion.
struct Knowledge {
    solvable: Option<bool>,
    /// `possible[row * n + col]` for the free squares; `None` where undecided.
    possible: Vec<Option<bool>>,
    counts: Option<CompletionCounts>,
    engine: EngineUsed,
}

impl Configurator {
    /// A configurator with no diagrams built yet.
    pub fn new() -> Self {
        Configurator::default()
    }

    /// A configurator whose diagram builds may take at most `bytes` each (by
    /// [`diagram_build_bytes`]); a larger build is refused, a diagram already built is used.
    #[must_use]
    pub fn with_build_memory(mut self, bytes: u64) -> Self {
        self.build_memory = Some(bytes);
        self
    }

    /// The diagram for N×N, built now if it is not cached (`None` beyond [`MAX_DIAGRAM_N`], or
    /// when its build would exceed the memory allowed). One build per size: a second caller
    /// waits for the first one's.
    pub fn diagram(&self, n: u32) -> Option<Arc<SolutionDiagram>> {
        self.diagram_within(n, &queens_core::CancelToken::new())
            .ok()
            .flatten()
    }

    /// The diagram for N×N as [`diagram`](Self::diagram) gives it, but given up on once `stop`
    /// is raised — while building it, or while waiting for another analysis's build.
    fn diagram_within(
        &self,
        n: u32,
        stop: &queens_core::CancelToken,
    ) -> Result<Option<Arc<SolutionDiagram>>, AnalysisError> {
        let cell = {
            let mut diagrams = self.diagrams.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(diagrams.entry(n).or_default())
        };
        if let Some(built) = cell.get() {
            return Ok(built.clone());
        }
        if let Some(limit) = self.build_memory
            && n <= MAX_DIAGRAM_N
            && diagram_build_bytes(n) > limit
        {
            return Err(AnalysisError::DiagramMemory {
                n,
                needed: diagram_build_bytes(n),
                limit,
            });
        }
        // One build at a time; a waiter keeps looking at its own stop.
        let _building = loop {
            match self.building.try_lock() {
                Ok(guard) => break guard,
                Err(std::sync::TryLockError::Poisoned(poisoned)) => break poisoned.into_inner(),
                Err(std::sync::TryLockError::WouldBlock) => {
                    if stop.is_cancelled() {
                        return Err(stopped_building(n, stop));
                    }
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
            }
        };
        if let Some(built) = cell.get() {
            return Ok(built.clone());
        }
        // What is left is read as the build starts, after any wait for another's: a build that
        // does not fit would end the process when its allocation fails.
        let needed = diagram_build_bytes(n);
        if n <= MAX_DIAGRAM_N
            && let Some(available) = queens_core::memory::available()
            && u128::from(needed) > available
        {
            return Err(AnalysisError::DiagramRoom {
                n,
                needed,
                available: u64::try_from(available).unwrap_or(u64::MAX),
            });
        }
        let built = SolutionDiagram::build_within(n, stop)
            .map_err(|_| stopped_building(n, stop))?
            .map(Arc::new);
        Ok(cell.get_or_init(|| built).clone())
    }

    fn cached(&self, n: u32) -> Option<Arc<SolutionDiagram>> {
        let diagrams = self.diagrams.lock().unwrap_or_else(PoisonError::into_inner);
        diagrams
            .get(&n)
            .and_then(|cell| cell.get().cloned().flatten())
    }

    /// The analysis of `position` by `engine` within `budget`, shared out by default.
    pub fn analyse(
        &self,
        position: &Position,
        engine: Engine,
        budget: &Budget,
    ) -> Result<Analysis, AnalysisError> {
        self.analyse_with(position, engine, budget, &Shares::default())
    }

    /// The analysis of `position` by `engine` within `budget`: its node cap (or
    /// [`DEFAULT_NODES`]) divided by `shares`, its token and time limit. A cancelled token
    /// abandons the analysis; a time limit leaves undecided squares `unknown`, like a spent
    /// node cap.
    pub fn analyse_with(
        &self,
        position: &Position,
        engine: Engine,
        budget: &Budget,
        shares: &Shares,
    ) -> Result<Analysis, AnalysisError> {
        let mut clock = budget.clone();
        clock.start();
        let total_nodes = budget.max_nodes().unwrap_or(DEFAULT_NODES);
        let n = position.side();
        let diagram = match engine {
            Engine::Search => None,
            Engine::Bdd => Some(self.diagram_within(n, clock.token())?.ok_or(
                AnalysisError::DiagramTooLarge {
                    n,
                    max: MAX_DIAGRAM_N,
                },
            )?),
            // A build stopped by the time limit leaves the search, which stops too.
            Engine::Auto if n <= AUTO_BUILD_MAX => {
                self.diagram_within(n, clock.token()).ok().flatten()
            }
            Engine::Auto => self.cached(n),
        };
        let mut budget = NodeBudget::new(total_nodes, Some(clock.token()));
        let base = FreeBoard::of(position);
        let knowledge = match diagram {
            Some(diagram) => from_diagram(&diagram, position, &base),
            None => from_search(position, &base, shares, &mut budget),
        };
        if budget.was_cancelled() {
            return Err(AnalysisError::Cancelled);
        }
        let mut explaining = budget.carve(shares.explain_nodes);
        let analysis = assemble(position, &base, &knowledge, &mut explaining);
        budget.absorb(&explaining);
        if budget.was_cancelled() {
            return Err(AnalysisError::Cancelled);
        }
        Ok(Analysis {
            nodes: total_nodes - budget.remaining(),
            ..analysis
        })
    }
}

/// Why a build of the diagram of N×N given up on at `stop` did not finish: its time limit, or
/// a cancellation, which is no time limit to give longer.
fn stopped_building(n: u32, stop: &queens_core::CancelToken) -> AnalysisError {
    match stop.reason() {
        Some(queens_core::StopReason::TimeLimit(_)) => AnalysisError::DiagramStopped { n },
        _ => AnalysisError::Cancelled,
    }
}

/// The completions of `position` counted by the configurator's own search on bit boards (any
/// N up to [`MAX_N`](crate::MAX_N)), with no node cap but the budget's own: exact, or `None`
/// when the budget stopped it. The count analyses of boards beyond 64×64 start from, and a
/// second opinion on the completion search's counts, with which it shares no code.
pub fn count_completions(position: &Position, budget: &Budget) -> Option<u64> {
    let n = position.side();
    let board = FreeBoard::of(position);
    let mut clock = budget.clone();
    clock.start();
    let mut nodes = NodeBudget::new(budget.max_nodes().unwrap_or(u64::MAX), Some(clock.token()));
    let mut tally = vec![0u64; (n * n) as usize];
    Search::new(&board).count(&mut nodes, &mut tally).ok()
}

fn index(n: u32, square: Square) -> usize {
    (square.row * n + square.col) as usize
}

fn squares(n: u32) -> impl Iterator<Item = Square> {
    (0..n).flat_map(move |row| (0..n).map(move |col| Square::new(row, col)))
}

fn from_counts(base: &FreeBoard, counts: CompletionCounts, engine: EngineUsed) -> Knowledge {
    let n = base.side();
    let possible = squares(n)
        .map(|square| Some(base.is_free(square) && counts.per_square[index(n, square)] > 0))
        .collect();
    Knowledge {
        solvable: Some(counts.total > 0),
        possible,
        counts: Some(counts),
        engine,
    }
}

fn from_diagram(diagram: &SolutionDiagram, position: &Position, base: &FreeBoard) -> Knowledge {
    from_counts(
        base,
        diagram.completions(position.queens(), position.blocked()),
        EngineUsed::Bdd,
    )
}

fn from_search(
    position: &Position,
    base: &FreeBoard,
    shares: &Shares,
    budget: &mut NodeBudget<'_>,
) -> Knowledge {
    let n = base.side();
    let empty_rows = n as usize - base.queen_count();
    let count_nodes = if empty_rows <= COUNT_EMPTY_ROWS {
        shares.count_nodes
    } else {
        shares.count_nodes / 100
    };
    let mut tally = vec![0u64; (n * n) as usize];
    let mut counting = budget.carve(count_nodes);
    let counted = count_exactly(position, base, &mut tally, &mut counting);
    budget.absorb(&counting);
    if let Some(total) = counted {
        for &queen in position.queens() {
            tally[index(n, queen)] = total;
        }
        let counts = CompletionCounts {
            total,
            per_square: tally,
        };
        return from_counts(base, counts, EngineUsed::Search);
    }

    let mut possible: Vec<Option<bool>> = squares(n)
        .map(|square| (!base.is_free(square)).then_some(false))
        .collect();
    // One search for every square: its boards are reused from one square to the next.
    let mut search = Search::new(base);
    let solvable = match search.find(budget, &|_| false) {
        Completion::Found(queens) => {
            for queen in queens {
                possible[index(n, queen)] = Some(true);
            }
            Some(true)
        }
        Completion::None => {
            possible.fill(Some(false));
            Some(false)
        }
        Completion::Unknown => None,
    };
    if solvable == Some(true) {
        for square in squares(n) {
            if possible[index(n, square)].is_some() {
                continue;
            }
            // Copying the board is the work here, not the nodes: look at the token each time.
            if budget.stopping() {
                break;
            }
            if search.restart(base, square).empty_rank().is_some() {
                possible[index(n, square)] = Some(false);
                continue;
            }
            let mut attempt = budget.carve(shares.square_nodes);
            let found = search.find(&mut attempt, &|other| possible[index(n, other)].is_none());
            budget.absorb(&attempt);
            match found {
                Completion::Found(queens) => {
                    for queen in queens.into_iter().chain([square]) {
                        possible[index(n, queen)] = Some(true);
                    }
                }
                Completion::None => possible[index(n, square)] = Some(false),
                Completion::Unknown => {}
            }
            if budget.is_spent() {
                break;
            }
        }
    }
    Knowledge {
        solvable,
        possible,
        counts: None,
        engine: EngineUsed::Search,
    }
}

/// The completions of `position` (its board `base`) through each square, added to `tally`, within
/// `budget`: by the bit-parallel completion search of `queens-exact` on boards up to 64×64
/// (the same nodes, a fraction of the time), by the configurator's own search beyond.
fn count_exactly(
    position: &Position,
    base: &FreeBoard,
    tally: &mut [u64],
    budget: &mut NodeBudget<'_>,
) -> Option<u64> {
    if position.side() <= completion::MAX_N {
        let problem = Problem::square(position.side())
            .and_then(|problem| problem.with_blocked(position.blocked().to_vec()))
            .and_then(|problem| problem.with_fixed(position.queens().to_vec()))
            .expect("a position is a valid problem");
        return completion::count_through_squares(&problem, tally, &mut || budget.spend().is_ok());
    }
    Search::new(base).count(budget, tally).ok()
}

/// The squares in every completion (the only possible square of their row or column once every
/// other square of that line is decided), and the possible squares that might be: no other
/// square of their row or column is known to be possible, but some are undecided.
fn forced_squares(
    n: u32,
    position: &Position,
    knowledge: &Knowledge,
) -> (Vec<Square>, Vec<Square>) {
    if knowledge.solvable != Some(true) {
        return (Vec::new(), Vec::new());
    }
    if let Some(counts) = &knowledge.counts {
        let forced = squares(n)
            .filter(|&square| {
                !position.has_queen(square) && counts.per_square[index(n, square)] == counts.total
            })
            .collect();
        return (forced, Vec::new());
    }
    let others = |square: Square, along_row: bool| {
        (0..n)
            .map(move |i| {
                if along_row {
                    Square::new(square.row, i)
                } else {
                    Square::new(i, square.col)
                }
            })
            .filter(move |&other| other != square)
            .map(|other| knowledge.possible[index(n, other)])
    };
    let (mut forced, mut undecided) = (Vec::new(), Vec::new());
    for square in squares(n) {
        if position.has_queen(square) || knowledge.possible[index(n, square)] != Some(true) {
            continue;
        }
        let alone = |along_row| others(square, along_row).all(|p| p == Some(false));
        let unrivalled = |along_row| others(square, along_row).all(|p| p != Some(true));
        if alone(true) || alone(false) {
            forced.push(square);
        } else if unrivalled(true) && unrivalled(false) {
            undecided.push(square);
        }
    }
    (forced, undecided)
}

/// The reasons' sentences: one, shared, for the reasons every dead square of an unsolvable
/// position shares (a line with no free square, the position's culprits), so that a large
/// board holds that sentence once rather than once a square.
#[derive(Default)]
struct Sentences {
    shared: Option<(Reason, Arc<str>)>,
}

impl Sentences {
    fn of(&mut self, reason: &Reason, n: u32) -> Arc<str> {
        if !matches!(
            reason,
            Reason::NoFreeSquare { .. } | Reason::Unsolvable { .. }
        ) {
            return reason.describe(n).into();
        }
        if let Some((seen, text)) = &self.shared
            && seen == reason
        {
            return Arc::clone(text);
        }
        let text: Arc<str> = reason.describe(n).into();
        self.shared = Some((reason.clone(), Arc::clone(&text)));
        text
    }
}

fn assemble(
    position: &Position,
    base: &FreeBoard,
    knowledge: &Knowledge,
    budget: &mut NodeBudget<'_>,
) -> Analysis {
    let n = position.side();
    let (forced, maybe_forced) = forced_squares(n, position, knowledge);
    let mut explainer = Explainer::new(n, position, &forced);
    let total = knowledge.counts.as_ref().map(|counts| counts.total);
    let count_of = |square: Square| {
        knowledge
            .counts
            .as_ref()
            .map(|counts| counts.per_square[index(n, square)])
    };
    let mut sentences = Sentences::default();
    let cells = squares(n)
        .map(|square| {
            let (status, reason) = if position.has_queen(square) {
                (Status::Queen, None)
            } else if position.is_blocked(square) {
                (Status::Blocked, None)
            } else if forced.contains(&square) {
                (Status::Forced, None)
            } else if explainer.is_attacked(square) {
                (Status::Attacked, explainer.attacker(square))
            } else {
                match knowledge.possible[index(n, square)] {
                    // In some completion, but perhaps in all of them: not known to be open.
                    Some(true) if maybe_forced.contains(&square) => (Status::Unknown, None),
                    Some(true) => (Status::Open, None),
                    // Stopped (a newer click, Ctrl-C, the time limit): the remaining reasons
                    // are not worked out, so that a stop is honoured at once; a square whose
                    // reason was cut short says so by having none.
                    Some(false) if budget.token_raised() => (Status::Dead, None),
                    Some(false) => {
                        let solvable = knowledge.solvable == Some(true);
                        (Status::Dead, Some(explainer.dead(square, solvable, budget)))
                    }
                    None => (Status::Unknown, None),
                }
            };
            debug_assert!(
                !(base.is_free(square) && status == Status::Attacked)
                    || knowledge.possible[index(n, square)] != Some(true),
                "a square attacked by a forced queen is in no completion"
            );
            Cell {
                row: square.row,
                col: square.col,
                status,
                completions: count_of(square),
                reason: reason.map(|reason: Reason| Explanation {
                    text: sentences.of(&reason, n),
                    reason,
                }),
            }
        })
        .collect();
    Analysis {
        n,
        solvable: knowledge.solvable,
        queens: position.queens().to_vec(),
        blocked: position.blocked().to_vec(),
        forced,
        cells,
        completions: total,
        engine: knowledge.engine,
        nodes: 0,
    }
}
