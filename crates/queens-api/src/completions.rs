//! The completions of a position as one request: the queens placed and the squares blocked on
//! an N×N board, counted by the completion search or, to cross-check it, row by row. Checked
//! once, with the same sentences for the command line (`queens count --fix/--block/--instance`)
//! and Python (`count(n, fix=…, blocked=…)`), and answered with one document.

use std::time::{Duration, Instant};

use queens_core::side::SideLimit;
use queens_core::{Budget, Problem, Square};
use queens_exact::completion::CompletionCount;
pub use queens_exact::completion::Method;
use queens_exact::count::Engine;

use crate::bounds::{Bounds, CheckedBounds};
use crate::count::EngineChoice;
use crate::document::CompletionCountDocument;
use crate::error::RequestError;
use crate::setting::Setting;

/// What a count of completions asks for, before it is checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompletionsSpec {
    /// Board side.
    pub n: u32,
    /// The queens placed.
    pub fixed: Vec<Square>,
    /// Squares no queen may take.
    pub blocked: Vec<Square>,
    /// `auto` (the completion search) or `backtracking` (row by row); the whole-board engines
    /// are refused.
    pub engine: EngineChoice,
    /// The time limit and the worker threads (default: one per core); no node cap.
    pub bounds: Bounds,
}

/// A count of completions, checked.
#[derive(Clone, Debug)]
pub struct CompletionsRequest {
    problem: Problem,
    method: Method,
    bounds: CheckedBounds,
    threads: usize,
}

impl CompletionsRequest {
    /// Checks `spec`: the engine, the board's size for it, the threads and the position.
    pub fn new(spec: CompletionsSpec) -> Result<Self, RequestError> {
        let method = method(spec.engine)?;
        let sides = sides(method);
        if spec.n > sides.most() {
            return Err(RequestError::Unsupported(sides.refusal(&spec.n)));
        }
        let bounds = spec
            .bounds
            .check()?
            .without(Setting::MaxNodes, "for solves and analyses, not counts")?;
        let problem = Problem::square(spec.n)?
            .with_blocked(spec.blocked)?
            .with_fixed(spec.fixed)?;
        Ok(CompletionsRequest {
            problem,
            method,
            threads: bounds.threads_or_cores(),
            bounds,
        })
    }

    /// The position.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// How it is counted.
    pub fn method(&self) -> Method {
        self.method
    }

    /// The worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The count's bounds, to make its budget ([`CheckedBounds::budget`]).
    pub fn bounds(&self) -> &CheckedBounds {
        &self.bounds
    }

    /// Counts the completions, calling `progress(finished, parts)` as parts finish; a stopped
    /// budget stops the count, which keeps what its finished parts hold.
    pub fn run(
        &self,
        budget: &Budget,
        progress: impl Fn(usize, usize) + Sync,
    ) -> CompletionsAnswer {
        let started = Instant::now();
        let count = queens_exact::completion::count(
            &self.problem,
            self.method,
            budget,
            self.threads(),
            progress,
        )
        .expect("the request checked the board's shape and size");
        CompletionsAnswer {
            count,
            elapsed: started.elapsed(),
        }
    }
}

/// How completions are counted by `engine`: `auto` by the completion search, `backtracking`
/// row by row; a whole-board engine is refused.
pub fn method(engine: EngineChoice) -> Result<Method, RequestError> {
    match engine {
        EngineChoice::Auto => Ok(Method::Search),
        EngineChoice::Named(Engine::Backtracking) => Ok(Method::RowByRow),
        EngineChoice::Named(other) => Err(RequestError::Unsupported(format!(
            "the {other} engine counts whole boards; the completions of a position are \
             counted by the completion search (auto, the default) or row by row \
             (backtracking)"
        ))),
    }
}

/// The sides whose completions `method` counts, and its refusal of a larger one.
pub fn sides(method: Method) -> SideLimit {
    fn refusal(how: &str, most: u32, got: &dyn std::fmt::Display) -> String {
        format!("completions are counted {how} on boards up to {most}×{most}, got N = {got}")
    }
    match method {
        Method::Search => SideLimit::new(method.max_n(), |most, got| {
            refusal("by the completion search", most, got)
        }),
        Method::RowByRow => {
            SideLimit::new(method.max_n(), |most, got| refusal("row by row", most, got))
        }
    }
}

/// What a count of completions found, complete or stopped.
#[derive(Clone, Debug)]
pub struct CompletionsAnswer {
    /// The count: every completion, or a lower bound when it was stopped.
    pub count: CompletionCount,
    /// Its wall time.
    pub elapsed: Duration,
}

impl CompletionsAnswer {
    /// The document of this answer to `request`, as `queens count --json` prints it and
    /// Python's `to_dict()` gives it.
    pub fn document<'a>(&self, request: &'a CompletionsRequest) -> CompletionCountDocument<'a> {
        CompletionCountDocument::new(
            &request.problem,
            &self.count,
            request.method.name(),
            request.threads(),
            self.elapsed,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(n: u32, fixed: &[(u32, u32)]) -> CompletionsSpec {
        CompletionsSpec {
            n,
            fixed: fixed
                .iter()
                .map(|&(row, col)| Square::new(row, col))
                .collect(),
            bounds: Bounds::default().with_threads(1),
            ..CompletionsSpec::default()
        }
    }

    #[test]
    fn both_methods_count_a_position_alike() {
        // d1 on 8×8 is in 18 of the 92 solutions.
        for engine in [
            EngineChoice::Auto,
            EngineChoice::Named(Engine::Backtracking),
        ] {
            let request = CompletionsRequest::new(CompletionsSpec {
                engine,
                ..spec(8, &[(0, 3)])
            })
            .unwrap();
            let answer = request.run(&Budget::unlimited(), |_, _| {});
            assert_eq!(answer.count.counted.completions, 18, "{engine:?}");
            let document = serde_json::to_value(answer.document(&request)).unwrap();
            assert_eq!(document["completions"], 18);
            assert_eq!(document["complete"], true);
        }
    }

    #[test]
    fn what_does_not_count_completions_is_refused_in_words() {
        for (request, says) in [
            (
                CompletionsSpec {
                    engine: EngineChoice::Named(Engine::Join),
                    ..spec(8, &[])
                },
                "the join engine counts whole boards",
            ),
            (
                CompletionsSpec {
                    engine: EngineChoice::Named(Engine::Gpu),
                    ..spec(8, &[])
                },
                "the gpu engine counts whole boards",
            ),
            (
                CompletionsSpec {
                    bounds: Bounds::default().with_threads(0),
                    ..spec(8, &[])
                },
                "threads must be at least 1",
            ),
            (
                CompletionsSpec {
                    bounds: Bounds::default().with_threads(queens_exact::count::MAX_THREADS + 1),
                    ..spec(8, &[])
                },
                "at most 1024, got 1025",
            ),
            (
                spec(queens_exact::completion::MAX_N + 1, &[]),
                "by the completion search on boards up to 1024×1024",
            ),
            (
                CompletionsSpec {
                    engine: EngineChoice::Named(Engine::Backtracking),
                    ..spec(Method::RowByRow.max_n() + 1, &[])
                },
                "row by row on boards up to",
            ),
            (spec(8, &[(0, 0), (1, 1)]), "attack"),
            (spec(8, &[(9, 0)]), "off"),
        ] {
            let error = CompletionsRequest::new(request).unwrap_err().to_string();
            assert!(error.contains(says), "{error}");
        }
    }
}
