//! Backtracking's parts cut into the GPU's items: each part (a case and its first rows) is
//! extended on the host by a few more rows, so that a count has millions of small searches for
//! the GPU's many invocations rather than thousands of large ones.
//!
//! The extension keeps to the case's allowed columns and its side columns' deadline, exactly
//! as the CPU kernel's search would, and counts the queens it places as that search counts
//! them, so that a part's items add up to the part's own [`Tally`].

use queens_exact::count::plan::{
    Case, Subproblem, allowed_columns, restrict_to_deadline, sides_deadline,
};
use queens_exact::count::{CountPlan, Tally};

/// The most rows an item fixes: its columns are packed five bits a row into two words.
pub const MAX_ITEM_ROWS: usize = 12;

/// One item as the kernel reads it: meta (first free row, case kind and parameter), the
/// columns of its fixed rows (two words, five bits a row, six rows a word), and its id.
pub type Item = [u32; 4];

/// The rows an N×N count's items fix by default: about half the board, from 2 to 6, and at
/// most N − 2 (an item leaves at least its last two rows to the kernel). Six was measured best
/// on an H200 for N = 18 to 20 (N = 19: 2.28 s against 3.09 s with seven rows and 3.74 s with
/// five); from N = 18 it gives from three quarters of a million to tens of millions of items,
/// enough to keep a large GPU's invocations busy, and each is resumable, so an item's size
/// never bounds a dispatch.
pub fn default_depth(n: u32) -> usize {
    ((n / 2).saturating_sub(1) as usize).clamp(2, 6)
}

/// The rows the items of a count fix when asked for `depth`: at least the parts' own (or the
/// rows the part would have given), at most N − 2 and [`MAX_ITEM_ROWS`]; the same for every
/// item, so that the kernel is built for one.
pub fn item_rows(plan: &CountPlan, depth: usize) -> usize {
    let own = plan
        .subproblems()
        .iter()
        .find(|sub| matches!(sub.case, Case::Corner { .. } | Case::Edge { .. }))
        .map_or(0, |sub| sub.prefix.len());
    fixed_rows(plan.n(), own, depth)
}

/// Whether a part of the N×N count is not for the kernel: the 1×1 board, a part with fewer
/// than two free rows, a turn's search of symmetric solutions.
pub fn on_cpu(n: u32, sub: &Subproblem) -> bool {
    matches!(sub.case, Case::Single | Case::Turn(_))
        || sub.prefix.len() + 2 > n as usize
        || sub.prefix.len() < 2
}

/// The rows an item fixes on the N×N board, asked for `depth`, of a part that fixes `own`.
fn fixed_rows(n: u32, own: usize, depth: usize) -> usize {
    depth
        .max(own)
        .min((n as usize).saturating_sub(2))
        .min(MAX_ITEM_ROWS)
}

/// A part, ready for the GPU.
#[derive(Debug, PartialEq, Eq)]
pub enum Refined {
    /// Not for the kernel (the 1×1 board, fewer than two free rows, or a turn's search of
    /// symmetric solutions): counted on the CPU.
    OnCpu,
    /// The part's items, and the nodes its extension placed (already part of its tally).
    Items {
        /// The items, ids not yet given.
        items: Vec<Item>,
        /// Queens the extension placed.
        nodes: u64,
    },
}

/// Cuts `sub`, a part of the N×N count, into items that fix `depth` rows (or the part's own,
/// if more; never more than N − 2 or [`MAX_ITEM_ROWS`]).
pub fn refine(n: u32, sub: &Subproblem, depth: usize) -> Refined {
    if on_cpu(n, sub) {
        return Refined::OnCpu;
    }
    let depth = fixed_rows(n, sub.prefix.len(), depth);
    let allowed = allowed_columns(n, sub.case);
    let deadline = sides_deadline(n, sub.case);
    let (kind, param) = match sub.case {
        Case::Corner { c1 } => (0, c1),
        Case::Edge { b } => (1, b),
        Case::Single | Case::Turn(_) => unreachable!("counted on the CPU"),
    };
    let meta = depth as u32 | kind << 5 | param << 8;
    let masks = sub.masks();
    let mut extension = Extension {
        allowed: &allowed,
        deadline,
        depth,
        meta,
        prefix: sub.prefix.clone(),
        items: Vec::new(),
        nodes: 0,
    };
    extension.extend(masks);
    Refined::Items {
        items: extension.items,
        nodes: extension.nodes,
    }
}

/// The depth-first extension of one part.
struct Extension<'a> {
    allowed: &'a [u32],
    deadline: Option<(usize, u32)>,
    depth: usize,
    meta: u32,
    prefix: Vec<u32>,
    items: Vec<Item>,
    nodes: u64,
}

impl Extension<'_> {
    fn extend(&mut self, (cols, left, right): (u32, u32, u32)) {
        let row = self.prefix.len();
        if row == self.depth {
            let item = self.item();
            self.items.push(item);
            return;
        }
        let mut free = restrict_to_deadline(
            self.deadline,
            row,
            cols,
            self.allowed[row] & !(cols | left | right),
        );
        while free != 0 {
            let queen = free & free.wrapping_neg();
            free ^= queen;
            self.nodes += 1;
            self.prefix.push(queen.trailing_zeros());
            self.extend((cols | queen, (left | queen) << 1, (right | queen) >> 1));
            self.prefix.pop();
        }
    }

    fn item(&self) -> Item {
        let mut words = [0u32; 2];
        for (row, &col) in self.prefix.iter().enumerate() {
            words[row / 6] |= col << (5 * (row % 6));
        }
        [self.meta, words[0], words[1], 0]
    }
}

/// A part's tally before its items are counted: the extension's nodes.
pub fn extension_tally(nodes: u64) -> Tally {
    Tally {
        total: 0,
        fixed: 0,
        nodes: u128::from(nodes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_unpack_to_their_prefix_and_keep_the_split_order() {
        let plan = CountPlan::new(12).unwrap();
        assert_eq!(item_rows(&plan, 6), 6);
        for sub in plan.subproblems() {
            if let Case::Turn(_) = sub.case {
                assert_eq!(refine(12, sub, 6), Refined::OnCpu, "a turn's search");
                continue;
            }
            let Refined::Items { items, .. } = refine(12, sub, 6) else {
                panic!("a 12×12 part is large enough for the kernel");
            };
            for item in &items {
                let start = (item[0] & 31) as usize;
                assert_eq!(start, 6);
                let columns: Vec<u32> = (0..start)
                    .map(|row| (item[1 + row / 6] >> (5 * (row % 6))) & 31)
                    .collect();
                assert_eq!(columns[..sub.prefix.len()], sub.prefix[..]);
            }
        }
    }

    #[test]
    fn tiny_parts_and_turns_stay_on_the_cpu() {
        let single = CountPlan::new(1).unwrap();
        assert_eq!(refine(1, &single.subproblems()[0], 7), Refined::OnCpu);
        for n in 4..=6 {
            let plan = CountPlan::new(n).unwrap();
            for sub in plan.subproblems() {
                let on_cpu = refine(n, sub, 7) == Refined::OnCpu;
                assert_eq!(
                    on_cpu,
                    matches!(sub.case, Case::Turn(_)),
                    "N = {n}: {sub:?}"
                );
            }
        }
    }

    #[test]
    fn the_default_depth_leaves_the_kernel_two_rows_at_least() {
        for n in 4..=32 {
            assert!(default_depth(n) <= n as usize - 2, "N = {n}");
        }
    }
}
