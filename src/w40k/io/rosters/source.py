"""Opening a roster file safely and telling its format from its content.

The suffix is only a hint: a ``.rosz`` is recognised by the zip magic bytes, a gzip'd roster by
the gzip magic, XML by its root element, New Recruit JSON by its top-level ``roster`` key, and
text exports by their signatures and shape. Every limit is in :mod:`.limits`.
"""

from __future__ import annotations

import gzip
import io
import json
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from w40k.core.errors import DataError
from w40k.io.rosters import limits

ZIP_MAGIC = b"PK\x03\x04"
GZIP_MAGIC = b"\x1f\x8b"

FORMATS = ("ros", "rosz", "newrecruit-json", "app-text", "newrecruit-text", "army")
"""Every format ``detect`` can answer (``army``: the project's own YAML/JSON format)."""


@dataclass(frozen=True, slots=True)
class Source:
    """A file's content, decompressed and decoded, with its detected format."""

    path: str
    """The file as named in messages."""
    format: str
    """One of :data:`FORMATS`."""
    text: str
    """The decoded document (the ``.ros`` inside a ``.rosz``)."""


def read_bytes(path: str | Path) -> bytes:
    """The file's bytes, refused over :data:`limits.MAX_FILE_BYTES`."""
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > limits.MAX_FILE_BYTES:
            raise DataError(
                f"the file is {size:,} bytes; rosters are read up to "
                f"{limits.MAX_FILE_BYTES:,} bytes (limits.MAX_FILE_BYTES)", where=str(path))
        with file.open("rb") as f:
            return f.read(limits.MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror or exc})", where=str(path)) from None


def _bounded_read(stream: IO[bytes] | gzip.GzipFile, compressed: int,
                  where: str) -> bytes:
    """Read a decompressing stream in chunks, stopping at the size and ratio caps whatever the
    headers claim (a zip bomb lies about its sizes)."""
    cap = min(limits.MAX_ROSTER_BYTES, max(compressed, 1) * limits.MAX_COMPRESSION_RATIO)
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = stream.read(64 * 1024)
        if not chunk:
            break
        total += len(chunk)
        if total > cap:
            why = ("roster documents are read up to "
                   f"{limits.MAX_ROSTER_BYTES:,} bytes (limits.MAX_ROSTER_BYTES)"
                   if cap == limits.MAX_ROSTER_BYTES else
                   f"it expands more than {limits.MAX_COMPRESSION_RATIO} times its compressed "
                   f"size of {compressed:,} bytes (limits.MAX_COMPRESSION_RATIO): a zip bomb?")
            raise DataError(f"refused: {why}", where=where)
        chunks.append(chunk)
    return b"".join(chunks)


def _unsafe_name(name: str) -> str | None:
    """Why a zip member name is a path trick, or ``None`` if it is a plain name."""
    if "\\" in name or "\x00" in name:
        return "it contains a backslash or NUL"
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        return "it is an absolute path"
    if ".." in PurePosixPath(name).parts:
        return "it climbs out of the archive with '..'"
    return None


def unzip(data: bytes, where: str) -> tuple[str, bytes]:
    """The name and content of the one file in a ``.rosz``."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError) as exc:
        raise DataError(f"not a readable zip archive ({exc})", where=where) from None
    with archive:
        members = archive.infolist()
        for info in members:
            why = _unsafe_name(info.filename)
            if why:
                raise DataError(f"refused: zip member {info.filename!r}: {why}", where=where)
        files = [m for m in members if not m.is_dir()]
        if not files:
            raise DataError("the zip archive holds no file (a .rosz holds one .ros)", where=where)
        if len(files) > limits.MAX_ZIP_MEMBERS:
            names = ", ".join(repr(m.filename) for m in files[:5])
            raise DataError(
                f"refused: the zip archive holds {len(files)} files ({names}); a .rosz holds "
                f"exactly {limits.MAX_ZIP_MEMBERS} (limits.MAX_ZIP_MEMBERS)", where=where)
        info = files[0]
        at = f"{where}: {info.filename}"
        if info.file_size > limits.MAX_ROSTER_BYTES:
            raise DataError(
                f"refused: the member is {info.file_size:,} bytes uncompressed; roster documents "
                f"are read up to {limits.MAX_ROSTER_BYTES:,} bytes (limits.MAX_ROSTER_BYTES)",
                where=at)
        if info.file_size > max(info.compress_size, 1) * limits.MAX_COMPRESSION_RATIO:
            raise DataError(
                f"refused: the member expands from {info.compress_size:,} to "
                f"{info.file_size:,} bytes, more than {limits.MAX_COMPRESSION_RATIO} times "
                "(limits.MAX_COMPRESSION_RATIO): a zip bomb?", where=at)
        if info.flag_bits & 0x1:
            raise DataError("the member is encrypted", where=at)
        try:
            with archive.open(info) as stream:
                return info.filename, _bounded_read(stream, info.compress_size, at)
        except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError) as exc:
            raise DataError(f"cannot decompress the member ({exc})", where=at) from None


def gunzip(data: bytes, where: str) -> bytes:
    """A gzip'd roster's content (some tools write ``.rosz`` as gzip)."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            return _bounded_read(stream, len(data), where)
    except (OSError, EOFError) as exc:
        raise DataError(f"not a readable gzip file ({exc})", where=where) from None


