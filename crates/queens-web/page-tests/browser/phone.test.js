// Every view on 390, 360 and 320 pixel phones: no sideways scrolling, text 12 px at least, targets of
// 44 px, Watch's board and counters on one screen, and on a touch screen a first tap explains a
// square and a second one places a queen.

import assert from "node:assert/strict";
import { test } from "node:test";

import { SMALL_SWEEP, pageSession, queensOn, scrollsSideways, smallThings } from "../harness.js";

const session = pageSession();

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

test("no view scrolls sideways on a phone, with its results shown", async () => {
  for (const width of [390, 360, 320]) {
    const options = { ...PHONE, viewport: { width, height: 800 } };
    const configure = await session.open("#configure?n=12&q=a1", options);
    await configure.waitForSelector("#cfg-solvable.yes");
    assert.equal(await scrollsSideways(configure), false, `Configure at ${width} px`);

    const watch = await session.open("#watch?solver=genetic&n=8&seed=1", options);
    await watch.click("#w-start");
    await watch.waitForFunction(() => !document.querySelector("#w-status").textContent.startsWith("running"));
    assert.equal(await scrollsSideways(watch), false, `Watch at ${width} px`);

    const race = await session.open("#race?solvers=hill-climbing,min-conflicts,genetic&n=8&seed=1", options);
    await race.click("#r-start");
    await race.waitForFunction(() => [...document.querySelectorAll(".lane-status")].every((s) => s.textContent !== "running"));
    assert.equal(await scrollsSideways(race), false, `Race at ${width} px`);

    const lab = await session.open(SMALL_SWEEP, options);
    await lab.waitForSelector("#x-charts svg.heat");
    assert.equal(await scrollsSideways(lab), false, `Lab at ${width} px`);
    for (const page of [configure, watch, race, lab]) {
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  }
});

test("a first tap explains a square, a second places a queen", async () => {
  const page = await session.open("#configure?n=8", PHONE);
  await page.waitForSelector("#cfg-solvable.yes");
  await page.tap('#cfg-board [data-square="c3"]');
  assert.match(await page.$eval("#cfg-reason", (e) => e.textContent), /^c3 is open.*Tap again to place a queen/);
  assert.deepEqual(await queensOn(page, "#cfg-board"), []);
  await page.tap('#cfg-board [data-square="c3"]');
  await page.waitForFunction(() => location.hash.endsWith("q=c3"));
  await page.waitForSelector("#cfg-solvable.yes");
  assert.deepEqual(await queensOn(page, "#cfg-board"), ["c3"]);
  await page.tap('#cfg-board [data-square="d4"]');
  assert.match(await page.$eval("#cfg-reason", (e) => e.textContent), /^d4 is attacked/, "the reason is of the new square");
  assert.match(await page.$eval("#cfg-reason", (e) => e.textContent), /Tap again to place a queen anyway\.$/, "a tap is answered in taps");
  assert.deepEqual(page.errors, []);
});

test("on a phone, text is 12 px at least and every control a 44 px target", async () => {
  const views = [
    ["#configure?n=8&q=a1", (page) => page.waitForSelector("#cfg-solvable.yes")],
    ["#watch?solver=min-conflicts&n=8&seed=4", async (page) => {
      await page.click("#w-start");
      await page.waitForFunction(() => !document.querySelector("#w-status").textContent.startsWith("running"));
    }],
    ["#race?solvers=hill-climbing,min-conflicts,genetic&n=8&seed=1", async (page) => {
      await page.click("#r-start");
      await page.waitForFunction(() => [...document.querySelectorAll(".lane-status")].every((s) => s.textContent !== "running"));
    }],
    [SMALL_SWEEP, async (page) => {
      await page.waitForSelector("#x-charts svg.heat");
    }],
  ];
  for (const [hash, ready] of views) {
    const page = await session.open(hash, PHONE);
    await ready(page);
    const small = await smallThings(page);
    assert.deepEqual(small.text, [], `${hash}: text under 12 px`);
    assert.deepEqual(small.targets, [], `${hash}: targets under 44 px`);
    await page.context().close();
  }
});

test("on a phone, no chart's labels overlap: axis titles, ticks and legends apart", async () => {
  const views = [
    ["#watch?solver=simulated-annealing&n=8&seed=1&max_iters=300&run=1", async (page) => {
      await page.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent));
      await page.click("#w-end");
    }],
    ["#race?solvers=hill-climbing,min-conflicts,genetic&n=8&seed=1&run=1", async (page) => {
      await page.waitForFunction(() => [...document.querySelectorAll(".lane-status")].length === 3
        && [...document.querySelectorAll(".lane-status")].every((s) => s.textContent !== "running"));
      await page.click("#r-end");
    }],
    [SMALL_SWEEP, (page) => page.waitForSelector(".sample svg")],
  ];
  for (const [hash, ready] of views) {
    const page = await session.open(hash, PHONE);
    await ready(page);
    const overlaps = await page.$$eval("svg", (svgs) => svgs.flatMap((svg) => {
      const boxes = [...svg.querySelectorAll("text")].filter((t) => t.textContent.trim())
        .map((t) => ({ text: t.textContent.trim(), box: t.getBoundingClientRect() }))
        .filter(({ box }) => box.width > 0);
      const found = [];
      boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
        const w = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const h = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (w > 1 && h > 1) found.push(`${svg.getAttribute("aria-label") || "chart"}: "${a.text}" over "${b.text}"`);
      }));
      return found;
    }));
    assert.ok(await page.$$eval("svg text", (texts) => texts.length > 10), `${hash}: charts drawn`);
    assert.deepEqual(overlaps, [], hash);
    await page.context().close();
  }
});

