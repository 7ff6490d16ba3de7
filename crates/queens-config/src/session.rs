//! A configurator session: the moves of one user, with undo and redo, where starting a new
//! analysis cancels the one still running for an older position.

use std::sync::Arc;

use queens_core::{CancelFlag, Square};

use crate::analysis::Analysis;
use crate::engine::{AnalysisError, Configurator, Engine, Limits};
use crate::position::{Position, PositionError};

/// A move that can be undone.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Move {
    Place(Square),
    Remove(Square),
    Reset(Vec<Square>),
}

/// One user's position, its history and the analysis in flight.
#[derive(Debug)]
pub struct Session {
    configurator: Arc<Configurator>,
    engine: Engine,
    limits: Limits,
    position: Position,
    done: Vec<Move>,
    undone: Vec<Move>,
    running: Option<CancelFlag>,
}

/// An analysis ready to run on any thread; the session cancels it when a newer one starts.
#[derive(Debug)]
pub struct PendingAnalysis {
    configurator: Arc<Configurator>,
    engine: Engine,
    limits: Limits,
    position: Position,
}

impl PendingAnalysis {
    /// The position it analyses.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Runs it; [`AnalysisError::Cancelled`] if a newer analysis started meanwhile.
    pub fn run(self) -> Result<Analysis, AnalysisError> {
        self.configurator
            .analyse(&self.position, self.engine, &self.limits)
    }
}

impl Session {
    /// An empty N×N board.
    pub fn new(
        configurator: Arc<Configurator>,
        n: u32,
        engine: Engine,
        limits: Limits,
    ) -> Result<Self, PositionError> {
        Ok(Session {
            configurator,
            engine,
            limits,
            position: Position::empty(n)?,
            done: Vec::new(),
            undone: Vec::new(),
            running: None,
        })
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Places a user queen (on the board, on an empty square, attacking no user queen).
    pub fn place(&mut self, square: Square) -> Result<(), PositionError> {
        self.position.place(square)?;
        self.record(Move::Place(square));
        Ok(())
    }

    /// Removes the user queen on `square`.
    pub fn remove(&mut self, square: Square) -> Result<(), PositionError> {
        self.position.remove(square)?;
        self.record(Move::Remove(square));
        Ok(())
    }

    /// Clears the board (undoable).
    pub fn reset(&mut self) {
        let queens = self.position.queens().to_vec();
        if queens.is_empty() {
            return;
        }
        self.position = Position::empty(self.position.side()).expect("same size as before");
        self.record(Move::Reset(queens));
    }

    fn record(&mut self, done: Move) {
        self.done.push(done);
        self.undone.clear();
        self.cancel_running();
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(last) = self.done.pop() else {
            return false;
        };
        self.apply(&last, true);
        self.undone.push(last);
        true
    }

    /// Makes the last undone move again; false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(next) = self.undone.pop() else {
            return false;
        };
        self.apply(&next, false);
        self.done.push(next);
        true
    }

    fn apply(&mut self, action: &Move, backwards: bool) {
        let n = self.position.side();
        let replayed = match (action, backwards) {
            (Move::Place(square), false) | (Move::Remove(square), true) => {
                self.position.place(*square)
            }
            (Move::Place(square), true) | (Move::Remove(square), false) => {
                self.position.remove(*square)
            }
            (Move::Reset(queens), true) => {
                Position::new(n, queens.iter().copied()).map(|restored| self.position = restored)
            }
            (Move::Reset(_), false) => {
                self.position = Position::empty(n).expect("same size as before");
                Ok(())
            }
        };
        replayed.expect("history replays onto the positions it was recorded on");
        self.cancel_running();
    }

    fn cancel_running(&mut self) {
        if let Some(flag) = self.running.take() {
            flag.cancel();
        }
    }

    /// The analysis of the current position, to run on any thread. Starting one cancels the
    /// previous one.
    pub fn pending(&mut self) -> PendingAnalysis {
        self.cancel_running();
        let flag = CancelFlag::new();
        self.running = Some(flag.clone());
        PendingAnalysis {
            configurator: Arc::clone(&self.configurator),
            engine: self.engine,
            limits: Limits {
                cancel: Some(flag),
                ..self.limits.clone()
            },
            position: self.position.clone(),
        }
    }

    /// The analysis of the current position, run here.
    pub fn analysis(&mut self) -> Result<Analysis, AnalysisError> {
        self.pending().run()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(n: u32) -> Session {
        Session::new(
            Arc::new(Configurator::new()),
            n,
            Engine::Auto,
            Limits::default(),
        )
        .unwrap()
    }

    #[test]
    fn undo_and_redo_walk_the_history() {
        let mut session = session(8);
        session.place(Square::new(0, 3)).unwrap();
        session.place(Square::new(1, 5)).unwrap();
        session.remove(Square::new(0, 3)).unwrap();
        session.reset();
        assert!(session.position().queens().is_empty());
        assert!(session.undo());
        assert_eq!(session.position().queens(), &[Square::new(1, 5)]);
        assert!(session.undo());
        let mut queens = session.position().queens().to_vec();
        queens.sort();
        assert_eq!(queens, [Square::new(0, 3), Square::new(1, 5)]);
        assert!(session.redo());
        assert_eq!(session.position().queens(), &[Square::new(1, 5)]);
        session.place(Square::new(7, 0)).unwrap();
        assert!(!session.redo(), "a new move forgets the undone ones");
        assert!(session.undo() && session.undo() && session.undo() && session.undo());
        assert!(!session.undo());
        assert!(session.position().queens().is_empty());
    }

    #[test]
    fn refused_moves_leave_no_history() {
        let mut session = session(8);
        session.place(Square::new(0, 3)).unwrap();
        assert!(session.place(Square::new(1, 4)).is_err());
        assert!(session.remove(Square::new(5, 5)).is_err());
        assert!(session.undo());
        assert!(!session.undo());
    }

    #[test]
    fn a_newer_analysis_cancels_the_older_one() {
        let mut session = session(60);
        session.place(Square::new(0, 0)).unwrap();
        let older = session.pending();
        session.place(Square::new(1, 2)).unwrap();
        assert_eq!(older.run(), Err(AnalysisError::Cancelled));
        let newer = session.analysis().unwrap();
        assert_eq!(newer.queens.len(), 2);
    }
}
