// The genetic algorithm's population at one generation: its best chromosomes as small boards,
// best first, each with its fitness; how the whole population's fitness is spread; and one
// crossover (two parents merged gene by gene into two children) and one mutation (a queen moved
// to a free square) of the breeding that made it. Drawn from the run's `population` events.

import { fill, h, s } from "./dom.js";
import { attackingPairs, key, squareName } from "./squares.js";

/** The widest a small board of the population is drawn, in pixels. */
const MINI = 72;

/** The widest a board of the breeding (parents, children, mutation) is drawn, in pixels. */
const BRED = 96;

/** `−3` with a true minus sign. */
export const fitnessText = (fitness) => (fitness < 0 ? `−${-fitness}` : String(fitness));

/** The queens of `queens` that attack another queen, as a set of keys. */
export function attackedKeys(queens) {
  const out = new Set();
  for (const [a, b] of attackingPairs(queens)) {
    out.add(key(a));
    out.add(key(b));
  }
  return out;
}

/**
 * Which parent each gene of a crossover came from: the merged list takes the parents' genes
 * alternately, skipping a gene already taken, so the first parent to hold a gene gives it.
 * Returns a map from square key to 0 (first parent) or 1 (second).
 */
export function geneOrigins(crossover) {
  const [dad, mom] = crossover.parents;
  const origin = new Map();
  dad.forEach((gene, i) => {
    for (const [parent, g] of [[0, gene], [1, mom[i]]]) if (!origin.has(key(g))) origin.set(key(g), parent);
  });
  return origin;
}

/** The caption of generation `population` on a board `cols` wide. */
export function describePopulation(population) {
  const shown = population.best.length;
  const best = population.best[0];
  const which = population.generation === 0 ? "The random start" : `Generation ${population.generation.toLocaleString("en-US")}`;
  const part = shown < population.size ? `the ${shown} best of ${population.size.toLocaleString("en-US")} chromosomes` : `all ${shown} chromosomes`;
  return `${which}: ${part}, best first; the best has fitness ${fitnessText(best.fitness)}.`;
}

/**
 * The dark squares of a board as one SVG path (a1 dark), made once per size: every board of a
 * generation, and of every generation played, has the same.
 */
const darkPaths = new Map();
function darkSquares(rows, cols) {
  const size = `${rows}x${cols}`;
  if (!darkPaths.has(size)) {
    let dark = "";
    for (let row = 0; row < rows; row += 1) {
      for (let col = 0; col < cols; col += 1) {
        if ((row + col) % 2 === 0) dark += `M${col} ${rows - 1 - row}h1v1h-1z`;
      }
    }
    darkPaths.set(size, dark);
  }
  return darkPaths.get(size);
}

/**
 * A small board: `queens` on `rows` × `cols`, rank 1 at the bottom as on the main board; `tone`
 * gives a queen's class (by default "clash" for an attacked one), `marks` extra squares to ring.
 */
export function miniBoard({ rows, cols }, queens, { tone, marks = [], label, width = MINI } = {}) {
  const unit = width / Math.max(rows, cols);
  const attacked = attackedKeys(queens);
  const classOf = tone || ((q) => (attacked.has(key(q)) ? "clash" : "ok"));
  return s("svg", { class: "mini-board", viewBox: `0 0 ${cols} ${rows}`, width: unit * cols, height: unit * rows, role: "img", "aria-label": label },
    s("rect", { class: "light", width: cols, height: rows }),
    s("path", { class: "dark", d: darkSquares(rows, cols) }),
    marks.map((m) => s("rect", { class: `mark ${m.class}`, x: m.square.col + 0.06, y: rows - 1 - m.square.row + 0.06, width: 0.88, height: 0.88 })),
    queens.map((q) => s("circle", { class: `queen ${classOf(q)}`, cx: q.col + 0.5, cy: rows - 1 - q.row + 0.5, r: 0.36, dataset: { square: `${q.row},${q.col}` } })));
}

/** The fitness spread as bars, one per fitness value, best first. */
function spreadChart(population) {
  const most = Math.max(...population.spread.map((f) => f.count));
  return h("table", { class: "spread", "aria-label": "how many chromosomes have each fitness" },
    h("tbody", {}, population.spread.map((f) => h("tr", { dataset: { fitness: f.fitness } },
      h("th", { scope: "row" }, fitnessText(f.fitness)),
      h("td", {}, h("span", { class: "bar", style: { width: `${(100 * f.count) / most}%` } })),
      h("td", { class: "num" }, f.count.toLocaleString("en-US"))))));
}

