//! The N-Queens configurator: place queens one by one and see, after every move, which empty
//! squares can still be part of a full solution, which queens are now forced, how many
//! completions pass through each square, and *why* every blocked square is blocked.
//!
//! Two engines sit behind [`Configurator::analyse`]: a binary decision diagram of all solutions
//! for boards up to 13×13 (exact counts for every square from two passes over it), and a
//! completion search on bit boards for any size up to [`MAX_N`], which counts exactly where that
//! is cheap and otherwise decides each square within a node budget, reporting what it could not
//! decide as [`Status::Unknown`] rather than guessing. [`Session`] adds place, remove, undo and
//! redo, and cancels a running analysis when a newer one starts.
//!
//! ```
//! use queens_config::{Configurator, Engine, Limits, Position, Status};
//! use queens_core::Square;
//!
//! // A queen on d1 of an 8×8 board.
//! let position = Position::new(8, [Square::new(0, 3)])?;
//! let analysis = Configurator::new().analyse(&position, Engine::Auto, &Limits::default())?;
//! assert_eq!(analysis.solvable, Some(true));
//! assert_eq!(analysis.completions, Some(18));
//! assert_eq!(analysis.status(Square::new(1, 3)), Status::Attacked);
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
mod session;

pub use analysis::{Analysis, Cell, EngineUsed, Explanation, Reason, Status, rank_name};
pub use bits::Rank;
pub use diagram::{CompletionCounts, MAX_DIAGRAM_N, SolutionDiagram};
pub use engine::{AnalysisError, Configurator, Engine, Limits, UnknownEngine};
pub use position::{MAX_N, Position, PositionError};
pub use session::{PendingAnalysis, Session};
