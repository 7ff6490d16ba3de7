// The numbers a learner asks for, read off Watch and held against the command line's trace of
// the same run (same solver, board and seed): a climb's gain, annealing's temperature and the
// chance of each worse move, brute force's attacking pairs and the solution it returns; "Next
// event"; and large boards that zoom and pan, a reason's marks seen on any of them.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";

import { pageSession, queensBinary, runToEnd, scrollsSideways, seek } from "../harness.js";

const session = pageSession();

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** The events of `queens solve ARGS --trace`, one object each. */
function cliTrace(args) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "queens-trace-"));
  const file = path.join(dir, "trace.jsonl");
  try {
    execFileSync(queensBinary(), ["solve", ...args, "--trace", file], { stdio: "pipe" });
  } catch (error) {
    // A run that stops unsolved exits 1; its trace is written all the same.
    if (error.status !== 1) throw error;
  }
  const events = fs.readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line));
  fs.rmSync(dir, { recursive: true });
  return events;
}

const stepsOf = (events) => events.filter((e) => e.type === "step");

const text = (page, selector) => page.$eval(selector, (e) => e.textContent);

/** A number as the narration prints it (two significant digits unless whole or ≥ 100). */
const told = (x) => (Math.abs(x) >= 100 || Number.isInteger(x) ? x.toLocaleString("en-US") : x.toPrecision(2));

test("a climb's narration gives the score before and after, as the command line's trace has them", async () => {
  const steps = stepsOf(cliTrace(["8", "--solver", "hill-climbing", "--seed", "1"]));
  const page = await session.open("#watch?solver=hill-climbing&n=8&seed=1");
  await runToEnd(page);
  assert.equal(Number(await page.$eval("#w-timeline", (t) => t.max)), steps.length);
  let climbs = 0;
  for (const [i, step] of steps.entries()) {
    await seek(page, i + 1);
    const narration = await text(page, "#w-narration");
    if (step.note.kind === "climbed") {
      const { gain } = step.note;
      assert.ok(narration.includes(`score ${step.score - gain} → ${step.score} (+${gain})`), `step ${i + 1}: ${narration}`);
      climbs += 1;
    } else {
      assert.match(narration, /stuck: no single move improves the board/, `step ${i + 1}`);
    }
  }
  assert.ok(climbs > 0);
  assert.deepEqual(page.errors, []);
});

test("annealing charts its temperature and the chance of each worse move, as the trace has them", async () => {
  const steps = stepsOf(cliTrace(["8", "--solver", "simulated-annealing", "--seed", "1", "--max-iters", "300"]));
  const page = await session.open("#watch?solver=simulated-annealing&n=8&seed=1&max_iters=300");
  await runToEnd(page);
  // The charts run up to the step shown: at the end, every step.
  await page.click("#w-end");
  const titles = await page.$$eval("#w-chart svg", (svgs) => svgs.map((svg) => svg.getAttribute("aria-label")));
  assert.deepEqual(titles, ["Temperature at each step", "Chance of each worse move proposed", "Score at each step"]);
  // The three share their x axis, and so their plots' left edge, whatever their y labels.
  const edges = await page.$$eval("#w-chart svg", (svgs) => svgs.map((svg) => Math.round(svg.querySelectorAll("line.axis")[1].getBoundingClientRect().left)));
  assert.equal(new Set(edges).size, 1, `left edges ${edges}`);
  // One dot for each worse proposal, taken or refused, in the two colours of the legend.
  const worse = steps.filter((s) => s.note.loss > 0);
  const dots = await page.$$eval("#w-chart svg:nth-of-type(2) circle.dot", (cs) => cs.map((c) => c.getAttribute("fill")));
  assert.equal(dots.length, worse.length);
  assert.equal(new Set(dots).size, 2, "taken and refused apart");
  // The solver's state at a step: its temperature and the chance its proposal had.
  for (const k of [1, 50, 200]) {
    await seek(page, k);
    const note = steps[k - 1].note;
    const state = await text(page, "#w-state");
    assert.ok(state.startsWith(`temperature T = ${told(note.temperature)}`), `step ${k}: ${state}`);
    if (note.loss > 0) assert.ok(state.includes(`= ${told(note.probability)}`), `step ${k}: ${state}`);
  }
  assert.deepEqual(page.errors, []);
});

