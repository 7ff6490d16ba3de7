//! The native half of the `queens_workbench` Python module (`queens_workbench._queens`): thin
//! functions over the workbench's libraries, each answering in JSON or bytes that the Python
//! half (`python/queens_workbench/__init__.py`) turns into objects.
//!
//! Every call validates its input with the same code as the command line and the web API (so
//! a refusal is a `ValueError` with the same sentence), runs on a worker thread with the GIL
//! released, and answers Ctrl-C: the calling thread checks Python's signals every 50 ms and
//! cancels the work's [`Budget`] token, which stops it at once.

mod detached;
mod forward;
mod shards;

use std::path::PathBuf;

use queens_core::read::{MAX_TEXT_BYTES, SHOWN_CONFLICTS};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use queens_api::bounds::Bounds;
use queens_api::challenge::{Challenge, Progress as ChallengeProgress};
use queens_api::completions::{self, CompletionsRequest, CompletionsSpec};
use queens_api::configure::{Configurator, ConfigureRequest, ConfigureSpec};
use queens_api::count::Shard;
use queens_api::count::{
    CHECKPOINT_EVERY, CountJob, CountRequest, CountResult, CountRunError, CountSpec,
    DEFAULT_MAX_ESTIMATE, EngineChoice,
};
use queens_api::devices::DeviceId;
use queens_api::document::{
    Completeness, CountDocument, ShardDocument, SolveDocument, VerifyDocument, solver_document,
};
use queens_api::experiment::{Experiment, run as run_experiment};
use queens_api::request::{parse_bytes, parse_seconds, parse_side, parse_side_for, parse_size};
use queens_api::setting::Setting;
use queens_api::shards::ShardReport;
use queens_api::{Catalogue, SolveRequest, SolveSpec, SolverKind, Worded, Words};
use queens_core::symmetry::Kinds;
use queens_core::{Board, Budget, CancelToken, Square};

use crate::detached::{Message, run_abandonable, run_detached};
use crate::forward::Forward;

/// A refusal in the command line's words.
pub(crate) fn refused(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(queens_core::error::for_users(&error.to_string()).into_owned())
}

/// Starts the worker threads the module's parallel work shares, as the command does before any
/// command: sized by `RAYON_NUM_THREADS` within the most threads a run may have, each where the
/// address space has room for it. Every call that may count, solve or check in parallel asks
/// first, so that a variable that says no number of threads is a `ValueError` of that call,
/// while the import goes through and `queens` from the wheel refuses it as the command does;
/// an address space with no room for the threads is a `MemoryError`, threads the system does
/// not start a `RuntimeError`, each in the command's words.
pub(crate) fn worker_threads() -> PyResult<()> {
    use pyo3::exceptions::{PyMemoryError, PyRuntimeError};
    use queens_core::pool::{PoolError, start_shared_pool};
    start_shared_pool(None, queens_api::limits::LIMITS.max_threads).map_err(|refusal| {
        let words = refusal.to_string();
        match refusal {
            PoolError::Variable { .. } => PyValueError::new_err(words),
            PoolError::NoRoom { .. } => PyMemoryError::new_err(words),
            PoolError::ThreadLimit { .. } | PoolError::NotStarted(_) => {
                PyRuntimeError::new_err(words)
            }
        }
    })
}

/// A refusal of the front door as a `ValueError`, its settings named as Python's keywords
/// (`threads=`, `time_limit=`).
#[expect(
    clippy::needless_pass_by_value,
    reason = "map_err hands the error over"
)]
fn said(error: impl Worded) -> PyErr {
    refused(error.worded(Words::Python))
}

/// The solvers' descriptors, as `/api/solvers` lists them.
#[pyfunction]
fn solvers() -> String {
    let solvers: Vec<serde_json::Value> = Catalogue::standard()
        .solvers()
        .iter()
        .map(solver_document)
        .collect();
    serde_json::Value::Array(solvers).to_string()
}

/// The GPU adapters found, as `queens devices --json` lists them.
#[pyfunction]
fn devices() -> String {
    serde_json::to_string(&queens_api::devices::Adapters::probe().list())
        .expect("a list serializes")
}

