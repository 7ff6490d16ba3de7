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
    ["#configure?n=100000", "#cfg-error", "N must be at most 200, got 100000."],
    ["#configure?n=8&q=z9", "#cfg-error", "Square z9 is off the 8×8 board."],
    ["#watch?solver=min-conflicts&n=8&fix=d1,,e7", "#w-error", "Empty square in list 'd1,,e7'."],
    ["#watch?solver=min-conflicts&n=5000", "#w-error", "N must be at most 1000, got 5000."],
    ["#watch?solver=nope", "#w-error", /^There is no solver "nope"; the solvers are .*min-conflicts/],
    ["#watch?solver=min-conflicts&seed=-1", "#w-error", "Seed must be at least 0, got -1."],
    ["#watch?solver=min-conflicts&seed=18446744073709551616", "#w-error", "Seed must be at most 18446744073709551615, got 18446744073709551616."],
    ["#watch?solver=min-conflicts&step=x", "#w-error", "The step must be a whole number, got 'x'."],
    ["#watch?solver=min-conflicts&probes=0", "#w-error", "Probes must be at least 1 (1 to 1000000), got 0."],
    ["#race?solvers=min-conflicts,genetic&n=2", "#r-error", "N must be at least 4, got 2."],
    ["#race?solvers=min-conflicts,nope", "#r-error", /^There is no solver "nope"/],
    ["#lab?solvers=min-conflicts&runs=0", "#x-error", "Runs must be at least 1, got 0."],
    ["#lab?count=99", "#c-error", "N must be at most 18, got 99."],
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

test("an error from a link is a sentence in the first screen, on a phone and on a desktop", async () => {
  const screens = [
    { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
    { viewport: { width: 1400, height: 900 } },
  ];
  const cases = [
    ["#watch?n=abc", "#w-error"],
    ["#watch?solver=nosuch", "#w-error"],
    ["#configure?n=100000", "#cfg-error"],
    ["#race?solvers=min-conflicts,genetic&n=2", "#r-error"],
    ["#lab?preset=nope", "#x-error"],
    ["#lab?solvers=min-conflicts&runs=0", "#x-error"],
  ];
  for (const options of screens) {
    for (const [hash, selector] of cases) {
      const page = await session.open(hash, options);
      await page.waitForSelector(`${selector}:not([hidden])`);
      const seen = await page.$eval(selector, (e) => {
        const box = e.getBoundingClientRect();
        return { top: box.top, bottom: box.bottom, height: box.height, text: e.textContent, screen: innerHeight };
      });
      const where = `${hash} at ${options.viewport.width} px`;
      assert.ok(seen.text.length > 10, `${where}: ${seen.text}`);
      assert.ok(seen.height > 0 && seen.top >= 0 && seen.bottom <= seen.screen + 1, `${where}: the sentence is at ${seen.top}–${seen.bottom} of ${seen.screen}`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  }
});
