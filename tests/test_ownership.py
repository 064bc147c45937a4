"""Every field of the peer (net/) and the replicated table (table/) has one
writer, the part that declares it (issue 44): an attribute store (or an
item store into a field, ``x.f[k] = ...``, or a change in place,
``x.f.append(...)``) targets ``self``, or a local record of a class declared
in the same module (``RECORDS``); never another part (``other.x = ...``) nor
a field reached through one (``self.a.b = ...``). A part that needs another's
state changed calls a method of it that says what happens, or is given the
value.

``WAITING`` names stores still to be moved (none now: the table's split
moved the last); it may only shrink: a row no longer present fails, so it
cannot go stale."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "p2p_ttr"
PACKAGES = ("net", "table")

# module -> {local name: the record class, declared in that module, it holds}
RECORDS = {
    "net/catchup.py": {"backlog": "Backlog"},  # what one connection is sent to catch up
    "net/watchers.py": {"watcher": "WatcherSlot"},  # one admitted watcher's cursor and budgets
    "net/witness.py": {"record": "ShownEnvelope"},  # an envelope a seat showed us
    "table/chains.py": {"built": "DeckChain"},  # one epoch's chain, kept by the ChainBook beside it
}

WAITING: dict[str, set[str]] = {}

# The methods that change a list, set, dict or deque in place: ``other.f.append(x)`` writes ``other.f``.
MUTATORS = frozenset({"append", "extend", "insert", "remove", "pop", "popitem", "clear", "add", "discard",
                      "update", "setdefault", "appendleft", "popleft", "sort", "reverse"})


def foreign_stores(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES,
                   records: dict[str, dict[str, str]] | None = None) -> dict[str, set[str]]:
    """Each module (relative to ``root``) -> the attribute stores (and deletes)
    in it that target neither ``self`` nor a record of its own."""
    records = RECORDS if records is None else records
    found: dict[str, set[str]] = {}
    for package in packages:
        for path in sorted((root / package).glob("*.py")):
            module = path.relative_to(root).as_posix()
            own = records.get(module, {})
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr in MUTATORS and isinstance(node.func.value, ast.Attribute):
                    node = node.func.value  # a field's container changed in place: that field is written
                elif isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load) \
                        and isinstance(node.value, ast.Attribute):
                    node = node.value  # an item of a field: that field is written
                elif not isinstance(node, ast.Attribute) or isinstance(node.ctx, ast.Load):
                    continue
                base = node.value
                if isinstance(base, ast.Name) and (base.id == "self" or base.id in own):
                    continue
                found.setdefault(module, set()).add(ast.unparse(node))
    return found


def test_every_field_is_written_by_the_part_that_owns_it() -> None:
    assert foreign_stores() == WAITING, (
        "give the owning part a method that says what happens (or a constructor argument), and call it;"
        " a row of WAITING no longer there: drop it")


def test_each_record_class_is_declared_where_it_is_written() -> None:
    for module, locals_ in RECORDS.items():
        tree = ast.parse((ROOT / module).read_text())
        declared = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
        assert set(locals_.values()) <= declared, module


def test_the_check_sees_stores_into_other_parts(tmp_path: Path) -> None:
    (tmp_path / "net").mkdir()
    (tmp_path / "net" / "a.py").write_text(
        "class Slot:\n    n = 0\n\n"
        "class Part:\n"
        "    def f(self, other: object, slot: Slot) -> None:\n"
        "        self.x = 1\n"
        "        slot.n += 1\n"
        "        self.up.length = 2\n"
        "        other.seat, self.y = 3, 4\n"
        "        del other.z\n"
        "        self.d[1] = slot.d[2] = 5\n"
        "        self.up.pending[b''] = other.heard[0] = 6\n"
        "        self.seen.add(1)\n"
        "        slot.queue.append(2)\n"
        "        other.requests.clear()\n"
        "        self.duties.outbox.pop(0)\n")
    assert foreign_stores(tmp_path, ("net",), {"net/a.py": {"slot": "Slot"}}) == {
        "net/a.py": {"self.up.length", "other.seat", "other.z", "self.up.pending", "other.heard", "other.requests",
                     "self.duties.outbox"}}
