// Each view and its settings in the URL: `#configure?n=8&q=d1,e7`,
// `#watch?solver=S&n=N&seed=X&fix=d1`, `#race?solvers=a,b&n=N&seed=X`,
// `#lab?solvers=a,b&sizes=8,16&runs=100&seed=1`. Pure functions, tested with Node.

export const VIEWS = ["configure", "watch", "race", "lab"];

/** The view and its settings in a location hash. */
export function parseHash(hash) {
  const [name, query] = String(hash || "").replace(/^#/, "").split("?");
  const view = VIEWS.includes(name) ? name : "configure";
  const settings = {};
  for (const [k, v] of new URLSearchParams(query || "")) settings[k] = v;
  return { view, settings };
}

/** The location hash of a view and its settings (empty values left out, in the given order). */
export function formatHash(view, settings) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(settings || {})) {
    if (v !== undefined && v !== null && v !== "") query.set(k, String(v));
  }
  const text = query.toString().replaceAll("%2C", ",");
  return `#${view}${text ? `?${text}` : ""}`;
}

/** Settings that say where a run is, not what it is: a link with them replays the same run. */
const PLAYBACK = ["run", "step"];

/** Whether two hashes name the same view and settings, where the run stands aside. */
export function sameSettings(a, b) {
  const strip = (hash) => {
    const { view, settings } = parseHash(hash);
    for (const name of PLAYBACK) delete settings[name];
    return formatHash(view, settings);
  };
  return strip(a) === strip(b);
}