/// The workbench's limits and defaults, `{"limits": ..., "defaults": ...}`: the table the
/// command line's help and the server read too.
#[pyfunction]
fn limits() -> String {
    serde_json::json!({
        "limits": queens_api::limits::LIMITS,
        "defaults": queens_api::limits::DEFAULTS,
    })
    .to_string()
}

/// Squares from their names (`"d1"`, `"r20c30"`), as (row, col), 0-based.
#[pyfunction]
fn parse_squares(text: &str) -> PyResult<Vec<(u32, u32)>> {
    queens_core::notation::parse_squares(text)
        .map(|squares| squares.into_iter().map(|s| (s.row, s.col)).collect())
        .map_err(refused)
}

/// The name of the square (`row`, `col`) on a board `cols` files wide, as every part of the
/// workbench names it: `d1` up to 26 files, `r1c4` beyond.
#[pyfunction]
fn square_name(row: u32, col: u32, cols: u32) -> String {
    queens_core::notation::square_name(queens_core::Square::new(row, col), cols)
}

/// The file letters under a diagram of a board `cols` files wide, or `None` beyond 26 files.
#[pyfunction]
fn file_letters(cols: u32) -> Option<String> {
    queens_core::notation::file_letters(cols)
}

/// A solve: the CLI's JSON document (its `queens` left out when the permutation carries them)
/// and, for a board with one queen per column, the row of each column as little-endian `u32`s.
#[pyfunction]
#[pyo3(signature = (size, solver, seed, fix, queen_count, params, max_iters, max_nodes, time_limit, on_event, blocked=Vec::new(), every=false, unique=false))]
#[expect(clippy::too_many_arguments, reason = "the Python signature's keywords")]
#[expect(
    clippy::needless_pass_by_value,
    reason = "PyO3 extracts owned arguments"
)]
fn solve(
    py: Python<'_>,
    size: &str,
    solver: Option<String>,
    seed: Option<u64>,
    fix: Vec<(u32, u32)>,
    queen_count: Option<u32>,
    params: Vec<(String, f64)>,
    max_iters: Option<u64>,
    max_nodes: Option<u64>,
    time_limit: Option<f64>,
    on_event: Option<Bound<'_, PyAny>>,
    blocked: Vec<(u32, u32)>,
    every: bool,
    unique: bool,
) -> PyResult<(String, Option<Py<PyBytes>>)> {
    worker_threads()?;
    let (rows, cols) = parse_size(size).map_err(refused)?;
    let mut params: Vec<(String, queens_core::parameters::ParamValue)> = params
        .into_iter()
        .map(|(name, value)| (name, value.into()))
        .collect();
    // Every solution, as `solve --all` lists them; only `found` events go to `on_event` then.
    let solver = if every {
        let solver = queens_api::every::every_solution(
            solver.as_deref(),
            rows,
            cols,
            queen_count,
            &mut params,
        );
        Some(solver.map_err(refused)?.name().to_owned())
    } else {
        solver
    };
    let spec = SolveSpec {
        rows,
        cols,
        queen_count,
        fixed: fix
            .into_iter()
            .map(|(row, col)| Square::new(row, col))
            .collect(),
        blocked: blocked
            .into_iter()
            .map(|(row, col)| Square::new(row, col))
            .collect(),
        solver,
        seed,
        params,
        bounds: Bounds {
            time_limit,
            max_nodes,
            threads: None,
        },
        max_iterations: max_iters,
    };
    let request = SolveRequest::new(Catalogue::standard(), spec).map_err(said)?;
    let token = CancelToken::new();
    let budget = request.budget(token.clone());
    let wants_events = on_event.is_some();
    // With `unique`, the least of each kind alone, as `solve --all --unique` lists them.
    let kinds = (every && unique).then(|| Kinds::of(&request.problem));
    let outcome = run_detached(py, &token, on_event.as_ref(), move |sender| {
        let mut budget = budget;
        let mut forward = wants_events.then(|| Forward {
            sender,
            every,
            kinds,
        });
        request
            .run(&mut budget, &mut forward)
            .map(|outcome| (request, outcome))
    })?;
    let (request, outcome) = outcome.map_err(refused)?;
    // The solution's rows, or those of the board a stopped local search ended on.
    let perm = outcome.board().and_then(Board::permutation);
    let mut document = SolveDocument::new(&request.problem, request.solver, &outcome);
    // The rows' own memory in one copy (little-endian u32, NumPy's "<u4"), not row by row.
    let bytes = perm.map(|rows| {
        if cfg!(target_endian = "little") {
            PyBytes::new(py, bytemuck::cast_slice(&rows)).unbind()
        } else {
            let bytes: Vec<u8> = rows.iter().flat_map(|row| row.to_le_bytes()).collect();
            PyBytes::new(py, &bytes).unbind()
        }
    });
    if bytes.is_some() {
        document = document.without_queens();
    }
    Ok((serde_json::to_string(&document).map_err(refused)?, bytes))
}

