// Race in headless Chromium: solvers start from the same board and play in step, their charts
// share their axes, the finish table agrees with the command line, and R×C boards race too.

import assert from "node:assert/strict";
import { test } from "node:test";

import { execFileSync } from "node:child_process";

import { boardProblems, pageSession, queensBinary, queensOn, scrollsSideways } from "../harness.js";

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

/** `queens solve` of one lane, as the command line answers it. */
function solvedByCli(size, solver, seed, m) {
  const args = ["solve", size, "--solver", solver, "--seed", String(seed), "--format", "json", ...(m ? ["-m", String(m)] : [])];
  let output;
  try {
    output = execFileSync(queensBinary(), args);
  } catch (e) {
    // A run stopped by its budget answers with exit status 1 and its JSON.
    if (e.status !== 1) throw e;
    output = e.stdout;
  }
  const answer = JSON.parse(output);
  return { status: answer.status, count: answer.nodes ?? answer.iterations };
}

const finished = (page) => page.waitForFunction(() => !document.querySelector("#r-finish").hidden, null, { timeout: 60_000 });

test("lanes share their axes, wear colours that do not mean an attack, and finish in a table the command line agrees with", async () => {
  const solvers = ["hill-climbing", "optimized-hill-climbing", "min-conflicts"];
  const page = await session.open(`#race?solvers=${solvers.join(",")}&n=10&seed=2&run=1`);
  await finished(page);
  await page.click("#r-end");
  // Every lane's x axis has the same ticks at the same places; each line ends where its run did.
  const charts = await page.$$eval(".lane", (lanes) => lanes.map((lane) => {
    const svg = lane.querySelector("svg.chart");
    const ticks = [...svg.querySelectorAll("text.tick")].filter((t) => t.getAttribute("text-anchor") === "middle")
      .map((t) => [t.textContent, Math.round(t.getBoundingClientRect().left - svg.getBoundingClientRect().left)]);
    const axis = svg.querySelector("line.axis").getBoundingClientRect();
    const line = svg.querySelector("path.series").getBoundingClientRect();
    return { solver: lane.dataset.solver, ticks, fraction: (line.right - axis.left) / axis.width, stroke: getComputedStyle(svg.querySelector("path.series")).stroke,
      heading: getComputedStyle(lane.querySelector("h3")).color };
  }));
  for (const chart of charts.slice(1)) assert.deepEqual(chart.ticks, charts[0].ticks, `${chart.solver} shares the x axis`);
  const rows = await page.$$eval("#r-finish tbody tr", (trs) => trs.map((tr) => ({ solver: tr.dataset.solver, cells: [...tr.children].map((c) => c.textContent) })));
  const bySolver = Object.fromEntries(rows.map((r) => [r.solver, r]));
  const counts = Object.fromEntries(solvers.map((s) => [s, solvedByCli("10", s, 2)]));
  // The shared axis ends at its last tick (shortNumber writes 4000, 12k, 3M).
  const last = charts[0].ticks.at(-1)[0];
  const end = Number(last.replace(/[kM]$/, "")) * (last.endsWith("k") ? 1e3 : last.endsWith("M") ? 1e6 : 1);
  for (const chart of charts) {
    // min-conflicts runs 1,852 iterations, hill climbing 999, its optimized form 153: drawn so.
    const expected = counts[chart.solver].count / end;
    assert.ok(Math.abs(chart.fraction - expected) < 0.03, `${chart.solver}'s line ends at ${chart.fraction.toFixed(3)} of the shared axis, not ${expected.toFixed(3)}`);
    const [r, g, b] = chart.heading.match(/\d+/g).map(Number);
    assert.ok(!(r > g && r > b), `${chart.solver}'s lane is not drawn in red: ${chart.heading}`);
    assert.equal(chart.stroke, chart.heading, "a lane's chart wears its colour");
  }
  assert.equal(new Set(charts.map((c) => c.heading)).size, 3, "each lane its own colour");
  // The finish table: solved first by step, the counts those of `queens solve`.
  assert.deepEqual(rows.map((r) => r.solver), ["optimized-hill-climbing", "min-conflicts", "hill-climbing"]);
  assert.deepEqual(rows.map((r) => r.cells[0]), ["1", "2", "–"]);
  for (const solver of solvers) {
    const [, , result, step, count] = bySolver[solver].cells;
    assert.equal(result, counts[solver].status);
    assert.equal(count, `${counts[solver].count.toLocaleString("en-US")} iterations`);
    assert.equal(step, counts[solver].count.toLocaleString("en-US"), "a local search's race step is its iteration");
  }
  assert.deepEqual(page.errors, []);
});