test("brute force tells and charts the attacking pairs of each board, and marks the board it returns", async () => {
  const events = cliTrace(["5", "--solver", "brute-force"]);
  const page = await session.open("#watch?solver=brute-force&n=5");
  await runToEnd(page);
  // The attacking pairs of each board examined, counted here from the trace's own boards.
  const board = new Map();
  const pairsOf = () => {
    const queens = [...board.values()];
    let pairs = 0;
    for (let i = 0; i < queens.length; i++) {
      for (let j = i + 1; j < queens.length; j++) {
        const [a, b] = [queens[i], queens[j]];
        if (a.row === b.row || a.col === b.col || Math.abs(a.row - b.row) === Math.abs(a.col - b.col)) pairs += 1;
      }
    }
    return pairs;
  };
  const expected = [];
  for (const e of events) {
    if (e.type === "started") for (const q of e.board) board.set(`${q.row},${q.col}`, q);
    if (e.type === "place") board.set(`${e.square.row},${e.square.col}`, e.square);
    if (e.type === "remove") board.delete(`${e.square.row},${e.square.col}`);
    if (e.type === "move") {
      board.delete(`${e.from.row},${e.from.col}`);
      board.set(`${e.to.row},${e.to.col}`, e.to);
    }
    if (e.type === "step") expected.push(pairsOf());
  }
  assert.equal(Number(await page.$eval("#w-timeline", (t) => t.max)), expected.length);
  for (const k of [1, 2, Math.floor(expected.length / 2), expected.length]) {
    await seek(page, k);
    const pairs = expected[k - 1];
    const want = pairs ? `checked: ${pairs} attacking pair${pairs === 1 ? "" : "s"}, rejected` : "checked: no attacking pair, a solution";
    assert.ok((await text(page, "#w-narration")).endsWith(want), `step ${k}`);
  }
  assert.equal(expected.at(-1), 0, "the last board is the solution");
  // The last step returns the board: its pseudo-code line is marked.
  assert.deepEqual(await page.$$eval("#w-code [aria-current]", (lines) => lines.map((l) => l.textContent.trim())),
    ["for each placement of the free queens on distinct squares:", "if no two queens attack each other:", "return the board (finding all: count it, go on)"]);
  assert.equal(await page.$eval("#w-chart svg", (svg) => svg.getAttribute("aria-label")), "Attacking pairs on each board examined");
  assert.deepEqual(page.errors, []);
});

test("Next event goes on to the next backtrack, stall or solution", async () => {
  const page = await session.open("#watch?solver=backtracking&n=6");
  await runToEnd(page);
  await seek(page, 0);
  await page.click("#w-next-event");
  assert.match(await text(page, "#w-narration"), /^Step \d+: backtrack: remove /);
  const steps = Number(await page.$eval("#w-timeline", (t) => t.max));
  for (let i = 0; i < 500 && Number(await page.$eval("#w-timeline", (t) => t.value)) < steps; i++) await page.click("#w-next-event");
  assert.match(await text(page, "#w-narration"), /every row has its queen: a solution$/);
  // Plain hill climbing ends on the local optimum it stops at.
  await page.goto(`${session.server.url}#watch?solver=hill-climbing&n=8&seed=1`);
  await page.waitForSelector("body[data-ready=true]");
  await runToEnd(page);
  await seek(page, 0);
  await page.click("#w-next-event");
  assert.match(await text(page, "#w-narration"), /: stuck: no single move improves the board/);
  assert.deepEqual(page.errors, []);
});