/** One crossover: the parents, their merged genes, the children, genes coloured by parent. */
function crossoverFigure(crossover, size, cols) {
  const origin = geneOrigins(crossover);
  const parentOf = (q) => `parent-${origin.get(key(q)) + 1}`;
  const m = crossover.children[0].length;
  const genes = (name, queens) => [h("dt", {}, name), h("dd", {}, h("ol", { class: "genes" }, queens.map((q) => h("li", { class: `gene ${parentOf(q)}` }, squareName(q, cols)))))];
  const board = (queens, name) => h("figure", { class: "mini" }, miniBoard(size, queens, { tone: parentOf, label: name, width: BRED }), h("figcaption", {}, name));
  return h("figure", { class: "crossover" },
    h("figcaption", {}, "Crossover: the parents' genes taken in turn, a gene already taken skipped; child 1 takes the first ", String(m), " of them, child 2 the last ", String(m), ". Genes and queens are coloured by the parent they came from."),
    h("div", { class: "breeding-row" },
      board(crossover.parents[0], "parent 1"), board(crossover.parents[1], "parent 2"),
      h("dl", { class: "gene-lists", "aria-label": "the genes, merged and cut" },
        genes("merged", crossover.merged),
        genes(`child 1: the first ${m}`, crossover.children[0]),
        genes(`child 2: the last ${m}`, crossover.children[1])),
      board(crossover.children[0], "child 1"), board(crossover.children[1], "child 2")));
}

/** One mutation: the child before it, the queen that moved and where it went. */
function mutationFigure(mutation, size, cols) {
  const moved = key(mutation.from);
  const after = mutation.before.map((q) => (key(q) === moved ? mutation.to : q));
  const marks = [{ square: mutation.from, class: "from" }, { square: mutation.to, class: "to" }];
  const text = `${squareName(mutation.from, cols)} → ${squareName(mutation.to, cols)}`;
  return h("figure", { class: "mutation" },
    h("figcaption", {}, `Mutation: one queen of a child moved to a square no queen holds (${text}; dashed: where it was, ringed: where it went).`),
    h("div", { class: "breeding-row" },
      h("figure", { class: "mini" }, miniBoard(size, mutation.before, { marks, label: "before", width: BRED }), h("figcaption", {}, "before")),
      h("figure", { class: "mini" }, miniBoard(size, after, { marks, label: "after", width: BRED }), h("figcaption", {}, "after"))));
}

/** The whole view of one generation on a `{rows, cols}` board. */
export function drawPopulation(population, size) {
  const { cols } = size;
  const boards = population.best.map((individual, rank) => h("li", { dataset: { fitness: individual.fitness, rank: rank + 1 } },
    miniBoard(size, individual.queens, { label: `chromosome ${rank + 1}, fitness ${individual.fitness}` }),
    h("span", { class: "fitness" }, fitnessText(individual.fitness))));
  const bred = [];
  if (population.crossover) bred.push(crossoverFigure(population.crossover, size, cols));
  if (population.mutation) bred.push(mutationFigure(population.mutation, size, cols));
  return [
    h("p", { class: "population-caption" }, describePopulation(population)),
    h("ol", { class: "population-boards", "aria-label": "the best chromosomes, best first" }, boards),
    h("h4", {}, "Fitness of the whole population"),
    spreadChart(population),
    bred.length ? h("h4", {}, "How this generation was bred (its first crossover and first mutation)") : null,
    bred,
  ];
}

/**
 * Watch's population panel: the population of the frame shown, for runs that breed one,
 * redrawn when the generation shown changes. `open` says whether it starts unfolded.
 */
export function createPopulationPanel({ open }) {
  const body = h("div", { class: "population-body" });
  const summary = h("span", { class: "population-summary" });
  const element = h("details", { id: "w-population", class: "population", hidden: true, open },
    h("summary", {}, "Population", summary),
    h("p", { class: "note" }, "Each chromosome is a board of queens; its fitness is minus the pairs of queens that attack each other (0: a solution). Red queens attack another queen."),
    body);
  let shown = null;
  return {
    element,
    /** Shows the population of `recording` at frame `k` on a rows×cols board, or hides it. */
    show(recording, k, shape) {
      const population = recording ? recording.populationAt(k) : null;
      element.hidden = !population;
      if (!population || shown === population) return;
      shown = population;
      element.dataset.generation = String(population.generation);
      summary.textContent = `: generation ${population.generation.toLocaleString("en-US")}, best fitness ${fitnessText(population.best[0].fitness)}`;
      fill(body, drawPopulation(population, shape));
    },
  };
}
