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
  const prefs = { flip: false, numbers: true };

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
  function gameOf(article) {
    if (!article._g) {
      const g = JSON.parse($("script.gd", article).textContent);
      g.layout = LAYOUTS[g.v] || null;
      g.pos = [];
      g.kids = g.n.map(() => []);
      g.n.forEach((n, k) => { if (n.length > 1) g.kids[n[0]].push(k); });
      g.sev = {};
      $$("li.fd[data-m]", article).forEach((li) => {
        const k = li.dataset.m, s = li.classList.contains("sev-error") ? "error" : li.classList.contains("sev-warning") ? "warning" : "info";
        if (g.sev[k] !== "error") g.sev[k] = s === "info" && g.sev[k] ? g.sev[k] : s;
      });
      article._g = g;
    }
    return article._g;
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
    const nums = el("g", { class: "nums" }, svg);
    L.sq.forEach((s, i) => {
      const q = place(i);
      el("text", { x: q[0] + 4, y: q[1] + 17 }, nums).textContent = s[2];
    });
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

  // A finding's board: the position before the move, the move drawn.
  function findingBoard(slot) {
    const li = slot.closest("li.fd");
    const home = li.closest("[data-game]");
    const art = li.closest("article.game") || (home && document.getElementById(home.dataset.game));
    if (!art) return;
    const g = gameOf(art);
    if (!g.layout) return;
    const p = position(g, +li.dataset.p);
    if (p === null) return;
    let mv = null;
    if (li.dataset.m !== undefined) mv = moveOf(g, +li.dataset.m, true);
    else if (li.dataset.r) mv = { route: li.dataset.r.split(",").map(Number), cap: [], before: true, irregular: true };
    slot.replaceChildren(board(g.layout, p, mv));
  }
  const lazy = "IntersectionObserver" in window ? new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) { lazy.unobserve(e.target); findingBoard(e.target); }
  }, { rootMargin: "300px" }) : null;
  function watch(root) {
    $$(".fb", root).forEach((s) => { if (!s.firstChild) { if (lazy) lazy.observe(s); else findingBoard(s); } });
  }

  // ---- the viewer ----------------------------------------------------------------------------
  const viewer = $("#viewer");
  const V = { art: null, g: null, cur: 0 };

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
        h("span", "cm", it.c, parent);
        needNumber = true;
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

  function open(article, k) {
    if (!article) return;
    const g = gameOf(article);
    if (V.art !== article) {
      if (V.art) V.art.classList.remove("open");
      V.art = article;
      V.g = g;
      article.classList.add("open");
      const players = $(".pl", article).textContent;
      $(".vt", viewer).textContent = players === "? – ?" ? $(".ev", article).textContent || players : players;
      $(".vs", viewer).textContent = [$(".gn", article).textContent, $(".ev", article).textContent, $(".res", article).textContent].filter(Boolean).join(" · ");
      const tags = $(".vtags", viewer);
      tags.replaceChildren();
      for (const t of g.tags) { const r = h("tr", null, null, tags); h("th", null, t[0], r); h("td", null, t[1], r); }
      const list = $(".moves", viewer);
      list.replaceChildren();
      if (!g.layout) h("p", "none", "This game could not be replayed (no variant).", list);
      moveList(g, g.t, list, 0);
      const finds = $(".vfinds", viewer);
      finds.replaceChildren();
      const ol = $("ol.finds", article);
      if (ol) { const c = ol.cloneNode(true); c.dataset.game = article.id; $$(".fb", c).forEach((s) => s.replaceChildren()); finds.appendChild(c); watch(c); }
      viewer.hidden = false;
      document.body.classList.add("viewing");
    }
    if (!g.layout) { $(".vboard", viewer).replaceChildren(); return; }
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
    setHash("#" + V.art.id + "/" + k);
  }
  function setHash(h) {
    if (location.hash === h) return;
    try { history.replaceState(null, "", h); } catch (e) { /* file:// in some browsers */ }
  }
  function close() {
    viewer.hidden = true;
    document.body.classList.remove("viewing");
    if (V.art) { V.art.classList.remove("open"); V.art.querySelector(".gh").focus({ preventScroll: true }); }
    V.art = null; V.g = null;
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
      else if (b.classList.contains("close")) close();
      return;
    }
    const m = e.target.closest(".moves .mv[data-k]");
    if (m) { show(+m.dataset.k); return; }
    const f = e.target.closest("li.fd");
    if (f) goFinding(f, V.art);
  });
  function goFinding(li, art) {
    const k = li.dataset.m !== undefined ? +li.dataset.m : li.dataset.p !== undefined ? +li.dataset.p : undefined;
    open(art, k);
  }
  document.addEventListener("keydown", (e) => {
    if (!V.g || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const keys = { ArrowLeft: prev, ArrowRight: next, Home: first, End: last };
    if (keys[e.key]) { e.preventDefault(); step(keys[e.key]); }
    else if (e.key === "Escape") close();
  });

  // ---- the list: opening games, filters -------------------------------------------------------
  const list = $("#games");
  list.addEventListener("click", (e) => {
    const art = e.target.closest("article.game");
    if (!art) return;
    const li = e.target.closest("li.fd");
    if (li) goFinding(li, art);
    else if (e.target.closest(".gh")) open(art);
  });
  list.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && e.target.classList.contains("gh")) open(e.target.closest("article.game"));
  });

  const filters = $("#filters");
  const codeSel = $("select.code", filters);
  const codes = new Set();
  $$("article.game").forEach((a) => a.dataset.codes.split(" ").forEach((c) => c && codes.add(c)));
  Array.from(codes).sort().forEach((c) => { const o = h("option", null, c, codeSel); o.value = c; });
  function applyFilters() {
    const st = new Set($$("input.status:checked", filters).map((i) => i.value));
    const code = codeSel.value, q = $("input.q", filters).value.trim().toLowerCase();
    const finds = $("input.finds", filters).checked;
    document.body.classList.toggle("show-finds", finds);
    document.body.classList.toggle("show-notes", $("input.notes", filters).checked || infoCodes.has(code));
    let shown = 0, total = 0;
    $$("article.game").forEach((a) => {
      total++;
      const ok = st.has(a.dataset.status) && (!code || a.dataset.codes.split(" ").includes(code)) &&
        (!q || $(".gh", a).textContent.toLowerCase().includes(q));
      a.hidden = !ok;
      if (ok) shown++;
      if (ok && (a._code ?? "") !== code) {
        $$("li.fd", a).forEach((li) => { li.hidden = !!code && li.dataset.code !== code; });
        a._code = code;
      }
      if (ok && finds) watch(a);
    });
    $(".count", filters).textContent = shown === total ? total + " games" : shown + " of " + total + " games";
  }
  const infoCodes = new Set($$('#summary button[data-sev="info"]').map((b) => b.dataset.code));
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
    $("input.finds", filters).checked = true;
    applyFilters();
    list.scrollIntoView();
  });
  applyFilters();

  function fromHash() {
    const m = /^#(g\d+-\d+)(?:\/(\d+))?$/.exec(location.hash);
    if (!m) return;
    const art = document.getElementById(m[1]);
    if (art) { open(art, m[2] === undefined ? undefined : +m[2]); art.scrollIntoView({ block: "nearest" }); }
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
  document.body.classList.add("ready");
})();
