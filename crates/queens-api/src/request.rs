//! One validated solve request, shared by the command line, the web API and Python: the same
//! checks in the same order, the same messages, the same defaults.
//!
//! A front end collects what the user said into a [`SolveSpec`]; [`SolveRequest::new`] checks
//! it against a [`Catalogue`] — the board, the solver, its parameters, the caps, the memory the
//! run would take — before anything is allocated. The request then builds the solver and the
//! [`Budget`] (its caps, or the solver's defaults) and runs it.
//!
//! ```
//! use queens_api::request::{SolveRequest, SolveSpec};
//! use queens_api::Catalogue;
//!
//! let spec = SolveSpec {
//!     solver: Some("hill-climbing-constant-shake".into()),
//!     params: vec![("p".into(), 0.3.into())],
//!     seed: Some(4),
//!     ..SolveSpec::square(8)
//! };
//! let request = SolveRequest::new(Catalogue::standard(), spec)?;
//! let mut budget = request.budget(queens_core::CancelToken::new());
//! let outcome = request.run(&mut budget, &mut queens_core::NoObserver)?;
//! assert_eq!(outcome.stats.seed, Some(4));
//!
//! let bad = SolveSpec { params: vec![("p".into(), 1.5.into())], ..SolveSpec::square(8) };
//! let bad = SolveSpec { solver: Some("hill-climbing-constant-shake".into()), ..bad };
//! let error = SolveRequest::new(Catalogue::standard(), bad).unwrap_err();
//! assert_eq!(error.to_string(), "p must be in [0, 1], got 1.5");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;

use queens_core::error::excerpt;
use queens_core::json::WholeNumber;
use queens_core::side::SideLimit;
use queens_core::{
    Budget, CancelToken, Observer, Outcome, ParamValue, ParamValues, Problem, SolveError, Square,
    memory, solve,
};
use queens_heuristic::construct;
pub use queens_heuristic::construct::{StreamError, Streamed};
use thiserror::Error;

use crate::bounds::{Bounds, CheckedBounds};
use crate::catalogue::{Catalogue, SolverKind};
use crate::error::RequestError;
use crate::setting::{Refusal, Setting, SettingError};

/// A board size that is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeError {
    /// Zero or negative: the number as read.
    TooSmall(String),
    /// Beyond 32 bits, or beyond the limit of where it is asked (a server's).
    TooLarge {
        /// The side asked for, as read (of any length, shortened to an excerpt).
        got: String,
        /// The largest side taken.
        most: u32,
    },
    /// Not a number.
    NotANumber(String),
    /// A bad side of `RxC`.
    Side {
        /// The whole size given.
        text: String,
        /// The side: "rows" or "columns".
        which: &'static str,
        /// What is wrong with it.
        side: Box<SizeError>,
    },
    /// Past the sides of the computation it is read for, in the computation's words.
    Refused(String),
}

impl SizeError {
    /// This refusal read for a computation that takes `sides`: a side past 2³²−1 in the
    /// computation's words where it takes fewer; any other refusal as it is.
    fn past(self, sides: SideLimit) -> SizeError {
        if sides.most() == u32::MAX {
            return self;
        }
        match self {
            SizeError::TooLarge { got, .. } => SizeError::Refused(sides.refusal(&got)),
            SizeError::Side { side, text, which } => match *side {
                SizeError::TooLarge { got, .. } => SizeError::Refused(sides.refusal(&got)),
                side => SizeError::Side {
                    text,
                    which,
                    side: Box::new(side),
                },
            },
            other => other,
        }
    }

    /// The refusal said of `subject`: "N" for a square board's side, "the rows" or "the
    /// columns" for a side of `RxC`.
    fn said_of(&self, subject: &str) -> String {
        match self {
            SizeError::TooSmall(got) => format!("{subject} must be at least 1, got {got}"),
            SizeError::TooLarge { got, most } => {
                format!("{subject} must be at most {most}, got {got}")
            }
            SizeError::NotANumber(got) => format!(
                "{subject} must be a positive whole number, got '{}'",
                excerpt(got)
            ),
            SizeError::Side { text, which, side } => format!(
                "in board size '{}': {}",
                excerpt(text),
                side.said_of(&format!("the {which}"))
            ),
            SizeError::Refused(refusal) => refusal.clone(),
        }
    }
}

impl std::fmt::Display for SizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.said_of("N"))
    }
}

impl std::error::Error for SizeError {}

/// The longest time limit taken: 10⁹ seconds, about 31.7 years.
pub const MAX_SECONDS: f64 = 1e9;

