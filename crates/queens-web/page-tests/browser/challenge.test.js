// The Queen's Challenge on the page: a locked queen, the exhaustive solvers run to their end
// however long (streamed whole, then sampled, with exact counts), counted in boards examined;
// the challenge table of every lock, equal to the command line's.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";

import { pageSession, queensBinary, queensOn } from "../harness.js";

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
    // The steps shown and the boards counted differ at the end, and the step counter says why.
    assert.match(await page.textContent("#w-step-count"), /^([\d,]+) of \1; from step [\d,]+ each is a sample of many, the boards examined all counted$/);
    // The last sample is told by its own gap, which the status's rate ("one in 32") need not equal.
    assert.doesNotMatch(await page.textContent("#w-narration"), /one step in/);
    // A sampled step is told as one.
    const middle = Math.floor(Number(await page.$eval("#w-timeline", (t) => t.max)) * 0.9);
    await page.$eval("#w-timeline", (t, k) => {
      t.value = String(k);
      t.dispatchEvent(new Event("input"));
    }, middle);
    assert.match(await page.textContent("#w-narration"), /^Step [\d,]+: sampled: the board at [\d,]+, [\d,]+ steps after the one before; the run is too long to send whole/);
    assert.deepEqual(page.errors, []);
  });
}

test("the challenge table of every lock equals queens challenge --json, the locked square's row marked", { timeout: 300_000 }, async () => {
  const n = 6;
  const expected = JSON.parse(execFileSync(queensBinary(), ["challenge", String(n), "--json"]));
  const page = await session.open(`#watch?solver=row-brute-force&n=${n}&fix=b1`);
  await page.click("#w-challenge > summary");
  await page.click("#ch-run");
  await page.waitForFunction(() => /^All [\d,]+ searches finished/.test(document.querySelector("#ch-status").textContent)
    || document.querySelector("#ch-error").textContent, null, { timeout: 240_000 });
  assert.equal(await page.textContent("#ch-error"), "");
  // The summary: the CLI's rows, figure for figure.
  const solvers = await page.$$eval("#ch-locks thead th", (ths) => ths.slice(1).map((th) => th.firstChild.textContent));
  assert.deepEqual(solvers, expected.rows.map((r) => r.solver));
  const summary = await page.$$eval("#ch-summary tbody tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  const number = (v) => v.toLocaleString("en-US", { maximumFractionDigits: 1 });
  assert.deepEqual(summary, [
    ["solved", ...expected.rows.map((r) => `${r.solved}/${r.runs}`)],
    ["min", ...expected.rows.map((r) => number(r.min))],
    ["median", ...expected.rows.map((r) => number(r.median))],
    ["mean", ...expected.rows.map((r) => number(r.mean))],
    ["max", ...expected.rows.map((r) => number(r.max))],
  ]);
  // Each solver's summary stands above its column of locks, at both widths.
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    const edges = (table) => page.$$eval(`${table} thead th`, (ths) => ths.map((th) => {
      const box = th.getBoundingClientRect();
      return [Math.round(box.left), Math.round(box.right)];
    }));
    assert.deepEqual(await edges("#ch-summary"), await edges("#ch-locks"), `columns at ${viewport.width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  // Every lock's row: the CLI's runs, square by square.
  const locks = await page.$$eval("#ch-locks tbody tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.equal(locks.length, n * n);
  const cliRows = new Map();
  for (const lock of expected.locks) {
    if (!cliRows.has(lock.square)) cliRows.set(lock.square, [lock.square]);
    const count = lock.nodes.toLocaleString("en-US");
    cliRows.get(lock.square).push(lock.solved ? count : `${count}, no solution`);
  }
  assert.deepEqual(locks, [...cliRows.values()]);
  // Beside the table, a heat map: each square shaded by what the chosen solver examined with its
  // queen locked there, darker for more (a log scale), and the count written on the square.
  const parse = (t) => Number.parseFloat(t) * ({ k: 1e3, M: 1e6, G: 1e9 }[t.at(-1)] || 1);
  for (const solver of ["backtracking", "brute-force"]) {
    await page.selectOption("#ch-heat-solver", solver);
    const nodes = new Map(expected.locks.filter((l) => l.solver === solver).map((l) => [l.square, l.nodes]));
    const shades = await page.$$eval("#ch-heat .cell", (cells) => cells.map((c) => {
      const [r, g, b] = getComputedStyle(c).backgroundColor.match(/\d+/g).map(Number);
      return { square: c.dataset.square, light: 0.2126 * r + 0.7152 * g + 0.0722 * b };
    }));
    assert.equal(shades.length, n * n);
    shades.sort((a, b) => nodes.get(a.square) - nodes.get(b.square));
    for (let i = 1; i < shades.length; i++) {
      assert.ok(shades[i].light <= shades[i - 1].light + 1e-9, `${solver}: ${shades[i].square} costs more than ${shades[i - 1].square} but is paler`);
    }
    assert.ok(shades[0].light - shades.at(-1).light > 100, `${solver}: from pale to deep`);
    // A lock with no solution is crossed and named so.
    const crossed = await page.$$eval("#ch-heat .cell.no-solution", (cells) => cells.map((c) => c.dataset.square).sort());
    assert.deepEqual(crossed, expected.locks.filter((l) => l.solver === solver && !l.solved).map((l) => l.square).sort());
    if (crossed.length) assert.match(await page.$eval(`#ch-heat [data-square="${crossed[0]}"]`, (c) => c.getAttribute("aria-label")), /no solution with a queen locked here/);
    const written = await page.$$eval("#ch-heat .overlay text.number", (texts) => texts.map((t) => t.textContent));
    assert.equal(written.length, n * n, `${solver}: a count on every square`);
    const counts = [...nodes.values()].sort((a, b) => a - b);
    const read = written.map(parse).sort((a, b) => a - b);
    read.forEach((v, i) => assert.ok(Math.abs(v - counts[i]) <= 0.05 * counts[i], `${solver}: ${v} written for ${counts[i]}`));
  }
  // The locked square's row is marked, and is the one seen.
  assert.equal(await page.$eval("#ch-locks tr[aria-current]", (tr) => tr.dataset.square), "b1");
  // Clicking a row locks its square on the board.
  await page.click("#ch-locks tr[data-square='c4']");
  assert.deepEqual(await queensOn(page, "#w-board"), ["c4"]);
  assert.equal(await page.$eval("#ch-locks tr[aria-current]", (tr) => tr.dataset.square), "c4");
  assert.match(await page.evaluate(() => location.hash), /fix=c4/);
  // So does a click on the heat map.
  await page.click("#ch-heat [data-square='d2']");
  assert.deepEqual(await queensOn(page, "#w-board"), ["d2"]);
  assert.deepEqual(page.errors, []);
});
