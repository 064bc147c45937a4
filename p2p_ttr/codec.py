"""Wire types declared once: a frozen dataclass whose fields' annotations
carry their bounds; encoding, decoding, validation, the registry by tag and
protocol.md's grammar row all follow from that one declaration.

    @dataclass(frozen=True)
    class Sync:
        start: Annotated[int, Int(0, MAX_ENTRIES)]
        KIND: ClassVar[str] = "sync"

    FRAMES = Family((Sync, ...), FrameError)
    FRAMES.decode(["sync", 3])  -> Sync(3);   FRAMES.encode(Sync(3)) -> ["sync", 3]

A spec in an annotation is evaluated with the class's namespace as its
globals (``typing.get_type_hints``): a lambda in it may read its argument
only; a function that reads module names is defined at module level and
named there.

A value is ``[tag, field...]`` in declaration order (a nested ``Record`` is
its fields without a tag). A bound may be a number or a function of the
*limits* given to ``decode``: what depends on the game being played (how many
cards, routes, players; which cities) is read from it at decode time. A check
that spans fields is the type's ``validate(self, limits)``, run on the built
value. Decoding refuses anything off the declaration with the family's own
error class, and nothing else, whatever garbage it is given.

A leaf module: every layer may use it, it uses none.
"""

from __future__ import annotations

import dataclasses
import enum
import typing
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar

T = TypeVar("T")
Bound = int | Callable[[Any], int]  # a number, or one read from the decoder's limits


class Refusal(ValueError):
    """A value off its declaration; a ``Family`` raises it as its own error class.

    Its words say what is wrong (``is 110, outside [0, 109]``); the field or
    item it is about is added once, by the innermost part that knows its name
    (``card is 110, outside [0, 109]``)."""

    def __init__(self, words: str, subject: str = "") -> None:
        super().__init__(f"{subject} {words}" if subject else words)
        self.words, self.subject = words, subject

    def about(self, subject: str) -> Refusal:
        """This refusal, said of ``subject`` unless it already names what it is about."""
        return self if self.subject else Refusal(self.words, subject)


def _at(bound: Bound, limits: Any) -> int:
    return bound if isinstance(bound, int) else bound(limits)


def _number(n: int) -> str:
    """A bound as protocol.md writes it: 2^31-1 and 10^6 rather than their digits (from a million up)."""
    for base in (2, 10):
        for k in range(6, 64):
            if base**k < 10**6:
                continue
            if n in (base**k, base**k - 1):
                return f"{base}^{k}" + ("-1" if n == base**k - 1 else "")
    return str(n)


class Spec:
    """How one field is written: ``decode`` checks and builds, ``encode`` writes
    plain msgpack data, ``describe`` names it as protocol.md does."""

    def decode(self, value: object, limits: Any) -> Any:
        raise NotImplementedError

    def encode(self, value: Any) -> Any:
        return value

    def describe(self, name: str, limits: Any) -> str:
        return name


@dataclasses.dataclass(frozen=True)
class Int(Spec):
    """An int (never a bool) in ``lo..hi``."""

    lo: Bound
    hi: Bound

    def decode(self, value: object, limits: Any) -> int:
        lo, hi = _at(self.lo, limits), _at(self.hi, limits)
        if type(value) is not int or not lo <= value <= hi:
            raise Refusal(f"is {str(value)[:32]}, outside [{lo}, {hi}]" if type(value) is int
                          else f"must be an int, got {type(value).__name__}")
        return value

    def describe(self, name: str, limits: Any) -> str:
        return f"{name}({_number(_at(self.lo, limits))}..{_number(_at(self.hi, limits))})"


@dataclasses.dataclass(frozen=True)
class Bool(Spec):
    def decode(self, value: object, limits: Any) -> bool:
        if not isinstance(value, bool):
            raise Refusal(f"must be a bool, got {type(value).__name__}")
        return value

    def describe(self, name: str, limits: Any) -> str:
        return f"{name}(bool)"


@dataclasses.dataclass(frozen=True)
class Bytes(Spec):
    """Bytes of exactly ``lo`` (``hi`` None) or of ``lo..hi``."""

    lo: Bound
    hi: Bound | None = None

    def decode(self, value: object, limits: Any) -> bytes:
        lo = _at(self.lo, limits)
        hi = lo if self.hi is None else _at(self.hi, limits)
        if type(value) is not bytes or not lo <= len(value) <= hi:
            raise Refusal(f"must be {lo}..{hi} bytes" if type(value) is bytes else f"must be bytes, got {type(value).__name__}")
        return value

    def describe(self, name: str, limits: Any) -> str:
        return f"{name}({_at(self.lo, limits)})" if self.hi is None else name