/// A number of seconds for `setting` (a time limit, a checkpoint interval): positive, finite
/// and at most [`MAX_SECONDS`], each refusal saying which it is not.
pub fn parse_seconds(seconds: f64, setting: Setting) -> Result<std::time::Duration, SettingError> {
    let not_positive = || SettingError::new(setting, Refusal::NotPositiveSeconds { got: seconds });
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(not_positive());
    }
    if seconds > MAX_SECONDS {
        return Err(SettingError::new(
            setting,
            Refusal::TooManySeconds {
                got: seconds,
                most: MAX_SECONDS,
            },
        ));
    }
    std::time::Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|duration| !duration.is_zero())
        .ok_or_else(not_positive)
}

/// A board side: a whole number from 1 to 2³²−1.
pub fn parse_side(text: &str) -> Result<u32, SizeError> {
    parse_side_up_to(text, u32::MAX)
}

/// A board side from 1 to `most` (a server's limit): every front end's one reading of a side,
/// so that each refusal is one sentence wherever it is made. Digits of any length are a number,
/// refused as too large, never as not a number.
pub fn parse_side_up_to(text: &str, most: u32) -> Result<u32, SizeError> {
    let text = text.trim();
    match parse_whole(text, "N", 1, most.into()) {
        Ok(n) => Ok(u32::try_from(n).expect("at most a u32's most")),
        Err(WholeError::NotANumber { .. }) => Err(SizeError::NotANumber(text.to_owned())),
        Err(WholeError::TooSmall { got, .. }) => Err(SizeError::TooSmall(got)),
        Err(WholeError::TooLarge { got, .. }) => Err(SizeError::TooLarge { got, most }),
    }
}

/// A board side for a computation that takes `sides` (a count, the configurator): one past
/// them, even past 2³²−1, is refused in the computation's own sentence, the one its library
/// gives for a side it is handed, not in the board type's.
pub fn parse_side_for(text: &str, sides: SideLimit) -> Result<u32, SizeError> {
    match parse_side(text) {
        Ok(n) if sides.takes(n) => Ok(n),
        Ok(n) => Err(SizeError::Refused(sides.refusal(&n))),
        Err(refusal) => Err(refusal.past(sides)),
    }
}

/// Side `n` if it lies in `1..=most`, else the refusal of [`parse_side_up_to`].
pub fn check_side(n: impl Into<WholeNumber>, most: u32) -> Result<u32, SizeError> {
    let n = n.into();
    if n.is_negative() || n.value() == Some(0) {
        return Err(SizeError::TooSmall(n.to_string()));
    }
    n.within(1..=most).ok_or(SizeError::TooLarge {
        got: n.to_string(),
        most,
    })
}

/// A number of bytes: a whole number with an optional binary suffix (`K`, `M`, `G`, `T`,
/// optionally followed by `B` or `iB`), like `8G` or `512MiB`; `what` names the setting in the
/// refusal (`--memory` on the command line, `memory` in Python).
pub fn parse_bytes(text: &str, what: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let out_of_range = || {
        format!(
            "{what} must be more than 0 and below 16 EiB, got '{}'",
            excerpt(text)
        )
    };
    // A sign is read, so that `-5` is a size out of range rather than an unknown unit.
    let (negative, unsigned) = match trimmed.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, trimmed.strip_prefix('+').unwrap_or(trimmed)),
    };
    let digits = unsigned
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(unsigned.len());
    let (number, unit) = unsigned.split_at(digits);
    if number.is_empty() {
        return Err(format!(
            "{what} must be a size like 8G, 512M or 2048K, got '{}'",
            excerpt(text)
        ));
    }
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => {
            return Err(format!(
                "{what} must be a size like 8G, 512M or 2048K, got '{}' (unknown unit '{}')",
                excerpt(text),
                excerpt(unit)
            ));
        }
    };
    if negative {
        return Err(out_of_range());
    }
    // Digits of any length are a number: past 64 bits, a size out of range.
    number
        .parse::<u64>()
        .ok()
        .and_then(|value| value.checked_mul(1 << shift))
        .filter(|&bytes| bytes > 0)
        .ok_or_else(out_of_range)
}

