import assert from "node:assert/strict";
import { test } from "node:test";

import { iterationsByN, lineName, successByN, sweepGrids, toCsv } from "../../static/js/results.js";

const row = (solver, n, params, solved, mean) => ({
  solver, n, params, runs: 10, solved, success_rate: solved / 10, mean_iterations: mean, median_ms: 0.5,
});

test("success and iterations by N give a line per solver, sorted by N", () => {
  const rows = [row("a", 12, {}, 5, 40), row("a", 8, {}, 10, 20), row("b", 8, {}, 0, null)];
  const success = successByN(rows);
  assert.deepEqual(success.map((line) => line.name), ["a", "b"]);
  assert.deepEqual(success[0].points.map((p) => p.slice(0, 2)), [[8, 100], [12, 50]]);
  // Each rate carries its 95 % interval, which holds the rate.
  for (const [, rate, low, high] of success.flatMap((line) => line.points)) {
    assert.ok(low <= rate && rate <= high && low >= 0 && high <= 100, `${low} ${rate} ${high}`);
  }
  assert.ok(success[1].points[0][3] > 0, "0 of 10 solved still allows a rate above 0");
  assert.deepEqual(iterationsByN(rows), [{ name: "a", points: [[8, 20], [12, 40]] }, { name: "b", points: [] }]);
  assert.equal(lineName(row("a", 8, { p: 0.2, q: 3 }, 1, 1)), "a (p = 0.2, q = 3)");
});

test("a two-parameter sweep becomes one grid per solver and N", () => {
  const rows = [];
  for (const p of [0.1, 0.2]) for (const q of [1, 2, 3]) rows.push(row("s", 8, { p, q }, Math.round(p * 10 * q), 1));
  rows.pop();
  const [grid, ...rest] = sweepGrids(rows, "p", "q");
  assert.equal(rest.length, 0);
  assert.equal(grid.title, "s, N = 8");
  assert.deepEqual(grid.rowValues, [0.1, 0.2]);
  assert.deepEqual(grid.colValues, [1, 2, 3]);
  assert.deepEqual(grid.values, [[0.1, 0.2, 0.3], [0.2, 0.4, null]]);
});

test("CSV has a column per swept parameter and quotes what needs it", () => {
  const csv = toCsv([row("x,y", 8, { p: 0.5 }, 3, null)]);
  assert.equal(csv, 'solver,n,p,runs,solved,success_rate,mean_iterations,median_ms\n"x,y",8,0.5,10,3,0.3,,0.5\n');
});

test("grids of a study whose sizes sweep different values have no empty rows", () => {
  const rows = [row("s", 4, { max_iters: 15, q: 1 }, 5, 1), row("s", 4, { max_iters: 18, q: 1 }, 6, 1),
    row("s", 8, { max_iters: 65, q: 1 }, 7, 1), row("s", 8, { max_iters: 65, q: 2 }, 8, 1)];
  const grids = sweepGrids(rows, "max_iters", "q");
  assert.deepEqual(grids.map((g) => [g.title, g.rowValues, g.colValues]),
    [["s, N = 4", [15, 18], [1]], ["s, N = 8", [65], [1, 2]]]);
  assert.ok(grids.every((g) => g.values.flat().every((v) => v !== null)));
});
