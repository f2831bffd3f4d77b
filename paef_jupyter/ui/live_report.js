// A paef report's live view (one anywidget model): the summary, the flame chart, and below
// them the frame's note, the per-line table, the toolbar, the cards with their buttons, and
// the source beside them.
//
// One model for all of it: a front end opens a report's widget models one after another (a
// comm_open each, with its whole state, this module's text included) before it draws the view.
// ipywidgets made each card nine models (box, body, row, five buttons, status); a summary, a
// chart and a body were still six with their layouts and styles. The DOM is built once and
// then updated in place (classes, `disabled`, status, source), so the labextension's observers
// (a card lit by the kernel scrolls into view, focus kept on a card whose button got disabled)
// see the same mutations as before. A button press goes to the kernel as
// {type: "press", card: <index or null>, name: <button>}; a click on a bar of the chart as
// {type: "click", bar: <index>}.

// -- the flame chart --------------------------------------------------------------------
//
// The model holds the figure as plain JSON and the bars' colours; plotly.js is loaded once per
// page and shared by every report: from the paef-jupyter labextension's folder where the front
// end serves it, else asked once from the kernel.

const LOADED = "__paefPlotly";

function extensionUrl() {
  const config = document.getElementById("jupyter-config-data");
  if (!config) return null;
  try {
    const url = JSON.parse(config.textContent || "{}").fullLabextensionsUrl;
    return typeof url === "string" && url ? `${url.replace(/\/$/, "")}/paef-jupyter/plotly-basic.min.js` : null;
  } catch (e) {
    return null;
  }
}

// plotly.js's bundle is UMD: given `module`, it exports itself there. `new Function` runs it
// as a classic (non-strict) script, whatever the page's module loader (an AMD `define` in VS
// Code would otherwise capture it).
function evaluate(source) {
  const module = { exports: {} };
  new Function("module", "exports", "define", source).call(globalThis, module, module.exports, undefined);
  const plotly = module.exports;
  if (!plotly || typeof plotly.newPlot !== "function") throw new Error("not plotly.js");
  return plotly;
}

async function fromExtension() {
  const url = extensionUrl();
  if (!url) throw new Error("no labextension URL on this page");
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return evaluate(await response.text());
}

function fromKernel(model) {
  return new Promise((resolve, reject) => {
    const onMessage = (msg) => {
      if (!msg || msg.type !== "plotly") return;
      model.off("msg:custom", onMessage);
      try {
        resolve(evaluate(String(msg.source)));
      } catch (e) {
        reject(e);
      }
    };
    model.on("msg:custom", onMessage);
    model.send({ type: "need_plotly" });
  });
}

// The labextension starts loading it when the kernel loads paef (labextension/src/plotly.ts),
// under the same name; a load that fails leaves the name empty for the next chart.
function plotly(model) {
  if (!globalThis[LOADED]) {
    const loading = fromExtension().catch(() => fromKernel(model));
    loading.catch(() => {
      if (globalThis[LOADED] === loading) globalThis[LOADED] = null; // the next chart tries again
    });
    globalThis[LOADED] = loading;
  }
  return globalThis[LOADED];
}

function paint(Plotly, gd, colors) {
  if (colors && Array.isArray(colors.fill) && Array.isArray(colors.outline)) {
    Plotly.restyle(gd, { "marker.color": [colors.fill], "marker.line.color": [colors.outline] }, [0]);
  }
}

