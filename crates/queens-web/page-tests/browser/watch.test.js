// Watch in headless Chromium: every local-search solver shows all N queens from the first
// frame to the last; stepping goes one solver step at a time, back and forth; tree searches
// mark their row and candidate; bad input is refused with one sentence.

import assert from "node:assert/strict";
import { test } from "node:test";

import { boardProblems, pageSession, queensOn, runToEnd, seek } from "../harness.js";

const session = pageSession();

const LOCAL_SEARCH = [
  "min-conflicts", "min-conflicts-minton", "random-search", "optimized-random-search", "simulated-annealing",
  "hill-climbing", "hill-climbing-constant-shake", "hill-climbing-decaying-shake", "optimized-hill-climbing",
  "genetic", "electric-force",
];

const text = (page, selector) => page.$eval(selector, (e) => e.textContent);
const frames = async (page) => Number(await page.$eval("#w-timeline", (e) => e.max));

test("every local search shows all its queens from the first frame to the last", async () => {
  const page = await session.open();
  for (const solver of LOCAL_SEARCH) {
    const n = solver === "optimized-hill-climbing" ? 32 : 8;
    await page.goto(`${session.server.url}#watch?solver=${solver}&n=${n}&seed=3&max_iters=400`);
    await page.waitForSelector("body[data-ready=true]");
    await runToEnd(page);
    const length = await frames(page);
    assert.ok(length > 0, `${solver} recorded no steps`);
    for (const k of [0, 1, Math.floor(length / 2), length]) {
      await seek(page, k);
      assert.equal((await queensOn(page, "#w-board")).length, n, `${solver}, N = ${n}, frame ${k} of ${length}`);
      assert.equal(Number(await text(page, "#w-queens")), n);
    }
    const status = await text(page, "#w-status");
    if (status.startsWith("solved")) assert.equal(await text(page, "#w-pairs"), "0", `${solver} solved with attacks left`);
  }
  assert.deepEqual(page.errors, []);
});

test("Step goes one solver step forward, Step back one back, to the same boards", async () => {
  const page = await session.open("#watch?solver=hill-climbing-constant-shake&n=8&seed=5");
  await runToEnd(page);
  await seek(page, 0);
  const boards = [await queensOn(page, "#w-board")];
  for (let k = 1; k <= 5; k++) {
    await page.click("#w-step");
    assert.match(await text(page, "#w-step-count"), new RegExp(`^${k} of `));
    assert.equal(await text(page, "#w-iteration"), String(k), "the iteration counter agrees with the step");
    boards.push(await queensOn(page, "#w-board"));
  }
  assert.ok(boards.some((b, k) => k > 0 && b.join() !== boards[k - 1].join()), "no step changed the board");
  for (let k = 4; k >= 0; k--) {
    await page.click("#w-back");
    assert.deepEqual(await queensOn(page, "#w-board"), boards[k], `back at step ${k}`);
  }
  await page.click("#w-end");
  assert.equal(await text(page, "#w-step-count"), `${await frames(page)} of ${await frames(page)}`);
  assert.ok(await page.$("#w-chart svg .series"), "the score chart is drawn");
  assert.ok(await page.$("#w-about h3"), "the solver's explanation is shown");
  assert.deepEqual(page.errors, []);
});

test("a tree search shows its current row, its candidate and the attacking pairs", async () => {
  const page = await session.open("#watch?solver=backtracking&n=6&seed=1");
  await runToEnd(page);
  await seek(page, 5);
  assert.equal((await page.$$("#w-board .cell.row")).length, 6);
  assert.equal((await page.$$("#w-board .cell.candidate")).length, 1);
  await page.goto(`${session.server.url}#watch?solver=hill-climbing&n=8&seed=2`);
  await page.waitForSelector("body[data-ready=true]");
  await runToEnd(page);
  await seek(page, 0);
  const pairs = Number(await text(page, "#w-pairs"));
  assert.ok(pairs > 0, "a random start has attacking pairs");
  assert.equal((await page.$$("#w-board .overlay .pair")).length, pairs);
  assert.ok((await page.$$("#w-board .cell.q-clash")).length >= 2);
  assert.deepEqual(page.errors, []);
});

