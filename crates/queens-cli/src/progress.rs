//! Progress of long work on stderr: a spinner with the step count and rate for a long solve, and
//! a bar for batches, on a terminal; where stderr is not a terminal (a log, a pipe, a batch job),
//! lines instead, the first after [`LINE_EVERY`] and then further apart. `--progress` chooses:
//! `auto` (that, and nothing for documents meant for programs), `lines` (lines on a terminal
//! too, and for documents: [`document_bar`]) or `never`.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::num::NonZeroU64;
use std::ops::ControlFlow;
use std::sync::OnceLock;
use std::time::Duration;

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use queens_core::{Event, Interest, Observer};

use crate::args::ProgressMode;
use crate::output::stderr;

/// Time before the first progress line where no bar is drawn; the time to the next doubles
/// after each line, up to [`LINES_AT_MOST_EVERY`]: a minute's work gives three lines, an hour's
/// task 62 rather than 720 in its log.
const LINE_EVERY: Duration = Duration::from_secs(5);
/// The longest time between two progress lines.
const LINES_AT_MOST_EVERY: Duration = Duration::from_secs(60);

/// The command's `--progress`, set once when its flags are read.
static MODE: OnceLock<ProgressMode> = OnceLock::new();

/// Sets how this command shows progress (the first call wins).
pub fn set_mode(mode: ProgressMode) {
    let _ = MODE.set(mode);
}

/// Whether `--progress never` asked for no progress at all.
pub fn is_never() -> bool {
    MODE.get() == Some(&ProgressMode::Never)
}

/// How progress is shown: a bar redrawn in place, lines, or nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Display {
    Bar,
    Lines,
    Nothing,
}

fn display() -> Display {
    match MODE.get().copied().unwrap_or_default() {
        ProgressMode::Never => Display::Nothing,
        ProgressMode::Auto if std::io::stderr().is_terminal() => Display::Bar,
        ProgressMode::Auto | ProgressMode::Lines => Display::Lines,
    }
}

/// Starts `work` on a thread with a small stack; where none starts (a low `ulimit -v`), the
/// progress is not shown and the run goes on.
fn helper_thread(work: impl FnOnce() + Send + 'static) {
    let _ = queens_core::parallel::spawn(None, Some(HELPER_STACK), work);
}

/// The stack of a thread that shows progress.
const HELPER_STACK: usize = 256 * 1024;

/// Prints `bar`'s state as a line after [`LINE_EVERY`], and then further apart ([`spacing`]),
/// until it is finished or dropped.
fn report_lines(bar: &ProgressBar, line: impl Fn(&ProgressBar) -> String + Send + 'static) {
    let weak = bar.downgrade();
    helper_thread(move || {
        let mut wait = LINE_EVERY;
        loop {
            std::thread::sleep(wait);
            let Some(bar) = weak.upgrade() else { return };
            if bar.is_finished() {
                return;
            }
            stderr!("{}", line(&bar));
            wait = spacing(wait);
        }
    });
}

/// The time to the next progress line after one `wait` after the last: twice as long, at most
/// [`LINES_AT_MOST_EVERY`].
fn spacing(wait: Duration) -> Duration {
    (wait * 2).min(LINES_AT_MOST_EVERY)
}

/// A batch's line: what, how far, how long, and, for jobs alike enough that it means
/// something, the estimate of the time left once there is one.
fn batch_line(bar: &ProgressBar, estimate: TimeLeft) -> String {
    let elapsed = HumanDuration(bar.elapsed());
    match bar.length().filter(|&len| len > 0) {
        Some(len) => {
            let done = bar.position();
            let mut line = format!(
                "{}: {done}/{len} ({:.0} %), {elapsed}",
                bar.message(),
                100.0 * done as f64 / len as f64
            );
            if done > 0 && estimate == TimeLeft::Estimated {
                let _ = write!(line, ", about {} left", HumanDuration(bar.eta()));
            }
            line.push_str(&bar.prefix());
            line
        }
        None => format!("{}: {} so far, {elapsed}", bar.message(), bar.position()),
    }
}

/// A solve's line: the solver, its steps (and their share of its cap, `cap` steps) and its
/// time; while it prepares, how far that got.
fn spinner_line(bar: &ProgressBar, cap: Option<u64>) -> String {
    if bar.length().is_some() {
        let mut line = format!("{}, {}", bar.message(), HumanDuration(bar.elapsed()));
        if bar.position() > 0 {
            let _ = write!(line, ", about {} left", HumanDuration(bar.eta()));
        }
        return line;
    }
    format!(
        "{}: {} steps{}, {}",
        bar.message(),
        thousands(bar.position()),
        share_of(bar.position(), cap),
        HumanDuration(bar.elapsed())
    )
}

