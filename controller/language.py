"""The table's languages: the words the croupier, the players and the pit read, from gettext catalogues.

English is the source language: the journal, ``--json`` and the logs stay in English, exactly as the
games write them. What a person reads (the live terminal, the sign, ``journal tail``, the console's
``round``, ``history`` and ``journal tail``, ``faults list``) is translated when it is shown, from
the catalogue of the table's language (``[table] language``, or ``--lang``).

The catalogues are standard gettext ``.po`` files in ``controller/locale/`` (one per language,
``sv.po``, ``de.po``, ...), edited with any gettext tool (Poedit, Weblate, ``msgfmt --check``).
They are read here directly (``read_po``), so nothing is compiled or downloaded at run time.

A message id is English text with named places in braces (``First card to box {box}``,
``python-brace-format``). Two ways in:

- ``Language.t(msgid, **values)``: the words the runtime itself composes (the terminal's lines,
  the sign, the summaries): the id is looked up and the values put in.
- ``Language.text(english)``: a finished English text a game wrote (a prompt, a rejection's reason,
  an alert) as the journal holds it. It is matched against the ids with places
  (``Box {box}: {total} against {up} — {choices}?`` matches ``Box 2: 14 against 7 — stand or hit?``),
  each place's text is translated in turn where the catalogue has it (``stand or hit``,
  ``an ace``), and the translation is filled in. A text no id matches is shown as it is, in
  English (a ``Language`` made with ``track`` collects such texts in ``missing``: the catalogue test
  fails on them; the table's own shared ``language(code)`` collects nothing, so a long run does not grow).

How a casino adds a language: docs/languages.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Mapping

from controller.money import ENGLISH_MONEY, MoneyFormat, format_money, money_format

LOCALE_DIR = Path(__file__).parent / "locale"
SOURCE = "en"
"""The source language: no catalogue, the ids themselves."""

CONTEXT = "\x04"
"""Between a message's context and its id, as gettext keys them (``game\x04First card to box {box}``)."""
GAME = "game"
"""The context of the games' messages: prompts, reasons, alerts and names as the games write them."""
SPOT = "spot"
"""The context of the kinds of a layout's spots (``straight``, ``split``, ``dozen``): their own, since a
blackjack ``split`` (an action) and a roulette ``split`` (two numbers) are different words."""
_PLACE = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_MAX_DEPTH = 4
_NUMBER = r"-?\d+"
_KINDS = {"seat": r"\d+(?: \([^()]*\))?",  # a seat and its player's chip colour: "2 (pink)"
          **{name: _NUMBER for name in ("box", "hand", "seats", "boxes_count", "number", "count", "points",
                                        "other", "expected", "seen", "amount", "minimum", "maximum", "stake",
                                        "half", "main", "unit", "others", "hands", "low", "high", "raise_", "ante",
                                        "fee", "per")},
          "boxes": r"\d+(?:, \d+)*", "card": r"\S+", "cards": r"[^()]+?",
          "hand_cards": r"(?:[2-9TJQKA][shdc]|Jk)+"}  # a hand's cards written together: "Kd9d9sTc2c"
"""What the places of these names hold (numbers, cards), so that a text splits into its places one way only."""
MONEY = frozenset({"amount", "minimum", "maximum", "low", "high", "fee", "half", "main", "unit", "ante", "raise_",
                   "others"})
"""The places of the games' messages that hold an amount in minor units: shown in the table's money format where
the caller gives it (``Language.text(text, money=...)``: ``call 100`` is ``call SEK 1.00``, ``syna 1,00 SEK``)."""
_WORDS = re.compile(r"[^\W\d_]{3,} [^\W\d_]{3,}")
"""Two words of three letters or more: English a translation must not pass through (a card pair such as
``Kh Qc`` or a name is not words)."""


class CatalogueError(ValueError):
    """A ``.po`` file that cannot be read: the message names the file and line."""


