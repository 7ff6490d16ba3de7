// Configure in headless Chromium: clicks and the keyboard place queens, blocked squares are
// explained before anything is placed, the heat map draws, and "Solve this position" opens
// Watch with the queens locked.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { pageSession, queensBinary, queensOn } from "../harness.js";

const session = pageSession();
const data = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../data/completion");

const analysed = (page) => page.waitForSelector("#cfg-solvable.yes, #cfg-solvable.no");
const text = (page, selector) => page.$eval(selector, (e) => e.textContent);

test("placing queens, explaining a blocked square, undo and the URL", async () => {
  const page = await session.open("#configure?n=8");
  await analysed(page);
  await page.click('#cfg-board [data-square="d1"]');
  await page.waitForFunction(() => location.hash === "#configure?n=8&q=d1");
  await analysed(page);
  assert.deepEqual(await queensOn(page, "#cfg-board"), ["d1"]);
  await page.click('#cfg-board [data-square="e2"]');
  assert.match(await text(page, "#cfg-reason"), /^e2 is attacked by .*d1/);
  assert.deepEqual(await queensOn(page, "#cfg-board"), ["d1"], "a first click on a blocked square only explains");
  assert.equal((await page.$$("#cfg-board .cell.hl-source")).length, 1);
  await page.click("#cfg-undo");
  await analysed(page);
  assert.deepEqual(await queensOn(page, "#cfg-board"), []);
  await page.click("#cfg-redo");
  await page.waitForFunction(() => location.hash === "#configure?n=8&q=d1");
  await page.click("#tabs >> text=Watch");
  await page.waitForSelector("#watch:not([hidden])");
  await page.goBack();
  await page.waitForSelector("#configure:not([hidden])");
  assert.deepEqual(await queensOn(page, "#cfg-board"), ["d1"], "back returns to the same position");
  await page.goForward();
  await page.waitForSelector("#watch:not([hidden])");
  assert.deepEqual(page.errors, []);
});

test("the keyboard walks the board and places a queen", async () => {
  const page = await session.open("#configure?n=6");
  await analysed(page);
  await page.focus('#cfg-board [data-square="a6"]');
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowDown");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.square), "b5");
  assert.match(await text(page, "#cfg-reason"), /^b5 is dead/, "focus explains the square");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => location.hash.endsWith("q=b6"));
  await analysed(page);
  const placed = await page.$$eval("#cfg-board .cell.q:not(.q-forced)", (cells) => cells.map((c) => c.dataset.square));
  assert.deepEqual(placed, ["b6"]);
  // 6×6 has one solution with a queen on b6: the other five are forced.
  assert.equal((await page.$$("#cfg-board .cell.q-forced")).length, 5);
  assert.deepEqual(page.errors, []);
});

test("the heat map colours open squares by their completions, at N = 8 and N = 12", async () => {
  for (const n of [8, 12]) {
    const page = await session.open(`#configure?n=${n}&q=b1`);
    await analysed(page);
    await page.check("#cfg-heat");
    const heated = await page.$$eval("#cfg-board .cell.heat", (cells) => cells.map((c) => c.style.background));
    assert.ok(heated.length > 0, `no heat at N = ${n}`);
    assert.ok(heated.every((b) => b.startsWith("rgb")));
    assert.ok(new Set(heated).size > 1, "the heat varies");
    assert.equal(await page.$eval(".heat-scale", (e) => e.hidden), false);
    assert.deepEqual(page.errors, []);
  }
});

test("Solve this position opens Watch with the placed and forced queens locked", async () => {
  const page = await session.open("#configure?n=10&q=a1,e2");
  await analysed(page);
  const placedAndForced = await queensOn(page, "#cfg-board");
  assert.ok(placedAndForced.length >= 2);
  await page.click("#cfg-solve");
  await page.waitForFunction(() => location.hash.startsWith("#watch?"));
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /solver=completion/, "a position is solved by the server's choice for positions");
  assert.match(hash, /fix=a1,e2/);
  const locked = await page.$$eval("#w-board .cell.q-locked", (cells) => cells.map((c) => c.dataset.square).sort());
  assert.deepEqual(locked, placedAndForced);
  await page.click("#w-start");
  await page.waitForFunction(() => document.querySelector("#w-status").textContent.startsWith("solved"));
  await page.click("#w-end");
  const queens = await queensOn(page, "#w-board");
  assert.equal(queens.length, 10);
  assert.ok(queens.includes("a1") && queens.includes("e2"));
  await page.goBack();
  await page.waitForSelector("#configure:not([hidden])");
  assert.deepEqual(page.errors, []);
});

