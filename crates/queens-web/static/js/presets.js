// The Lab's form settings from the experiments the server describes: its first experiment and
// the original study's presets (served in /api/solvers, defined once in queens-lab).

/**
 * A served experiment part (`{solvers, sizes, runs, seed, max_iters?, sweep: [{name, values}]}`)
 * as the Lab's form and URL write it: comma-separated strings, a sweep as `sweep.<name>`.
 */
export function partSettings(part) {
  const settings = { solvers: part.solvers.join(","), sizes: part.sizes.join(","), runs: String(part.runs), seed: String(part.seed) };
  if (part.max_iters !== undefined && part.max_iters !== null) settings.max_iters = String(part.max_iters);
  for (const sweep of part.sweep || []) settings[`sweep.${sweep.name}`] = sweep.values.join(",");
  return settings;
}

/** The served presets with their parts as form settings. */
export function labPresets(presets) {
  return (presets || []).map((preset) => ({ ...preset, parts: preset.parts.map(partSettings) }));
}
