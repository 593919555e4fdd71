"""The layers of the package only look down (docs/architecture.md): no import cycles, no
function-local imports in the core, no module reaching into another's private names."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "lifeboat_rules"

# bottom to top; a module may import modules of its own layer or below (rules/* as one layer)
LAYERS = [
    {"errors", "records", "rng", "yamlio", "types"},
    {"declare", "validation"},
    {"content", "hookspecs"},
    {"state", "actions"},
    {"effects"},
    {"stages"},
    {"plugins"},
    {"rulesets"},
    {"rules"},
    {"saving", "views", "determinize", "words"},
    {"engine"},
    {"__init__"},
    {"scenario", "bots", "heuristic", "search", "encoding"},
    {"pettingzoo", "openspiel"},          # the rl extra (docs/agents.md)
]
CORE = set().union(*LAYERS) - {"__init__"}


def module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE).with_suffix("")
    parts = relative.parts
    return "rules" if parts[0] == "rules" else ".".join(parts)


def layer_of(name: str) -> int | None:
    for index, layer in enumerate(LAYERS):
        if name in layer:
            return index
    return None


def imports(path: Path):
    """(imported module in the package, line, inside a function, under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(), str(path))
    package_parts = path.relative_to(PACKAGE).parts[:-1]

    def walk(node, in_function=False, type_checking=False):
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            checking = type_checking or (isinstance(child, ast.If)
                                         and "TYPE_CHECKING" in ast.unparse(child.test))
            if isinstance(child, ast.ImportFrom):
                if child.level:
                    base = list(package_parts[:len(package_parts) - child.level + 1])
                    target = base + (child.module.split(".") if child.module else [])
                    names = [target + [alias.name] if not child.module else target
                             for alias in child.names]
                    for parts in names:
                        yield (parts[0] if parts else "__init__"), child.lineno, inside, checking
                elif child.module and child.module.startswith("lifeboat_rules"):
                    parts = child.module.split(".")[1:]
                    yield (parts[0] if parts else "__init__"), child.lineno, inside, checking
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.startswith("lifeboat_rules."):
                        yield alias.name.split(".")[1], child.lineno, inside, checking
            yield from walk(child, inside, checking)

    yield from walk(tree)


def core_files():
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        if name in CORE or name == "rules":
            yield path, name


def test_the_core_imports_only_downwards():
    problems = []
    for path, name in core_files():
        mine = layer_of(name)
        for target, line, _, type_checking in imports(path):
            theirs = layer_of(target)
            if type_checking or target == name or theirs is None:
                continue
            if theirs > mine:
                problems.append(f"{path.relative_to(ROOT)}:{line} ({name}) imports {target}, a layer above")
    assert not problems, "\n".join(problems)


def test_no_function_local_imports_in_the_core():
    problems = [f"{path.relative_to(ROOT)}:{line} imports {target} inside a function"
                for path, name in core_files()
                for target, line, inside, type_checking in imports(path)
                if inside and not type_checking]
    assert not problems, "\n".join(problems)


def test_no_module_reaches_into_private_names():
    """``from x import _y`` or ``game._y`` from another module: private names stay home."""
    problems = []
    for path in sorted(list(PACKAGE.rglob("*.py")) + list((ROOT / "expansions").rglob("*.py"))):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("lifeboat_rules")):
                problems += [f"{path.relative_to(ROOT)}:{node.lineno} imports {alias.name}"
                             for alias in node.names if alias.name.startswith("_")]
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__") and isinstance(node.value, ast.Name)
                    and node.value.id in ("game", "state", "stage", "rules", "ruleset")
                    and path.name != "engine.py"):
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno} uses {node.value.id}.{node.attr}")
    assert not problems, "\n".join(problems)