def languages() -> dict[str, str]:
    """Every language the table can speak: code -> its own name (``sv`` -> ``svenska``), English first."""
    out = {SOURCE: "English"}
    for path in sorted(LOCALE_DIR.glob("*.po")):
        out[path.stem] = read_po(path).get("", {}).get("X-Language-Name", path.stem)
    return out


def _unquote(text: str, place: str) -> str:
    if not (len(text) >= 2 and text[0] == '"' and text[-1] == '"'):
        raise CatalogueError(f"{place}: expected a quoted string")
    body, out, i = text[1:-1], [], 0
    if "\\" not in body:  # most strings: nothing to unescape
        return body
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            if i + 1 >= len(body) or body[i + 1] not in escapes:
                raise CatalogueError(f"{place}: unknown escape")
            out.append(escapes[body[i + 1]])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def read_po(path: Path, keep_empty: bool = False) -> dict[str, dict[str, str]]:
    """A ``.po`` file as ``{"": header fields, "messages": {msgid: msgstr}, "fuzzy": {msgid: ""}}``.

    Entries marked ``#, fuzzy`` and entries with an empty ``msgstr`` are not translations; they are
    kept apart (``fuzzy``) or left out (``keep_empty``: kept, as a template has them), so the catalogue
    test names them."""
    header: dict[str, str] = {}
    messages: dict[str, str] = {}
    fuzzy: dict[str, str] = {}
    entry: dict[str, str] = {}
    flags: set[str] = set()
    current: str | None = None

    def finish() -> None:
        nonlocal entry, flags, current
        if "msgid" in entry:
            msgid, msgstr = entry["msgid"], entry.get("msgstr", "")
            if "msgctxt" in entry:
                msgid = f"{entry['msgctxt']}{CONTEXT}{msgid}"
            if msgid == "":
                for line in msgstr.splitlines():
                    if ":" in line:
                        key, value = line.split(":", 1)
                        header[key.strip()] = value.strip()
            elif "fuzzy" in flags:
                fuzzy[msgid] = msgstr
            elif msgstr or keep_empty:
                messages[msgid] = msgstr
        entry, flags, current = {}, set(), None

    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise CatalogueError(f"{path}: {exc}") from None
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        place = f"{path.name} line {number}"
        if not line:
            finish()
        elif line.startswith("#,"):
            if "msgid" in entry:
                finish()
            flags |= {f.strip() for f in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith("msgctxt "):
            if "msgid" in entry:
                finish()
            current = "msgctxt"
            entry["msgctxt"] = _unquote(line[8:].strip(), place)
        elif line.startswith("msgid "):
            if "msgid" in entry:
                finish()
            current = "msgid"
            entry["msgid"] = _unquote(line[6:].strip(), place)
        elif line.startswith("msgstr "):
            if "msgid" not in entry:
                raise CatalogueError(f"{place}: msgstr without a msgid")
            current = "msgstr"
            entry["msgstr"] = _unquote(line[7:].strip(), place)
        elif line.startswith('"'):
            if current is None:
                raise CatalogueError(f"{place}: a string outside an entry")
            entry[current] += _unquote(line, place)
        else:
            raise CatalogueError(f"{place}: not a gettext line ({line[:40]!r})")
    finish()
    return {"": header, "messages": messages, "fuzzy": fuzzy}


def places(msgid: str) -> list[str]:
    """The named places of a message id, in order (``{box}``, ``{total}``)."""
    return _PLACE.findall(msgid)


@dataclass(frozen=True)
class _Pattern:
    msgid: str
    regex: re.Pattern[str]
    literal: int


def _pattern(msgid: str) -> _Pattern:
    parts, at, seen = [], 0, set()
    for m in _PLACE.finditer(msgid):
        parts.append(re.escape(msgid[at:m.start()]))
        name = m.group(1)
        # a place named twice says it twice; a number's or a card's place takes only that
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>{_KINDS.get(name, '.*?')})")
        seen.add(name)
        at = m.end()
    parts.append(re.escape(msgid[at:]))
    return _Pattern(msgid, re.compile("^" + "".join(parts) + "$", re.S), len(_PLACE.sub("", msgid)))


