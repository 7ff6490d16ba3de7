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
/// rows the part would have given), at most N − 2 and [`MAX_ITEM_ROWS`]. The kernel is built
/// for items of that many rows, and takes items that fix more (the last parts' finer cut,
/// [`Cut::finer_from`]) with fewer rows left to stack.
pub fn item_rows(plan: &CountPlan, depth: usize) -> usize {
    let own = plan
        .subproblems()
        .iter()
        .find(|sub| matches!(sub.case, Case::Corner { .. } | Case::Edge { .. }))
        .map_or(0, |sub| sub.prefix.len());
    fixed_rows(plan.n(), own, depth)
}

/// Whether a part of the N×N count is not for the kernel: the 1×1 board, a part with fewer
/// than two free rows, a turn's search of symmetric solutions, or a part that fixes more rows
/// than an item holds ([`MAX_ITEM_ROWS`]; no plan makes one, and its search is small).
pub fn on_cpu(n: u32, sub: &Subproblem) -> bool {
    matches!(sub.case, Case::Single | Case::Turn(_))
        || sub.prefix.len() + 2 > n as usize
        || sub.prefix.len() < 2
        || sub.prefix.len() > MAX_ITEM_ROWS
}

/// Whether the items of `sub`, a part of the N×N count, cut at `depth` rows, are *settled*:
/// their fixed rows hold every row whose rule depends on where the search stands other than the
/// side columns' deadline, so that the kernel for them ([`crate::wgsl::Rules::Deadline`])
/// applies the deadline alone. Those rows are a corner case's rows before c₁, which keep off
/// column 1, and an edge case's rows before b, which keep off the side columns, and row b,
/// whose side queen weighs the solutions (read on computing row b + 1). An item's first free
/// row is computed with every rule when the item is taken; the loop computes the rows below
/// it. So a corner item is settled when c₁ is at most its first free row + 1, an edge item when
/// row b + 1 is at most its first free row. A part counted on the CPU is not.
pub fn settled(n: u32, sub: &Subproblem, depth: usize) -> bool {
    if on_cpu(n, sub) {
        return false;
    }
    let first_free = fixed_rows(n, sub.prefix.len(), depth) as u32;
    match sub.case {
        Case::Corner { c1 } => c1 <= first_free + 1,
        Case::Edge { b } => b < first_free,
        Case::Single | Case::Turn(_) => false,
    }
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
///
/// # Panics
///
/// If `sub` is not a part of the N×N board ([`Subproblem::fits`]).
pub fn refine(n: u32, sub: &Subproblem, depth: usize) -> Refined {
    sub.expect_fits(n);
    if on_cpu(n, sub) {
        return Refined::OnCpu;
    }
    let mut extension = Extension::new(n, sub, depth, true);
    extension.extend(sub.masks());
    Refined::Items {
        items: extension.items,
        nodes: extension.nodes,
    }
}

/// The columns of the queens an item fixes, row by row.
pub fn item_prefix(item: &Item) -> Vec<u32> {
    let start = (item[0] & 31) as usize;
    (0..start)
        .map(|row| (item[1 + row / 6] >> (5 * (row % 6))) & 31)
        .collect()
}

/// How many items [`refine`] would cut `sub` into at `depth`, counting no further than
/// `limit`; none for a part counted on the CPU.
///
/// # Panics
///
/// If `sub` is not a part of the N×N board ([`Subproblem::fits`]).
pub fn item_count(n: u32, sub: &Subproblem, depth: usize, limit: u64) -> u64 {
    sub.expect_fits(n);
    if on_cpu(n, sub) {
        return 0;
    }
    let mut extension = Extension::new(n, sub, depth, false);
    extension.limit = limit;
    extension.extend(sub.masks());
    extension.count
}

/// Items a call should give each invocation at least: enough that each takes several in turn,
/// so that no invocation idles while items wait (a shard of N = 28's campaign gives about 300
/// items at the default depth, against 2¹⁷ invocations).
pub const ITEMS_PER_INVOCATION: u64 = 8;

/// The last parts of a call, holding this many items an invocation, are cut one row finer:
/// the items taken last then end close together, instead of a few large ones keeping the
/// device waiting (`examples/schedule.rs` measures it).
pub const FINER_TAIL_PER_INVOCATION: u64 = 4;

/// A call with this many items an invocation or more is not given a finer tail: its items are
/// small beside each invocation's share, so the last ones end close together anyway, and
/// smaller items only cost more taking (N = 16 on 2¹² invocations, 62 items each, is as busy
/// either way; N = 17 on 2¹⁵, 13 items each, is 83.5 % busy in order and 95.8 % with it).
pub const FINER_TAIL_BELOW_PER_INVOCATION: u64 = 32;
const _: () = assert!(FINER_TAIL_BELOW_PER_INVOCATION >= ITEMS_PER_INVOCATION);

/// How a call's parts are cut into items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The rows items fix.
    pub depth: usize,
    /// The position among the call's parts from which they are cut a row finer (`depth + 1`),
    /// if any are.
    pub finer_from: Option<usize>,
}

