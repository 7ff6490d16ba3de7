// Lab in headless Chromium: the p × q study draws its heat map, the table and downloads;
// a sweep by N draws one line per solver; counting reports the published count.

import assert from "node:assert/strict";
import { test } from "node:test";

import { pageSession } from "../harness.js";

const session = pageSession();

test("a two-parameter sweep draws its p × q heat map with its colour scale, a sample run, the table and downloads", async () => {
  const page = await session.open("#lab?solvers=hill-climbing-constant-shake&sizes=16&runs=40&seed=1&max_iters=300&sweep.p=0.05,0.1,0.2,0.3,0.5&sweep.q=1,2,3,4,6");
  await page.click("#x-run");
  await page.waitForSelector("#x-charts svg.heat");
  assert.equal((await page.$$("#x-charts svg.heat rect:not(.scale-step)")).length, 25);
  assert.equal((await page.$$("#x-charts svg.heat rect.scale-step")).length, 10);
  assert.equal((await page.$$("#x-table tbody tr")).length, 25);
  assert.match(await page.evaluate(() => location.hash), /sweep\.p=0\.05,0\.1,0\.2,0\.3,0\.5&sweep\.q=1,2,3,4,6/);
  await page.waitForSelector(".sample svg .series");
  const download = page.waitForEvent("download");
  await page.click("#x-csv");
  const file = await download;
  assert.equal(file.suggestedFilename(), "experiment.csv");
  const csv = await (await file.createReadStream()).toArray();
  const lines = Buffer.concat(csv).toString().trim().split("\n");
  assert.equal(lines[0], "solver,n,p,q,runs,solved,success_rate,mean_iterations,median_ms");
  assert.equal(lines.length, 26);
  assert.deepEqual(page.errors, []);
});

test("success rate by N draws a line per solver", async () => {
  const page = await session.open("#lab?solvers=hill-climbing,optimized-hill-climbing&sizes=6,8,10&runs=20&seed=1");
  await page.click("#x-run");
  const chart = "#x-charts svg[aria-label='Success rate by N, with 95 % intervals']";
  await page.waitForSelector(`${chart} .series`, { state: "attached" });
  assert.equal((await page.$$(`${chart} .series`)).length, 2);
  // Every point has its interval: 2 solvers × 3 sizes.
  assert.equal((await page.$$(`${chart} .error-bar`)).length, 6);
  assert.equal((await page.$$("#x-table tbody tr")).length, 6);
  assert.deepEqual(page.errors, []);
});

test("a solver that solved no run is named as such in the work chart's legend", async () => {
  const page = await session.open("#lab?solvers=random-search,backtracking&sizes=12,14&runs=5&seed=1&max_iters=10&run=1");
  const chart = "#x-charts svg[aria-label^='Mean iterations or nodes']";
  await page.waitForSelector(`${chart} .legend-text`, { state: "attached" });
  const legend = await page.$$eval(`${chart} .legend-text`, (texts) => texts.map((t) => t.textContent));
  assert.deepEqual(legend.sort(), ["backtracking", "random-search (no run solved)"]);
  assert.deepEqual(page.errors, []);
});

test("on a phone, the Lab says in view that Max iterations does not cap a tree search", async () => {
  const page = await session.open("#lab?solvers=hill-climbing&sizes=8&runs=5", { viewport: { width: 390, height: 844 } });
  assert.equal(await page.isVisible("#x-iters-hint"), false, "no tree search chosen, nothing to say");
  await page.check("input[name=lab-solver][value=backtracking]");
  const hint = await page.$eval("#x-iters-hint", (e) => {
    const box = e.getBoundingClientRect();
    return { text: e.textContent, width: box.width, height: box.height, right: box.right, fontSize: parseFloat(getComputedStyle(e).fontSize) };
  });
  assert.equal(hint.text, "Max iterations caps the local searches only: backtracking counts nodes, which it does not cap.");
  assert.ok(hint.height >= hint.fontSize && hint.right <= 390, `seen whole on the phone: ${JSON.stringify(hint)}`);
  await page.uncheck("input[name=lab-solver][value=backtracking]");
  assert.equal(await page.isVisible("#x-iters-hint"), false);
  assert.deepEqual(page.errors, []);
});

