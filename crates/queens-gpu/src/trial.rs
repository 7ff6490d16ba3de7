//! Choosing, on the device at hand, how the kernel is built: where it keeps its stacks, and
//! whether its loop keeps the top frame in registers. Which placement is faster depends on the
//! device: workgroup memory is the closest, but a multiprocessor holds only as many workgroups
//! as its share of that memory has room for, where stacks in a storage buffer bound nothing and
//! are reached through the caches; and a loop that loads its next frame ahead pays eight
//! selects a step to take that load off the step's path. So a kernel built in several
//! placements runs a count's first dispatches in each by turns, once the dispatches have grown
//! to their target length, and keeps the one that claimed the most steps a second (the median of
//! each one's dispatches); one far slower leaves the turns after one. The records a dispatch
//! carries are the same whichever placement ran it, so the count goes on across the turns
//! unchanged.

use crate::stacks::Placement;

/// Once every placement has run a timed dispatch, one whose median the fastest's is this many
/// times leaves the turns: a GPU's dispatches of one kernel vary by a few percent.
const DECISIVE: f64 = 1.25;

/// A trial's result: the placement kept, and every placement timed with the median steps a
/// second its dispatches claimed, fastest first.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The placement kept.
    pub kept: Placement,
    /// The placements timed and their medians, fastest (the one kept) first.
    pub rates: Vec<(Placement, f64)>,
}

/// The turns of a count's first dispatches between a kernel's placements, and the one kept.
#[derive(Clone, Debug)]
pub struct Trial {
    /// Dispatches each placement runs before the fastest is kept: 0 keeps the first at once,
    /// `u32::MAX` never chooses (tests use it to take turns through a whole count).
    rounds: u32,
    /// The steps a second each placement's timed dispatches claimed.
    rates: Vec<Vec<f64>>,
    /// Steps an invocation for each placement's next dispatch, tuned on its own times.
    steps: Vec<u32>,
    /// The placements out of the trial: the driver could not build them.
    excluded: Vec<bool>,
    /// The placements out of the turns: timed, and past the decisive margin slower.
    beaten: Vec<bool>,
    /// Whether the dispatches have grown to their target length, so that timing them measures
    /// the loop rather than the launch.
    timing: bool,
    chosen: Option<usize>,
}

impl Trial {
    /// A trial among `placements` (at least one; the first runs until the turns begin), each
    /// timed over `rounds` dispatches, starting at `steps` an invocation.
    pub fn new(placements: usize, rounds: u32, steps: u32) -> Self {
        let placements = placements.max(1);
        Trial {
            rounds,
            rates: vec![Vec::new(); placements],
            steps: vec![steps; placements],
            excluded: vec![false; placements],
            beaten: vec![false; placements],
            timing: false,
            chosen: (placements == 1 || rounds == 0).then_some(0),
        }
    }

