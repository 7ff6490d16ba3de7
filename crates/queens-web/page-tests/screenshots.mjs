// Regenerates the README's screenshots in docs/: each view on a laptop screen and Watch on a
// phone. Run from crates/queens-web after `cargo build`: `npm run screenshots`.

import path from "node:path";
import { fileURLToPath } from "node:url";

import { launchBrowser, openPage, startServer } from "./harness.js";

const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../docs");
const server = await startServer();
const browser = await launchBrowser();
try {
  const shot = (page, name) => page.screenshot({ path: path.join(docs, name), fullPage: false });

  const configure = await openPage(browser, server.url, "#configure?n=8&q=d1,e7,b6");
  await configure.waitForSelector("#cfg-solvable.yes, #cfg-solvable.no");
  await configure.click('#cfg-board [data-square="e2"]');
  await configure.waitForTimeout(200);
  await shot(configure, "configure.png");

  const watch = await openPage(browser, server.url, "#watch?solver=min-conflicts&n=12&seed=4");
  await watch.click("#w-start");
  await watch.waitForFunction(() => document.querySelector("#w-status").textContent.startsWith("solved"));
  await watch.fill("#w-timeline", "3");
  await watch.dispatchEvent("#w-timeline", "input");
  await shot(watch, "watch.png");

  const race = await openPage(browser, server.url, "#race?solvers=hill-climbing,optimized-hill-climbing,simulated-annealing&n=10&seed=2");
  await race.click("#r-start");
  await race.waitForFunction(() => [...document.querySelectorAll(".lane-status")].every((s) => s.textContent !== "running"));
  await race.click("#r-end");
  await shot(race, "race.png");

  const lab = await openPage(browser, server.url, "#lab");
  await lab.click("text=p × q study");
  await lab.waitForSelector("#x-charts svg.heat");
  await lab.waitForSelector(".sample svg");
  await lab.evaluate(() => document.querySelector("#x-status").scrollIntoView());
  await shot(lab, "lab.png");

  const phone = await openPage(browser, server.url, "#watch?solver=optimized-hill-climbing&n=8&seed=1", {
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  await phone.click("#w-start");
  await phone.waitForFunction(() => document.querySelector("#w-status").textContent.startsWith("solved"));
  await phone.click("#w-end");
  await shot(phone, "watch-phone.png");
} finally {
  await browser.close();
  await server.stop();
}