def decode(data: bytes, where: str) -> str:
    """Text from UTF-8 (with or without BOM) or UTF-16 with a BOM."""
    try:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            return data.decode("utf-16")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text (byte {exc.start}: {exc.reason})", where=where) from None


_APP_SIGNS = re.compile(
    r"Exported with App Version|\(\s*[\d,.\s]+\s*(?:Points|points|pts)\s*\)|"
    r"Points de D|\+\s*TOTAL ARMY POINTS|^\s*(?:CHARACTERS?|BATTLELINE|OTHER DATASHEETS|"
    r"DEDICATED TRANSPORTS?)\s*$", re.MULTILINE)
_NR_SIGNS = re.compile(r"newrecruit\.eu|\[\s*[\d,.]+\s*pts\s*\]|^\+\+\s", re.MULTILINE)


def detect(text: str, suffix: str) -> str:
    """The format of a decoded document (``ros``, ``newrecruit-json``, ``app-text``,
    ``newrecruit-text`` or ``army``), from its content first and its suffix second."""
    head = text.lstrip()[:4096]
    if head.startswith("<"):
        return "ros"
    if head.startswith(("{", "[")):
        if re.match(r'\{\s*"roster"\s*:', head):
            return "newrecruit-json"
        if suffix == ".json" and '"roster"' in head[:200]:
            return "newrecruit-json"
        return "army"
    if suffix in {".yaml", ".yml"}:
        return "army"
    if _NR_SIGNS.search(text):
        return "newrecruit-text"
    if _APP_SIGNS.search(text):
        return "app-text"
    return "army"


def open_roster(path: str | Path) -> Source:
    """Read, decompress and decode ``path`` and tell its format."""
    where = str(path)
    data = read_bytes(path)
    suffix = Path(path).suffix.lower()
    fmt_hint = ""
    if data.startswith(ZIP_MAGIC) or data.startswith(b"PK\x05\x06"):
        member, data = unzip(data, where)
        where = f"{where}: {member}"
        fmt_hint = "rosz"
    elif data.startswith(GZIP_MAGIC):
        data = gunzip(data, where)
        fmt_hint = "rosz"
    text = decode(data, where)
    fmt = detect(text, suffix)
    if fmt_hint:
        if fmt not in {"ros", "newrecruit-json"}:
            raise DataError("the archive does not hold a roster (.ros XML or New Recruit JSON)",
                            where=where)
        fmt = "rosz" if fmt == "ros" else fmt
    if fmt in {"app-text", "newrecruit-text"}:
        lines = text.count("\n") + 1
        if lines > limits.MAX_TEXT_LINES:
            raise DataError(f"the text export has {lines:,} lines; read up to "
                            f"{limits.MAX_TEXT_LINES:,} (limits.MAX_TEXT_LINES)", where=where)
    return Source(path=where, format=fmt, text=text)


def json_document(text: str, where: str) -> object:
    """Parsed JSON, with nesting too deep for Python refused as a located error."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                        where=where) from None
    except RecursionError:
        raise DataError(f"refused: the JSON nests deeper than {limits.MAX_XML_DEPTH} levels "
                        "(limits.MAX_XML_DEPTH)", where=where) from None