/// The validator's findings on a board: the document `queens verify --json` prints, listing
/// at most `limit` attacking pairs (their count is always exact); `queen_count` is the queens a
/// solution holds (M on an R×C board). The board is `text` in any format `queens verify`
/// reads, or `columns`, a permutation given as numbers: the row of each column as
/// little-endian 64-bit integers, -1 for an empty column (a `numpy` array's memory, or a
/// Python list, copied rather than written out as text), checked as it streams when it is a
/// whole one, as the command line checks a long permutation. `rows32` is a whole permutation
/// as little-endian 32-bit rows (a `numpy.uint32` array's memory, as `solve` returns it): 4
/// bytes a queen instead of 8, and no empty columns.
#[pyfunction]
#[pyo3(signature = (text, columns=None, size=None, queen_count=None, limit=SHOWN_CONFLICTS, rows32=None))]
fn verify(
    py: Python<'_>,
    text: String,
    columns: Option<&[u8]>,
    size: Option<&str>,
    queen_count: Option<u32>,
    limit: usize,
    rows32: Option<&[u8]>,
) -> PyResult<String> {
    worker_threads()?;
    let size = size.map(parse_size).transpose().map_err(refused)?;
    let columns = columns.map(|bytes| Columns::Wide(bytes.to_vec()));
    let columns = columns.or_else(|| rows32.map(|bytes| Columns::Rows32(bytes.to_vec())));
    run_abandonable(py, move || match columns {
        None => {
            let mut input = text.as_bytes();
            let bytes = Some(input.len() as u64);
            let read = queens_core::read::read_board_of_length(
                &mut input,
                usize::MAX,
                MAX_TEXT_BYTES,
                size,
                bytes,
            );
            verified(read, size, queen_count, limit)
        }
        Some(columns) => verify_columns(&columns, size, queen_count, limit),
    })?
    .map_err(refused)
}

/// A permutation given as numbers.
enum Columns {
    /// Little-endian 64-bit rows, -1 for an empty column.
    Wide(Vec<u8>),
    /// Little-endian 32-bit rows, every column holding a queen.
    Rows32(Vec<u8>),
}

impl Columns {
    fn len(&self) -> usize {
        match self {
            Columns::Wide(bytes) => bytes.len() / 8,
            Columns::Rows32(bytes) => bytes.len() / 4,
        }
    }

    /// The row of each column, read as it is needed; an error for a row no column can hold.
    fn rows(&self) -> impl Iterator<Item = Result<Option<u32>, String>> + '_ {
        let (wide, narrow) = match self {
            Columns::Wide(bytes) => (bytes.as_slice(), &[][..]),
            Columns::Rows32(bytes) => (&[][..], bytes.as_slice()),
        };
        let wide = wide.chunks_exact(8).enumerate().map(|(col, bytes)| {
            match i64::from_le_bytes(bytes.try_into().expect("eight bytes")) {
                -1 => Ok(None),
                row => u32::try_from(row).map(Some).map_err(|_| {
                    format!("column {col} has row {row}: rows are whole numbers from 0 (or None for an empty column)")
                }),
            }
        });
        let narrow = narrow.chunks_exact(4).map(|bytes| {
            Ok(Some(u32::from_le_bytes(
                bytes.try_into().expect("four bytes"),
            )))
        });
        wide.chain(narrow)
    }
}

