// The Queen's Challenge on the page: a locked queen, the exhaustive solvers run to their end
// however long (streamed whole, then sampled, with exact counts), counted in boards examined.

import assert from "node:assert/strict";
import { test } from "node:test";

import { pageSession, queensOn } from "../harness.js";

const session = pageSession();

const ended = (page) => page.waitForFunction(() => /^(solved|unsolvable|stopped)/.test(document.querySelector("#w-status").textContent),
  null, { timeout: 120_000 });

for (const [hash, boards, solution] of [
  // The figures `queens solve N --solver S --fix SQ --format json` prints as nodes.
  ["#watch?solver=row-brute-force&n=8&fix=d1&run=1", 160_662, ["a2", "b5", "c7", "d1", "e3", "f8", "g6", "h4"]],
  ["#watch?solver=brute-force&n=6&fix=b1&run=1", 255_075, null],
]) {
  test(`${hash} runs to its end, sampled, with its exact count of boards examined`, async () => {
    const page = await session.open(hash);
    await ended(page);
    const status = await page.textContent("#w-status");
    assert.match(status, new RegExp(`^solved after ${boards.toLocaleString("en-US")} boards examined; every step up to [\\d,]+ was streamed, then samples \\(at the end one in [\\d,]+\\), the counts exact$`));
    assert.doesNotMatch(status, /viewer/);
    assert.equal(await page.textContent("#watch .counters tr:nth-child(3) th"), "boards examined");
    await page.click("#w-end");
    assert.equal(await page.textContent("#w-iteration"), boards.toLocaleString("en-US"), "the last step's counter is the run's count");
    const queens = await queensOn(page, "#w-board");
    if (solution) assert.deepEqual(queens, solution);
    assert.equal(await page.textContent("#w-pairs"), "0");
    // A sampled step is told as one.
    const middle = Math.floor(Number(await page.$eval("#w-timeline", (t) => t.max)) * 0.9);
    await page.$eval("#w-timeline", (t, k) => {
      t.value = String(k);
      t.dispatchEvent(new Event("input"));
    }, middle);
    assert.match(await page.textContent("#w-narration"), /^Step [\d,]+: sampled: the board at [\d,]+; one step in [\d,]+ is streamed here/);
    assert.deepEqual(page.errors, []);
  });
}
