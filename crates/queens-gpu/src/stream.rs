//! The parts of one count on the device, as they go through it: each part cut into items as
//! the device's queue needs them, the items queued, and their tallies summed back into their
//! part, which is reported once all its items are in. An item's id is its sequence number's low
//! word, and items in flight never span more than [`SEQUENCE_WINDOW`] numbers, so an id names
//! one item.

use std::collections::VecDeque;

use queens_exact::count::{CountPlan, CounterError, Tally};

use crate::items::{Cut, Item, Refined, extension_tally, refine};
use crate::kernel::Kernel;

/// A part whose items are on their way.
struct Pending {
    id: usize,
    /// The sequence number of its first item.
    first: u64,
    /// Items not yet finished.
    left: u64,
    tally: Tally,
}

/// The parts of one call to [`GpuCounter::count_parts`](crate::GpuCounter), as they go through
/// the device.
pub(crate) struct Stream<'a> {
    plan: &'a CountPlan,
    cut: Cut,
    parts: &'a [usize],
    /// The position in `parts` of the next part to cut.
    next_part: usize,
    /// Items cut but not yet sent (an item's id is its sequence number's low word).
    backlog: VecDeque<Item>,
    pending: VecDeque<Pending>,
    pub(crate) next_seq: u64,
}

/// Items in flight never span more sequence numbers than this, so that an id (the sequence
/// number's low 32 bits) names one item.
const SEQUENCE_WINDOW: u64 = 1 << 31;

impl<'a> Stream<'a> {
    pub(crate) fn new(plan: &'a CountPlan, cut: Cut, parts: &'a [usize]) -> Self {
        Stream {
            plan,
            cut,
            parts,
            next_part: 0,
            backlog: VecDeque::new(),
            pending: VecDeque::new(),
            next_seq: 0,
        }
    }

    /// Cuts parts (none of them [`on_cpu`](crate::items::on_cpu)) into the backlog until it
    /// holds `wanted` items or the parts run out.
    fn refill(&mut self, wanted: usize, done: &(dyn Fn(usize, Tally) + Sync)) {
        while self.backlog.len() < wanted {
            let oldest = self
                .pending
                .front()
                .map_or(self.next_seq, |part| part.first);
            if self.next_seq - oldest >= SEQUENCE_WINDOW {
                break;
            }
            let Some(&id) = self.parts.get(self.next_part) else {
                break;
            };
            let depth = self.cut.depth_at(self.next_part);
            self.next_part += 1;
            let sub = &self.plan.subproblems()[id];
            match refine(self.plan.n(), sub, depth) {
                Refined::OnCpu => unreachable!("the parts not for the kernel are counted apart"),
                Refined::Items { items, nodes } if items.is_empty() => {
                    done(id, extension_tally(nodes));
                }
                Refined::Items { items, nodes } => {
                    let first = self.next_seq;
                    self.pending.push_back(Pending {
                        id,
                        first,
                        left: items.len() as u64,
                        tally: extension_tally(nodes),
                    });
                    for mut item in items {
                        item[3] = self.next_seq as u32;
                        self.backlog.push_back(item);
                        self.next_seq += 1;
                    }
                }
            }
        }
    }

    /// Adds a finished item's tally to its part, reporting the part when it is whole.
    fn finish(&mut self, id: u32, tally: Tally, done: &(dyn Fn(usize, Tally) + Sync)) -> bool {
        let Some(oldest) = self.pending.front().map(|part| part.first) else {
            return false;
        };
        let seq = oldest + u64::from(id.wrapping_sub(oldest as u32));
        let index = self.pending.partition_point(|part| part.first <= seq);
        let Some(part) = index.checked_sub(1).and_then(|i| self.pending.get_mut(i)) else {
            return false;
        };
        if part.left == 0 {
            return false;
        }
        part.tally.total += tally.total;
        part.tally.fixed += tally.fixed;
        part.tally.nodes += tally.nodes;
        part.left -= 1;
        if part.left == 0 {
            done(part.id, part.tally);
        }
        while self.pending.front().is_some_and(|part| part.left == 0) {
            self.pending.pop_front();
        }
        true
    }

    /// Queues items on the device until it holds `wanted` fresh ones, as far as the parts
    /// and the ring allow.
    pub(crate) fn fill(
        &mut self,
        kernel: &mut Kernel,
        wanted: usize,
        done: &(dyn Fn(usize, Tally) + Sync),
    ) {
        let missing = wanted.saturating_sub(kernel.queued() as usize);
        if missing == 0 {
            return;
        }
        self.refill(missing, done);
        let ready = missing.min(self.backlog.len());
        let sent = kernel.append(&self.backlog.make_contiguous()[..ready]);
        self.backlog.drain(..sent);
    }

    /// Sums the tallies of the dispatch last landed into their parts.
    pub(crate) fn collect(
        &mut self,
        kernel: &mut Kernel,
        done: &(dyn Fn(usize, Tally) + Sync),
    ) -> Result<(), CounterError> {
        for (id, tally) in kernel.tallies().map_err(CounterError)? {
            if !self.finish(id, tally, done) {
                return Err(CounterError(format!(
                    "the device returned an item ({id}) that was not sent"
                )));
            }
        }
        Ok(())
    }

    pub(crate) fn is_done(&self) -> bool {
        self.backlog.is_empty() && self.pending.is_empty() && self.next_part == self.parts.len()
    }
}
