"""`w40k los`: visibility, cover, engagement and range for every pair of opposing units."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated
from xml.sax.saxutils import escape

import typer
from rich.console import Console
from rich.table import Table

from w40k.cli.help import TidyCommand
from w40k.core.errors import DataError
from w40k.geometry.scene import Scene, SceneError
from w40k.geometry.shapes import Circle, Oval
from w40k.geometry.terrain import Category
from w40k.geometry.visibility import PairReport, Visibility
from w40k.io.display import clean, plain
from w40k.io.outputs import check_output_file, write_atomic
from w40k.io.scene_model import load_scene


def report_json(pairs: list[PairReport]) -> dict[str, object]:
    """The `--json` document."""
    return {
        "pairs": [
            {
                "observer": p.observer,
                "target": p.target,
                "visible": p.visible,
                "fully_visible": p.fully_visible,
                "cover": p.cover,
                "engaged": p.engaged,
                "plunging_fire": p.plunging_fire,
                "distance": round(p.distance, 4),
                "in_range": p.in_range,
                "reason": p.reason,
                "lines": [[list(a), list(b)] for a, b in p.lines],
            }
            for p in pairs
        ]
    }


_COLOURS = {Category.EXPOSED: "#c9b98f", Category.LIGHT: "#8fbf7f", Category.DENSE: "#6b6b7b"}
_PLAYER_COLOURS = ["#2d6bd6", "#d63a2d", "#2da84a", "#b02dd6"]


def render_svg(scene: Scene, pairs: list[PairReport], scale: float = 16.0) -> str:
    """Draw the table: areas, terrain by category with heights, bases to scale, unit names,
    and the sight lines found."""
    bf = scene.battlefield
    w, h = bf.width * scale, bf.depth * scale
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h + 40:.0f}" '
        f'viewBox="0 0 {w:.1f} {h + 40:.1f}" font-family="sans-serif">',
        f'<rect x="0" y="0" width="{w:.1f}" height="{h:.1f}" fill="#e8e2cf" stroke="#333"/>',
    ]

    def pts(poly: object) -> str:
        return " ".join(f"{x * scale:.2f},{y * scale:.2f}" for x, y in poly)  # type: ignore[attr-defined]

    for a in scene.terrain.areas:
        out.append(
            f'<polygon points="{pts(a.footprint)}" fill="#d8cfae" stroke="#8a7d57" '
            f'stroke-dasharray="6,4"><title>{escape(a.name)}</title></polygon>'
        )
    for f in scene.terrain.features:
        cx = sum(p[0] for p in f.footprint) / len(f.footprint) * scale
        cy = sum(p[1] for p in f.footprint) / len(f.footprint) * scale
        out.append(
            f'<polygon points="{pts(f.footprint)}" fill="{_COLOURS[f.category]}" '
            f'fill-opacity="0.85" stroke="#222"><title>{escape(f.name)} ({f.category.value}, '
            f'{f.height:g}")</title></polygon>'
        )
        out.append(
            f'<text x="{cx:.1f}" y="{cy:.1f}" font-size="10" text-anchor="middle" '
            f'fill="#000">{f.height:g}"</text>'
        )
    for g in scene.terrain.gap_fillers():
        # R13.11-b: a filled gap between two dense features (hatched outline)
        out.append(
            f'<polygon points="{pts(g.footprint)}" fill="none" stroke="#5a2d0c" '
            f'stroke-width="2" stroke-dasharray="2,2"><title>gap filled up to {g.height:g}" '
            f"({escape(g.features[0])} / {escape(g.features[1])}, R13.11-b)</title></polygon>"
        )
    for p in pairs:
        for a0, b0 in p.lines:
            out.append(
                f'<line x1="{a0[0] * scale:.2f}" y1="{a0[1] * scale:.2f}" x2="{b0[0] * scale:.2f}" '
                f'y2="{b0[1] * scale:.2f}" stroke="#f0a000" stroke-width="0.8" '
                'stroke-opacity="0.6"/>'
            )
    players = sorted({u.player for u in scene.units})
    for u in scene.units:
        colour = _PLAYER_COLOURS[players.index(u.player) % len(_PLAYER_COLOURS)]
        for m in u.models:
            fp = m.footprint()
            if isinstance(fp, Circle):
                out.append(
                    f'<circle cx="{fp.cx * scale:.2f}" cy="{fp.cy * scale:.2f}" '
                    f'r="{fp.r * scale:.2f}" '
                    f'fill="{colour}" stroke="#111"><title>{escape(m.name)}</title></circle>'
                )
            elif isinstance(fp, Oval):
                out.append(
                    f'<ellipse cx="0" cy="0" rx="{fp.a * scale:.2f}" ry="{fp.b * scale:.2f}" '
                    f'transform="translate({fp.cx * scale:.2f},{fp.cy * scale:.2f}) '
                    f'rotate({math.degrees(fp.angle):.2f})" fill="{colour}" stroke="#111">'
                    f"<title>{escape(m.name)}</title></ellipse>"
                )
            else:
                out.append(
                    f'<polygon points="{pts(fp.points)}" fill="{colour}" stroke="#111">'
                    f"<title>{escape(m.name)}</title></polygon>"
                )
        x = sum(m.x for m in u.models) / len(u.models) * scale
        y = min(m.y for m in u.models) * scale - 14
        out.append(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="12" text-anchor="middle" '
            f'fill="{colour}" font-weight="bold">{escape(u.name)}</text>'
        )
    legend = " ".join(f"{c.value}" for c in Category)
    out.append(
        f'<text x="4" y="{h + 16:.0f}" font-size="11">terrain: {legend} (darker = denser); '
        "heights in inches; dotted brown: gap filled for sight (R13.11-b); "
        "orange: sight lines found</text>"
    )
    out.append("</svg>")
    return "\n".join(out)


def register(app: typer.Typer) -> None:
    """Add the `los` command to the app."""

    @app.command("los", cls=TidyCommand)
    def los(
        input: Annotated[Path, typer.Option("--input", "-i", help="Scene JSON file.")],
        as_json: Annotated[
            bool, typer.Option("--json", help="Print JSON instead of a table.")
        ] = False,
        svg: Annotated[
            Path | None, typer.Option("--svg", help="Write an SVG picture of the table.")
        ] = None,
    ) -> None:
        """Visibility, cover, engagement and range for every pair of opposing units."""
        try:
            if svg is not None:
                check_output_file(svg, "--svg")
            scene = load_scene(input)
            pairs = Visibility(scene).all_pairs()
            if svg is not None:
                write_atomic(svg, render_svg(scene, pairs), "--svg")
        except (DataError, SceneError) as e:
            typer.echo(f"error: {clean(e)}", err=True)
            raise typer.Exit(2) from None
        if as_json:
            typer.echo(json.dumps(report_json(pairs), indent=2))
            return
        table = Table(title=f"Line of sight: {plain(input.name)}")
        for col in (
            "observer",
            "target",
            "visible",
            "fully",
            "cover",
            "engaged",
            "plunging",
            "distance",
            "in range",
            "reason",
        ):
            table.add_column(col)

        def yn(v: bool | None) -> str:
            return "-" if v is None else ("yes" if v else "no")

        for p in pairs:
            table.add_row(
                plain(p.observer),
                plain(p.target),
                yn(p.visible),
                yn(p.fully_visible),
                yn(p.cover),
                yn(p.engaged),
                yn(p.plunging_fire),
                f'{p.distance:.2f}"',
                yn(p.in_range),
                plain(p.reason),
            )
        Console(width=max(Console().width, 150)).print(table)
