//! What a watched run streams: every event while the run is short, then samples.
//!
//! A run may take far more steps than a page can replay (row brute force with a locked queen
//! examines 160,662 boards on 8×8, brute force hundreds of millions). The stream sends every
//! event until `full` of them have gone, then only one step in `every`, each preceded by a
//! `board` event with the whole board at that step (kept here from the events not sent), so
//! that the page shows true boards and exact counters all the way to the run's end. `every`
//! doubles each time a batch of samples has gone at the current rate, so a run of any length
//! streams a number of samples that grows with the logarithm of its steps. A genetic run's
//! population goes with the sample of its generation. A step that finds a solution is always
//! sent, so that a search asked for every solution is counted whole on the page.

use queens_core::{Event, Square, StepNote};
use serde_json::json;

/// Squares that one rate's samples may carry in all: boards of more queens get fewer samples at
/// each rate, so that a rate costs about the same bytes at every N.
const SQUARES_PER_RATE: usize = 16_000;

/// The most samples at one rate (small boards).
const MOST_SAMPLES_PER_RATE: u64 = 2_000;

/// The fewest samples at one rate (huge boards).
const FEWEST_SAMPLES_PER_RATE: u64 = 8;

/// Turns a run's events into the lines streamed for it.
pub(crate) struct Sampler {
    /// Events sent in full before sampling begins.
    full: u64,
    /// Lines produced so far (sampling begins at `full`).
    sent: u64,
    /// The board, kept from every event.
    board: Vec<Square>,
    /// When sampling: one step in `every` is sent.
    every: u64,
    /// Steps since the last sample.
    since: u64,
    /// Samples sent at the current rate.
    at_rate: u64,
    /// The iteration (or node) of the first step not sent in full, once sampling has begun.
    sampled_from: Option<u64>,
    /// The last step not sent, sent at the end so that the page ends on the run's last board
    /// and count: its iteration, score, square and note.
    unsent: Option<(u64, i64, Option<Square>, Option<StepNote>)>,
    /// While sampling, the last genetic population not sent: it goes with the next sample.
    unsent_population: Option<String>,
}

impl Sampler {
    /// A sampler that sends the first `full` events whole.
    pub(crate) fn new(full: u64) -> Self {
        Sampler {
            full,
            sent: 0,
            board: Vec::new(),
            every: 1,
            since: 0,
            at_rate: 0,
            sampled_from: None,
            unsent: None,
            unsent_population: None,
        }
    }

    /// Lines produced so far.
    #[cfg(test)]
    fn sent(&self) -> u64 {
        self.sent
    }

    /// The iteration or node where sampling began, if it did, and the rate it ended at.
    pub(crate) fn sampling(&self) -> Option<(u64, u64)> {
        self.sampled_from.map(|from| (from, self.every))
    }

    /// The lines to send for `event` (none, one, or a sample's board and step); the solver's
    /// own `finished` is left to the caller.
    pub(crate) fn lines(&mut self, event: &Event<'_>) -> Vec<String> {
        self.follow(event);
        if matches!(event, Event::Finished { .. }) {
            return self.last_sample();
        }
        let sampling = self.sent >= self.full;
        let &Event::Step {
            iteration,
            score,
            square,
            note,
        } = event
        else {
            return match event {
                Event::Population { .. } if sampling => {
                    self.unsent_population =
                        Some(serde_json::to_string(event).expect("events serialize"));
                    Vec::new()
                }
                Event::Started { .. } => self.send(event),
                _ if sampling => Vec::new(),
                _ => self.send(event),
            };
        };
        if !sampling {
            return self.send(event);
        }
        if self.sampled_from.is_none() {
            self.sampled_from = Some(iteration);
        }
        self.since += 1;
        // A solution found is sent whatever the rate: the page counts every one.
        if matches!(note, Some(StepNote::Found { .. })) {
            let since = std::mem::take(&mut self.since);
            self.unsent = None;
            return self.sample(since, event);
        }
        if self.since < self.every {
            self.unsent = Some((iteration, score, square, note));
            return Vec::new();
        }
        self.since = 0;
        self.unsent = None;
        let rate = self.every;
        self.at_rate += 1;
        let per_rate = u64::try_from(SQUARES_PER_RATE / self.board.len().max(1))
            .unwrap_or(u64::MAX)
            .clamp(FEWEST_SAMPLES_PER_RATE, MOST_SAMPLES_PER_RATE);
        if self.at_rate >= per_rate {
            self.at_rate = 0;
            self.every = self.every.saturating_mul(2);
        }
        self.sample(rate, event)
    }

