"""No import circle among toolchoice's modules, counting imports inside functions too (a circle closed
by a late import still ties two modules into one). Read from the source with ast, as ARCHITECTURE.md says."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# toolchoice itself: a namespace package (no __init__.py) whose one module is `python -m toolchoice`'s __main__
PACKAGES = {"toolchoice": ROOT / "cli" / "entry", "toolchoice.cli": ROOT / "cli", "toolchoice.providers": ROOT / "providers",
            "toolchoice.providers.core": ROOT / "providers" / "core",
            "toolchoice.providers.core.mock": ROOT / "providers" / "core" / "mock",
            "toolchoice.providers.gemini": ROOT / "providers" / "gemini"}


def modules() -> dict[str, Path]:
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.glob("*.py"):
            found[package if path.stem == "__init__" else f"{package}.{path.stem}"] = path
    return found


def statements(tree: ast.Module) -> Iterator[ast.AST]:
    """Every statement of the module, nested ones too (in functions, classes, if/try/with/for/while/match bodies and
    handlers). An import is a statement, and a statement only ever stands in one of these lists (an expression holds
    none: a lambda's body is an expression), so the expressions, ~85% of the nodes ``ast.walk`` visits and most of
    this file's CPU, are skipped."""
    work: list[ast.AST] = list(tree.body)
    while work:
        node = work.pop()
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                for child in inner:
                    if isinstance(child, (ast.excepthandler, ast.match_case)):
                        work.extend(child.body)
                    elif isinstance(child, ast.stmt):
                        work.append(child)


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    package = name if path.stem == "__init__" else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in statements(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        out.update(t for t in targets if t in known and t != name)
    return out


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_finder_sees_a_circle_closed_inside_a_function():
    assert circles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


NESTED = """
import a
def f():
    import b
    class C:
        import c
        async def g(self):
            async with x:
                import d
            async for y in z:
                import e
            else:
                import f
while x:
    import g
else:
    import h
try:
    import i
except E:
    import j
else:
    import k
finally:
    import l
try:
    pass
except* E:
    import m
match x:
    case 1:
        import n
    case _:
        if y:
            import o
        elif z:
            import p
        else:
            from . import q
with x:
    for y in z:
        import r
    else:
        import s
lam = lambda: __import__("t")
"""


def test_the_statement_walk_meets_every_statement_ast_walk_meets():
    tree = ast.parse(NESTED)
    met = [node for node in statements(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert len(met) == 19 and sorted(map(id, statements(tree))) == sorted(
        id(node) for node in ast.walk(tree) if isinstance(node, ast.stmt))


def test_every_shipped_package_is_checked():
    shipped = re.search(r"^packages = \[(.*?)\]", (ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.S | re.M)
    assert shipped and set(re.findall(r'"([^"]+)"', shipped.group(1))) == set(PACKAGES)
    folders = {init.parent for top in ("cli", "providers") for init in (ROOT / top).rglob("__init__.py")}
    # a package folder pyproject.toml does not ship is not installed; the namespace's folder holds no __init__.py
    assert folders == set(PACKAGES.values()) - {PACKAGES["toolchoice"]}
    assert [path.name for path in PACKAGES["toolchoice"].iterdir() if path.suffix == ".py"] == ["__main__.py"]


def test_no_module_imports_one_that_imports_it_back():
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    assert "toolchoice.providers.core.registry" in graph["toolchoice.providers.core.translation"]  # a late import counts
    assert circles(graph) == []
