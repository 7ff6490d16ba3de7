// Each solver's own state beside the board, as seen: a tree search's tree (its path as long as
// the board's queens), the electric force's arrows on the queens it pushed, and the conflict
// counts in the column min-conflicts repairs.

import assert from "node:assert/strict";
import { test } from "node:test";

import { pageSession, queensOn, watchSettled as settled } from "../harness.js";

const session = pageSession();


test("backtracking shows its search tree, the path as deep as the board's queens", async () => {
  const page = await session.open("#watch?solver=backtracking&n=8&fix=d1&step=28");
  await settled(page);
  assert.equal(await page.isVisible("#w-tree svg.search-tree"), true);
  const queens = (await queensOn(page, "#w-board")).length;
  const path = await page.$$eval("#w-tree circle.node.path", (nodes) => nodes.length);
  assert.equal(path, queens - 1 + 1, "the root and one node per searched queen (d1 is locked)");
  const pruned = await page.$$eval("#w-tree path.node.pruned", (nodes) => nodes.length);
  assert.ok(pruned > 0, "pruned tries are crossed");
  assert.match(await page.textContent("#w-tree figcaption"), new RegExp(`^Search tree: depth ${queens - 1} of 7; 28 nodes: \\d+ pruned, \\d+ dead ends?$`));
  const box = await page.$eval("#w-tree svg", (svg) => svg.getBoundingClientRect().width);
  assert.ok(box > 200, `the tree is ${box} px wide`);
  assert.equal(await page.isVisible("#w-tree"), true);
  // A local search has no tree.
  const local = await session.open("#watch?solver=hill-climbing&n=8&step=3");
  await settled(local);
  assert.equal(await local.isVisible("#w-tree"), false);
  for (const p of [page, local]) assert.deepEqual(p.errors, []);
});

test("a dead end's node count is painted over the edges that run across it, with a halo", async () => {
  const page = await session.open("#watch?solver=backtracking&n=8&fix=d1&step=110");
  await settled(page);
  // Each edge segment that passes through a count's box (sampled along the segment, in the
  // drawing's own units), and whether the count comes after it in paint order.
  const crossings = await page.$eval("#w-tree svg.search-tree", (svg) => {
    const found = [];
    for (const text of svg.querySelectorAll("text.tree-count")) {
      const box = text.getBBox();
      for (const line of svg.querySelectorAll("line.edge")) {
        const [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map((name) => Number(line.getAttribute(name)));
        const crosses = Array.from({ length: 201 }, (_, i) => i / 200).some((t) => {
          const x = x1 + (x2 - x1) * t;
          const y = y1 + (y2 - y1) * t;
          return x >= box.x && x <= box.x + box.width && y >= box.y && y <= box.y + box.height;
        });
        if (crosses) {
          found.push({ count: text.textContent, countOnTop: Boolean(line.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_FOLLOWING) });
        }
      }
    }
    return found;
  });
  assert.ok(crossings.length > 0, "this frame has edges across counts (the case under test)");
  for (const crossing of crossings) assert.ok(crossing.countOnTop, `an edge is painted over the count ${crossing.count}`);
  const halo = await page.$eval("#w-tree text.tree-count", (text) => {
    const style = getComputedStyle(text);
    const paper = getComputedStyle(text.closest("svg")).backgroundColor;
    return { order: style.paintOrder, stroke: style.stroke, paper, width: parseFloat(style.strokeWidth) };
  });
  assert.match(halo.order, /^stroke/, "the halo is painted under the figures");
  assert.equal(halo.stroke, halo.paper, "in the drawing's background colour");
  assert.ok(halo.width >= 2, `a halo of ${halo.width} px`);
  assert.deepEqual(page.errors, []);
});

test("the electric force draws the force on each queen it pushed, from that queen's square", async () => {
  const page = await session.open("#watch?solver=electric-force&n=8&seed=3&step=2");
  await settled(page);
  const arrows = await page.$$eval("#w-board .overlay .force line", (lines) => lines.map((l) => l.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, w: r.width, h: r.height })));
  assert.ok(arrows.length > 0, "force arrows drawn");
  assert.match(await page.textContent("#w-state"), /^phase: forces(, on a new random board)?; \d+ queens? pushed, the strongest force [\d.]+ on [a-h][1-8]$/);
  // Each arrow starts at the centre of a square (the queen's before the push).
  const starts = await page.$$eval("#w-board .overlay .force line", (lines) => lines.map((l) => [Number(l.getAttribute("x1")), Number(l.getAttribute("y1"))]));
  for (const [x, y] of starts) {
    assert.ok(Math.abs(x - Math.floor(x) - 0.5) < 1e-9 && Math.abs(y - Math.floor(y) - 0.5) < 1e-9, `${x},${y} is a square's centre`);
  }
  assert.deepEqual(page.errors, []);
});

test("Minton's min-conflicts writes the conflicts of the column it repairs in its squares", async () => {
  const page = await session.open("#watch?solver=min-conflicts-minton&n=8&seed=2&step=1");
  await settled(page);
  const numbers = await page.$$eval("#w-board .overlay text.number", (texts) => texts.map((t) => {
    const r = t.getBoundingClientRect();
    return { text: t.textContent, x: r.x + r.width / 2, y: r.y + r.height / 2 };
  }));
  assert.equal(numbers.length, 8, "one number per square of the column");
  // Every number lies inside a square of one column, one per row.
  const cells = await page.$$eval("#w-board .cell", (all) => all.map((c) => ({ square: c.dataset.square, ...c.getBoundingClientRect().toJSON() })));
  const inside = numbers.map((n) => cells.find((c) => n.x > c.left && n.x < c.right && n.y > c.top && n.y < c.bottom).square);
  assert.equal(new Set(inside.map((s) => s[0])).size, 1, `one column: ${inside}`);
  assert.equal(new Set(inside.map((s) => s.slice(1))).size, 8, "every rank");
  assert.match(await page.textContent("#w-narration"), /^Step 1: repair [a-h][1-8] \(\d+ conflicts?\): /);
  assert.deepEqual(page.errors, []);
});