test("on a phone, Watch shows the board and its counters on one screen", async () => {
  const page = await session.open("#watch?solver=min-conflicts&n=8&seed=4", PHONE);
  await page.click("#w-start");
  await page.waitForFunction(() => !document.querySelector("#w-status").textContent.startsWith("running"));
  const boxes = await page.evaluate(() => ["#w-board .surface", "#w-score", "#w-pairs", "#w-step-count", "#w-start"]
    .map((selector) => [selector, document.querySelector(selector).getBoundingClientRect().bottom]));
  for (const [selector, bottom] of boxes) assert.ok(bottom <= 844, `${selector} ends at ${bottom} px, below the screen`);
  assert.equal(await page.$eval("#w-settings", (d) => d.open), false, "the settings are folded");
  assert.match(await page.$eval("#w-settings summary", (s) => s.textContent), /min-conflicts, N = 8, seed 4/);
});

test("a table wider than a phone says it scrolls sideways; on a desktop it does not need to", async () => {
  for (const [options, wide] of [[PHONE, true], [{ viewport: { width: 1400, height: 900 } }, false]]) {
    const page = await session.open(SMALL_SWEEP, options);
    await page.waitForSelector("#x-table table");
    const seen = await page.$eval("#x-table", (box) => ({
      wider: box.scrollWidth > box.clientWidth + 1,
      hint: box.nextElementSibling && box.nextElementSibling.classList.contains("scroll-hint") && !box.nextElementSibling.hidden
        ? box.nextElementSibling.textContent : null,
    }));
    assert.equal(seen.wider, wide, `the table is ${wide ? "" : "not "}wider than the screen at ${options.viewport.width} px`);
    if (wide) assert.match(seen.hint ?? "", /scroll it sideways for its other columns/);
    else assert.equal(seen.hint, null);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test("on a phone, Configure folds its rarer controls and a tapped square's whole reason is in the first screen", async () => {
  const page = await session.open("#configure?n=8&q=d1", PHONE);
  await page.waitForSelector("#cfg-solvable:not(.maybe)");
  assert.equal(await page.isVisible("#cfg-solve"), false, "blocking, the heat map and solve are folded");
  assert.equal(await page.$eval("#cfg-more", (b) => b.getAttribute("aria-expanded")), "false");
  const square = await page.$eval('#cfg-board [data-square="e2"]', (c) => {
    const r = c.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
  await page.touchscreen.tap(square.x, square.y);
  await page.waitForFunction(() => /^e2 is attacked by the queen on d1/.test(document.querySelector("#cfg-reason").textContent));
  const reason = await page.$eval("#cfg-reason", (p) => p.getBoundingClientRect().bottom);
  assert.ok(reason <= 844, `the reason ends at ${reason} px, below the screen`);
  await page.click("#cfg-more");
  assert.ok(await page.isVisible("#cfg-solve"), "the fold opens");
  assert.equal(await page.$eval("#cfg-more", (b) => b.getAttribute("aria-expanded")), "true");
  assert.deepEqual(page.errors, []);
  await page.context().close();
  // On a desktop they are all in one row, with no fold to open.
  const desktop = await session.open("#configure?n=8", { viewport: { width: 1400, height: 900 } });
  assert.equal(await desktop.isVisible("#cfg-more"), false);
  const tops = await desktop.$$eval("#cfg-reset, #cfg-block, #cfg-solve", (els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  assert.equal(new Set(tops).size, 1, `one row: ${tops}`);
  await desktop.context().close();
});