impl Cut {
    /// Whether the last parts are cut a row finer.
    pub fn has_finer_tail(&self) -> bool {
        self.finer_from.is_some()
    }

    /// The rows the items of the part at `position` fix.
    pub fn depth_at(&self, position: usize) -> usize {
        match self.finer_from {
            Some(first) if position >= first => self.depth + 1,
            _ => self.depth,
        }
    }
}

/// How to cut `parts` of the N×N count for `invocations`, from `depth` rows (`adapt`: from
/// [`default_depth`]): as many rows more as give every invocation [`ITEMS_PER_INVOCATION`]
/// items, and, where that leaves fewer than [`FINER_TAIL_BELOW_PER_INVOCATION`], a row more
/// still for the last parts, which hold [`FINER_TAIL_PER_INVOCATION`] items an invocation. A
/// depth asked for (`adapt` false) is kept as it is, for benchmarks and tests.
pub fn cut(n: u32, parts: &[&Subproblem], depth: usize, invocations: u32, adapt: bool) -> Cut {
    if !adapt {
        return Cut {
            depth,
            finer_from: None,
        };
    }
    let deepest = fixed_rows(n, 0, MAX_ITEM_ROWS);
    let wanted = ITEMS_PER_INVOCATION * u64::from(invocations);
    // Each depth's items are counted once, as far as the finer tail's test needs (which is
    // further than the deepening's).
    let few = FINER_TAIL_BELOW_PER_INVOCATION * u64::from(invocations);
    let mut depth = depth;
    let mut items = items_up_to(n, parts.iter().copied(), depth, few);
    while depth < deepest && items < wanted {
        depth += 1;
        items = items_up_to(n, parts.iter().copied(), depth, few);
    }
    if items >= few {
        return Cut {
            depth,
            finer_from: None,
        };
    }
    let tail = FINER_TAIL_PER_INVOCATION * u64::from(invocations);
    let mut finer_from = parts.len();
    let mut held = 0;
    while depth < deepest && finer_from > 0 && held < tail {
        finer_from -= 1;
        held += item_count(n, parts[finer_from], depth, tail - held);
    }
    Cut {
        depth,
        finer_from: (finer_from < parts.len()).then_some(finer_from),
    }
}

/// The items of `parts` at `depth`, counted no further than `limit`.
fn items_up_to<'a>(
    n: u32,
    parts: impl Iterator<Item = &'a Subproblem>,
    depth: usize,
    limit: u64,
) -> u64 {
    let mut total = 0;
    for sub in parts {
        if total >= limit {
            break;
        }
        total += item_count(n, sub, depth, limit - total);
    }
    total
}

/// The depth-first extension of one part: its items, or only how many there are.
struct Extension {
    allowed: Vec<u32>,
    deadline: Option<(usize, u32)>,
    depth: usize,
    meta: u32,
    prefix: Vec<u32>,
    /// Whether to keep the items or only count them.
    keep: bool,
    items: Vec<Item>,
    count: u64,
    /// Counting stops at this many items.
    limit: u64,
    nodes: u64,
}

