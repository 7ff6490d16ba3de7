// The page: loads the solvers and the server's limits, builds the four views and keeps the
// view shown and its settings in the URL, so that a link opens the same view with the same
// settings and the browser's back and forward buttons move between them.

import * as api from "./api.js";
import { createConfigure } from "./configure.js";
import { byId, h, say } from "./dom.js";
import { createLab } from "./lab.js";
import { createRace } from "./race.js";
import { VIEWS, formatHash, parseHash, sameSettings } from "./state.js";
import { createWatch } from "./watch.js";

const TITLES = { configure: "Configure", watch: "Watch", race: "Race", lab: "Lab" };

async function main() {
  const views = byId("views");
  let catalogue;
  try {
    catalogue = await api.solvers();
  } catch (e) {
    views.append(h("p", { class: "error" }, e.message));
    return;
  }
  const { solvers, limits, defaults, presets } = catalogue;
  let current = null;
  let shownHash = null;

  /** Records a view's settings in the URL without showing it again. */
  function pushSettings(view, settings, replace) {
    const hash = formatHash(view, settings);
    remember(view, hash);
    if (hash === location.hash) return;
    shownHash = hash;
    // Starting, pausing or stepping a run changes where it stands, not what it is: one entry.
    if (replace || sameSettings(hash, location.hash)) history.replaceState(null, "", hash);
    else history.pushState(null, "", hash);
  }

  const built = {
    configure: createConfigure({
      limits,
      defaults,
      navigate,
      replaceSettings: (settings) => pushSettings("configure", settings, true),
    }),
    watch: createWatch({ limits, solvers, defaults, pushSettings: (settings, replace) => pushSettings("watch", settings, replace) }),
    race: createRace({ limits, solvers, defaults, pushSettings: (settings, replace) => pushSettings("race", settings, replace) }),
    lab: createLab({ limits, solvers, defaults, presets, pushSettings: (settings, replace) => pushSettings("lab", settings, replace) }),
  };
  views.replaceChildren(...VIEWS.map((name) => built[name].element));

  const tabs = byId("tabs");
  tabs.replaceChildren(...VIEWS.map((name) => h("a", { href: `#${name}`, dataset: { view: name } }, TITLES[name])));

  /** Points the view's tab at its latest URL, so that the tab returns to it. */
  function remember(view, hash) {
    const tab = tabs.querySelector(`[data-view="${view}"]`);
    if (tab) tab.href = hash;
  }

  /** Shows the view and settings of the current URL. */
  function route() {
    const { view, settings } = parseHash(location.hash);
    if (location.hash === shownHash && current === view) return;
    shownHash = location.hash;
    current = view;
    remember(view, location.hash || `#${view}`);
    for (const name of VIEWS) built[name].element.hidden = name !== view;
    for (const tab of tabs.children) {
      if (tab.dataset.view === view) tab.setAttribute("aria-current", "page");
      else tab.removeAttribute("aria-current");
    }
    document.title = `${TITLES[view]} · queens`;
    built[view].show(settings);
  }

  /** Opens `view` with `settings`, as a new entry of the browser's history. */
  function navigate(view, settings) {
    history.pushState(null, "", formatHash(view, settings));
    route();
    window.scrollTo(0, 0);
  }

  window.addEventListener("popstate", route);
  window.addEventListener("hashchange", route);
  route();
  document.body.dataset.ready = "true";
}

main().catch((e) => {
  const views = byId("views");
  say(views.appendChild(h("p", { class: "error" })), e.message);
});
