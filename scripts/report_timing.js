// How an HTML report of pdn behaves in headless Chromium: the time until its script ran
// (body.ready), the games in the list and the rows drawn, the boards drawn before any is
// shown (0: they are drawn lazily), the time to open a game (its data parsed then), to step
// with "next", to filter by a code and to sort by a column, the console errors, Chromium's
// own counters.
//
//   pdn validate --format html -o big.html ARCHIVE
//   node scripts/report_timing.js big.html
//
// Needs node (18 or later) and chromium on the PATH. A measurement, not a test.
const { spawn } = require('child_process');
const url = 'file://' + require('path').resolve(process.argv[2]);
const prof = require('fs').mkdtempSync(require('path').join(require('os').tmpdir(), 'pdn-timing-'));
const ch = spawn('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--remote-debugging-pipe', '--window-size=1280,900', '--user-data-dir=' + prof, 'about:blank'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
const w = ch.stdio[3], r = ch.stdio[4];
let buf = Buffer.alloc(0), id = 0; const pend = {}; const events = [];
r.on('data', d => { buf = Buffer.concat([buf, d]); let i; while ((i = buf.indexOf(0)) >= 0) { const m = JSON.parse(buf.slice(0, i).toString()); buf = buf.slice(i + 1); if (m.id && pend[m.id]) { pend[m.id](m); delete pend[m.id]; } else events.push(m); } });
const call = (method, params = {}, sessionId) => new Promise(res => { const i = ++id; pend[i] = res; const msg = { id: i, method, params }; if (sessionId) msg.sessionId = sessionId; w.write(JSON.stringify(msg) + '\0'); });
if (!process.argv[2]) { console.error('usage: node scripts/report_timing.js REPORT.html'); process.exit(2); }
(async () => {
  const t = await call('Target.createTarget', { url: 'about:blank' });
  const a = await call('Target.attachToTarget', { targetId: t.result.targetId, flatten: true });
  const s = a.result.sessionId;
  await call('Runtime.enable', {}, s); await call('Page.enable', {}, s); await call('Performance.enable', {}, s);
  const ev = async (e) => (await call('Runtime.evaluate', { expression: e, awaitPromise: true, returnByValue: true }, s)).result.result.value;
  const t0 = Date.now();
  await call('Page.navigate', { url }, s);
  while (!(await ev("!!(document.body && document.body.classList.contains('ready'))"))) await new Promise(r => setTimeout(r, 20));
  const tready = Date.now() - t0;
  const nav = await ev("JSON.stringify(performance.getEntriesByType('navigation')[0].toJSON())");
  const n = JSON.parse(nav);
  const games = await ev("document.querySelector('#filters .count').textContent");
  const rows = await ev("document.querySelectorAll('#table .tr').length");
  const boards = await ev("document.querySelectorAll('svg.board').length");
  let t1 = Date.now();
  const rt = await ev("new Promise(res => { const t = performance.now(); const as = document.querySelectorAll('#table .tr'); as[as.length-1].click(); requestAnimationFrame(() => requestAnimationFrame(() => res(performance.now() - t))); })");
  const nt = await ev("new Promise(res => { const t = performance.now(); for (let i = 0; i < 20; i++) document.querySelector('#viewer button.next').click(); requestAnimationFrame(() => res((performance.now() - t)/20)); })");
  const ft = await ev("new Promise(res => { const t = performance.now(); const s = document.querySelector('#filters select.code'); s.value = s.options[1].value; s.dispatchEvent(new Event('input', {bubbles: true})); setTimeout(() => requestAnimationFrame(() => res(performance.now() - t)), 0); })");
  const st = await ev("new Promise(res => { const t = performance.now(); document.querySelectorAll('#table .th')[2].click(); requestAnimationFrame(() => requestAnimationFrame(() => res(performance.now() - t))); })");
  const m = await call('Performance.getMetrics', {}, s);
  const met = Object.fromEntries(m.result.metrics.map(x => [x.name, x.value]));
  const errs = events.filter(e => e.method === 'Runtime.exceptionThrown' || (e.method === 'Runtime.consoleAPICalled' && e.params.type === 'error')).length;
  console.log(JSON.stringify({ games, rows_drawn: rows, boards_before_click: boards, ready_ms: tready, domContentLoaded_ms: Math.round(n.domContentLoadedEventEnd), load_ms: Math.round(n.loadEventEnd), open_game_ms: Math.round(rt), next_ms: nt.toFixed(2), filter_ms: Math.round(ft), sort_ms: Math.round(st), js_heap_MB: (met.JSHeapUsedSize / 1e6).toFixed(1), nodes: met.Nodes, errors: errs, script_s: met.ScriptDuration.toFixed(2), layout_s: met.LayoutDuration.toFixed(2), style_s: met.RecalcStyleDuration.toFixed(2), task_s: met.TaskDuration.toFixed(2), layouts: met.LayoutCount }));
  ch.on('exit', () => { require('fs').rmSync(prof, { recursive: true, force: true }); process.exit(0); });
  ch.kill();
})();
