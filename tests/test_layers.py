"""The layers hold: the README's layer line, checked on the source.

    cli -> cli/tui -> (net, local) -> client -> (table, bots) -> (deck, engine) -> (errorcodes, data, codec)

A module may import only from its own package or from a package of a lower
layer (packages on one layer do not import each other); a name starting with
``_`` is never imported from another package; the deck is used through its
facade (``p2p_ttr.deck``), the other packages re-export nothing (import their
modules); and no two modules import each other, directly or round a loop.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS: dict[str, int] = {
    "p2p_ttr.errorcodes": 0,
    "p2p_ttr.data": 0,
    "p2p_ttr.codec": 0,
    "p2p_ttr.engine": 1,
    "p2p_ttr.deck": 1,
    "p2p_ttr.table": 2,
    "p2p_ttr.bots": 2,
    "p2p_ttr.client": 3,
    "p2p_ttr.net": 4,
    "p2p_ttr.local": 4,
    "p2p_ttr.cli.tui": 5,
    "p2p_ttr.cli": 6,
}
FACADES = {"p2p_ttr.deck"}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the module imported from
    names: tuple[str, ...]  # the names taken from it (empty for `import x`)
    line: int


def modules(root: Path = ROOT) -> dict[str, Path]:
    found = {}
    for base in ("p2p_ttr",):
        for path in sorted((root / base).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports(module: str, path: Path) -> Iterator[Import]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, alias.name, (), node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield Import(module, target, tuple(a.name for a in node.names), node.lineno)


def package_of(module: str) -> str:
    """The layered package ``module`` belongs to (the longest one that prefixes it)."""
    return max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)


def ours(target: str) -> bool:
    return target.split(".")[0] == "p2p_ttr"


def all_imports(root: Path = ROOT) -> list[Import]:
    return [i for m, p in modules(root).items() for i in imports(m, p) if ours(i.target)]


def resolved(i: Import, known: dict[str, Path]) -> list[str]:
    """The modules an import loads: the target, and any submodule named in it."""
    out = [i.target] if i.target in known else []
    out += [f"{i.target}.{n}" for n in i.names if f"{i.target}.{n}" in known]
    return out


def against_the_layers(root: Path = ROOT) -> list[str]:
    wrong = []
    for i in all_imports(root):
        src, dst = package_of(i.module), package_of(i.target)
        if src != dst and LAYERS[dst] >= LAYERS[src]:
            wrong.append(f"{i.module}:{i.line} imports {i.target} ({src} -> {dst})")
    return wrong


def loops(root: Path = ROOT) -> list[str]:
    known = modules(root)
    graph: dict[str, set[str]] = {m: set() for m in known}
    for i in all_imports(root):
        graph[i.module] |= {t for t in resolved(i, known) if t != i.module and not _is_parent(t, i.module)}
    found = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                found.append(" -> ".join(stack[stack.index(n):] + [n]))
            elif n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    return found


def test_every_import_points_down_the_layers() -> None:
    assert against_the_layers() == []


def test_no_private_name_crosses_a_package() -> None:
    wrong = [f"{i.module}:{i.line} imports {n} from {i.target}" for i in all_imports()
             for n in i.names if n.startswith("_") and package_of(i.module) != package_of(i.target)]
    assert wrong == []


def test_the_deck_is_used_through_its_facade_and_nothing_else_reexports() -> None:
    wrong = [f"{i.module}:{i.line} imports {i.target}" for i in all_imports()
             if package_of(i.target) in FACADES and package_of(i.module) != package_of(i.target)
             and i.target != package_of(i.target)]
    assert wrong == []
    for module, path in modules().items():
        if path.name == "__init__.py" and module in LAYERS and module not in FACADES:
            tree = ast.parse(path.read_text())
            assert not [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom, ast.Assign))], module


def test_no_module_imports_itself_round_a_loop() -> None:
    assert loops() == []


def test_the_checks_see_a_wrong_import_and_a_loop(tmp_path: Path) -> None:
    """The checker itself: an engine module importing the table is against
    the layers; two client modules importing each other are a loop."""
    for name, text in {
        "p2p_ttr/engine/rules.py": "from p2p_ttr.table.table import Table\n",
        "p2p_ttr/table/table.py": "from p2p_ttr.engine.rules import apply\n",
        "p2p_ttr/client/a.py": "from .b import x\n",
        "p2p_ttr/client/b.py": "from p2p_ttr.client.a import y\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert against_the_layers(tmp_path) == [
        "p2p_ttr.engine.rules:1 imports p2p_ttr.table.table (p2p_ttr.engine -> p2p_ttr.table)"]
    assert "p2p_ttr.client.a -> p2p_ttr.client.b -> p2p_ttr.client.a" in loops(tmp_path)


def _is_parent(package: str, module: str) -> bool:
    """Importing a module runs its package's __init__ first: not a loop edge."""
    return module.startswith(package + ".")
