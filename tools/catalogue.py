"""The message catalogue's template: every id the runtime composes, and the games' messages.

    python tools/catalogue.py            write controller/locale/tablectl.pot and add new ids to every .po
    python tools/catalogue.py --check    exit 1 when the template is not up to date (the tests run this)

The runtime's own ids are found in the code: every call ``lang.t("...")`` (or ``t("...")``) with a
literal first argument, and the words of the fault table (controller/runtime/faults.py). The games' messages (prompts, rejections, alerts, names) are kept, in
English, in controller/locale/games.pot, by hand: a game's message written with its places in
braces (``First card to box {box}``). New ids are added to each language's ``.po`` with an empty
``msgstr`` for its translator; the catalogue test fails until every one has a translation.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.language import CONTEXT, GAME, LOCALE_DIR, read_po  # noqa: E402

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n'


def runtime_ids() -> dict[str, str]:
    """id -> where it is used (``controller/runtime/outputs.py:120``), in the order found."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "controller").rglob("*.py")) + sorted((ROOT / "drivers").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            f = node.func
            named = (isinstance(f, ast.Name) and f.id == "t") or (isinstance(f, ast.Attribute) and f.attr == "t")
            first = node.args[0]
            if named and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.setdefault(first.value, f"{path.relative_to(ROOT)}:{node.lineno}")
            if named and isinstance(first, ast.IfExp):
                for branch in (first.body, first.orelse):
                    if isinstance(branch, ast.Constant) and isinstance(branch.value, str):
                        found.setdefault(branch.value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def fault_ids() -> dict[str, str]:
    """The fault table's words (controller/runtime/faults.py): each kind's meaning, what it stops, who clears it."""
    from controller.runtime.faults import CLEAR_ROLES, FAULTS, STOPS

    where = "controller/runtime/faults.py"
    words = [k.meaning for k in FAULTS.values()] + list(STOPS.values()) + list(CLEAR_ROLES.values())
    return {w: where for w in words}


def game_ids() -> list[tuple[str, str]]:
    """The games' messages of controller/locale/games.pot: (context, id), in the file's order (context ``game``:
    prompts, reasons, alerts, names; ``spot``: the kinds of a layout's spots, ``straight``, ``dozen``)."""
    out = []
    for key in read_po(LOCALE_DIR / "games.pot", keep_empty=True)["messages"]:
        ctxt, _, msgid = key.rpartition(CONTEXT)
        out.append((ctxt, msgid))
    return out


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def template() -> str:
    out = [HEADER]
    for msgid, where in {**runtime_ids(), **fault_ids()}.items():
        flag = "#, python-brace-format\n" if "{" in msgid else ""
        out.append(f"#: {where}\n{flag}msgid {quote(msgid)}\nmsgstr \"\"\n")
    for ctxt, msgid in game_ids():
        flag = "#, python-brace-format\n" if "{" in msgid else ""
        out.append(f"#: controller/locale/games.pot\n{flag}msgctxt {quote(ctxt or GAME)}\nmsgid {quote(msgid)}\n"
                   f"msgstr \"\"\n")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    text = template()
    pot = LOCALE_DIR / "tablectl.pot"
    if "--check" in argv:
        if not pot.exists() or pot.read_text(encoding="utf-8") != text:
            print("controller/locale/tablectl.pot is not up to date: run python tools/catalogue.py", file=sys.stderr)
            return 1
        return 0
    pot.write_text(text, encoding="utf-8")
    ids = list(read_po(pot, keep_empty=True)["messages"])
    for po_path in sorted(LOCALE_DIR.glob("*.po")):
        have = read_po(po_path, keep_empty=True)["messages"]
        new = [m for m in ids if m not in have]
        if new:
            with po_path.open("a", encoding="utf-8") as f:
                for key in new:
                    ctxt, _, msgid = key.rpartition(CONTEXT)
                    flag = "#, python-brace-format\n" if "{" in msgid else ""
                    where = f"msgctxt {quote(ctxt)}\n" if ctxt else ""
                    f.write(f"\n{flag}{where}msgid {quote(msgid)}\nmsgstr \"\"\n")
            print(f"{po_path.name}: {len(new)} new ids to translate")
    print(f"{pot.relative_to(ROOT)}: {len(ids)} ids")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
