// The viewer of pdn's HTML report. It knows no rules: every position comes from the data
// pdn wrote (a root position, then the squares each move changed). Text from the records is
// only ever set with textContent.
"use strict";
(function () {
  const NS = document.querySelector("svg.defs").namespaceURI;
  const LAYOUTS = JSON.parse(document.getElementById("layouts").textContent);
  const SQ = 100, EDGE = 14, COORD = 44, R = 39;
  const NAGS = { 1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!" };
  const PIECES = { w: "white-man", b: "black-man", W: "white-king", B: "black-king" };
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const prefs = { flip: false, numbers: true, clocks: false };

  function el(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function h(tag, cls, text, parent) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  // ---- game data -------------------------------------------------------------------------
  // The games' data, a thousand games to a JSON block, parsed when one of them is opened
  // (the few blocks last used are kept).
  const PER_BLOCK = 1000;
  const BLOCKS = $$("script.gd");
  const parsed = new Map();
  function gameOf(r) {
    const b = Math.floor(r / PER_BLOCK);
    let block = parsed.get(b);
    if (!block) {
      if (!BLOCKS[b]) return null;
      block = JSON.parse(BLOCKS[b].textContent);
      if (parsed.size >= 4) parsed.delete(parsed.keys().next().value);
      parsed.set(b, block);
    }
    const g = block[r % PER_BLOCK];
    if (!g || g.layout !== undefined) return g || null;
    g.layout = LAYOUTS[g.v] || null;
    g.pos = [];
    g.kids = g.n.map(() => []);
    g.n.forEach((n, k) => { if (n.length > 1) g.kids[n[0]].push(k); });
    g.sev = {};
    for (const f of g.f) {
      if (f.mv === undefined) continue;
      const k = f.mv, s = f.s;
      if (g.sev[k] !== "error") g.sev[k] = s === "info" && g.sev[k] ? g.sev[k] : s;
    }
    return g;
  }
  const isMove = (g, k) => g.n[k] && g.n[k].length > 1;
  function position(g, k) {
    const chain = [];
    let at = k;
    while (g.pos[at] === undefined) {
      const n = g.n[at];
      if (!n) return null;
      if (n.length === 1) { g.pos[at] = n[0]; break; }
      chain.push(at);
      at = n[0];
    }
    let p = g.pos[at];
    for (let i = chain.length - 1; i >= 0; i--) {
      const c = p.split("");
      const re = /(\d+)(\D)/g;
      let m;
      while ((m = re.exec(g.n[chain[i]][1])) !== null) c[+m[1]] = m[2];
      p = c.join("");
      g.pos[chain[i]] = p;
    }
    return p;
  }
  function next(g, k) {
    const kids = g.kids[k];
    if (!kids || !kids.length) return null;
    const line = isMove(g, k) ? g.n[k][7] : 0;
    return kids.find((c) => g.n[c][7] === line) ?? kids[0];
  }
  const prev = (g, k) => (isMove(g, k) ? g.n[k][0] : null);
  function first(g, k) { let p; while ((p = prev(g, k)) !== null) k = p; return k; }
  function last(g, k) { let n; while ((n = next(g, k)) !== null) k = n; return k; }
  function moveLabel(g, k) {
    const n = g.n[k];
    const firstSide = g.layout && g.layout.first === "B" ? 1 : 0;
    return n[5] + (n[6] === firstSide ? ". " : "... ") + n[4];
  }
  const toPlay = (p) => (p && p[0] === "B" ? "Black to play" : "White to play");

  // ---- boards ------------------------------------------------------------------------------
  function shaft(pts) {
    const n = pts.length;
    if (n < 2) return null;
    const tip = pts[n - 1];
    let prevPt = null;
    for (let i = n - 2; i >= 0; i--) if (pts[i][0] !== tip[0] || pts[i][1] !== tip[1]) { prevPt = pts[i]; break; }
    if (!prevPt) return null;
    const dx = tip[0] - prevPt[0], dy = tip[1] - prevPt[1], len = Math.hypot(dx, dy);
    const ux = dx / len, uy = dy / len, hl = Math.min(38, len * 0.6);
    const base = [tip[0] - ux * hl, tip[1] - uy * hl];
    const line = pts.slice(0, n - 1).concat([base]);
    const head = [tip, [base[0] - uy * 20, base[1] + ux * 20], [base[0] + uy * 20, base[1] - ux * 20]];
    return { line, head };
  }
  const pts = (a) => a.map((p) => p[0].toFixed(1) + "," + p[1].toFixed(1)).join(" ");
  function cross(parent, x, y, r, cls) {
    el("polyline", { class: cls, points: pts([[x - r, y - r], [x + r, y + r]]) }, parent);
    el("polyline", { class: cls, points: pts([[x - r, y + r], [x + r, y - r]]) }, parent);
  }

  // A board: the layout of a variant, a position string, a move drawn (route and captured
  // square numbers; `before`: the captured pieces still stand).
  function board(layout, p, mv) {
    const flip = prefs.flip, L = layout, coords = !!L.files;
    const left = coords ? COORD : EDGE, bottom = coords ? COORD : EDGE;
    const W = left + L.w * SQ + EDGE, H = EDGE + L.h * SQ + bottom;
    const svg = el("svg", { viewBox: "0 0 " + W + " " + H, class: "board" + (prefs.numbers ? " numbered" : ""), role: "img" });
    const place = (i) => {
      const s = L.sq[i];
      const c = flip ? L.w - 1 - s[0] : s[0], r = flip ? L.h - 1 - s[1] : s[1];
      return [left + c * SQ, EDGE + r * SQ];
    };
    const centre = (num) => { const q = place(num - 1); return [q[0] + SQ / 2, q[1] + SQ / 2]; };
    el("rect", { x: left, y: EDGE, width: L.w * SQ, height: L.h * SQ, class: "lt" }, svg);
    const sqs = el("g", { class: "squares" }, svg);
    L.sq.forEach((s, i) => {
      const q = place(i);
      el("rect", { x: q[0], y: q[1], width: SQ, height: SQ, class: L.full ? "fl" : "dk", "data-square": s[2] }, sqs);
    });
    el("rect", { x: left, y: EDGE, width: L.w * SQ, height: L.h * SQ, class: "edge" }, svg);
    if (coords) {
      const co = el("g", { class: "co" }, svg);
      for (let c = 0; c < L.w; c++) {
        const f = L.files[flip ? L.w - 1 - c : c];
        el("text", { x: left + (c + 0.5) * SQ, y: EDGE + L.h * SQ + 32, "text-anchor": "middle" }, co).textContent = f;
      }
      for (let r = 0; r < L.h; r++) {
        const k = L.ranks[flip ? L.h - 1 - r : r];
        el("text", { x: left - 12, y: EDGE + (r + 0.5) * SQ + 9, "text-anchor": "end" }, co).textContent = String(k);
      }
    }
    if (mv && !mv.before && mv.cap) {
      const gh = el("g", { class: "ghosts" }, svg);
      mv.cap.forEach((n) => { const c = centre(n); el("circle", { cx: c[0], cy: c[1], r: R - 2, class: "ghost" }, gh); cross(gh, c[0], c[1], 14, "ghost"); });
    }
    const pcs = el("g", { class: "pieces" }, svg);
    for (let i = 1; i < p.length; i++) {
      const ch = p[i];
      if (!PIECES[ch]) continue;
      const c = centre(i);
      el("use", { href: "#pdn-" + PIECES[ch], x: c[0] - 50, y: c[1] - 50, width: SQ, height: SQ, class: "pc", "data-square": L.sq[i - 1][2], "data-piece": ch }, pcs);
    }
    // Square numbers over the pieces, dark on a light tab, larger on larger boards.
    if (prefs.numbers) {
      const nums = el("g", { class: "nums" }, svg), size = 12 + Math.max(L.w, L.h);
      L.sq.forEach((s, i) => {
        const q = place(i);
        el("rect", { x: q[0] + 2, y: q[1] + 2, width: 0.62 * size * s[2].length + 6, height: size + 2, class: "tab" }, nums);
        const t = el("text", { x: q[0] + 5, y: q[1] + 2 + size * 0.88 }, nums);
        t.setAttribute("font-size", size);
        t.textContent = s[2];
      });
    }
    if (mv && mv.route && mv.route.length >= 2) {
      const s = shaft(mv.route.map(centre));
      if (s) {
        const g = el("g", { class: "arrow" + (mv.irregular ? " irregular" : "") }, svg);
        el("polyline", { class: "halo", points: pts(s.line) }, g);
        el("polygon", { class: "halo", points: pts(s.head) }, g);
        el("polyline", { class: "shaft", points: pts(s.line) }, g);
        el("polygon", { class: "head", points: pts(s.head) }, g);
      }
    }
    if (mv && mv.before && mv.cap) {
      const cx = el("g", { class: "taken" }, svg);
      mv.cap.forEach((n) => { const c = centre(n); cross(cx, c[0], c[1], 21, "halo"); cross(cx, c[0], c[1], 21, "x"); });
    }
    return svg;
  }
  function moveOf(g, k, before) {
    const n = g.n[k];
    return { route: n[2], cap: n[3], before, irregular: n[8] === 1 };
  }

  // ---- findings ------------------------------------------------------------------------------
  // A finding's board: the position before the move, the move drawn.
  function findingBoard(slot) {
    const g = V.g, f = slot._f;
    if (!g || !f || !g.layout) return;
    const p = position(g, f.p);
    if (p === null) return;
    let mv = null;
    if (f.mv !== undefined) mv = moveOf(g, f.mv, true);
    else if (f.r && f.r.length) mv = { route: f.r, cap: [], before: true, irregular: true };
    slot.replaceChildren(board(g.layout, p, mv));
  }
  const lazy = "IntersectionObserver" in window ? new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) { lazy.unobserve(e.target); findingBoard(e.target); }
  }, { root: null, rootMargin: "300px" }) : null;

  // One finding as an item of the viewer's list (text set with textContent only).
  function findingItem(g, f, file) {
    const li = h("li", "fd sev-" + f.s);
    li.dataset.code = f.c;
    li.dataset.var = f.var ? "1" : "0";
    if (f.p !== undefined) {
      const slot = h("div", "fb", null, li);
      slot._f = f;
      if (lazy) lazy.observe(slot); else findingBoard(slot);
      if (f.mv !== undefined) li.dataset.m = f.mv;
      li.dataset.p = f.p;
    }
    const fx = h("div", "fx", null, li);
    const head = h("p", "fh", null, fx);
    h("b", "sv", f.s, head);
    head.append(" ");
    h("code", null, f.c, head);
    head.append(" ");
    h("span", "msg", f.m, head);
    h("p", "fl", file + ":" + f.at.join(":") + " · " + f.w, fx);
    if (f.src) {
      const pre = h("pre", "src", null, fx);
      h("span", "ln", String(f.src[0]), pre);
      pre.append(f.src[1]);
      h("mark", null, f.src[2], pre);
      pre.append(f.src[3]);
    }
    if (f.rule || f.lg) {
      const r = h("p", "fr", null, fx);
      if (f.rule) { r.append("Rule: "); h("span", "rule", f.rule, r); }
      if (f.lg) { if (f.rule) r.append(" · "); r.append("Legal moves: "); h("span", "lg", f.lg.length ? f.lg.join(" ") : "none", r); }
    }
    return li;
  }

  // ---- the viewer ----------------------------------------------------------------------------
  const viewer = $("#viewer");
  const V = { id: null, g: null, cur: 0, row: null };
  // A comment that is only commands such as [%clock …] (lidraughts writes one after every move).
  const CLOCK = /^(\s*\[%[^\]]*\])+\s*$/;

  function moveList(g, items, parent, depth) {
    let needNumber = true;
    for (const it of items) {
      if (typeof it === "number") {
        const n = g.n[it];
        const firstSide = g.layout && g.layout.first === "B" ? 1 : 0;
        let label = n[4];
        if (n[6] === firstSide) label = n[5] + ". " + label;
        else if (needNumber) label = n[5] + "... " + label;
        const s = h("span", "mv", label, parent);
        s.dataset.k = it;
        s.tabIndex = -1;
        if (g.sev[it]) s.classList.add("f-" + g.sev[it]);
        if (n[8] === 1) s.classList.add("irr");
        needNumber = false;
      } else if (it.x !== undefined) {
        const s = h("span", "mv un", it.x, parent);
        s.title = "not replayed";
        needNumber = true;
      } else if (it.c !== undefined) {
        if (CLOCK.test(it.c)) { h("span", "cm clock", it.c, parent); g.clocks = true; }
        else { h("span", "cm", it.c, parent); needNumber = true; }
      } else if (it.g !== undefined) {
        h("span", "nag", NAGS[it.g] || "$" + it.g, parent);
      } else if (it.f !== undefined) {
        h("span", "setup", "[" + it.f + "]", parent);
        needNumber = true;
      } else if (it.v || it.r) {
        const v = h("span", it.r ? "reply" : depth === 0 ? "var top" : "var", null, parent);
        moveList(g, it.v || it.r, v, depth + 1);
        needNumber = true;
      }
    }
  }

  // The game of row `r` (an index into ROWS), at node k.
  function open(r, k) {
    const row = ROWS[r];
    if (!row) return;
    const id = "g" + (row[0] + 1) + "-" + row[1];
    const g = gameOf(r);
    if (!g) return;
    if (V.id !== id) {
      V.id = id; V.g = g; V.row = r;
      const players = [row[5] || "?", row[6] || "?"].join(" – ");
      $(".vt", viewer).textContent = players === "? – ?" ? row[7] || FILES[row[0]] + " #" + row[1] : players;
      $(".vs", viewer).textContent = [FILES[row[0]] + " #" + row[1], row[7], row[8], row[9], row[10]].filter(Boolean).join(" · ");
      const tags = $(".vtags", viewer);
      tags.replaceChildren();
      for (const t of g.tags) { const tr = h("tr", null, null, tags); h("th", null, t[0], tr); h("td", null, t[1], tr); }
      const list = $(".moves", viewer);
      list.replaceChildren();
      if (!g.layout) h("p", "none", "This game could not be replayed (no variant).", list);
      moveList(g, g.t, list, 0);
      $("button.clocks", viewer).hidden = !g.clocks;
      const finds = $(".vfinds", viewer);
      finds.replaceChildren();
      const ol = h("ol", "finds");
      for (const f of g.f) ol.appendChild(findingItem(g, f, FILES[row[0]]));
      const shown = g.f.filter((f) => f.s !== "info" || document.body.classList.contains("show-notes")).length;
      $(".fh3", viewer).hidden = shown === 0;
      if (g.f.length) finds.appendChild(ol);
      viewer.hidden = false;
      document.body.classList.add("viewing");
      draw();
    }
    if (!g.layout) { $(".vboard", viewer).replaceChildren(); setHash("#" + id); return; }
    show(k === undefined || k === null || !g.n[k] ? first(g, 0) : k);
  }

  function show(k) {
    const g = V.g;
    if (!g || !g.n[k]) return;
    V.cur = k;
    const p = position(g, k);
    const mv = isMove(g, k) ? moveOf(g, k, false) : null;
    const wrap = $(".vboard", viewer);
    wrap.replaceChildren(board(g.layout, p, mv));
    $(".vcap", viewer).textContent = (isMove(g, k) ? moveLabel(g, k) + " · " : "") + toPlay(p);
    $$(".moves .mv.cur", viewer).forEach((s) => s.classList.remove("cur"));
    const s = $('.moves .mv[data-k="' + k + '"]', viewer);
    if (s) { s.classList.add("cur"); s.scrollIntoView({ block: "nearest" }); }
    $("button.first", viewer).disabled = $("button.prev", viewer).disabled = prev(g, k) === null;
    $("button.next", viewer).disabled = $("button.last", viewer).disabled = next(g, k) === null;
    setHash("#" + V.id + "/" + k);
  }
  function setHash(hh) {
    if (location.hash === hh) return;
    try { history.replaceState(null, "", hh); } catch (e) { /* file:// in some browsers */ }
  }
  function close() {
    viewer.hidden = true;
    document.body.classList.remove("viewing");
    V.id = null; V.g = null; V.row = null;
    draw();
    setHash("#");
  }
  function step(f) { if (V.g) { const k = f(V.g, V.cur); if (k !== null && k !== undefined) show(k); } }

  viewer.addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (b) {
      if (b.classList.contains("first")) step(first);
      else if (b.classList.contains("prev")) step(prev);
      else if (b.classList.contains("next")) step(next);
      else if (b.classList.contains("last")) step(last);
      else if (b.classList.contains("flip")) { prefs.flip = !prefs.flip; b.setAttribute("aria-pressed", prefs.flip); show(V.cur); }
      else if (b.classList.contains("numbers")) { prefs.numbers = !prefs.numbers; b.setAttribute("aria-pressed", prefs.numbers); show(V.cur); }
      else if (b.classList.contains("clocks")) { prefs.clocks = !prefs.clocks; b.setAttribute("aria-pressed", prefs.clocks); document.body.classList.toggle("show-clocks", prefs.clocks); }
      else if (b.classList.contains("close")) close();
      return;
    }
    const m = e.target.closest(".moves .mv[data-k]");
    if (m) { show(+m.dataset.k); return; }
    const f = e.target.closest("li.fd");
    if (f && V.g) show(f.dataset.m !== undefined ? +f.dataset.m : f.dataset.p !== undefined ? +f.dataset.p : V.cur);
  });
  document.addEventListener("keydown", (e) => {
    if (!V.g || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const keys = { ArrowLeft: prev, ArrowRight: next, Home: first, End: last };
    if (keys[e.key]) { e.preventDefault(); step(keys[e.key]); }
    else if (e.key === "Escape") close();
  });

  // ---- the list: a table of every game, drawn a screenful at a time ---------------------------
  // A row: file, game, status, errors, warnings, White, Black, event, date, result, variant,
  // plies, codes, opening (as pdn wrote it).
  const FILES = JSON.parse($("#files").textContent);
  const ROWS = [];
  for (const b of $$("script.rows")) for (const r of JSON.parse(b.textContent)) ROWS.push(r);
  const ROW_H = 30;
  const STATUS = { e: 0, w: 1, c: 2 };
  const statusText = (r) => r[2] === "e" ? "✗ " + r[3] + " error" + (r[3] === 1 ? "" : "s")
    : r[2] === "w" ? "! " + r[4] + " warning" + (r[4] === 1 ? "" : "s") : "✓ clean";
  // Columns: heading, class, text of a row, sort key, widest shown (characters).
  const COLS = [
    { name: "status", cls: "st", text: statusText, key: (r) => STATUS[r[2]] * 1e6 - (r[3] || r[4]), max: 12, min: 12 },
    { name: "file", cls: "gn", text: (r) => FILES[r[0]] + " #" + r[1], key: null, max: 70, min: 14 },
    { name: "White", cls: "pw", text: (r) => r[5], key: (r) => r[5].toLowerCase(), max: 28 },
    { name: "Black", cls: "pb", text: (r) => r[6], key: (r) => r[6].toLowerCase(), max: 28 },
    { name: "event", cls: "ev", text: (r) => r[7], key: (r) => r[7].toLowerCase(), max: 60 },
    { name: "date", cls: "dt", text: (r) => r[8], key: (r) => r[8], max: 12 },
    { name: "result", cls: "res", text: (r) => r[9], key: (r) => r[9], max: 9, min: 8 },
    { name: "variant", cls: "vr", text: (r) => r[10], key: (r) => r[10], max: 14 },
    { name: "plies", cls: "pc n", text: (r) => String(r[11]), key: (r) => r[11], max: 6 },
    { name: "opening", cls: "op", text: (r) => r[13] || "", key: (r) => (r[13] || "\uffff").toLowerCase(), max: 40 },
  ];
  const table = $("#table"), thead = $(".thead", table), tbody = $(".tbody", table);
  // Each column as wide as its widest text (up to its limit) when the page is wide enough:
  // nothing is cut that fits; narrower, the columns shrink (a cut cell's title holds it whole).
  const widths = COLS.map((c) => c.name.length + 2);
  for (const r of ROWS) for (let i = 0; i < COLS.length; i++) {
    const n = String(COLS[i].text(r)).length;
    if (n > widths[i]) widths[i] = n;
  }
  const track = (i) => {
    const w = Math.min(widths[i], COLS[i].max) + 1;
    return "minmax(" + Math.min(w, COLS[i].min || 6) + "ch, " + w + "fr)";
  };
  table.style.setProperty("--cols", COLS.map((c, i) => track(i)).join(" "));
  table.style.setProperty("--cols-viewing", [0, 1, 2, 3, 6].map(track).join(" "));
  COLS.forEach((c, i) => {
    const b = h("button", "th " + c.cls.split(" ")[0], c.name, thead);
    b.dataset.col = i;
    b.setAttribute("role", "columnheader");
  });
  let order = [], sortCol = 0, sortDir = 1;
  function sortRows() {
    const c = COLS[sortCol];
    const idx = ROWS.map((_, i) => i);
    if (c.key) {
      const keys = ROWS.map(c.key);
      idx.sort((a, b) => (keys[a] < keys[b] ? -sortDir : keys[a] > keys[b] ? sortDir : a - b));
    } else if (sortDir < 0) idx.reverse();
    $$(".th", thead).forEach((b) => b.setAttribute("aria-sort", +b.dataset.col === sortCol ? (sortDir > 0 ? "ascending" : "descending") : "none"));
    return idx;
  }
  let sorted = sortRows();
  function draw() {
    const top = tbody.getBoundingClientRect().top + window.scrollY;
    const from = Math.max(0, Math.floor((window.scrollY - top) / ROW_H) - 10);
    const to = Math.min(order.length, from + Math.ceil(window.innerHeight / ROW_H) + 20);
    tbody.style.height = order.length * ROW_H + "px";
    const frag = document.createDocumentFragment();
    for (let i = from; i < to; i++) {
      const r = ROWS[order[i]];
      const tr = h("div", "tr s-" + r[2], null, frag);
      tr.setAttribute("role", "row");
      tr.tabIndex = 0;
      tr.dataset.row = order[i];
      tr.dataset.game = "g" + (r[0] + 1) + "-" + r[1];
      tr.style.top = i * ROW_H + "px";
      if (order[i] === V.row) tr.classList.add("open");
      for (const c of COLS) {
        const t = c.text(r);
        const td = h("span", c.cls, t, tr);
        td.setAttribute("role", "gridcell");
        if (t.length > 8) td.title = t;
      }
    }
    tbody.replaceChildren(frag);
  }
  let pending = false;
  window.addEventListener("scroll", () => { if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; draw(); }); } }, { passive: true });
  window.addEventListener("resize", () => draw());
  thead.addEventListener("click", (e) => {
    const b = e.target.closest(".th");
    if (!b) return;
    const i = +b.dataset.col;
    if (i === sortCol) sortDir = -sortDir; else { sortCol = i; sortDir = 1; }
    sorted = sortRows();
    applyFilters();
  });
  tbody.addEventListener("click", (e) => {
    const tr = e.target.closest(".tr");
    if (tr) open(+tr.dataset.row);
  });
  tbody.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && e.target.classList.contains("tr")) open(+e.target.dataset.row);
  });

  const filters = $("#filters");
  const codeSel = $("select.code", filters);
  $$("#summary button[data-code]").forEach((b) => { const o = h("option", null, b.dataset.code, codeSel); o.value = b.dataset.code; });
  const infoCodes = new Set($$('#summary button[data-sev="info"]').map((b) => b.dataset.code));
  let hay = null;
  function applyFilters() {
    const st = new Set($$("input.status:checked", filters).map((i) => i.value));
    const code = codeSel.value, q = $("input.q", filters).value.trim().toLowerCase();
    document.body.classList.toggle("show-notes", $("input.notes", filters).checked || infoCodes.has(code));
    if (q && !hay) hay = ROWS.map((r) => (FILES[r[0]] + " " + r[5] + " " + r[6] + " " + r[7] + " " + r[8]).toLowerCase());
    order = sorted.filter((i) => {
      const r = ROWS[i];
      return st.has(r[2]) && (!code || (" " + r[12] + " ").includes(" " + code + " ")) && (!q || hay[i].includes(q));
    });
    $(".count", filters).textContent = order.length === ROWS.length ? ROWS.length + " game" + (ROWS.length === 1 ? "" : "s")
      : order.length + " of " + ROWS.length + " games";
    draw();
  }
  let timer = 0;
  filters.addEventListener("input", (e) => {
    clearTimeout(timer);
    if (e.target.classList.contains("q")) timer = setTimeout(applyFilters, 150);
    else applyFilters();
  });
  $("#summary").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-code]");
    if (!b) return;
    codeSel.value = b.dataset.code;
    applyFilters();
    $("#list").scrollIntoView();
  });
  applyFilters();

  const rowOf = new Map();
  function fromHash() {
    const m = /^#g(\d+)-(\d+)(?:\/(\d+))?$/.exec(location.hash);
    if (!m) return;
    if (!rowOf.size) ROWS.forEach((r, i) => rowOf.set((r[0] + 1) + "-" + r[1], i));
    const r = rowOf.get(m[1] + "-" + m[2]);
    if (r === undefined) return;
    open(r, m[3] === undefined ? undefined : +m[3]);
    const at = order.indexOf(r);
    if (at >= 0) window.scrollTo(0, tbody.getBoundingClientRect().top + window.scrollY + at * ROW_H - window.innerHeight / 3);
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
  document.body.classList.add("ready");
})();
