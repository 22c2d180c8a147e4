"""DESIGN.md: ``import w40k`` gives the most used names: attacks and their distributions,
line-of-sight queries, armies and positions, the game and its players."""

from __future__ import annotations

from pathlib import Path

import w40k

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_every_name_in_all_is_importable_from_the_package() -> None:
    for name in w40k.__all__:
        assert getattr(w40k, name) is not None, name


def test_a_battle_a_line_of_sight_query_and_a_distribution_from_the_top_level() -> None:
    game = w40k.Game.new(w40k.default_position(), seed=3)
    agent = w40k.RandomAgent(seed=3)
    for _ in range(5):
        request = game.pending()
        if request is None:
            break
        game.submit(agent.choose(game, request))
    assert len(game.record()["choices"]) >= 1
    vis = w40k.Visibility(w40k.load_scene(EXAMPLES / "scene.json"))
    report = vis.unit_pair("Intercessors", "Boyz")
    assert report.reason.startswith("hidden beyond 15")
    bolter = w40k.WeaponProfile.build("Boltgun", range=24, A=2, skill=3, S=4, AP=0, D=1)
    boyz = tuple(w40k.ModelState(f"Boy {i}", W=1, T=5, Sv=5) for i in range(3))
    dist = w40k.distribution([w40k.WeaponEntry(bolter, count=3)], boyz)
    assert abs(sum(dist.models_destroyed.pmf) - 1.0) < 1e-12
    assert dist.target_models == 3
