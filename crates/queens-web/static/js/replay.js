// A run's recorded events as frames: one frame per solver step (an iteration or a node), each
// holding the step's own placements, removals and moves followed by its `step` event. The board
// after frame k is the `started` board with frames 1..k applied, so stepping, stepping back and
// scrubbing all show the solver's board at that step, with counters of that same step. Pure:
// tested with Node.

import { attackersOf, attackingPairs, key, linesThrough, sharedLine, squareName, withArticle } from "./squares.js";

/**
 * What one step of `solver`'s runs is, as an axis or a counter says it: "iterations", or for a
 * tree search its unit ("a board examined" → "boards examined"). Shared by Watch, Race and the
 * notebook's player.
 */
export function unitLabel(solver) {
  if (!solver || solver.counts !== "nodes") return "iterations";
  const [first, ...rest] = solver.unit.replace(/^an? /, "").split(" ");
  return [`${first}s`, ...rest].join(" ");
}

/** Frames between two saved boards, so that any frame is rebuilt from a nearby one. */
const SAVE_EVERY = 64;

export class Recording {
  constructor() {
    /** The `started` event: solver, rows, cols, fixed, board. */
    this.start = null;
    /**
     * `{ changes: [place|remove|move events], step: step event or null, forces: [force events],
     * population: population event or null }` per frame.
     */
    this.frames = [];
    /** The `finished` event, once the run is over. */
    this.finished = null;
    this.pending = [];
    this.forces = [];
    /** A population run's random start, and the population of the frame being recorded. */
    this.startPopulation = null;
    this.population = null;
    this.saved = [];
    this.board = new Map();
    /** The first frame that is a sample (the run too long to stream whole), or null. */
    this.sampledFrom = null;
    /** The frames (k, from 1) whose step found a solution, in order. */
    this.found = [];
  }

  /** Adds one event of the stream. */
  push(event) {
    switch (event.type) {
      case "started":
        this.start = event;
        this.board = new Map(event.board.map((q) => [key(q), q]));
        this.saved = [new Map(this.board)];
        break;
      case "place":
      case "remove":
      case "move":
        this.pending.push(event);
        break;
      case "force":
        this.forces.push(event);
        break;
      case "population":
        // A genetic generation, before its step; generation 0 is the random start.
        if (event.generation === 0) this.startPopulation = event;
        else this.population = event;
        break;
      case "board":
        // A sampled step: the whole board, the steps since the last one not streamed.
        if (this.sampledFrom === null) this.sampledFrom = this.frames.length + 1;
        this.pending.push(event);
        break;
      case "step":
        this.close(event);
        break;
      case "finished":
        if (this.pending.length) this.close(null);
        this.finished = event;
        break;
      default:
        break;
    }
  }

  close(step) {
    const frame = { changes: this.pending, step, forces: this.forces, population: this.population };
    this.pending = [];
    this.forces = [];
    this.population = null;
    apply(this.board, frame.changes);
    this.frames.push(frame);
    if (step?.note?.kind === "found") this.found.push(this.frames.length);
    if (this.frames.length % SAVE_EVERY === 0) this.saved.push(new Map(this.board));
  }

  /** Frames recorded so far. */
  get length() {
    return this.frames.length;
  }

  /** Whether the run has ended. */
  get done() {
    return this.finished !== null;
  }

  /** The queens after `k` frames, as `{row, col}` objects. */
  boardAt(k) {
    const index = Math.min(Math.floor(k / SAVE_EVERY), this.saved.length - 1);
    if (index < 0) return [];
    const board = new Map(this.saved[index]);
    for (let i = index * SAVE_EVERY; i < k && i < this.frames.length; i++) {
      apply(board, this.frames[i].changes);
    }
    return [...board.values()];
  }

  /** The changes of frame `k` (the one that led to the board after `k` frames). */
  changesAt(k) {
    return k >= 1 && k <= this.frames.length ? this.frames[k - 1].changes : [];
  }

