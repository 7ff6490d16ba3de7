//! The N-Queens configurator: place queens one by one and see, after every move, which empty
//! squares can still be part of a full solution, which queens are now forced, how many
//! completions pass through each square, and *why* every blocked square is blocked.
//!
//! Two engines sit behind [`Configurator::analyse`]: a binary decision diagram of all solutions
//! for boards up to 13×13 (exact counts for every square from two passes over it), and a
//! completion search on bit boards for any size up to [`MAX_N`], which counts exactly where that
//! is cheap and otherwise decides each square within a node budget, reporting what it could not
//! decide as [`Status::Unknown`] rather than guessing. An analysis stops by its
//! [`Budget`](queens_core::Budget): its node cap, time limit and token.
//!
//! ```
//! use queens_configurator::{Configurator, Engine, Position, Status};
//! use queens_core::{Budget, Square};
//!
//! // A queen on d1 of an 8×8 board.
//! let position = Position::new(8, [Square::new(0, 3)])?;
//! let analysis = Configurator::new().analyse(&position, Engine::Auto, &Budget::unlimited())?;
//! assert_eq!(analysis.solvable, Some(true));
//! assert_eq!(analysis.completions, Some(18));
//! assert_eq!(analysis.status(Square::new(1, 3)), Some(Status::Attacked));
//! assert_eq!(analysis.status(Square::new(8, 0)), None); // off the board
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod analysis;
mod bits;
mod diagram;
mod engine;
mod explain;
mod hall;
mod position;
mod search;

pub use analysis::{
    Analysis, COMPACT_ALL_REASONS_MAX_N, Case, Cell, CompactAnalysis, EngineUsed, Explanation,
    Reason, Status, rank_name,
};
pub use bits::Rank;
pub use diagram::{CompletionCounts, MAX_DIAGRAM_N, SolutionDiagram};
pub use engine::{
    AUTO_BUILD_MAX, AnalysisError, Configurator, DEFAULT_NODES, Engine, Shares, UnknownEngine,
    count_completions, diagram_build_bytes,
};
pub use position::{MAX_N, Position, PositionError, SIDES};