test("Find all counts every solution the trace finds, each a true board and an event", async () => {
  const found = stepsOf(cliTrace(["6", "--solver", "backtracking", "--set", "solutions=0"])).filter((s) => s.note?.kind === "found");
  assert.equal(found.length, 4, "OEIS A000170 at N = 6");
  const page = await session.open("#watch?solver=backtracking&n=6");
  assert.ok(await page.isVisible("#w-solutions"), "a tree search shows its solution counter");
  await page.click("#w-find-all");
  await page.waitForFunction(() => /^solved/.test(document.querySelector("#w-status").textContent), null, { timeout: 60000 });
  assert.match(await text(page, "#w-status"), /^solved; 4 solutions found/);
  assert.match(page.url(), /solutions=0/, "the link keeps it");
  await page.click("#w-end");
  assert.equal(await text(page, "#w-solutions"), "4 of 4");
  assert.equal(await page.$$eval("#w-chart svg circle.dot", (dots) => dots.length), 4, "each solution a dot on the chart");
  await seek(page, 0);
  // Next event, pressed to the end in the page (each press draws its step before it returns),
  // keeping what is shown at each stop that is a solution.
  const stops = await page.evaluate(() => {
    const $ = (selector) => document.querySelector(selector);
    const out = [];
    for (let i = 0; i < 2000 && Number($("#w-timeline").value) < Number($("#w-timeline").max); i++) {
      $("#w-next-event").click();
      const narration = $("#w-narration").textContent;
      if (!/a solution/.test(narration)) continue;
      out.push({
        iteration: Number($("#w-iteration").textContent.replace(/,/g, "")),
        counter: $("#w-solutions").textContent,
        pairs: $("#w-pairs").textContent,
        queens: $("#w-queens").textContent,
        marked: $("#w-code [aria-current]:not([data-moment=step]):not([data-moment=place])")?.dataset.moment,
        narration,
      });
    }
    return out;
  });
  assert.deepEqual(stops.map((s) => s.iteration), found.map((s) => s.iteration), "each solution at the trace's node");
  stops.forEach((stop, i) => {
    assert.equal(stop.counter, `${i + 1} of 4`);
    assert.deepEqual([stop.pairs, stop.queens, stop.marked], ["0", "6", "solved"], stop.narration);
    assert.ok(stop.narration.endsWith(`a solution, the ${["1st", "2nd", "3rd", "4th"][i]} found`), stop.narration);
  });
  // Other solvers count no solutions: the row is gone.
  await page.selectOption("#w-solver", "hill-climbing");
  assert.equal(await page.isVisible("#w-solutions"), false);
  assert.deepEqual(page.errors, []);
});

