"""``w40k simulate``'s results file (docs/simulate.md): JSON Lines, a header then one game a line.

The header names the batch: the sha256 of its starting position (the armies, mission and
terrain), the agents and the players. ``--combine`` reads any number of results files (the
shards of one batch run on several machines, or batches with other seeds) and refuses files
of another setup and games played twice (the same game seed), naming the file and line.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from w40k.agents.play import GameOutcome
from w40k.core.errors import DataError
from w40k.engine.serial import JSON
from w40k.io import limits
from w40k.io.outputs import write_with

FORMAT = 1
"""The results file's format (the header's ``w40k_simulate``)."""
MAX_LINE = 64 * 1024
"""The longest line of a results file."""
_KEYS = ("setup_sha256", "agents", "players")


def setup_sha256(position: dict[str, JSON]) -> str:
    """The fingerprint of a batch's starting position (key order does not matter)."""
    text = json.dumps(position, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def header(position: dict[str, JSON], agents: Sequence[str],
           players: Sequence[str]) -> dict[str, JSON]:
    """The first line of a results file."""
    return {"w40k_simulate": FORMAT, "setup_sha256": setup_sha256(position),
            "agents": list(agents), "players": list(players)}


def write_results(path: Path, head: dict[str, JSON], outcomes: Sequence[GameOutcome],
                  where: str) -> None:
    """Write the header and the outcomes (index order), whole or not at all."""
    def write(tmp: Path) -> None:
        with tmp.open("w", encoding="utf-8") as fh:
            fh.write(json.dumps(head) + "\n")
            for o in outcomes:
                fh.write(json.dumps(o.to_json()) + "\n")
    write_with(path, write, where)


def _lines(path: Path) -> list[tuple[int, JSON]]:
    source = str(path)
    try:
        if path.is_dir():
            raise DataError("expected a results file, found a folder", where=source)
        if path.stat().st_size > limits.MAX_RESULTS_BYTES:
            raise DataError(f"the results file is larger than the limit of "
                            f"{limits.MAX_RESULTS_BYTES // (1024 * 1024)} MiB "
                            "(docs/input-limits.md)", where=source)
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(f"cannot read the results file: {exc.strerror or exc}",
                        where=source) from None
    out: list[tuple[int, JSON]] = []
    for n, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{source}: line {n}"
        if len(line) > MAX_LINE:
            raise DataError(f"the line is longer than the limit of {MAX_LINE} bytes",
                            where=where)
        try:
            out.append((n, json.loads(line.decode("utf-8"))))
        except (UnicodeDecodeError, ValueError) as exc:
            raise DataError(f"not a JSON line ({exc})", where=where) from None
        if len(out) > limits.MAX_GAMES + 1:
            raise DataError(f"more than the limit of {limits.MAX_GAMES} games",
                            where=source)
    if not out:
        raise DataError("the results file is empty", where=source)
    return out


def read_results(paths: Sequence[Path]) -> tuple[dict[str, JSON], list[GameOutcome]]:
    """The header shared by ``paths`` and every game in them, ordered by game seed."""
    first: dict[str, JSON] | None = None
    seen: dict[int, str] = {}
    games: list[GameOutcome] = []
    for path in paths:
        lines = _lines(path)
        n, head = lines[0]
        where = f"{path}: line {n}"
        if not isinstance(head, dict) or head.get("w40k_simulate") != FORMAT:
            raise DataError(f'expected the header {{"w40k_simulate": {FORMAT}, ...}} of a '
                            "w40k simulate results file", where=where)
        missing = [k for k in _KEYS if k not in head]
        if missing:
            raise DataError(f"the header lacks {', '.join(missing)}", where=where)
        if first is None:
            first = head
        else:
            for k in _KEYS:
                if head[k] != first[k]:
                    raise DataError(f"{k} is {head[k]!r}, but {paths[0]} has {first[k]!r}: "
                                    "not the same batch", where=where)
        players = tuple(str(p) for p in head["players"]) \
            if isinstance(head["players"], list) else ()
        for n, data in lines[1:]:
            where = f"{path}: line {n}"
            o = GameOutcome.from_json(data, where)
            if o.players != players:
                raise DataError(f"players {list(o.players)}, the header has {list(players)}",
                                where=where)
            if o.seed in seen:
                raise DataError(f"the game of seed {o.seed} is also in {seen[o.seed]}",
                                where=where)
            seen[o.seed] = where
            games.append(o)
    if first is None or not games:
        raise DataError("no games in the results files", where="--combine")
    games.sort(key=lambda o: o.seed)
    return first, games