/// A whole-number setting out of its range (a seed, a cap, a queen count): the refusals of a
/// board side, with the setting's name in place of N, so that every whole number a front end
/// reads is refused alike.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum WholeError {
    /// Not a whole number.
    #[error("{what} must be a {}whole number, got '{}'", if *least > 0 { "positive " } else { "" }, excerpt(got))]
    NotANumber {
        /// The setting's name.
        what: String,
        /// The text given.
        got: String,
        /// The least value taken.
        least: u64,
    },
    /// Below its least value.
    #[error("{what} must be at least {least}, got {got}")]
    TooSmall {
        /// The setting's name.
        what: String,
        /// The number given, as read.
        got: String,
        /// The least value taken.
        least: u64,
    },
    /// Beyond its most value.
    #[error("{what} must be at most {most}, got {got}")]
    TooLarge {
        /// The setting's name.
        what: String,
        /// The number given, as read.
        got: String,
        /// The most value taken.
        most: u64,
    },
}

/// A whole number from `least` to `most` for the setting `what` (`--seed` on the command line,
/// `seed` on the server): an optional sign and digits, of any length.
pub fn parse_whole(text: &str, what: &str, least: u64, most: u64) -> Result<u64, WholeError> {
    let text = text.trim();
    let (negative, digits) = match text.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(WholeError::NotANumber {
            what: what.to_owned(),
            got: text.to_owned(),
            least,
        });
    }
    let magnitude = digits.trim_start_matches('0');
    let magnitude = if magnitude.is_empty() { "0" } else { magnitude };
    let got = if negative && magnitude != "0" {
        format!("-{}", excerpt(magnitude))
    } else {
        excerpt(magnitude).into_owned()
    };
    match magnitude.parse::<u64>() {
        Ok(value) if !negative || value == 0 => {
            if value < least {
                Err(WholeError::TooSmall {
                    what: what.to_owned(),
                    got,
                    least,
                })
            } else if value > most {
                Err(WholeError::TooLarge {
                    what: what.to_owned(),
                    got,
                    most,
                })
            } else {
                Ok(value)
            }
        }
        _ if negative => Err(WholeError::TooSmall {
            what: what.to_owned(),
            got,
            least,
        }),
        _ => Err(WholeError::TooLarge {
            what: what.to_owned(),
            got,
            most,
        }),
    }
}

/// A board size: `N` for N×N, or `RxC` (rows × columns, `x` or `×`).
pub fn parse_size(text: &str) -> Result<(u32, u32), SizeError> {
    parse_size_up_to(text, u32::MAX)
}

/// A board size as [`parse_size`] reads it, each side at most `most` (a server's limit).
pub fn parse_size_up_to(text: &str, most: u32) -> Result<(u32, u32), SizeError> {
    let lower = text.trim().to_ascii_lowercase();
    match lower.split_once(['x', '×']) {
        Some((rows, cols)) => {
            let side = |part: &str, which| {
                parse_side_up_to(part, most).map_err(|side| SizeError::Side {
                    text: text.to_owned(),
                    which,
                    side: Box::new(side),
                })
            };
            Ok((side(rows, "rows")?, side(cols, "columns")?))
        }
        None => parse_side_up_to(&lower, most).map(|n| (n, n)),
    }
}

/// A board size as [`parse_size`] reads it, for a computation that takes `sides`: a side past
/// them is refused in the computation's own sentence, as [`parse_side_for`] refuses it.
pub fn parse_size_for(text: &str, sides: SideLimit) -> Result<(u32, u32), SizeError> {
    match parse_size(text) {
        Ok((rows, cols)) => match [rows, cols].into_iter().find(|&side| !sides.takes(side)) {
            Some(side) => Err(SizeError::Refused(sides.refusal(&side))),
            None => Ok((rows, cols)),
        },
        Err(refusal) => Err(refusal.past(sides)),
    }
}

/// The seed of randomized solvers when none is given.
pub const DEFAULT_SEED: u64 = 1;

/// The node cap of a solve that gives none: about a second of brute force, and far more than
/// any search solver needs up to N = 30. The completion search has none: it decides
/// positions, and only a cap, a time limit or a cancel stops it.
pub const DEFAULT_MAX_NODES: u64 = 100_000_000;

/// The board side where one is asked for and none is given (an experiment's sizes, a
/// challenge table).
pub const DEFAULT_SIDE: u32 = 8;

/// What a user asked for, before any check.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SolveSpec {
    /// Board ranks.
    pub rows: u32,
    /// Board files.
    pub cols: u32,
    /// Queens to place, fixed ones included (default: min(rows, cols)).
    pub queen_count: Option<u32>,
    /// Queens every solution must contain.
    pub fixed: Vec<Square>,
    /// Squares no queen may take.
    pub blocked: Vec<Square>,
    /// The solver's name (default: the best for the problem).
    pub solver: Option<String>,
    /// The seed of a randomized solver (default [`DEFAULT_SEED`]).
    pub seed: Option<u64>,
    /// Parameter values by name: numbers, or text read once the solver is known to take the
    /// name.
    pub params: Vec<(String, ParamValue)>,
    /// The time limit and the node cap (default: [`DEFAULT_MAX_NODES`], none for the
    /// completion search); a solve runs on one thread, so threads are refused.
    pub bounds: Bounds,
    /// The iteration cap (default: the solver's).
    pub max_iterations: Option<u64>,
}

