// Race in headless Chromium: solvers start from the same board and play in step.

import assert from "node:assert/strict";
import { test } from "node:test";

import { pageSession, queensOn } from "../harness.js";

const session = pageSession();

test("a race runs its solvers from the same start board, side by side", async () => {
  const page = await session.open("#race?solvers=hill-climbing,optimized-hill-climbing&n=10&seed=2");
  const checked = await page.$$eval("#race input:checked", (inputs) => inputs.map((i) => i.value));
  assert.deepEqual(checked, ["hill-climbing", "optimized-hill-climbing"]);
  await page.click("#r-start");
  await page.waitForFunction(() => [...document.querySelectorAll(".lane-status")].every((s) => s.textContent !== "running"));
  const lanes = await page.$$eval(".lane", (lanes) => lanes.map((l) => l.dataset.solver));
  assert.deepEqual(lanes, ["hill-climbing", "optimized-hill-climbing"]);
  await page.$eval("#r-timeline", (input) => {
    input.value = "0";
    input.dispatchEvent(new Event("input"));
  });
  const starts = [];
  for (const solver of lanes) starts.push(await queensOn(page, `.lane[data-solver="${solver}"] .board`));
  assert.equal(starts[0].length, 10);
  assert.deepEqual(starts[0], starts[1], "both start from the seed's board");
  await page.click("#r-step");
  await page.click("#r-step");
  for (const solver of lanes) {
    assert.match(await page.$eval(`.lane[data-solver="${solver}"] .lane-counts`, (e) => e.textContent), /^step 2 of /);
  }
  await page.click("#r-end");
  const statuses = await page.$$eval(".lane-status", (s) => s.map((e) => e.textContent));
  assert.equal(statuses[1], "solved", "optimized hill climbing escapes");
  assert.equal((await page.$$(".lane .chart .series")).length, 2);
  assert.deepEqual(page.errors, []);
});

test("a race needs two to four solvers", async () => {
  const page = await session.open("#race?solvers=hill-climbing&n=8&seed=1");
  await page.click("#r-start");
  assert.equal(await page.$eval("#r-error", (e) => e.textContent), "Choose two to four solvers to race.");
  assert.deepEqual(page.errors, []);
});
