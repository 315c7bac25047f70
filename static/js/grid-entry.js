/*
 * Grid-entry component: tap a cell, then tap its card on the keypad.
 *
 * Markup: templates/scoring/_grid_entry.html ([data-grid-entry] grids of text inputs, one
 * [data-card-keypad]). Server side: scoring/web/grid_entry.py. Without JavaScript the inputs are a
 * plain form; with it:
 *   - tapping (or focusing) a cell selects it (aria-current="true"), and the selected cell is kept in view
 *     above a docked keypad;
 *   - typing works like the keypad: a complete card moves on to the next cell ("5675KA" fills six);
 *   - a rank key fills the selected cell and moves to the next empty cell (across every grid on the page);
 *     a suit key adds its suit to the card just entered; Erase empties a cell (like backspace);
 *   - Clear grid empties the grid holding the selection; Undo steps back through every change, typed ones too;
 *   - every change fires a bubbling "change" event on the grid (so an enclosing
 *     hx-trigger="change" form re-scores) and a "grid-entry:change" CustomEvent
 *     (detail: {grid, cells: {name: value}}) for other listeners;
 *   - after each htmx swap, cells named by [data-cell] items of a grid's error list get aria-invalid.
 * Cells get inputmode="none" while a keypad is live, so phones show the keypad, not their keyboard;
 * typing on a hardware keyboard still works. Elements with [data-grid-entry-nojs] are hidden.
 */
