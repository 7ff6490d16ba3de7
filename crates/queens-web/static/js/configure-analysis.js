// Reading the configurator's analysis: a square's status, completions and reason from the
// server's compact document, the sentence that explains a square, the squares its reason
// marks on the board, and the position's summary line.
//
// The server answers with its compact document: every square's status as one symbol of a
// string, the counts as one list, and the reasons of small boards whole; on a larger board the
// reason of a square is asked for when the square is explained.

/** The cell of square index `index` in a compact analysis: its status, completions and reason. */
export function cellAt(a, index) {
  return {
    status: a.legend[a.statuses[index]],
    completions: a.counts ? a.counts[index] : undefined,
    reason: a.reasons[index],
  };
}

/** How many squares of a compact analysis have `status`. */
export function countStatus(a, status) {
  if (!a.tally) {
    a.tally = {};
    for (const symbol of a.statuses) a.tally[symbol] = (a.tally[symbol] || 0) + 1;
  }
  const symbol = Object.keys(a.legend).find((s) => a.legend[s] === status);
  return (symbol && a.tally[symbol]) || 0;
}

/** Whether analysis `a` counted its completions exactly. */
export function exact(a) {
  return a.completions !== null && a.completions !== undefined;
}

/** The squares strictly between two squares on a shared line. */
function between(a, b) {
  const out = [];
  const dr = Math.sign(b.row - a.row);
  const dc = Math.sign(b.col - a.col);
  for (let r = a.row + dr, c = a.col + dc; r !== b.row || c !== b.col; r += dr, c += dc) {
    out.push({ row: r, col: c });
  }
  return out;
}

function lineSquares(line, n) {
  return Array.from({ length: n }, (_, i) => (line.row !== undefined ? { row: line.row, col: i } : { row: i, col: line.col }));
}

/** The squares a case split tries, nested splits' cases included. */
function caseSquares(cases) {
  return cases.flatMap((c) => [c.square, ...(c.then && c.then.cases ? caseSquares(c.then.cases) : [])]);
}

/** The marks of `square` explained by `why` (a reason, or none) on an n×n board. */
export function reasonMarks(square, why, n) {
  const marks = { "hl-self": [], "hl-line": [], "hl-source": [], "hl-chain": [] };
  if (!square) return marks;
  marks["hl-self"].push(square);
  if (!why) return marks;
  const line = why.line ? lineSquares(why.line, n) : [];
  switch (why.kind) {
    case "attacked":
      marks["hl-line"].push(...between(why.by, square));
      marks["hl-source"].push(why.by);
      break;
    case "no_free_square":
    case "empties_line":
      marks["hl-line"].push(...line);
      marks["hl-source"].push(...(why.blocked || []));
      break;
    case "forced_chain":
      marks["hl-line"].push(...line);
      marks["hl-chain"].push(...why.chain);
      marks["hl-source"].push(...(why.blocked || []));
      break;
    case "case_split":
      marks["hl-line"].push(...line);
      marks["hl-chain"].push(...why.chain, ...caseSquares(why.cases));
      break;
    case "crowded":
      for (const crowded of why.lines) marks["hl-line"].push(...lineSquares(crowded, n));
      marks["hl-chain"].push(...why.chain);
      break;
    default:
      marks["hl-source"].push(...(why.queens || []), ...(why.blocked || []));
  }
  return marks;
}

/** How a square's status is said after its name, where "is STATUS" would not read. */
const STATUS_PHRASE = { queen: "holds a queen you placed", unknown: "is not decided in time" };

/**
 * The sentence that explains `square` (named `name`) of analysis `a`, pinned by a tap (`touch`)
 * or a click when `pin`; `ask` is true when its reason is still to be asked of the server. A
 * failure to give the reason is told once (the failure is a sentence of its own); the next time
 * the square is explained, it is asked again.
 */
export function explainSquare(a, square, name, pin, touch = false) {
  const cell = cellAt(a, square.row * a.n + square.col);
  const plural = (k) => (k === 1 ? "" : "s");
  let text = `${name} ${STATUS_PHRASE[cell.status] || `is ${cell.status}`}`;
  let ask = false;
  if (cell.completions !== undefined && cell.status !== "blocked") text += `, in ${cell.completions.toLocaleString()} completion${plural(cell.completions)}`;
  if (cell.status === "forced") text += ": every completion has a queen here.";
  else if (cell.status === "blocked") text += ": no queen may stand here. Shift-click (or Block squares) unblocks it.";
  else if (cell.reason) {
    // "attacked by d1 on a column" says its status itself: "d5 is attacked by d1 …".
    const told = cell.reason.text;
    text = told.startsWith(`${cell.status} `) ? `${name} is ${told}.` : `${name} is ${cell.status}: ${told}.`;
  }
  else if ((cell.status === "attacked" || cell.status === "dead") && !a.all_reasons) {
    const index = square.row * a.n + square.col;
    const failure = a.failed?.get(index);
    if (failure === undefined) {
      text += " (asking the server why…).";
      ask = true;
    } else {
      a.failed.delete(index);
      text += `; the server could not give the reason. ${failure} Choose the square again to ask once more.`;
    }
  } else text += ".";
  if (pin && cell.status !== "queen" && cell.status !== "forced" && cell.status !== "blocked") {
    text += ` ${touch ? "Tap" : "Click"} again to place a queen${cell.status === "open" ? "" : " anyway"}.`;
  }
  return { text, ask, reason: cell.reason };
}

/** The position's summary: its completions, placed, forced, open, dead, blocked and unknown squares. */
export function summaryText(a) {
  const count = (status) => countStatus(a, status);
  const parts = [];
  if (exact(a)) parts.push(`${a.completions.toLocaleString()} completion${a.completions === 1 ? "" : "s"}`);
  parts.push(`${a.queens.length} placed`, `${a.forced.length} forced`, `${count("open")} open`, `${count("dead")} dead`);
  if (count("blocked")) parts.push(`${count("blocked")} blocked`);
  if (count("unknown")) parts.push(`${count("unknown")} unknown`);
  return parts.join(" · ");
}

/** The indicator's words and class for analysis `a`'s answer. */
export function solvableText(a) {
  if (a.solvable === true) return ["still solvable", "yes"];
  if (a.solvable === false) return ["no solution left", "no"];
  return ["undecided within the budget", "maybe"];
}