  /** The solutions found up to frame `k`, that frame's own included. */
  solutionsAt(k) {
    let [low, high] = [0, this.found.length];
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.found[middle] <= k) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The step event of the last frame up to `k` that had one, or null. */
  stepAt(k) {
    for (let i = Math.min(k, this.frames.length) - 1; i >= 0; i--) {
      if (this.frames[i].step) return this.frames[i].step;
    }
    return null;
  }

  /**
   * A genetic run's population shown at frame `k`: the last one recorded up to it (a sampled
   * run skips generations), the random start before any; null for other runs.
   */
  populationAt(k) {
    if (!this.startPopulation) return null;
    for (let i = Math.min(k, this.frames.length) - 1; i >= 0; i--) {
      if (this.frames[i].population) return this.frames[i].population;
    }
    return this.startPopulation;
  }

  /** A population run's best, mean and worst fitness by generation, or null for other runs. */
  fitness() {
    const generations = this.frames.map((f) => f.step).filter((s) => s && s.note && s.note.kind === "generation");
    if (!generations.length) return null;
    return ["best", "mean", "worst"].map((name) => ({ name, points: generations.map((s) => [s.iteration, s.note[name]]) }));
  }

  /** Every step's (iteration, score). */
  scores() {
    return this.frames.filter((f) => f.step).map((f) => [f.step.iteration, f.step.score]);
  }

  /**
   * `[iteration, value]` for each step whose note `pick` gives a number for (null: none), as
   * annealing's temperature or the chance of the worse moves it proposed.
   */
  noteSeries(pick) {
    const points = [];
    for (const { step } of this.frames) {
      const value = step && step.note ? pick(step.note) : null;
      if (value !== null && value !== undefined) points.push([step.iteration, value]);
    }
    return points;
  }

  /**
   * `[iteration, attacking pairs]` of the board after each step: what a search that examines
   * whole boards (brute force) found on each one. Kept as the frames arrive, each counted once.
   */
  attackSeries() {
    this.attacks ??= { points: [], upTo: 0, board: new Map(this.saved[0]) };
    const { attacks } = this;
    for (; attacks.upTo < this.frames.length; attacks.upTo++) {
      const frame = this.frames[attacks.upTo];
      apply(attacks.board, frame.changes);
      if (frame.step) attacks.points.push([frame.step.iteration, attackingPairs([...attacks.board.values()]).length]);
    }
    return attacks.points;
  }
}

function apply(board, changes) {
  for (const change of changes) {
    if (change.type === "board") {
      board.clear();
      for (const q of change.queens) board.set(key(q), q);
    } else if (change.type === "place") board.set(key(change.square), change.square);
    else if (change.type === "remove") board.delete(key(change.square));
    else {
      board.delete(key(change.from));
      board.set(key(change.to), change.to);
    }
  }
}

/**
 * What to draw after `k` frames: the queens with their kinds (`locked` for the fixed ones,
 * `clash` for queens attacked by another), the attacking pairs, the marks of the last step (the
 * moved or placed queen's lines, where it came from, the row a tree search works on and the
 * square it tried), and the counters of that same step.
 */
