//! Progress on a terminal: a spinner with the node count and rate for a long solve, and a bar
//! for batches. Nothing is drawn when stderr is not a terminal.

use std::io::IsTerminal;
use std::num::NonZeroU64;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use queens_core::{Event, Interest, Observer};

/// Runs shorter than this show nothing.
const QUIET_START: Duration = Duration::from_millis(500);

/// Nodes or iterations between two updates.
const SAMPLE_EVERY: NonZeroU64 = NonZeroU64::new(1 << 16).unwrap();

/// A spinner that appears when a solve has run for half a second.
pub struct Spinner {
    bar: ProgressBar,
    started: Instant,
    shown: bool,
}

impl Spinner {
    /// A hidden spinner for a run of `solver`.
    pub fn new(solver: &str) -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg}: {human_pos} nodes, {rate}, {elapsed}")
                .expect("the template is valid")
                .with_key(
                    "rate",
                    |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                        let _ = write!(out, "{:.1} M/s", state.per_sec() / 1e6);
                    },
                ),
        );
        bar.set_message(solver.to_owned());
        Spinner {
            bar,
            started: Instant::now(),
            shown: false,
        }
    }
}

impl Observer for Spinner {
    fn interest(&self) -> Interest {
        Interest {
            moves: false,
            steps: Some(SAMPLE_EVERY),
        }
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        match event {
            Event::Step { iteration, .. } => {
                if !self.shown
                    && self.started.elapsed() >= QUIET_START
                    && std::io::stderr().is_terminal()
                {
                    self.bar.set_draw_target(ProgressDrawTarget::stderr());
                    self.shown = true;
                }
                self.bar.set_position(*iteration);
            }
            Event::Finished { .. } => self.bar.finish_and_clear(),
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

/// A bar over `len` jobs, drawn only on a terminal.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(len), target);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed}, ETA {eta}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar.set_message(what.to_owned());
    bar
}