/// [`verify`] of a permutation given as numbers.
fn verify_columns(
    columns: &Columns,
    size: Option<(u32, u32)>,
    queen_count: Option<u32>,
    limit: usize,
) -> Result<String, String> {
    if let Some(Err(error)) = columns.rows().find(Result::is_err) {
        return Err(error);
    }
    let rows = || columns.rows().map(|row| row.expect("checked above"));
    // A whole permutation is checked as it streams, in a few bits a queen: a peaceful one is
    // answered from that alone; one with collisions is held, to list its attacking pairs.
    let plain = size.is_none() && queen_count.is_none_or(|m| m as usize == columns.len());
    if plain
        && let Ok(queens_core::read::ReadBoard::Streamed(report)) =
            queens_core::read::read_columns(rows(), 0, None)
        && report.collisions == 0
    {
        let document = VerifyDocument::streamed(&report);
        return Ok(serde_json::to_string(&document).expect("a document serializes"));
    }
    verified(
        queens_core::read::read_columns(rows(), usize::MAX, size),
        size,
        queen_count,
        limit,
    )
}

/// The verify document of a board read by `read`, judged as the command line judges it: on a
/// board of `size` when given, by its own problem's queen count, fixed and blocked squares.
fn verified(
    read: Result<queens_core::read::ReadBoard, queens_core::read::ReadError>,
    size: Option<(u32, u32)>,
    queen_count: Option<u32>,
    limit: usize,
) -> Result<String, String> {
    let spec = queens_api::verify::VerifySpec { size, queen_count };
    let checked = queens_api::verify::check(read.map_err(|error| error.to_string())?, &spec)
        .map_err(|error| error.to_string())?;
    let json = match &checked {
        queens_api::verify::Checked::Held { board, report, .. } => serde_json::to_string(
            &VerifyDocument::of_board(board.rows(), board.cols(), report, limit),
        ),
        queens_api::verify::Checked::Streamed(report) => {
            serde_json::to_string(&VerifyDocument::streamed(report))
        }
    };
    Ok(json.expect("a document serializes"))
}

/// A count as `queens count --json` prints it (a shard's document for a shard, the completions'
/// document for a position), ending with `"complete"` and, for a stopped count, `"stop_reason"`,
/// `"finished"` and `"parts"`; `progress` is called with (parts finished, parts).
///
/// A whole count whose estimate on these threads is longer than `max_estimate` seconds is
/// refused with the estimate: the count for N = 24 takes months, not a notebook's afternoon.
#[pyfunction]
#[pyo3(signature = (n, threads=None, shard=None, engine=None, memory=None, time_limit=None, max_estimate=None, progress=None, fix=Vec::new(), blocked=Vec::new(), device=None, checkpoint=None, checkpoint_every=None))]
#[expect(clippy::too_many_arguments, reason = "the Python signature's keywords")]
fn count(
    py: Python<'_>,
    n: &str,
    threads: Option<usize>,
    shard: Option<&str>,
    engine: Option<&str>,
    memory: Option<&str>,
    time_limit: Option<f64>,
    max_estimate: Option<f64>,
    progress: Option<&Bound<'_, PyAny>>,
    fix: Vec<(u32, u32)>,
    blocked: Vec<(u32, u32)>,
    device: Option<&str>,
    checkpoint: Option<PathBuf>,
    checkpoint_every: Option<f64>,
) -> PyResult<String> {
    worker_threads()?;
    let token = CancelToken::new();
    let bounds = Bounds {
        time_limit,
        max_nodes: None,
        threads,
    };
    if !fix.is_empty() || !blocked.is_empty() {
        // Every whole-count argument is refused with a position, none dropped.
        for (given, name) in [
            (shard.is_some(), "shard"),
            (memory.is_some(), "memory"),
            (device.is_some(), "device"),
            (checkpoint.is_some(), "checkpoint"),
            (checkpoint_every.is_some(), "checkpoint_every"),
        ] {
            if given {
                return Err(refused(format!(
                    "{name} is for whole counts; the completions of a position are counted in one run"
                )));
            }
        }
        return count_completions(py, n, fix, blocked, bounds, engine, &token, progress);
    }
    let n = parse_side_for(n, queens_api::count::SIDES).map_err(refused)?;
    // The interval is checked, and refused without a file, before a GPU is opened.
    let every = checkpoint_interval(checkpoint.is_some(), checkpoint_every)?;
    let spec = CountSpec {
        n,
        engine: engine
            .unwrap_or("auto")
            .parse::<EngineChoice>()
            .map_err(refused)?,
        device: device
            .map(|text| {
                text.parse::<DeviceId>()
                    .map_err(|refusal| refusal.of("device"))
            })
            .transpose()
            .map_err(refused)?,
        bounds,
        memory_limit: memory
            .map(|text| parse_bytes(text, "memory"))
            .transpose()
            .map_err(refused)?,
        shard: shard
            .map(str::parse::<Shard>)
            .transpose()
            .map_err(refused)?,
        max_estimate: Some(max_estimate.unwrap_or(DEFAULT_MAX_ESTIMATE)),
    };
    let shard = spec.shard;
    let request = CountRequest::new(&spec).map_err(said)?;
    // A GPU assigned by a job scheduler but not found is said, as the command line says it.
    if let Some(warning) = request.device_warning() {
        detached::warn(py, &warning)?;
    }
    let device = request.device().map(|device| device.name.clone());
    let budget = request.bounds().budget(token.clone());
    let job = match checkpoint {
        Some(path) => request
            .into_job()
            .with_checkpoint(path, every.unwrap_or(CHECKPOINT_EVERY)),
        None => request.into_job(),
    };
    let (job, result) = run_count_job(py, &token, progress, job, &budget)?;
    let document = match shard {
        Some(shard) => serde_json::to_string(&ShardDocument {
            report: ShardReport::of_result(job.plan(), shard, &result),
            threads: job.threads(),
            elapsed_ms: result.elapsed.as_secs_f64() * 1e3,
            end: Completeness::of(result.stopped, result.finished, result.subproblems),
        }),
        None => serde_json::to_string(
            &CountDocument::of_result(n, &result, job.threads(), job.plan().engine().name())
                .on_device(device)
                .with_places(&result),
        ),
    };
    Ok(document.expect("a document serializes"))
}