export function frameModel(recording, k, n) {
  const queens = k === 0 && recording.start ? recording.start.board : recording.boardAt(k);
  const fixed = new Set((recording.start ? recording.start.fixed : []).map(key));
  const pairs = attackingPairs(queens);
  const clashing = new Set(pairs.flatMap(([a, b]) => [key(a), key(b)]));
  const marks = { "hl-line": [], from: [], moved: [], row: [], candidate: [] };
  const arrows = [];
  const changes = recording.changesAt(k);
  // The electric force's own state: the force on every queen it pushed, from where it stood.
  const forces = (k > 0 && recording.frames[k - 1]?.forces) || [];
  // Every queen the step placed, moved or removed: a ring where it is now, a ghost where it
  // was, an arrow for a move; the lines of the one queen a single-change step touched.
  for (const change of changes) {
    if (change.type === "board") continue;
    if (change.type === "move") {
      marks.moved.push(change.to);
      marks.from.push(change.from);
      arrows.push([change.from, change.to]);
    } else if (change.type === "place") {
      marks.moved.push(change.square);
    } else {
      marks.from.push(change.square);
    }
  }
  if (changes.length === 1 && (changes[0].type === "move" || changes[0].type === "place")) {
    marks["hl-line"].push(...linesThrough(changes[0].type === "move" ? changes[0].to : changes[0].square, n));
  }
  const note = recording.frames[k - 1]?.step?.note;
  if (note && note.kind === "proposal" && !note.taken && k > 0) {
    // A refused proposal: the square it would have moved to, ringed.
    marks.candidate.push(note.to);
  }
  const numbers = [];
  if (note && (note.kind === "swap" || note.kind === "repair") && k > 0) {
    // Min-conflicts' repair: the attacked queen's column tinted, each of its squares with the
    // conflicts a queen there would have on the board the step began from (up to 32 rows, where
    // the numbers can be read); a refused partner ringed.
    for (let row = 0; row < n; row++) marks.row.push({ row, col: note.queen.col });
    if (n <= 32) {
      conflictsInColumn(recording.boardAt(k - 1), note.queen.col, n)
        .forEach((count, row) => numbers.push({ row, col: note.queen.col, text: String(count) }));
    }
    if (note.kind === "swap" && !note.taken && key(note.partner) !== key(note.queen)) marks.candidate.push(note.partner);
  }
  const step = recording.stepAt(k);
  // A tree search's try, its row tinted; a rejected one joined to each queen that attacks it.
  const tries = [];
  if (step && step.square && k > 0) {
    for (let col = 0; col < n; col++) marks.row.push({ row: step.square.row, col });
    marks.candidate.push(step.square);
    if (!queens.some((q) => key(q) === key(step.square))) {
      tries.push(...attackersOf(queens, step.square).map((q) => [q, step.square]));
    }
  }
  return {
    queens: queens.map((q) => ({ row: q.row, col: q.col, kind: fixed.has(key(q)) ? "locked" : clashing.has(key(q)) ? "clash" : "" })),
    pairs: pairs.map(([a, b]) => [a, b]),
    tries,
    marks,
    arrows,
    forces,
    numbers,
    counters: {
      step: k,
      steps: recording.length,
      iteration: step ? step.iteration : 0,
      score: step ? step.score : null,
      queens: queens.length,
      pairs: pairs.length,
      solutions: recording.solutionsAt(k),
    },
  };
}

/**
 * For each row of column `col`, how many queens of the other columns attack that square: the
 * conflicts a queen of the column would have there.
 */
export function conflictsInColumn(queens, col, n) {
  const counts = new Array(n).fill(0);
  for (const q of queens) {
    if (q.col === col) continue;
    for (let row = 0; row < n; row++) {
      if (q.row === row || Math.abs(q.row - row) === Math.abs(q.col - col)) counts[row] += 1;
    }
  }
  return counts;
}

/** At most `limit` points of `points`, evenly chosen (the last one kept). */
export function thin(points, limit) {
  if (points.length <= limit) return points;
  const every = points.length / limit;
  const out = [];
  for (let i = 0; i < limit; i++) out.push(points[Math.floor(i * every)]);
  out.push(points[points.length - 1]);
  return out;
}

/** "c2→c7" for moves, "c5" for squares. */
function moveList(changes, n, type) {
  return changes.filter((c) => c.type === type)
    .map((c) => (type === "move" ? `${squareName(c.from, n)}→${squareName(c.to, n)}` : squareName(c.square, n)));
}

/** At most `most` items, then how many more. */
function listed(items, most = 6) {
  return items.length <= most ? items.join(", ") : `${items.slice(0, most).join(", ")} and ${items.length - most} more`;
}

/** "1st", "2nd", "3rd", "11th", "22nd": a whole number as an ordinal. */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" })[n % 10] || "th";
  return `${n.toLocaleString()}${suffix}`;
}

/** A number as the narration prints it: whole, or two significant digits. */
export const number = (x) => (Math.abs(x) >= 100 || Number.isInteger(x) ? x.toLocaleString() : x.toPrecision(2));

/**
 * What a step with `note` (the solver's own account of it) did, in words; null for a note the
 * narration does not tell, which is then told from the changes.
 */