@dataclass
class Language:
    """One language's words (see the module's docstring). English: an empty catalogue."""

    code: str
    name: str
    messages: Mapping[str, str]
    missing: set[str] = field(default_factory=set)
    track: bool = True  # record texts without a translation in ``missing`` (the tests); the table's own do not
    money_format: MoneyFormat = ENGLISH_MONEY

    def __post_init__(self) -> None:
        prefix = GAME + CONTEXT
        self.game = {k[len(prefix):]: v for k, v in self.messages.items() if k.startswith(prefix)}
        spot = SPOT + CONTEXT
        self.spots = {k[len(spot):]: v for k, v in self.messages.items() if k.startswith(spot)}
        templated = [_pattern(m) for m in self.game if _PLACE.search(m)]
        # the most specific id first: the one with the most fixed text
        self._patterns = sorted(templated, key=lambda p: -p.literal)

    @property
    def english(self) -> bool:
        return self.code == SOURCE

    def t(self, msgid: str, **values: object) -> str:
        """The runtime's own words: ``msgid`` in this language with ``values`` filled in."""
        if self.english:
            return msgid.format(**values) if values else msgid
        translated = self.messages.get(msgid)
        if translated is None:
            if self.track:
                self.missing.add(msgid)
            translated = msgid
        return translated.format(**values) if values else translated

    def word(self, english: str) -> str:
        """A name the tables use (a spot, an action, a result, a hand, a game's name): its translation where the
        catalogue has one, else as it is (a spot such as ``straight:17`` has no words to translate)."""
        return self.game.get(english, english) if not self.english else english

    def hand(self, name: str) -> str:
        """A hand's name as a game writes it in an outcome (``Pair of kings``, ``flush 8hJh5h2h3h``,
        ``straight_flush``): the catalogue's word, else its text with places (``Pair of {ranks}``)."""
        if self.english:
            return name
        exact = self.game.get(name)
        return exact if exact is not None else self.text(name)

    def money(self, amount: int, minor_unit: int = 100, currency: str = "", whole: bool = False,
              grouped: bool = True) -> str:
        """An amount of minor units in this language's money format (``X-Money-Format`` of its catalogue,
        docs/languages.md): ``SEK 1,234.50`` in English, ``1 234,50 SEK`` in Swedish."""
        return format_money(amount, minor_unit, currency, self.money_format, whole=whole, grouped=grouped)

    def percent(self, part: int, whole: int) -> str:
        """``part`` of ``whole`` as a per-cent with one decimal, in this language's decimal mark (``4,7 %``):
        integer arithmetic, rounded half away from zero."""
        tenths = (abs(part) * 2000 // abs(whole) + 1) // 2
        sign = "-" if (part < 0) != (whole < 0) and tenths else ""
        return f"{sign}{tenths // 10}{self.money_format.decimal}{tenths % 10} %"

    def spot(self, name: str) -> str:
        """A spot's name: ``main`` -> ``insats``; a layout's spot by its kind, ``straight:17`` -> ``enkelnummer 17``
        (in English as the table names it)."""
        if self.english:
            return name
        if name in self.spots:
            return self.spots[name]
        kind, colon, numbers = name.partition(":")
        if colon and kind in self.spots:
            return f"{self.spots[kind]} {numbers}"
        return self.game.get(name, name)

    def text(self, english: str, money: Callable[[int], str] | None = None) -> str:
        """A finished English text (a game's prompt, reason or alert) in this language; with ``money``, the amounts
        in its places (``MONEY``) are written by it (the table's currency and money format)."""
        if not english:
            return english
        if self.english:
            return english if money is None else _english_ids().text(english, money)
        out = self._text(english, 0, money)
        if out is None:
            if self.track:
                self.missing.add(english)
            return english
        return out

    def _text(self, english: str, depth: int, money: Callable[[int], str] | None = None) -> str | None:
        exact = self.game.get(english)
        if exact is None:
            exact = self.messages.get(english)  # the runtime's own words, as a refusal or a fault's text gives them
        if exact is not None and not _PLACE.search(english):
            return exact
        if depth >= _MAX_DEPTH:
            return None
        for pattern in self._patterns:
            m = pattern.regex.match(english)
            if m is None:
                continue
            values: dict[str, str] = {}
            for name, value in m.groupdict().items():
                if money is not None and name in MONEY and re.fullmatch(r"-?\d+", value):
                    values[name] = money(int(value))
                    continue
                shown = self._value(name, value, depth + 1, money)
                if shown is None:
                    break
                values[name] = shown
            else:
                return self.game[pattern.msgid].format(**values)
        return None

    def _value(self, name: str, text: str, depth: int, money: Callable[[int], str] | None = None) -> str | None:
        """A place's text: translated where the catalogue has it (a word, a phrase); as it is where it is a
        number, a card, a name or free text (a place named ``free_...``, such as the reason a croupier gave);
        None where it is English words the catalogue lacks (then this id does not fit the text). A place named
        ``list_...`` holds items joined by ``, `` (``box 1, box 2``; ``fold, call 100``): each is translated
        in turn."""
        if name.startswith("list_"):
            items = [self._value("item", item, depth, money) for item in text.split(", ")]
            return None if any(item is None for item in items) else ", ".join(str(item) for item in items)
        translated = self._text(text, depth, money)
        if translated is not None:
            return translated
        if name.startswith("free_") or not _WORDS.search(text):
            return text
        return None


@lru_cache(maxsize=None)
def _catalogue(code: str) -> tuple[str, tuple[tuple[str, str], ...], MoneyFormat]:
    path = LOCALE_DIR / f"{code}.po"
    po = read_po(path)
    sample = po[""].get("X-Money-Format")
    try:
        shown = ENGLISH_MONEY if sample is None else money_format(sample)
    except ValueError as exc:
        raise CatalogueError(f"{path.name}: X-Money-Format: {exc}") from None
    return po[""].get("X-Language-Name", code), tuple(po["messages"].items()), shown


def catalogue_language(code: str, track: bool = True) -> Language:
    """A fresh ``Language`` of ``code`` (the tests' own: ``track`` collects the texts without a translation)."""
    if code == SOURCE:
        return Language(SOURCE, "English", {}, track=track)
    name, messages, shown = _catalogue(code)
    return Language(code, name, dict(messages), track=track, money_format=shown)


def check(code: str) -> str | None:
    """None when ``code`` is a language of the catalogue, else the problem in words (a table's start reads
    only its own language's file: the others are read only to name them in the problem)."""
    if code == SOURCE or (code and "/" not in code and not code.startswith(".")
                          and (LOCALE_DIR / f"{code}.po").is_file()):
        return None
    known = languages()
    return f"a language code of the catalogue: {', '.join(known)} (docs/languages.md says how to add one)"


@lru_cache(maxsize=None)
def language(code: str = SOURCE) -> Language:
    """The words of ``code`` (``en``, ``sv``, ``de``, ``fi``, ``da``), read once; ``ValueError`` for any other."""
    if code == SOURCE:
        return Language(SOURCE, "English", {}, track=False)
    problem = check(code)
    if problem is not None:
        raise ValueError(f"unknown language {code!r}: {problem}")
    return catalogue_language(code, track=False)  # shared by a daemon that runs for months: it collects nothing


ENGLISH = Language(SOURCE, "English", {}, track=False)


@lru_cache(maxsize=1)
def _english_ids() -> Language:
    """The games' messages as their own English translation: how an English table writes the amounts in them."""
    ids = read_po(LOCALE_DIR / "games.pot", keep_empty=True)["messages"]
    return Language("en-ids", "English", {key: key.split(CONTEXT, 1)[1] for key in ids}, track=False)