test("locked queens are kept by the solver and drawn apart", async () => {
  const page = await session.open("#watch?solver=min-conflicts&n=10&seed=1");
  await page.click('#w-board [data-square="c3"]');
  await page.click('#w-board [data-square="f7"]');
  assert.match(await page.evaluate(() => location.hash), /fix=c3,f7/);
  await runToEnd(page);
  await page.click("#w-end");
  assert.match(await text(page, "#w-status"), /^solved/);
  const locked = await page.$$eval("#w-board .cell.q-locked", (cells) => cells.map((c) => c.dataset.square).sort());
  assert.deepEqual(locked, ["c3", "f7"]);
  assert.deepEqual(page.errors, []);
});

test("bad input is refused with a sentence naming the allowed range", async () => {
  const page = await session.open("#watch?solver=min-conflicts&n=8");
  for (const [bad, sentence] of [
    ["0", "N must be at least 1, got 0."],
    ["100000", "N must be at most 1000, got 100000."],
    ["-5", "N must be at least 1, got -5."],
    ["7.5", "N must be a positive whole number, got '7.5'."],
  ]) {
    await page.fill("#w-n", bad);
    await page.click("#w-start");
    assert.equal(await text(page, "#w-error"), sentence, `N = ${bad}`);
    assert.equal((await page.$$("#w-board .cell")).length, 64, "the old board stays");
  }
  await page.fill("#w-n", "8");
  await page.fill("#w-seed", "abc");
  await page.click("#w-start");
  assert.equal(await text(page, "#w-error"), "Seed must be a whole number, got 'abc'.");
  await page.fill("#w-seed", "1");
  await page.fill('#w-params input[name="probes"]', "0");
  await page.click("#w-start");
  assert.equal(await text(page, "#w-error"), "Probes must be at least 1 (1 to 1000000), got 0.");
  assert.deepEqual(page.errors, []);
});

test("the score is defined beside it, and explanations show code as code and current values", async () => {
  const page = await session.open("#watch?solver=hill-climbing-constant-shake&n=8&p=0.4");
  assert.match(await page.textContent("#w-score-doc"), /^Score: the original's evaluation: N\(N − 1\)\/2, the number of pairs of queens, minus the pairs that attack each other/);
  const about = await page.textContent("#w-about");
  assert.ok(!about.includes("`"), "no raw backticks");
  assert.ok(await page.$$eval("#w-about code", (codes) => codes.some((c) => c.textContent === "queens experiment")));
  assert.doesNotMatch(about, /p = 0\.23/, "the prose does not quote a default as the value");
  assert.match(about, /p = 0\.4/, "the value set is listed");
  const prose = await page.$$eval("#w-about p", (paragraphs) => paragraphs.map((p) => p.textContent).join(" "));
  assert.match(prose, /with probability p = 0\.4, it moves q = 2 random queens/, "the prose says the values in force");
  await page.selectOption("#w-solver", "min-conflicts");
  assert.match(await page.textContent("#w-score-doc"), /^Score: minus the collisions: on every diagonal, its queens beyond the first/);
  await page.selectOption("#w-solver", "simulated-annealing");
  assert.match(await page.textContent("#w-about"), /e\^\(−Δ\/T\), where Δ > 0 is how much the score drops/);
  assert.deepEqual(page.errors, []);
});

test("every change of a step is drawn and told, and the steps are logged", async () => {
  const page = await session.open("#watch?solver=random-search&n=8&seed=2&step=3");
  await page.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent));
  const drawn = await page.evaluate(() => ({
    moved: document.querySelectorAll("#w-board .cell.moved").length,
    ghosts: document.querySelectorAll("#w-board .cell.from").length,
    arrows: document.querySelectorAll("#w-board .overlay .arrow").length,
    told: document.querySelector("#w-narration").textContent,
    logged: [...document.querySelectorAll("#w-log li")].map((li) => li.textContent),
  }));
  const count = Number(/(\d+) moved/.exec(drawn.told)[1]);
  assert.ok(count >= 2, drawn.told);
  assert.equal(drawn.moved, count, "every moved queen is ringed");
  assert.equal(drawn.arrows, count, "every move has its arrow");
  assert.ok(drawn.ghosts >= 1);
  assert.match(drawn.told, /^Step 3: every queen to a random row: \d+ moved \(/);
  assert.equal(drawn.logged.length, 4, "start and steps 1 to 3");

  const annealing = await session.open("#watch?solver=simulated-annealing&n=8&seed=1&run=1");
  await annealing.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent));
  await annealing.click("#w-end");
  const told = await annealing.$$eval("#w-log li", (items) => items.map((li) => li.textContent));
  assert.ok(told.some((line) => /rejected \(p = e\^\(−\d+\/T\) = [\d.e-]+ at T = /.test(line)), told.slice(-5).join("\n"));

  const climbing = await session.open("#watch?solver=hill-climbing&n=8&seed=3&run=1");
  await climbing.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent));
  await climbing.click("#w-end");
  assert.match(await climbing.textContent("#w-status"), /^stopped/, "seed 3 ends on a local optimum");
  assert.match(await climbing.textContent("#w-narration"), /stuck: no single move improves the board/);
  for (const p of [page, annealing, climbing]) assert.deepEqual(p.errors, []);
});