@dataclasses.dataclass(frozen=True)
class Str(Spec):
    """A str of ``lo..hi`` characters; ``among`` (a function of the limits)
    the strings it may be, ``test`` a rule each must pass."""

    lo: Bound
    hi: Bound
    among: Callable[[Any], Collection[str]] | None = None
    test: Callable[[str], bool] | None = None

    def decode(self, value: object, limits: Any) -> str:
        lo, hi = _at(self.lo, limits), _at(self.hi, limits)
        if type(value) is not str or not lo <= len(value) <= hi:
            raise Refusal(f"must be a string of {lo}..{hi} characters")
        if self.among is not None and value not in self.among(limits):
            raise Refusal(f"is unknown: {value[:32]!r}")
        if self.test is not None and not self.test(value):
            raise Refusal(f"may not be {value[:32]!r}")
        return value


@dataclasses.dataclass(frozen=True)
class EnumValue(Spec):
    """A member of an enum, written as its value."""

    members: type[enum.Enum]

    def decode(self, value: object, limits: Any) -> enum.Enum:
        # type(value) is exact: a bool is not the IntEnum member 1, nor a str subclass a StrEnum's value
        for member in self.members:
            if type(value) is type(member.value) and value == member.value:
                return member
        raise Refusal(f"must be one of {[m.value for m in self.members]}")

    def encode(self, value: Any) -> Any:
        return value.value

    def describe(self, name: str, limits: Any) -> str:
        return f"{name}({' | '.join(repr(m.value) for m in self.members)})".replace("'", '"')


@dataclasses.dataclass(frozen=True)
class OneOf(Spec):
    """One of a few plain values (str or int), each of its exact type."""

    values: tuple[str | int, ...]

    def decode(self, value: object, limits: Any) -> object:
        if not any(type(value) is type(v) and value == v for v in self.values):
            raise Refusal(f"must be one of {list(self.values)}")
        return value

    def describe(self, name: str, limits: Any) -> str:
        return " | ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in self.values)


@dataclasses.dataclass(frozen=True)
class Raw(Spec):
    """Any value msgpack reads, for a ``Mapped`` reader that checks it whole."""

    def decode(self, value: object, limits: Any) -> object:
        return value


@dataclasses.dataclass(frozen=True)
class Optional(Spec):
    """None (msgpack nil) or ``inner``."""

    inner: Spec

    def decode(self, value: object, limits: Any) -> Any:
        return None if value is None else self.inner.decode(value, limits)

    def encode(self, value: Any) -> Any:
        return None if value is None else self.inner.encode(value)

    def describe(self, name: str, limits: Any) -> str:
        return f"{self.inner.describe(name, limits)} or nil"


@dataclasses.dataclass(frozen=True)
class Trailing(Spec):
    """A last field that may be left off: absent means the field's default,
    and it is written only when it is something else (one encoding per
    value). ``absent`` is filled in from the dataclass's default."""

    inner: Spec
    absent: object = None

    def decode(self, value: object, limits: Any) -> Any:
        decoded = self.inner.decode(value, limits)
        if decoded == self.absent:
            raise Refusal(f"is written only when not {self.absent!r}")
        return decoded

    def encode(self, value: Any) -> Any:
        return self.inner.encode(value)

    def describe(self, name: str, limits: Any) -> str:
        return f"{self.inner.describe(name, limits)}?"


@dataclasses.dataclass(frozen=True)
class List(Spec):
    """A list of ``lo..hi`` items (read as a tuple); ``unique`` the key that
    no two items may share (``same`` for the items themselves)."""

    item: Spec
    hi: Bound
    lo: Bound = 0
    unique: Callable[[Any], Any] | None = None
    name: str = "item"  # what protocol.md calls an item

    def decode(self, value: object, limits: Any) -> tuple[Any, ...]:
        lo, hi = _at(self.lo, limits), _at(self.hi, limits)
        if not isinstance(value, (list, tuple)) or not lo <= len(value) <= hi:
            raise Refusal(f"must be a list of {lo}..{hi} items")
        try:
            items = tuple(self.item.decode(v, limits) for v in value)
        except Refusal as exc:
            raise exc.about(self.name) from None
        if self.unique is not None and len({self.unique(i) for i in items}) != len(items):
            raise Refusal(f"names one {self.name} twice")
        return items

    def encode(self, value: Any) -> Any:
        return [self.item.encode(v) for v in value]

    def describe(self, name: str, limits: Any) -> str:
        return f"list({self.item.describe(self.name, limits)}, {_number(_at(self.hi, limits))})"


def same(item: T) -> T:
    """``List(unique=same)``: no item twice."""
    return item


