// The solutions found, told apart by the board's turns and mirrors.

import assert from "node:assert/strict";
import { test } from "node:test";

import { SYMMETRIES, symmetryClasses } from "../../static/js/found.js";

/** Every solution of n queens on n×n, as [{row, col}], in the order a row-by-row search finds them. */
function allSolutions(n) {
  const out = [];
  const cols = [];
  const place = (row) => {
    if (row === n) {
      out.push(cols.map((col, r) => ({ row: r, col })));
      return;
    }
    for (let col = 0; col < n; col++) {
      if (cols.every((c, r) => c !== col && Math.abs(c - col) !== row - r)) {
        cols.push(col);
        place(row + 1);
        cols.pop();
      }
    }
  };
  place(0);
  return out;
}

const keyOf = (queens) => queens.map((q) => `${q.row},${q.col}`).sort().join(";");

test("the kinds of every solution are the unique solutions (OEIS A002562)", () => {
  const unique = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92];
  const total = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
  for (let n = 1; n <= 10; n++) {
    const solutions = allSolutions(n);
    assert.equal(solutions.length, total[n - 1], `N = ${n}: the test's own search`);
    const told = symmetryClasses(solutions, n);
    const kinds = new Set(told.map((t) => t.kind));
    assert.equal(kinds.size, unique[n - 1], `N = ${n}`);
    told.forEach((t, i) => {
      // The first of a kind is itself; every other is its first under the symmetry named.
      const first = solutions[t.of];
      assert.ok(t.of <= i && told[t.of].of === t.of && told[t.of].kind === t.kind, `N = ${n}, #${i + 1}`);
      const image = first.map((q) => { const [row, col] = t.how.map(q.row, q.col, n); return { row, col }; });
      assert.equal(keyOf(image), keyOf(solutions[i]), `N = ${n}, #${i + 1}: ${t.how.name}`);
      if (t.of === i) assert.equal(t.how, SYMMETRIES[0]);
    });
  }
});

test("the symmetries are the eight of the square, each named once", () => {
  const n = 5;
  const corner = [{ row: 0, col: 1 }];
  const images = SYMMETRIES.map(({ map }) => map(corner[0].row, corner[0].col, n).join(","));
  assert.equal(new Set(images).size, 8, "b1 goes to eight different squares");
  assert.deepEqual(SYMMETRIES.find((t) => t.name === "turned a quarter clockwise").map(0, 0, n), [4, 0], "a1 goes to a5, as seen on the screen");
  assert.deepEqual(SYMMETRIES.find((t) => t.name === "mirrored left to right").map(0, 0, n), [0, 4], "a1 goes to e1");
  assert.equal(new Set(SYMMETRIES.map((t) => t.name)).size, 8);
});