/// ` of at most 1,000,000 (12 %)`: `steps`' share of `cap`, where there is one.
fn share_of(steps: u64, cap: Option<u64>) -> String {
    cap.map_or_else(String::new, |cap| {
        format!(
            " of at most {} ({:.0} %)",
            thousands(cap),
            100.0 * steps as f64 / cap.max(1) as f64
        )
    })
}

/// Runs shorter than this show nothing.
const QUIET_START: Duration = Duration::from_secs(1);

/// Steps (nodes or iterations) between two updates of the count.
const SAMPLE_EVERY: NonZeroU64 = NonZeroU64::new(1 << 16).unwrap();

/// A spinner that appears on a terminal when a solve has run for a second, and then ticks on its
/// own with the elapsed time and the latest step count. While a solver prepares (min-conflicts
/// placing a billion queens) it is a bar over that preparation, with an estimate.
pub struct Spinner {
    bar: ProgressBar,
    solver: String,
    cap: Option<u64>,
    preparing: Option<Preparation>,
}

/// The bar's length while a solver prepares: thousandths of its expected time.
const PREPARING_STEPS: u64 = 1000;

/// How far a solver's preparation had got when it last said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preparation {
    /// What it was preparing ("placing queens").
    pub stage: &'static str,
    /// Units done.
    pub done: u64,
    /// Units in all.
    pub of: u64,
    /// Whether the steps have begun since.
    pub over: bool,
}

impl Preparation {
    /// What a run stopped during its preparation got done, as a sentence.
    pub fn stopped_sentence(&self) -> String {
        format!(
            "stopped while {}: at least {} of {} done",
            self.stage,
            thousands(self.done),
            thousands(self.of)
        )
    }
}

/// `1234567` as `1,234,567`.
fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

impl Spinner {
    /// A hidden spinner for a run of `solver` that stops after `cap` steps (its node or
    /// iteration cap, if any); a timer shows it after [`QUIET_START`].
    pub fn new(solver: &str, cap: Option<u64>) -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(Self::steps_style(cap));
        bar.set_message(solver.to_owned());
        let display = display();
        if display == Display::Lines {
            report_lines(&bar, move |bar| spinner_line(bar, cap));
        }
        if display == Display::Bar {
            let timer = bar.downgrade();
            helper_thread(move || {
                std::thread::sleep(QUIET_START);
                if let Some(bar) = timer.upgrade()
                    && !bar.is_finished()
                {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(120));
                }
            });
        }
        Spinner {
            bar,
            solver: solver.to_owned(),
            cap,
            preparing: None,
        }
    }

    /// The preparation the solver last reported, if it reported one.
    pub fn preparation(&self) -> Option<Preparation> {
        self.preparing
    }

    fn steps_style(cap: Option<u64>) -> ProgressStyle {
        ProgressStyle::with_template("{spinner} {msg}: {human_pos} steps{cap}, {rate}, {elapsed}")
            .expect("the template is valid")
            .with_key(
                "rate",
                |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let _ = write!(out, "{:.1} M/s", state.per_sec() / 1e6);
                },
            )
            .with_key(
                "cap",
                move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let _ = out.write_str(&share_of(state.pos(), cap));
                },
            )
    }

    fn preparing_style() -> ProgressStyle {
        ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {elapsed}, ETA {eta}")
            .expect("the template is valid")
            .progress_chars("=> ")
    }

    /// Shows the preparation's progress: a bar over its expected time (in thousandths, so
    /// that the estimate of the time left is fair) from its first report on.
    fn prepare(&mut self, stage: &'static str, done: u64, of: u64, share: f64) {
        if self.preparing.is_none() {
            self.bar.set_style(Self::preparing_style());
            self.bar.set_length(PREPARING_STEPS);
        }
        self.bar.set_message(format!(
            "{} {stage} ({} of {})",
            self.solver,
            thousands(done),
            thousands(of)
        ));
        self.bar
            .set_position((share.clamp(0.0, 1.0) * PREPARING_STEPS as f64) as u64);
        self.preparing = Some(Preparation {
            stage,
            done,
            of,
            over: false,
        });
    }

    /// Back to counting steps once the preparation is over (its last report, or the first
    /// step).
    fn prepared(&mut self) {
        if let Some(preparation) = self.preparing.as_mut().filter(|p| !p.over) {
            preparation.over = true;
            self.bar.unset_length();
            self.bar.set_style(Self::steps_style(self.cap));
            self.bar.set_message(self.solver.clone());
            self.bar.set_position(0);
            self.bar.reset_eta();
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
            Event::Preparing {
                stage,
                done,
                of,
                share,
            } if done < of => self.prepare(stage, *done, *of, *share),
            Event::Preparing { .. } => self.prepared(),
            Event::Step { iteration, .. } => {
                self.prepared();
                self.bar.set_position(*iteration);
            }
            Event::Finished { .. } => self.bar.finish_and_clear(),
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

/// A bar for work whose answer is a document for programs (`--json`, a shard's report), whose
/// callers may read stderr too: nothing, unless `--progress lines` asks for lines (as each task
/// of a cluster count does, for its log).
pub fn document_bar(len: u64, what: &str) -> ProgressBar {
    if MODE.get() == Some(&ProgressMode::Lines) {
        bar(len, what)
    } else {
        ProgressBar::hidden()
    }
}

/// Whether a bar estimates the time left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeLeft {
    /// From the rate of the jobs done so far: for jobs that take about as long as each other,
    /// or that come in an order that mixes them.
    Estimated,
    /// Not said: for jobs whose times differ by orders of magnitude in a way the order cannot
    /// mix, where the rate of those done says nothing of the rest (the challenge's brute force
    /// on one locked square takes minutes to weeks where a backtracking search takes
    /// microseconds: an estimate went from 4 minutes to 32 weeks in 75 seconds).
    Unknown,
}

/// Shows `nodes` examined after the figures of a bar made with [`TimeLeft::Unknown`] (the
/// bar's prefix holds it): where jobs differ so much in size, the work under way is seen to
/// move between two jobs done.
pub fn show_nodes_examined(bar: &ProgressBar, nodes: u64) {
    bar.set_prefix(format!(", {} nodes examined", thousands(nodes)));
}

/// A bar over `len` jobs (0: not known yet), drawn on a terminal, else reported in lines, with
/// an estimate of the time left.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    bar_of(len, what, TimeLeft::Estimated)
}

