import assert from "node:assert/strict";
import { test } from "node:test";

import { Recording, conflictsInColumn, eventAt, frameModel, moments, narrate, nextEvent, ordinal, solverState, thin } from "../../static/js/replay.js";
import { key } from "../../static/js/squares.js";

/** A deterministic pseudo-random stream of a local search on n×n: moves, then a step. */
function stream(n, steps, seed) {
  let state = seed;
  const random = (k) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % k;
  };
  const queens = Array.from({ length: n }, (_, col) => ({ row: random(n), col }));
  const events = [{ type: "started", solver: "test", rows: n, cols: n, fixed: [queens[0]], board: queens.map((q) => ({ ...q })) }];
  const boards = [queens.map((q) => ({ ...q }))];
  for (let i = 1; i <= steps; i++) {
    for (let m = random(3); m >= 0; m--) {
      const col = 1 + random(n - 1);
      const from = { ...queens[col] };
      const to = { row: random(n), col };
      if (to.row === from.row) continue;
      queens[col] = to;
      events.push({ type: "move", from, to });
    }
    events.push({ type: "step", iteration: i, score: -random(10) });
    boards.push(queens.map((q) => ({ ...q })));
  }
  events.push({ type: "finished", status: "stopped" });
  return { events, boards };
}

const sorted = (queens) => queens.map(key).sort();

test("the board after every frame is the solver's board at that step", () => {
  const { events, boards } = stream(10, 300, 7);
  const recording = new Recording();
  for (const event of events) recording.push(event);
  assert.equal(recording.length, 300);
  assert.ok(recording.done);
  for (let k = 0; k <= 300; k++) {
    assert.deepEqual(sorted(recording.boardAt(k)), sorted(boards[k]), `frame ${k}`);
    const model = frameModel(recording, k, 10);
    assert.equal(model.counters.queens, 10, `frame ${k} shows every queen`);
    assert.equal(model.counters.iteration, k);
    assert.equal(model.queens.filter((q) => q.kind === "locked").length, 1);
  }
});

test("a frame marks the moved queen, where it came from and its lines", () => {
  const recording = new Recording();
  recording.push({ type: "started", rows: 4, cols: 4, fixed: [], board: [{ row: 0, col: 0 }, { row: 0, col: 1 }] });
  recording.push({ type: "move", from: { row: 0, col: 1 }, to: { row: 2, col: 1 } });
  recording.push({ type: "step", iteration: 1, score: 0 });
  const model = frameModel(recording, 1, 4);
  assert.deepEqual(model.marks.moved, [{ row: 2, col: 1 }]);
  assert.deepEqual(model.marks.from, [{ row: 0, col: 1 }]);
  assert.ok(model.marks["hl-line"].some((s) => s.row === 2 && s.col === 3));
  assert.equal(model.counters.pairs, 0);
  const before = frameModel(recording, 0, 4);
  assert.equal(before.counters.pairs, 1);
  assert.deepEqual(before.queens.map((q) => q.kind), ["clash", "clash"]);
});

test("a tree search's step marks its row and candidate", () => {
  const recording = new Recording();
  recording.push({ type: "started", rows: 4, cols: 4, fixed: [], board: [] });
  recording.push({ type: "step", iteration: 1, score: 0, square: { row: 0, col: 2 } });
  recording.push({ type: "place", square: { row: 0, col: 2 } });
  recording.push({ type: "step", iteration: 2, score: 1, square: { row: 1, col: 0 } });
  const model = frameModel(recording, 2, 4);
  assert.deepEqual(model.marks.candidate, [{ row: 1, col: 0 }]);
  assert.equal(model.marks.row.length, 4);
  assert.deepEqual(recording.scores(), [[1, 0], [2, 1]]);
});

test("thinning keeps at most the limit plus the last point", () => {
  const points = Array.from({ length: 1000 }, (_, i) => [i, i]);
  const thinned = thin(points, 100);
  assert.equal(thinned.length, 101);
  assert.deepEqual(thinned.at(-1), [999, 999]);
  assert.equal(thin(points.slice(0, 5), 100).length, 5);
});

/** A recording of `events` after a start with `board` on n×n. */
function recorded(board, events, n = 8) {
  const recording = new Recording();
  recording.push({ type: "started", rows: n, cols: n, fixed: [], board });
  for (const event of events) recording.push(event);
  return recording;
}

const sq = (row, col) => ({ row, col });