test("an R×C board with M queens races the solvers that take it, and refuses those that do not", async () => {
  const page = await session.open("#race?solvers=backtracking,genetic&size=6x10&m=6&seed=1&run=1");
  await finished(page);
  await page.click("#r-end");
  for (const solver of ["backtracking", "genetic"]) {
    const { n, cols, problems } = await boardProblems(page, `.lane[data-solver="${solver}"] .board`);
    assert.deepEqual([n, cols, problems], [6, 10, []], `${solver}'s board is 6×10 and true`);
    assert.equal((await queensOn(page, `.lane[data-solver="${solver}"] .board`)).length, 6);
  }
  const rows = await page.$$eval("#r-finish tbody tr", (trs) => trs.map((tr) => [tr.dataset.solver, tr.children[2].textContent, tr.children[4].textContent]));
  const expected = ["backtracking", "genetic"].map((s) => [s, solvedByCli("6x10", s, 1, 6)]);
  assert.deepEqual(rows.sort(), expected.map(([s, c]) => [s, c.status, `${c.count.toLocaleString("en-US")} ${s === "genetic" ? "iterations" : "squares tried"}`]).sort());
  assert.match(await page.evaluate(() => location.hash), /size=6x10&m=6/);
  const refused = await session.open("#race?solvers=hill-climbing,genetic&size=6x10&run=1");
  assert.equal(await refused.textContent("#r-error"), "hill-climbing runs on N×N boards only; on 6×10 race the solvers for R×C boards.");
  for (const p of [page, refused]) assert.deepEqual(p.errors, []);
});

test("the lanes' boards stand level, whatever the length of each summary", async () => {
  const page = await session.open("#race?solvers=hill-climbing,min-conflicts,genetic,backtracking&n=8&seed=1&run=1", { viewport: { width: 1000, height: 900 } });
  await page.waitForFunction(() => [...document.querySelectorAll(".lane-status")].every((s) => s.textContent !== "running"));
  const lanes = await page.$$eval(".lane", (items) => items.map((lane) => ({
    top: Math.round(lane.getBoundingClientRect().top),
    board: lane.querySelector(".board").getBoundingClientRect().top,
    summary: (() => {
      // The summary's lines of text (its box stretches to its row).
      const range = document.createRange();
      range.selectNodeContents(lane.querySelector(".summary"));
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    })(),
  })));
  const rows = new Map();
  for (const lane of lanes) rows.set(lane.top, [...(rows.get(lane.top) || []), lane]);
  const shared = [...rows.values()].filter((row) => row.length > 1);
  assert.ok(shared.length >= 1, "lanes side by side");
  assert.ok(shared.some((row) => new Set(row.map((l) => l.summary)).size > 1), "summaries of different lengths");
  for (const row of shared) {
    const tops = row.map((l) => l.board);
    assert.ok(Math.max(...tops) - Math.min(...tops) <= 1, `boards at ${tops.map(Math.round).join(", ")}`);
  }
  assert.deepEqual(page.errors, []);
});

test("on a phone two lanes stand side by side and a swipe brings the others", async () => {
  const page = await session.open("#race?solvers=hill-climbing,min-conflicts,genetic,simulated-annealing&n=8&seed=2",
    { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  await page.click("#r-start");
  await page.waitForFunction(() => [...document.querySelectorAll(".lane-status")].every((s) => s.textContent !== "running"));
  const boxes = () => page.$$eval(".lane", (lanes) => lanes.map((l) => {
    const r = l.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, width: r.width };
  }));
  const inView = (b) => b.left >= -1 && b.right <= 391;
  const before = await boxes();
  assert.deepEqual(before.map(inView), [true, true, false, false], JSON.stringify(before));
  assert.ok(Math.abs(before[0].top - before[1].top) < 1, "the first two side by side");
  assert.ok(before[0].width > 150, `a lane ${before[0].width} px wide`);
  assert.match(await page.textContent("#r-lanes-hint"), /^Swipe the lanes sideways to see all 4/);
  assert.ok(await page.isVisible("#r-lanes-hint"));
  // The page does not scroll sideways; the lanes' box does, a swipe at a time.
  assert.equal(await scrollsSideways(page), false);
  await page.$eval("#r-lanes", (box) => box.scrollBy({ left: box.clientWidth, behavior: "instant" }));
  await page.waitForFunction(() => {
    const r = document.querySelectorAll(".lane")[3].getBoundingClientRect();
    return r.right <= 391 && r.left >= -1;
  });
  assert.deepEqual((await boxes()).map(inView), [false, false, true, true]);
  assert.deepEqual(page.errors, []);
});

test("on a desktop every lane is in view and no swipe is suggested", async () => {
  const page = await session.open("#race?solvers=hill-climbing,min-conflicts,genetic,simulated-annealing&n=8&seed=2",
    { viewport: { width: 1400, height: 900 } });
  await page.click("#r-start");
  await page.waitForSelector(".lane");
  assert.equal(await page.isVisible("#r-lanes-hint"), false);
  const rights = await page.$$eval(".lane", (lanes) => lanes.map((l) => l.getBoundingClientRect().right));
  assert.ok(rights.every((r) => r <= 1400), JSON.stringify(rights));
  assert.deepEqual(page.errors, []);
});
