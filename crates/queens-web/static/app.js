// The queens workbench page: configure, watch, experiments and counting.
// Plain JavaScript, no build step; it talks to the JSON and event-stream API of `queens serve`.

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- squares and boards

function squareName(row, col, n) {
  return n <= 26 ? String.fromCharCode(97 + col) + (row + 1) : `r${row + 1}c${col + 1}`;
}

function parseSquare(text) {
  const t = text.trim().toLowerCase();
  let m = /^([a-z])(\d+)$/.exec(t);
  if (m) return { row: Number(m[2]) - 1, col: m[1].charCodeAt(0) - 97 };
  m = /^r(\d+)c(\d+)$/.exec(t);
  if (m) return { row: Number(m[1]) - 1, col: Number(m[2]) - 1 };
  return null;
}

const key = (s) => `${s.row},${s.col}`;

function attacks(a, b) {
  return a.row === b.row || a.col === b.col || Math.abs(a.row - b.row) === Math.abs(a.col - b.col);
}

// A board of n×n cells, top rank first; `cells[row][col]` is the element of a square.
function makeBoard(container, n, handlers) {
  container.innerHTML = "";
  container.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
  container.style.gridTemplateRows = `repeat(${n}, 1fr)`;
  container.style.setProperty("--glyph", `${Math.max(0.45, Math.min(1.6, 22 / n))}rem`);
  const cells = Array.from({ length: n }, () => new Array(n));
  for (let row = n - 1; row >= 0; row--) {
    for (let col = 0; col < n; col++) {
      const cell = document.createElement("div");
      cell.className = `cell ${(row + col) % 2 ? "light" : "dark"}`;
      cell.dataset.row = row;
      cell.dataset.col = col;
      cell.dataset.square = squareName(row, col, n);
      cells[row][col] = cell;
      container.appendChild(cell);
    }
  }
  const target = (event) => event.target.closest(".cell");
  if (handlers.click) {
    container.onclick = (event) => {
      const cell = target(event);
      if (cell) handlers.click(Number(cell.dataset.row), Number(cell.dataset.col));
    };
  }
  if (handlers.hover) {
    container.onmouseover = (event) => {
      const cell = target(event);
      if (cell) handlers.hover(Number(cell.dataset.row), Number(cell.dataset.col));
    };
    container.onmouseleave = () => handlers.hover(null, null);
  }
  return cells;
}

function lineSquares(line, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(line.row !== undefined ? { row: line.row, col: i } : { row: i, col: line.col });
  }
  return out;
}

// The squares strictly between two squares on a shared line.
function between(a, b) {
  const out = [];
  const dr = Math.sign(b.row - a.row);
  const dc = Math.sign(b.col - a.col);
  let r = a.row + dr;
  let c = a.col + dc;
  while (r !== b.row || c !== b.col) {
    out.push({ row: r, col: c });
    r += dr;
    c += dc;
  }
  return out;
}

async function errorOf(response) {
  try {
    return (await response.json()).error || response.statusText;
  } catch {
    return response.statusText;
  }
}

// ---------------------------------------------------------------- tabs and the URL

const tabs = ["configure", "watch", "lab"];

function showTab(name) {
  for (const tab of tabs) $(tab).hidden = tab !== name;
  for (const button of document.querySelectorAll("nav button")) {
    button.classList.toggle("active", button.dataset.tab === name);
  }
  if (name !== "configure") history.replaceState(null, "", `#${name}`);
  else cfgSaveUrl();
}

for (const button of document.querySelectorAll("nav button")) {
  button.onclick = () => showTab(button.dataset.tab);
}

// ---------------------------------------------------------------- configure

const cfg = { n: 8, queens: [], past: [], future: [], analysis: null, cells: [], request: null, pinned: null };

function cfgSaveUrl() {
  const q = cfg.queens.map((s) => squareName(s.row, s.col, cfg.n)).join(",");
  history.replaceState(null, "", `#configure?n=${cfg.n}${q ? `&q=${q}` : ""}`);
}

function cfgSetBoard(n) {
  cfg.n = n;
  $("cfg-n").value = n;
  cfg.cells = makeBoard($("cfg-board"), n, { click: cfgClick, hover: cfgHover });
}

function cfgCommit(queens) {
  cfg.past.push(cfg.queens);
  cfg.future = [];
  cfg.queens = queens;
  cfgAnalyse();
}