test("hill climbing shows the scores of the moves it weighs, and the one it takes next", async () => {
  const page = await session.open("#watch?solver=hill-climbing&n=8&seed=3&step=2");
  await page.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent));
  assert.equal(await page.isChecked("#w-neighbours"), true, "on from the start");
  // The scores come from the server's neighbourhood of the board shown.
  await page.waitForFunction(() => document.querySelectorAll("#w-board .cell.chosen").length > 0);
  const shown = await page.evaluate(() => ({
    ring: [...document.querySelectorAll("#w-board .cell.chosen")].map((c) => c.dataset.square),
    coloured: [...document.querySelectorAll("#w-board .cell")].filter((c) => c.style.background).length,
  }));
  assert.equal(shown.coloured, 8 * 7, "N(N − 1) moves coloured");
  await page.click("#w-step");
  const next = await page.textContent("#w-narration");
  assert.match(next, new RegExp(`^Step 3: climb: [a-h]\\d→${shown.ring[0]},`), `the ring (${shown.ring}) is where step 3 moves`);
  await page.click("#w-step");
  assert.match(await page.textContent("#w-narration"), /stuck/);
  assert.deepEqual(await page.$$eval("#w-board .cell.chosen", (cells) => cells.length), 0, "no ring on a local optimum");
  assert.deepEqual(page.errors, []);
});

test("hill climbing writes each move's score change, scores its start, and stops where no move is better", async () => {
  const page = await session.open("#watch?solver=hill-climbing&n=8&seed=1&run=1");
  await page.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent));
  // The plain climber stops on its local optimum, saying so, instead of idling to its cap.
  assert.match(await text(page, "#w-status"), /^stopped: stuck on a local optimum/);
  assert.ok(await frames(page) < 30, `a few climbs, then the stop: ${await frames(page)} frames`);
  // The start has a score: the best possible (28 on 8×8) less its attacking pairs.
  await seek(page, 0);
  await page.waitForFunction(() => document.querySelector("#w-score").textContent !== "–");
  const start = await page.evaluate(() => [document.querySelector("#w-score").textContent, document.querySelector("#w-pairs").textContent].map(Number));
  assert.equal(start[0], 28 - start[1], `score ${start[0]} with ${start[1]} pairs`);
  // On the local optimum no square says a move is better, and none is ringed.
  await page.click("#w-end");
  await page.waitForFunction(() => document.querySelectorAll("#w-board text.number").length === 8 * 7);
  const written = await page.$$eval("#w-board text.number", (texts) => texts.map((t) => t.textContent));
  assert.ok(written.every((t) => /^(0|−\d+)$/.test(t)), written.join(" "));
  assert.ok(written.includes("0"), "a move that changes nothing says 0");
  assert.equal((await page.$$("#w-board .cell.chosen")).length, 0);
  // The score chart rises from zero, so a climb reads as the rise it is.
  await page.waitForSelector("#w-chart svg");
  const ticks = await page.$$eval("#w-chart text.tick", (t) => t.map((x) => x.textContent));
  assert.ok(ticks.includes("0"), ticks.join(" "));
  // A climb's gain is written on the square the ring marks, with a plus.
  await seek(page, 0);
  await page.waitForFunction(() => document.querySelectorAll("#w-board .cell.chosen").length === 1);
  const ringed = await page.$eval("#w-board .cell.chosen", (c) => c.dataset.square);
  const gainAt = await page.evaluate((square) => {
    const files = "abcdefgh";
    const col = files.indexOf(square[0]);
    const row = Number(square.slice(1)) - 1;
    const texts = [...document.querySelectorAll("#w-board text.number")];
    // A number sits in its square's corner: x in (col, col + 1), y in (7 − row, 8 − row).
    const found = texts.find((t) => {
      const x = Number(t.getAttribute("x"));
      const y = Number(t.getAttribute("y"));
      return x > col && x < col + 1 && y > 7 - row && y < 8 - row;
    });
    return found ? found.textContent : null;
  }, ringed);
  assert.match(gainAt || "", /^\+\d+$/, `the ringed move ${ringed} gains`);
  assert.deepEqual(page.errors, []);
});

