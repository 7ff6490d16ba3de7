import assert from "node:assert/strict";
import { test } from "node:test";

import {
  attackingPairs, checkParameter, checkSeed, checkSolvers, checkWhole, fileLabel, key, linesThrough, parseList, parseSquare,
  parseSize, parseSquares, sharedLine, sizeParams, squareName,
} from "../../static/js/squares.js";

test("square names round-trip on small and large boards", () => {
  for (const n of [1, 8, 26, 27, 200]) {
    for (const square of [{ row: 0, col: 0 }, { row: n - 1, col: n - 1 }, { row: Math.floor(n / 2), col: n - 1 }]) {
      assert.deepEqual(parseSquare(squareName(square, n)), square);
    }
  }
  assert.equal(squareName({ row: 0, col: 3 }, 8), "d1");
  assert.equal(squareName({ row: 6, col: 4 }, 30), "r7c5");
  assert.equal(fileLabel(25, 26), "z");
  assert.equal(fileLabel(26, 27), "27");
});

test("bad squares are refused with a sentence", () => {
  assert.equal(parseSquare("i0"), null);
  assert.equal(parseSquare("r0c1"), null);
  assert.equal(parseSquare("d"), null);
  assert.deepEqual(parseSquares(" D1, e7 ", 8), [{ row: 0, col: 3 }, { row: 6, col: 4 }]);
  assert.throws(() => parseSquares("d1,zz", 8), /"zz" is not a square/);
  assert.throws(() => parseSquares("i1", 8), /off the 8×8 board/);
  assert.deepEqual(parseSquares("", 8), []);
  assert.deepEqual(parseSquares("  ", 8), []);
  for (const slip of ["d1,,e7", "d1,", ",d1", "d1, ,e7"]) {
    assert.throws(() => parseSquares(slip, 8), /empty square in the list/, slip);
  }
});

test("shared lines and attacking pairs agree", () => {
  const queens = [{ row: 0, col: 0 }, { row: 2, col: 2 }, { row: 0, col: 5 }, { row: 4, col: 1 }];
  const pairs = attackingPairs(queens);
  const brute = [];
  for (let i = 0; i < queens.length; i++) {
    for (let j = i + 1; j < queens.length; j++) {
      const line = sharedLine(queens[i], queens[j]);
      if (line) brute.push(`${key(queens[i])}-${key(queens[j])}-${line}`);
    }
  }
  assert.deepEqual(pairs.map(([a, b, line]) => `${key(a)}-${key(b)}-${line}`).sort(), brute.sort());
  assert.equal(sharedLine({ row: 1, col: 2 }, { row: 3, col: 0 }), "anti-diagonal");
  assert.equal(sharedLine({ row: 1, col: 2 }, { row: 2, col: 4 }), null);
});

test("the lines through a square are exactly the squares sharing a line with it", () => {
  const n = 7;
  for (const square of [{ row: 0, col: 0 }, { row: 3, col: 5 }]) {
    const got = new Set(linesThrough(square, n).map(key));
    for (let row = 0; row < n; row++) {
      for (let col = 0; col < n; col++) {
        const other = { row, col };
        assert.equal(got.has(key(other)), sharedLine(square, other) !== null, `${key(square)} → ${key(other)}`);
      }
    }
  }
});

test("numbers typed by users are checked with the allowed range in the message", () => {
  assert.equal(checkWhole(" 12 ", 1, 200, "N"), 12);
  for (const bad of ["0", "201", "-5", "7.5", "x", ""]) {
    assert.throws(() => checkWhole(bad, 1, 200, "N"), { message: "N must be a whole number from 1 to 200." });
  }
  assert.equal(checkSeed("18446744073709551615"), "18446744073709551615");
  assert.throws(() => checkSeed("18446744073709551616"), /seed must be a whole number/);
  assert.throws(() => checkSeed("abc"), /seed/);
  const p = { name: "p", min: 0, max: 1, integer: false };
  assert.equal(checkParameter(p, "0.25"), 0.25);
  assert.throws(() => checkParameter(p, "1.5"), { message: "p must be a number from 0 to 1." });
  const q = { name: "q", min: 1, max: null, integer: true };
  assert.throws(() => checkParameter(q, "2.5"), { message: "q must be a whole number from 1 to any." });
  assert.deepEqual(parseList("8, 10,12", (t) => checkWhole(t, 1, 64, "Each size")), [8, 10, 12]);
  assert.throws(() => parseList("8, x, 10", (t) => checkWhole(t, 1, 64, "Each size")), /Each size must be/);
  assert.throws(() => parseList(" , ", Number), /at least one value/);
});

test("solver names from a link are checked against the catalogue", () => {
  const known = [{ name: "genetic" }, { name: "construct" }];
  assert.deepEqual(checkSolvers(["genetic"], known), ["genetic"]);
  assert.throws(() => checkSolvers(["genetic", "nope"], known), { message: 'There is no solver "nope"; the solvers are genetic, construct.' });
  assert.throws(() => checkSolvers(["nope"], known, [known[0]]), { message: 'There is no solver "nope"; the solvers are genetic.' });
});

test("a board's size reaches the server as n for N×N and as size for R×C", () => {
  assert.deepEqual(sizeParams(parseSize("8", 64)), { n: 8 });
  assert.deepEqual(sizeParams(parseSize("6x10", 64)), { size: "6x10" });
  assert.deepEqual(sizeParams({ rows: 7, cols: 7, m: 3 }), { n: 7 });
});