test("bad experiment settings are refused before anything is sent", async () => {
  const page = await session.open("#lab?solvers=hill-climbing&sizes=8,x,10&runs=10");
  await page.click("#x-run");
  assert.equal(await page.$eval("#x-error", (e) => e.textContent), "Each size must be a positive whole number, got 'x'.");
  await page.fill("#x-sizes", "8, 10, 8");
  await page.click("#x-run");
  assert.equal(await page.$eval("#x-error", (e) => e.textContent), "Sizes: 8 is given twice; give each value once.");
  await page.fill("#x-sizes", "8");
  await page.fill("#x-runs", "10000001");
  await page.click("#x-run");
  assert.equal(await page.$eval("#x-error", (e) => e.textContent), "Runs must be at most 10000000, got 10000001.");
  assert.deepEqual(page.errors, []);
});

test("an experiment the server refuses leaves no status saying it starts, only the refusal", async () => {
  // 200,000 runs at N = 60 exceed the server's 600 CPU seconds: refused when it arrives.
  const page = await session.open("#lab?solvers=hill-climbing&sizes=60&runs=200000&seed=1&run=1");
  await page.waitForFunction(() => document.querySelector("#x-error").textContent.includes("CPU seconds"));
  assert.match(await page.$eval("#x-error", (e) => e.textContent), /^This experiment could take up to \d+ CPU seconds; this server runs experiments of at most 600/);
  assert.equal(await page.$eval("#x-status", (e) => e.textContent), "", "not 'Starting…'");
  assert.equal(await page.isVisible("#x-cancel"), false, "nothing is left running");
  assert.deepEqual(page.errors.filter((e) => !/status of 4\d\d/.test(e)), []);
});

/** Asks the Lab's counter on `page` to count N = `n`. */
async function count(page, n) {
  await page.fill("#c-n", String(n));
  await page.click("#c-run");
}

/** The counter's line once it matches `pattern`. */
async function countResult(page, pattern) {
  await page.waitForFunction((source) => new RegExp(source).test(document.querySelector("#c-result").textContent), pattern.source);
  return page.$eval("#c-result", (e) => e.textContent);
}

test("counting shows the published counts", async () => {
  const page = await session.open("#lab");
  await count(page, 10);
  assert.match(await countResult(page, /solutions,/), /^N = 10: 724 solutions, 92 unique/);
  await count(page, 19);
  assert.equal(await page.$eval("#c-error", (e) => e.textContent), "N must be at most 18, got 19.");
  assert.deepEqual(page.errors, []);
});

test("a cancelled count says how far it got and how the command line keeps its parts", async () => {
  const page = await session.open("#lab");
  await count(page, 17);
  await countResult(page, / subproblems done…$/);
  await page.click("#c-cancel");
  const told = await page.$eval("#c-result", (e) => e.textContent);
  assert.match(told, /^Cancelled after [\d,]+ of [\d,]+ subproblems \(\d+\.\d s\)\. A count gives its totals once every subproblem is counted; the command line's queens count 17 --checkpoint FILE keeps the subproblems done and resumes\.$/);
  assert.deepEqual(page.errors, []);
});

test("a sweep's values show whole in their field, and its ranges group their digits", async () => {
  const page = await session.open("#lab?solvers=hill-climbing-constant-shake&sizes=16&runs=40&seed=1&sweep.p=0.05,0.1,0.15,0.2,0.25&sweep.q=1,2,3");
  await page.waitForSelector("#x-sweep-0 option[value=p]", { state: "attached" });
  const field = await page.$eval("#x-sweep-values-0", (input) => ({ value: input.value, fits: input.scrollWidth <= input.clientWidth }));
  assert.equal(field.value, "0.05,0.1,0.15,0.2,0.25");
  assert.ok(field.fits, "the values are not cut");
  const ranges = await page.$$eval("#x-sweep-1 option", (options) => options.map((o) => o.textContent));
  assert.ok(ranges.includes("q (1 to 1,000,000,000)"), ranges.join(" | "));
  assert.deepEqual(page.errors, []);
});