async function cfgAnalyse() {
  cfgSaveUrl();
  if (cfg.request) cfg.request.abort(); // a newer click cancels the older analysis
  const request = new AbortController();
  cfg.request = request;
  $("cfg-solvable").textContent = "analysing…";
  $("cfg-solvable").className = "indicator maybe";
  let response;
  try {
    response = await fetch("/api/configure", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ n: cfg.n, queens: cfg.queens }),
      signal: request.signal,
    });
  } catch (error) {
    if (error.name !== "AbortError") cfgError(String(error));
    return;
  }
  if (request !== cfg.request) return;
  if (!response.ok) {
    cfgError(await errorOf(response));
    return;
  }
  $("cfg-error").hidden = true;
  cfg.analysis = await response.json();
  cfgPaint();
}

function cfgError(message) {
  $("cfg-error").textContent = message;
  $("cfg-error").hidden = false;
  $("cfg-solvable").textContent = "no analysis";
}

function cfgPaint() {
  const a = cfg.analysis;
  if (!a || a.n !== cfg.n) return;
  const heat = $("cfg-heat").checked && a.completions;
  for (const cell of a.cells) {
    const el = cfg.cells[cell.row][cell.col];
    el.className = `cell ${(cell.row + cell.col) % 2 ? "light" : "dark"} ${cell.status}`;
    el.dataset.status = cell.status;
    el.title = cell.completions !== undefined ? `${cell.completions} completions` : "";
    if (heat && cell.status === "open") {
      el.classList.add("heat");
      el.style.setProperty("--heat", (0.15 + 0.85 * cell.completions / a.completions).toFixed(3));
    }
  }
  const indicator = $("cfg-solvable");
  if (a.solvable === true) {
    indicator.textContent = "still solvable";
    indicator.className = "indicator yes";
  } else if (a.solvable === false) {
    indicator.textContent = "no solution left";
    indicator.className = "indicator no";
  } else {
    indicator.textContent = "undecided (budget)";
    indicator.className = "indicator maybe";
  }
  const count = (status) => a.cells.filter((c) => c.status === status).length;
  const parts = [];
  if (a.completions !== null && a.completions !== undefined) {
    parts.push(`${a.completions.toLocaleString()} completion${a.completions === 1 ? "" : "s"}`);
  }
  parts.push(`${a.queens.length} placed`, `${a.forced.length} forced`, `${count("open")} open`,
    `${count("dead")} dead`);
  if (count("unknown")) parts.push(`${count("unknown")} unknown`);
  $("cfg-summary").textContent = `${parts.join(" · ")} — ${a.engine} engine`;
  $("cfg-undo").disabled = cfg.past.length === 0;
  $("cfg-redo").disabled = cfg.future.length === 0;
  if (cfg.pinned) cfgExplain(cfg.pinned.row, cfg.pinned.col);
}

function cfgClick(row, col) {
  const a = cfg.analysis;
  const status = a && a.n === cfg.n ? a.cells[row * cfg.n + col].status : "open";
  if (status === "queen") {
    cfgCommit(cfg.queens.filter((q) => q.row !== row || q.col !== col));
  } else if (status === "attacked") {
    cfg.pinned = { row, col };
    cfgExplain(row, col);
  } else {
    cfg.pinned = null;
    cfgCommit([...cfg.queens, { row, col }]);
  }
}

function cfgHover(row, col) {
  if (row === null) {
    if (cfg.pinned) cfgExplain(cfg.pinned.row, cfg.pinned.col);
    else cfgClearHighlights();
    return;
  }
  cfgExplain(row, col);
}

function cfgClearHighlights() {
  for (const el of $("cfg-board").querySelectorAll(".hl-line, .hl-source, .hl-chain, .hl-self")) {
    el.classList.remove("hl-line", "hl-source", "hl-chain", "hl-self");
  }
}

function cfgExplain(row, col) {
  const a = cfg.analysis;
  if (!a || a.n !== cfg.n) return;
  cfgClearHighlights();
  const cell = a.cells[row * cfg.n + col];
  const name = squareName(row, col, cfg.n);
  const mark = (squares, cls) => {
    for (const s of squares) cfg.cells[s.row][s.col].classList.add(cls);
  };
  mark([{ row, col }], "hl-self");
  const reason = cell.reason;
  let text = `${name}: ${cell.status}`;
  if (cell.completions !== undefined) text += `, in ${cell.completions} completion${cell.completions === 1 ? "" : "s"}`;
  if (cell.status === "forced") text += " — every completion has a queen here";
  if (reason) {
    text = `${name} is ${cell.status}: ${reason.text}`;
    switch (reason.kind) {
      case "attacked":
        mark(between(reason.by, { row, col }), "hl-line");
        mark([reason.by], "hl-source");
        break;
      case "empties_line":
        mark(lineSquares(reason.line, cfg.n), "hl-line");
        break;
      case "forced_chain":
        mark(lineSquares(reason.line, cfg.n), "hl-line");
        mark(reason.chain, "hl-chain");
        break;
      case "crowded":
        for (const line of reason.lines) mark(lineSquares(line, cfg.n), "hl-line");
        mark(reason.chain, "hl-chain");
        break;
      case "conflict":
      case "unsolvable":
        mark(reason.queens, "hl-source");
        break;
    }
  }
  $("cfg-reason").textContent = text;
}

