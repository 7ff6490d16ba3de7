//! The binary decision diagram of all N-Queens solutions, for boards up to 13×13.
//!
//! One Boolean variable per square, row-major (`row * n + col`). The diagram is built directly
//! from a memoised search over (row, used columns, diagonals): every reachable state of that
//! search becomes the chain of nodes that picks exactly one free column in its row and then
//! continues in the state that choice leads to. Hash-consing the nodes makes the result the
//! reduced ordered BDD, which [`biodivine_lib_bdd`] then holds and can count, combine and export.
//! Building it this way takes 0.5 s at N = 12, where conjoining the row and attack constraints
//! takes minutes.
//!
//! A position is a restriction (its queens' variables true, its blocked squares' false). Two
//! passes over the nodes, counting restricted paths from the root and to the `true` leaf, give
//! the number of completions through every square at once.

use biodivine_lib_bdd::{Bdd, BddNode, BddPointer, BddVariable};
use queens_core::{CancelToken, Square};
use rustc_hash::FxHashMap;

/// The largest board the diagram is built for (2 million nodes, a few seconds to build).
pub const MAX_DIAGRAM_N: u32 = 13;

/// All solutions of the N-Queens problem as a reduced ordered BDD.
#[derive(Clone, Debug)]
pub struct SolutionDiagram {
    n: u32,
    bdd: Bdd,
}

/// A diagram build abandoned because its token was raised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// Exact completion counts of a position: in total and through every square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletionCounts {
    /// The number of completions.
    pub total: u64,
    /// `per_square[row * n + col]`: the completions with a queen on that square.
    pub per_square: Vec<u64>,
}

impl SolutionDiagram {
    /// Builds the diagram for an N×N board; `None` beyond [`MAX_DIAGRAM_N`] or for N = 0.
    pub fn build(n: u32) -> Option<Self> {
        Self::build_within(n, &CancelToken::new()).unwrap_or(None)
    }

    /// [`build`](Self::build), abandoned (`Err(Stopped)`) within a few milliseconds of `stop`
    /// being raised: a build of 13×13 takes seconds.
    pub fn build_within(n: u32, stop: &CancelToken) -> Result<Option<Self>, Stopped> {
        if n == 0 || n > MAX_DIAGRAM_N {
            return Ok(None);
        }
        let mut builder = Builder::new(n as usize, stop.clone());
        let root = builder.state(0, 0, 0, 0);
        if builder.stopped {
            return Err(Stopped);
        }
        Ok(Some(SolutionDiagram {
            n,
            bdd: builder.finish(root),
        }))
    }

    /// The side of the board.
    pub fn side(&self) -> u32 {
        self.n
    }

    /// The diagram itself, for counting, combining or exporting with `biodivine_lib_bdd`.
    pub fn bdd(&self) -> &Bdd {
        &self.bdd
    }

    /// The number of nodes, the two leaves included.
    pub fn node_count(&self) -> usize {
        self.bdd.size()
    }

    /// The completions of `queens` that keep off `blocked` (all on the board), in total and
    /// per square.
    pub fn completions(&self, queens: &[Square], blocked: &[Square]) -> CompletionCounts {
        let n = self.n as usize;
        let mut required = vec![false; n * n];
        for queen in queens {
            required[queen.row as usize * n + queen.col as usize] = true;
        }
        let mut forbidden = vec![false; n * n];
        for square in blocked {
            forbidden[square.row as usize * n + square.col as usize] = true;
        }
        let size = self.bdd.size();
        let var_of = |index: usize| self.bdd.var_of(BddPointer::from_index(index)).to_index();
        let low = |index: usize| {
            self.bdd
                .low_link_of(BddPointer::from_index(index))
                .to_index()
        };
        let high = |index: usize| {
            self.bdd
                .high_link_of(BddPointer::from_index(index))
                .to_index()
        };

        // Paths from each node to `true` that keep every required variable true and every
        // forbidden one false. Children come before parents in the node list, so one pass
        // upwards suffices.
        let mut below = vec![0u64; size];
        if size > 1 {
            below[1] = 1;
        }
        for index in 2..size {
            let var = var_of(index);
            let through_high = if forbidden[var] {
                0
            } else {
                below[high(index)]
            };
            let through_low = if required[var] { 0 } else { below[low(index)] };
            below[index] = through_high + through_low;
        }
        // Paths from the root to each node, and through each high edge.
        let mut above = vec![0u64; size];
        let mut per_square = vec![0u64; n * n];
        let root = size - 1;
        above[root] = 1;
        for index in (2..size).rev() {
            let paths = above[index];
            if paths == 0 {
                continue;
            }
            let var = var_of(index);
            if !forbidden[var] {
                above[high(index)] += paths;
                per_square[var] += paths * below[high(index)];
            }
            if !required[var] {
                above[low(index)] += paths;
            }
        }
        // No path to `true` skips a variable (every solution has exactly N queens, so no
        // variable is free on a path), which makes these sums the exact counts.
        CompletionCounts {
            total: below[root],
            per_square,
        }
    }
}