test("the solutions found are drawn each, their kinds are the unique solutions, and one chosen is its step", async () => {
  // The command line's listing, in the order its search finds them.
  const listed = execFileSync(queensBinary(), ["solve", "8", "--all", "--solver", "backtracking", "--format", "perm"], { encoding: "utf8" })
    .trim().split("\n").map((line) => line.split(" ").map((row, col) => `${row},${col}`).sort().join(" "));
  assert.equal(listed.length, 92, "OEIS A000170 at N = 8");
  for (const options of [{ viewport: { width: 1400, height: 900 } }, PHONE]) {
    const where = `${options.viewport.width} px`;
    const page = await session.open("#watch?solver=backtracking&n=8&solutions=0&run=1", options);
    await page.waitForFunction(() => /^solved/.test(document.querySelector("#w-status").textContent), null, { timeout: 60000 });
    await page.waitForFunction(() => /^92 solutions found,/.test(document.querySelector("#w-found-note")?.textContent));
    const drawn = await page.$$eval("#w-found-list .found-item", (items) => items.map((item) => ({
      queens: [...item.querySelectorAll("circle")].map((c) => c.dataset.square).sort().join(" "),
      caption: item.querySelector(".found-kind").textContent,
    })));
    assert.deepEqual(drawn.map((d) => d.queens), listed, `${where}: each solution drawn, in the order found`);
    assert.equal(drawn.filter((d) => d.caption.startsWith("kind ")).length, 12, `${where}: OEIS A002562 at N = 8`);
    assert.match(await text(page, "#w-found-note"), /12 of them are distinct up to turning and mirroring/);
    // Only the first of each kind, on asking: the 12 unique solutions, as seen.
    assert.equal(await text(page, ".found-firsts"), "Only the first of each kind (12 of 92 drawn)");
    await page.check("#w-found-firsts");
    const firsts = await page.$$eval("#w-found-list .found-item", (items) => items.filter((item) => item.getBoundingClientRect().height > 0).map((item) => item.querySelector(".found-kind").textContent));
    assert.deepEqual(firsts, Array.from({ length: 12 }, (_, i) => `kind ${i + 1}`), where);
    await page.uncheck("#w-found-firsts");
    // Seen: every small board whole, apart from the others, inside the list's box and the screen.
    const boxes = await page.$$eval("#w-found-list .found-item", (items) => items.slice(0, 12).map((item) => {
      const r = item.querySelector("svg").getBoundingClientRect();
      const list = item.closest(".found-list").getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, inList: r.left >= list.left && r.right <= list.right };
    }));
    for (const [i, box] of boxes.entries()) {
      assert.ok(box.width >= 40 && box.inList && box.right <= options.viewport.width, `${where}: #${i + 1} at ${JSON.stringify(box)}`);
      for (const other of boxes.slice(0, i)) {
        assert.ok(box.left >= other.right || box.right <= other.left || box.top >= other.bottom || box.bottom <= other.top, `${where}: #${i + 1} overlaps another`);
      }
    }
    assert.equal(await scrollsSideways(page), false, where);
    // Chosen, the sixth shows the step that found it: its board, its count, its narration.
    await page.click("#w-found-list li:nth-child(6) .found-item");
    assert.equal(await text(page, "#w-solutions"), "6 of 92");
    assert.match(await text(page, "#w-narration"), /a solution, the 6th found$/);
    const onBoard = await page.$$eval("#w-board .cell.q", (cells) => cells.map((c) => `${c.dataset.row},${c.dataset.col}`).sort().join(" "));
    assert.equal(onBoard, listed[5], where);
    assert.equal(await page.$eval("#w-found-list li:nth-child(6) .found-item", (b) => b.getAttribute("aria-current")), "true");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  // Past the most drawn, the note still counts every one and says how many are drawn.
  const page = await session.open("#watch?solver=backtracking&n=10&solutions=0&run=1");
  await page.waitForFunction(() => /^solved/.test(document.querySelector("#w-status").textContent), null, { timeout: 60000 });
  await page.waitForFunction(() => /^724 solutions found,/.test(document.querySelector("#w-found-note")?.textContent));
  assert.match(await text(page, "#w-found-note"), /The first 240 are drawn\./);
  assert.equal(await page.$$eval("#w-found-list .found-item", (items) => items.length), 240);
  // The next ones are drawn on asking, 240 at a time, until every one is; then the note tells
  // their kinds, OEIS A002562's 92 at N = 10, and the button is gone.
  for (const [label, drawn] of [["Draw the next 240", 480], ["Draw the next 240", 720], ["Draw the next 4", 724]]) {
    assert.equal(await text(page, "#w-found-more"), label);
    await page.click("#w-found-more");
    assert.equal(await page.$$eval("#w-found-list .found-item", (items) => items.length), drawn);
    // The focus goes to the first board drawn, not to the page's top.
    assert.equal(await page.evaluate(() => [...document.querySelectorAll("#w-found-list .found-item")].indexOf(document.activeElement)), drawn - (label.endsWith("4") ? 4 : 240));
  }
  assert.equal(await page.isVisible("#w-found-more"), false);
  assert.match(await text(page, "#w-found-note"), /^724 solutions found, in the order the search found them\. 92 of them are distinct up to turning and mirroring/);
  assert.equal(await page.$$eval("#w-found-list .found-kind", (kinds) => kinds.filter((k) => k.textContent.startsWith("kind ")).length), 92);
  assert.deepEqual(page.errors, []);
});