/// The interval between a checkpoint's saves, `seconds` checked; refused where there is no
/// checkpoint to save.
fn checkpoint_interval(
    checkpoint: bool,
    seconds: Option<f64>,
) -> PyResult<Option<std::time::Duration>> {
    let every = seconds
        .map(|seconds| parse_seconds(seconds, Setting::CheckpointEvery))
        .transpose()
        .map_err(said)?;
    if every.is_some() && !checkpoint {
        return Err(refused(
            "checkpoint_every= goes with a checkpoint: checkpoint=\"FILE\"",
        ));
    }
    Ok(every)
}

/// Runs a whole count's `job` off the GIL: progress to `progress`, a failed checkpoint save
/// raised as a `RuntimeWarning` when it fails and again at the end if the last one did.
fn run_count_job(
    py: Python<'_>,
    token: &CancelToken,
    progress: Option<&Bound<'_, PyAny>>,
    job: CountJob,
    budget: &Budget,
) -> PyResult<(CountJob, CountResult)> {
    let (job, result) = run_detached(py, token, progress, move |sender| {
        let result = job.run_reporting(
            budget,
            |done, of| sender.offer(Message::Progress(done as u64, of as u64)),
            |error| {
                sender.send(Message::Warning(format!(
                    "{error}; the count goes on and will try again"
                )));
            },
        );
        (job, result)
    })?;
    let result = result.map_err(|error| match (error, job.checkpoint()) {
        // A GPU that failed mid-count: the parts it finished are kept where there is a file.
        (CountRunError::Counter(failure), Some(path)) => refused(format!(
            "{failure}; the parts counted are saved in {}: count again with the same \
             checkpoint= to resume (on this or another GPU, or another engine)",
            path.display()
        )),
        (error, _) => refused(error),
    })?;
    if let Some(failure) = &result.save_failure {
        let then = if result.is_complete() {
            "the count is complete, but its last save failed"
        } else {
            "its last save failed, so a new count resumes from the last good one"
        };
        detached::warn(py, &format!("{then}: {failure}"))?;
    }
    Ok((job, result))
}