$("cfg-n").onchange = () => {
  const n = Number($("cfg-n").value);
  if (!Number.isInteger(n) || n < 1 || n > 200) return;
  cfg.past = [];
  cfg.future = [];
  cfg.queens = [];
  cfg.pinned = null;
  cfgSetBoard(n);
  cfgAnalyse();
};
$("cfg-undo").onclick = () => {
  if (!cfg.past.length) return;
  cfg.future.push(cfg.queens);
  cfg.queens = cfg.past.pop();
  cfgAnalyse();
};
$("cfg-redo").onclick = () => {
  if (!cfg.future.length) return;
  cfg.past.push(cfg.queens);
  cfg.queens = cfg.future.pop();
  cfgAnalyse();
};
$("cfg-reset").onclick = () => {
  if (cfg.queens.length) cfgCommit([]);
};
$("cfg-heat").onchange = cfgPaint;
document.addEventListener("keydown", (event) => {
  if ($("configure").hidden || !(event.ctrlKey || event.metaKey)) return;
  if (event.key === "z") $("cfg-undo").click();
  if (event.key === "y") $("cfg-redo").click();
});

// ---------------------------------------------------------------- watch

// The largest board Watch draws: the server's limit for watched runs, within what the page
// draws square by square (the configurator's limit). Both come from /api/solvers.
let watchMaxN = 64;

const watch = {
  n: 8, cells: [], source: null, queue: [], queens: new Map(), locked: [], playing: true,
  budget: 0, shown: 0, scores: [], running: false, finished: null,
};

function speed() {
  return Math.round(10 ** Number($("w-speed").value));
}

$("w-speed").oninput = () => {
  $("w-speed-out").textContent = Number($("w-speed").value) >= 6 ? "max" : `${speed()}/s`;
};

function watchSetBoard() {
  const n = Number($("w-n").value);
  if (!Number.isInteger(n) || n < 1 || n > watchMaxN) return;
  watch.n = n;
  watch.locked = watch.locked.filter((s) => s.row < n && s.col < n);
  watch.cells = makeBoard($("w-board"), n, { click: watchClick });
  watch.sprites = new Map();
  watchRender();
}

// The queens of a watched run are sprites over the board, so that a move glides from square
// to square instead of jumping; the cells underneath keep their `piece` class for the record.
function spriteAt(el, s) {
  el.style.transform = `translate(${s.col * 100}%, ${(watch.n - 1 - s.row) * 100}%)`;
}

function addSprite(s) {
  const k = key(s);
  if (watch.sprites.has(k)) return;
  const el = document.createElement("div");
  el.className = "sprite";
  el.style.width = el.style.height = `${100 / watch.n}%`;
  spriteAt(el, s);
  $("w-board").appendChild(el);
  watch.sprites.set(k, el);
}

function removeSprite(k) {
  const el = watch.sprites.get(k);
  if (el) el.remove();
  watch.sprites.delete(k);
}

function moveSprite(from, to) {
  const el = watch.sprites.get(key(from));
  if (!el) return addSprite(to);
  removeSprite(key(to));
  watch.sprites.delete(key(from));
  watch.sprites.set(key(to), el);
  spriteAt(el, to);
}

function syncSprites() {
  for (const k of [...watch.sprites.keys()]) if (!watch.queens.has(k)) removeSprite(k);
  for (const s of watch.queens.values()) addSprite(s);
}

function watchClick(row, col) {
  if (watch.running) return;
  const i = watch.locked.findIndex((s) => s.row === row && s.col === col);
  if (i >= 0) watch.locked.splice(i, 1);
  else watch.locked.push({ row, col });
  watch.queens = new Map();
  watch.finished = null;
  syncSprites();
  watchRender();
}

