"""Safe YAML loading that remembers where every node came from.

Cards are authored by hand, so every problem must point at the line and
column of the offending node. PyYAML's composer already records a mark on
each node; we build plain Python data from the node tree ourselves and keep
a map from each value's path (``("blanks", "scale", "wrong", 0)``) to its
position.

Only the YAML core types are constructed. Any other tag (``!!python/...``,
custom ``!tags``) is an error and is never executed. Aliases are allowed
but the expanded document is capped in size, so an alias bomb fails fast.

Plain scalars are read as YAML 1.2's core schema reads them (and so as
editors and the card schema do), not as PyYAML's YAML 1.1: only ``true`` and
``false`` are booleans (``yes``, ``no``, ``on``, ``off`` are words); ``012``
is twelve, ``0o17`` octal, ``1e5`` and ``.inf`` floats; ``1_000``, ``1:30``
and ``2017-01-01`` are text. :class:`CardDumper` writes files that every
YAML reader, 1.1 or 1.2, reads back the same.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

import yaml

try:  # libyaml's composer is several times faster and keeps the same marks
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader

_STR_TAG = "tag:yaml.org,2002:str"

Path = tuple[Hashable, ...]

#: Tags we construct. Everything else is refused.
_SAFE_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}
_MAP_TAG = "tag:yaml.org,2002:map"

_SEQ_TAG = "tag:yaml.org,2002:seq"


_BOOL_TAG = "tag:yaml.org,2002:bool"
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"

#: YAML 1.2's core schema (yaml.org/spec/1.2.2, 10.3.2), the one editors and the
#: card schema read: only true/false are booleans; 012 is twelve, 0o17 octal,
#: 1e5 a float; 1_000, 0b101, 1:30 and 2017-01-01 are text.
_CORE_RESOLVERS: tuple[tuple[str, str, str], ...] = (
    (_BOOL_TAG, r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    (_INT_TAG, r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    (
        _FLOAT_TAG,
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        "-+.0123456789",
    ),
)
#: PyYAML's YAML 1.1 resolvers that YAML 1.2's core schema replaces or does not have.
_YAML_1_1_ONLY = {
    _BOOL_TAG,
    _INT_TAG,
    _FLOAT_TAG,
    "tag:yaml.org,2002:timestamp",
    "tag:yaml.org,2002:value",
}


def _core_resolvers(
    inherited: dict[str | None, list[tuple[str, re.Pattern[str]]]],
) -> dict[str | None, list[tuple[str, re.Pattern[str]]]]:
    kept = {
        first: [(tag, pattern) for tag, pattern in resolvers if tag not in _YAML_1_1_ONLY]
        for first, resolvers in inherited.items()
    }
    for tag, pattern, firsts in _CORE_RESOLVERS:
        compiled = re.compile(pattern)
        for first in firsts:
            kept.setdefault(first, []).append((tag, compiled))
    return kept


class _CoreLoader(_Loader):
    """PyYAML's safe loader (its marks, its speed) resolving plain scalars as YAML 1.2 does.

    Null (``~``, ``null``, empty) and merge keys resolve as before; merge keys
    are then refused by the builder.
    """

    yaml_implicit_resolvers: ClassVar[dict[str | None, list[tuple[str, re.Pattern[str]]]]] = (
        _core_resolvers(_Loader.yaml_implicit_resolvers)
    )


class CardDumper(yaml.SafeDumper):
    """PyYAML's safe dumper quoting every string that YAML 1.1 *or* 1.2 reads as another type.

    PyYAML quotes only what YAML 1.1 misreads, so it writes the text ``-1e9``
    or ``0o12`` bare, which quizzer (and every YAML 1.2 editor) reads as a
    number; quoted for both, a file means the same to every reader.
    """

    yaml_implicit_resolvers: ClassVar[dict[str | None, list[tuple[str, re.Pattern[str]]]]] = {
        first: list(resolvers)
        for first, resolvers in yaml.SafeDumper.yaml_implicit_resolvers.items()
    }


for _first, _resolvers in _core_resolvers({}).items():
    CardDumper.yaml_implicit_resolvers.setdefault(_first, []).extend(_resolvers)


def _core_int(text: str) -> int:
    """A YAML 1.2 core integer: decimal (``012`` is twelve), ``0o`` octal or ``0x`` hex."""
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text)


def _core_float(text: str) -> float:
    lowered = text.lower()
    if lowered.endswith(".inf"):
        return float("-inf") if lowered.startswith("-") else float("inf")
    if lowered == ".nan":
        return float("nan")
    return float(text)


#: Upper bound on nodes visited while expanding a document (aliases included).
MAX_NODES = 50_000


class Position(NamedTuple):
    """A 1-based line and column in a source file.

    A named tuple rather than a frozen dataclass: one is made for every
    node of every card, and a tuple is made several times faster.
    """

    line: int
    column: int


class YamlError(Exception):
    """A document that is not valid YAML or uses a forbidden construct."""

    def __init__(self, message: str, position: Position) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


@dataclass
class YamlDoc:
    """Plain data from a YAML document and the position of each value.

    ``positions[path]`` is where the value at ``path`` starts; ``key_positions``
    holds where a mapping key was written, which is the better place to point
    at for "unknown field" or "duplicate key" problems.
    """

    data: Any
    positions: dict[Path, Position] = field(default_factory=dict)
    key_positions: dict[Path, Position] = field(default_factory=dict)
    #: Each plain number as written (``1e-4``, ``0.50``), for fields that keep the text.
    number_texts: dict[Path, str] = field(default_factory=dict)

    def position_of(self, path: Path, *, key: bool = False) -> Position:
        """Where ``path`` was written, falling back to its nearest ancestor."""
        path = tuple(path)
        while True:
            if key and path in self.key_positions:
                return self.key_positions[path]
            if path in self.positions:
                return self.positions[path]
            if not path:
                return Position(1, 1)
            path = path[:-1]


def _position(node: yaml.Node) -> Position:
    return Position(node.start_mark.line + 1, node.start_mark.column + 1)


def _tag_name(tag: str) -> str:
    return tag.replace("tag:yaml.org,2002:", "!!")


class _Builder:
    def __init__(self) -> None:
        self.doc = YamlDoc(data=None)
        self.visited = 0
        self._scalars = yaml.SafeLoader("")  # only its scalar constructors are used

    def build(self, node: yaml.Node, path: Path) -> Any:
        self.visited += 1
        if self.visited > MAX_NODES:
            raise YamlError(
                f"document too large (more than {MAX_NODES} values once aliases are expanded)",
                _position(node),
            )
        self.doc.positions[path] = _position(node)
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ_TAG:
                raise YamlError(f"tag {_tag_name(node.tag)} is not allowed", _position(node))
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        if node.tag == _STR_TAG:  # most of a card: no constructor needed
            return str(node.value)
        if node.tag not in _SAFE_SCALAR_TAGS:
            raise YamlError(f"tag {_tag_name(node.tag)} is not allowed", _position(node))
        try:
            if node.tag in (_INT_TAG, _FLOAT_TAG):
                self.doc.number_texts[path] = str(node.value)
                if node.tag == _INT_TAG:
                    return _core_int(str(node.value))
                return _core_float(str(node.value))
            return self._scalars.construct_object(node, deep=True)
        except ValueError:
            if node.tag in (_INT_TAG, _FLOAT_TAG) and len(str(node.value)) < 4300:
                # Only an explicit tag gets here (`!!int abc`): the resolvers match numbers.
                wanted = "an integer" if node.tag == _INT_TAG else "a number"
                raise YamlError(f"{str(node.value)!r} is not {wanted}", _position(node)) from None
            # Python refuses to turn a decimal string of over 4,300 digits into an int.
            raise YamlError(
                f"number too long ({len(str(node.value))} characters); quote it to keep it as text",
                _position(node),
            ) from None

    def _mapping(self, node: yaml.MappingNode, path: Path) -> dict[str, Any]:
        if node.tag != _MAP_TAG:
            raise YamlError(f"tag {_tag_name(node.tag)} is not allowed", _position(node))
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise YamlError("merge keys (<<) are not supported in cards", _position(key_node))
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlError("a key must be a plain name", _position(key_node))
            if key_node.tag not in _SAFE_SCALAR_TAGS:
                raise YamlError(
                    f"tag {_tag_name(key_node.tag)} is not allowed", _position(key_node)
                )
            # Keys are kept as written: `on:` or `1:` stay the strings "on" and "1".
            key = str(key_node.value)
            if key in result:
                raise YamlError(f"duplicate key '{key}'", _position(key_node))
            key_path = (*path, key)
            self.doc.key_positions[key_path] = _position(key_node)
            result[key] = self.build(value_node, key_path)
        return result


def _friendly(problem: str, text: str, position: Position) -> str:
    """The parser's complaint as what to do, for the mistakes people make most.

    A list item or value that starts with a quote but goes on after it (``- "a" b``),
    a ``: `` inside a plain value, a tab in the indentation: PyYAML's words
    for these ("did not find expected '-' indicator", "mapping values are not
    allowed", "cannot start any token") do not say what is wrong.
    """
    lines = text.splitlines()
    line = lines[position.line - 1] if 0 < position.line <= len(lines) else ""
    stripped = line.strip()
    tabbed = "\t" in line[: max(position.column, 1)]
    if tabbed and ("cannot start any token" in problem or "tab character" in problem):
        return "use spaces, not tabs, to indent"
    if "expected '-' indicator" in problem and stripped.startswith(('- "', "- '")):
        return f"quote the whole item: - {_quoted(stripped[2:])}"
    if "expected ',' or ']'" in problem:
        item = _flow_item(line, position.column - 1)
        if item.startswith(('"', "'")):
            return f"quote the whole item: [..., {_quoted(item)}, ...]"
    if "mapping values are not allowed" in problem:
        key, _, value = stripped.partition(": ")
        if line.find(": ") == position.column - 1 and line[: len(line) - len(line.lstrip())]:
            # The line's own first ': ', on an indented line: a key nested under a plain value.
            return (
                f"'{key}:' is indented under a value, not a mapping: line it up with the keys"
                " above it, or quote the value if the ': ' belongs to it"
            )
        return f"a ': ' inside a value needs quotes: {key}: {_quoted(value)}"
    if "did not find expected key" in problem and ": " in stripped:
        key, _, value = stripped.partition(": ")
        if len(value) > 2 and value[0] == value[-1] and value[0] in "'\"":
            # `'it's'`: the inner quote ended the text early.
            quote = value[0]
            return f"a {quote} inside {quote}...{quote} ends it: {key}: {_quoted(value[1:-1])}"
        if value.startswith(('"', "'")):
            return f"quote the whole value: {key}: {_quoted(value)}"
    return problem


def _flow_item(line: str, index: int) -> str:
    """The item of a flow list (``[a, "b" c, d]``) around ``index`` in ``line``."""
    start = max(line.rfind(",", 0, index), line.rfind("[", 0, index)) + 1
    ends = [found for found in (line.find(",", index), line.find("]", index)) if found >= 0]
    return line[start : min(ends) if ends else len(line)].strip()


def _quoted(text: str) -> str:
    """The text as written, quoted whole: in double quotes, or single ones if it has any."""
    if '"' not in text and "\\" not in text:
        return f'"{text}"'
    return "'" + text.replace("'", "''") + "'"


def load_yaml(text: str) -> YamlDoc:
    """Parse one YAML document into plain data with positions.

    Raises :class:`YamlError` for syntax errors, several documents, forbidden
    tags, duplicate keys and oversized documents.
    """
    try:
        loader = _CoreLoader(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        position = Position(mark.line + 1, mark.column + 1) if mark else Position(1, 1)
        message = error.problem or error.context or "invalid YAML"
        opened = error.context_mark
        if "quoted scalar" in str(error.context) and opened is not None:
            # The end of the file is no place to look: point at the quote left open.
            where = Position(opened.line + 1, opened.column + 1)
            raise YamlError(
                "invalid YAML: this quote is never closed (a quote inside the text is"
                ' doubled in \'...\' or escaped as \\" in "...")',
                where,
            ) from None
        raise YamlError(f"invalid YAML: {_friendly(message, text, position)}", position) from None
    except yaml.YAMLError as error:  # reader errors: control characters and the like
        raise YamlError(f"invalid YAML: {error}", Position(1, 1)) from None
    builder = _Builder()
    if node is None:
        builder.doc.data = None
        return builder.doc
    try:
        builder.doc.data = builder.build(node, ())
    except yaml.YAMLError as error:  # a scalar that its own tag cannot construct
        mark = getattr(error, "problem_mark", None)
        position = Position(mark.line + 1, mark.column + 1) if mark else Position(1, 1)
        raise YamlError(f"invalid YAML: {getattr(error, 'problem', error)}", position) from None
    except RecursionError:
        raise YamlError("document nested too deeply", Position(1, 1)) from None
    return builder.doc
