import assert from "node:assert/strict";
import { test } from "node:test";

import { Recording } from "../../static/js/replay.js";
import { SearchTree, describeTree, treeAt } from "../../static/js/tree.js";
import { key } from "../../static/js/squares.js";

const attacks = (a, b) => a.row === b.row || a.col === b.col || Math.abs(a.row - b.row) === Math.abs(a.col - b.col);

/**
 * The events of backtracking on n×n as the solver sends them: a try of an attacked square is a
 * step with its square; a free one is placed, then its step; a row with nothing left is a
 * backtrack, the queen above removed. `fixed` rows are skipped.
 */
function backtracking(n, fixed = []) {
  const events = [{ type: "started", solver: "backtracking", rows: n, cols: n, fixed, board: fixed }];
  const rows = [...Array(n).keys()].filter((row) => !fixed.some((q) => q.row === row));
  const path = [];
  const next = [0];
  let nodes = 0;
  let depth = 0;
  while (depth < rows.length) {
    let placed = false;
    while (next[depth] < n) {
      const square = { row: rows[depth], col: next[depth] };
      next[depth] += 1;
      nodes += 1;
      if (![...fixed, ...path].some((q) => attacks(q, square))) {
        path.push(square);
        events.push({ type: "place", square });
        events.push({ type: "step", iteration: nodes, score: depth + 1, square });
        placed = true;
        break;
      }
      events.push({ type: "step", iteration: nodes, score: depth, square });
    }
    if (placed) {
      depth += 1;
      next[depth] = 0;
    } else {
      depth -= 1;
      events.push({ type: "remove", square: path.pop() });
    }
  }
  events.push({ type: "finished", status: "solved" });
  const recording = new Recording();
  for (const event of events) recording.push(event);
  return recording;
}

test("the tree's path is the board's searched queens and every pruned child was attacked from above", () => {
  for (const [n, fixed] of [[6, []], [8, []], [8, [{ row: 0, col: 3 }]]]) {
    const recording = backtracking(n, fixed);
    const tree = new SearchTree();
    for (let k = 1; k <= recording.length; k++) {
      tree.apply(recording.frames[k - 1]);
      const board = recording.boardAt(k).filter((q) => !fixed.some((f) => key(f) === key(q)));
      assert.deepEqual(tree.path.map(key), board.sort((a, b) => a.row - b.row).map(key), `n ${n}, frame ${k}`);
      tree.levels.forEach((level, depth) => {
        const above = [...fixed, ...tree.path.slice(0, depth)];
        for (const [col, child] of level.children) {
          const square = { row: level.row, col };
          if (child.status === "pruned") assert.ok(above.some((q) => attacks(q, square)), `${key(square)} pruned but free`);
          else assert.ok(!above.some((q) => attacks(q, square)), `${key(square)} ${child.status} but attacked`);
          if (child.status === "path") assert.equal(key(tree.path[depth]), key(square));
        }
      });
    }
    assert.equal(tree.nodes, recording.frames[recording.length - 1].step.iteration, "every node counted once");
    assert.equal(tree.path.length, n - fixed.length, "the solution is the whole path");
  }
});

test("a subtree's node count is the nodes tried in it, and seeking back rebuilds the tree", () => {
  const recording = backtracking(6);
  const end = treeAt(recording, recording.length);
  // Every node is under exactly one child of the root's level.
  const rootChildren = [...end.levels[0].children.values()];
  assert.equal(rootChildren.reduce((sum, c) => sum + c.nodes, 0), end.nodes);
  assert.ok(rootChildren.some((c) => c.status === "dead" && c.nodes > 1), "a dead end with a subtree");
  const early = treeAt(recording, 10, end);
  assert.notEqual(early, end, "a tree past frame k is not reused");
  assert.deepEqual(early.path, treeAt(recording, 10).path);
  assert.match(describeTree(end, 6), /^depth 6 of 6; \d+ nodes: \d+ pruned, \d+ dead ends$/);
});

test("a sampled frame leaves the tree its path and node count", () => {
  const recording = backtracking(6);
  const tree = treeAt(recording, 20);
  tree.apply({ changes: [{ type: "board", queens: [{ row: 1, col: 3 }, { row: 0, col: 1 }], every: 4 }], step: { iteration: 500, score: 2, square: { row: 2, col: 0 } } });
  assert.deepEqual(tree.path.map(key), ["0,1", "1,3"].map((k) => key({ row: Number(k[0]), col: Number(k[2]) })));
  assert.equal(tree.nodes, 500);
  assert.match(describeTree(tree, 6), /^depth 2 of 6; 500 nodes; sampled, so only the path is known$/);
});