    /// The placements still in the turns.
    fn candidates(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.rates.len()).filter(|&at| !self.excluded[at] && !self.beaten[at])
    }

    /// The placements timed or to be: all but those the driver could not build.
    fn entrants(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.rates.len()).filter(|&at| !self.excluded[at])
    }

    /// The placement (its index) and steps an invocation for the next dispatch.
    pub fn next(&self) -> (usize, u32) {
        let placement = match self.chosen {
            Some(chosen) => chosen,
            None if !self.timing => 0,
            // The placement timed least so far: they take turns.
            None => self
                .candidates()
                .min_by_key(|&at| self.rates[at].len())
                .unwrap_or(0),
        };
        (placement, self.steps[placement])
    }

    /// Steps an invocation for `placement`'s next dispatch.
    pub fn steps(&self, placement: usize) -> u32 {
        self.steps[placement]
    }

    /// A dispatch of `placement` took `seconds` for `steps` claimed; `retuned` is its
    /// placement's steps an invocation for the next (the engine's tuning towards its target),
    /// and `full` whether it is long enough to time (at its target length, or of steps fixed
    /// by the caller).
    pub fn landed(&mut self, placement: usize, steps: u64, seconds: f64, retuned: u32, full: bool) {
        self.steps[placement] = retuned;
        if self.chosen.is_some() {
            return;
        }
        if !self.timing {
            if full {
                // Every placement starts its turns from the steps the first grew to.
                self.timing = true;
                self.steps.fill(retuned);
            }
            return;
        }
        if seconds > 0.0 && steps > 0 {
            self.rates[placement].push(steps as f64 / seconds);
        }
        self.choose();
    }

    /// Once every candidate has run a timed dispatch, takes out of the turns those the fastest
    /// is past the decisive margin of (where the losers cost most); keeps the fastest once one
    /// is left or each has run `rounds` timed dispatches.
    fn choose(&mut self) {
        let timed = |trial: &Self, least: usize| {
            trial.candidates().all(|at| trial.rates[at].len() >= least)
        };
        if !timed(self, 1) {
            return;
        }
        let medians = self.medians();
        let fastest = self
            .candidates()
            .map(|at| medians[at])
            .fold(0.0f64, f64::max);
        if self.rounds != u32::MAX {
            for (beaten, median) in self.beaten.iter_mut().zip(&medians) {
                *beaten |= fastest >= DECISIVE * median;
            }
        }
        if self.candidates().count() <= 1 || timed(self, self.rounds as usize) {
            let fastest = self
                .candidates()
                .max_by(|&a, &b| medians[a].total_cmp(&medians[b]));
            self.chosen = fastest.or(Some(0));
        }
    }

    /// The median steps a second each placement's timed dispatches claimed (0 for none).
    pub fn medians(&self) -> Vec<f64> {
        self.rates
            .iter()
            .map(|rates| {
                let mut sorted = rates.clone();
                sorted.sort_by(f64::total_cmp);
                match sorted.len() {
                    0 => 0.0,
                    len if len % 2 == 1 => sorted[len / 2],
                    len => f64::midpoint(sorted[len / 2 - 1], sorted[len / 2]),
                }
            })
            .collect()
    }

    /// Keeps `placement` without a trial: chosen for another kernel of the count.
    pub fn keep(&mut self, placement: usize) {
        if placement < self.rates.len() {
            self.chosen = Some(placement);
        }
    }

    /// Takes `placement` out of the trial (the driver could not build it); where one is left,
    /// it is kept. The first placement, built before the count, is never taken out.
    pub fn exclude(&mut self, placement: usize) {
        if placement == 0 || placement >= self.rates.len() {
            return;
        }
        self.excluded[placement] = true;
        if self.chosen == Some(placement) {
            self.chosen = Some(0);
        }
        if self.chosen.is_none() {
            if self.candidates().count() <= 1 {
                let left = self.candidates().next();
                self.chosen = left.or(Some(0));
            } else if self.timing {
                self.choose();
            }
        }
    }

    /// Whether the placements are taking turns: the dispatches have grown to their target
    /// length, and none is chosen yet.
    pub fn is_timing(&self) -> bool {
        self.timing && self.chosen.is_none()
    }

    /// The placement kept, once chosen.
    pub fn chosen(&self) -> Option<usize> {
        self.chosen
    }

    /// The trial's result among `placements` (the kernel's, in its order), once it has chosen
    /// among those it timed (not where a placement was kept without a trial).
    pub fn outcome(&self, placements: &[Placement]) -> Option<Outcome> {
        let kept = self.chosen?;
        if self.entrants().any(|at| self.rates[at].is_empty()) || self.entrants().count() < 2 {
            return None;
        }
        let medians = self.medians();
        let mut rates: Vec<(Placement, f64)> = self
            .entrants()
            .filter_map(|at| Some((*placements.get(at)?, medians[at])))
            .collect();
        rates.sort_by(|a, b| b.1.total_cmp(&a.1));
        Some(Outcome {
            kept: *placements.get(kept)?,
            rates,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stacks::TopFrame;

    /// Lands the next dispatch, `rate` steps in a second; returns its placement.
    fn land(trial: &mut Trial, rate: u64, full: bool) -> usize {
        let (placement, steps) = trial.next();
        trial.landed(placement, rate, 1.0, steps, full);
        placement
    }

    /// Lands, for each of `rounds`, a full dispatch of every placement in the order the trial
    /// names them, each at its rate in the round; returns that order.
    fn take_turns<const P: usize>(trial: &mut Trial, rounds: &[[u64; P]]) -> Vec<usize> {
        let mut order = Vec::new();
        for rates in rounds {
            for _ in 0..P {
                let (placement, steps) = trial.next();
                order.push(placement);
                trial.landed(placement, rates[placement], 1.0, steps, true);
            }
        }
        order
    }

    #[test]
    fn the_faster_placement_is_kept_after_turns_at_full_length() {
        let mut trial = Trial::new(2, 3, 64);
        // Short dispatches run on the first placement and are not timed.
        for _ in 0..4 {
            assert_eq!(land(&mut trial, 1, false), 0);
        }
        // The first full one starts the turns, untimed.
        assert_eq!(land(&mut trial, 1, true), 0);
        // Within the decisive margin: three turns each, the medians compared.
        let order = take_turns(&mut trial, &[[100, 110], [120, 105], [90, 109]]);
        assert_eq!(order, [0, 1, 0, 1, 0, 1]);
        assert_eq!(trial.chosen(), Some(1));
        assert_eq!(trial.medians(), [100.0, 109.0]);
        assert_eq!(trial.next().0, 1);
    }

    #[test]
    fn a_decisive_margin_chooses_after_one_turn_each() {
        let mut trial = Trial::new(2, 3, 64);
        land(&mut trial, 1, true);
        assert_eq!(land(&mut trial, 200, true), 0);
        assert_eq!(trial.chosen(), None, "one placement timed");
        assert_eq!(land(&mut trial, 100, true), 1);
        assert_eq!(trial.chosen(), Some(0), "twice as fast");
        // Within the margin, the turns go on.
        let mut close = Trial::new(2, 3, 64);
        land(&mut close, 1, true);
        land(&mut close, 200, true);
        land(&mut close, 170, true);
        assert_eq!(close.chosen(), None);
        assert_eq!(close.next().0, 0);
    }

    #[test]
    fn each_placement_keeps_its_own_steps_and_starts_from_the_first_ones() {
        let mut trial = Trial::new(2, 2, 64);
        trial.landed(0, 1000, 0.01, 256, false);
        assert_eq!(trial.next(), (0, 256));
        trial.landed(0, 1000, 0.05, 1024, true);
        assert_eq!(trial.next(), (0, 1024));
        trial.landed(0, 1000, 0.1, 1000, true);
        assert_eq!(trial.next(), (1, 1024));
        trial.landed(1, 1000, 0.2, 500, true);
        assert_eq!(trial.next(), (0, 1000));
    }

    /// Three placements to tell apart (the engine builds two; a trial takes any number).
    fn placements() -> [Placement; 3] {
        use crate::StackMemory;
        let placement = |memory, workgroup| Placement {
            memory,
            workgroup,
            top: TopFrame::Stack,
        };
        [
            placement(StackMemory::Workgroup, 224),
            placement(StackMemory::Storage, 256),
            placement(StackMemory::Workgroup, 128),
        ]
    }

    #[test]
    fn an_outcome_needs_every_placement_timed() {
        let placements = placements();
        let mut kept = Trial::new(2, 3, 64);
        kept.keep(1);
        assert_eq!(kept.next().0, 1);
        assert_eq!(kept.outcome(&placements[..2]), None);
        let mut timed = Trial::new(2, 1, 64);
        for rate in [1, 100, 120] {
            land(&mut timed, rate, true);
        }
        let outcome = timed.outcome(&placements[..2]).expect("chosen");
        assert_eq!(outcome.kept, placements[1]);
        assert_eq!(
            outcome.rates,
            [(placements[1], 120.0), (placements[0], 100.0)]
        );
    }

    #[test]
    fn three_placements_take_turns_and_the_fastest_is_kept() {
        let placements = placements();
        let mut trial = Trial::new(3, 2, 64);
        land(&mut trial, 1, true);
        let order = take_turns(&mut trial, &[[100, 95, 110], [104, 99, 112]]);
        assert_eq!(order, [0, 1, 2, 0, 1, 2]);
        assert_eq!(trial.chosen(), Some(2));
        let outcome = trial.outcome(&placements).expect("chosen");
        assert_eq!(outcome.kept, placements[2]);
        assert_eq!(
            outcome.rates.iter().map(|&(p, _)| p).collect::<Vec<_>>(),
            [placements[2], placements[0], placements[1]]
        );
    }

    #[test]
    fn placements_past_the_margin_leave_the_turns_and_the_others_go_on() {
        let mut trial = Trial::new(4, 3, 64);
        land(&mut trial, 1, true);
        let first: Vec<usize> = [100, 90, 50, 40]
            .into_iter()
            .map(|rate| land(&mut trial, rate, true))
            .collect();
        assert_eq!(first, [0, 1, 2, 3]);
        assert_eq!(trial.chosen(), None, "the two within the margin go on");
        let rest: Vec<usize> = [95, 99, 101, 98]
            .into_iter()
            .map(|rate| land(&mut trial, rate, true))
            .collect();
        assert_eq!(rest, [0, 1, 0, 1]);
        // Medians 100 and 98 (90, 98, 99): the first kept, every placement in the outcome.
        assert_eq!(trial.chosen(), Some(0));
        let placements = [
            placements()[0],
            placements()[1],
            placements()[2],
            placements()[2],
        ];
        let outcome = trial.outcome(&placements).expect("chosen");
        assert_eq!(outcome.rates.len(), 4);
        assert_eq!(outcome.rates[3], (placements[3], 40.0));
    }

    #[test]
    fn a_placement_that_does_not_build_leaves_the_trial() {
        let placements = placements();
        // Taken out before the turns: the other two take turns.
        let mut trial = Trial::new(3, 1, 64);
        trial.exclude(2);
        land(&mut trial, 1, true);
        assert_eq!(land(&mut trial, 100, true), 0);
        assert_eq!(land(&mut trial, 110, true), 1);
        assert_eq!(trial.chosen(), Some(1));
        let outcome = trial.outcome(&placements).expect("chosen");
        assert_eq!(outcome.rates.len(), 2);
        // Taken out midway, once the others are timed: the fastest of them is kept.
        let mut midway = Trial::new(3, 3, 64);
        land(&mut midway, 1, true);
        land(&mut midway, 100, true);
        land(&mut midway, 101, true);
        midway.exclude(2);
        assert_eq!(midway.chosen(), None, "within the margin, more turns");
        // Where one is left, it is kept; the first is never taken out.
        let mut alone = Trial::new(2, 3, 64);
        alone.exclude(1);
        assert_eq!(alone.chosen(), Some(0));
        let mut first = Trial::new(2, 3, 64);
        first.exclude(0);
        assert_eq!(first.chosen(), None);
    }

    #[test]
    fn one_placement_or_no_rounds_chooses_at_once_and_the_most_rounds_never() {
        assert_eq!(Trial::new(1, 3, 64).chosen(), Some(0));
        assert_eq!(Trial::new(2, 0, 64).chosen(), Some(0));
        let mut turns = Trial::new(2, u32::MAX, 64);
        // Taking turns through a whole count, whatever the margin.
        let placements: Vec<usize> = (1..10).map(|at| land(&mut turns, at * 100, true)).collect();
        assert_eq!(placements, [0, 0, 1, 0, 1, 0, 1, 0, 1]);
        assert_eq!(turns.chosen(), None);
    }

    #[test]
    fn medians_of_even_and_odd_counts() {
        let mut trial = Trial::new(2, 10, 64);
        land(&mut trial, 1, true);
        for rate in [80, 90, 100, 100, 120] {
            land(&mut trial, rate, true);
        }
        // Placement 0 took 80, 100 and 120, placement 1 took 90 and 100.
        assert_eq!(trial.medians(), [100.0, 95.0]);
    }
}
