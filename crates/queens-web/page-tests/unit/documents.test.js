// The page reads the server's compact configure document as the whole document says: the same
// status, completions and reason for every square, from the golden documents that the command
// line, Python and the server are checked against too (crates/queens-api/tests/documents).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { cellAt, countStatus, explainSquare } from "../../static/js/configure-analysis.js";

const documents = new URL("../../../queens-api/tests/documents/", import.meta.url);
const read = (name) => JSON.parse(readFileSync(new URL(name, documents), "utf8"));

test("the compact analysis reads as the whole one, square by square", () => {
  const whole = read("configure-5-b1.json");
  const compact = read("configure-5-b1-compact.json");
  assert.equal(compact.n, whole.n);
  assert.equal(whole.cells.length, whole.n * whole.n);
  for (const cell of whole.cells) {
    const index = cell.row * whole.n + cell.col;
    const read = cellAt(compact, index);
    assert.equal(read.status, cell.status, `status of ${index}`);
    assert.equal(read.completions, cell.completions, `completions of ${index}`);
    assert.deepEqual(read.reason, cell.reason, `reason of ${index}`);
  }
  for (const status of ["queen", "attacked", "open", "dead"]) {
    const counted = whole.cells.filter((cell) => cell.status === status).length;
    assert.equal(countStatus(compact, status), counted, status);
  }
});

test("every square of a position is explained in a sentence that reads", () => {
  const whole = read("configure-5-b1.json");
  const compact = read("configure-5-b1-compact.json");
  const name = (cell) => `${"abcde"[cell.col]}${cell.row + 1}`;
  for (const cell of whole.cells) {
    const { text } = explainSquare(compact, cell, name(cell), true);
    assert.match(text, new RegExp(`^${name(cell)} (is |holds )`), text);
    assert.doesNotMatch(text, /\bis (queen|unknown)\b/, text);
  }
  const queen = whole.cells.find((cell) => cell.status === "queen");
  assert.equal(explainSquare(compact, queen, name(queen), true).text, `${name(queen)} holds a queen you placed, in ${queen.completions} completion${queen.completions === 1 ? "" : "s"}.`);
});