test("on a rectangle, or with squares blocked, the kinds are told by the turns and mirrors that keep the problem", async () => {
  const cases = [
    { hash: "size=5x7", args: ["5x7"], rows: 5, cols: 7, found: 164, keeps: /of a 5×7 board \(turned half a turn; mirrored left to right; mirrored top to bottom\)/,
      maps: [(r, c) => [4 - r, 6 - c], (r, c) => [r, 6 - c], (r, c) => [4 - r, c]] },
    { hash: "n=8&block=a1,h1", args: ["8", "--block", "a1,h1"], rows: 8, cols: 8, found: 84, blockedMarks: "0.06,7.06 7.06,7.06", keeps: /of the board that keep the blocked squares in place \(mirrored left to right\)/,
      maps: [(r, c) => [r, 7 - c]] },
  ];
  for (const c of cases) {
    // The command line's listing, and its classes by Burnside's lemma: the mean over the
    // symmetries kept (itself included) of the solutions each leaves as they are.
    const listed = execFileSync(queensBinary(), ["solve", ...c.args, "--all", "--solver", "backtracking", "--format", "perm"], { encoding: "utf8" })
      .trim().split("\n").map((line) => line.split(" ").flatMap((row, col) => (row === "-" ? [] : [[Number(row), col]])));
    assert.equal(listed.length, c.found, c.hash);
    const key = (queens) => queens.map(([r, col]) => `${r},${col}`).sort().join(" ");
    const fixed = listed.length + c.maps.reduce((sum, map) => sum + listed.filter((q) => key(q.map(([r, col]) => map(r, col))) === key(q)).length, 0);
    const kinds = fixed / (c.maps.length + 1);
    const page = await session.open(`#watch?solver=backtracking&${c.hash}&solutions=0&run=1`);
    await page.waitForFunction(() => /^solved/.test(document.querySelector("#w-status").textContent), null, { timeout: 60000 });
    await page.waitForFunction((found) => document.querySelector("#w-found-note")?.textContent.startsWith(`${found} solutions found,`), c.found);
    const drawn = await page.$$eval("#w-found-list .found-item", (items) => items.map((item) => ({
      queens: [...item.querySelectorAll("circle")].map((q) => q.dataset.square).sort().join(" "),
      caption: item.querySelector(".found-kind")?.textContent ?? "",
    })));
    assert.deepEqual(drawn.map((d) => d.queens), listed.map(key), `${c.hash}: each solution drawn, in the order found`);
    assert.equal(drawn.filter((d) => d.caption.startsWith("kind ")).length, kinds, c.hash);
    const note = await text(page, "#w-found-note");
    assert.ok(note.includes(`${kinds} of them are distinct up to the turns and mirrors `), `${c.hash}: ${note}`);
    assert.match(note, c.keeps);
    // Blocked squares are marked on every small board, where they are.
    const marks = await page.$$eval("#w-found-list .found-item", (items) => items.map((item) => [...item.querySelectorAll("rect.mark.blocked")].map((m) => `${m.getAttribute("x")},${m.getAttribute("y")}`).join(" ")));
    assert.deepEqual(new Set(marks), new Set([c.blockedMarks ?? ""]), c.hash);
    // No caption names a symmetry the problem does not keep: no quarter turn, no diagonal.
    assert.ok(drawn.every((d) => !/[↻↺]¼|[⤢⤡]/.test(d.caption)), c.hash);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

/** The size on screen of square `name` of a grid board, and whether its centre is inside the zoom box. */
function squareOnScreen(page, name) {
  return page.$eval(`#cfg-board [data-square="${name}"]`, (cell) => {
    const r = cell.getBoundingClientRect();
    const view = cell.closest(".zoom-view").getBoundingClientRect();
    const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
    return { side: r.width, x, y, inside: x > view.left && x < view.right && y > view.top && y < view.bottom };
  });
}

test("a large board zooms by its buttons, Ctrl + wheel and a pinch, and a tap after a zoom takes the square tapped", async () => {
  const page = await session.open("#configure?n=64", PHONE);
  await page.waitForSelector("#cfg-solvable:not(.maybe)");
  const before = await squareOnScreen(page, "r32c32");
  assert.ok(before.side < 6, `a 64×64 square on a phone is ${before.side} px`);
  await page.click("#cfg-board .zoom-in");
  await page.click("#cfg-board .zoom-in");
  const zoomed = await squareOnScreen(page, "r32c32");
  assert.ok(Math.abs(zoomed.side / before.side - 4) < 0.1, `×4 made a square ${zoomed.side / before.side} times as wide`);
  assert.equal(await text(page, "#cfg-board .zoom-level"), "×4");
  assert.ok(zoomed.inside, "the zoom keeps the centre in view");
  // The page itself does not scroll sideways: the board's box does.
  assert.equal(await scrollsSideways(page), false);
  // The labels stay on the box's edges: a rank label beside the rows in view.
  const labels = await page.$$eval("#cfg-board .ranks span", (spans) => {
    const view = spans[0].closest(".zoom-view").getBoundingClientRect();
    return spans.map((s) => s.getBoundingClientRect()).filter((r) => r.top > view.top && r.bottom < view.bottom && r.left >= view.left - 1).length;
  });
  assert.ok(labels >= 3, `${labels} rank labels in view`);
  // A tap on a square now tells it, and a second places its queen there.
  await page.touchscreen.tap(zoomed.x, zoomed.y);
  await page.waitForFunction(() => /^r32c32 is open\. Tap again/.test(document.querySelector("#cfg-reason").textContent));
  await page.touchscreen.tap(zoomed.x, zoomed.y);
  await page.waitForFunction(() => location.hash.includes("r32c32"));
  await page.click("#cfg-board .zoom-fit");
  assert.ok(Math.abs((await squareOnScreen(page, "r32c32")).side - before.side) < 0.1, "Fit shows the whole board again");
  // Two fingers spread apart zoom in about their middle.
  const client = await page.context().newCDPSession(page);
  const middle = await squareOnScreen(page, "r20c20");
  const fingers = (spread) => [{ x: middle.x - spread, y: middle.y, id: 1 }, { x: middle.x + spread, y: middle.y, id: 2 }];
  await client.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: fingers(20) });
  for (const spread of [30, 45, 60, 80]) await client.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: fingers(spread) });
  await client.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  const pinched = await squareOnScreen(page, "r20c20");
  assert.ok(pinched.side > 3 * before.side, `a pinch from 40 to 160 px apart zoomed ×${pinched.side / before.side}`);
  assert.ok(Math.hypot(pinched.x - middle.x, pinched.y - middle.y) < 3 * pinched.side, "about the fingers' middle");
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const desktop = await session.open("#configure?n=64", { viewport: { width: 1400, height: 900 } });
  await desktop.waitForSelector("#cfg-solvable:not(.maybe)");
  const plain = await squareOnScreen(desktop, "r10c10");
  await desktop.mouse.move(plain.x, plain.y);
  await desktop.keyboard.down("Control");
  await desktop.mouse.wheel(0, -120);
  await desktop.keyboard.up("Control");
  await desktop.waitForFunction(() => document.querySelector("#cfg-board .zoom-level").textContent !== "×1");
  const wheeled = await squareOnScreen(desktop, "r10c10");
  assert.ok(wheeled.side > 1.5 * plain.side, "Ctrl + wheel zooms in");
  assert.ok(Math.hypot(wheeled.x - plain.x, wheeled.y - plain.y) < wheeled.side, "about the pointer");
  assert.deepEqual(desktop.errors, []);
});

