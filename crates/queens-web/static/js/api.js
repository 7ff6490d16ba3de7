// The server's API: JSON requests and event streams, every failure turned into one sentence.

import { sentence } from "./squares.js";

export { sentence };

const UNREACHABLE = "The server did not answer: is queens serve still running?";

/**
 * A stream the server stopped sending before its last event (the server stopped, or the
 * network went): what arrived before stays the caller's.
 */
export class Lost extends Error {
  constructor(cause) {
    super("The server stopped answering before the end: is queens serve still running? What arrived is kept.", { cause });
    this.name = "Lost";
  }
}

/** A refusal of the server, in its words. */
async function refusal(response) {
  try {
    const body = await response.json();
    if (body && body.error) return sentence(body.error);
  } catch {
    // not JSON
  }
  return `The server answered ${response.status} ${response.statusText}.`;
}

async function request(url, options) {
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new Error(UNREACHABLE, { cause: error });
  }
  if (!response.ok) throw new Error(await refusal(response));
  return response;
}

/** `GET /api/solvers`: the descriptors and the server's limits. */
export async function solvers() {
  return (await request("/api/solvers")).json();
}

/** `POST /api/configure`: the compact analysis of `queens` on an N×N board with `blocked`
 * squares, with the reasons of the squares in `explain` (every reason on a small board). */
export async function configure(n, queens, blocked, signal, explain = []) {
  const body = { n, queens, compact: true };
  if (blocked.length) body.blocked = blocked;
  if (explain.length) body.explain = explain;
  const response = await request("/api/configure", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  return response.json();
}

/** `POST /api/neighbourhood`: the climbers' score of every single-queen move of the board whose
 * column `col` holds its queen on `rows[col]`, and the move they take (`{n, score, scores, best}`). */
export async function neighbourhood(rows) {
  const response = await request("/api/neighbourhood", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rows }),
  });
  return response.json();
}

/** `POST /api/instance`: an n-Queens Completion instance file's text as `{n, queens, blocked}`. */
export async function instance(text, diagonals) {
  const response = await request("/api/instance", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(diagonals === undefined ? { text } : { text, diagonals }),
  });
  return response.json();
}

/** The events that end each stream: a stream that ends without one was cut. */
const LAST = new Set(["finished", "stopped", "error"]);

/**
 * Reads server-sent events from a response, calling `onEvent` with each parsed object; throws
 * [`Lost`] when the stream breaks, or ends, before its last event.
 */
async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let ended = false;
  const tell = (event) => {
    ended = LAST.has(event.type);
    onEvent(event);
  };
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (error) {
      if (error.name === "AbortError") throw error;
      throw new Lost(error);
    }
    const { value, done } = chunk;
    if (done) {
      if (!ended) throw new Lost();
      break;
    }
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
      if (data) tell(JSON.parse(data));
    }
  }
}

/** `GET /api/solve?...`: every event of a run; resolves when the stream ends. */
export async function solve(query, onEvent, signal) {
  const response = await request(`/api/solve?${new URLSearchParams(query)}`, { signal });
  await readEvents(response, onEvent);
}

/** `GET /api/count?n=N` with progress events. */
export async function count(n, onEvent, signal) {
  const response = await request(`/api/count?n=${n}`, { signal });
  await readEvents(response, onEvent);
}

/** `GET /api/challenge?n=N`: each locked square's run as it finishes, then the table. */
export async function challenge(n, onEvent, signal) {
  const response = await request(`/api/challenge?n=${n}`, { signal });
  await readEvents(response, onEvent);
}

/** `POST /api/experiment/stream`: progress, then the rows. */
export async function experiment(body, onEvent, signal) {
  const response = await request("/api/experiment/stream", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  await readEvents(response, onEvent);
}