(function () {
  "use strict";

  const JOKERS = ["X", "JK"];
  const HISTORY_LIMIT = 200;
  const state = { selected: null, lastFilled: null, history: [], current: null, typing: null };

  /* Messages come translated from the keypad's data-msg-* attributes; these are the fallbacks. */
  const MESSAGES = {
    Pick: "Tap a cell, then its card.",
    Full: "All filled. Tap a cell to change it.",
    SuitFirst: "Tap a card first, then its suit.",
    JokerSuit: "Jokers have no suit.",
    Cleared: "Grid cleared. Undo brings it back.",
    Nothing: "Nothing to undo.",
    Card: "tap its card.",
  };

  function text(key) {
    const keypad = document.querySelector("[data-card-keypad]");
    return (keypad && keypad.dataset["msg" + key]) || MESSAGES[key];
  }

  function allCells() {
    return Array.from(document.querySelectorAll("[data-grid-entry] input.grid-entry-input"));
  }

  function gridOf(cell) {
    return cell ? cell.closest("[data-grid-entry]") : null;
  }

  function cellLabel(cell) {
    const label = document.querySelector('label[for="' + CSS.escape(cell.id) + '"]');
    const grid = gridOf(cell);
    const source = grid && grid.dataset.gridLabelFrom && document.getElementById(grid.dataset.gridLabelFrom);
    const name = source ? source.value.trim() || source.placeholder : grid && grid.dataset.gridLabel;
    const owner = name ? name + " · " : "";
    return owner + (label ? label.textContent.trim() : cell.name);
  }

  function snapshot() {
    const values = {};
    for (const cell of allCells()) values[cell.name] = cell.value;
    return { values: values, selected: state.selected ? state.selected.name : null };
  }

  function differs(a, b) {
    const names = new Set(Object.keys(a).concat(Object.keys(b)));
    for (const name of names) if ((a[name] || "") !== (b[name] || "")) return true;
    return false;
  }

  function say(message) {
    for (const status of document.querySelectorAll("[data-keypad-status]")) status.textContent = message;
  }

  function updateKeypads() {
    for (const button of document.querySelectorAll('[data-keypad-action="undo"]')) {
      button.disabled = state.history.length === 0;
    }
  }

  /* Record the state after a change, so Undo can return to the state before it. */
  function commit() {
    const now = snapshot();
    if (state.current && differs(state.current.values, now.values)) {
      state.history.push(state.current);
      if (state.history.length > HISTORY_LIMIT) state.history.shift();
    }
    state.current = now;
    updateKeypads();
  }

  function announceChange(grids) {
    for (const grid of grids) {
      if (!grid || !grid.isConnected) continue;
      const cells = {};
      for (const cell of grid.querySelectorAll("input.grid-entry-input")) cells[cell.name] = cell.value;
      grid.dispatchEvent(new CustomEvent("grid-entry:change", { bubbles: true, detail: { grid: grid, cells: cells } }));
      grid.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  function changed(cell) {
    commit();
    markInvalid();
    announceChange([gridOf(cell)]);
  }

  function select(cell) {
    for (const other of document.querySelectorAll('[data-grid-entry] [aria-current="true"]')) {
      other.removeAttribute("aria-current");
    }
    if (state.typing && state.typing !== cell) state.typing = null;
    state.selected = cell && cell.isConnected ? cell : null;
    if (state.selected) state.selected.setAttribute("aria-current", "true");
    if (state.current) state.current.selected = state.selected ? state.selected.name : null;
  }

  /* Keep the selected cell, with the heading of the player it belongs to, in view above a keypad docked
     at the bottom of the screen (position: sticky), so no card goes in blind. */
  function reveal(cell) {
    if (!cell || !cell.isConnected) return;
    const margin = 8;
    const box = cell.getBoundingClientRect();
    const owner = cell.closest("fieldset:not([data-grid-entry])") || gridOf(cell);
    const legend = owner && owner.querySelector("legend");
    const top = Math.min(box.top, legend ? legend.getBoundingClientRect().top : box.top);
    let bottom = window.innerHeight;
    for (const keypad of document.querySelectorAll("[data-card-keypad]")) {
      if (keypad.hidden) continue;
      const area = keypad.closest(".keypad-dock") || keypad;
      const rect = area.getBoundingClientRect();
      if (rect.top > box.bottom - 1 || rect.bottom > window.innerHeight - 1) bottom = Math.min(bottom, rect.top);
    }
    let shift = 0;
    if (box.bottom + margin > bottom) shift = box.bottom + margin - bottom;
    if (top - shift < margin) shift = top - margin;
    if (box.top - shift < 0) shift = box.top - margin;  // a tall heading: the cell comes first
    if (Math.abs(shift) >= 1) window.scrollBy({ top: shift, left: 0, behavior: "instant" });
  }

  function nextEmpty(after) {
    const cells = allCells();
    const start = after ? cells.indexOf(after) + 1 : 0;
    const order = cells.slice(start).concat(cells.slice(0, start));
    return order.find((cell) => !cell.value.trim()) || null;
  }

  function splitCard(value) {
    const token = value.trim().toUpperCase();
    if (JOKERS.includes(token)) return { rank: token, suit: "" };
    const match = token.match(/^(.*?)([SHDC♠♥♦♣♤♡♢♧])$/u);
    return match && match[1] ? { rank: match[1].trim(), suit: match[2] } : { rank: token, suit: "" };
  }

  function typeRank(rank) {
    const cell = state.selected;
    if (!cell) {
      say(text("Pick"));
      return;
    }
    cell.value = rank;
    state.lastFilled = cell;
    const next = nextEmpty(cell);
    select(next);
    reveal(next || cell);
    changed(cell);
    say(next ? cellLabel(cell) + ": " + rank : text("Full"));
  }

  function typeSuit(suit) {
    const cell = state.lastFilled && state.lastFilled.isConnected ? state.lastFilled : state.selected;
    if (!cell || !cell.value.trim()) {
      say(text("SuitFirst"));
      return;
    }
    const rank = splitCard(cell.value).rank;
    if (JOKERS.includes(rank)) {
      say(text("JokerSuit"));
      return;
    }
    cell.value = rank + suit;
    changed(cell);
    say(cellLabel(cell) + ": " + cell.value);
  }

  /* Like backspace: empty the selected cell, or else the filled cell before it in the same grid. */
  function erase() {
    let cell = state.selected && state.selected.value.trim() ? state.selected : null;
    if (!cell) {
      const grid = gridOf(state.selected);
      const cells = grid ? Array.from(grid.querySelectorAll("input.grid-entry-input")) : allCells();
      const before = state.selected ? cells.slice(0, cells.indexOf(state.selected)) : cells;
      cell = before.reverse().find((c) => c.value.trim()) || null;
    }
    if (!cell) return;
    cell.value = "";
    state.lastFilled = null;
    select(cell);
    reveal(cell);
    changed(cell);
  }

  function clearGrid() {
    const grid =
      gridOf(state.selected) || gridOf(state.lastFilled) || document.querySelector("[data-grid-entry]");
    if (!grid) return;
    const cells = Array.from(grid.querySelectorAll("input.grid-entry-input"));
    if (!cells.some((cell) => cell.value)) return;
    for (const cell of cells) cell.value = "";
    state.lastFilled = null;
    select(cells[0]);
    reveal(cells[0]);
    commit();
    announceChange([grid]);
    say(text("Cleared"));
  }

  function undo() {
    const previous = state.history.pop();
    if (!previous) {
      say(text("Nothing"));
      updateKeypads();
      return;
    }
    const touched = new Set();
    for (const cell of allCells()) {
      const value = previous.values[cell.name];
      if (value !== undefined && value !== cell.value) {
        cell.value = value;
        touched.add(gridOf(cell));
      }
    }
    state.lastFilled = null;
    state.current = snapshot();
    const cell = previous.selected && document.querySelector('input.grid-entry-input[name="' + CSS.escape(previous.selected) + '"]');
    select(cell || nextEmpty(null));
    reveal(state.selected);
    state.current = snapshot();
    updateKeypads();
    announceChange(Array.from(touched));
  }

  /* Typing works like the keypad: each complete card moves on to the next empty cell. "1" waits for its
     "0" ("10"), and "J" for a "K" ("JK") where the keypad has a Joker key; "T" is 10; a suit letter
     (S, H, D, C) or symbol goes to the card just entered; a space ends a card; anything else stays in the
     cell (and is outlined as not a card). Lower case is read as upper case; a paste fills several cells. */
  const SUIT_KEYS = { S: "♠", H: "♥", D: "♦", C: "♣", "♠": "♠", "♥": "♥", "♦": "♦", "♣": "♣", "♤": "♠", "♡": "♥", "♢": "♦", "♧": "♣" };

  function keypadRanks() {
    const ranks = new Set();
    for (const button of document.querySelectorAll("[data-card-keypad] [data-rank]")) {
      if (!button.hidden) ranks.add(button.dataset.rank);
    }
    return ranks;
  }

  function finishTyped(cell) {
    state.typing = null;
    const next = nextEmpty(cell);
    select(next);
    reveal(next || cell);
    if (!next) say(text("Full"));
  }

  function typeChar(char, ranks) {
    const cell = state.selected;
    if (!cell) return;
    const typing = state.typing === cell;
    const current = typing ? cell.value.trim().toUpperCase() : "";
    const pending = typing && (current === "1" || (current === "J" && ranks.has("X")));
    if (pending && ((current === "1" && char === "0") || (current === "J" && char === "K"))) {
      state.typing = null;
      typeRank(current + char);
      return;
    }
    const rank = char === "T" ? "10" : char;
    const known = ranks.has(rank) || char === "1" || SUIT_KEYS[char] !== undefined || /\s|,|;/.test(char);
    if (pending && known) {
      finishTyped(cell);
      typeChar(char, ranks);
      return;
    }
    if (/\s|,|;/.test(char)) return;
    if (SUIT_KEYS[char]) {
      if (!typing || !current) {
        typeSuit(SUIT_KEYS[char]);
        return;
      }
    } else if (char === "1" || (char === "J" && ranks.has("X"))) {
      cell.value = char;
      state.typing = cell;
      state.lastFilled = cell;
      changed(cell);
      return;
    } else if (ranks.has(rank)) {
      state.typing = null;
      typeRank(rank);
      return;
    }
    cell.value = current + char;  // not a card (yet): it stays in this cell, outlined
    state.typing = cell;
    state.lastFilled = null;
    changed(cell);
    say(cellLabel(cell) + ": " + cell.value);
  }

  document.addEventListener("beforeinput", (event) => {
    const cell = event.target.closest && event.target.closest("[data-grid-entry] input.grid-entry-input");
    if (!cell || !document.querySelector("[data-card-keypad]")) return;
    if (!/^insert(Text|FromPaste|ReplacementText)$/.test(event.inputType)) return;
    const typed = event.data !== null ? event.data : event.dataTransfer && event.dataTransfer.getData("text/plain");
    if (!typed) return;
    event.preventDefault();
    if (cell !== state.selected) select(cell);
    const whole = cell.value.length > 0 && cell.selectionStart === 0 && cell.selectionEnd === cell.value.length;
    if (whole && state.typing === cell) state.typing = null;  // all of it selected: typing replaces it
    const ranks = keypadRanks();
    for (const char of typed.toUpperCase()) typeChar(char, ranks);
    if (state.selected && state.selected !== document.activeElement) state.selected.focus({ preventScroll: true });
  });

  function onKeypadClick(event) {
    const button = event.target.closest("button");
    if (!button || button.disabled) return;
    if (button.dataset.rank) typeRank(button.dataset.rank);
    else if (button.dataset.suit) typeSuit(button.dataset.suit);
    else if (button.dataset.keypadAction === "undo") undo();
    else if (button.dataset.keypadAction === "erase") erase();
    else if (button.dataset.keypadAction === "clear") clearGrid();
  }

  /* True when a cell is empty or holds a card the keypad offers (so no joker where the ruleset has none). */
  function isCard(value, ranks) {
    const token = value.trim().toUpperCase();
    if (!token) return true;
    if (JOKERS.includes(token)) return ranks.has("X");
    const rank = (text) => (text === "T" ? "10" : text);
    if (ranks.has(rank(token))) return true;
    const match = token.match(/^(.+?)\s*([SHDC♠♥♦♣♤♡♢♧])$/u);
    return Boolean(match) && !JOKERS.includes(match[1]) && ranks.has(rank(match[1]));
  }

  /* aria-invalid on the cells that the grid's (possibly just swapped-in) error list names, and at once
     (class grid-entry-bad too) on a cell whose text is no card of this keypad. */
  function markInvalid() {
    const ranks = keypadRanks();
    const live = document.querySelector("[data-card-keypad]") !== null;
    for (const grid of document.querySelectorAll("[data-grid-entry]")) {
      const errors = new Map();
      for (const item of grid.querySelectorAll(".grid-entry-errors [data-cell]")) errors.set(item.dataset.cell, item.id);
      for (const cell of grid.querySelectorAll("input.grid-entry-input")) {
        const bad = live && !isCard(cell.value, ranks);
        cell.classList.toggle("grid-entry-bad", bad);
        if (errors.has(cell.name)) {
          cell.setAttribute("aria-invalid", "true");
          cell.setAttribute("aria-describedby", errors.get(cell.name));
        } else if (bad) {
          cell.setAttribute("aria-invalid", "true");
          cell.removeAttribute("aria-describedby");
        } else {
          cell.removeAttribute("aria-invalid");
          cell.removeAttribute("aria-describedby");
        }
      }
    }
  }

  function bind(root) {
    const keypads = Array.from(root.querySelectorAll ? root.querySelectorAll("[data-card-keypad]") : []);
    if (root.matches && root.matches("[data-card-keypad]")) keypads.push(root);
    for (const keypad of keypads) {
      if (keypad.dataset.bound) continue;
      keypad.dataset.bound = "1";
      keypad.hidden = false;
      keypad.addEventListener("click", onKeypadClick);
    }
    const live = document.querySelector("[data-card-keypad]") !== null;
    if (!live) return;
    for (const element of document.querySelectorAll("[data-grid-entry-nojs]")) element.hidden = true;
    for (const cell of allCells()) cell.setAttribute("inputmode", "none");
    // Swapped-in grids: keep the selection by name, else select the first empty cell.
    const name = state.selected ? state.selected.name : state.current && state.current.selected;
    const same = name && document.querySelector('input.grid-entry-input[name="' + CSS.escape(name) + '"]');
    if (state.lastFilled && !state.lastFilled.isConnected) {
      state.lastFilled = document.querySelector('input.grid-entry-input[name="' + CSS.escape(state.lastFilled.name) + '"]');
    }
    select(same || nextEmpty(null));
    const now = snapshot();
    if (!state.current) state.current = now;
    else if (differs(state.current.values, now.values)) commit();
    markInvalid();
    updateKeypads();
  }

  document.addEventListener("focusin", (event) => {
    const cell = event.target.closest && event.target.closest("[data-grid-entry] input.grid-entry-input");
    if (cell && cell !== state.selected) {
      state.lastFilled = null;
      select(cell);
      reveal(cell);
      say(cellLabel(cell) + ": " + text("Card"));
    }
  });
  // Typed changes join the undo history.
  document.addEventListener("change", (event) => {
    if (event.isTrusted && event.target.matches && event.target.matches("[data-grid-entry] input.grid-entry-input")) {
      commit();
      markInvalid();
    }
  });
  document.addEventListener("htmx:load", (event) => bind(event.detail.elt));
  document.addEventListener("htmx:afterSettle", markInvalid);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => bind(document));
  else bind(document);

  /* Cells were refilled from outside (a draft restored after a reload): that is the new starting point,
     and the selection goes to the first empty cell, so the next tap overwrites nothing. */
  function restored() {
    state.lastFilled = null;
    state.history = [];
    select(nextEmpty(null));
    reveal(state.selected);
    state.current = snapshot();
    markInvalid();
    updateKeypads();
  }

  window.GridEntry = { bind: bind, undo: undo, clear: clearGrid, restored: restored };
})();