@dataclasses.dataclass(frozen=True)
class Tuple(Spec):
    """A fixed-length list of differently declared items, read as a tuple."""

    items: tuple[tuple[str, Spec], ...]

    def decode(self, value: object, limits: Any) -> tuple[Any, ...]:
        if not isinstance(value, (list, tuple)) or len(value) != len(self.items):
            raise Refusal(f"must be a list of {len(self.items)} items")
        out = []
        for (name, spec), v in zip(self.items, value):
            try:
                out.append(spec.decode(v, limits))
            except Refusal as exc:
                raise exc.about(name) from None
        return tuple(out)

    def encode(self, value: Any) -> Any:
        return [spec.encode(v) for (_, spec), v in zip(self.items, value)]

    def describe(self, name: str, limits: Any) -> str:
        return "[" + ", ".join(spec.describe(n, limits) for n, spec in self.items) + "]"


@dataclasses.dataclass(frozen=True)
class Record(Spec):
    """A declared dataclass nested without a tag: the list of its fields.
    ``doc``: protocol.md's name for it (defined there on a row of its own);
    empty: written out in place."""

    cls: type[Any]
    doc: str = ""

    def decode(self, value: object, limits: Any) -> Any:
        if not isinstance(value, (list, tuple)):
            raise Refusal(f"must be a list, got {type(value).__name__}")
        return build(self.cls, value, limits)

    def encode(self, value: Any) -> Any:
        return fields_of(value)

    def describe(self, name: str, limits: Any) -> str:
        return self.doc or describe_fields(self.cls, limits)


@dataclasses.dataclass(frozen=True)
class Mapped(Spec):
    """A value written as ``inner`` and read through ``read`` (which may refuse
    with one of ``errors``), written back with ``write``: a number in fixed-size
    bytes, a normalised address, a record of another layer. ``doc``: its name
    in protocol.md."""

    inner: Spec
    read: Callable[[Any], Any]
    write: Callable[[Any], Any]
    doc: str = ""
    errors: tuple[type[Exception], ...] = (ValueError,)

    def decode(self, value: object, limits: Any) -> Any:
        return _refused(self.read, self.inner.decode(value, limits), self.errors)

    def encode(self, value: Any) -> Any:
        return self.inner.encode(self.write(value))

    def describe(self, name: str, limits: Any) -> str:
        return self.doc or self.inner.describe(name, limits)


@dataclasses.dataclass(frozen=True)
class Checked(Spec):
    """``inner``, then ``check(value, limits)``, which raises a Refusal for
    what the limits rule out across the value's parts (a card position past
    its own deck's size): the ``validate`` of an item that is no declared
    type. Written and described as ``inner``."""

    inner: Spec
    check: Callable[[Any, Any], None]

    def decode(self, value: object, limits: Any) -> Any:
        decoded = self.inner.decode(value, limits)
        self.check(decoded, limits)
        return decoded

    def encode(self, value: Any) -> Any:
        return self.inner.encode(value)

    def describe(self, name: str, limits: Any) -> str:
        return self.inner.describe(name, limits)


def _refused(read: Callable[[Any], T], value: Any, errors: tuple[type[Exception], ...]) -> T:
    """``read(value)``, any of ``errors`` (the reader's refusals) raised as a Refusal."""
    try:
        return read(value)
    except Refusal:
        raise
    except errors as exc:
        raise Refusal(str(exc)) from None


class Wire(typing.Protocol):
    def to_wire(self) -> Any: ...


@dataclasses.dataclass(frozen=True)
class Foreign(Spec):
    """A record that reads and writes itself (``from_wire``, ``to_wire``): the
    deck's records, which check their own group elements and proofs."""

    cls: Any  # a class with a from_wire classmethod and a to_wire method
    doc: str
    errors: tuple[type[Exception], ...] = (ValueError,)  # what from_wire raises to refuse

    def decode(self, value: object, limits: Any) -> Any:
        return _refused(self.cls.from_wire, value, self.errors)

    def encode(self, value: Wire) -> Any:
        return value.to_wire()

    def describe(self, name: str, limits: Any) -> str:
        return self.doc


# ------------------------------------------------------------ declarations


_SPECS: dict[type[Any], tuple[tuple[str, Spec], ...]] = {}


def specs(cls: type[Any]) -> tuple[tuple[str, Spec], ...]:
    """The declared fields of ``cls``, in wire order: each field's spec is the
    ``Spec`` in its ``Annotated`` type (read once, then kept)."""
    known = _SPECS.get(cls)
    if known is not None:
        return known
    hints = typing.get_type_hints(cls, include_extras=True)
    out = []
    for f in dataclasses.fields(cls):
        found = [m for m in getattr(hints[f.name], "__metadata__", ()) if isinstance(m, Spec)]
        if len(found) != 1:
            raise TypeError(f"{cls.__name__}.{f.name} declares no wire spec")
        spec = found[0]
        if isinstance(spec, Trailing):
            if f.default is dataclasses.MISSING:
                raise TypeError(f"{cls.__name__}.{f.name}: a trailing field has a default, its value when absent")
            spec = dataclasses.replace(spec, absent=f.default)
        out.append((f.name, spec))
    if any(isinstance(s, Trailing) for _, s in out[:-1]):
        raise TypeError(f"{cls.__name__}: only the last field may be trailing")
    _SPECS[cls] = tuple(out)
    return _SPECS[cls]


