"""The seam between hardware and rules, drawn from the code's imports: a Mermaid diagram for docs/architecture.md.

``python tools/import_graph.py`` prints the diagram; ``--write`` puts it into
docs/architecture.md between its markers (a test checks that the page shows
what this script draws). Every module of controller/ and drivers/ is read with
``ast`` (nothing is imported or run); an import of one package by another is
an arrow. Packages are drawn at the depth the layout gives them
(``controller.runtime``, ``drivers.shoe``, ...); the top modules of
``controller`` (cards, events, money, config, ...) are drawn each on its own.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
BEGIN, END = "<!-- import-graph: begin -->", "<!-- import-graph: end -->"
SHOWN = ("controller.runtime", "controller.games", "controller.hands", "controller.cards", "controller.events",
         "controller.money", "controller.config", "drivers.events", "drivers.shoe", "drivers.wheel", "drivers.gpio",
         "drivers.vision", "drivers.displays", "drivers.seriallink")
"""The parts drawn: the runtime, the pure core it meets, and every driver family (the command line and the
support modules are left out so the seam stays readable)."""


def node(module: str) -> str | None:
    """The drawn part a module belongs to, or None when it is not drawn."""
    return next((part for part in SHOWN if module == part or module.startswith(part + ".")), None)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute names; relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = module_name(path).split(".")
    out: set[str] = set()
    for item in ast.walk(tree):
        if isinstance(item, ast.Import):
            out.update(alias.name for alias in item.names)
        elif isinstance(item, ast.ImportFrom):
            base = item.module or ""
            if item.level:
                package = here if path.name == "__init__.py" else here[:-1]
                base = ".".join(package[:len(package) - item.level + 1] + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in item.names)
    return out


def edges() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for top in ("controller", "drivers"):
        for path in sorted((ROOT / top).rglob("*.py")):
            source = node(module_name(path))
            if source is None:
                continue
            for name in imports(path):
                target = node(name)
                if target is not None and target != source:
                    found.add((source, target))
    return found


def mermaid() -> str:
    """The diagram as Mermaid text, one arrow per line, sorted (so it changes only when the imports do)."""
    ident = {part: part.replace(".", "_") for part in SHOWN}
    lines = ["```mermaid", "flowchart LR"]
    for side, title in (("controller", "rules and runtime (controller)"), ("drivers", "hardware (drivers)")):
        lines.append(f"  subgraph {side}[\"{title}\"]")
        lines += [f"    {ident[p]}[\"{p}\"]" for p in SHOWN if p.startswith(side + ".")]
        lines.append("  end")
    lines += [f"  {ident[a]} --> {ident[b]}" for a, b in sorted(edges())]
    lines.append("```")
    return "\n".join(lines) + "\n"


def page_with(text: str, diagram: str) -> str:
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:start] + "\n" + diagram + text[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="put the diagram into docs/architecture.md")
    args = parser.parse_args(argv)
    diagram = mermaid()
    if args.write:
        PAGE.write_text(page_with(PAGE.read_text(encoding="utf-8"), diagram), encoding="utf-8")
    else:
        sys.stdout.write(diagram)
    return 0


if __name__ == "__main__":
    sys.exit(main())