function watchStart() {
  if (watch.source) watch.source.close();
  $("w-error").hidden = true;
  const params = new URLSearchParams({
    n: String(watch.n),
    solver: $("w-solver").value,
    seed: $("w-seed").value || "1",
  });
  if (watch.locked.length) {
    params.set("fix", watch.locked.map((s) => squareName(s.row, s.col, watch.n)).join(","));
  }
  if ($("w-iters").value) params.set("max_iters", $("w-iters").value);
  for (const input of $("w-params").querySelectorAll("input")) {
    if (input.value !== "" && Number(input.value) !== Number(input.dataset.default)) {
      params.set(input.name, input.value);
    }
  }
  const url = `/api/solve?${params}`;
  Object.assign(watch, {
    queue: [], queens: new Map(), shown: 0, scores: [], running: true, finished: null,
    iteration: null, nodes: 0, playing: true,
  });
  syncSprites();
  $("w-pause").textContent = "Pause";
  $("w-status").textContent = "running";
  const source = new EventSource(url);
  watch.source = source;
  let received = 0;
  source.onmessage = (message) => {
    received++;
    const event = JSON.parse(message.data);
    watch.queue.push(event);
    if (event.type === "finished") source.close();
  };
  source.onerror = async () => {
    source.close();
    if (received === 0) {
      // The stream was refused: ask again for the JSON error message.
      const response = await fetch(url);
      $("w-error").textContent = await errorOf(response);
      $("w-error").hidden = false;
      $("w-status").textContent = "refused";
      watch.running = false;
    }
  };
}

function watchApply(event) {
  watch.shown++;
  const put = (s, on) => (on ? watch.queens.set(key(s), s) : watch.queens.delete(key(s)));
  switch (event.type) {
    case "started":
      watch.queens = new Map();
      for (const s of event.fixed) put(s, true);
      syncSprites();
      break;
    case "place":
      put(event.square, true);
      addSprite(event.square);
      watch.nodes++;
      break;
    case "remove":
      put(event.square, false);
      removeSprite(key(event.square));
      break;
    case "move":
      put(event.from, false);
      put(event.to, true);
      moveSprite(event.from, event.to);
      break;
    case "step":
      watch.iteration = event.iteration;
      watch.scores.push([event.iteration, event.score]);
      break;
    case "solution":
      watch.queens = new Map(event.queens.map((s) => [key(s), s]));
      syncSprites();
      break;
    case "finished":
      watch.finished = event;
      watch.running = false;
      if (event.solved) watch.queens = new Map(event.queens.map((s) => [key(s), s]));
      syncSprites();
      break;
  }
}

function watchTick() {
  if (watch.playing && watch.queue.length) {
    if (Number($("w-speed").value) >= 6) {
      watch.budget = watch.queue.length;
    } else {
      watch.budget += speed() / 60;
    }
    let changed = false;
    while (watch.budget >= 1 && watch.queue.length) {
      watchApply(watch.queue.shift());
      watch.budget -= 1;
      changed = true;
    }
    if (!watch.queue.length) watch.budget = 0;
    if (changed) watchRender();
  }
  requestAnimationFrame(watchTick);
}

function watchRender() {
  const n = watch.n;
  const locked = new Set(watch.locked.map(key));
  const queens = [...watch.queens.values()].filter((s) => s.row < n && s.col < n);
  const clashing = new Set();
  let pairs = 0;
  for (let i = 0; i < queens.length; i++) {
    for (let j = i + 1; j < queens.length; j++) {
      if (attacks(queens[i], queens[j])) {
        pairs++;
        clashing.add(key(queens[i]));
        clashing.add(key(queens[j]));
      }
    }
  }
  const on = new Set(queens.map(key));
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const k = `${row},${col}`;
      const el = watch.cells[row][col];
      el.className = `cell ${(row + col) % 2 ? "light" : "dark"}`;
      if (on.has(k)) el.classList.add("piece");
      if (clashing.has(k)) el.classList.add("clash");
      if (locked.has(k) && !watch.sprites.has(k)) el.classList.add("locked");
    }
  }
  for (const [k, sprite] of watch.sprites) {
    sprite.classList.toggle("clash", clashing.has(k));
    sprite.classList.toggle("locked", locked.has(k));
  }
  $("w-shown").textContent = watch.shown.toLocaleString();
  $("w-iteration").textContent = watch.iteration === null || watch.iteration === undefined ? "–" : watch.iteration.toLocaleString();
  $("w-queens").textContent = queens.length;
  $("w-pairs").textContent = pairs;
  const f = watch.finished;
  if (f) {
    $("w-nodes").textContent = f.nodes === null || f.nodes === undefined ? "–" : f.nodes.toLocaleString();
    if (f.iterations !== null && f.iterations !== undefined) $("w-iteration").textContent = f.iterations.toLocaleString();
    $("w-status").textContent = f.solved ? `solved in ${f.elapsed_ms.toFixed(1)} ms` : `${f.status}${f.stop_reason ? `: ${f.stop_reason}` : ""}`;
  } else if (watch.running) {
    $("w-nodes").textContent = watch.nodes ? watch.nodes.toLocaleString() : "–";
    $("w-status").textContent = watch.playing ? "running" : "paused";
  }
  drawChart($("w-chart"), watch.scores);
}