test("brute force says what it checked on each board it made: its attacking pairs, or a solution", async () => {
  const page = await session.open("#watch?solver=brute-force&n=5&run=1");
  await page.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent), null, { timeout: 60000 });
  for (const k of [1, 2, 7]) {
    await seek(page, k);
    const said = await text(page, "#w-narration");
    const pairs = Number(await text(page, "#w-pairs"));
    assert.ok(pairs > 0, `step ${k}: a board with attacks`);
    assert.match(said, new RegExp(`; checked: ${pairs} attacking pairs?, rejected$`), said);
  }
  await page.click("#w-end");
  assert.match(await text(page, "#w-narration"), /; checked: no attacking pair, a solution$/);
  assert.equal(await text(page, "#w-pairs"), "0");
  assert.deepEqual(page.errors, []);
});

test("the genetic algorithm shows its population's fitness, not only its best board", async () => {
  const page = await session.open("#watch?solver=genetic&n=8&seed=4&step=40");
  await page.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent));
  assert.match(await page.textContent("#w-narration"), /^Step 40: generation of 200: fitness best -?\d+, mean -?[\d.]+, worst -?\d+; the best board/);
  assert.equal(await page.$$eval("#w-chart path.series", (paths) => paths.length), 3, "best, mean and worst");
  assert.match(await page.textContent("#w-chart"), /Population fitness by generation/);
  assert.equal(await page.getAttribute("#w-population", "data-generation"), "40", "the population of the step shown");
  assert.match(await page.textContent("#w-population .population-caption"), /^Generation 40: the 24 best of 200 chromosomes, best first; the best has fitness −\d+\.$/);
  assert.deepEqual(page.errors, []);
});