function noteSentence(note, { recording, frame, k, n, moves, placed }) {
  switch (note.kind) {
    case "thrown":
      return `every queen to a random row: ${moves.length} moved${moves.length ? ` (${listed(moves)})` : ""}`;
    case "tried":
      return `each queen tried on a random row: ${note.kept} kept (no worse), ${note.undone} put back (worse)${moves.length ? `; moved ${listed(moves)}` : ""}`;
    case "proposal": {
      const move = `${squareName(note.from, n)}→${squareName(note.to, n)}`;
      if (key(note.from) === key(note.to)) return `try ${move}: the queen's own square, nothing moves`;
      if (note.loss <= 0) return `move ${move}: ${note.loss < 0 ? `better by ${-note.loss}` : "no worse"}, taken`;
      const chance = `p = e^(−${note.loss}/T) = ${number(note.probability)} at T = ${number(note.temperature)}`;
      return note.taken ? `worse move ${move} (by ${note.loss}) accepted: ${chance}` : `try ${move}: worse by ${note.loss}, rejected (${chance})`;
    }
    case "climbed": {
      // The score before is the step's own less its gain: "score 25 → 26".
      const after = frame.step.score;
      return `climb: ${listed(moves)}, the best single move, score ${number(after - note.gain)} → ${number(after)} (+${note.gain})`;
    }
    case "stuck":
      return "stuck: no single move improves the board (a local optimum); nothing moves";
    case "shake":
      return `shake (chance ${number(note.probability)}): ${moves.length ? listed(moves) : "the queens drew their own rows"}`;
    case "swap": {
      const [queen, partner] = [squareName(note.queen, n), squareName(note.partner, n)];
      if (key(note.queen) === key(note.partner)) return `repair ${queen}: the partner drawn is its own column, nothing to try`;
      if (note.kicked) return `kick: ${queen} swaps rows with ${partner} whatever it gives, having found no better swap for long (${listed(moves)})`;
      return note.taken
        ? `swap: ${queen} and ${partner} trade rows, fewer collisions (${listed(moves)})`
        : `try swapping ${queen} with ${partner}: no fewer collisions, refused`;
    }
    case "repair": {
      const [queen, to] = [squareName(note.queen, n), squareName(note.to, n)];
      const counts = conflictsInColumn(recording.boardAt(k - 1), note.queen.col, n);
      const fewest = Math.min(...counts);
      const conflicts = (c) => `${c} conflict${c === 1 ? "" : "s"}`;
      return key(note.queen) === key(note.to)
        ? `repair ${queen} (${conflicts(counts[note.queen.row])}): no row of its column has fewer, it stays`
        : `repair ${queen} (${conflicts(counts[note.queen.row])}): to ${to}, a row with the fewest, ${conflicts(fewest)}`;
    }
    case "push": {
      // The queens attacked when the push began are pushed in turn; one an earlier push freed
      // is left, and a push off the board or onto a queen moves nothing.
      const forces = frame.forces || [];
      const attacked = `${note.attacked} queen${note.attacked === 1 ? "" : "s"} attacked`;
      const pushed = forces.length && forces.length < note.attacked
        ? `push: ${attacked}, ${forces.length} still attacked when its turn came and pushed along the force on it`
        : `push: the ${attacked}, each pushed along the force on it`;
      const blocked = forces.length > moves.length && moves.length ? ", the others blocked by the rim or a queen" : "";
      const made = moves.length ? ` (${listed(moves)}${blocked})` : ", none could move";
      return note.restarted ? `restart from a new random board, the last one not settling; ${pushed}${made}` : `${pushed}${made}`;
    }
    case "brute_force":
      return `brute force of the last ${note.queens} queen${note.queens === 1 ? "" : "s"}: `
        + (placed.length ? `lifted to ${listed(placed)}${placed.length < note.queens ? ", the rest already on free squares" : ""}` : "they already stood on free squares")
        + ", solved";
    case "generation": {
      const changed = moves.length + placed.length;
      return `generation of ${note.size}: fitness best ${note.best}, mean ${note.mean.toFixed(1)}, worst ${note.worst}; `
        + (changed ? `the best board changed (${listed([...moves, ...placed])})` : "the best board is unchanged");
    }
    case "restart":
      return `restart of ${note.queens} queen${note.queens === 1 ? "" : "s"}, the score having stalled: ${moves.length ? listed(moves) : "they drew their own rows"}`;
    default:
      return null;
  }
}

