//! A solver registered in one place reaches every list: the command-line help, the web API's
//! `/api/solvers` and the experiment harness.

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use queens_api::experiment::{Experiment, run};
use queens_api::{Catalogue, SolverKind};
use queens_core::{
    Budget, Context, Outcome, ParamValues, Parameters, Problem, SolveError, Solver,
    SolverDescriptor,
};
use queens_web::{AppState, ServeLimits, app};
use tower::ServiceExt;

use crate::help::command;

queens_core::parameters! {
    /// The newcomer's one parameter.
    struct NewcomerParams {
        /// how keen it is
        zeal: f64 = 0.5, 0.0..=1.0;
    }
}

/// Minton's min-conflicts, as the standard catalogue registers it.
static MINTON: &SolverDescriptor = queens_api::catalogue::STANDARD[7];

/// A solver that exists only here: Minton's min-conflicts under another name, with a
/// parameter of its own.
struct Newcomer {
    search: Box<dyn Solver + Send>,
    params: NewcomerParams,
}

impl Solver for Newcomer {
    queens_core::declared!(NEWCOMER, params);

    fn solve(&mut self, problem: &Problem, context: Context<'_>) -> Result<Outcome, SolveError> {
        self.search.solve(problem, context)
    }
}

static NEWCOMER: SolverDescriptor = SolverDescriptor {
    name: "newcomer",
    summary: "a solver registered in one place",
    explanation: "It shows that a descriptor and one registration are all a solver needs \
        to appear in the help, the web API and experiments, `zeal` = {zeal} or not.",
    parameters: NewcomerParams::LIST,
    build: |seed, values| {
        Box::new(Newcomer {
            search: (MINTON.build)(seed, &ParamValues::defaults(MINTON.parameters)),
            params: NewcomerParams::from_values(values),
        })
    },
    // The rest is Minton's, whose search it runs.
    ..*MINTON
};

#[test]
fn the_newcomer_runs_minton() {
    assert_eq!(MINTON.name, "min-conflicts-minton");
}

fn long_help(catalogue: &Catalogue, subcommand: &str) -> String {
    let mut command = command(catalogue);
    command.build();
    command
        .find_subcommand_mut(subcommand)
        .expect("a subcommand")
        .render_long_help()
        .to_string()
}

#[test]
fn a_registered_solver_appears_in_help_web_and_experiments() {
    let catalogue = Catalogue::standard().with(&NEWCOMER);

    for subcommand in ["solve", "experiment"] {
        let help = long_help(&catalogue, subcommand);
        assert!(help.contains("newcomer"), "{help}");
        assert!(
            help.contains("--set zeal=0.5 ([0, 1]): how keen it is"),
            "{help}"
        );
        assert!(!long_help(Catalogue::standard(), subcommand).contains("newcomer"));
    }

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let body = runtime.block_on(async {
        let state = AppState::with_catalogue(ServeLimits::default(), catalogue.clone());
        let request = Request::get("/api/solvers")
            .header("host", "localhost")
            .body(Body::empty())
            .unwrap();
        let response = app(state).oneshot(request).await.unwrap();
        response.into_body().collect().await.unwrap().to_bytes()
    });
    let solvers: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let newcomer = solvers["solvers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "newcomer")
        .expect("listed by the API");
    assert_eq!(newcomer["parameters"][0]["name"], "zeal");
    assert_eq!(newcomer["parameters"][0]["max"], 1.0);

    let solver: SolverKind = catalogue.get("newcomer").unwrap();
    let mut experiment = Experiment::new(vec![solver], vec![8], 10, 1);
    experiment.sweep = vec![("zeal".into(), vec![0.2, 0.4])];
    let report = run(&experiment, &Budget::unlimited(), |_| {}).unwrap();
    assert_eq!(report.rows.len(), 2);
    assert!(
        report
            .rows
            .iter()
            .all(|row| row.solver == "newcomer" && row.runs == 10)
    );
}

#[test]
fn every_standard_solver_and_parameter_is_in_the_help() {
    let solve = long_help(Catalogue::standard(), "solve");
    for solver in Catalogue::standard().solvers() {
        assert!(solve.contains(solver.name), "{}", solver.name);
        for parameter in solver.parameters {
            let entry = format!("--set {}={}", parameter.name, parameter.default);
            assert!(solve.contains(&entry), "{entry}");
        }
    }
}