test("the genetic view shows its population: small boards best first with true fitness, the spread, a crossover and a mutation", async () => {
  const page = await session.open("#watch?solver=genetic&size=6x10&m=6&seed=1&run=1");
  await page.waitForFunction(() => /^solved/.test(document.querySelector("#w-status").textContent));
  await page.click("#w-end");
  const view = await page.$("#w-population");
  assert.ok(await view.isVisible());
  const steps = Number(await page.$eval("#w-timeline", (t) => t.max));
  assert.equal(await view.getAttribute("data-generation"), String(steps), "the last generation at the end");
  // Every small board as drawn: its box, its queens' centres, its fitness label.
  const boards = await page.$$eval("#w-population .population-boards li", (items) => items.map((li) => {
    const svg = li.querySelector("svg").getBoundingClientRect();
    const queens = [...li.querySelectorAll("circle.queen")].map((c) => {
      const b = c.getBoundingClientRect();
      return { x: (b.left + b.width / 2 - svg.left) / svg.width, y: (b.top + b.height / 2 - svg.top) / svg.height };
    });
    return { width: svg.width, height: svg.height, queens, fitness: li.querySelector(".fitness").textContent };
  }));
  assert.equal(boards.length, 24, "the 24 best of 200");
  const fitnesses = [];
  for (const board of boards) {
    assert.ok(Math.abs(board.width / board.height - 10 / 6) < 0.05, `a 6×10 board is drawn 10 wide to 6 high: ${board.width}×${board.height}`);
    // Squares from the drawn centres: rank 1 at the bottom, as on the main board.
    const squares = board.queens.map((q) => ({ row: 5 - Math.floor(q.y * 6), col: Math.floor(q.x * 10) }));
    assert.equal(new Set(squares.map((q) => `${q.row},${q.col}`)).size, 6, "6 queens on distinct squares");
    let pairs = 0;
    squares.forEach((a, i) => squares.slice(i + 1).forEach((b) => {
      if (a.row === b.row || a.col === b.col || Math.abs(a.row - b.row) === Math.abs(a.col - b.col)) pairs += 1;
    }));
    const shown = Number(board.fitness.replace("−", "-"));
    assert.equal(shown + pairs, 0, "the fitness shown is minus the attacking pairs drawn");
    fitnesses.push(shown);
  }
  assert.deepEqual(fitnesses, [...fitnesses].sort((a, b) => b - a), "best first");
  assert.equal(fitnesses[0], 0, "the solved generation's best is the solution");
  const best = await page.$$eval("#w-population .population-boards li:first-child circle", (cs) => cs.map((c) => c.dataset.square));
  const onBoard = await page.$$eval("#w-board .cell.q", (cells) => cells.map((c) => `${c.dataset.row},${c.dataset.col}`));
  assert.deepEqual(best.sort(), onBoard.sort(), "the best chromosome is the board shown");
  const spread = await page.$$eval("#w-population .spread td.num", (cells) => cells.map((c) => Number(c.textContent)));
  assert.equal(spread.reduce((a, b) => a + b, 0), 200, "the spread counts the whole population");
  // The crossover: the children are the first and the last 6 of the merged genes, and drawn so.
  const lists = await page.$$eval("#w-population .gene-lists dd", (dds) => dds.map((dd) => [...dd.querySelectorAll(".gene")].map((g) => g.textContent)));
  assert.equal(lists.length, 3);
  const [merged, first, last] = lists;
  assert.deepEqual(first, merged.slice(0, 6));
  assert.deepEqual(last, merged.slice(-6));
  const drawn = await page.$$eval("#w-population .crossover figure.mini", (figures) => Object.fromEntries(figures.map((f) => [f.querySelector("figcaption").textContent,
    [...f.querySelectorAll("circle")].map((c) => c.dataset.square.split(",").map(Number)).map(([r, c]) => String.fromCharCode(97 + c) + (r + 1)).sort()])));
  assert.deepEqual(drawn["child 1"], [...first].sort());
  assert.deepEqual(drawn["child 2"], [...last].sort());
  assert.deepEqual([...new Set([...drawn["parent 1"], ...drawn["parent 2"]])].sort(), [...merged].sort(), "the merged genes are the parents' genes");
  // The mutation: one queen from a held square to a free one.
  const [from, to] = (await page.textContent("#w-population .mutation > figcaption")).match(/\(([a-j]\d+) → ([a-j]\d+);/).slice(1);
  const mutated = await page.$$eval("#w-population .mutation figure.mini", (figures) => figures.map((f) => [...f.querySelectorAll("circle")].map((c) => c.dataset.square.split(",").map(Number)).map(([r, c]) => String.fromCharCode(97 + c) + (r + 1))));
  assert.ok(mutated[0].includes(from) && !mutated[0].includes(to), "before: the queen is on its square, the target free");
  assert.ok(mutated[1].includes(to) && !mutated[1].includes(from), "after: it moved");
  // Stepping back shows the generation of that step.
  await page.click("#w-back");
  assert.equal(await view.getAttribute("data-generation"), String(steps - 1));
  assert.deepEqual(page.errors, []);
});

test("the electric force tells its pushes and its brute force", async () => {
  const page = await session.open("#watch?solver=electric-force&n=8&seed=4&run=1");
  await page.waitForFunction(() => /^solved/.test(document.querySelector("#w-status").textContent));
  await page.click("#w-end");
  assert.match(await page.textContent("#w-narration"), /brute force of the last 2 queens: lifted to [a-h]\d(, [a-h]\d|, the rest already on free squares), solved$/);
  const log = await page.$$eval("#w-log li", (items) => items.map((li) => li.textContent));
  assert.ok(log.slice(0, -1).every((line) => /push: (the )?\d+ queens? attacked/.test(line) || line.startsWith("start")), log.slice(-4).join("\n"));
  assert.deepEqual(page.errors, []);
});

test("the solver's pseudo-code marks the lines of the step shown", async () => {
  const marked = (page) => page.$$eval("#w-code li[aria-current]", (items) => items.map((li) => li.textContent.trim()));
  const page = await session.open("#watch?solver=backtracking&n=8&fix=d1&step=28");
  await page.waitForFunction(() => /^solved/.test(document.querySelector("#w-status").textContent));
  assert.deepEqual(await marked(page), [
    "for each square (row, c), left to right:",
    "if a queen attacks it: try the next square",
    "take it back (no square of a later row worked)",
  ]);
  await page.click("#w-step");
  assert.match(await page.textContent("#w-narration"), /free, place a queen|rejected/);
  const annealing = await session.open("#watch?solver=simulated-annealing&n=8&seed=1&step=500");
  await annealing.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent));
  assert.match(await annealing.textContent("#w-narration"), /rejected/);
  assert.ok((await marked(annealing)).includes("else: leave the board"));
  for (const p of [page, annealing]) assert.deepEqual(p.errors, []);
});

