// A run's recorded events as frames: one frame per solver step (an iteration or a node), each
// holding the step's own placements, removals and moves followed by its `step` event. The board
// after frame k is the `started` board with frames 1..k applied, so stepping, stepping back and
// scrubbing all show the solver's board at that step, with counters of that same step. Pure:
// tested with Node.

import { attackingPairs, key, linesThrough } from "./squares.js";

/** Frames between two saved boards, so that any frame is rebuilt from a nearby one. */
const SAVE_EVERY = 64;

export class Recording {
  constructor() {
    /** The `started` event: solver, rows, cols, fixed, board. */
    this.start = null;
    /** `{ changes: [place|remove|move events], step: step event or null }` per frame. */
    this.frames = [];
    /** The `finished` event, once the run is over. */
    this.finished = null;
    this.pending = [];
    this.saved = [];
    this.board = new Map();
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
    const frame = { changes: this.pending, step };
    this.pending = [];
    apply(this.board, frame.changes);
    this.frames.push(frame);
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

  /** The step event of the last frame up to `k` that had one, or null. */
  stepAt(k) {
    for (let i = Math.min(k, this.frames.length) - 1; i >= 0; i--) {
      if (this.frames[i].step) return this.frames[i].step;
    }
    return null;
  }

  /** Every step's (iteration, score). */
  scores() {
    return this.frames.filter((f) => f.step).map((f) => [f.step.iteration, f.step.score]);
  }
}

function apply(board, changes) {
  for (const change of changes) {
    if (change.type === "place") board.set(key(change.square), change.square);
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
  const changes = recording.changesAt(k);
  const last = changes[changes.length - 1];
  if (last) {
    const at = last.type === "move" ? last.to : last.square;
    if (last.type !== "remove") {
      marks["hl-line"].push(...linesThrough(at, n));
      marks.moved.push(at);
    }
    if (last.type === "move") marks.from.push(last.from);
    if (last.type === "remove") marks.from.push(last.square);
  }
  const step = recording.stepAt(k);
  if (step && step.square && k > 0) {
    for (let col = 0; col < n; col++) marks.row.push({ row: step.square.row, col });
    marks.candidate.push(step.square);
  }
  return {
    queens: queens.map((q) => ({ row: q.row, col: q.col, kind: fixed.has(key(q)) ? "locked" : clashing.has(key(q)) ? "clash" : "" })),
    pairs: pairs.map(([a, b]) => [a, b]),
    marks,
    counters: {
      step: k,
      steps: recording.length,
      iteration: step ? step.iteration : 0,
      score: step ? step.score : null,
      queens: queens.length,
      pairs: pairs.length,
    },
  };
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
