//! What a native solve sends to Python as it runs: every event as JSON, or for a listing each
//! solution found, or each that is the least of its kind.

use std::ops::ControlFlow;

use queens_core::symmetry::Kinds;
use queens_core::{Event, Interest, Observer};

use crate::detached::{Message, Sender};

/// Sends every event to the Python thread as JSON; or, for `every`, each solution found (and
/// the run's start and end), or with `kinds` each that is the least of its kind.
pub(crate) struct Forward {
    pub sender: Sender,
    pub every: bool,
    pub kinds: Option<Kinds>,
}

impl Observer for Forward {
    fn interest(&self) -> Interest {
        if self.every {
            Interest::NONE
        } else {
            Interest::ALL
        }
    }

    fn wants_solutions(&self) -> bool {
        self.every
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        if let (Event::Found { queens, .. }, Some(kinds)) = (event, &self.kinds)
            && !kinds.is_least(queens)
        {
            return ControlFlow::Continue(());
        }
        let json = serde_json::to_string(event).expect("events serialize");
        if self.sender.send(Message::Event(json)) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    }
}