impl SolveSpec {
    /// N queens on N×N, everything else by default.
    pub fn square(n: u32) -> Self {
        SolveSpec {
            rows: n,
            cols: n,
            ..SolveSpec::default()
        }
    }
}

/// A request that passed every check.
#[derive(Clone, Debug)]
pub struct SolveRequest {
    /// What to solve.
    pub problem: Problem,
    /// The solver.
    pub solver: SolverKind,
    /// The seed.
    pub seed: u64,
    /// The solver's parameters, defaults filled in.
    pub params: ParamValues,
    /// The time limit and the node cap, the default cap filled in.
    pub bounds: CheckedBounds,
    /// The iteration cap: the user's, or the solver's default.
    pub max_iterations: Option<u64>,
}

impl SolveRequest {
    /// Checks `spec`: the problem, the solver and its parameters, the caps, then the memory the
    /// run needs against what the machine has left. The first problem found is the error.
    pub fn new(catalogue: &Catalogue, spec: SolveSpec) -> Result<Self, RequestError> {
        let mut problem = Problem::rectangular(spec.rows, spec.cols)?;
        if let Some(count) = spec.queen_count {
            problem = problem.with_queen_count(count)?;
        }
        if !spec.blocked.is_empty() {
            problem = problem.with_blocked(spec.blocked)?;
        }
        if !spec.fixed.is_empty() {
            problem = problem.with_fixed(spec.fixed)?;
        }
        let solver = if let Some(name) = &spec.solver {
            catalogue.get(name)?
        } else {
            let max = queens_exact::completion::MAX_N;
            match problem.classic_side() {
                Some(n) if n > max && !problem.blocked().is_empty() => {
                    return Err(RequestError::NoSolverFor { n, max });
                }
                _ => Catalogue::best_for(&problem),
            }
        };
        let params = solver.params(&spec.params)?;
        solver.check(&problem, &params)?;
        let bounds = spec
            .bounds
            .check()?
            .without(Setting::Threads, "for counts, not solves")?
            .with_default_nodes(
                (solver.name != queens_exact::completion::DESCRIPTOR.name)
                    .then_some(DEFAULT_MAX_NODES),
            );
        if spec.max_iterations == Some(0) {
            return Err(SettingError::new(
                Setting::MaxIterations,
                Refusal::AtLeast { least: 1, got: 0 },
            )
            .into());
        }
        let request = SolveRequest {
            max_iterations: spec
                .max_iterations
                .or_else(|| solver.default_max_iterations(&problem)),
            problem,
            solver,
            seed: spec.seed.unwrap_or(DEFAULT_SEED),
            params,
            bounds,
        };
        memory::check(solver.name, request.memory_needed()).map_err(RequestError::Memory)?;
        Ok(request)
    }

    /// Bytes the run needs at its peak: the solver's state while it runs, or, once it has
    /// answered and its state is gone, its board (4 bytes a queen for the permutations of the
    /// large boards) beside the validator's bit per line (6 bits a side at most) and its sorted
    /// lists.
    pub fn memory_needed(&self) -> u128 {
        let side = u128::from(self.problem.rows().max(self.problem.cols()));
        let queens = self.problem.queens();
        let validated = 4 * u128::from(queens)
            + (6 * side).div_ceil(8)
            + u128::from(queens_core::verify::sorting_bytes(queens as usize));
        self.solver
            .memory_estimate(&self.problem, &self.params)
            .max(validated)
    }

    /// The request's budget, its clock started: its caps and time limit, stopped too when
    /// `cancel` is raised (Ctrl-C, a closed connection; `CancelToken::new()` for none).
    pub fn budget(&self, cancel: CancelToken) -> Budget {
        let budget = self.bounds.budget(cancel);
        match self.max_iterations {
            Some(iterations) => budget.with_max_iterations(iterations),
            None => budget,
        }
    }

    /// A new solver for the request.
    pub fn build(&self) -> Box<dyn queens_core::Solver + Send> {
        self.solver.build(self.seed, &self.params)
    }

    /// Runs the request within `budget`, reporting to `observer`.
    pub fn run(
        &self,
        budget: &mut Budget,
        observer: &mut dyn Observer,
    ) -> Result<Outcome, SolveError> {
        solve::run(self.build().as_mut(), &self.problem, budget, observer)
    }

