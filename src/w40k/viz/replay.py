"""A self-contained HTML replay page: the table drawn to scale, a slider over snapshots taken
at every phase, and the readable log up to that point. No network, no build step."""

from __future__ import annotations

import html
import json

from w40k.engine.game import Game
from w40k.engine.serial import JSON


def snapshot(game: Game) -> dict[str, JSON]:
    """Where every living model stands now, with the score."""
    s = game.state
    return {
        "round": s.round, "player": s.turn_player, "phase": s.phase,
        "events": len(s.events),
        "vp": {p.name: p.vp for p in s.players},
        "objectives": [{"name": o.name, "x": o.x, "y": o.y, "controller": o.controller}
                       for o in s.objectives],
        "units": [{"id": u.id, "player": u.player,
                   "models": [[round(m.x, 3), round(m.y, 3),
                               round((m.profile.base_mm if isinstance(m.profile.base_mm, float)
                                      else 40.0) / 50.8, 3), m.remaining]
                              for m in u.alive]}
                  for u in s.units if not u.destroyed],
    }


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>w40k replay: {title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1em; background: #f4f1ea; }}
#wrap {{ display: flex; gap: 1em; }}
svg {{ background: #e8e2d0; border: 1px solid #998; }}
#log {{ font: 12px monospace; white-space: pre; height: 560px; overflow-y: scroll;
        background: #fff; border: 1px solid #ccc; padding: .5em; flex: 1; }}
.red {{ fill: #d33; }} .blue {{ fill: #36c; }}
</style></head><body>
<h1>{title}</h1>
<p><input id="slider" type="range" min="0" max="0" value="0" style="width:60%">
<span id="where"></span></p>
<div id="wrap"><svg id="table" width="{w}" height="{h}" viewBox="0 0 {bw} {bd}"></svg>
<div id="log"></div></div>
<script id="data" type="application/json">{data}</script>
<script>
const D = JSON.parse(document.getElementById('data').textContent);
const svg = document.getElementById('table');
const NS = 'http://www.w3.org/2000/svg';
function el(tag, attrs, text) {{
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text) e.textContent = text;
  svg.appendChild(e); return e;
}}
function draw(i) {{
  const s = D.snapshots[i];
  svg.innerHTML = '';
  for (const a of D.terrain.areas || [])
    el('polygon', {{points: a.footprint.map(p => p.join(',')).join(' '),
      fill: '#d6cba8', stroke: '#a98', 'stroke-width': 0.1, 'stroke-dasharray': '0.4'}});
  for (const f of D.terrain.terrain || [])
    el('polygon', {{points: f.footprint.map(p => p.join(',')).join(' '),
      fill: f.category === 'dense' ? '#666' : (f.category === 'light' ? '#7a9a62' : '#b9a77a')}});
  for (const o of s.objectives) {{
    el('circle', {{cx: o.x, cy: o.y, r: 0.787, fill: o.controller ?
      (o.controller === 'red' ? '#f99' : '#9bf') : '#fff', stroke: '#333', 'stroke-width': 0.1}});
    el('circle', {{cx: o.x, cy: o.y, r: 3.787, fill: 'none', stroke: '#555',
      'stroke-width': 0.05, 'stroke-dasharray': '0.3'}});
  }}
  for (const u of s.units) for (const m of u.models)
    el('circle', {{cx: m[0], cy: m[1], r: m[2], class: u.player, stroke: '#111',
      'stroke-width': 0.06}});
  document.getElementById('where').textContent =
    `round ${{s.round}} · ${{s.player || '-'}} · ${{s.phase || '-'}} · VP ` +
    Object.entries(s.vp).map(([k, v]) => `${{k}} ${{v}}`).join(', ');
  document.getElementById('log').textContent = D.log.slice(0, s.lines).join('\\n');
  const log = document.getElementById('log'); log.scrollTop = log.scrollHeight;
}}
const slider = document.getElementById('slider');
slider.max = D.snapshots.length - 1;
slider.oninput = () => draw(+slider.value);
draw(0);
</script></body></html>
"""


def replay_page(title: str, battlefield: dict[str, JSON], terrain: dict[str, JSON],
                snapshots: list[dict[str, JSON]], log_lines: list[str],
                lines_at: list[int]) -> str:
    """The HTML page; ``lines_at[i]`` is how many log lines belong to snapshot ``i``."""
    snaps = [dict(s, lines=n) for s, n in zip(snapshots, lines_at, strict=True)]
    data = json.dumps({"terrain": terrain, "snapshots": snaps, "log": log_lines})
    bw = float(battlefield.get("width", 60))  # type: ignore[arg-type]
    bd = float(battlefield.get("depth", 44))  # type: ignore[arg-type]
    scale = 720 / bw
    return _PAGE.format(title=html.escape(title), w=int(bw * scale), h=int(bd * scale), bw=bw,
                        bd=bd, data=script_json(data))


def script_json(text: str) -> str:
    """JSON made safe inside ``<script>``: ``<``, ``>``, ``&``, U+2028 and U+2029 as ``\\u``
    escapes, so that ``</script>``, ``<!--`` and line separators in names cannot end or blank
    the script (JSON.parse reads the escapes back as the same characters)."""
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