test("a position's few completions are linked to, and Watch draws each of them with its queens locked", async () => {
  // The command line's listing of d1's completions at N = 8, each as its squares.
  const listed = execFileSync(queensBinary(), ["solve", "8", "--all", "--fix", "d1", "--format", "perm"], { encoding: "utf8" })
    .trim().split("\n").map((line) => line.split(" ").map((row, col) => `${row},${col}`).sort().join(" ")).sort();
  assert.equal(listed.length, 18);
  const page = await session.open("#configure?n=8&q=d1");
  await analysed(page);
  assert.equal(await text(page, "#cfg-list"), "See the 18 completions, each drawn");
  await page.click("#cfg-list");
  await page.waitForFunction(() => location.hash.startsWith("#watch?"));
  assert.match(await page.evaluate(() => location.hash), /fix=d1.*solutions=0.*run=1/);
  await page.waitForFunction(() => /^18 solutions found,/.test(document.querySelector("#w-found-note")?.textContent), null, { timeout: 60000 });
  const drawn = await page.$$eval("#w-found-list .found-item", (items) => items.map((item) => [...item.querySelectorAll("circle")].map((c) => c.dataset.square).sort().join(" ")));
  assert.deepEqual(drawn.sort(), listed, "each completion drawn once");
  // With a queen locked the turns of the board change the problem: no kinds are told.
  assert.equal(await page.$$eval("#w-found-list .found-kind", (kinds) => kinds.length), 0);
  // The locked queen is drawn as locked on every small board, as on the big one, and no other.
  const locked = await page.$$eval("#w-found-list .found-item", (items) => items.map((item) => [...item.querySelectorAll("circle.locked")].map((c) => c.dataset.square).join(" ")));
  assert.deepEqual(locked, Array(18).fill("0,3"));
  // Too many to draw (724 at N = 10), none left, or one alone: no link.
  for (const [hash, why] of [["#configure?n=10", "724 completions"], ["#configure?n=8&q=a1,c2", "none"], ["#configure?n=4&q=b1", "one"]]) {
    await page.goto(`${session.server.url}${hash}`);
    await analysed(page);
    assert.equal(await page.isVisible("#cfg-list"), false, `${hash}: ${why}`);
  }
  assert.deepEqual(page.errors, []);
});

test("a large board is a compact canvas that still takes clicks", async () => {
  const page = await session.open("#configure?n=100");
  await page.waitForSelector("#cfg-board canvas");
  await analysed(page);
  const box = await page.$eval("#cfg-board canvas", (c) => {
    const r = c.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  // The square r1c1 is the bottom-left corner.
  await page.mouse.click(box.x + box.width / 200, box.y + box.height - box.height / 200);
  await page.waitForFunction(() => location.hash.endsWith("q=r1c1"));
  await analysed(page);
  assert.deepEqual(page.errors, []);
});

test("a reason the server failed to give is told, and asked again when the square is", async () => {
  // Past 32×32 the reasons are asked for square by square; the first such request fails.
  const page = await session.open("#configure?n=40&q=r1c1");
  await analysed(page);
  let failures = 1;
  await page.route("**/api/configure", (route) => {
    if (failures > 0 && route.request().postData().includes("explain")) {
      failures -= 1;
      return route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "the server is busy" }) });
    }
    return route.continue();
  });
  await page.hover('#cfg-board [data-square="r2c2"]');

  await page.waitForFunction(() => document.querySelector("#cfg-reason").textContent.includes("could not give the reason"));
  assert.match(await page.textContent("#cfg-reason"), /^r2c2 is attacked; the server could not give the reason\. The server is busy\. Choose the square again to ask once more\.$/);
  await page.hover('#cfg-board [data-square="r5c3"]');
  await page.hover('#cfg-board [data-square="r2c2"]');
  await page.waitForFunction(() => /^r2c2 is attacked by /.test(document.querySelector("#cfg-reason").textContent));
  assert.match(await page.textContent("#cfg-reason"), /r1c1/);
  assert.deepEqual(page.errors.filter((e) => !e.includes("503")), []);
});