/// The completions of `fix` and `blocked` on N×N, by the completion search (or, with engine
/// `backtracking`, row by row).
#[expect(clippy::too_many_arguments, reason = "count's keywords, passed on")]
fn count_completions(
    py: Python<'_>,
    n: &str,
    fix: Vec<(u32, u32)>,
    blocked: Vec<(u32, u32)>,
    bounds: Bounds,
    engine: Option<&str>,
    token: &CancelToken,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let squares = |list: Vec<(u32, u32)>| -> Vec<Square> {
        list.into_iter().map(|(r, c)| Square::new(r, c)).collect()
    };
    let engine = engine
        .unwrap_or("auto")
        .parse::<EngineChoice>()
        .map_err(refused)?;
    let sides = completions::sides(completions::method(engine).map_err(said)?);
    let request = CompletionsRequest::new(CompletionsSpec {
        n: parse_side_for(n, sides).map_err(refused)?,
        fixed: squares(fix),
        blocked: squares(blocked),
        engine,
        bounds,
    })
    .map_err(said)?;
    let budget = request.bounds().budget(token.clone());
    let (request, answer) = run_detached(py, token, progress, move |sender| {
        let answer = request.run(&budget, |done: usize, of: usize| {
            sender.offer(Message::Progress(done as u64, of as u64));
        });
        (request, answer)
    })?;
    Ok(serde_json::to_string(&answer.document(&request)).expect("a document serializes"))
}

/// The configurator's analysis of a position, as `queens configure --json` prints it: by
/// `engine` (auto, bdd or search), within `max_nodes` search nodes and `time_limit` seconds.
#[pyfunction]
#[pyo3(signature = (n, queens, blocked, engine, max_nodes, time_limit))]
fn configure(
    py: Python<'_>,
    n: &str,
    queens: Vec<(u32, u32)>,
    blocked: Vec<(u32, u32)>,
    engine: Option<String>,
    max_nodes: Option<u64>,
    time_limit: Option<f64>,
) -> PyResult<String> {
    worker_threads()?;
    let squares = |list: Vec<(u32, u32)>| list.into_iter().map(|(r, c)| Square::new(r, c));
    let request = ConfigureRequest::new(&ConfigureSpec {
        n: parse_side_for(n, queens_api::configure::SIDES).map_err(refused)?,
        queens: squares(queens).collect(),
        blocked: squares(blocked).collect(),
        engine,
        bounds: Bounds {
            time_limit,
            max_nodes,
            threads: None,
        },
    })
    .map_err(said)?;
    let token = CancelToken::new();
    let budget = request.bounds().budget(token.clone());
    let analysis = run_detached(py, &token, None, move |_| {
        request.analyse(&Configurator::new(), &budget)
    })?
    .map_err(refused)?;
    serde_json::to_string(&analysis).map_err(refused)
}

/// An experiment's rows, as `queens experiment --json` prints them; `progress` is called with
/// (runs finished, runs in all).
#[pyfunction]
#[pyo3(signature = (solvers, sizes, runs, seed, max_iters, sweep, progress))]
#[expect(
    clippy::needless_pass_by_value,
    reason = "PyO3 extracts owned arguments"
)]
#[expect(clippy::too_many_arguments, reason = "the Python signature's keywords")]
fn experiment(
    py: Python<'_>,
    solvers: Vec<String>,
    sizes: Vec<String>,
    runs: u64,
    seed: u64,
    max_iters: Option<u64>,
    sweep: Vec<(String, Vec<f64>)>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    worker_threads()?;
    let solvers = named_solvers(&solvers, Catalogue::original_comparison)?;
    // Each size read as the command line reads it, refused in its words.
    let sizes = sizes
        .iter()
        .map(|size| parse_side(size))
        .collect::<Result<Vec<_>, _>>()
        .map_err(refused)?;
    let experiment = Experiment {
        max_iterations: max_iters,
        sweep,
        ..Experiment::new(solvers, sizes, runs, seed)
    };
    experiment.check().map_err(refused)?;
    let planned = experiment.total_runs().unwrap_or(0);
    let token = CancelToken::new();
    let budget = Budget::unlimited().with_cancel(token.clone());
    let report = run_detached(py, &token, progress.as_ref(), move |sender| {
        run_experiment(&experiment, &budget, |done| {
            sender.offer(Message::Progress(done, planned));
        })
    })?
    .map_err(refused)?;
    serde_json::to_string(&report.rows).map_err(refused)
}