test("on a 200×200 canvas a reason's marks are rings that can be seen", async () => {
  const page = await session.open("#configure?n=200&q=r1c1", PHONE);
  await page.waitForSelector("#cfg-solvable:not(.maybe)");
  const box = await page.$eval("#cfg-board canvas", (c) => {
    const r = c.getBoundingClientRect();
    return { x: r.x, y: r.y, side: r.width / 200 };
  });
  assert.ok(box.side < 2, `a square is ${box.side} px`);
  // Tap r1c200, attacked by r1c1: its reason marks the square and the queen.
  await page.touchscreen.tap(box.x + 199.5 * box.side, box.y + 199.5 * box.side);
  await page.waitForFunction(() => /^r1c200 is attacked by the queen on r1c1/.test(document.querySelector("#cfg-reason").textContent));
  const rings = await page.$$eval("#cfg-board .overlay .ring", (cs) => cs.map((c) => ({ cls: c.getAttribute("class"), size: c.getBoundingClientRect().width })));
  assert.ok(rings.some((r) => r.cls.includes("hl-self")), JSON.stringify(rings));
  assert.ok(rings.some((r) => r.cls.includes("hl-source")), JSON.stringify(rings));
  for (const ring of rings) assert.ok(ring.size >= 12, `a ring ${ring.size} px across`);
  assert.deepEqual(page.errors, []);
});
