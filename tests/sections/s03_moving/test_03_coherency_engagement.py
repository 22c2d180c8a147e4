"""03.03 coherency and 03.04 engagement."""

from __future__ import annotations

from w40k.geometry import Model, coherency_breaks, engaged, in_coherency, mm


def m(name: str, x: float, y: float = 0.0, z: float = 0.0, base: float = 25.0) -> Model:
    return Model(name, x, y, z, base, keywords=frozenset({"INFANTRY"}))


def test_two_models_2_1_inches_apart_are_out_of_coherency_and_1_9_inches_in() -> None:
    # R03.03-a
    assert not in_coherency([m("a", 0), m("b", 2.1 + mm(25))])
    assert in_coherency([m("a", 0), m("b", 1.9 + mm(25))])


def test_models_1_inch_apart_but_5_5_inches_vertically_are_out_of_coherency() -> None:
    # R03.03-a
    breaks = coherency_breaks([m("a", 0), m("b", 1.0 + mm(25), z=5.5)])
    assert {b.rule for b in breaks} >= {"R03.03-a"}


def test_a_chain_of_seven_models_with_1_9_inch_gaps_is_out_of_coherency() -> None:
    # R03.03-b: end-to-end 6 x 1.9 + 5 x 0.98 = 16.3" > 9"
    step = 1.9 + mm(25)
    models = [m(f"Boy {i + 1}", i * step) for i in range(7)]
    breaks = coherency_breaks(models)
    assert any(b.rule == "R03.03-b" and b.model == "Boy 1" for b in breaks)
    assert not any(b.rule == "R03.03-a" for b in breaks)


def test_a_single_model_unit_is_always_in_coherency() -> None:
    # R03.03-c
    assert in_coherency([m("a", 30)])


def test_engagement_is_2_inches_horizontally_and_5_vertically() -> None:
    # R03.04-a
    base = mm(25)
    a = m("a", 0)
    assert engaged(a, m("b", 1.9 + base, z=4.0))
    assert not engaged(a, m("b", 2.1 + base))
    assert not engaged(a, m("b", 1.0 + base, z=5.5))


def test_engagement_is_mutual() -> None:
    # R03.04-b
    a, b = m("a", 0), m("b", 1.5 + mm(25))
    assert engaged(a, b) and engaged(b, a)
