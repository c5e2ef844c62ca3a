"""Write each device kind's configuration section into its page under docs/devices (from the kind's schema),
and the devices table of docs/configuration.md (from every kind).

    python tools/device_kinds.py          # show which pages are out of date
    python tools/device_kinds.py --write  # rewrite them

The kinds are controller/runtime/devices/<kind>.py (docs/architecture.md, "How to add a device kind");
tests/test_architecture.py fails when a page (or the table) and the kinds disagree.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.runtime.devices import registry  # noqa: E402


def main(argv: list[str]) -> int:
    stale = []
    for kind in registry.all_kinds():
        page = ROOT / "docs" / "devices" / kind.docs
        text = page.read_text(encoding="utf-8")
        wanted = registry.page_with(text, kind)
        if wanted != text:
            stale.append(f"docs/devices/{kind.docs} ({kind.name})")
            if "--write" in argv:
                page.write_text(wanted, encoding="utf-8")
    configuration = ROOT / "docs" / "configuration.md"
    text = configuration.read_text(encoding="utf-8")
    wanted = registry.configuration_page_with(text)
    if wanted != text:
        stale.append("docs/configuration.md (the devices table)")
        if "--write" in argv:
            configuration.write_text(wanted, encoding="utf-8")
    for line in stale:
        print(("written: " if "--write" in argv else "out of date: ") + line)
    return 1 if stale and "--write" not in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
