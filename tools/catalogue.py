"""The message catalogue's template: every id the runtime composes, and the games' messages.

    python tools/catalogue.py            write controller/locale/tablectl.pot and rewrite every .po in its order
    python tools/catalogue.py --check    exit 1 when the template or a .po is not as the tool writes it (the tests
                                         run this)
    python tools/catalogue.py --merge-from REV
                                         as the first, also keeping the translations the .po files have at the git
                                         revision REV where this side has none (a merge: both sides' translations)

The runtime's own ids are found in the code: every call ``lang.t("...")`` (or ``t("...")``, ``N_("...")``,
the console's ``Refused("...")``) with a literal first argument, and the words of the fault table (controller/runtime/faults.py). The games' messages (prompts, rejections, alerts, names) are kept, in
English, in controller/locale/games.pot, by hand: a game's message written with its places in
braces (``First card to box {box}``). Each language's ``.po`` is rewritten in the template's order, its header and translations kept: a new id gets an
empty ``msgstr`` for its translator (the catalogue test fails until every one has a translation), an id the
template no longer has is removed.

The order is the ids sorted (the runtime's and the fault table's first, then the games', each by context and
id), and a reference names the file, not the line: moving code changes nothing, and two changes that each add
ids merge as a re-run of this tool that keeps both sides' translations.
"""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.language import CONTEXT, GAME, LOCALE_DIR, read_po  # noqa: E402

MARKERS = ("t", "N_", "Refused")
"""The calls whose literal first argument is a message id: ``lang.t("...")``, ``N_("...")`` (an English text
marked for the catalogue, translated where it is shown) and the console's ``Refused("...", ...)``."""

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n'


def runtime_ids() -> dict[str, str]:
    """id -> the first file that uses it (``controller/runtime/outputs.py``)."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "controller").rglob("*.py")) + sorted((ROOT / "drivers").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            f = node.func
            named = ((isinstance(f, ast.Name) and f.id in MARKERS) or (isinstance(f, ast.Attribute) and f.attr == "t"))
            first = node.args[0]
            if named and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.setdefault(first.value, str(path.relative_to(ROOT)))
            if named and isinstance(first, ast.IfExp):
                for branch in (first.body, first.orelse):
                    if isinstance(branch, ast.Constant) and isinstance(branch.value, str):
                        found.setdefault(branch.value, str(path.relative_to(ROOT)))
    return found


def fault_ids() -> dict[str, str]:
    """The fault table's words (controller/runtime/faults.py): each kind's meaning and title, what it stops, who
    clears it."""
    from controller.runtime.faults import CLEAR_ROLES, FAULTS, STOPS

    where = "controller/runtime/faults.py"
    words = ([k.meaning for k in FAULTS.values()] + [k.title for k in FAULTS.values()] + list(STOPS.values())
             + list(CLEAR_ROLES.values()))
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


@functools.lru_cache(maxsize=1)
def entries() -> list[tuple[str, str, str]]:
    """Every id of the template as (where, context, msgid), in the order the tool writes them."""
    own = {**runtime_ids(), **fault_ids()}
    games = {(ctxt or GAME, msgid) for ctxt, msgid in game_ids()}
    return ([(own[m], "", m) for m in sorted(own)]
            + [("controller/locale/games.pot", c, m) for c, m in sorted(games)])


def entry(ctxt: str, msgid: str, msgstr: str, where: str | None = None) -> str:
    flag = "#, python-brace-format\n" if "{" in msgid else ""
    ref = f"#: {where}\n" if where else ""
    context = f"msgctxt {quote(ctxt)}\n" if ctxt else ""
    return f"{ref}{flag}{context}msgid {quote(msgid)}\nmsgstr {quote(msgstr)}\n"


def template() -> str:
    return "\n".join([HEADER] + [entry(c, m, "", where) for where, c, m in entries()])


def header_of(text: str) -> str:
    """A .po file's header: its comments and the empty id's entry, up to the first blank line after it."""
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith('msgid ""'))
    end = next((i for i in range(at, len(lines)) if not lines[i].strip()), len(lines))
    return "".join(lines[:end])


def rewritten(po_path: Path, also: dict[str, str] | None = None) -> tuple[str, int, int]:
    """The .po file as the tool writes it, and how many ids are new (untranslated) and removed; ``also``: more
    translations (another side of a merge), taken where this file has none."""
    text = po_path.read_text(encoding="utf-8")
    po = read_po(po_path, keep_empty=True)
    have = {**po["messages"], **po["fuzzy"]}
    own = set(have)
    for key, msgstr in (also or {}).items():
        if msgstr and not have.get(key):
            have[key] = msgstr
    keys = [(f"{c}{CONTEXT}{m}" if c else m, c, m) for _, c, m in entries()]
    out = [header_of(text)]
    for key, ctxt, msgid in keys:
        msgstr = have.get(key, "")
        fuzzy = "#, fuzzy\n" if key in po["fuzzy"] else ""
        out.append(fuzzy + entry(ctxt, msgid, msgstr))
    wanted = {k for k, _, _ in keys}
    new = sum(1 for k in wanted if not have.get(k))
    removed = sum(1 for k in own if k not in wanted)
    return "\n".join(out), new, removed


def other_side(po_path: Path, revision: str) -> dict[str, str]:
    """The translations of ``po_path`` as the git revision ``revision`` has them (none where it has no such file)."""
    import subprocess
    import tempfile

    name = po_path.relative_to(ROOT).as_posix()
    shown = subprocess.run(["git", "show", f"{revision}:{name}"], cwd=ROOT, capture_output=True)
    if shown.returncode != 0:
        return {}
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / po_path.name
        copy.write_bytes(shown.stdout)
        return read_po(copy)["messages"]


def main(argv: list[str]) -> int:
    text = template()
    pot = LOCALE_DIR / "tablectl.pot"
    if "--check" in argv:
        stale = [p.name for p in [pot] if not p.exists() or p.read_text(encoding="utf-8") != text]
        stale += [p.name for p in sorted(LOCALE_DIR.glob("*.po"))
                  if p.read_text(encoding="utf-8") != rewritten(p)[0]]
        if stale:
            print(f"controller/locale/{', '.join(stale)} not as tools/catalogue.py writes it: run python "
                  "tools/catalogue.py", file=sys.stderr)
            return 1
        return 0
    pot.write_text(text, encoding="utf-8")
    other = argv[argv.index("--merge-from") + 1] if "--merge-from" in argv[:-1] else None
    for po_path in sorted(LOCALE_DIR.glob("*.po")):
        body, new, removed = rewritten(po_path, other_side(po_path, other) if other else None)
        po_path.write_text(body, encoding="utf-8")
        if new or removed:
            print(f"{po_path.name}: {new} ids to translate, {removed} obsolete ids removed")
    print(f"{pot.relative_to(ROOT)}: {len(entries())} ids")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
