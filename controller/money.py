"""Money as integer minor units, and payouts at fixed odds (DESIGN.md sections 4, 6).

Nothing here is a float. A payout that is not a whole minor unit is rounded
down and flagged, so the settlement can say ``"rounded": true``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Odds:
    """Pays ``paid`` for every ``per`` staked (3 to 2 is ``Odds(3, 2)``)."""

    paid: int
    per: int = 1

    def __post_init__(self) -> None:
        if self.paid < 0 or self.per <= 0:
            raise ValueError(f"odds must be paid >= 0 per > 0, not {self.paid}:{self.per}")

    def win(self, stake: int) -> tuple[int, bool]:
        """The amount won on ``stake`` (the stake itself comes back on top), and whether it was rounded down."""
        return win_amount(stake, self)

    def as_list(self) -> list[int]:
        return [self.paid, self.per]

    def __str__(self) -> str:
        return f"{self.paid} to {self.per}"


def win_amount(stake: int, odds: Odds) -> tuple[int, bool]:
    """``stake * paid / per`` rounded down to a whole minor unit, and whether it was rounded."""
    check_amount(stake)
    whole, rest = divmod(stake * odds.paid, odds.per)
    return whole, rest != 0


def check_amount(amount: object) -> int:
    """An amount must be a non-negative integer of minor units (bools and floats are refused)."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise TypeError(f"an amount must be a whole number of minor units, not {amount!r}")
    if amount < 0:
        raise ValueError(f"an amount cannot be negative: {amount}")
    return amount


def fraction_of(amount: int, numerator: int, denominator: int) -> int:
    """``amount * numerator / denominator`` rounded down (legal limits such as 1/600 of the price base amount)."""
    return amount * numerator // denominator


def format_amount(amount: int, minor_per_major: int = 100, currency: str = "", *, whole: bool = False,
                  code_first: bool = False) -> str:
    """``123456`` -> ``"1234.56"`` (with the currency code after it where given); the one money formatter.

    The minor units are zero-padded to the width of the largest (``5`` öre is ``.05``); ``whole`` leaves
    them out of a whole amount (``5000`` -> ``"50"``, as the sign shows limits). A currency without minor
    units (``minor_per_major`` 1) has no decimals. ``code_first`` puts the currency code first, as the pit
    supervisor's terminal writes amounts (``SEK 20.00``).

    >>> format_amount(123456), format_amount(-5, 100, "SEK"), format_amount(5000, whole=True)
    ('1234.56', '-0.05 SEK', '50')
    >>> format_amount(12550, whole=True), format_amount(7, 1), format_amount(1005, 1000)
    ('125.50', '7', '1.005')
    >>> format_amount(2000, 100, "SEK", code_first=True), format_amount(-2000, 100, "SEK", code_first=True)
    ('SEK 20.00', 'SEK -20.00')
    """
    sign = "-" if amount < 0 else ""
    major, minor = divmod(abs(amount), minor_per_major)
    digits = len(str(minor_per_major - 1)) if minor_per_major > 1 else 0
    text = f"{sign}{major}" + (f".{minor:0{digits}d}" if digits and not (whole and minor == 0) else "")
    return (f"{currency} {text}" if code_first else f"{text} {currency}").strip()


@dataclass(frozen=True, slots=True)
class MoneyFormat:
    """How a language writes an amount: the decimal mark, the mark between thousands ('' for none), and whether
    the currency code comes first (``SEK 1,234.50``) or last (``1 234,50 SEK``)."""

    decimal: str = "."
    group: str = ","
    code_first: bool = True


ENGLISH_MONEY = MoneyFormat(".", ",", True)
"""English: ``SEK 1,234.50`` (the code first, a point, commas between thousands)."""


def money_format(sample: str) -> MoneyFormat:
    """A money format from its sample, as a catalogue's header gives it: ``1 234,56 SEK``, ``1.234,56 SEK``,
    ``SEK 1,234.56`` (the sample's number is always one thousand two hundred and thirty-four and 56 hundredths,
    its currency the letters ``SEK``)."""
    text = sample.strip()
    code_first = text.startswith("SEK")
    number = (text[3:] if code_first else text[:-3]).strip() if "SEK" in (text[:3], text[-3:]) else ""
    if len(number) < 7 or not number.startswith("1") or not number.endswith("234" + number[-3] + "56"):
        raise ValueError(f"{sample!r} is not a sample such as '1 234,56 SEK' or 'SEK 1,234.56'")
    group, decimal = number[1:-6], number[-3]
    if decimal.isdigit() or group == decimal or len(group) > 1:
        raise ValueError(f"{sample!r}: a decimal mark and at most one mark between thousands")
    return MoneyFormat(decimal, group, code_first)


def format_money(amount: int, minor_per_major: int = 100, currency: str = "", style: MoneyFormat = ENGLISH_MONEY,
                 *, whole: bool = False, grouped: bool = True) -> str:
    """``amount`` minor units in a language's format: ``SEK 1,234.50``, ``1 234,50 SEK``, ``-20,00 SEK``.

    ``whole`` leaves the minor units out of a whole amount (``5000`` -> ``50``, as the sign shows limits);
    ``grouped=False`` leaves out the marks between thousands (the sign's limits: ``10-10000``, one word each).

    >>> format_money(123450, 100, "SEK"), format_money(-2000, 100, "SEK", MoneyFormat(",", " ", False))
    ('SEK 1,234.50', '-20,00 SEK')
    >>> format_money(123456789, 100, "EUR", MoneyFormat(",", ".", False)), format_money(5000, whole=True)
    ('1.234.567,89 EUR', '50')
    >>> format_money(7, 1, "ISK", MoneyFormat(",", ".", False)), format_money(1005, 1000, "", MoneyFormat(",", "", True))
    ('7 ISK', '1,005')
    """
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise TypeError(f"an amount must be a whole number of minor units, not {amount!r}")
    sign = "-" if amount < 0 else ""
    major, minor = divmod(abs(amount), minor_per_major)
    digits = len(str(minor_per_major - 1)) if minor_per_major > 1 else 0
    whole_part = f"{major:,}".replace(",", style.group if grouped else "")
    text = sign + whole_part + (f"{style.decimal}{minor:0{digits}d}" if digits and not (whole and minor == 0) else "")
    if not currency:
        return text
    return f"{currency} {text}" if style.code_first else f"{text} {currency}"


def parse_amount(text: str, minor_per_major: int = 100) -> int:
    """An amount typed in the currency's major units (``20``, ``20.50``, ``0.5``) as minor units (``2050``), read
    digit by digit as a decimal string, never through a float. ``ValueError`` for anything else: an empty text, a
    sign, letters, a second point, or more decimals than the currency has (``20.505`` where a krona has 100 öre).

    >>> parse_amount("20.50"), parse_amount("20"), parse_amount("0.5"), parse_amount("12.", 100), parse_amount("7", 1)
    (2050, 2000, 50, 1200, 7)
    >>> parse_amount("1.005", 1000), parse_amount(" 3.10 ")
    (1005, 310)
    """
    digits = len(str(minor_per_major - 1)) if minor_per_major > 1 else 0
    whole, point, part = text.strip().partition(".")
    if not whole.isascii() or not part.isascii() or not (whole.isdigit() or (point and whole == "" and part)) \
            or (part and not part.isdigit()) or len(whole) > 12:
        raise ValueError(f"{text!r} is not an amount: digits, with at most one point (20.50)")
    if len(part) > digits:
        raise ValueError(f"{text!r} has more decimals than the currency ({digits})")
    return int(whole or "0") * minor_per_major + (int(part.ljust(digits, "0")) if part else 0)
