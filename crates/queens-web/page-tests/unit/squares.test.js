import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  attackingPairs, checkParameter, checkSeed, checkSolvers, checkWhole, fileLabel, key, linesThrough, parseList, parseSquare,
  parseSize, parseSquares, sentence, sharedLine, sizeParams, squareName, withArticle,
} from "../../static/js/squares.js";

// What the command line, the server and Python refuse, with their one sentence for each.
const shared = JSON.parse(readFileSync(new URL("../../../queens-api/tests/documents/refusals.json", import.meta.url), "utf8"));

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

test("bad squares are refused in the sentences the command line, the server and Python give", () => {
  assert.equal(parseSquare("i0"), null);
  assert.equal(parseSquare("r0c1"), null);
  assert.equal(parseSquare("d"), null);
  assert.deepEqual(parseSquare("d01"), { row: 0, col: 3 }, "as the command line reads it");
  assert.deepEqual(parseSquares(" D1, e7 ", 8), [{ row: 0, col: 3 }, { row: 6, col: 4 }]);
  assert.deepEqual(parseSquares("", 8), []);
  assert.deepEqual(parseSquares("  ", 8), []);
  const { rows, cols, refused } = shared.squares;
  for (const { list, sentence: words } of refused) {
    assert.throws(() => parseSquares(list, rows, cols), { message: sentence(words) }, list);
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
  assert.deepEqual(["row", "column", "diagonal", "anti-diagonal"].map(withArticle),
    ["a row", "a column", "a diagonal", "an anti-diagonal"]);
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

test("board sizes are refused in the sentences the command line, the server and Python give", () => {
  const { most, refused } = shared.sizes;
  assert.deepEqual(parseSize(" 12 ", most), { rows: 12, cols: 12 });
  assert.deepEqual(parseSize("6×10", most), { rows: 6, cols: 10 });
  for (const { size, sentence: words } of refused) {
    assert.throws(() => parseSize(size, most), { message: sentence(words) }, size);
  }
});

test("parameter values are refused in the sentences the command line, the server and Python give", () => {
  const { declared, refused } = shared.parameters;
  for (const { name, value, sentence: words } of refused) {
    const parameter = declared.find((p) => p.name === name);
    assert.throws(() => checkParameter(parameter, value), { message: sentence(words) }, `${name}=${value}`);
  }
  assert.equal(checkParameter(declared[0], " 300 "), 300);
});

test("numbers typed by users are checked with the allowed range in the message", () => {
  assert.equal(checkWhole(" 12 ", 1, 200, "N"), 12);
  assert.throws(() => checkWhole("", 1, 200, "N"), { message: "N must be a positive whole number, got ''." });
  assert.throws(() => checkWhole("-1", 0, 9, "The step"), { message: "The step must be at least 0, got -1." });
  assert.throws(() => checkWhole("x", 0, 9, "The step"), { message: "The step must be a whole number, got 'x'." });
  for (const { seed, sentence: words } of shared.seeds.refused) {
    assert.throws(() => checkSeed(seed), { message: sentence(words) }, seed);
  }
  for (const seed of shared.seeds.taken) assert.equal(checkSeed(seed), BigInt(seed).toString());
  const p = { name: "p", min: 0, max: 1, integer: false };
  assert.equal(checkParameter(p, "0.25"), 0.25);
  const q = { name: "q", min: 1, max: null, integer: true };
  assert.throws(() => checkParameter(q, "0"), { message: "Q must be at least 1 (1 to inf), got 0." });
  assert.deepEqual(parseList("8, 10,12", (t) => checkWhole(t, 1, 64, "Each size"), "Sizes"), [8, 10, 12]);
  assert.throws(() => parseList("8, x, 10", (t) => checkWhole(t, 1, 64, "Each size"), "Sizes"), /Each size must be/);
  assert.throws(() => parseList(" , ", Number, "Sizes"), { message: "Sizes: give at least one value, separated by commas." });
  assert.throws(() => parseList("8, 10, 8", (t) => checkWhole(t, 1, 64, "Each size"), "Sizes"), { message: "Sizes: 8 is given twice; give each value once." });
  assert.throws(() => parseList("0.1, 0.10", Number, "The values of p"), { message: "The values of p: 0.1 is given twice; give each value once." });
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