/// Builds the node list bottom-up with a table of unique nodes.
struct Builder {
    n: usize,
    nodes: Vec<BddNode>,
    unique: FxHashMap<(u16, u32, u32), u32>,
    states: Vec<FxHashMap<(u64, u64, u64), u32>>,
    /// Raised to abandon the build; read every [`CHECK_EVERY`] new states.
    stop: CancelToken,
    new_states: u64,
    stopped: bool,
}

/// New states between two looks at the stop token (a few milliseconds of building).
const CHECK_EVERY: u64 = 4096;

const FALSE: u32 = 0;
const TRUE: u32 = 1;

impl Builder {
    fn new(n: usize, stop: CancelToken) -> Self {
        let vars = (n * n) as u16;
        Builder {
            n,
            nodes: vec![BddNode::mk_zero(vars), BddNode::mk_one(vars)],
            unique: FxHashMap::default(),
            states: vec![FxHashMap::default(); n],
            stop,
            new_states: 0,
            stopped: false,
        }
    }

    /// The node testing `var`: `high` when it is true, `low` otherwise (reduced and shared).
    fn node(&mut self, var: usize, low: u32, high: u32) -> u32 {
        if low == high {
            return low;
        }
        let key = (var as u16, low, high);
        if let Some(&index) = self.unique.get(&key) {
            return index;
        }
        let index = self.nodes.len() as u32;
        self.nodes.push(BddNode::mk_node(
            BddVariable::from_index(var),
            BddPointer::from_index(low as usize),
            BddPointer::from_index(high as usize),
        ));
        self.unique.insert(key, index);
        index
    }

    /// The diagram of rows `row..n` given the columns and diagonals already attacked (diagonal
    /// masks are shifted to `row`, so states that differ only off the board coincide).
    fn state(&mut self, row: usize, cols: u64, rising: u64, falling: u64) -> u32 {
        let n = self.n;
        if row == n {
            return TRUE;
        }
        if let Some(&node) = self.states[row].get(&(cols, rising, falling)) {
            return node;
        }
        if self.stopped {
            return FALSE;
        }
        self.new_states += 1;
        if self.new_states.is_multiple_of(CHECK_EVERY) && self.stop.is_cancelled() {
            self.stopped = true;
            return FALSE;
        }
        let full = (1u64 << n) - 1;
        let free = !(cols | rising | falling) & full;
        let mut chain = FALSE;
        for col in (0..n).rev() {
            let bit = 1u64 << col;
            let mut taken = FALSE;
            if free & bit != 0 {
                let next = self.state(
                    row + 1,
                    cols | bit,
                    ((rising | bit) << 1) & full,
                    (falling | bit) >> 1,
                );
                if next != FALSE {
                    // A queen on `col`: the rest of the row stays empty, then the next row.
                    taken = next;
                    for later in (col + 1..n).rev() {
                        taken = self.node(row * n + later, taken, FALSE);
                    }
                }
            }
            chain = self.node(row * n + col, chain, taken);
        }
        self.states[row].insert((cols, rising, falling), chain);
        chain
    }