test("the genetic algorithm runs M queens on an R×C board from a link, the board drawn true", async () => {
  const page = await session.open("#watch?solver=genetic&size=6x10&m=6&seed=1&run=1");
  await page.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent));
  assert.match(await page.textContent("#w-status"), /^solved/);
  await page.click("#w-end");
  const { n, cols, problems } = await boardProblems(page, "#w-board");
  assert.deepEqual([n, cols, problems], [6, 10, []]);
  const queens = await queensOn(page, "#w-board");
  assert.equal(queens.length, 6);
  assert.equal(await page.textContent("#w-pairs"), "0");
  assert.equal(await page.inputValue("#w-n"), "6x10");
  // The link keeps the shape and the queens.
  assert.match(await page.evaluate(() => location.hash), /size=6x10&m=6/);
  // A solver made for N×N boards says so.
  const square = await session.open("#watch?solver=hill-climbing&size=6x10&run=1");
  await square.waitForFunction(() => document.querySelector("#w-error").textContent);
  assert.match(await square.textContent("#w-error"), /N×N/);
  assert.deepEqual(page.errors, []);
  // The refusal is the browser's log of the 400, and nothing else.
  assert.ok(square.errors.every((e) => /status of 400/.test(e)), String(square.errors));
});

test("the step log shows each step's whole number, however long, inside its box", async () => {
  for (const viewport of [{ width: 390, height: 844 }, { width: 1400, height: 900 }]) {
    const page = await session.open("#watch?solver=random-search&n=16&seed=1&max_iters=20000&run=1", { viewport });
    await page.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent), null, { timeout: 60000 });
    await page.click("#w-end");
    const logged = await page.$$eval("#w-log li", (items) => {
      const log = document.querySelector("#w-log").getBoundingClientRect();
      return items.map((li) => {
        const box = li.getBoundingClientRect();
        return { number: getComputedStyle(li, "::before").content, inside: box.left >= log.left && box.right <= log.right + 0.5 };
      });
    });
    const last = logged[logged.length - 1];
    assert.match(last.number, /^"\d{1,3}(,\d{3})+\."$/, `the last step's number at ${viewport.width} px: ${last.number}`);
    assert.ok(logged.every((line) => line.inside), `every line inside the log at ${viewport.width} px`);
    assert.equal(await page.$eval("#w-log", (log) => log.scrollWidth <= log.clientWidth), true, "nothing spills sideways");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test("the hint to lock queens before a run goes once a run is recorded", async () => {
  const page = await session.open("#watch?solver=min-conflicts&n=8&seed=1");
  await page.waitForSelector("#w-board .cell");
  assert.equal(await page.isVisible("#w-hint"), true, "before a run");
  await page.click("#w-start");
  await page.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent));
  assert.equal(await page.isVisible("#w-hint"), false, "after a run");
  assert.deepEqual(page.errors, []);
});

test("a rejected try is drawn joined to the queen that attacks it, as the narration says", async () => {
  const page = await session.open("#watch?solver=backtracking&n=8&step=2");
  await page.waitForFunction(() => /^solved/.test(document.querySelector("#w-status").textContent));
  await page.waitForFunction(() => /^Step 2: /.test(document.querySelector("#w-narration").textContent));
  assert.match(await page.textContent("#w-narration"), /^Step 2: try a2: attacked by a1 on a column, rejected$/);
  const tries = await page.$$eval("#w-board .overlay line.try", (lines) => lines.map((l) => [l.getAttribute("x1"), l.getAttribute("y1"), l.getAttribute("x2"), l.getAttribute("y2")]));
  assert.deepEqual(tries, [["0.5", "7.5", "0.5", "6.5"]], "a1 to a2");
  assert.deepEqual(page.errors, []);
});