async function renderChart(model, el) {
  // Page-clock marks of the chart's steps (the browser suite reads them to say where a
  // report's first draw spends its time).
  performance.mark("paef-chart-render");
  const gd = document.createElement("div");
  gd.className = "paef-flame-live";
  // Never wider than the output column, even before a resize has caught up with it.
  gd.style.cssText = "width:100%;max-width:100%;overflow:hidden";
  el.style.minWidth = "0";
  el.style.maxWidth = "100%";
  gd.textContent = "drawing the flame chart\u2026";
  el.appendChild(gd);
  let Plotly;
  try {
    Plotly = await plotly(model);
  } catch (e) {
    gd.textContent = `The flame chart cannot be drawn here (${e}); the static report has it.`;
    return;
  }
  performance.mark("paef-chart-plotly");
  const figure = figureOf(model);
  gd.textContent = "";
  await Plotly.newPlot(gd, figure.data || [], figure.layout || {}, {
    responsive: true,
    displaylogo: false,
    modeBarButtonsToRemove: ["select2d", "lasso2d"]
  });
  paint(Plotly, gd, model.get("colors"));
  gd.on("plotly_click", (event) => {
    const point = event && event.points && event.points[0];
    if (point && Number.isInteger(point.pointNumber)) {
      model.send({ type: "click", bar: point.pointNumber });
    }
  });
  const repaint = () => paint(Plotly, gd, model.get("colors"));
  model.on("change:colors", repaint);
  // The output column changes width without a window resize (side panels, Notebook 7).
  const resized = new ResizeObserver(() => {
    if (gd.isConnected && gd.clientWidth > 0) Plotly.Plots.resize(gd);
  });
  resized.observe(gd);
  return () => {
    resized.disconnect();
    model.off("change:colors", repaint);
    Plotly.purge(gd);
  };
}

// -- below the chart -----------------------------------------------------------------------

const BUTTONS = [
  ["show", "Show", "crosshairs", ""],
  ["apply", "Apply", "check", "mod-success"],
  ["dismiss", "Dismiss", "times", ""],
  ["undo", "Undo", "undo", ""],
  ["silence", "Silence rule", "bell-slash", ""],
];
const TOOLBAR = [
  ["apply_all", "Apply all", "magic", "mod-primary"],
  ["compare", "Re-run and compare", "refresh", ""],
];

function div(className, html) {
  const el = document.createElement("div");
  if (className) el.className = className;
  if (html !== undefined) el.innerHTML = html;
  return el;
}

// As ipywidgets draws a Button (its CSS themes these classes).
function button(model, card, [name, label, icon, mod], tip) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `jupyter-widgets jupyter-button widget-button paef-${name.replace("_", "-")}` + (mod ? ` ${mod}` : "");
  b.style.width = "auto";
  if (tip) b.title = tip;
  const i = document.createElement("i");
  i.className = `fa fa-${icon}`;
  b.append(i, label);
  b.addEventListener("click", () => model.send({ type: "press", card, name }));
  return b;
}

// Only what changed is touched: the labextension's observers react to each mutation.
const shown = new WeakMap();

function setHtml(el, html) {
  if (shown.get(el) !== html) {
    shown.set(el, html);
    el.innerHTML = html;
  }
}

function setDisabled(b, disabled) {
  if (b.disabled !== disabled) b.disabled = disabled;
}

