"""The replay page's HTML, style and script (filled in by :func:`w40k.viz.replay.replay_page`).

The script builds everything with ``createElement``/``createElementNS``, ``textContent`` and
``setAttribute`` on numbers and fixed colours: no ``innerHTML``, no string-built markup, so
names from files are always text. Ids are looked up in ``Map`` objects, never as object keys.
"""

from __future__ import annotations

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font-family: system-ui, sans-serif; margin: 1em; background: #f4f1ea; color: #222; }
h1 { font-size: 1.3em; margin: 0 0 .4em; }
h2 { font-size: 1em; margin: .8em 0 .3em; }
#controls { display: flex; align-items: center; gap: .5em; margin-bottom: .5em; }
#slider { flex: 1; max-width: 640px; }
#where { font-weight: bold; min-width: 16em; }
#wrap { display: flex; gap: 1em; align-items: flex-start; }
svg { background: #e8e2d0; border: 1px solid #998; flex: none; }
#side { flex: 1; min-width: 22em; }
#score { font-size: 1.1em; }
#history { border-collapse: collapse; font: 12px monospace; }
#history td, #history th { border: 1px solid #ccc; padding: 1px 6px; text-align: right; }
#step, #log { font: 12px monospace; white-space: pre-wrap; background: #fff;
              border: 1px solid #ccc; padding: .4em; }
#step { max-height: 220px; overflow-y: auto; }
#log { height: 260px; overflow-y: scroll; }
#log .now { background: #fff3b0; }
.label { font-size: 0.9px; font-weight: bold; paint-order: stroke; stroke: #fff;
         stroke-width: 0.25px; }
.objname { font-size: 0.7px; fill: #333; }
.help { color: #666; font-size: .85em; }
</style></head><body>
<h1 id="title"></h1>
<div id="controls">
<button id="prev" type="button" title="previous phase (left arrow)">&#9664;</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="phase of the battle">
<button id="next" type="button" title="next phase (right arrow)">&#9654;</button>
<span id="where"></span>
</div>
<p class="help">Left/right arrow keys step through the phases (Home, End: first, last).
Hover a model for its name and wounds, a line for the attack's dice.</p>
<div id="wrap">
<svg id="table" xmlns="http://www.w3.org/2000/svg" width="__WIDTH__" height="__HEIGHT__"
     viewBox="__VIEWBOX__"></svg>
<div id="side">
<div id="score"></div>
<h2>VP and CP by turn</h2><table id="history"></table>
<h2>This phase</h2><div id="step"></div>
<h2>Log</h2><div id="log"></div>
</div></div>
<script id="data" type="application/json">__DATA__</script>
<script>
'use strict';
const D = JSON.parse(document.getElementById('data').textContent);
const NS = 'http://www.w3.org/2000/svg';
const svg = document.getElementById('table');
const slider = document.getElementById('slider');
const COLOURS = ['#c62828', '#1e5bb8', '#2e7d32', '#7b1fa2'];
const LIGHT = ['#f4a3a3', '#a8c4f2', '#a5d6a7', '#ce93d8'];
const SIDE = new Map(D.players.map((p, i) => [p, i]));
const UNITS = new Map(Object.entries(D.units));
const MODELS = new Map(Object.entries(D.models));
const FEATURE = {dense: '#6b6b7b', light: '#7a9a62', exposed: '#b9a77a'};
const ACT = {shoot: ['#ef6c00', 0.12, ''], fight: ['#8b0000', 0.25, ''],
             charge: ['#8e24aa', 0.18, '0.6 0.3'], failed: ['#777', 0.1, '0.2 0.3']};

function colour(player, light) {
  const i = SIDE.has(player) ? SIDE.get(player) % COLOURS.length : COLOURS.length - 1;
  return (light ? LIGHT : COLOURS)[i];
}
function el(tag, attrs, title, parent) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (title !== undefined && title !== null) {
    const t = document.createElementNS(NS, 'title');
    t.textContent = title;
    e.appendChild(t);
  }
  (parent || svg).appendChild(e);
  return e;
}
function text(x, y, cls, fill, content) {
  const t = el('text', {x: x, y: y, class: cls, fill: fill, 'text-anchor': 'middle'});
  t.textContent = content;
  return t;
}
function div(parent, content, cls) {
  const d = document.createElement('div');
  d.textContent = content;
  if (cls) d.className = cls;
  parent.appendChild(d);
  return d;
}
function label(s) {
  if (s.phase === 'start') return 'Deployment: the armies before the first turn';
  if (s.final) return 'Battle over (round ' + s.round + ')';
  return 'Round ' + s.round + ' \\u00b7 ' + (s.player ? s.player + "'s turn \\u00b7 " : '') +
    String(s.phase).replace(/_/g, ' ') + ' phase';
}
function standing(map) {
  const keys = D.players.concat(Object.keys(map).filter(k => !SIDE.has(k)));
  return keys.map(k => k + ' ' + (map[k] === undefined ? 0 : map[k])).join(', ');
}
function where(s) {
  const at = new Map();
  for (const m of s.models) at.set(m[0], m);
  return at;
}
function centre(at, unit) {
  let x = 0, y = 0, n = 0;
  for (const [id, m] of at) {
    const info = MODELS.get(id);
    if (info && info.unit === unit) { x += m[1]; y += m[2]; n += 1; }
  }
  return n ? [x / n, y / n] : null;
}
function polygon(points, attrs, title) {
  el('polygon', Object.assign({points: points.map(p => p[0] + ',' + p[1]).join(' ')}, attrs),
     title);
}

function draw(i) {
  const s = D.steps[i];
  const prev = i > 0 ? D.steps[i - 1] : null;
  const at = where(s);
  const before = prev ? where(prev) : new Map();
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  el('rect', {x: 0, y: 0, width: D.width, height: D.depth, fill: '#e8e2d0', stroke: '#776',
              'stroke-width': 0.08});
  for (const a of D.terrain.areas || [])
    polygon(a.footprint, {fill: '#d8cfae', stroke: '#a98', 'stroke-width': 0.08,
                          'stroke-dasharray': '0.4'}, a.name);
  for (const f of D.terrain.terrain || [])
    polygon(f.footprint, {fill: FEATURE[f.category] || '#999', 'fill-opacity': 0.85},
            f.name + ' (' + f.category + ', ' + f.height + '")');
  for (const [name, x, y, who] of s.objectives) {
    el('circle', {cx: x, cy: y, r: 3.787, fill: who ? colour(who, true) : 'none',
                  'fill-opacity': 0.35, stroke: who ? colour(who) : '#555',
                  'stroke-width': 0.08, 'stroke-dasharray': '0.3'});
    el('circle', {cx: x, cy: y, r: 0.787, fill: who ? colour(who) : '#fff', stroke: '#222',
                  'stroke-width': 0.1, class: 'objective'},
       'objective ' + name + ': ' + (who ? 'controlled by ' + who : 'not controlled'));
    text(x, y + 1.6, 'objname', '#333', name);
  }
  // movement trails: where each model stood at the end of the previous step
  for (const [id, m] of at) {
    const b = before.get(id);
    const info = MODELS.get(id);
    if (!b || !info || Math.hypot(m[1] - b[1], m[2] - b[2]) < 0.05) continue;
    const unit = UNITS.get(info.unit);
    el('line', {x1: b[1], y1: b[2], x2: m[1], y2: m[2], stroke: colour(unit && unit.player),
                'stroke-width': 0.12, 'stroke-opacity': 0.6, 'stroke-dasharray': '0.25 0.15',
                class: 'trail'});
  }
  const left = new Map();
  for (const [id, m] of at) {
    const info = MODELS.get(id);
    if (!info) continue;
    const unit = UNITS.get(info.unit);
    const hurt = m[6] < info.W;
    el('ellipse', {cx: 0, cy: 0, rx: m[3], ry: m[4],
                   transform: 'translate(' + m[1] + ',' + m[2] + ') rotate(' + m[5] + ')',
                   fill: colour(unit && unit.player), stroke: hurt ? '#ffb300' : '#111',
                   'stroke-width': hurt ? 0.15 : 0.06, class: 'model'},
       info.name + ': ' + m[6] + ' of ' + info.W + ' wound' + (info.W === 1 ? '' : 's') +
       ' left');
    const l = left.get(info.unit) || [0, 0];
    left.set(info.unit, [l[0] + 1, l[1] + m[6]]);
  }
  for (const [uid, [n, w]] of left) {
    const c = centre(at, uid);
    const unit = UNITS.get(uid);
    let top = Infinity;
    for (const [id, m] of at) {
      const info = MODELS.get(id);
      if (info && info.unit === uid) top = Math.min(top, m[2] - m[4]);
    }
    const t = text(c[0], top - 0.35, 'label', colour(unit.player),
                   unit.name + ' (' + n + (n === 1 ? ' model, ' : ' models, ') + w + ' W)');
    // keep the label on the table: shift it in from the edge it would cross
    const b = t.getBBox(), vb = svg.viewBox.baseVal;
    if (b.width && b.x < vb.x) t.setAttribute('x', c[0] + (vb.x - b.x));
    else if (b.width && b.x + b.width > vb.x + vb.width)
      t.setAttribute('x', c[0] - (b.x + b.width - vb.x - vb.width));
  }
  const panel = document.getElementById('step');
  panel.replaceChildren();
  for (const a of s.acts) {
    const from = centre(at, a.from) || centre(before, a.from);
    for (const to of a.to) {
      const c = centre(at, to) || centre(before, to);
      if (!from || !c) continue;
      const [stroke, width, dash] = ACT[a.kind] || ACT.shoot;
      el('line', {x1: from[0], y1: from[1], x2: c[0], y2: c[1], stroke: stroke,
                  'stroke-width': width, 'stroke-dasharray': dash, class: 'act ' + a.kind},
         a.text);
    }
    div(panel, a.text, 'act');
  }
  if (!s.acts.length) div(panel, 'No attacks or charges in this phase.');
  document.getElementById('where').textContent = label(s);
  const score = document.getElementById('score');
  score.replaceChildren();
  div(score, 'VP: ' + standing(s.vp));
  div(score, 'CP: ' + standing(s.cp));
  history(i);
  const log = document.getElementById('log');
  log.replaceChildren();
  D.log.slice(0, s.lines).forEach((line, n) => div(log, line, n >= s.from ? 'now' : ''));
  log.scrollTop = log.scrollHeight;
  slider.value = String(i);
}

function history(i) {
  const table = document.getElementById('history');
  table.replaceChildren();
  const head = table.insertRow();
  for (const h of ['turn'].concat(D.players.map(p => p + ' VP'), D.players.map(p => p + ' CP'))) {
    const th = document.createElement('th');
    th.textContent = h;
    head.appendChild(th);
  }
  const rows = [];
  for (let j = 0; j <= i; j++) {
    const s = D.steps[j];
    if (s.phase === 'start') continue;
    const key = s.final ? 'end' : 'R' + s.round + ' ' + s.player;
    if (rows.length && rows[rows.length - 1][0] === key) rows[rows.length - 1][1] = s;
    else rows.push([key, s]);
  }
  for (const [key, s] of rows) {
    const row = table.insertRow();
    const cells = [key].concat(D.players.map(p => s.vp[p] === undefined ? 0 : s.vp[p]),
                               D.players.map(p => s.cp[p] === undefined ? '-' : s.cp[p]));
    for (const c of cells) row.insertCell().textContent = String(c);
  }
}

function go(i) { draw(Math.max(0, Math.min(D.steps.length - 1, i))); }
document.getElementById('title').textContent = D.title;
slider.max = String(D.steps.length - 1);
slider.addEventListener('input', () => go(+slider.value));
document.getElementById('prev').addEventListener('click', () => go(+slider.value - 1));
document.getElementById('next').addEventListener('click', () => go(+slider.value + 1));
document.addEventListener('keydown', e => {
  if (e.target === slider) return;  // the range input steps itself (and fires 'input')
  const keys = new Map([['ArrowRight', 1], ['ArrowDown', 1], ['ArrowLeft', -1], ['ArrowUp', -1]]);
  if (keys.has(e.key)) go(+slider.value + keys.get(e.key));
  else if (e.key === 'Home') go(0);
  else if (e.key === 'End') go(D.steps.length - 1);
  else return;
  e.preventDefault();
});
go(0);
</script></body></html>
"""