    /// A sample: the board, then the step.
    fn sample(&mut self, every: u64, step: &Event<'_>) -> Vec<String> {
        let board = json!({
            "type": "board",
            "queens": self.board,
            "every": every,
        })
        .to_string();
        self.sent += 1;
        let mut lines = vec![board];
        if let Some(population) = self.unsent_population.take() {
            self.sent += 1;
            lines.push(population);
        }
        lines.extend(self.send(step));
        lines
    }

    /// At the end, the last step when sampling left it unsent.
    fn last_sample(&mut self) -> Vec<String> {
        let Some((iteration, score, square, note)) = self.unsent.take() else {
            return Vec::new();
        };
        let step = Event::Step {
            iteration,
            score,
            square,
            note,
        };
        self.sample(self.since, &step)
    }

    fn send(&mut self, event: &Event<'_>) -> Vec<String> {
        self.sent += 1;
        vec![serde_json::to_string(event).expect("events serialize")]
    }

    /// Keeps the board as the events change it.
    fn follow(&mut self, event: &Event<'_>) {
        match *event {
            Event::Started { board, .. } => self.board = board.to_vec(),
            Event::Place { square } => self.board.push(square),
            Event::Remove { square } => self.take(square),
            Event::Move { from, to } => {
                self.take(from);
                self.board.push(to);
            }
            _ => {}
        }
    }