/**
 * ", the 17th found" for a step whose `note` found a solution, when the search went on past its
 * first (every solution found is recorded, so more than one recorded says so); "" otherwise.
 */
function whichFound(recording, note) {
  return note?.kind === "found" && (note.solutions > 1 || recording.found.length > 1) ? `, the ${ordinal(note.solutions)} found` : "";
}

/**
 * One line telling what frame `k` did and why: from the step's note where the solver gives one
 * (the local-search family), from the board where it does not (a tree search's try is rejected
 * because a queen on the board attacks its square), else from the changes themselves.
 */
export function narrate(recording, k, n) {
  if (k === 0) {
    const start = recording.start;
    if (!start) return "";
    const fixed = start.fixed.length ? `, ${start.fixed.length} locked` : "";
    return start.board.length > start.fixed.length ? `start: the solver's first board${fixed}` : `start: an empty board${fixed}`;
  }
  const frame = recording.frames[k - 1];
  if (!frame) return "";
  const { changes, step } = frame;
  const sample = changes.find((c) => c.type === "board");
  if (sample) {
    const at = step ? ` at ${step.iteration.toLocaleString()}` : "";
    const gap = sample.every === 1 ? "the step after the one before" : `${sample.every.toLocaleString()} steps after the one before`;
    // A solution found is always sent: the sample says so.
    const note = step?.note;
    const found = note?.kind === "found" ? `; ${step.square ? "every row has its queen" : "checked: no attacking pair"}: a solution${whichFound(recording, note)}` : "";
    return `sampled: the board${at}, ${gap}${found}; the run is too long to send whole, so from here on only samples are shown (its counts are exact)`;
  }
  const moves = moveList(changes, n, "move");
  const placed = moveList(changes, n, "place");
  const removed = moveList(changes, n, "remove");
  const note = step && step.note;
  const told = note ? noteSentence(note, { recording, frame, k, n, moves, placed }) : null;
  if (told !== null) return told;
  const parts = [];
  if (removed.length) parts.push(`backtrack: remove ${listed(removed)}`);
  if (step && step.square) {
    const name = squareName(step.square, n);
    if (placed.includes(name)) {
      parts.push(`try ${name}: free, place a queen`);
    } else {
      const board = recording.boardAt(k);
      const [by] = attackersOf(board, step.square);
      parts.push(by ? `try ${name}: attacked by ${squareName(by, n)} on ${withArticle(sharedLine(by, step.square))}, rejected` : `try ${name}`);
    }
    const others = placed.filter((p) => p !== name);
    if (others.length) parts.push(`place ${listed(others)}`);
  } else {
    if (placed.length) parts.push(`place ${listed(placed)}`);
  }
  if (moves.length) parts.push(`move ${listed(moves)}`);
  if (!parts.length) return step ? "no change" : "";
  // A search that examines whole boards (brute force) says what it found on the one it made; a
  // tree search that places the last queen says it has a solution.
  const board = recording.boardAt(k);
  if (step && recording.start && board.length === recording.start.queens) {
    const found = attackingPairs(board).length;
    const which = whichFound(recording, note);
    if (!step.square) parts.push(found ? `checked: ${found} attacking pair${found === 1 ? "" : "s"}, rejected` : `checked: no attacking pair, a solution${which}`);
    else if (!found) parts.push(`every row has its queen: a solution${which}`);
  }
  return parts.join("; ");
}

