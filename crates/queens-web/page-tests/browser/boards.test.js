// Boards as the eye sees them: in Configure, Watch and Race, at N = 8, 16, 64 and 200 (the
// largest each view takes up to that), on a desktop and on a phone, in states with empty rows and
// attacking queens, every square is square and equal to the others, every label is beside its
// own row or below its own column and inside the board's frame, and attack lines end on queens.

import assert from "node:assert/strict";
import { test } from "node:test";

import { boardProblems, colourSeen, pageSession, scrollsSideways } from "../harness.js";

const session = pageSession();

const WIDTHS = {
  desktop: { viewport: { width: 1400, height: 900 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
};

/** Waits until the labels are placed (they follow the board's size on screen). */
async function measured(page, selector) {
  await page.waitForFunction((s) => document.querySelector(`${s} .ranks span`), selector);
  return boardProblems(page, selector);
}

function assertTrue(report, where) {
  assert.deepEqual(report.problems, [], `${where}: ${report.problems.slice(0, 6).join("; ")}`);
}

for (const [width, options] of Object.entries(WIDTHS)) {
  test(`Configure boards are true on a ${width}`, async () => {
    for (const [n, q] of [[8, "d1"], [16, "a1,c2"], [64, "a1"], [200, "a1"]]) {
      const page = await session.open(`#configure?n=${n}&q=${q}`, options);
      await page.waitForFunction(() => !document.querySelector("#cfg-solvable").textContent.endsWith("…")
        && document.querySelector("#cfg-solvable").textContent !== "analysing…");
      const report = await measured(page, "#cfg-board");
      assert.equal(report.n, n);
      assertTrue(report, `Configure N=${n} on a ${width}`);
      assert.equal(await scrollsSideways(page), false, `Configure N=${n} scrolls sideways on a ${width}`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  });

  test(`Watch boards are true on a ${width}, mid-run with empty rows and attack lines`, async () => {
    for (const [solver, n, at] of [["backtracking", 8, 28], ["min-conflicts", 16, 3], ["min-conflicts", 64, 5], ["min-conflicts", 200, 5]]) {
      const page = await session.open(`#watch?solver=${solver}&n=${n}&seed=3${solver === "backtracking" ? "&fix=d1" : ""}`, options);
      await page.click("#w-start");
      await page.waitForFunction(() => !document.querySelector("#w-status").textContent.startsWith("running"));
      await page.$eval("#w-timeline", (input, k) => {
        input.value = String(k);
        input.dispatchEvent(new Event("input"));
      }, at);
      const report = await measured(page, "#w-board");
      assertTrue(report, `Watch ${solver} N=${n} at step ${at} on a ${width}`);
      if (solver === "min-conflicts") assert.ok(report.lines > 0, `Watch ${solver} N=${n}: attack lines drawn at step ${at}`);
      assert.equal(await scrollsSideways(page), false, `Watch N=${n} scrolls sideways on a ${width}`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  });

  test(`Race boards are true on a ${width}, four lanes`, async () => {
    // Backtracking's first solution at N = 64 is 10⁸ steps, so that lane would stream the server's
    // whole event cap: the largest board races four solvers that end within a few thousand.
    for (const [n, solvers] of [[8, "backtracking"], [16, "backtracking"], [64, "simulated-annealing"]]) {
      const page = await session.open(`#race?solvers=${solvers},hill-climbing,min-conflicts,genetic&n=${n}&seed=2`, options);
      await page.click("#r-start");
      await page.waitForFunction(() => [...document.querySelectorAll(".lane-status")].every((s) => s.textContent !== "running"));
      // At the end, the finish table: no sideways scroll beside it, and its caption whole in
      // its box, which scrolls sideways on a phone.
      await page.waitForSelector("#r-finish:not([hidden])");
      assert.equal(await scrollsSideways(page), false, `Race N=${n} at its end scrolls sideways on a ${width}`);
      const [box, caption] = await page.$$eval("#r-finish, #r-finish caption", (boxes) => boxes.map((b) => b.getBoundingClientRect().toJSON()));
      assert.ok(caption.left >= box.left - 1 && caption.right <= box.right + 1, `Race N=${n}: the finish caption (${caption.left}–${caption.right}) is cut by its box (${box.left}–${box.right}) on a ${width}`);
      await page.click("#r-step");
      const lanes = await page.$$eval(".lane .board", (boxes) => boxes.map((_, i) => i));
      assert.equal(lanes.length, 4);
      for (const i of lanes) {
        const report = await measured(page, `.lane:nth-of-type(${i + 1}) .board`);
        assertTrue(report, `Race lane ${i + 1} N=${n} on a ${width}`);
      }
      assert.equal(await scrollsSideways(page), false, `Race N=${n} scrolls sideways on a ${width}`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  });
}

test("a canvas board is walked by the keyboard and names the square it is on", async () => {
  const page = await session.open("#configure?n=100&q=r100c1", WIDTHS.desktop);
  await page.waitForSelector("#cfg-solvable:not(.maybe)");
  await page.focus("#cfg-board canvas");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  const ring = await page.$eval("#cfg-board .focus-ring", (r) => [r.getAttribute("x"), r.getAttribute("y"), getComputedStyle(r).display]);
  assert.deepEqual(ring, ["2", "0", "inline"], "the ring is on r100c3, in the top rank");
  assert.equal(await page.$eval("#cfg-board .visually-hidden", (e) => e.textContent), "r100c3, attacked by r100c1");
  await page.keyboard.press("ArrowDown");
  assert.match(await page.$eval("#cfg-board .visually-hidden", (e) => e.textContent), /^r99c3, /);
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Home");
  assert.equal(await page.$eval("#cfg-board .visually-hidden", (e) => e.textContent), "r100c1, queen");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => !location.hash.includes("q="));
  assert.deepEqual(page.errors, []);
});

test("a lone queen is wide enough to see on every kind of board, in a corner and in the middle", async () => {
  // 200 squares on a phone are under 2 pixels each, 64 about 5: a queen drawn in its square
  // alone is a dot there, and its glyph a pale speck.
  const cases = [
    ["phone", 200, "a1", 0, 0], ["desktop", 200, "r100c100", 99, 99], ["phone", 200, "r200c200", 199, 199],
    ["phone", 64, "a1", 0, 0], ["phone", 64, "r40c32", 31, 39], ["desktop", 64, "r64c64", 63, 63], ["phone", 16, "h9", 7, 8],
  ];
  for (const [width, n, square, col, row] of cases) {
    const page = await session.open(`#configure?n=${n}&q=${square}`, WIDTHS[width]);
    await page.waitForSelector("#cfg-solvable:not(.maybe)");
    const surface = "#cfg-board .surface";
    const seen = await colourSeen(page, surface, "--queen");
    const { edge, squarePx } = await page.$eval(surface, (element, sides) => ({ edge: element.clientLeft, squarePx: element.clientWidth / sides }), n);
    const where = `${square} on a ${width}'s ${n}×${n} board (squares ${squarePx.toFixed(2)} px)`;
    assert.ok(seen, `${where}: no queen is seen`);
    const [wide, tall] = [seen.right - seen.left, seen.bottom - seen.top];
    const size = `the queen is ${wide.toFixed(1)}×${tall.toFixed(1)} px`;
    assert.ok(wide >= 2.95 && tall >= 2.95, `${where}: ${size}`);
    // A disc where the square is small, the glyph within its square where it is not.
    assert.ok(wide <= Math.max(6, squarePx) && tall <= Math.max(6, squarePx), `${where}: ${size}`);
    // On its square (a disc on an edge square is moved in by under two squares to show whole).
    const centre = [((seen.left + seen.right) / 2 - edge) / squarePx, n - ((seen.top + seen.bottom) / 2 - edge) / squarePx];
    assert.ok(Math.abs(centre[0] - (col + 0.5)) < 2 && Math.abs(centre[1] - (row + 0.5)) < 2, `${where}: centred at ${centre}`);
    // The legend shows a queen as the board does: a disc (it fills about 0.75 of its box) where
    // the board draws discs, the glyph (about 0.35) where it draws glyphs.
    const discs = await page.$eval("#cfg-board", (board) => board.matches(".specks, .compact"));
    const legend = await colourSeen(page, "#configure .legend .swatch.q", "--queen");
    assert.ok(legend, `${where}: the legend's queen is not seen`);
    assert.equal(legend.filled > 0.6, discs, `${where}: the board draws ${discs ? "discs" : "glyphs"}, the legend's queen fills ${legend.filled.toFixed(2)} of its box`);
    if (n === 64 && width === "phone") {
      // Zoomed in until the squares are large, the queen is its glyph again.
      assert.equal(await page.$eval("#cfg-board", (board) => board.classList.contains("specks")), true, `${where}: drawn as a disc`);
      await page.click("#cfg-board .zoom-in");
      await page.click("#cfg-board .zoom-in");
      await page.waitForFunction(() => !document.querySelector("#cfg-board").classList.contains("specks"));
      const glyph = await page.$eval("#cfg-board .cell.q", (cell) => [getComputedStyle(cell, "::after").content, cell.getBoundingClientRect().width]);
      assert.ok(glyph[0] === '"♛"' && glyph[1] >= 12, `${where}, zoomed in: the queen is ${glyph[0]} in a ${glyph[1]} px square`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test("a square's name says its queen and status", async () => {
  const page = await session.open("#configure?n=8&q=a1,b3", WIDTHS.desktop);
  await page.waitForSelector("#cfg-solvable.no, #cfg-solvable.yes");
  const names = await page.$$eval("#cfg-board [data-square]", (cells) => Object.fromEntries(cells.map((c) => [c.dataset.square, c.getAttribute("aria-label")])));
  assert.equal(names.a1, "a1, queen");
  assert.equal(names.a8, "a8, attacked by a1");
  assert.equal(names.d3, "d3, attacked by b3");
  assert.equal(names.a3, "a3, attacked by b3, a1");
  assert.match(Object.values(names).find((name) => /open|dead/.test(name)), /^[a-h][1-8], (open|dead: in no completion)$/);
});
