"""The packages import one way (docs/architecture.md, "Packages and who imports whom").

Imports are read with ``ast`` from the source, function-level imports included, so a lazy import inside a
function counts like one at the top of a module. The rules:

* ``index_store`` imports none of the other packages; ``parsers`` imports only ``index_store``;
  ``providers`` imports ``parsers`` and ``index_store``; nothing imports ``flows``.
* ``query`` reads ``index_store`` and reaches models only through the provider interface: the ``providers``
  package itself (``from providers import get_provider, ProviderError, fence ...``), never its modules.
* No module imports a private name (``_x``) from another module, and no import cycle exists between modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("index_store", "parsers", "providers", "query", "flows")

#: package -> the other packages it may import.
ALLOWED: dict[str, set[str]] = {
    "index_store": set(),
    "parsers": {"index_store"},
    "providers": {"index_store", "parsers"},
    "query": {"index_store", "providers"},
    "flows": {"index_store", "parsers", "providers", "query"},
}
#: The provider interface: the only providers module query may import.
PROVIDER_INTERFACE = "providers"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for every import statement in the file, at any depth."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, list[str], int]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.extend((alias.name, [], node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((target, [alias.name for alias in node.names], node.lineno))
    return found


def source_files(root: Path = ROOT) -> list[Path]:
    return sorted(p for package in PACKAGES for p in (root / package).rglob("*.py"))


def graph(files: list[Path]) -> dict[str, dict[str, int]]:
    """module -> {our module it imports: line}; ``from pkg import mod`` counts as importing pkg.mod."""
    ours = {_module_name(p) for p in files}
    edges: dict[str, dict[str, int]] = {}
    for path in files:
        here = edges.setdefault(_module_name(path), {})
        for target, names, line in imports_of(path):
            if target.split(".")[0] not in PACKAGES:
                continue
            hits = [f"{target}.{n}" for n in names if f"{target}.{n}" in ours] or [target]
            for hit in hits:
                here.setdefault(hit, line)
    return edges


def layer_problems(files: list[Path]) -> list[str]:
    problems = []
    for path in files:
        module = _module_name(path)
        package = module.split(".")[0]
        for target, names, line in imports_of(path):
            other = target.split(".")[0]
            where = f"{path.relative_to(ROOT)}:{line} imports {target}"
            if other in PACKAGES and other != package and other not in ALLOWED[package]:
                problems.append(f"{where}: {package} may not import {other}")
            elif package == "query" and other == "providers" and target != PROVIDER_INTERFACE:
                problems.append(f"{where}: query uses providers only through `{PROVIDER_INTERFACE}`")
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if other in PACKAGES and private:
                problems.append(f"{where}: private name(s) {', '.join(private)}")
    return problems


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return groups


def test_packages_import_one_way() -> None:
    assert layer_problems(source_files()) == []


def test_no_module_import_cycle() -> None:
    assert cycles(graph(source_files())) == []


def _write(root: Path, files: dict[str, str]) -> list[Path]:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return sorted(root / name for name in files)


def test_the_check_sees_function_level_imports_private_names_and_cycles(tmp_path: Path, monkeypatch) -> None:
    """The rules above catch what they name, wherever in a module the import is written."""
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    files = _write(tmp_path, {
        "parsers/summarize.py": "def f():\n    from providers.errors import ProviderError\n",
        "query/llm.py": "from providers.prompts import fence\nfrom query import index\n",
        "query/index.py": "def g():\n    from query.llm import x\n",
        "flows/rebuild.py": "def h():\n    from flows.s3source import _classify\n",
        "flows/s3source.py": "from . import rebuild\n",
        "index_store/model.py": "import flows.cli\n",
    })
    problems = layer_problems(files)
    assert any("parsers/summarize.py:2" in p and "parsers may not import providers" in p for p in problems)
    assert any("query/llm.py:1" in p and "only through" in p for p in problems)
    assert any("private name(s) _classify" in p for p in problems)
    assert any("index_store may not import flows" in p for p in problems)
    assert sorted(cycles(graph(files))) == [["flows.rebuild", "flows.s3source"], ["query.index", "query.llm"]]