function drawChart(canvas, points) {
  const g = canvas.getContext("2d");
  const w = canvas.width;
  const h = canvas.height;
  g.clearRect(0, 0, w, h);
  g.fillStyle = "#5f6b7a";
  g.font = "11px system-ui";
  g.fillText("score per iteration", 8, 14);
  if (points.length < 2) return;
  const step = Math.max(1, Math.floor(points.length / 800));
  const sampled = points.filter((_, i) => i % step === 0 || i === points.length - 1);
  const xs = sampled.map((p) => p[0]);
  const ys = sampled.map((p) => p[1]);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  const px = (x) => 30 + ((x - x0) / (x1 - x0 || 1)) * (w - 40);
  const py = (y) => h - 20 - ((y - y0) / (y1 - y0 || 1)) * (h - 40);
  g.fillText(String(y1), 2, 28);
  g.fillText(String(y0), 2, h - 20);
  g.fillText(String(x1), w - 40, h - 4);
  g.strokeStyle = "#2f6fdb";
  g.lineWidth = 1.5;
  g.beginPath();
  sampled.forEach(([x, y], i) => (i ? g.lineTo(px(x), py(y)) : g.moveTo(px(x), py(y))));
  g.stroke();
}

$("w-n").onchange = watchSetBoard;
$("w-start").onclick = watchStart;
$("w-pause").onclick = () => {
  watch.playing = !watch.playing;
  $("w-pause").textContent = watch.playing ? "Pause" : "Play";
  watchRender();
};
$("w-step").onclick = () => {
  watch.playing = false;
  $("w-pause").textContent = "Play";
  if (watch.queue.length) watchApply(watch.queue.shift());
  watchRender();
};
$("w-unlock").onclick = () => {
  if (watch.running) return;
  watch.locked = [];
  watchRender();
};

// ---------------------------------------------------------------- experiments and counting

function barChart(title, rows, value, format) {
  const width = 420;
  const bar = 22;
  const height = 30 + rows.length * (bar + 6);
  const max = Math.max(...rows.map(value).filter((v) => v !== null), 1e-9);
  const label = (r) => `${r.solver} n=${r.n}${Object.entries(r.params).map(([k, v]) => ` ${k}=${v}`).join("")}`;
  const bars = rows.map((r, i) => {
    const v = value(r);
    const y = 24 + i * (bar + 6);
    const len = v === null ? 0 : (v / max) * (width - 230);
    return `<text x="4" y="${y + 15}" font-size="11">${label(r)}</text>` +
      `<rect x="200" y="${y}" width="${len}" height="${bar}" fill="#2f6fdb"></rect>` +
      `<text x="${204 + len}" y="${y + 15}" font-size="11">${v === null ? "–" : format(v)}</text>`;
  });
  return `<svg width="${width}" height="${height}" role="img"><text x="4" y="14" font-size="12" font-weight="600">${title}</text>${bars.join("")}</svg>`;
}

