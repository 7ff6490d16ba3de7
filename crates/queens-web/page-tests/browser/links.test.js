// Links that replay: `run=1` runs on open, `step=K` opens a run paused at step K (Watch and
// Race), a paused run names its step in the URL, Lab links run their study, Count keeps its N,
// and every bad value in a link gets the sentence with its range.

import assert from "node:assert/strict";
import { test } from "node:test";

import { pageSession, queensOn, watchSettled as settled } from "../harness.js";

const session = pageSession();


test("a Watch link with a step opens the run paused there, and a paused run names its step", async () => {
  const page = await session.open("#watch?solver=min-conflicts&n=8&seed=4&step=5");
  await settled(page);
  assert.equal(await page.$eval("#w-timeline", (t) => t.value), "5");
  assert.equal(await page.textContent("#w-play"), "Play", "paused");
  assert.match(await page.textContent("#w-step-count"), /^5 of /);
  const shown = await queensOn(page, "#w-board");

  await page.click("#w-step");
  await page.click("#w-step");
  assert.match(await page.evaluate(() => location.hash), /run=1.*step=7/);
  await page.click("#w-back");
  const link = await page.evaluate(() => location.hash);
  assert.match(link, /step=6/);
  const again = await session.open(link);
  await settled(again);
  assert.equal(await again.$eval("#w-timeline", (t) => t.value), "6");
  await again.click("#w-back");
  assert.deepEqual(await queensOn(again, "#w-board"), shown, "step 5 of the link's run is step 5 of the first");
  for (const p of [page, again]) assert.deepEqual(p.errors, []);
});

test("run=1 starts a Watch run and a Race on open", async () => {
  const watch = await session.open("#watch?solver=backtracking&n=6&run=1");
  await settled(watch);
  assert.match(await watch.textContent("#w-status"), /^solved/);
  const race = await session.open("#race?solvers=min-conflicts,genetic&n=8&seed=2&step=3");
  await race.waitForFunction(() => [...document.querySelectorAll(".lane-status")].length === 2
    && [...document.querySelectorAll(".lane-status")].every((s) => s.textContent !== "running"));
  assert.equal(await race.$eval("#r-timeline", (t) => t.value), "3");
  assert.equal(await race.textContent("#r-play"), "Play");
  await race.click("#r-step");
  assert.match(await race.evaluate(() => location.hash), /run=1.*step=4/);
  for (const p of [watch, race]) assert.deepEqual(p.errors, []);
});

test("a Lab link runs its study, and Count keeps its N", async () => {
  const page = await session.open("#lab?solvers=min-conflicts&sizes=8&runs=5&seed=1&run=1");
  await page.waitForSelector("#x-table table");
  await page.fill("#c-n", "9");
  await page.click("#c-run");
  await page.waitForFunction(() => /352 solutions/.test(document.querySelector("#c-result").textContent));
  const link = await page.evaluate(() => location.hash);
  assert.match(link, /run=1/);
  assert.match(link, /count=9/);
  const again = await session.open(link);
  await again.waitForSelector("#x-table table");
  assert.equal(await again.$eval("#c-n", (input) => input.value), "9");
  for (const p of [page, again]) assert.deepEqual(p.errors, []);
});

test("every bad value in a link gets the sentence with its range", async () => {
  const cases = [
    ["#configure?n=100000", "#cfg-error", "N must be a whole number from 1 to 200."],
    ["#configure?n=8&q=z9", "#cfg-error", "z9 is off the 8×8 board."],
    ["#watch?solver=min-conflicts&n=5000", "#w-error", "N must be a whole number from 1 to 1000."],
    ["#watch?solver=nope", "#w-error", /^There is no solver "nope"; the solvers are .*min-conflicts/],
    ["#watch?solver=min-conflicts&seed=-1", "#w-error", "The seed must be a whole number from 0 to 18446744073709551615."],
    ["#watch?solver=min-conflicts&step=x", "#w-error", /^The step must be a whole number from 0/],
    ["#watch?solver=min-conflicts&probes=0", "#w-error", /^probes must be a whole number from 1/],
    ["#race?solvers=min-conflicts,genetic&n=2", "#r-error", "N must be a whole number from 4 to 64."],
    ["#race?solvers=min-conflicts,nope", "#r-error", /^There is no solver "nope"/],
    ["#lab?solvers=min-conflicts&runs=0", "#x-error", /^Runs must be a whole number from 1 to /],
    ["#lab?count=99", "#c-error", "N must be a whole number from 1 to 18."],
  ];
  for (const [hash, selector, sentence] of cases) {
    const page = await session.open(hash);
    await page.waitForTimeout(300);
    const text = await page.$eval(selector, (e) => (e.hidden ? "" : e.textContent));
    if (sentence instanceof RegExp) assert.match(text, sentence, hash);
    else assert.equal(text, sentence, hash);
    assert.deepEqual(page.errors, [], hash);
    await page.context().close();
  }
});

test("a Configure link with attacking queens shows them, joined in red", async () => {
  const page = await session.open("#configure?n=8&q=a1,b2,h5");
  await page.waitForSelector("#cfg-error:not([hidden])");
  assert.equal(await page.textContent("#cfg-error"), "The queens on a1 and b2 attack each other.");
  assert.deepEqual(await queensOn(page, "#cfg-board"), ["a1", "b2", "h5"]);
  assert.deepEqual(await page.$$eval("#cfg-board .cell.q-clash", (cells) => cells.map((c) => c.dataset.square).sort()), ["a1", "b2"]);
  assert.equal(await page.$$eval("#cfg-board .overlay line", (lines) => lines.length), 1);
});
