// Squares, boards and the checks of what a user types: the page's one place for square names,
// attacks, and the limits the server gives in /api/solvers. Pure functions, tested with Node.

/** `text` as a sentence: capital first, full stop last. */
export function sentence(text) {
  const t = String(text).trim();
  if (!t) return t;
  const first = t[0].toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/** A square's name on a board `cols` wide: d1 up to 26 files, r1c4 beyond (or off the letters). */
export function squareName(square, cols) {
  return cols <= 26 && square.col < 26
    ? String.fromCharCode(97 + square.col) + (square.row + 1)
    : `r${square.row + 1}c${square.col + 1}`;
}

/** A file's label: a..z up to 26 files, 1.. beyond. */
export function fileLabel(col, cols) {
  return cols <= 26 ? String.fromCharCode(97 + col) : String(col + 1);
}

/** A 1-based number of decimal digits, 0-based; null for anything else. */
function oneBased(digits) {
  const value = Number(digits);
  return /^\d+$/.test(digits) && value >= 1 && value <= 4294967295 ? value - 1 : null;
}

/** `d1` or `r1c4` (any case) as a 0-based square, or null: the workbench's own reading. */
export function parseSquare(text) {
  const t = String(text).trim().toLowerCase();
  const r1c1 = /^r(\d*)c(\d*)$/.exec(t);
  if (r1c1 && oneBased(r1c1[1]) !== null && oneBased(r1c1[2]) !== null) {
    return { row: oneBased(r1c1[1]), col: oneBased(r1c1[2]) };
  }
  const algebraic = /^([a-z])(\d*)$/.exec(t);
  if (algebraic && oneBased(algebraic[2]) !== null) {
    return { row: oneBased(algebraic[2]), col: algebraic[1].charCodeAt(0) - 97 };
  }
  return null;
}

/**
 * Why `text`, shaped like a square (`d0`, `r5000000000c1`), names none: its rank, row or column
 * (the first that is wrong) is 0 or past every board; null where the shape is not a square's.
 */
function numberFault(text) {
  const t = String(text).trim().toLowerCase();
  const numbers = (/^r(\d+)c(\d+)$/.exec(t) ?? /^[a-z](\d+)$/.exec(t))?.slice(1).map(BigInt);
  for (const number of numbers ?? []) {
    if (number === 0n) return "ranks, rows and columns count from 1 (a1 and r1c1 are the corner)";
    if (number > 4294967295n) return "no board has it (rows and columns count up to 4294967295)";
  }
  return null;
}

/**
 * Comma-separated squares on an n×n board (or rows × cols); throws, when one is not, the
 * sentence the command line, the server and Python give.
 */
export function parseSquares(text, n, cols = n) {
  const list = String(text || "");
  if (!list.trim()) return [];
  const squares = list.split(",").map((item) => {
    // As the command line refuses it (`--fix d1,,e7`): an empty square is a slip, not nothing.
    if (!item.trim()) throw new Error(sentence(`empty square in list '${list}'`));
    const square = parseSquare(item);
    if (!square) {
      const fault = numberFault(item);
      throw new Error(sentence(fault
        ? `'${item.trim()}' is not a square: ${fault}`
        : `'${item.trim()}' is not a square (expected algebraic like d1 or R1C1 like r1c4)`));
    }
    return square;
  });
  const off = squares.find((square) => square.row >= n || square.col >= cols);
  if (off) throw new Error(sentence(`square ${squareName(off, cols)} is off the ${n}×${cols} board`));
  return squares;
}

/**
 * A board size as the command line writes it: "8" for 8×8 or "6x10" (rows × columns, x or ×),
 * each side from `min` to `max`; `{ rows, cols }`, or a sentence thrown, the one the server
 * and the command line give.
 */
export function parseSize(text, max, min = 1) {
  const whole = String(text ?? "").trim();
  const lower = whole.toLowerCase();
  const cut = lower.search(/[x×]/);
  if (cut < 0) {
    const n = checkWhole(lower, min, max, "N");
    return { rows: n, cols: n };
  }
  const side = (part, which) => {
    try {
      return checkWhole(part, min, max, which);
    } catch (e) {
      throw new Error(sentence(`in board size '${whole}': ${refusalOf(part, min, max, which)}`), { cause: e });
    }
  };
  return { rows: side(lower.slice(0, cut), "the rows"), cols: side(lower.slice(cut + 1), "the columns") };
}

/** A size as the command line writes it: "8" or "6x10". */
export const sizeText = ({ rows, cols }) => (rows === cols ? String(rows) : `${rows}x${cols}`);

/** A board's part of a query or link, as the server takes it: `{ n: 8 }` or `{ size: "6x10" }`. */
export const sizeParams = ({ rows, cols }) => (rows === cols ? { n: rows } : { size: sizeText({ rows, cols }) });

export const key = (square) => `${square.row},${square.col}`;

/** The line two squares share ("row", "column", "diagonal", "anti-diagonal"), or null. */
export function sharedLine(a, b) {
  if (a.row === b.row && a.col === b.col) return null;
  if (a.row === b.row) return "row";
  if (a.col === b.col) return "column";
  if (Math.abs(a.row - b.row) === Math.abs(a.col - b.col)) {
    return (a.row - b.row) * (a.col - b.col) > 0 ? "diagonal" : "anti-diagonal";
  }
  return null;
}

/** A line's name after its indefinite article, as a sentence says it: "a row", "an anti-diagonal". */
export const withArticle = (line) => `${/^[aeiou]/.test(line) ? "an" : "a"} ${line}`;

/** The queens of `queens` that attack `square` (share one of its lines), in their order. */
export function attackersOf(queens, square) {
  return queens.filter((q) => sharedLine(q, square));
}

/** `squares` with `square` added, or taken out if it is there. */
export function toggled(squares, square) {
  const k = key(square);
  return squares.some((q) => key(q) === k) ? squares.filter((q) => key(q) !== k) : [...squares, square];
}

/** Square colours: the `blocked` squares marked "blocked", over `base`'s colours (if any). */
export function blockedClass(blocked, base = () => "") {
  const names = new Set(blocked.map(key));
  return (row, col) => {
    const own = base(row, col);
    if (!names.has(`${row},${col}`)) return own;
    return own ? `${own} blocked` : "blocked";
  };
}

/** Every pair of queens that attack each other, as [a, b, line]. */
export function attackingPairs(queens) {
  const byLine = new Map();
  for (const q of queens) {
    for (const [line, id] of [["row", q.row], ["column", q.col], ["diagonal", q.row - q.col],
      ["anti-diagonal", q.row + q.col]]) {
      const k = `${line}:${id}`;
      if (!byLine.has(k)) byLine.set(k, []);
      byLine.get(k).push(q);
    }
  }
  const pairs = [];
  for (const [k, group] of byLine) {
    const line = k.slice(0, k.indexOf(":"));
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) pairs.push([group[i], group[j], line]);
    }
  }
  return pairs;
}