test("every queen a step moves is marked, with a ghost and an arrow", () => {
  const recording = recorded([sq(0, 0), sq(0, 1), sq(0, 2)], [
    { type: "move", from: sq(0, 1), to: sq(5, 1) },
    { type: "move", from: sq(0, 2), to: sq(3, 2) },
    { type: "step", iteration: 1, score: -1, note: { kind: "shake", queens: 2, probability: 0.23 } },
  ]);
  const model = frameModel(recording, 1, 8);
  assert.deepEqual(model.marks.moved, [sq(5, 1), sq(3, 2)]);
  assert.deepEqual(model.marks.from, [sq(0, 1), sq(0, 2)]);
  assert.deepEqual(model.arrows, [[sq(0, 1), sq(5, 1)], [sq(0, 2), sq(3, 2)]]);
  assert.deepEqual(model.marks["hl-line"], [], "no one queen's lines when several moved");
  assert.equal(narrate(recording, 1, 8), "shake (chance 0.23): b1→b6, c1→c4");
});

test("the notes of a local search are told", () => {
  const tell = (note, changes = []) => narrate(recorded([sq(0, 0), sq(1, 2)], [...changes, { type: "step", iteration: 1, score: 0, note }]), 1, 8);
  const move = { type: "move", from: sq(1, 2), to: sq(6, 2) };
  assert.equal(tell({ kind: "proposal", from: sq(1, 2), to: sq(6, 2), loss: 2, probability: 0.3125, temperature: 2.4, taken: false }),
    "try c2→c7: worse by 2, rejected (p = e^(−2/T) = 0.31 at T = 2.4)");
  assert.equal(tell({ kind: "proposal", from: sq(1, 2), to: sq(6, 2), loss: 2, probability: 0.3125, temperature: 2.4, taken: true }, [move]),
    "worse move c2→c7 (by 2) accepted: p = e^(−2/T) = 0.31 at T = 2.4");
  assert.equal(tell({ kind: "proposal", from: sq(1, 2), to: sq(6, 2), loss: -3, probability: 1, temperature: 900, taken: true }, [move]),
    "move c2→c7: better by 3, taken");
  assert.equal(tell({ kind: "proposal", from: sq(1, 2), to: sq(1, 2), loss: 0, probability: 1, temperature: 900, taken: true }),
    "try c2→c2: the queen's own square, nothing moves");
  assert.equal(tell({ kind: "stuck" }), "stuck: no single move improves the board (a local optimum); nothing moves");
  const climb = recorded([sq(0, 0), sq(1, 2)], [move, { type: "step", iteration: 1, score: 26, note: { kind: "climbed", gain: 1 } }]);
  assert.equal(narrate(climb, 1, 8), "climb: c2→c7, the best single move, score 25 → 26 (+1)");
  assert.equal(tell({ kind: "restart", queens: 4 }, [move]), "restart of 4 queens, the score having stalled: c2→c7");
  assert.equal(tell({ kind: "tried", kept: 5, undone: 3 }, [move]), "each queen tried on a random row: 5 kept (no worse), 3 put back (worse); moved c2→c7");
  const refused = recorded([sq(1, 2)], [{ type: "step", iteration: 1, score: 0, note: { kind: "proposal", from: sq(1, 2), to: sq(6, 2), loss: 1, probability: 0.5, temperature: 1, taken: false } }]);
  assert.deepEqual(frameModel(refused, 1, 8).marks.candidate, [sq(6, 2)], "a refused proposal rings where it would have gone");
});

/** A tree search's recording: h8 taken back, c2 tried and rejected, then a2 placed. */
function treeSearch() {
  return recorded([sq(3, 4), sq(7, 7)], [
    { type: "remove", square: sq(7, 7) },
    { type: "step", iteration: 1, score: 1, square: sq(1, 2) },
    { type: "place", square: sq(1, 0) },
    { type: "step", iteration: 2, score: 2, square: sq(1, 0) },
  ]);
}

test("a tree search's tries and backtracks are told from the board", () => {
  const recording = treeSearch();
  assert.equal(narrate(recording, 1, 8), "backtrack: remove h8; try c2: attacked by e4 on a diagonal, rejected");
  assert.equal(narrate(recording, 2, 8), "try a2: free, place a queen");
  assert.equal(narrate(recording, 0, 8), "start: the solver's first board");
  assert.deepEqual(frameModel(recording, 1, 8).tries, [[sq(3, 4), sq(1, 2)]], "the rejected try is joined to the queen that attacks it");
  assert.deepEqual(frameModel(recording, 2, 8).tries, [], "a placed try is not");
});