/// The page's modules a notebook's replay runs (the player of `notebook.js` and what it
/// imports), by file name: the same files the web page serves, built into the module.
macro_rules! page_modules {
    ($($module:literal),+ $(,)?) => {
        [$(($module, include_str!(concat!("../../queens-web/static/js/", $module)))),+]
    };
}

/// The page's JavaScript modules for a notebook's replay, by name, and its stylesheet.
#[pyfunction]
fn page_assets() -> (Vec<(&'static str, &'static str)>, &'static str) {
    let modules = page_modules!(
        "board.js",
        "charts.js",
        "dom.js",
        "notebook.js",
        "player.js",
        "replay.js",
        "squares.js",
        "zoom.js",
    );
    (
        modules.to_vec(),
        include_str!("../../queens-web/static/style.css"),
    )
}

/// The Queen's Challenge table, as `queens challenge --json` prints it: for every square of an
/// N×N board as the locked queen, the nodes each tree search examines (at most `max_nodes`
/// a run, within `time_limit` seconds in all); `progress` is called with (runs finished, runs).
#[pyfunction]
#[pyo3(signature = (n, solvers, max_nodes, time_limit, progress))]
#[expect(
    clippy::needless_pass_by_value,
    reason = "PyO3 extracts owned arguments"
)]
fn challenge(
    py: Python<'_>,
    n: &str,
    solvers: Vec<String>,
    max_nodes: Option<u64>,
    time_limit: Option<f64>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    worker_threads()?;
    let bounds = Bounds {
        time_limit,
        max_nodes,
        threads: None,
    }
    .check()
    .map_err(said)?;
    let n = parse_side_for(n, queens_api::challenge::SIDES).map_err(refused)?;
    let solvers = named_solvers(&solvers, || Catalogue::standard().tree_searches())?;
    let challenge = Challenge {
        n,
        solvers,
        max_nodes: bounds.max_nodes(),
    };
    challenge.check().map_err(refused)?;
    let planned = u64::from(n).pow(2) * challenge.solvers.len() as u64;
    let token = CancelToken::new();
    // The node cap is each run's, which the table applies; its runs take the budget's time
    // limit and token only.
    let budget = bounds.budget(token.clone());
    let table = run_detached(py, &token, progress.as_ref(), move |sender| {
        let finished = std::sync::atomic::AtomicU64::new(0);
        challenge.run(&budget, |progress| {
            if !matches!(progress, ChallengeProgress::Finished(_)) {
                return;
            }
            let done = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            sender.offer(Message::Progress(done, planned));
        })
    })?
    .map_err(refused)?;
    serde_json::to_string(&table).map_err(refused)
}

/// The solvers `names` names, or where it names none, the `default` ones.
fn named_solvers(
    names: &[String],
    default: impl FnOnce() -> Vec<SolverKind>,
) -> PyResult<Vec<SolverKind>> {
    if names.is_empty() {
        return Ok(default());
    }
    Catalogue::standard().get_all(names).map_err(refused)
}

/// The `queens` command line, run in this process on `args` (the program's name first);
/// `own_command` is how a cluster's tasks start it again. Answers the exit status. Like the
/// command, it takes Ctrl-C over for the rest of the process: it is the `queens` script's and
/// `python -m queens_workbench`'s, not a notebook's.
#[pyfunction]
fn command_line(
    py: Python<'_>,
    args: Vec<std::ffi::OsString>,
    own_command: Vec<std::ffi::OsString>,
) -> u8 {
    py.detach(|| queens_cli::run_as(args, own_command))
}

/// The native module.
#[pymodule]
mod _queens {
    use pyo3::prelude::*;

    #[pymodule_export]
    use super::shards::merge;
    #[pymodule_export]
    use super::{
        challenge, command_line, configure, count, devices, experiment, file_letters, limits,
        page_assets, parse_squares, solve, solvers, square_name, verify,
    };

    #[pymodule_init]
    fn init(module: &Bound<'_, PyModule>) -> PyResult<()> {
        module.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
