// axe-core on every view, on a desktop and on a phone, each with its results shown: no critical
// or serious violation; the page has one <h1>.

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";

import { SMALL_SWEEP, pageSession } from "../harness.js";

const session = pageSession();
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

const WIDTHS = {
  desktop: { viewport: { width: 1400, height: 900 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};

/** The critical and serious violations axe-core finds on the page, one line each. */
async function violations(page) {
  await page.addScriptTag({ path: axePath });
  const found = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.filter((v) => v.impact === "critical" || v.impact === "serious")
      .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(" ")}: ${v.nodes[0].failureSummary.replaceAll("\n", " ")})`);
  });
  return found;
}

const VIEWS = [
  ["Configure", "#configure?n=8&q=a1,b3", (page) => page.waitForSelector("#cfg-solvable.yes, #cfg-solvable.no")],
  ["Configure, big", "#configure?n=100&q=r1c1", (page) => page.waitForSelector("#cfg-solvable:not(.maybe)")],
  ["Watch", "#watch?solver=min-conflicts&n=12&seed=4", async (page) => {
    await page.click("#w-start");
    await page.waitForFunction(() => !document.querySelector("#w-status").textContent.startsWith("running"));
  }],
  ["Watch, every solution", "#watch?solver=backtracking&n=6&solutions=0&run=1", async (page) => {
    await page.waitForFunction(() => /^solved/.test(document.querySelector("#w-status").textContent));
    await page.evaluate(() => document.querySelectorAll("#watch details").forEach((d) => { d.open = true; }));
  }],
  ["Race", "#race?solvers=hill-climbing,min-conflicts,genetic&n=8&seed=1", async (page) => {
    await page.click("#r-start");
    await page.waitForFunction(() => [...document.querySelectorAll(".lane-status")].every((s) => s.textContent !== "running"));
  }],
  ["Lab", SMALL_SWEEP, async (page) => {
    await page.waitForSelector("#x-charts svg.heat");
  }],
];

for (const [width, options] of Object.entries(WIDTHS)) {
  test(`axe-core finds nothing critical or serious on a ${width}`, async () => {
    const failures = [];
    for (const [name, hash, ready] of VIEWS) {
      const page = await session.open(hash, options);
      await ready(page);
      for (const line of await violations(page)) failures.push(`${name}: ${line}`);
      if (await page.locator("h1").count() !== 1) failures.push(`${name}: not one <h1>`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
    assert.deepEqual(failures, []);
  });
}