test("a try rejected along an anti-diagonal is told with its article", () => {
  const recording = recorded([sq(3, 4)], [{ type: "step", iteration: 1, score: 1, square: sq(2, 5) }]);
  assert.equal(narrate(recording, 1, 8), "try f3: attacked by e4 on an anti-diagonal, rejected");
});

test("a genetic generation is told with its population's fitness", () => {
  const recording = recorded([sq(0, 0), sq(1, 2)], [
    { type: "step", iteration: 1, score: -3, note: { kind: "generation", size: 200, best: -3, mean: -8.455, worst: -17 } },
    { type: "move", from: sq(1, 2), to: sq(4, 2) },
    { type: "step", iteration: 2, score: -2, note: { kind: "generation", size: 200, best: -2, mean: -7.9, worst: -15 } },
  ]);
  assert.equal(narrate(recording, 1, 8), "generation of 200: fitness best -3, mean -8.5, worst -17; the best board is unchanged");
  assert.equal(narrate(recording, 2, 8), "generation of 200: fitness best -2, mean -7.9, worst -15; the best board changed (c2→c5)");
  assert.deepEqual(recording.fitness().map((line) => line.points), [[[1, -3], [2, -2]], [[1, -8.455], [2, -7.9]], [[1, -17], [2, -15]]]);
  assert.equal(recorded([], []).fitness(), null);
});

test("the solver's own state is read from its last note", () => {
  const recording = recorded([sq(1, 2)], [
    { type: "step", iteration: 1, score: 0, note: { kind: "proposal", from: sq(1, 2), to: sq(3, 2), loss: 2, probability: 0.5134, temperature: 3.0, taken: false } },
    { type: "step", iteration: 2, score: 0 },
  ]);
  assert.equal(solverState(recording, 1), "temperature T = 3; the last proposal was worse by 2, its chance e^(−2/T) = 0.51");
  assert.equal(solverState(recording, 2), "", "a step without a note has no state to tell");
  assert.equal(solverState(recording, 0), "");
});

test("the electric force's pushes, restarts and brute force are told", () => {
  const recording = recorded([sq(0, 0), sq(1, 1), sq(5, 4)], [
    { type: "move", from: sq(1, 1), to: sq(2, 1) },
    { type: "step", iteration: 1, score: -1, note: { kind: "push", attacked: 2, restarted: false } },
    { type: "remove", square: sq(2, 1) },
    { type: "place", square: sq(3, 2) },
    { type: "step", iteration: 1, score: 0, note: { kind: "brute_force", queens: 1 } },
  ]);
  assert.equal(narrate(recording, 1, 8), "push: the 2 queens attacked, each pushed along the force on it (b2→b3)");
  assert.equal(narrate(recording, 2, 8), "brute force of the last 1 queen: lifted to c4, solved");
  const restart = recorded([sq(0, 0)], [{ type: "step", iteration: 1, score: 0, note: { kind: "push", attacked: 1, restarted: true } }]);
  assert.equal(narrate(restart, 1, 8), "restart from a new random board, the last one not settling; push: the 1 queen attacked, each pushed along the force on it, none could move");
});

test("the electric force's forces are drawn from the pushed queens and the phase told", () => {
  const recording = recorded([sq(0, 0), sq(1, 1), sq(5, 4)], [
    { type: "force", queen: sq(0, 0), col: 0.5, row: 0.2 },
    { type: "force", queen: sq(1, 1), col: -0.3, row: 2.5 },
    { type: "move", from: sq(1, 1), to: sq(2, 1) },
    { type: "step", iteration: 1, score: -1, note: { kind: "push", attacked: 2, restarted: false } },
    { type: "step", iteration: 2, score: -1, note: { kind: "brute_force", queens: 1 } },
  ]);
  assert.equal(recording.length, 2, "forces are no frames of their own");
  assert.deepEqual(sorted(recording.boardAt(1)), sorted([sq(0, 0), sq(2, 1), sq(5, 4)]), "a force moves nothing");
  const model = frameModel(recording, 1, 8);
  assert.deepEqual(model.forces.map((f) => f.queen), [sq(0, 0), sq(1, 1)]);
  assert.deepEqual(frameModel(recording, 2, 8).forces, []);
  assert.equal(solverState(recording, 1), "phase: forces; 2 queens pushed, the strongest force 2.5 on b2");
  assert.equal(narrate(recording, 1, 8), "push: the 2 queens attacked, each pushed along the force on it (b2→b3, the others blocked by the rim or a queen)");
  const freed = recorded([sq(0, 0), sq(1, 1)], [
    { type: "force", queen: sq(1, 1), col: 0, row: 1 },
    { type: "move", from: sq(1, 1), to: sq(2, 1) },
    { type: "step", iteration: 1, score: 0, note: { kind: "push", attacked: 2, restarted: false } },
  ]);
  assert.equal(narrate(freed, 1, 8), "push: 2 queens attacked, 1 still attacked when its turn came and pushed along the force on it (b2→b3)");
  assert.equal(solverState(recording, 2), "phase: brute force of the last 1 queen");
});

