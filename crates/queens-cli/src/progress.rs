//! Progress on a terminal: a spinner with the node count and rate for a long solve, and a bar
//! for batches. Nothing is drawn when stderr is not a terminal.

use std::io::IsTerminal;
use std::num::NonZeroU64;
use std::ops::ControlFlow;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use queens_core::{Event, Interest, Observer};

/// Runs shorter than this show nothing.
const QUIET_START: Duration = Duration::from_secs(1);

/// Steps (nodes or iterations) between two updates of the count.
const SAMPLE_EVERY: NonZeroU64 = NonZeroU64::new(1 << 16).unwrap();

/// A spinner that appears on a terminal when a solve has run for a second, and then ticks on its
/// own with the elapsed time and the latest step count.
pub struct Spinner {
    bar: ProgressBar,
}

impl Spinner {
    /// A hidden spinner for a run of `solver`; a timer shows it after [`QUIET_START`].
    pub fn new(solver: &str) -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg}: {human_pos} steps, {rate}, {elapsed}")
                .expect("the template is valid")
                .with_key(
                    "rate",
                    |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                        let _ = write!(out, "{:.1} M/s", state.per_sec() / 1e6);
                    },
                ),
        );
        bar.set_message(solver.to_owned());
        if std::io::stderr().is_terminal() {
            let timer = bar.downgrade();
            std::thread::spawn(move || {
                std::thread::sleep(QUIET_START);
                if let Some(bar) = timer.upgrade()
                    && !bar.is_finished()
                {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(120));
                }
            });
        }
        Spinner { bar }
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
            Event::Step { iteration, .. } => self.bar.set_position(*iteration),
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
