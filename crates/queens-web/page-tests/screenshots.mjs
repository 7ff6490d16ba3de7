// Regenerates the screenshots in docs/: every view on a laptop screen (NAME.png) and on a phone
// (NAME-phone.png), with its results shown, and a big board. Run from crates/queens-web after
// `cargo build`: `npm run screenshots`.

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
} finally {
  await browser.close();
  await server.stop();
}