test("a column's conflicts count the queens of other columns on each square's lines", () => {
  // On 4×4: a1 and c3 (row 0 col 0, row 2 col 2); column b: b1 (a1's row), b2 (both diagonals),
  // b3 (c3's row), b4 (c3's diagonal).
  assert.deepEqual(conflictsInColumn([sq(0, 0), sq(2, 2), sq(3, 1)], 1, 4), [1, 2, 1, 1]);
});

test("Minton's repairs are told with the conflicts of the repaired column", () => {
  // 8×8: a1, b3, c1. Column c before the step: c1 on a1's rank, c2 on b3's diagonal, c3 on b3's
  // rank and a1's diagonal, c4 on b3's other diagonal, c5 to c8 free.
  const recording = recorded([sq(0, 0), sq(2, 1), sq(0, 2)], [
    { type: "move", from: sq(0, 2), to: sq(4, 2) },
    { type: "step", iteration: 1, score: 0, note: { kind: "repair", queen: sq(0, 2), to: sq(4, 2) } },
    { type: "step", iteration: 2, score: 0, note: { kind: "repair", queen: sq(2, 1), to: sq(2, 1) } },
  ]);
  const counts = [1, 1, 2, 1, 0, 0, 0, 0];
  assert.deepEqual(conflictsInColumn([sq(0, 0), sq(2, 1)], 2, 8), counts);
  assert.equal(narrate(recording, 1, 8), "repair c1 (1 conflict): to c5, a row with the fewest, 0 conflicts");
  assert.match(narrate(recording, 2, 8), /^repair b3 \(\d+ conflicts?\): no row of its column has fewer, it stays$/);
  const model = frameModel(recording, 1, 8);
  assert.deepEqual(model.numbers.map((x) => Number(x.text)), counts, "each square of the column shows its conflicts before the step");
  assert.ok(model.numbers.every((x) => x.col === 2));
  assert.match(solverState(recording, 1), /^conflicts in column c from rank 1 up: /);
  assert.ok(moments(recording, 1).has("repair"));
});

test("min-conflicts' swaps are told, the repaired column tinted", () => {
  const recording = recorded([sq(0, 0), sq(1, 1), sq(5, 4)], [
    { type: "step", iteration: 1, score: -1, note: { kind: "swap", queen: sq(1, 1), partner: sq(5, 4), taken: false, kicked: false } },
    { type: "move", from: sq(1, 1), to: sq(5, 1) },
    { type: "move", from: sq(5, 4), to: sq(1, 4) },
    { type: "step", iteration: 2, score: 0, note: { kind: "swap", queen: sq(1, 1), partner: sq(5, 4), taken: true, kicked: false } },
  ]);
  assert.equal(narrate(recording, 1, 8), "try swapping b2 with e6: no fewer collisions, refused");
  assert.equal(narrate(recording, 2, 8), "swap: b2 and e6 trade rows, fewer collisions (b2→b6, e6→e2)");
  const model = frameModel(recording, 1, 8);
  assert.deepEqual(model.marks.candidate, [sq(5, 4)]);
  assert.equal(model.marks.row.length, 8);
  assert.ok(model.marks.row.every((s) => s.col === 1));
});