/// [`bar`], with an estimate of the time left where `estimate` says so.
pub fn bar_of(len: u64, what: &str, estimate: TimeLeft) -> ProgressBar {
    let display = display();
    let target = if display == Display::Bar {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(len), target);
    bar.set_message(what.to_owned());
    if display == Display::Lines {
        report_lines(&bar, move |bar| batch_line(bar, estimate));
    }
    let template = match estimate {
        TimeLeft::Estimated => "{msg} [{bar:30}] {pos}/{len} {elapsed}, ETA {eta}",
        TimeLeft::Unknown => "{msg} [{bar:30}] {pos}/{len} {elapsed}{prefix}",
    };
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_lines_come_further_apart_up_to_a_minute() {
        let mut wait = LINE_EVERY;
        let mut at = Duration::ZERO;
        let mut lines = 0;
        while at + wait <= Duration::from_secs(3600) {
            at += wait;
            lines += 1;
            wait = spacing(wait);
        }
        // 5, 10, 20 and 40 s apart, then a minute: 4 lines in the first 75 s, 58 more in the hour.
        assert_eq!(lines, 62);
        assert_eq!(wait, LINES_AT_MOST_EVERY);
    }

    #[test]
    fn a_batch_line_estimates_the_time_left_only_where_asked() {
        let bar = ProgressBar::with_draw_target(Some(324), ProgressDrawTarget::hidden());
        bar.set_message("locked squares × solvers");
        bar.set_position(4);
        let estimated = batch_line(&bar, TimeLeft::Estimated);
        assert!(
            estimated.starts_with("locked squares × solvers: 4/324 (1 %), ")
                && estimated.contains(" left"),
            "{estimated}"
        );
        let unknown = batch_line(&bar, TimeLeft::Unknown);
        assert!(
            unknown.starts_with("locked squares × solvers: 4/324 (1 %), ")
                && !unknown.contains("left"),
            "{unknown}"
        );
        show_nodes_examined(&bar, 3_221_225_472);
        let examined = batch_line(&bar, TimeLeft::Unknown);
        assert!(
            examined.starts_with("locked squares × solvers: 4/324 (1 %), ")
                && examined.ends_with(", 3,221,225,472 nodes examined"),
            "{examined}"
        );
    }

    #[test]
    fn a_solve_line_gives_the_share_of_its_cap() {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_message("brute-force");
        bar.set_position(25_000_000);
        let line = spinner_line(&bar, Some(100_000_000));
        assert!(
            line.starts_with("brute-force: 25,000,000 steps of at most 100,000,000 (25 %), "),
            "{line}"
        );
        let uncapped = spinner_line(&bar, None);
        assert!(
            uncapped.starts_with("brute-force: 25,000,000 steps, "),
            "{uncapped}"
        );
    }
}