test("a dead square can be explained by a few cases, each drawn", async () => {
  const page = await session.open("#configure?n=8&q=d1,e7");
  await analysed(page);
  await page.hover('#cfg-board [data-square="a2"]');
  assert.match(await page.textContent("#cfg-reason"),
    /^a2 is dead: a queen here forces queens on f4, b5 and g6, which leaves row 3 only c3 and h3, and each fails: c3 would leave row 8 empty; h3 would leave row 8 empty\.$/);
  const chain = await page.$$eval("#cfg-board .cell.hl-chain", (cells) => cells.map((c) => c.dataset.square).sort());
  assert.deepEqual(chain, ["b5", "c3", "f4", "g6", "h3"]);
  assert.equal(await page.$$eval("#cfg-board .cell.hl-line", (cells) => cells.filter((c) => c.dataset.row === "2").length), 8, "row 3 shaded");
  assert.deepEqual(page.errors, []);
});

test("a case that fails by cases of its own is told in brackets and its squares drawn", async () => {
  const page = await session.open("#configure?n=8&q=b1");
  await analysed(page);
  await page.hover('#cfg-board [data-square="e5"]');
  assert.match(await page.textContent("#cfg-reason"),
    /^e5 is dead: a queen here leaves row 2 only d2, f2 and g2, and each fails: d2 would leave row 7 only a7 and f7 \(and each of those fails: a7 would .*; f7 would .*\); f2 would .*; g2 would .*\.$/);
  const chain = await page.$$eval("#cfg-board .cell.hl-chain", (cells) => cells.map((c) => c.dataset.square).sort());
  assert.deepEqual(chain, ["a7", "d2", "f2", "f7", "g2"]);
  assert.deepEqual(page.errors, []);
});

test("squares are blocked by Shift-click and the mode, drawn, named in reasons, and kept in the URL", async () => {
  // Nauck's position of 1850: b4 and d5 have two completions.
  const page = await session.open("#configure?n=8&q=b4,d5");
  await analysed(page);
  assert.match(await text(page, "#cfg-summary"), /^2 completions/);
  // c1 is in one of them: blocking it leaves the other, whose queens are then forced.
  await page.click('#cfg-board [data-square="c1"]', { modifiers: ["Shift"] });
  await page.waitForFunction(() => location.hash === "#configure?n=8&q=b4,d5&b=c1");
  await page.waitForFunction(() => document.querySelector("#cfg-summary").textContent.startsWith("1 completion"));
  assert.equal(await page.$eval('#cfg-board [data-square="c1"]', (c) => c.classList.contains("blocked")), true);
  assert.equal((await page.$$("#cfg-board .cell.q-forced")).length, 6);
  assert.match(await text(page, "#cfg-summary"), /1 blocked/);
  // The blocked square is drawn unlike a dead one: dark, and no queen glyph.
  const look = await page.$eval('#cfg-board [data-square="c1"]', (c) => getComputedStyle(c).backgroundImage);
  assert.match(look, /repeating-linear-gradient/);
  // A first click on a blocked square explains it and places nothing.
  await page.click('#cfg-board [data-square="c1"]');
  assert.match(await text(page, "#cfg-reason"), /^c1 is blocked: no queen may stand here/);
  assert.deepEqual((await queensOn(page, "#cfg-board")).filter((q) => ["b4", "d5"].includes(q)), ["b4", "d5"]);
  // The mode blocks by plain clicks (and unblocks); undo restores the block.
  await page.click("#cfg-block");
  assert.equal(await page.$eval("#cfg-block", (b) => b.getAttribute("aria-pressed")), "true");
  await page.click('#cfg-board [data-square="c1"]');
  await page.waitForFunction(() => location.hash === "#configure?n=8&q=b4,d5");
  await analysed(page);
  await page.click("#cfg-undo");
  await page.waitForFunction(() => location.hash === "#configure?n=8&q=b4,d5&b=c1");
  await page.click("#cfg-block");
  assert.deepEqual(page.errors, []);
});

