import assert from "node:assert/strict";
import { test } from "node:test";

import { attackedKeys, describePopulation, fitnessText, geneOrigins } from "../../static/js/population.js";
import { Recording } from "../../static/js/replay.js";

const sq = (row, col) => ({ row, col });

test("each merged gene comes from the first parent to hold it, taken in turn", () => {
  const dad = [sq(0, 0), sq(1, 2), sq(2, 4)];
  const mom = [sq(1, 2), sq(0, 5), sq(3, 3)];
  // Merged in turn: dad's a1, mom's c2, (dad's c2 taken), mom's f1, dad's e3, mom's d4.
  const origins = geneOrigins({ parents: [dad, mom], merged: [], children: [] });
  assert.deepEqual([...origins.entries()], [["0,0", 0], ["1,2", 1], ["0,5", 1], ["2,4", 0], ["3,3", 1]]);
});

test("a population is described by its generation, what is shown of it and its best", () => {
  const best = [{ fitness: -2, queens: [] }, { fitness: -3, queens: [] }];
  assert.equal(describePopulation({ generation: 0, size: 200, best }), "The random start: the 2 best of 200 chromosomes, best first; the best has fitness −2.");
  assert.equal(describePopulation({ generation: 1234, size: 2, best }), "Generation 1,234: all 2 chromosomes, best first; the best has fitness −2.");
  assert.equal(fitnessText(0), "0");
  assert.equal(fitnessText(-7), "−7");
});

test("the attacked queens are those sharing a line with another", () => {
  assert.deepEqual([...attackedKeys([sq(0, 0), sq(2, 2), sq(1, 4)])].sort(), ["0,0", "2,2"]);
  assert.equal(attackedKeys([sq(0, 1), sq(1, 3), sq(2, 0), sq(3, 2)]).size, 0);
});

test("a recording shows each frame's own population, the random start before any, none for other runs", () => {
  const population = (generation) => ({ type: "population", generation, size: 4, best: [{ fitness: -generation, queens: [] }], spread: [] });
  const recording = new Recording();
  recording.push({ type: "started", solver: "genetic", rows: 4, cols: 4, fixed: [], board: [] });
  recording.push(population(0));
  assert.equal(recording.populationAt(0).generation, 0);
  for (const generation of [1, 2]) {
    recording.push(population(generation));
    recording.push({ type: "step", iteration: generation, score: -generation });
  }
  // A sampled run skips generations: a frame without one shows the last one before it.
  recording.push({ type: "board", queens: [], every: 2 });
  recording.push({ type: "step", iteration: 4, score: -4 });
  assert.deepEqual([0, 1, 2, 3].map((k) => recording.populationAt(k).generation), [0, 1, 2, 2]);
  const other = new Recording();
  other.push({ type: "started", solver: "hill-climbing", rows: 4, cols: 4, fixed: [], board: [] });
  other.push({ type: "step", iteration: 1, score: 0 });
  assert.equal(other.populationAt(1), null);
});
