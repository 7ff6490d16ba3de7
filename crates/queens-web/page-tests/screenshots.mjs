// Regenerates the screenshots in docs/: every view on a laptop screen (NAME.png) and on a phone
// (NAME-phone.png), with its results shown, and a big board; then, on a laptop screen, the
// genetic algorithm's population, the Queen's Challenge table and each of the original's
// experiments as the Lab's presets draw them (docs/views/). Run from crates/queens-web after
// `cargo build --release -p queens-cli`, with the release server (the presets make thousands of
// runs): `QUEENS_BIN=../../target/release/queens npm run screenshots`.

import path from "node:path";
import { fileURLToPath } from "node:url";

import { SMALL_SWEEP, launchBrowser, openPage, startServer } from "./harness.js";

const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../docs");

const WIDTHS = {
  "": { viewport: { width: 1280, height: 900 } },
  "-phone": { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
};

const settledWatch = (page) => page.waitForFunction(() => document.querySelector("#w-status").textContent.startsWith("solved")
  && document.querySelector("#w-play").textContent === "Play");

/** Each shot: its file name, the link it opens, and what happens before the picture. */
const SHOTS = [
  ["configure", "#configure?n=8&q=d1,e7,b6", async (page) => {
    await page.waitForSelector("#cfg-solvable.yes, #cfg-solvable.no");
    await page.click('#cfg-board [data-square="e2"]');
    await page.waitForTimeout(200);
  }],
  ["configure-big", "#configure?n=64&q=a1,c2", async (page) => {
    await page.waitForSelector("#cfg-solvable:not(.maybe)");
  }],
  ["watch", "#watch?solver=min-conflicts&n=12&seed=4&step=3", settledWatch],
  ["race", "#race?solvers=hill-climbing,optimized-hill-climbing,simulated-annealing&n=10&seed=2&run=1", async (page) => {
    await page.waitForFunction(() => [...document.querySelectorAll(".lane-status")].length === 3
      && [...document.querySelectorAll(".lane-status")].every((s) => s.textContent !== "running"));
    await page.click("#r-end");
  }],
  ["lab", SMALL_SWEEP, async (page) => {
    await page.waitForSelector("#x-charts svg.heat");
    await page.waitForSelector(".sample svg");
    await page.evaluate(() => document.querySelector("#x-status").scrollIntoView());
  }],
];

/** Scrolls `selector` to the top of the window, so that the picture starts with it. */
const scrollTo = (page, selector) => page.$eval(selector, (e) => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 60));

/** A Lab preset run to its end, its charts in view. */
const preset = (id) => [`lab-${id}`, `#lab?preset=${id}`, async (page) => {
  await page.click(`button[data-preset="${id}"]`);
  await page.waitForFunction(() => / cells?, in [\d.]+ s\.$/.test(document.querySelector("#x-status").textContent), null, { timeout: 600_000 });
  await scrollTo(page, "#x-charts");
}];

/** Laptop-screen views of the features a teacher shows: docs/views/NAME.png. */
const VIEWS = [
  ["watch-genetic-population", "#watch?solver=genetic&n=8&seed=4&step=40", async (page) => {
    await page.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent));
    await scrollTo(page, "#w-population");
  }],
  ["watch-genetic-breeding", "#watch?solver=genetic&n=8&seed=4&step=40", async (page) => {
    await page.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent));
    await scrollTo(page, "#w-population .crossover");
  }],
  ["watch-genetic-6x10", "#watch?solver=genetic&size=6x10&m=6&seed=1&run=1", async (page) => {
    await page.waitForFunction(() => /^solved/.test(document.querySelector("#w-status").textContent));
    await page.click("#w-end");
  }],
  ["challenge", "#watch?solver=row-brute-force&n=6&fix=b1", async (page) => {
    await page.click("#w-challenge > summary");
    await page.click("#ch-run");
    await page.waitForFunction(() => /^All [\d,]+ searches finished/.test(document.querySelector("#ch-status").textContent), null, { timeout: 300_000 });
    await scrollTo(page, "#w-challenge");
  }],
  ["race-finish", "#race?solvers=hill-climbing,optimized-hill-climbing,min-conflicts,genetic&n=10&seed=2&run=1", async (page) => {
    await page.waitForFunction(() => !document.querySelector("#r-finish").hidden, null, { timeout: 60_000 });
    await page.click("#r-end");
    await scrollTo(page, "#r-lanes");
  }],
  ["race-6x10", "#race?solvers=backtracking,forward-checking,genetic&size=6x10&m=6&seed=1&run=1", async (page) => {
    await page.waitForFunction(() => !document.querySelector("#r-finish").hidden, null, { timeout: 60_000 });
    await page.click("#r-end");
    await scrollTo(page, "#r-lanes");
  }],
  preset("comparison"),
  preset("p-q"),
  preset("q-study"),
  preset("open-question"),
];

const server = await startServer();
const browser = await launchBrowser();
try {
  for (const [suffix, options] of Object.entries(WIDTHS)) {
    for (const [name, hash, ready] of SHOTS) {
      const page = await openPage(browser, server.url, hash, options);
      await ready(page);
      await page.screenshot({ path: path.join(docs, `${name}${suffix}.png`), fullPage: false });
      await page.context().close();
    }
  }
  for (const [name, hash, ready] of VIEWS) {
    const page = await openPage(browser, server.url, hash, WIDTHS[""]);
    await ready(page);
    await page.screenshot({ path: path.join(docs, "views", `${name}.png`), fullPage: false });
    await page.context().close();
  }
} finally {
  await browser.close();
  await server.stop();
}