test("each frame names the moments its solver's pseudo-code marks", () => {
  const tree = treeSearch();
  assert.deepEqual([...moments(tree, 1)].sort(), ["backtrack", "reject", "step"]);
  assert.deepEqual([...moments(tree, 2)].sort(), ["place", "step"]);
  assert.deepEqual([...moments(tree, 0)], []);
  const noted = (note) => [...moments(recorded([], [{ type: "step", iteration: 1, score: 0, note }]), 1)].sort();
  assert.deepEqual(noted({ kind: "proposal", loss: 2, taken: false }), ["proposal", "reject", "step"]);
  assert.deepEqual(noted({ kind: "proposal", loss: 2, taken: true }), ["accept_worse", "proposal", "step"]);
  assert.deepEqual(noted({ kind: "proposal", loss: 0, taken: true }), ["accept", "proposal", "step"]);
  assert.deepEqual(noted({ kind: "swap", taken: true, kicked: true }), ["kick", "step", "swap"]);
  assert.deepEqual(noted({ kind: "push", restarted: true }), ["push", "restart", "step"]);
});

test("a whole board examined is a check, and one without an attacking pair is the solution returned", () => {
  const recording = new Recording();
  // Brute force on 4×4: a board with two attacking pairs, then the solution b1 d2 a3 c4.
  recording.push({ type: "started", rows: 4, cols: 4, fixed: [], board: [sq(0, 0), sq(1, 2), sq(2, 1), sq(3, 3)], queens: 4 });
  recording.push({ type: "move", from: sq(3, 3), to: sq(3, 2) });
  recording.push({ type: "step", iteration: 1, score: 4 });
  recording.push({ type: "board", queens: [sq(0, 1), sq(1, 3), sq(2, 0), sq(3, 2)], every: 5 });
  recording.push({ type: "step", iteration: 6, score: 4 });
  assert.deepEqual([...moments(recording, 1)].sort(), ["check", "step"]);
  assert.deepEqual([...moments(recording, 2)].sort(), ["check", "solved", "step"]);
  assert.match(narrate(recording, 1, 4), /^move d4→c4; checked: 3 attacking pairs, rejected$/);
  // The chart of a whole-board search: the attacking pairs each board had, counted as frames come.
  assert.deepEqual(recording.attackSeries(), [[1, 3], [6, 0]]);
  recording.push({ type: "move", from: sq(3, 2), to: sq(3, 3) });
  recording.push({ type: "step", iteration: 7, score: 4 });
  assert.deepEqual(recording.attackSeries(), [[1, 3], [6, 0], [7, 1]]);
  // A tree search's last queen placed: the solution returned, no whole-board check.
  const tree = new Recording();
  tree.push({ type: "started", rows: 4, cols: 4, fixed: [], board: [sq(0, 1), sq(1, 3), sq(2, 0)], queens: 4 });
  tree.push({ type: "place", square: sq(3, 2) });
  tree.push({ type: "step", iteration: 1, score: 4, square: sq(3, 2) });
  assert.deepEqual([...moments(tree, 1)].sort(), ["place", "solved", "step"]);
  assert.equal(narrate(tree, 1, 4), "try c4: free, place a queen; every row has its queen: a solution");
});

test("the next event is the next backtrack, stall, shake, restart, kick or the solution", () => {
  const tree = treeSearch();
  assert.equal(eventAt(tree, 1), "backtrack");
  assert.equal(eventAt(tree, 2), null);
  assert.equal(nextEvent(tree, 0), 1);
  assert.equal(nextEvent(tree, 1), null, "nothing further recorded yet");
  tree.push({ type: "finished", status: "solved", nodes: 3 });
  assert.equal(eventAt(tree, tree.length), "solution");
  assert.equal(nextEvent(tree, 1), tree.length);
  const climb = recorded([sq(0, 0), sq(1, 2)], [
    { type: "move", from: sq(1, 2), to: sq(6, 2) },
    { type: "step", iteration: 1, score: 26, note: { kind: "climbed", gain: 1 } },
    { type: "step", iteration: 2, score: 26, note: { kind: "stuck" } },
    { type: "step", iteration: 3, score: 26, note: { kind: "shake", queens: 2, probability: 0.1 } },
    { type: "step", iteration: 4, score: 26, note: { kind: "swap", queen: sq(0, 0), partner: sq(1, 2), taken: true, kicked: true } },
    { type: "step", iteration: 5, score: 26, note: { kind: "restart", queens: 4 } },
  ]);
  assert.deepEqual([1, 2, 3, 4, 5].map((k) => eventAt(climb, k)), [null, "stuck", "shake", "kick", "restart"]);
  assert.equal(nextEvent(climb, 0), 2);
  assert.equal(nextEvent(climb, 4), 5);
});

