"""Hostile and malformed roster files are refused with a located error, within the limits of
``w40k.io.rosters.limits``, and nothing is expanded or extracted."""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path

import pytest

from w40k.core.errors import DataError
from w40k.io.rosters import limits, read_roster

DATA = Path(__file__).parent / "data"
ROS = (DATA / "strike_force.ros").read_text(encoding="utf-8")


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def refused(path: Path, pattern: str) -> None:
    with pytest.raises(DataError, match=pattern) as info:
        read_roster(path)
    assert str(path) in str(info.value)


def test_an_xml_entity_bomb_is_refused_without_expanding(tmp_path: Path) -> None:
    bomb = ('<?xml version="1.0"?>\n<!DOCTYPE roster [\n<!ENTITY a "aaaaaaaaaa">\n'
            + "".join(f'<!ENTITY {c} "{("&" + p + ";") * 10}">\n'
                      for p, c in zip("abcdefgh", "bcdefghi", strict=True))
            + ']>\n<roster name="&i;"/>')
    refused(write(tmp_path, "bomb.ros", bomb), "refused: the XML declares a DTD")


def test_an_external_entity_is_refused(tmp_path: Path) -> None:
    xxe = ('<?xml version="1.0"?>\n<!DOCTYPE roster [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
           '\n<roster name="&x;"/>')
    refused(write(tmp_path, "xxe.ros", xxe), "refused")


def test_a_zip_bomb_is_refused_by_its_compression_ratio(tmp_path: Path) -> None:
    path = tmp_path / "bomb.rosz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("bomb.ros", "<roster>" + " " * 5_000_000 + "</roster>")
    refused(path, "more than 100 times")


def test_a_gzip_bomb_is_refused_while_reading(tmp_path: Path) -> None:
    path = tmp_path / "bomb.rosz"
    path.write_bytes(gzip.compress(b"<roster>" + b" " * 5_000_000 + b"</roster>"))
    refused(path, "expands more than 100 times")


def test_a_zip_with_two_files_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "two.rosz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("a.ros", ROS)
        z.writestr("b.ros", ROS)
    refused(path, r"holds 2 files \('a.ros', 'b.ros'\)")


def test_a_path_traversal_member_name_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "evil.rosz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("../../evil.ros", ROS)
    refused(path, r"zip member '../../evil.ros': it climbs out of the archive")
    assert not (tmp_path.parent / "evil.ros").exists()


def test_an_absolute_member_name_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "abs.rosz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("/tmp/abs.ros"), ROS)
    refused(path, "absolute path")


def test_a_roster_for_another_game_system_is_refused_by_name(tmp_path: Path) -> None:
    aos = ROS.replace('gameSystemId="sys-352e-adc2-7639-d610"', 'gameSystemId="sys-aos"').replace(
        "Warhammer 40,000 11th Edition", "Age of Sigmar 4.0")
    refused(write(tmp_path, "aos.ros", aos),
            r"roster: gameSystemName: this is a roster for 'Age of Sigmar 4.0'")


def test_a_kill_team_roster_is_refused(tmp_path: Path) -> None:
    kt = ROS.replace('gameSystemId="sys-352e-adc2-7639-d610"', 'gameSystemId="sys-kt"').replace(
        "Warhammer 40,000 11th Edition", "Warhammer 40,000: Kill Team (2024)")
    refused(write(tmp_path, "kt.ros", kt), "Kill Team")


def test_a_catalogue_is_not_a_roster(tmp_path: Path) -> None:
    refused(write(tmp_path, "cat.ros", '<catalogue name="Orks"/>'),
            "this is a BattleScribe catalogue, not a roster")


def test_deeply_nested_xml_is_refused(tmp_path: Path) -> None:
    deep = "<roster>" + "<selections>" * 100 + "</selections>" * 100 + "</roster>"
    refused(write(tmp_path, "deep.ros", deep), "nests deeper than 64 levels")


def test_deeply_nested_json_is_refused(tmp_path: Path) -> None:
    deep = '{"roster": ' + '{"forces": [' * 100 + "]}" * 100 + "}"
    refused(write(tmp_path, "deep.json", deep), "nests deeper than 64 levels")
    deeper = '{"roster": ' + "[" * 100_000 + "]" * 100_000 + "}"
    refused(write(tmp_path, "deeper.json", deeper), "refused")


def test_a_huge_file_is_refused_before_reading(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 1000)
    refused(write(tmp_path, "huge.ros", ROS), "rosters are read up to 1,000 bytes")


def test_malformed_xml_names_line_and_column(tmp_path: Path) -> None:
    refused(write(tmp_path, "bad.ros", "<roster>\n<forces>\n</roster>"),
            r"not well-formed XML \(line 3")


def test_malformed_json_names_line_and_column(tmp_path: Path) -> None:
    refused(write(tmp_path, "bad.json", '{"roster": {"name": }}'), r"not valid JSON: .*line 1")


def test_a_roster_without_units_is_refused(tmp_path: Path) -> None:
    empty = {"roster": {"name": "x", "gameSystemName": "Warhammer 40,000 10th Edition",
                        "forces": [{"selections": []}]}}
    refused(write(tmp_path, "empty.json", json.dumps(empty)), "the roster has no units")
