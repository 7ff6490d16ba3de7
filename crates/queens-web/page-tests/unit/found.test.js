// The solutions found, told apart by the board's turns and mirrors.

import assert from "node:assert/strict";
import { test } from "node:test";

import { SYMMETRIES, symmetriesKeeping, symmetryClasses } from "../../static/js/found.js";

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
      const image = first.map((q) => { const [row, col] = t.how.map(q.row, q.col, n, n); return { row, col }; });
      assert.equal(keyOf(image), keyOf(solutions[i]), `N = ${n}, #${i + 1}: ${t.how.name}`);
      if (t.of === i) assert.equal(t.how, SYMMETRIES[0]);
    });
  }
});

test("the symmetries are the eight of the square, each named once", () => {
  const n = 5;
  const corner = [{ row: 0, col: 1 }];
  const images = SYMMETRIES.map(({ map }) => map(corner[0].row, corner[0].col, n, n).join(","));
  assert.equal(new Set(images).size, 8, "b1 goes to eight different squares");
  assert.deepEqual(SYMMETRIES.find((t) => t.name === "turned a quarter clockwise").map(0, 0, n, n), [4, 0], "a1 goes to a5, as seen on the screen");
  assert.deepEqual(SYMMETRIES.find((t) => t.name === "mirrored left to right").map(0, 0, n, n), [0, 4], "a1 goes to e1");
  assert.equal(new Set(SYMMETRIES.map((t) => t.name)).size, 8);
});

/**
 * Every way to put one queen in each of `rows` rows of `cols` columns (rows ≤ cols), no two
 * attacking, with the `locked` squares held and none on the `blocked` ones.
 */
function placements({ rows, cols, locked = [], blocked = [] }) {
  const out = [];
  const taken = [];
  const isBlocked = (row, col) => blocked.some((b) => b.row === row && b.col === col);
  const place = (row) => {
    if (row === rows) {
      const queens = taken.map((col, r) => ({ row: r, col }));
      if (locked.every((l) => taken[l.row] === l.col)) out.push(queens);
      return;
    }
    for (let col = 0; col < cols; col++) {
      if (!isBlocked(row, col) && taken.every((c, r) => c !== col && Math.abs(c - col) !== row - r)) {
        taken.push(col);
        place(row + 1);
        taken.pop();
      }
    }
  };
  place(0);
  return out;
}

const square = (name) => {
  const col = name.charCodeAt(0) - 97;
  return { row: Number(name.slice(1)) - 1, col };
};

test("the kinds a problem's symmetries leave are Burnside's count, on rectangles and with squares locked or blocked", () => {
  const cases = [
    { rows: 4, cols: 6, keeps: ["itself", "turned half a turn", "mirrored left to right", "mirrored top to bottom"] },
    { rows: 5, cols: 7, keeps: ["itself", "turned half a turn", "mirrored left to right", "mirrored top to bottom"] },
    { rows: 6, cols: 8, keeps: ["itself", "turned half a turn", "mirrored left to right", "mirrored top to bottom"] },
    { rows: 5, cols: 5, locked: ["c3"], keeps: SYMMETRIES.map((s) => s.name) },
    { rows: 8, cols: 8, blocked: ["a1", "h1"], keeps: ["itself", "mirrored left to right"] },
    { rows: 7, cols: 7, locked: ["a1"], keeps: ["itself", "mirrored on the a1–h8 diagonal"] },
    { rows: 8, cols: 8, blocked: ["d4", "e5", "d5", "e4"], keeps: SYMMETRIES.map((s) => s.name) },
    { rows: 8, cols: 8, blocked: ["a1", "h8"], keeps: ["itself", "turned half a turn", "mirrored on the a1–h8 diagonal", "mirrored on the other diagonal"] },
    { rows: 8, cols: 8, locked: ["b1"], keeps: ["itself"] },
  ];
  for (const c of cases) {
    const problem = { rows: c.rows, cols: c.cols, locked: (c.locked ?? []).map(square), blocked: (c.blocked ?? []).map(square) };
    const said = `${c.rows}×${c.cols}, locked ${c.locked ?? "none"}, blocked ${c.blocked ?? "none"}`;
    const kept = symmetriesKeeping(problem);
    assert.deepEqual(kept.map((s) => s.name), c.keeps, said);
    const solutions = placements(problem);
    assert.ok(solutions.length >= 2, `${said}: ${solutions.length} solutions`);
    const keys = new Set(solutions.map(keyOf));
    const image = (queens, symmetry) => queens.map((q) => { const [row, col] = symmetry.map(q.row, q.col, c.rows, c.cols); return { row, col }; });
    // Each symmetry kept takes every solution to a solution; Burnside counts the classes.
    let fixed = 0;
    for (const symmetry of kept) {
      for (const queens of solutions) {
        const key = keyOf(image(queens, symmetry));
        assert.ok(keys.has(key), `${said}: ${symmetry.name} takes a solution off the problem`);
        if (key === keyOf(queens)) fixed += 1;
      }
    }
    const told = symmetryClasses(solutions, c.rows, c.cols, kept);
    assert.equal(new Set(told.map((t) => t.kind)).size, fixed / kept.length, said);
    told.forEach((t, i) => {
      assert.ok(kept.includes(t.how), `${said}, #${i + 1}`);
      assert.equal(keyOf(image(solutions[t.of], t.how)), keyOf(solutions[i]), `${said}, #${i + 1}: ${t.how.name}`);
    });
  }
});