/** Backtracking on 4×4 asked for every solution: the two it finds, and a backtrack between. */
function everySolution() {
  const recording = new Recording();
  recording.push({ type: "started", rows: 4, cols: 4, queens: 4, fixed: [], board: [] });
  const placed = (square, iteration, note) => [
    { type: "place", square },
    { type: "step", iteration, score: square.row + 1, square, ...(note ? { note } : {}) },
  ];
  for (const event of [
    ...placed(sq(0, 1), 2), ...placed(sq(1, 3), 6), ...placed(sq(2, 0), 7),
    ...placed(sq(3, 2), 10, { kind: "found", solutions: 1 }),
    { type: "remove", square: sq(3, 2) }, { type: "remove", square: sq(2, 0) },
    { type: "remove", square: sq(1, 3) }, { type: "remove", square: sq(0, 1) },
    ...placed(sq(0, 2), 20), ...placed(sq(1, 0), 21), ...placed(sq(2, 3), 25),
    ...placed(sq(3, 1), 27, { kind: "found", solutions: 2 }),
    { type: "remove", square: sq(3, 1) },
    { type: "step", iteration: 28, score: 3, square: sq(3, 2) },
    { type: "finished", status: "solved", nodes: 28, solutions: 2 },
  ]) recording.push(event);
  return recording;
}

test("a search that finds every solution counts them, tells each and stops on each as an event", () => {
  const recording = everySolution();
  assert.deepEqual([0, 3, 4, 5, 8, 9].map((k) => recording.solutionsAt(k)), [0, 0, 1, 1, 2, 2]);
  assert.equal(frameModel(recording, 8, 4).counters.solutions, 2);
  assert.equal(narrate(recording, 4, 4), "try c4: free, place a queen; every row has its queen: a solution, the 1st found");
  assert.equal(narrate(recording, 8, 4), "try b4: free, place a queen; every row has its queen: a solution, the 2nd found");
  assert.match(narrate(recording, 5, 4), /^backtrack: remove c4, a3, d2, b1; try c1: free/);
  assert.deepEqual([...moments(recording, 4)].sort(), ["place", "solved", "step"]);
  assert.equal(eventAt(recording, 4), "solution");
  assert.equal(nextEvent(recording, 0), 4);
  assert.equal(nextEvent(recording, 4), 5, "the backtrack after it");
  assert.equal(nextEvent(recording, 5), 8);
  assert.deepEqual([1, 2, 3, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(ordinal),
    ["1st", "2nd", "3rd", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th", "112th"]);
});

test("a sampled frame's board replaces the board and is told", () => {
  const recording = recorded([sq(0, 0), sq(1, 2)], [
    { type: "move", from: sq(1, 2), to: sq(2, 2) },
    { type: "step", iteration: 1, score: 0 },
    { type: "board", queens: [sq(5, 5), sq(6, 1), sq(7, 3)], every: 8 },
    { type: "step", iteration: 9, score: 0 },
    { type: "move", from: sq(7, 3), to: sq(7, 4) },
    { type: "step", iteration: 10, score: 0 },
  ]);
  assert.deepEqual(sorted(recording.boardAt(2)), sorted([sq(5, 5), sq(6, 1), sq(7, 3)]));
  assert.deepEqual(sorted(recording.boardAt(3)), sorted([sq(5, 5), sq(6, 1), sq(7, 4)]));
  assert.deepEqual(sorted(recording.boardAt(1)), sorted([sq(0, 0), sq(2, 2)]), "back before the sample");
  assert.equal(narrate(recording, 2, 8), "sampled: the board at 9, 8 steps after the one before; the run is too long to send whole, so from here on only samples are shown (its counts are exact)");
  assert.equal(recording.sampledFrom, 2, "the first sample is frame 2");
  const model = frameModel(recording, 2, 8);
  assert.deepEqual(model.marks.moved, []);
  assert.deepEqual(model.marks.from, []);
  // A solution found is sent as a sample of its own, and told as one.
  recording.push({ type: "board", queens: [sq(0, 1), sq(1, 3), sq(2, 0), sq(3, 2)], every: 3 });
  recording.push({ type: "step", iteration: 13, score: 4, note: { kind: "found", solutions: 1 } });
  assert.equal(narrate(recording, 4, 8), "sampled: the board at 13, 3 steps after the one before; checked: no attacking pair: a solution; the run is too long to send whole, so from here on only samples are shown (its counts are exact)");
  assert.equal(eventAt(recording, 4), "solution");
});