/** The squares of `square`'s row, column and both diagonals on an n×n board. */
export function linesThrough(square, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push({ row: square.row, col: i }, { row: i, col: square.col });
    const d = i - square.col;
    if (square.row + d >= 0 && square.row + d < n) out.push({ row: square.row + d, col: i });
    if (square.row - d >= 0 && square.row - d < n) out.push({ row: square.row - d, col: i });
  }
  return out.filter((s) => s.row !== square.row || s.col !== square.col);
}

/**
 * `names`, each the name of one of `known` (descriptors); else throws a sentence naming the first
 * that is not and listing the solvers `offered` (those the view lets one pick).
 */
export function checkSolvers(names, known, offered = known) {
  const unknown = names.find((name) => !known.some((s) => s.name === name));
  if (unknown !== undefined) {
    throw new Error(`There is no solver "${unknown}"; the solvers are ${offered.map((s) => s.name).join(", ")}.`);
  }
  return names;
}

/**
 * Why `text` is not a whole number in [min, max] (`what` names it), in the words of the
 * workbench's own refusal of a board side; null when it is one.
 */
function refusalOf(text, min, max, what) {
  const value = String(text).trim();
  if (!/^[-+]?\d+$/.test(value)) return `${what} must be a ${min >= 1 ? "positive " : ""}whole number, got '${value}'`;
  const number = BigInt(value);
  if (number < BigInt(min)) return `${what} must be at least ${min}, got ${number}`;
  if (number > BigInt(max)) return `${what} must be at most ${max}, got ${number}`;
  return null;
}

/** A whole number in [min, max] read from `text`, or a sentence saying what is wrong with it. */
export function checkWhole(text, min, max, what) {
  const refused = refusalOf(text, min, max, what);
  if (refused) throw new Error(sentence(refused));
  return Number(String(text).trim());
}

/** A seed: a whole number from 0 to 2⁶⁴ − 1, kept as text (it exceeds JavaScript's numbers). */
export function checkSeed(text) {
  const refused = refusalOf(text, 0, 18446744073709551615n, "seed");
  if (refused) throw new Error(sentence(refused));
  return BigInt(String(text).trim()).toString();
}

/** A bound as the workbench prints it (an unbounded one is "inf"). */
const bound = (x) => (x === Infinity ? "inf" : String(x));

/** A parameter's allowed values in words, as the workbench says them: "0 or 1", "1 to 100000", "[0, 1]". */
function rangeText(min, max, integer) {
  if (!integer) return `[${bound(min)}, ${bound(max)}]`;
  if (Math.trunc(max) - Math.trunc(min) === 1) return `${bound(min)} or ${bound(max)}`;
  return `${bound(min)} to ${bound(max)}`;
}

/**
 * A parameter's value checked against its descriptor (`{name, min, max, integer}`), refused in
 * the sentence the command line, the server and Python give.
 */
export function checkParameter(parameter, text) {
  const { name, min, integer } = parameter;
  const max = parameter.max ?? Infinity;
  const typed = String(text).trim();
  const value = Number(typed);
  if (typed === "" || !Number.isFinite(value)) throw new Error(sentence(`${name} must be a number, got '${typed}'`));
  if (integer && !Number.isInteger(value)) throw new Error(sentence(`${name} must be a whole number, got ${value}`));
  if (value >= min && value <= max) return value;
  const range = rangeText(min, max, integer);
  let allowed = `in ${range}`;
  if (integer) allowed = range.includes(" or ") ? range : `${value < min ? `at least ${min}` : `at most ${bound(max)}`} (${range})`;
  throw new Error(sentence(`${name} must be ${allowed}, got ${value}`));
}

/**
 * Numbers from a comma-separated list, each checked by `check`, none given twice (the server
 * refuses a repeated size or swept value, which would run its cells again); a refusal starts
 * with `field`, the list's name in the form ("Sizes").
 */
export function parseList(text, check, field) {
  const items = String(text || "").split(",").map((t) => t.trim()).filter(Boolean);
  if (!items.length) throw new Error(`${field}: give at least one value, separated by commas.`);
  const values = items.map(check);
  const repeated = values.find((value, index) => values.indexOf(value) < index);
  if (repeated !== undefined) throw new Error(`${field}: ${repeated} is given twice; give each value once.`);
  return values;
}