function renderBody(model, el) {
  const root = div("paef-body");
  const info = div("paef-info");
  const lines = div("paef-lines-box");
  root.append(info, lines);

  let toolbar = null;
  if (model.get("toolbar")) {
    const status = div("paef-toolbar-status");
    const buttons = Object.fromEntries(TOOLBAR.map((spec) => [spec[0], button(model, null, spec, model.get("tips")[spec[0]])]));
    toolbar = { status, buttons };
    const bar = div("paef-toolbar");
    bar.append(buttons.apply_all, buttons.compare, status);
    root.append(bar);
  }

  const cols = div("paef-cols");
  const cardsCol = div("paef-col paef-cards", "<h4>Antipatterns</h4>");
  const sourcesCol = div("paef-col paef-sources", "<h4>Source</h4>");
  cols.append(cardsCol, sourcesCol);
  root.append(cols);

  const cards = model.get("cards").map((spec, index) => {
    const box = div("paef-cardbox");
    const buttons = Object.fromEntries(BUTTONS.map((b) => [b[0], button(model, index, b, spec.tips[b[0]])]));
    const row = div("paef-card-buttons");
    row.append(...BUTTONS.map((b) => buttons[b[0]]));
    const status = div("paef-card-status");
    box.append(div("", spec.html), row, status);
    cardsCol.append(box);
    return { box, buttons, status, code: null };
  });
  if (!cards.length) cardsCol.append(div("paef-note", "None found."));
  const sources = model.get("sources").map(() => sourcesCol.appendChild(div("paef-source-box")));

  function update() {
    setHtml(info, model.get("info"));
    setHtml(lines, model.get("lines"));
    model.get("sources").forEach((html, i) => sources[i] && setHtml(sources[i], html));
    if (toolbar) {
      const controls = model.get("controls");
      setHtml(toolbar.status, model.get("status"));
      for (const [name, b] of Object.entries(toolbar.buttons)) {
        const c = controls[name] || {};
        setDisabled(b, !!c.disabled);
        b.style.display = c.hidden ? "none" : "";
      }
    }
    model.get("card_state").forEach((state, i) => {
      const card = cards[i];
      if (!card) return;
      const wanted = new Set(["paef-cardbox", ...state.classes]);
      for (const c of Array.from(card.box.classList)) if (!wanted.has(c)) card.box.classList.remove(c);
      for (const c of wanted) if (!card.box.classList.contains(c)) card.box.classList.add(c);
      for (const [name, b] of Object.entries(card.buttons)) setDisabled(b, !!state.disabled[name]);
      setHtml(card.status, state.status);
      if (typeof state.code === "string") {
        if (!card.code) {
          card.code = document.createElement("textarea");
          card.code.className = "paef-code-box";
          card.box.append(card.code);
        }
        if (shown.get(card.code) !== state.code) {
          shown.set(card.code, state.code);
          card.code.value = state.code;
          card.code.rows = Math.min(state.code.split("\n").length, 30);
        }
      }
    });
  }

  update();
  for (const name of ["info", "lines", "sources", "status", "controls", "card_state"]) {
    model.on(`change:${name}`, update);
  }
  el.append(root);
  return () => {
    for (const name of ["info", "lines", "sources", "status", "controls", "card_state"]) {
      model.off(`change:${name}`, update);
    }
  };
}

// -- the whole view -------------------------------------------------------------------------

// The figure travels as JSON text (the kernel's `_json_text`): "" is no chart.
function figureOf(model) {
  const raw = model.get("figure");
  if (typeof raw !== "string") return raw || {};
  return raw ? JSON.parse(raw) : {};
}

function render({ model, el }) {
  // The style sheet is its own trait, sent once. The head (summary) is sent again when what it
  // says changes; the overhead figure taken once the view is out comes alone (`overhead`) and is
  // written into the head's overhead stat.
  const style = document.createElement("style");
  style.textContent = model.get("css") || "";
  el.append(style);
  const head = div("paef-head");
  const update = () => {
    setHtml(head, model.get("head"));
    const figure = model.get("overhead");
    const stat = figure ? head.querySelector(".paef-overhead b") : null;
    if (stat) stat.textContent = figure;
  };
  update();
  model.on("change:head", update);
  model.on("change:overhead", update);
  el.append(head);
  let chart = null;
  let disposed = false;
  const figure = figureOf(model);
  if (figure && Array.isArray(figure.data)) {
    const box = div("paef-chart");
    el.append(box);
    renderChart(model, box).then((cleanup) => {
      if (disposed && cleanup) cleanup();
      else chart = cleanup;
    });
  }
  const body = div("paef-body-box");
  el.append(body);
  const cleanBody = renderBody(model, body);
  return () => {
    disposed = true;
    model.off("change:head", update);
    model.off("change:overhead", update);
    if (chart) chart();
    cleanBody();
  };
}

export default { render };
