"""The layers run one way (DESIGN.md "Layout"): a module imports only its own package and the layers
below it. Plain Python over the source's imports, lazy ones inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Lowest first. A module belongs to the longest prefix that names it.
LAYERS: list[tuple[str, ...]] = [
    ("config.env", "config.settings", "config.test_settings", "config.middleware"),
    ("dbkit",),
    ("vault",),
    # Tenancy: the one part of governance the audit sink may know.
    ("governance.models", "governance.vocabulary", "governance.apps", "governance.migrations"),
    ("audit",),
    ("governance",),
    ("memories",),
    ("conversations",),
    ("handoffs",),
    ("monitoring",),
    ("answers",),  # the JSON the agent surfaces (REST and MCP) answer with
    ("api", "console", "mymemories", "mcpserver"),
    ("evaluation", "demo"),
    ("config",),  # urls, wsgi/asgi, celery, health: the wiring, which may name anything
]
PACKAGES = {name.split(".")[0] for layer in LAYERS for name in layer}


def _layer_of(module: str) -> tuple[int, str] | None:
    best: tuple[int, str] | None = None
    for index, layer in enumerate(LAYERS):
        for prefix in layer:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > len(best[1])):
                best = (index, prefix)
    return best


def _is_module(root: Path, dotted: str) -> bool:
    path = root.joinpath(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _imports(root: Path, path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # ``from governance import labels`` imports the module governance.labels.
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.append((node.lineno, submodule if _is_module(root, submodule) else node.module))
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
    return [(line, name) for line, name in found if name.split(".")[0] in PACKAGES]


def _source_modules(root: Path, packages: set[str]) -> list[tuple[Path, str]]:
    modules = []
    for package in sorted(packages):
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root).with_suffix("")
            parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
            modules.append((path, ".".join(parts)))
    return modules


def _violations(root: Path = ROOT, packages: set[str] = PACKAGES) -> list[str]:
    problems = []
    for path, module in _source_modules(root, packages):
        own = _layer_of(module)
        assert own is not None, f"{module} is in no layer: add it to LAYERS"
        for line, imported in _imports(root, path):
            target = _layer_of(imported)
            if target is None:
                continue
            same_package = imported.split(".")[0] == module.split(".")[0]
            if target[0] > own[0] or (target[0] == own[0] and not same_package and own[1] != target[1]):
                problems.append(f"{path.relative_to(root)}:{line} {module} ({own[1]}) imports {imported} ({target[1]})")
    return problems


def test_no_import_runs_against_the_layers():
    assert _violations() == []


def test_the_check_sees_an_upward_import(tmp_path):
    """The guard itself: a governance module importing a memory record is reported."""
    fake = tmp_path / "governance"
    fake.mkdir()
    (fake / "leak.py").write_text("from memories.models import Memory\n", encoding="utf-8")
    assert _violations(tmp_path, {"governance"}) == [
        "governance/leak.py:1 governance.leak (governance) imports memories.models (memories)"
    ]


def test_the_check_sees_a_sideways_import_between_surfaces(tmp_path):
    fake = tmp_path / "api"
    fake.mkdir()
    (fake / "views.py").write_text("def f():\n    from console.access import console_page\n", encoding="utf-8")
    assert _violations(tmp_path, {"api"}) == ["api/views.py:2 api.views (api) imports console.access (console)"]