test("a climb's chart ticks its whole scores with whole numbers", async () => {
  // Seed 1 climbs from 26 to 27: an axis of real numbers ticks it 26, 26.2, 26.4, …
  const page = await session.open("#watch?solver=hill-climbing&n=8&seed=1&run=1");
  await page.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent));
  await page.click("#w-end");
  await page.waitForSelector("#w-chart svg");
  const labels = await page.$$eval("#w-chart text.tick", (ticks) => ticks.map((t) => t.textContent));
  assert.ok(labels.length >= 6, labels.join(" "));
  assert.ok(labels.every((label) => /^[−-]?[\d,.]+[kM]?$/.test(label) && !/\.\d/.test(label)), labels.join(" "));
  assert.deepEqual(page.errors, []);
});

test("the board, the step's narration and the play controls are in the first screen", async () => {
  for (const options of [{ viewport: { width: 1400, height: 900 } }, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }]) {
    const page = await session.open("#watch?solver=hill-climbing&n=8&seed=1&run=1", options);
    await page.waitForFunction(() => /^(solved|stopped)/.test(document.querySelector("#w-status").textContent));
    const bottoms = await page.evaluate(() => Object.fromEntries(["#w-play", "#w-step", "#w-board", "#w-narration"]
      .map((selector) => [selector, document.querySelector(selector).getBoundingClientRect().bottom])));
    const screen = await page.evaluate(() => innerHeight);
    for (const [selector, bottom] of Object.entries(bottoms)) {
      assert.ok(bottom <= screen, `${selector} ends at ${Math.round(bottom)} of ${screen} at ${options.viewport.width} px`);
    }
    assert.ok(await page.$eval("#w-board", (b) => b.getBoundingClientRect().width) >= 300, "a board still large enough to read");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test("a wrapped line of pseudo-code goes on at its own indentation", async () => {
  const page = await session.open("#watch?solver=hill-climbing&n=8", { viewport: { width: 390, height: 844 } });
  await page.waitForSelector("#w-code li");
  const lines = await page.$$eval("#w-code li", (items) => items.map((li) => {
    const range = document.createRange();
    range.selectNodeContents(li);
    const rows = [...range.getClientRects()].filter((r) => r.width > 1);
    const indent = li.textContent.length - li.textContent.trimStart().length;
    const text = li.textContent.trim();
    // Where the line's first word starts, and where each row after the first starts.
    const first = document.createRange();
    const node = li.firstChild;
    first.setStart(node, indent);
    first.setEnd(node, indent + 1);
    const start = first.getBoundingClientRect().left;
    const rowStarts = [...new Set(rows.map((r) => Math.round(r.top)))].map((top) => Math.min(...rows.filter((r) => Math.round(r.top) === top).map((r) => r.left)));
    return { text, indent, start, continued: rowStarts.slice(1) };
  }));
  const wrapped = lines.filter((line) => line.indent > 0 && line.continued.length);
  assert.ok(wrapped.length >= 1, "a long indented line wraps on a phone");
  for (const line of wrapped) {
    for (const left of line.continued) assert.ok(left >= line.start - 1, `"${line.text}" goes on at ${left}, its text starts at ${line.start}`);
  }
  assert.deepEqual(page.errors, []);
});

test("the electric force's forces are drawn over the moves they caused", async () => {
  const page = await session.open("#watch?solver=electric-force&n=8&seed=4&step=3");
  await page.waitForFunction(() => /^solved/.test(document.querySelector("#w-status").textContent));
  await page.waitForFunction(() => document.querySelectorAll("#w-board .overlay .force").length > 0);
  const order = await page.$$eval("#w-board .overlay > *", (items) => items.map((e) => e.getAttribute("class")));
  const lastMove = order.lastIndexOf("arrow");
  const firstForce = order.indexOf("force");
  assert.ok(lastMove === -1 || firstForce > lastMove, order.join(" "));
  assert.deepEqual(page.errors, []);
});
