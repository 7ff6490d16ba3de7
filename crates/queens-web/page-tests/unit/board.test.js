// The board's label spacing: every label while they fit, then every 2nd, 5th, 10th … square.

import assert from "node:assert/strict";
import { test } from "node:test";

import { labelStep, labelled } from "../../static/js/board.js";

test("labels are spaced by what fits the squares on screen", () => {
  assert.equal(labelStep(8, 78, 12, 1), 1, "8×8 on a desktop: every label");
  assert.equal(labelStep(26, 13, 12, 2), 2, "26 squares of 13 px: two-digit labels need two squares");
  assert.equal(labelStep(64, 9.8, 12, 2), 2);
  assert.equal(labelStep(64, 5.3, 12, 2), 5, "64×64 on a phone");
  assert.equal(labelStep(200, 3, 12, 3), 10, "200×200 on a desktop");
  assert.equal(labelStep(1000, 0.6, 12, 4), 100, "1000×1000 on a desktop");
  assert.equal(labelStep(1000, 0.03, 12, 4), 1000, "nothing else fits: the first label and the last");
});

test("the first label is printed when the spacing leaves it room", () => {
  const printed = (n, step) => Array.from({ length: n }, (_, i) => i).filter((i) => labelled(i, step)).map((i) => i + 1);
  assert.deepEqual(printed(8, 1), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(printed(9, 2), [2, 4, 6, 8]);
  assert.deepEqual(printed(20, 5), [1, 5, 10, 15, 20]);
});
