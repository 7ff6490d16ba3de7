import assert from "node:assert/strict";
import { test } from "node:test";

import { LANE_COLOURS, finishOrder, shapeProblem } from "../../static/js/race.js";

test("the finish order puts the solved first, by step then by count, and places only them", () => {
  const order = finishOrder([
    { name: "a", status: "stopped", steps: 999, count: 999 },
    { name: "b", status: "solved", steps: 3178, count: 3178 },
    { name: "c", status: "unsolvable", steps: 10, count: 10 },
    { name: "d", status: "solved", steps: 153, count: 153 },
    { name: "e", status: "solved", steps: 153, count: 120 },
  ]);
  assert.deepEqual(order.map((l) => [l.name, l.place]), [["e", 1], ["d", 2], ["b", 3], ["c", null], ["a", null]]);
});

test("a race on R×C refuses the solvers made for N×N, and a queen count a solver cannot place", () => {
  const square = { name: "hill-climbing", shapes: { boards: "square", queens: "n" } };
  const perRow = { name: "backtracking", shapes: { boards: "rectangular", queens: "rows" } };
  const any = { name: "genetic", shapes: { boards: "rectangular", queens: "any" } };
  assert.equal(shapeProblem([square, any], { rows: 8, cols: 8 }), null);
  assert.equal(shapeProblem([square, any], { rows: 6, cols: 10 }), "hill-climbing runs on N×N boards only; on 6×10 race the solvers for R×C boards.");
  assert.equal(shapeProblem([perRow, any], { rows: 6, cols: 10 }, 6), null);
  assert.equal(shapeProblem([perRow, any], { rows: 6, cols: 10 }, 5), "backtracking places 6 queens on 6×10, not 5.");
  assert.equal(shapeProblem([perRow, any], { rows: 6, cols: 10 }), null);
});

test("no lane is drawn in the reds and oranges that mean an attack", () => {
  for (const colour of LANE_COLOURS) {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
    assert.ok(!(r > g && r > b), `${colour} leans red`);
  }
});
