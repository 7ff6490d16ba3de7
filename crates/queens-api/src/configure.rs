//! One validated configurator analysis, as `queens configure`, `POST /api/configure` and
//! Python's `configure` ask for it: the position (side, queens, blocked squares), the engine
//! and the node cap checked once, before anything runs; the analysis and its documents are the
//! configurator's.
//!
//! ```
//! use queens_api::configure::{ConfigureRequest, ConfigureSpec, Configurator, Status};
//! use queens_core::{Budget, Square};
//!
//! let spec = ConfigureSpec { queens: vec![Square::new(0, 0)], ..ConfigureSpec::new(8) };
//! let request = ConfigureRequest::new(&spec)?;
//! let analysis = request.analyse(&Configurator::new(), &Budget::unlimited())?;
//! assert_eq!(analysis.solvable, Some(true));
//! assert_eq!(analysis.count(Status::Queen), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use queens_core::{Budget, Square};

use crate::bounds::{Bounds, CheckedBounds};
use crate::error::RequestError;
use crate::setting::Setting;

pub use queens_configurator::{
    Analysis, AnalysisError, COMPACT_ALL_REASONS_MAX_N, Cell, CompactAnalysis, Configurator,
    DEFAULT_NODES, Engine, MAX_N, Position, PositionError, SIDES, Status, UnknownEngine,
};

/// What an analysis asks for, before it is checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConfigureSpec {
    /// Board side.
    pub n: u32,
    /// The user's queens, in the order they were placed.
    pub queens: Vec<Square>,
    /// Squares no queen may take.
    pub blocked: Vec<Square>,
    /// The engine by name (`auto`, `bdd`, `search`); `None`: auto.
    pub engine: Option<String>,
    /// The time limit and the most search nodes (default: [`DEFAULT_NODES`]); an analysis
    /// runs on one thread.
    pub bounds: Bounds,
}

impl ConfigureSpec {
    /// The empty N×N board with every default.
    pub fn new(n: u32) -> Self {
        ConfigureSpec {
            n,
            ..ConfigureSpec::default()
        }
    }
}

/// A checked analysis, ready to run.
#[derive(Clone, Debug)]
pub struct ConfigureRequest {
    position: Position,
    engine: Engine,
    bounds: CheckedBounds,
}

impl ConfigureRequest {
    /// Checks `spec`.
    pub fn new(spec: &ConfigureSpec) -> Result<Self, RequestError> {
        let position = Position::with_blocked(spec.n, spec.queens.clone(), spec.blocked.clone())?;
        let engine = spec.engine.as_deref().unwrap_or("auto").parse::<Engine>()?;
        let bounds = spec
            .bounds
            .check()?
            .without(Setting::Threads, "for counts, not analyses")?;
        Ok(ConfigureRequest {
            position,
            engine,
            bounds,
        })
    }

    /// The position as checked.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The engine.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// The analysis' bounds, to make its budget ([`CheckedBounds::budget`]).
    pub fn bounds(&self) -> &CheckedBounds {
        &self.bounds
    }

    /// The analysis by `configurator` within `budget`: a budget from [`bounds`](Self::bounds),
    /// or any other (a node cap it lacks is left to the configurator's default).
    pub fn analyse(
        &self,
        configurator: &Configurator,
        budget: &Budget,
    ) -> Result<Analysis, AnalysisError> {
        configurator.analyse(&self.position, self.engine, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setting::SettingError;

    #[test]
    fn a_bad_engine_a_zero_cap_and_a_bad_position_are_refused() {
        let engine = ConfigureSpec {
            engine: Some("magic".into()),
            ..ConfigureSpec::new(8)
        };
        assert!(matches!(
            ConfigureRequest::new(&engine),
            Err(RequestError::UnknownEngine(_))
        ));
        let cap = ConfigureSpec {
            bounds: Bounds::default().with_max_nodes(0),
            ..ConfigureSpec::new(8)
        };
        assert!(matches!(
            ConfigureRequest::new(&cap),
            Err(RequestError::Setting(SettingError {
                setting: Setting::MaxNodes,
                ..
            }))
        ));
        let attacking = ConfigureSpec {
            queens: vec![Square::new(0, 0), Square::new(1, 1)],
            ..ConfigureSpec::new(8)
        };
        assert!(matches!(
            ConfigureRequest::new(&attacking),
            Err(RequestError::Position(PositionError::Attacking { .. }))
        ));
    }

    #[test]
    fn a_node_cap_leaves_squares_undecided() {
        let spec = ConfigureSpec {
            engine: Some("search".into()),
            bounds: Bounds::default().with_max_nodes(1),
            ..ConfigureSpec::new(40)
        };
        let request = ConfigureRequest::new(&spec).unwrap();
        let budget = request.bounds().budget(queens_core::CancelToken::new());
        let analysis = request.analyse(&Configurator::new(), &budget).unwrap();
        assert!(analysis.count(Status::Unknown) > 0);
    }
}
