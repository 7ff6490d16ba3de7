import { startServer, launchBrowser, openPage } from "./harness.js";
const server = await startServer(); const browser = await launchBrowser();
const WIDTHS = { desk: { viewport: { width: 1400, height: 900 } }, phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 } };
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
async function ended(page) {
  await page.waitForFunction(() => /^(solved|stopped|unsolvable|error)/.test(document.querySelector("#w-status").textContent), null, { timeout: 60000 });
}
const views = {
  "watch-hc": async (page) => { await page.click("#w-start"); await ended(page); await page.$eval("#w-timeline", (t) => { t.value = "2"; t.dispatchEvent(new Event("input")); }); },
  "watch-sa": async (page) => { await page.click("#w-start"); await ended(page); await page.$eval("#w-timeline", (t) => { t.value = "150"; t.dispatchEvent(new Event("input")); }); },
  "watch-bf": async (page) => { await page.click("#w-start"); await ended(page); await page.click("#w-end"); },
  "watch-bt": async (page) => { await page.click("#w-start"); await ended(page); await page.$eval("#w-timeline", (t) => { t.value = "0"; t.dispatchEvent(new Event("input")); }); await page.click("#w-next-event"); },
  "challenge": async (page) => { await page.click("#w-challenge > summary"); await page.click("#ch-run"); await page.waitForFunction(() => /^All/.test(document.querySelector("#ch-status").textContent), null, { timeout: 120000 }); await page.$eval("#w-challenge", (d) => d.scrollIntoView()); },
  "cfg-64-zoom": async (page) => { await page.waitForSelector("#cfg-solvable:not(.maybe)"); await page.click("#cfg-board .zoom-in"); await page.click("#cfg-board .zoom-in"); },
  "race4": async (page) => { await page.click("#r-start"); await wait(2500); await page.click("#r-end"); },
};
const hashes = {
  "watch-hc": "#watch?solver=hill-climbing&n=8&seed=1",
  "watch-sa": "#watch?solver=simulated-annealing&n=8&seed=1&max_iters=300",
  "watch-bf": "#watch?solver=brute-force&n=5",
  "watch-bt": "#watch?solver=backtracking&n=8",
  "challenge": "#watch?solver=row-brute-force&n=6&fix=b1",
  "cfg-64-zoom": "#configure?n=64&q=r1c1",
  "race4": "#race?solvers=hill-climbing,min-conflicts,genetic,simulated-annealing&n=8&seed=2",
};
const only = process.argv.slice(2);
for (const [name, act] of Object.entries(views)) {
  if (only.length && !only.includes(name)) continue;
  for (const [w, options] of Object.entries(WIDTHS)) {
    const page = await openPage(browser, server.url, hashes[name], options);
    await act(page);
    await wait(600);
    await page.screenshot({ path: `/tmp/shots/${name}-${w}.png`, fullPage: name === "challenge" || name === "watch-sa" });
    if (page.errors.length) console.log(name, w, page.errors);
    await page.context().close();
  }
}
await browser.close(); await server.stop();
