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
use thiserror::Error;

use crate::setting::{Refusal, Setting, SettingError};

pub use queens_configurator::{
    Analysis, AnalysisError, COMPACT_ALL_REASONS_MAX_N, Cell, CompactAnalysis, Configurator,
    DEFAULT_NODES, Engine, MAX_N, Position, PositionError, Status, UnknownEngine,
};

/// What an analysis asks for, before it is checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfigureSpec {
    /// Board side.
    pub n: u32,
    /// The user's queens, in the order they were placed.
    pub queens: Vec<Square>,
    /// Squares no queen may take.
    pub blocked: Vec<Square>,
    /// The engine by name (`auto`, `bdd`, `search`); `None`: auto.
    pub engine: Option<String>,
    /// The most search nodes; `None`: [`DEFAULT_NODES`].
    pub max_nodes: Option<u64>,
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

/// An analysis that cannot be started.
#[derive(Debug, Error)]
pub enum ConfigureError {
    /// The side, a queen or a blocked square.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// The engine's name.
    #[error(transparent)]
    Engine(#[from] UnknownEngine),
    /// A node cap of zero.
    #[error(transparent)]
    Setting(#[from] SettingError),
}

crate::setting::worded_by_their_setting!(ConfigureError);

/// A checked analysis, ready to run.
#[derive(Clone, Debug)]
pub struct ConfigureRequest {
    position: Position,
    engine: Engine,
    max_nodes: Option<u64>,
}

impl ConfigureRequest {
    /// Checks `spec`.
    pub fn new(spec: &ConfigureSpec) -> Result<Self, ConfigureError> {
        let position = Position::with_blocked(spec.n, spec.queens.clone(), spec.blocked.clone())?;
        let engine = spec.engine.as_deref().unwrap_or("auto").parse::<Engine>()?;
        if spec.max_nodes == Some(0) {
            return Err(SettingError::new(
                Setting::MaxNodes,
                Refusal::AtLeast { least: 1, got: 0 },
            )
            .into());
        }
        Ok(ConfigureRequest {
            position,
            engine,
            max_nodes: spec.max_nodes,
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

    /// The analysis by `configurator` within `budget`, its node cap the request's where it
    /// names one.
    pub fn analyse(
        &self,
        configurator: &Configurator,
        budget: &Budget,
    ) -> Result<Analysis, AnalysisError> {
        let budget = match self.max_nodes {
            Some(nodes) => budget.clone().with_max_nodes(nodes),
            None => budget.clone(),
        };
        configurator.analyse(&self.position, self.engine, &budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_engine_a_zero_cap_and_a_bad_position_are_refused() {
        let engine = ConfigureSpec {
            engine: Some("magic".into()),
            ..ConfigureSpec::new(8)
        };
        assert!(matches!(
            ConfigureRequest::new(&engine),
            Err(ConfigureError::Engine(_))
        ));
        let cap = ConfigureSpec {
            max_nodes: Some(0),
            ..ConfigureSpec::new(8)
        };
        assert!(matches!(
            ConfigureRequest::new(&cap),
            Err(ConfigureError::Setting(SettingError {
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
            Err(ConfigureError::Position(PositionError::Attacking { .. }))
        ));
    }

    #[test]
    fn a_node_cap_leaves_squares_undecided() {
        let spec = ConfigureSpec {
            engine: Some("search".into()),
            max_nodes: Some(1),
            ..ConfigureSpec::new(40)
        };
        let analysis = ConfigureRequest::new(&spec)
            .unwrap()
            .analyse(&Configurator::new(), &Budget::unlimited())
            .unwrap();
        assert!(analysis.count(Status::Unknown) > 0);
    }
}
