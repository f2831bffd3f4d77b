// The live part of a paef report below its chart (an anywidget view): the frame's note, the
// per-line table, the toolbar, the cards with their buttons, and the source beside them.
//
// One model for all of it: ipywidgets made each card nine models (box, body, row, five buttons,
// status), and a front end opens a report's models one after another before it draws it.
// The DOM is built once and then updated in place (classes, `disabled`, status, source), so the
// labextension's observers (a card lit by the kernel scrolls into view, focus kept on a card
// whose button got disabled) see the same mutations as before. A button press goes to the
// kernel as {type: "press", card: <index or null>, name: <button>}.

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

function render({ model, el }) {
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

export default { render };