    fn take(&mut self, square: Square) {
        if let Some(at) = self.board.iter().position(|&q| q == square) {
            self.board.swap_remove(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(iteration: u64) -> Event<'static> {
        Event::Step {
            iteration,
            score: 0,
            square: None,
            note: None,
        }
    }

    /// Replays lines as the page does: `board` replaces the board, moves change it; each step's
    /// board is handed to `check`.
    struct Replay {
        board: Vec<Square>,
        steps: Vec<u64>,
    }

    impl Replay {
        fn apply(&mut self, line: &str, check: impl Fn(u64, &[Square])) {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            let squares = |v: &serde_json::Value| -> Vec<Square> {
                serde_json::from_value(v.clone()).unwrap()
            };
            match value["type"].as_str().unwrap() {
                "started" => self.board = squares(&value["board"]),
                "board" => self.board = squares(&value["queens"]),
                "place" => self
                    .board
                    .push(serde_json::from_value(value["square"].clone()).unwrap()),
                "remove" => {
                    let square: Square = serde_json::from_value(value["square"].clone()).unwrap();
                    self.board.retain(|&q| q != square);
                }
                "move" => {
                    let from: Square = serde_json::from_value(value["from"].clone()).unwrap();
                    self.board.retain(|&q| q != from);
                    self.board
                        .push(serde_json::from_value(value["to"].clone()).unwrap());
                }
                "step" => {
                    let iteration = value["iteration"].as_u64().unwrap();
                    self.board.sort_unstable();
                    check(iteration, &self.board);
                    self.steps.push(iteration);
                }
                other => panic!("unexpected line {other}"),
            }
        }
    }

    #[test]
    fn a_long_run_is_sent_whole_then_sampled_with_true_boards() {
        let start = [Square::new(0, 0), Square::new(1, 1)];
        let mut sampler = Sampler::new(100);
        let mut replay = Replay {
            board: Vec::new(),
            steps: Vec::new(),
        };
        let mut lines = 0;
        let mut feed = |sampler: &mut Sampler, event: &Event<'_>, truth: &[Square]| {
            for line in sampler.lines(event) {
                lines += 1;
                replay.apply(&line, |i, board| {
                    let mut expected = truth.to_vec();
                    expected.sort_unstable();
                    assert_eq!(board, expected, "the board streamed at step {i}");
                });
            }
        };
        let mut truth = start.to_vec();
        let started = Event::Started {
            solver: "test",
            rows: 8,
            cols: 8,
            queens: 2,
            fixed: &[],
            board: &start,
        };
        feed(&mut sampler, &started, &truth);
        for i in 1..=1_000_000_u64 {
            // The queen of column 1 walks its column, one row a step.
            let from = Square::new((i % 8) as u32, 1);
            let to = Square::new(((i + 1) % 8) as u32, 1);
            truth.retain(|&q| q != from);
            truth.push(to);
            feed(&mut sampler, &Event::Move { from, to }, &truth);
            feed(&mut sampler, &step(i), &truth);
        }
        let finished = Event::Finished {
            status: "solved",
            nodes: None,
            iterations: Some(1_000_000),
            solutions: None,
            elapsed_ms: 1.0,
        };
        feed(&mut sampler, &finished, &truth);
        let steps = replay.steps;
        assert_eq!(
            steps.last(),
            Some(&1_000_000),
            "the last step is always sent"
        );
        // The started event, then 50 moves and 49 steps whole; samples after.
        assert_eq!(&steps[..49], &(1..=49).collect::<Vec<_>>()[..]);
        let (from, every) = sampler.sampling().unwrap();
        assert_eq!(from, 50);
        assert!(steps.windows(2).all(|w| w[0] < w[1]), "steps in order");
        assert!(steps.len() < 49 + 2_000 * 10, "{} steps sent", steps.len());
        assert!(
            every >= 128,
            "the rate halved as the run went on: one in {every}"
        );
        assert_eq!(sampler.sent(), lines);
    }

    #[test]
    fn a_sampled_generation_carries_its_own_population() {
        let mut sampler = Sampler::new(50);
        let mut last_population = None;
        let mut sampled_with_population = 0;
        for generation in 1..=10_000_u64 {
            let population = Event::Population {
                generation,
                size: 1,
                best: &[],
                spread: &[],
                crossover: None,
                mutation: None,
            };
            for line in sampler
                .lines(&population)
                .into_iter()
                .chain(sampler.lines(&step(generation)))
            {
                let value: serde_json::Value = serde_json::from_str(&line).unwrap();
                match value["type"].as_str().unwrap() {
                    "population" => last_population = value["generation"].as_u64(),
                    "step" => {
                        assert_eq!(
                            last_population,
                            value["iteration"].as_u64(),
                            "a step comes after its own generation's population"
                        );
                        sampled_with_population += 1;
                    }
                    _ => {}
                }
            }
        }
        let finished = Event::Finished {
            status: "stopped",
            nodes: None,
            iterations: Some(10_000),
            solutions: None,
            elapsed_ms: 1.0,
        };
        for line in sampler.lines(&finished) {
            let value: serde_json::Value = serde_json::from_str(&line).unwrap();
            if value["type"] == "step" {
                assert_eq!(value["iteration"], 10_000);
                assert_eq!(last_population, Some(10_000));
            } else if value["type"] == "population" {
                last_population = value["generation"].as_u64();
            }
        }
        assert!(sampler.sampling().is_some(), "the run was sampled");
        assert!(sampled_with_population > 25);
        assert_eq!(
            last_population,
            Some(10_000),
            "the last generation was sent"
        );
    }

    #[test]
    fn a_short_run_is_sent_whole() {
        let mut sampler = Sampler::new(1_000);
        let mut lines = Vec::new();
        for i in 1..=300 {
            lines.extend(sampler.lines(&Event::Place {
                square: Square::new(0, 0),
            }));
            lines.extend(sampler.lines(&step(i)));
        }
        assert_eq!(lines.len(), 600);
        assert!(sampler.sampling().is_none());
    }

    #[test]
    fn every_solution_found_is_sent_whatever_the_rate() {
        let spec = queens_api::SolveSpec {
            solver: Some("backtracking".to_owned()),
            params: vec![("solutions".to_owned(), 0.0.into())],
            ..queens_api::SolveSpec::square(9)
        };
        let request =
            queens_api::SolveRequest::new(queens_api::Catalogue::standard(), spec).unwrap();
        let mut sampler = Sampler::new(500);
        let mut replay = Replay {
            board: Vec::new(),
            steps: Vec::new(),
        };
        let mut found = Vec::new();
        let mut observe = |event: &Event<'_>| {
            for line in sampler.lines(event) {
                let value: serde_json::Value = serde_json::from_str(&line).unwrap();
                if value["type"] == "finished" {
                    continue;
                }
                replay.apply(&line, |_, _| {});
                if value["note"]["kind"] == "found" {
                    let mut board = replay.board.clone();
                    board.sort_unstable();
                    found.push((value["note"]["solutions"].as_u64().unwrap(), board));
                }
            }
            std::ops::ControlFlow::Continue(())
        };
        let outcome = request
            .run(&mut queens_core::Budget::unlimited(), &mut observe)
            .unwrap();
        assert!(sampler.sampling().is_some(), "the run was sampled");
        assert_eq!(outcome.stats.solutions, Some(352), "OEIS A000170 at N = 9");
        let counts: Vec<u64> = found.iter().map(|(count, _)| *count).collect();
        assert_eq!(counts, (1..=352).collect::<Vec<_>>());
        let problem = queens_core::Problem::square(9).unwrap();
        let mut distinct = std::collections::BTreeSet::new();
        for (count, board) in found {
            let board = problem.board(board).unwrap();
            assert_eq!(
                queens_core::verify::check_solution(&problem, &board),
                Ok(()),
                "{count}"
            );
            assert!(
                distinct.insert(board.queens().collect::<Vec<_>>()),
                "{count} twice"
            );
        }
    }
}
