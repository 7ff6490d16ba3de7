//! The original study's experiments, exactly, as presets: each is one or more experiments
//! (parts) run one after another, their rows in one table, with what the original reported
//! beside ours and, for the question it left open, our answer. The page's Lab offers them as
//! one-click buttons (served in `/api/solvers`), and a browser test checks each against
//! `queens experiment` with the same settings.

use queens_solvers::Catalogue;
use queens_solvers::UnknownSolver;
use serde::Serialize;

use crate::experiment::Experiment;

/// One of the original's experiments.
#[derive(Debug, Serialize)]
pub struct Preset {
    /// Its name in a link (`#lab?preset=comparison`).
    pub id: &'static str,
    /// Its button's label.
    pub name: &'static str,
    /// What it runs, as a title over its table.
    pub title: &'static str,
    /// What the original did and found.
    pub original: &'static str,
    /// Our answer, where the original left a question open.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<&'static str>,
    /// The experiments it runs, in order.
    pub parts: &'static [PresetPart],
}

/// One experiment of a preset.
#[derive(Debug, Serialize)]
pub struct PresetPart {
    /// The solvers compared, by name.
    pub solvers: &'static [&'static str],
    /// Board sides.
    pub sizes: &'static [u32],
    /// Runs a cell.
    pub runs: u64,
    /// The master seed.
    pub seed: u64,
    /// The iteration cap of each run, if not each solver's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_iters: Option<u64>,
    /// Swept parameters, each with its values (`max_iters` sweeps the cap).
    pub sweep: &'static [Sweep],
}

/// A parameter swept over values.
#[derive(Debug, Serialize)]
pub struct Sweep {
    /// The parameter's name.
    pub name: &'static str,
    /// Its values.
    pub values: &'static [f64],
}

impl PresetPart {
    /// The experiment it describes, its solvers looked up in `catalogue`.
    pub fn experiment(&self, catalogue: &Catalogue) -> Result<Experiment, UnknownSolver> {
        let solvers = catalogue.get_all(self.solvers)?;
        let mut experiment = Experiment::new(solvers, self.sizes.to_vec(), self.runs, self.seed);
        experiment.max_iterations = self.max_iters;
        experiment.sweep = self
            .sweep
            .iter()
            .map(|sweep| (sweep.name.to_owned(), sweep.values.to_vec()))
            .collect();
        Ok(experiment)
    }
}

/// The seven members of the original's local-search family.
const SEVEN: &[&str] = &[
    "random-search",
    "optimized-random-search",
    "simulated-annealing",
    "hill-climbing",
    "hill-climbing-constant-shake",
    "hill-climbing-decaying-shake",
    "optimized-hill-climbing",
];

/// The Q study's shaken-queen counts from 1 to 8.
const ONE_TO_EIGHT: &[f64] = &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];

/// One part of the Q study: optimized hill climbing on one size, its `MaxIterations` and q
/// swept.
macro_rules! q_study_part {
    ($size:literal, $runs:literal, [$($max_iters:literal),+], $q:expr) => {
        PresetPart {
            solvers: &["optimized-hill-climbing"],
            sizes: &[$size],
            runs: $runs,
            seed: 1,
            max_iters: None,
            sweep: &[
                Sweep {
                    name: "max_iters",
                    values: &[$($max_iters),+],
                },
                Sweep {
                    name: "q",
                    values: $q,
                },
            ],
        }
    };
}