    /// Whether the answer can be written column by column as it is computed, without holding
    /// the board: the explicit construction's, which needs no search (a request for another
    /// solver runs, and its board is held).
    pub fn streams(&self) -> bool {
        std::ptr::eq(self.solver.descriptor(), &raw const construct::DESCRIPTOR)
    }

    /// Writes the answer's rows to `out` (nothing when `None`: only checked) as they are
    /// computed, each checked by the streaming validator, within `budget`. For a request that
    /// [`streams`](SolveRequest::streams).
    pub fn stream(
        &self,
        out: Option<&mut dyn Write>,
        budget: &Budget,
    ) -> Result<Streamed, StreamError> {
        debug_assert!(self.streams(), "only the construction streams");
        construct::stream_construction(self.problem.rows(), out, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_read_and_every_refusal_says_what_is_wrong() {
        assert_eq!(parse_bytes("8G", "--memory"), Ok(8 << 30));
        assert_eq!(parse_bytes(" 512MiB ", "--memory"), Ok(512 << 20));
        assert_eq!(parse_bytes("+4k", "--memory"), Ok(4 << 10));
        let range =
            |got: &str| format!("--memory must be more than 0 and below 16 EiB, got '{got}'");
        for text in [
            "0",
            "-5",
            "-5G",
            "0G",
            "16777216T",
            "99999999999999999999999G",
        ] {
            assert_eq!(parse_bytes(text, "--memory"), Err(range(text)), "{text}");
        }
        for text in ["lots", "", "G", "-", "-x"] {
            assert_eq!(
                parse_bytes(text, "--memory"),
                Err(format!(
                    "--memory must be a size like 8G, 512M or 2048K, got '{text}'"
                )),
                "{text}"
            );
        }
        assert_eq!(
            parse_bytes("8X", "--memory"),
            Err(
                "--memory must be a size like 8G, 512M or 2048K, got '8X' (unknown unit 'X')"
                    .into()
            )
        );
    }

    fn refused(spec: SolveSpec) -> String {
        SolveRequest::new(Catalogue::standard(), spec)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn only_the_construction_streams_its_answer() {
        let request = |solver: &str| {
            let spec = SolveSpec {
                solver: Some(solver.into()),
                ..SolveSpec::square(1000)
            };
            SolveRequest::new(Catalogue::standard(), spec).unwrap()
        };
        let construct = request("construct");
        assert!(construct.streams());
        assert!(!request("min-conflicts").streams());
        let mut line = Vec::new();
        let ended = construct.stream(Some(&mut line), &Budget::unlimited());
        assert!(matches!(ended, Ok(Streamed::Solved)));
        let rows = String::from_utf8(line).unwrap();
        let board: queens_core::Board = rows.trim().parse().unwrap();
        assert!(queens_core::verify::verify(&board).is_solution());
    }

    #[test]
    fn defaults_come_from_the_descriptor() {
        let spec = SolveSpec {
            solver: Some("optimized-hill-climbing".into()),
            ..SolveSpec::square(8)
        };
        let request = SolveRequest::new(Catalogue::standard(), spec).unwrap();
        assert_eq!(request.max_iterations, Some(1000));
        assert_eq!(request.params.value("q"), Some(4.0));
        assert_eq!(request.seed, DEFAULT_SEED);
        let default = SolveRequest::new(Catalogue::standard(), SolveSpec::square(8)).unwrap();
        assert_eq!(default.solver.name(), "forward-checking");
    }

    #[test]
    fn every_refusal_is_one_sentence() {
        let q = SolveSpec {
            solver: Some("optimized-hill-climbing".into()),
            params: vec![("q".into(), 9.0.into())],
            ..SolveSpec::square(8)
        };
        assert!(refused(q).starts_with("q must be between 1 and N = 8"));
        let unknown = SolveSpec {
            solver: Some("genetic".into()),
            params: vec![("p".into(), 0.5.into())],
            ..SolveSpec::square(8)
        };
        assert!(refused(unknown).starts_with("genetic has no parameter 'p'"));
        let zero = SolveSpec {
            max_iterations: Some(0),
            ..SolveSpec::square(8)
        };
        assert!(refused(zero).contains("at least 1"));
        let shape = SolveSpec {
            solver: Some("construct".into()),
            fixed: vec![Square::new(0, 0)],
            ..SolveSpec::square(20)
        };
        assert!(refused(shape).contains("cannot honour fixed queens"));
    }
}