def _count(least: int, most: int, got: int) -> str:
    return f"must have {least} items, got {got}" if least == most else f"must have {least} to {most} items, got {got}"


def build(cls: type[T], values: Sequence[object], limits: Any) -> T:
    """A ``cls`` from its fields' wire values, each checked, then ``validate``d.

    Raises:
        Refusal: the wrong count of fields, a field off its spec, or the
            value's own ``validate``.
    """
    declared = specs(cls)
    least = sum(not isinstance(s, Trailing) for _, s in declared)
    if not least <= len(values) <= len(declared):
        raise Refusal(_count(least, len(declared), len(values)))
    args = {}
    for (name, spec), value in zip(declared, values):
        try:
            args[name] = spec.decode(value, limits)
        except Refusal as exc:
            raise exc.about(name) from None
    made = cls(**args)
    validate = getattr(made, "validate", None)
    if validate is not None:
        validate(limits)
    return made


def fields_of(value: Any) -> list[Any]:
    """The wire values of a declared value's fields (trailing ones at their absent value left off)."""
    declared = specs(type(value))
    return [spec.encode(getattr(value, name)) for name, spec in declared if not _left_off(spec, getattr(value, name))]


def _left_off(spec: Spec, value: Any) -> bool:
    return isinstance(spec, Trailing) and value == spec.absent


def describe_fields(cls: type[Any], limits: Any) -> str:
    """The fields as protocol.md lists them: ``[name, name(32), ...]``."""
    return "[" + ", ".join(spec.describe(name, limits) for name, spec in specs(cls)) + "]"


class Family(Mapping[str, type[T]], Generic[T]):
    """The registry of one set of tagged types (frames to the host, table
    messages, ...): each value is ``[tag, field...]``, its tag the type's
    ``tag`` attribute. A mapping from tag to type.

    ``error`` is the class every refusal is raised as (a ``validate`` may
    raise it itself); ``unknown`` and ``malformed`` word the refusals;
    ``limits`` are the bounds ``decode`` uses when it is given none."""

    def __init__(self, types: Sequence[type[T]], error: type[Exception], *, tag: str = "KIND",
                 unknown: Callable[[str], str] = lambda tag: f"unknown kind {tag[:32]!r}",
                 malformed: Callable[[str, str], str] = lambda tag, why: f"malformed {tag}: {why}",
                 limits: Any = None) -> None:
        self._types = {getattr(t, tag): t for t in types}
        if len(self._types) != len(types):
            raise TypeError("two types share a tag")
        for t in types:
            specs(t)  # a declaration that cannot be read fails at import, not on the first message
        self.tag, self.error = tag, error
        self.unknown, self.malformed, self.limits = unknown, malformed, limits

    def __getitem__(self, tag: str) -> type[T]:
        return self._types[tag]

    def __iter__(self) -> Iterator[str]:
        return iter(self._types)

    def __len__(self) -> int:
        return len(self._types)

    def decode(self, value: object, limits: Any = None) -> T:
        """The typed value of ``[tag, field...]``; ``limits`` (default: the
        family's) bounds what depends on the game.

        Raises:
            self.error: not a list starting with a known tag, or any field,
                or the whole, off its declaration.
        """
        if not isinstance(value, (list, tuple)) or not value or not isinstance(value[0], str):
            raise self.error("a list that starts with its kind")
        cls = self._types.get(value[0])
        if cls is None:
            raise self.error(self.unknown(value[0]))
        declared = specs(cls)
        least = sum(not isinstance(s, Trailing) for _, s in declared)
        if not least <= len(value) - 1 <= len(declared):
            raise self.error(self.malformed(value[0], f"{value[0]} {_count(least + 1, len(declared) + 1, len(value))}"))
        try:
            return build(cls, value[1:], self.limits if limits is None else limits)
        except self.error:
            raise
        except Refusal as exc:
            raise self.error(self.malformed(value[0], str(exc))) from None

    def encode(self, value: T) -> list[Any]:
        """``[tag, field...]``, plain data for msgpack."""
        return [getattr(type(value), self.tag), *fields_of(value)]

    def describe(self, tag: str, limits: Any = None) -> str:
        """``tag``'s fields as protocol.md lists them."""
        return describe_fields(self._types[tag], self.limits if limits is None else limits)