/// The original's experiments, in the Lab's order.
pub static PRESETS: [Preset; 4] = [
    Preset {
        id: "comparison",
        name: "The original comparison",
        title: "The seven algorithms of the original at N = 4 to 32, 1,000 runs a cell, 1,000 \
                iterations a run",
        original: "The original's comparison: 1,000 runs a cell, 1,000 iterations a run; it \
                   reports optimized hill climbing above 97 % at N = 32 and constant shakes \
                   (p = 0.23, q = 2) unfinished at N = 32.",
        answer: None,
        parts: &[PresetPart {
            solvers: SEVEN,
            sizes: &[4, 8, 16, 24, 32],
            runs: 1000,
            seed: 1,
            max_iters: None,
            sweep: &[],
        }],
    },
    Preset {
        id: "p-q",
        name: "p × q study",
        title: "Hill climbing with constant shakes at N = 16: shake probability p against \
                queens shaken q",
        original: "The original's last grid: N = 16, p from 0.06 to 0.28, q from 16 × 0.125 = 2 \
                   to 16 × 0.45 = 7, at most 700 iterations (its cells were 20 runs each; here \
                   1,000); it found q = 2 best and chose p = 0.23.",
        answer: None,
        parts: &[PresetPart {
            solvers: &["hill-climbing-constant-shake"],
            sizes: &[16],
            runs: 1000,
            seed: 1,
            max_iters: Some(700),
            sweep: &[
                Sweep {
                    name: "p",
                    values: &[0.06, 0.1, 0.14, 0.18, 0.23, 0.28],
                },
                Sweep {
                    name: "q",
                    values: &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
                },
            ],
        }],
    },
    Preset {
        id: "q-study",
        name: "Q study",
        title: "Optimized hill climbing: queens moved when stuck (q) at each N, with the \
                original's MaxIterations per N",
        original: "The original's runs: N = 4, 1,000 runs, MaxIterations 15, 18, 20; N = 8, 500 \
                   runs, 65, 70, 75; N = 16, 500 runs, 250 to 400; N = 24, 50 runs, 300 to \
                   500. It found Q = 4 ahead of Q = 3 each time, the gap narrowing as N grew.",
        answer: None,
        parts: &[
            q_study_part!(4, 1000, [15.0, 18.0, 20.0], &[1.0, 2.0, 3.0, 4.0]),
            q_study_part!(8, 500, [65.0, 70.0, 75.0], ONE_TO_EIGHT),
            q_study_part!(16, 500, [250.0, 300.0, 350.0, 400.0], ONE_TO_EIGHT),
            q_study_part!(24, 50, [300.0, 400.0, 450.0, 500.0], ONE_TO_EIGHT),
        ],
    },
    Preset {
        id: "open-question",
        name: "The open question: Q = 3 or Q = 4 at large N?",
        title: "Optimized hill climbing with q = 3 against q = 4 at N = 32 to 256, 500 runs a \
                cell",
        original: "The original left it open: Q = 4 won at every N it tried (up to 24), by less \
                   as N grew, 'pointing towards a possible hypothesis that Q = 3 might become \
                   the better option in huge N'.",
        answer: Some(
            "Our answer, from 4,000 runs a cell (queens experiment 32,64,128,256 --solver \
             optimized-hill-climbing --set q=3,4 --runs 4000): neither wins. q = 3 against q = 4 \
             solved 98.2 % and 98.1 % at N = 32, 91.2 % and 91.4 % at 64, 79.5 % and 77.6 % at \
             128, 64.5 % and 63.8 % at 256, every pair within the other's 95 % interval but at \
             N = 128 (p = 0.047, one test of four). The cap of 1,000 iterations, not Q, decides \
             success at large N.",
        ),
        parts: &[PresetPart {
            solvers: &["optimized-hill-climbing"],
            sizes: &[32, 64, 128, 256],
            runs: 500,
            seed: 1,
            max_iters: None,
            sweep: &[Sweep {
                name: "q",
                values: &[3.0, 4.0],
            }],
        }],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every part is an experiment the workbench runs: known solvers, parameters they take,
    /// sizes they solve, within the limits; and the ids are distinct.
    #[test]
    fn every_preset_is_a_valid_experiment() {
        let catalogue = Catalogue::standard();
        for (i, preset) in PRESETS.iter().enumerate() {
            assert!(PRESETS[..i].iter().all(|other| other.id != preset.id));
            for part in preset.parts {
                let experiment = part.experiment(catalogue).unwrap();
                experiment.check().unwrap();
                experiment.estimated_cpu_seconds().unwrap();
            }
        }
        let mut unknown = PresetPart {
            solvers: &["hill-climbers"],
            sizes: &[8],
            runs: 1,
            seed: 1,
            max_iters: None,
            sweep: &[],
        };
        assert!(unknown.experiment(catalogue).is_err());
        unknown.solvers = &["hill-climbing"];
        unknown.sweep = &[Sweep {
            name: "no-such-parameter",
            values: &[1.0],
        }];
        assert!(
            unknown
                .experiment(catalogue)
                .unwrap()
                .estimated_cpu_seconds()
                .is_err()
        );
    }
}