    /// Keeps the nodes reachable from `root`, children first, root last.
    fn finish(self, root: u32) -> Bdd {
        let vars = (self.n * self.n) as u16;
        if root == FALSE {
            return Bdd::from_nodes(&[BddNode::mk_zero(vars)]).expect("the false leaf");
        }
        let mut renumbered = vec![u32::MAX; self.nodes.len()];
        renumbered[0] = 0;
        renumbered[1] = 1;
        let mut order = Vec::new();
        let mut stack = vec![(root, false)];
        while let Some((index, expanded)) = stack.pop() {
            if renumbered[index as usize] != u32::MAX {
                continue;
            }
            let node = &self.nodes[index as usize];
            if expanded {
                renumbered[index as usize] = (order.len() + 2) as u32;
                order.push(index);
            } else {
                stack.push((index, true));
                stack.push((node.high_link.to_index() as u32, false));
                stack.push((node.low_link.to_index() as u32, false));
            }
        }
        let mut nodes = vec![BddNode::mk_zero(vars), BddNode::mk_one(vars)];
        for index in order {
            let node = &self.nodes[index as usize];
            let link = |pointer: BddPointer| {
                BddPointer::from_index(renumbered[pointer.to_index()] as usize)
            };
            nodes.push(BddNode::mk_node(
                node.var,
                link(node.low_link),
                link(node.high_link),
            ));
        }
        Bdd::from_nodes(&nodes).expect("children precede parents and follow the variable order")
    }
}

#[cfg(test)]
mod tests {
    use biodivine_lib_bdd::{BddPartialValuation, BddVariableSet};

    use super::*;

    const A000170: [u64; 14] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];

    #[test]
    fn counts_match_oeis() {
        for n in 1..=10u32 {
            let diagram = SolutionDiagram::build(n).unwrap();
            assert_eq!(
                diagram.bdd().exact_cardinality(),
                A000170[n as usize].into()
            );
            let counts = diagram.completions(&[], &[]);
            assert_eq!(counts.total, A000170[n as usize]);
            assert_eq!(
                counts.per_square.iter().sum::<u64>(),
                counts.total * u64::from(n)
            );
        }
        assert!(SolutionDiagram::build(0).is_none());
        assert!(SolutionDiagram::build(MAX_DIAGRAM_N + 1).is_none());
    }

    /// The original program's way: conjoin "one queen per row" and "no two queens attack".
    fn conjoined(n: usize) -> Bdd {
        let vars = BddVariableSet::new_anonymous((n * n) as u16);
        let var = |row: usize, col: usize| BddVariable::from_index(row * n + col);
        let mut all = vars.mk_true();
        for row in 0..n {
            let mut some = vars.mk_false();
            for col in 0..n {
                some = some.or(&vars.mk_var(var(row, col)));
            }
            all = all.and(&some);
        }
        for (a_row, a_col) in (0..n).flat_map(|r| (0..n).map(move |c| (r, c))) {
            let mut attacked = vec![(var(a_row, a_col), true)];
            for (b_row, b_col) in (0..n).flat_map(|r| (0..n).map(move |c| (r, c))) {
                let (a, b) = (
                    Square::new(a_row as u32, a_col as u32),
                    Square::new(b_row as u32, b_col as u32),
                );
                if a != b && a.attacks(b) {
                    attacked.push((var(b_row, b_col), false));
                }
            }
            let clause = vars.mk_conjunctive_clause(&BddPartialValuation::from_values(&attacked));
            all = all.and(&vars.mk_var(var(a_row, a_col)).not().or(&clause));
        }
        all
    }

    #[test]
    fn equals_the_conjunction_of_the_rules() {
        for n in 1..=6 {
            let built = SolutionDiagram::build(n as u32).unwrap();
            assert!(built.bdd().iff(&conjoined(n)).is_true(), "n = {n}");
        }
    }

    #[test]
    fn restricted_counts_agree_with_the_restricted_diagram() {
        let diagram = SolutionDiagram::build(8).unwrap();
        let queens = [Square::new(0, 3), Square::new(1, 5)];
        let blocked = [Square::new(2, 0), Square::new(4, 6), Square::new(7, 7)];
        let counts = diagram.completions(&queens, &blocked);
        let variable = |q: &Square| BddVariable::from_index((q.row * 8 + q.col) as usize);
        let restriction: Vec<(BddVariable, bool)> = queens
            .iter()
            .map(|q| (variable(q), true))
            .chain(blocked.iter().map(|q| (variable(q), false)))
            .collect();
        let restricted = diagram.bdd().restrict(&restriction);
        // Restricting drops the fixed variables; their values are given, so divide them out.
        assert_eq!(
            restricted.exact_cardinality(),
            (counts.total << restriction.len()).into()
        );
        assert!(counts.total > 0);
        assert!(counts.total < diagram.completions(&queens, &[]).total);
        for square in blocked {
            assert_eq!(counts.per_square[variable(&square).to_index()], 0);
        }
    }
}