impl Extension {
    fn new(n: u32, sub: &Subproblem, depth: usize, keep: bool) -> Self {
        let depth = fixed_rows(n, sub.prefix.len(), depth);
        let (kind, param) = match sub.case {
            Case::Corner { c1 } => (0, c1),
            Case::Edge { b } => (1, b),
            Case::Single | Case::Turn(_) => unreachable!("counted on the CPU"),
        };
        Extension {
            allowed: allowed_columns(n, sub.case),
            deadline: sides_deadline(n, sub.case),
            depth,
            meta: depth as u32 | kind << 5 | param << 8,
            prefix: sub.prefix.clone(),
            keep,
            items: Vec::new(),
            count: 0,
            limit: u64::MAX,
            nodes: 0,
        }
    }

    fn extend(&mut self, (cols, left, right): (u32, u32, u32)) {
        let row = self.prefix.len();
        if row == self.depth {
            self.count += 1;
            if self.keep {
                let item = self.item();
                self.items.push(item);
            }
            return;
        }
        let mut free = restrict_to_deadline(
            self.deadline,
            row,
            cols,
            self.allowed[row] & !(cols | left | right),
        );
        while free != 0 && self.count < self.limit {
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

    /// A settled part's items leave the loop no row whose allowed columns are restricted
    /// (apart from the last row, and rows past the deadline, where both side queens stand),
    /// and no edge case's row b + 1; an unsettled one's leave it one. Checked from the plan's
    /// allowed columns, for every part and depth of N = 5 to 14.
    #[test]
    fn settled_items_leave_the_loop_the_deadline_alone() {
        for n in 5..=14 {
            let full = (1u32 << n) - 1;
            let plan = CountPlan::with_engine(n, queens_exact::count::Engine::Gpu).unwrap();
            for sub in plan.subproblems().iter().filter(|sub| !on_cpu(n, sub)) {
                let allowed = allowed_columns(n, sub.case);
                let deadline = sides_deadline(n, sub.case).map_or(usize::MAX, |(row, _)| row);
                let tie_row = match sub.case {
                    Case::Edge { b } => b as usize + 1,
                    _ => 0,
                };
                for depth in 2..=MAX_ITEM_ROWS {
                    let first_free = fixed_rows(n, sub.prefix.len(), depth);
                    let loop_rows = first_free + 1..n as usize - 1;
                    let restricted = loop_rows
                        .clone()
                        .any(|row| row <= deadline && allowed[row] != full);
                    let free_of_rules = !restricted && !loop_rows.contains(&tie_row);
                    assert_eq!(
                        settled(n, sub, depth),
                        free_of_rules,
                        "N = {n}, depth {depth}: {sub:?}"
                    );
                }
            }
        }
    }

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
                let columns = item_prefix(item);
                assert_eq!(columns.len(), 6);
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

    /// The items of `parts` at `depth`, all of them.
    fn items(n: u32, parts: &[&Subproblem], depth: usize) -> u64 {
        items_up_to(n, parts.iter().copied(), depth, u64::MAX)
    }

    #[test]
    fn a_shard_of_one_part_is_cut_deep_enough_for_every_invocation() {
        let plan = CountPlan::with_engine(20, queens_exact::count::Engine::Gpu).unwrap();
        let invocations = 1 << 12;
        let wanted = ITEMS_PER_INVOCATION * invocations;
        for id in [0, 5000, 20000] {
            let part = [&plan.subproblems()[id]];
            let cut = cut(20, &part, default_depth(20), invocations as u32, true);
            assert!(cut.depth > default_depth(20), "part {id}: {cut:?}");
            assert!(items(20, &part, cut.depth) >= wanted, "part {id}: {cut:?}");
            assert!(
                items(20, &part, cut.depth - 1) < wanted,
                "part {id}: {cut:?}"
            );
        }
    }

    #[test]
    fn the_last_parts_are_cut_a_row_finer() {
        let plan = CountPlan::with_engine(16, queens_exact::count::Engine::Gpu).unwrap();
        let parts: Vec<&Subproblem> = plan.subproblems().iter().collect();
        // 31 items an invocation: enough not to cut deeper, few enough for a finer tail.
        let invocations = 1 << 13;
        let cut = cut(16, &parts, default_depth(16), invocations, true);
        assert_eq!(cut.depth, default_depth(16), "enough items already");
        let tail = FINER_TAIL_PER_INVOCATION * u64::from(invocations);
        let first = cut.finer_from.expect("a finer tail");
        assert!(items(16, &parts[first..], cut.depth) >= tail);
        assert!(items(16, &parts[first + 1..], cut.depth) < tail);
        assert_eq!(cut.depth_at(first - 1), cut.depth);
        assert_eq!(cut.depth_at(first), cut.depth + 1);
    }

    #[test]
    fn a_depth_asked_for_is_kept_and_no_deeper_than_the_board_allows() {
        let plan = CountPlan::with_engine(16, queens_exact::count::Engine::Gpu).unwrap();
        let parts: Vec<&Subproblem> = plan.subproblems().iter().collect();
        let asked = cut(16, &parts, 3, 1 << 20, false);
        assert_eq!((asked.depth, asked.finer_from), (3, None));
        // 62 items an invocation: the last ones end close together without a finer tail.
        let many = cut(16, &parts, default_depth(16), 1 << 12, true);
        assert_eq!((many.depth, many.finer_from), (default_depth(16), None));
        // Far more invocations than items at any depth: as deep as a kernel allows, and no
        // finer tail past it.
        let small = CountPlan::with_engine(8, queens_exact::count::Engine::Gpu).unwrap();
        let parts: Vec<&Subproblem> = small.subproblems().iter().collect();
        let deepest = cut(8, &parts, default_depth(8), 1 << 20, true);
        assert_eq!((deepest.depth, deepest.finer_from), (6, None));
    }

    /// The first `rows` rows of the first placement the case allows on the N×N board, found
    /// by asking [`Subproblem::fits`] of each longer prefix.
    fn first_prefix(n: u32, case: Case, rows: usize) -> Vec<u32> {
        fn grow(n: u32, sub: &mut Subproblem, rows: usize) -> bool {
            if sub.prefix.len() == rows {
                return true;
            }
            for col in 0..n {
                sub.prefix.push(col);
                if sub.fits(n) && grow(n, sub, rows) {
                    return true;
                }
                sub.prefix.pop();
            }
            false
        }
        let mut sub = Subproblem {
            case,
            prefix: Vec::new(),
        };
        assert!(
            grow(n, &mut sub, rows),
            "{case:?} has no {rows} rows on {n}×{n}"
        );
        sub.prefix
    }

    /// A part made by hand that fixes more rows than an item holds is counted on the CPU, not
    /// extended row after row past the board; one that fixes as many is one item, itself.
    #[test]
    fn a_part_fixing_more_rows_than_an_item_holds_stays_on_the_cpu() {
        for case in [Case::Edge { b: 13 }, Case::Corner { c1: 20 }] {
            let long = Subproblem {
                case,
                prefix: first_prefix(28, case, MAX_ITEM_ROWS + 2),
            };
            assert!(on_cpu(28, &long), "{long:?}");
            assert_eq!(refine(28, &long, default_depth(28)), Refined::OnCpu);
            assert_eq!(item_count(28, &long, default_depth(28), u64::MAX), 0);
            let full = Subproblem {
                case,
                prefix: first_prefix(28, case, MAX_ITEM_ROWS),
            };
            let Refined::Items { items, nodes } = refine(28, &full, default_depth(28)) else {
                panic!("{full:?} is for the kernel");
            };
            assert_eq!((items.len(), nodes), (1, 0));
            assert_eq!(item_prefix(&items[0]), full.prefix);
        }
    }

    #[test]
    fn the_default_depth_leaves_the_kernel_two_rows_at_least() {
        for n in 4..=32 {
            assert!(default_depth(n) <= n as usize - 2, "N = {n}");
        }
    }
}
