// Every view on 390 and 360 pixel phones: no sideways scrolling, and on a touch screen a first
// tap explains a square and a second one places a queen.

import assert from "node:assert/strict";
import { test } from "node:test";

import { pageSession, queensOn, scrollsSideways } from "../harness.js";

const session = pageSession();

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

test("no view scrolls sideways on a phone, with its results shown", async () => {
  for (const width of [390, 360]) {
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

    const lab = await session.open("#lab", options);
    await lab.click("text=p × q study");
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
  assert.deepEqual(page.errors, []);
});