test("a dead square is explained by the blocked squares that empty its line, which are marked", async () => {
  // Row 3 of 6×6 blocked but for c3 and d3: a queen on c2 attacks both (and b3).
  const page = await session.open("#configure?n=6&b=a3,b3,e3,f3");
  await analysed(page);
  await page.hover('#cfg-board [data-square="c2"]');
  assert.equal(await text(page, "#cfg-reason"),
    "c2 is dead: a queen here would leave row 3 with no free square: the queens attack all of it but a3, e3 and f3, which are blocked.");
  const sources = await page.$$eval("#cfg-board .cell.hl-source", (cells) => cells.map((c) => c.dataset.square).sort());
  assert.deepEqual(sources, ["a3", "e3", "f3"]);
  assert.equal(await page.$$eval("#cfg-board .cell.hl-line", (cells) => cells.filter((c) => c.dataset.row === "2").length), 6, "row 3 shaded");
  assert.deepEqual(page.errors, []);
});

test("an instance file opens with its blocked squares, and a bad one says its line", async () => {
  const page = await session.open("#configure?n=8");
  await analysed(page);
  await page.click("#cfg-instance-box summary");
  await page.fill("#cfg-diagonals", "5");
  await page.setInputFiles("#cfg-instance", path.join(data, "diag-10-4-66.param"));
  await page.waitForFunction(() => location.hash.startsWith("#configure?n=10&b="));
  await analysed(page);
  // Its first five diagonals leave no completion (data/completion/published.txt: 10 66 5 0).
  assert.equal(await text(page, "#cfg-solvable"), "no solution left");
  assert.ok((await page.$$("#cfg-board .cell.blocked")).length > 10);
  await page.setInputFiles("#cfg-instance", { name: "bad.param", mimeType: "text/plain", buffer: Buffer.from("letting n = 8\nletting blocks = [[1, 9]]\n") });
  await page.waitForFunction(() => !document.querySelector("#cfg-error").hidden);
  assert.match(await text(page, "#cfg-error"), /^bad\.param: Line 2: \[1, 9\] is off the 8×8 board/);
  // The refusal is the browser's log of the 400, and nothing else.
  assert.ok(page.errors.length === 1 && /status of 400/.test(page.errors[0]), String(page.errors));
});

test("Solve this position with blocked squares watches the completion search keep off them", async () => {
  const page = await session.open("#configure?n=8&q=b4,d5&b=c1");
  await analysed(page);
  await page.click("#cfg-solve");
  await page.waitForFunction(() => location.hash.startsWith("#watch?"));
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /solver=completion/);
  assert.match(hash, /block=c1/);
  assert.equal(await page.$eval('#w-board [data-square="c1"]', (c) => c.classList.contains("blocked")), true);
  const blockedEntry = "#watch .compact-legend li:has(.swatch.blocked)";
  assert.equal(await page.isVisible(blockedEntry), true, "the legend says what the dark square is");
  await page.click("#w-start");
  await page.waitForFunction(() => document.querySelector("#w-status").textContent.startsWith("solved"));
  await page.click("#w-end");
  const queens = await queensOn(page, "#w-board");
  assert.equal(queens.length, 8);
  assert.ok(!queens.includes("c1"));
  // On a board without blocked squares the legend has no such entry on screen.
  await page.goto(`${session.server.url}#watch?solver=min-conflicts&n=8`);
  await page.waitForSelector("#watch:not([hidden])");
  assert.equal(await page.isVisible(blockedEntry), false, "no blocked square, no entry for one");
  assert.deepEqual(page.errors, []);
});

test("a large board's reasons are asked for when a square is explained", async () => {
  // Beyond 32×32 the analysis carries statuses only; a square's reason comes when it is shown.
  const page = await session.open("#configure?n=60&q=r1c4");
  await analysed(page);
  const requests = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/configure")) requests.push(JSON.parse(request.postData()));
  });
  await page.click('#cfg-board [data-square="r1c40"]');
  await page.waitForFunction(() => /^r1c40 is attacked by the queen on r1c4 along its row\./.test(document.querySelector("#cfg-reason").textContent));
  assert.deepEqual(requests.map((r) => r.explain), [[{ row: 0, col: 39 }]]);
  assert.ok(requests.every((r) => r.compact === true));
  assert.equal((await page.$$("#cfg-board .cell.hl-source")).length, 1, "the attacker is marked");
  assert.deepEqual(page.errors, []);
});

