//! The page itself (embedded in the binary) and the solver list it is built from.

use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use queens_api::document::solver_document;
use queens_api::experiment::PresetPart;
use queens_api::limits::{DEFAULTS, LIMITS};
use serde::Serialize;
use serde_json::{Value, json};

use crate::AppState;

/// A JavaScript module of the page: `js!("board")` serves `static/js/board.js` at `/js/board.js`.
macro_rules! js {
    ($module:literal) => {
        (
            concat!("/js/", $module, ".js"),
            JS,
            include_str!(concat!("../static/js/", $module, ".js")),
        )
    };
}

/// The page's files, embedded in the binary: path, content type, contents.
const FILES: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../static/index.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../static/style.css"),
    ),
    (
        "/favicon.svg",
        "image/svg+xml",
        include_str!("../static/favicon.svg"),
    ),
    (
        "/favicon.ico",
        "image/svg+xml",
        include_str!("../static/favicon.svg"),
    ),
    js!("main"),
    js!("api"),
    js!("dom"),
    js!("squares"),
    js!("state"),
    js!("board"),
    js!("zoom"),
    js!("replay"),
    js!("tree"),
    js!("explain"),
    js!("narration"),
    js!("neighbourhood"),
    js!("run-chart"),
    js!("presets"),
    js!("population"),
    js!("found"),
    js!("challenge"),
    js!("player"),
    js!("notebook"),
    js!("charts"),
    js!("configure"),
    js!("configure-analysis"),
    js!("configure-panel"),
    js!("watch"),
    js!("watch-panel"),
    js!("watch-render"),
    js!("race"),
    js!("race-lanes"),
    js!("lab"),
    js!("lab-form"),
    js!("lab-figures"),
    js!("counter"),
    js!("results"),
];

const JS: &str = "text/javascript; charset=utf-8";

/// `GET` of one of the page's files; `None` (a 404) for anything else.
pub async fn file(uri: axum::http::Uri) -> Result<impl IntoResponse, crate::ApiError> {
    let (_, kind, body) = FILES
        .iter()
        .find(|(path, _, _)| *path == uri.path())
        .ok_or_else(|| crate::ApiError::not_found("no such page or API route"))?;
    Ok((
        [
            (header::CONTENT_TYPE, *kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        *body,
    ))
}

/// What the page starts with, so that its scripts name no solver: Watch's solver, the one
/// "Solve this position" watches on an empty board beyond `small_board_up_to` (the exhaustive
/// one up to it), Race's pair and sides, the Lab's first experiment and the seed a run starts with.
#[derive(Serialize)]
struct PageDefaults {
    seed: u64,
    /// The board side each view starts with.
    side: u32,
    /// The runs of each cell of an experiment the Lab's form starts with.
    runs: u64,
    watch_solver: &'static str,
    large_board_solver: &'static str,
    small_board_up_to: u32,
    race_solvers: [&'static str; 2],
    /// Race's sides, least and most: four lanes of boards side by side stay legible up to 64,
    /// and below 4 only the 1×1 board has a solution to race to.
    race_sides: [u32; 2],
    lab: PresetPart,
}

static PAGE_DEFAULTS: PageDefaults = PageDefaults {
    seed: DEFAULTS.seed,
    side: DEFAULTS.side,
    runs: DEFAULTS.experiment_runs,
    watch_solver: "backtracking",
    large_board_solver: "min-conflicts",
    small_board_up_to: 20,
    race_solvers: ["hill-climbing", "optimized-hill-climbing"],
    race_sides: [4, 64],
    lab: PresetPart {
        solvers: &[
            "hill-climbing",
            "hill-climbing-constant-shake",
            "optimized-hill-climbing",
            "simulated-annealing",
        ],
        sizes: &[8, 12, 16, 20, 24],
        runs: 50,
        seed: DEFAULTS.seed,
        max_iters: None,
        sweep: &[],
    },
};

/// `GET /api/solvers`: every solver's descriptor, this server's limits, what the page starts
/// with and the original study's experiments as presets.
pub async fn solvers(State(state): State<AppState>) -> Json<Value> {
    let limits = state.limits();
    let solvers: Vec<Value> = state
        .catalogue()
        .solvers()
        .iter()
        .map(solver_document)
        .collect();
    Json(json!({
        "solvers": solvers,
        "limits": {
            "configure_max_n": limits.configure_max_n,
            "solve_max_n": limits.solve_max_n,
            "solve_max_events": limits.solve_max_events,
            "solve_max_nodes": limits.solve_max_nodes,
            "watch_max_nodes": limits.watch_max_nodes,
            "count_max_n": limits.count_max_n,
            "challenge_max_n": limits.challenge_max_n,
            "challenge_solvers": state
                .catalogue()
                .tree_searches()
                .iter()
                .map(|solver| solver.name())
                .collect::<Vec<_>>(),
            "challenge_seconds": limits.challenge_time.as_secs(),
            // What solves a position of placed queens or blocked squares on a board the page
            // configures (its "Solve this position"): the catalogue's own choice.
            "position_solver": position_solver(limits.configure_max_n),
            // What lists every completion of a position (Configure's link to them): the
            // catalogue's choice for a square board, as `solve --all` makes it.
            "list_solver": queens_api::Catalogue::lister_for(8, 8).name(),
            "neighbourhood_max_n": queens_api::neighbourhood::MAX_N,
            "experiment_max_n": limits.experiment_max_n,
            "experiment_max_runs": LIMITS.experiment_max_runs,
            "experiment_max_cpu_seconds": limits.experiment_max_cpu_seconds,
            "job_seconds": limits.job_time.as_secs(),
            "experiment_seconds": limits.experiment_time.as_secs(),
        },
        "defaults": &PAGE_DEFAULTS,
        // The workbench's own limits and defaults, whatever this server allows.
        "engine_limits": LIMITS,
        "request_defaults": DEFAULTS,
        "presets": &queens_api::experiment::PRESETS,
    }))
}

/// The solver the catalogue picks for a position on boards up to `max_n`: one name for all of
/// them (the completion search up to 1024), or `null` where it would differ.
fn position_solver(max_n: u32) -> Value {
    let name = |n: u32| {
        queens_core::Problem::square(n)
            .and_then(|problem| problem.with_fixed(vec![queens_core::Square::new(0, 0)]))
            .map(|problem| queens_api::Catalogue::best_for(&problem).name())
            .ok()
    };
    match (name(1), name(max_n)) {
        (Some(small), Some(large)) if small == large => json!(small),
        _ => Value::Null,
    }
}

/// `GET /api/status`: the jobs running now.
pub async fn status(State(state): State<AppState>) -> Json<Value> {
    Json(json!({
        "jobs_running": state.jobs().running(),
        "connections": state.connections().open(),
        "max_connections": state.limits().connections,
    }))
}

#[cfg(test)]
mod tests {
    use super::FILES;

    #[test]
    fn every_module_in_static_js_is_served() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static/js");
        for entry in std::fs::read_dir(dir).expect("static/js exists") {
            let name = entry.expect("readable entry").file_name();
            let path = format!("/js/{}", name.to_string_lossy());
            assert!(
                FILES.iter().any(|(served, _, _)| *served == path),
                "{path} is not in FILES"
            );
        }
    }
}
