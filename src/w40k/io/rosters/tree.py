"""One neutral element tree for BattleScribe rosters, built from `.ros` XML or New Recruit JSON.

New Recruit's JSON is "a JSON representation of the BattleScribe roster schema": list wrappers
are flattened (``<forces><force/></forces>`` -> ``"forces": [...]``), attributes are keys and
element text is ``$text``. Both become the same :class:`Node` tree so one walker reads both.
XML is parsed with defusedxml (DTDs, entities and external references refused), namespaces
stripped, and nesting and size capped (:mod:`.limits`).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from xml.etree.ElementTree import ParseError

import defusedxml
import defusedxml.ElementTree as safe_et

from w40k.core.errors import DataError
from w40k.io.rosters import limits


@dataclass(slots=True)
class Node:
    """An element: its tag (namespace stripped), attributes, text and children."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    text: str = ""
    children: list[Node] = field(default_factory=list)

    def get(self, key: str, default: str = "") -> str:
        """An attribute (``""`` when absent)."""
        return self.attrs.get(key, default)

    def all(self, wrapper: str, tag: str) -> Iterator[Node]:
        """Children ``tag`` inside the child list ``wrapper`` (``all("selections",
        "selection")``)."""
        for w in self.children:
            if w.tag == wrapper:
                yield from (c for c in w.children if c.tag == tag)

    def first(self, tag: str) -> Node | None:
        """The first direct child called ``tag``."""
        return next((c for c in self.children if c.tag == tag), None)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def from_xml(text: str, where: str) -> Node:
    """The tree of an XML document; DataError for hostile or malformed XML."""
    stack: list[Node] = []
    root: Node | None = None
    count = 0
    try:
        for event, elem in safe_et.iterparse(
                io.BytesIO(text.encode("utf-8")), events=("start", "end"),
                forbid_dtd=True, forbid_entities=True, forbid_external=True):
            if event == "start":
                count += 1
                if len(stack) >= limits.MAX_XML_DEPTH:
                    raise DataError(f"refused: the XML nests deeper than {limits.MAX_XML_DEPTH} "
                                    "levels (limits.MAX_XML_DEPTH)", where=where)
                if count > limits.MAX_XML_ELEMENTS:
                    raise DataError(f"refused: more than {limits.MAX_XML_ELEMENTS:,} elements "
                                    "(limits.MAX_XML_ELEMENTS)", where=where)
                node = Node(_local(elem.tag), {_local(k): v for k, v in elem.attrib.items()})
                if stack:
                    stack[-1].children.append(node)
                else:
                    root = node
                stack.append(node)
            else:
                node = stack.pop()
                node.text = (elem.text or "").strip()
                elem.clear()
    except defusedxml.DTDForbidden:
        raise DataError("refused: the XML declares a DTD (a roster never does; DTDs carry "
                        "entity bombs and external entities)", where=where) from None
    except defusedxml.EntitiesForbidden as exc:
        raise DataError(f"refused: the XML declares the entity {exc.name!r} (entity expansion "
                        "is never allowed)", where=where) from None
    except defusedxml.ExternalReferenceForbidden as exc:
        raise DataError(f"refused: the XML refers to an external resource ({exc.sysid!r})",
                        where=where) from None
    except defusedxml.DefusedXmlException as exc:
        raise DataError(f"refused: unsafe XML ({exc})", where=where) from None
    except ParseError as exc:
        line, col = exc.position
        raise DataError(f"not well-formed XML (line {line}, column {col + 1})",
                        where=where) from None
    if root is None:
        raise DataError("the XML document is empty", where=where)
    return root


_SINGULAR = {
    "forces": "force", "selections": "selection", "categories": "category", "costs": "cost",
    "costLimits": "costLimit", "profiles": "profile", "characteristics": "characteristic",
    "rules": "rule", "publications": "publication", "associations": "association",
    "incomingAssociations": "incomingAssociation", "tags": "tag", "modifiers": "modifier",
}
_TEXT_KEYS = ("$text", "#text", "_")


def from_json(data: object, where: str) -> Node:
    """The tree of a New Recruit JSON roster (``{"roster": {...}}``)."""
    if not isinstance(data, dict) or not isinstance(data.get("roster"), dict):
        raise DataError("expected a New Recruit roster: a JSON object with a 'roster' object",
                        where=where)
    counter = [0]
    return _json_node("roster", data["roster"], 1, counter, where)


def _json_node(tag: str, value: object, depth: int, counter: list[int], where: str) -> Node:
    counter[0] += 1
    if depth > limits.MAX_XML_DEPTH:
        raise DataError(f"refused: the JSON nests deeper than {limits.MAX_XML_DEPTH} levels "
                        "(limits.MAX_XML_DEPTH)", where=where)
    if counter[0] > limits.MAX_XML_ELEMENTS:
        raise DataError(f"refused: more than {limits.MAX_XML_ELEMENTS:,} values "
                        "(limits.MAX_XML_ELEMENTS)", where=where)
    node = Node(tag)
    if not isinstance(value, dict):
        # A plain value where an element was expected (a characteristic given as a string).
        node.text = "" if value is None else str(value).strip()
        return node
    for key, item in value.items():
        if key in _TEXT_KEYS:
            node.text = "" if item is None else str(item).strip()
        elif isinstance(item, list):
            wrapper = Node(key)
            child_tag = _SINGULAR.get(key, key[:-1] if key.endswith("s") else key)
            for entry in item:
                wrapper.children.append(_json_node(child_tag, entry, depth + 1, counter, where))
            node.children.append(wrapper)
        elif isinstance(item, dict):
            node.children.append(_json_node(key, item, depth + 1, counter, where))
        elif key == "description" and isinstance(item, str):
            node.children.append(Node("description", text=item.strip()))
        elif isinstance(item, bool):
            node.attrs[key] = "true" if item else "false"
        elif item is not None:
            node.attrs[key] = str(item)
    return node