test("an answer without the reason asked for is told, not waited for", async () => {
  const page = await session.open("#configure?n=40&q=r1c1");
  await analysed(page);
  await page.route("**/api/configure", async (route) => {
    if (!route.request().postData().includes("explain")) return route.continue();
    const answer = await (await route.fetch()).json();
    return route.fulfill({ contentType: "application/json", body: JSON.stringify({ ...answer, reasons: {} }) });
  });
  await page.hover('#cfg-board [data-square="r2c2"]');
  await page.waitForFunction(() => document.querySelector("#cfg-reason").textContent.includes("could not give the reason"));
  assert.match(await text(page, "#cfg-reason"), /^r2c2 is attacked; the server could not give the reason\. Its answer named no reason for this square\. Choose the square again to ask once more\.$/);
  assert.deepEqual(page.errors, []);
});

test("a reason asked for a square pointed at while another is pinned arrives, on every large board", async () => {
  // Past 32×32 reasons come from the server square by square. The answer for a square pointed
  // at must reach the reason line even while another square is pinned; on a canvas board (past
  // 64×64) the keyboard points.
  for (const n of [40, 64, 100]) {
    const page = await session.open(`#configure?n=${n}&q=r1c1`);
    await analysed(page);
    const name = (row, col) => `r${row}c${col}`;
    if (n <= 64) {
      await page.click(`#cfg-board [data-square="${name(1, n)}"]`);
      await page.waitForFunction((s) => new RegExp(`^${s} is attacked by `).test(document.querySelector("#cfg-reason").textContent), name(1, n));
      await page.hover(`#cfg-board [data-square="${name(2, 2)}"]`);
    } else {
      const box = await page.$eval("#cfg-board canvas", (c, n) => {
        const r = c.getBoundingClientRect();
        return { x: r.x, y: r.y, side: r.width / n };
      }, n);
      await page.mouse.click(box.x + (n - 0.5) * box.side, box.y + (n - 0.5) * box.side);
      await page.waitForFunction((s) => new RegExp(`^${s} is attacked by `).test(document.querySelector("#cfg-reason").textContent), name(1, n));
      // The keyboard points at squares of a canvas: r1c1, r2c1, then r2c2.
      for (const key of ["Home", "ArrowUp", "ArrowRight"]) await page.keyboard.press(key);
    }
    await page.waitForFunction(
      () => /^r2c2 is attacked by /.test(document.querySelector("#cfg-reason").textContent),
      undefined,
      { timeout: 10_000 },
    );
    assert.match(await text(page, "#cfg-reason"), /r1c1/, `N = ${n}`);
    assert.deepEqual(page.errors, [], `N = ${n}`);
  }
});

test("the marks of a reason are in a legend, in the colours the board draws them", async () => {
  // Row 3 of 6×6 blocked but for c3 and d3: a queen on c2 attacks both, a chain of reasons.
  const page = await session.open("#configure?n=6&b=a3,b3,e3,f3");
  await analysed(page);
  await page.hover('#cfg-board [data-square="c2"]');
  await page.waitForSelector("#cfg-board .cell.hl-self");
  const legend = await page.$$eval("#cfg-reason-legend .swatch", (swatches) => Object.fromEntries(swatches.map((s) => {
    const mark = [...s.classList].find((c) => c.startsWith("hl-"));
    const style = getComputedStyle(s);
    return [mark, style.outlineColor + style.boxShadow];
  })));
  assert.deepEqual(Object.keys(legend).sort(), ["hl-chain", "hl-line", "hl-self", "hl-source"]);
  for (const mark of ["hl-self", "hl-source"]) {
    const drawn = await page.$eval(`#cfg-board .cell.${mark}`, (cell) => getComputedStyle(cell).outlineColor);
    assert.ok(legend[mark].startsWith(drawn), `${mark}: the legend's ${legend[mark]} against the board's ${drawn}`);
  }
  assert.deepEqual(page.errors, []);
});