$("x-run").onclick = async () => {
  const solvers = [...$("x-solvers").selectedOptions].map((o) => o.value);
  const sizes = $("x-sizes").value.split(",").map((s) => Number(s.trim())).filter((n) => n > 0);
  const body = {
    solvers, sizes, runs: Number($("x-runs").value), seed: Number($("x-seed").value || 1),
  };
  if ($("x-iters").value) body.max_iters = Number($("x-iters").value);
  $("x-status").textContent = "running…";
  $("x-run").disabled = true;
  try {
    const response = await fetch("/api/experiment", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
    if (!response.ok) {
      $("x-status").textContent = await errorOf(response);
      return;
    }
    const { rows } = await response.json();
    $("x-status").textContent = `${rows.length} cells`;
    $("x-charts").innerHTML =
      barChart("success rate", rows, (r) => r.success_rate, (v) => `${(v * 100).toFixed(1)} %`) +
      barChart("mean iterations of successful runs", rows, (r) => r.mean_iterations, (v) => v.toFixed(1));
    const head = "<tr><th>solver</th><th>n</th><th>parameters</th><th>runs</th><th>solved</th><th>success</th><th>mean iterations</th></tr>";
    $("x-table").innerHTML = head + rows.map((r) => `<tr><td>${r.solver}</td><td>${r.n}</td><td>${Object.entries(r.params).map(([k, v]) => `${k}=${v}`).join(" ")}</td><td>${r.runs}</td><td>${r.solved}</td><td>${(r.success_rate * 100).toFixed(1)} %</td><td>${r.mean_iterations === null ? "–" : r.mean_iterations.toFixed(1)}</td></tr>`).join("");
  } finally {
    $("x-run").disabled = false;
  }
};

$("c-run").onclick = () => {
  const n = $("c-n").value;
  const url = `/api/count?n=${encodeURIComponent(n)}`;
  $("c-result").textContent = "counting…";
  $("c-progress").value = 0;
  const source = new EventSource(url);
  let received = 0;
  source.onmessage = (message) => {
    received++;
    const event = JSON.parse(message.data);
    if (event.type === "progress") {
      $("c-progress").max = event.of;
      $("c-progress").value = event.done;
    } else {
      source.close();
      $("c-progress").value = $("c-progress").max;
      $("c-result").textContent = event.type === "finished"
        ? `N = ${event.n}: ${event.total.toLocaleString()} solutions, ${event.unique.toLocaleString()} unique, in ${(event.elapsed_ms / 1000).toFixed(2)} s`
        : `stopped: ${event.reason}`;
    }
  };
  source.onerror = async () => {
    source.close();
    if (received === 0) $("c-result").textContent = await errorOf(await fetch(url));
  };
};

// The selected solver's parameters as inputs, with the ranges its descriptor gives.
let solverList = [];

function watchParameters() {
  const box = $("w-params");
  box.replaceChildren();
  const solver = solverList.find((s) => s.name === $("w-solver").value);
  if (!solver) return;
  $("w-solver").title = solver.summary;
  for (const p of solver.parameters) {
    const label = document.createElement("label");
    label.title = p.doc;
    label.append(`${p.name} `);
    const input = document.createElement("input");
    Object.assign(input, { type: "number", name: p.name, value: p.default, size: 6 });
    input.dataset.default = p.default;
    if (p.min !== null) input.min = p.min;
    if (p.max !== null) input.max = p.max;
    input.step = p.integer ? "1" : "any";
    label.append(input);
    box.append(label);
  }
}

// ---------------------------------------------------------------- start

async function start() {
  const response = await fetch("/api/solvers");
  const { solvers, limits } = await response.json();
  solverList = solvers;
  for (const s of solvers) {
    const parameters = s.parameters.map((p) => `${p.name}=${p.default}`).join(", ");
    const option = new Option(s.name + (parameters ? ` (${parameters})` : ""), s.name);
    option.title = s.summary;
    $("w-solver").add(option);
    $("x-solvers").add(new Option(s.name, s.name));
  }
  $("w-solver").value = "backtracking";
  $("w-solver").onchange = watchParameters;
  watchParameters();
  for (const option of $("x-solvers").options) {
    option.selected = ["hill-climbing", "optimized-hill-climbing", "simulated-annealing"].includes(option.value);
  }
  $("cfg-n").max = limits.configure_max_n;
  $("c-n").max = limits.count_max_n;
  watchMaxN = Math.min(limits.solve_max_n, limits.configure_max_n);
  $("w-n").max = watchMaxN;
  $("x-sizes").title = `sizes from 1 to ${limits.experiment_max_n}`;

  // The position in the URL: #configure?n=8&q=d1,e7
  const [tab, query] = location.hash.slice(1).split("?");
  const params = new URLSearchParams(query || "");
  const n = Number(params.get("n"));
  cfgSetBoard(Number.isInteger(n) && n >= 1 && n <= limits.configure_max_n ? n : 8);
  cfg.queens = (params.get("q") || "").split(",").map(parseSquare)
    .filter((s) => s && s.row >= 0 && s.col >= 0 && s.row < cfg.n && s.col < cfg.n);
  watchSetBoard();
  requestAnimationFrame(watchTick);
  showTab(tabs.includes(tab) ? tab : "configure");
  await cfgAnalyse();
  document.body.dataset.ready = "true";
}

start();