/** The solver's own state after frame `k`, from its last step's note, in words; "" if none. */
export function solverState(recording, k) {
  const note = recording.stepAt(k)?.note;
  if (!note) return "";
  switch (note.kind) {
    case "proposal":
      return `temperature T = ${number(note.temperature)}; the last proposal ${note.loss > 0 ? `was worse by ${note.loss}, its chance e^(−${note.loss}/T) = ${number(note.probability)}` : "was no worse, taken for sure"}`;
    case "shake":
      return `chance of a shake: ${number(note.probability)}`;
    case "repair": {
      const counts = conflictsInColumn(recording.boardAt(k - 1), note.queen.col, recording.start.rows);
      const column = squareName(note.queen, recording.start.rows).replace(/\d+$/, "");
      return `conflicts in column ${column} from rank 1 up: ${listed(counts.map(String), 12)}`;
    }
    case "push": {
      const forces = recording.frames[k - 1]?.forces || [];
      const strongest = forces.reduce((best, f) => (best && Math.hypot(best.col, best.row) >= Math.hypot(f.col, f.row) ? best : f), null);
      const phase = note.restarted ? "phase: forces, on a new random board" : "phase: forces";
      return strongest
        ? `${phase}; ${forces.length} queen${forces.length === 1 ? "" : "s"} pushed, the strongest force ${number(Math.hypot(strongest.col, strongest.row))} on ${squareName(strongest.queen, recording.start.rows)}`
        : phase;
    }
    case "brute_force":
      return `phase: brute force of the last ${note.queens} queen${note.queens === 1 ? "" : "s"}`;
    case "generation":
      return `population ${note.size}: fitness ${note.worst} to ${note.best}, mean ${note.mean.toFixed(1)}`;
    case "tried":
      return `${note.kept} moves kept, ${note.undone} put back this step`;
    default:
      return "";
  }
}

/**
 * The event frame `k` is, for "play to the next event": a tree search's `backtrack`, a climber's
 * `stuck` (a stall), a `shake`, a `restart` or a min-conflicts `kick`, or a `solution` (each one a
 * search finds, or the one that ends a solved run); null for an ordinary step. Told from the frame alone, so a scan is quick.
 */
export function eventAt(recording, k) {
  const frame = k > 0 ? recording.frames[k - 1] : null;
  if (!frame) return null;
  const note = frame.step?.note;
  if (note?.kind === "found" || (k === recording.length && recording.finished?.status === "solved")) return "solution";
  if (note) {
    if (["stuck", "shake", "restart"].includes(note.kind)) return note.kind;
    if (note.kind === "swap" && note.kicked) return "kick";
    if (note.kind === "push" && note.restarted) return "restart";
    return null;
  }
  return frame.changes.some((c) => c.type === "remove") ? "backtrack" : null;
}

/** The first frame after `k` that is an event (see `eventAt`), or null if none is recorded yet. */
export function nextEvent(recording, k) {
  for (let next = k + 1; next <= recording.length; next++) {
    if (eventAt(recording, next)) return next;
  }
  return null;
}

/**
 * The moments frame `k` did, as the solvers' pseudo-code lines name them (`CodeLine` in the
 * descriptors): its note's kind and how a proposal or a swap ended, or a tree search's
 * `place`, `reject` and `backtrack`, a whole board's `check` and a solution's `solved`; every
 * frame with a step is also a `step`.
 */
export function moments(recording, k) {
  const frame = k > 0 ? recording.frames[k - 1] : null;
  const out = new Set();
  if (!frame) return out;
  const { changes, step } = frame;
  if (step) out.add("step");
  // A solution found is told by the board, as any tree search's step is.
  const note = step && step.note && step.note.kind !== "found" ? step.note : null;
  if (note) {
    out.add(note.kind);
    if (note.kind === "proposal") out.add(note.taken ? (note.loss > 0 ? "accept_worse" : "accept") : "reject");
    if (note.kind === "swap" && !note.taken) out.add("refused");
    if (note.kind === "swap" && note.kicked) out.add("kick");
    if (note.kind === "push" && note.restarted) out.add("restart");
    return out;
  }
  if (changes.some((c) => c.type === "remove")) out.add("backtrack");
  if (step && step.square) {
    out.add(changes.some((c) => c.type === "place" && key(c.square) === key(step.square)) ? "place" : "reject");
  }
  // A frame that leaves every queen on the board: a whole board examined (brute force), and the
  // solution returned when no two of them attack each other.
  const board = recording.boardAt(k);
  if (step && recording.start && board.length === recording.start.queens) {
    if (!step.square) out.add("check");
    if (!attackingPairs(board).length) out.add("solved");
  }
  return out;
}
