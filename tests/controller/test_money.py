import pytest
from hypothesis import given, strategies as st

from controller.money import Odds, check_amount, format_amount, fraction_of, win_amount


def test_exact_and_rounded_payouts():
    assert win_amount(5000, Odds(19, 20)) == (4750, False)
    assert win_amount(1005, Odds(19, 20)) == (954, True)  # 954.75 rounded down
    assert win_amount(1000, Odds(3, 2)) == (1500, False)
    assert win_amount(1001, Odds(3, 2)) == (1501, True)
    assert win_amount(0, Odds(35)) == (0, False)


@given(st.integers(min_value=0, max_value=10**12), st.integers(0, 1000), st.integers(1, 1000))
def test_payout_never_exceeds_the_exact_value(stake, paid, per):
    amount, rounded = win_amount(stake, Odds(paid, per))
    assert isinstance(amount, int)
    assert amount * per <= stake * paid < (amount + 1) * per
    assert rounded == (amount * per != stake * paid)


@pytest.mark.parametrize("bad", [1.5, "10", True, None])
def test_amounts_are_whole_minor_units(bad):
    with pytest.raises(TypeError):
        check_amount(bad)
    with pytest.raises(ValueError):
        check_amount(-1)


def test_legal_fraction_and_formatting():
    assert fraction_of(5_920_000, 1, 600) == 9866
    assert format_amount(123456) == "1234.56"
    assert format_amount(-5, 100, "SEK") == "-0.05 SEK"
    with pytest.raises(ValueError):
        Odds(1, 0)


def test_the_one_money_formatter_pads_the_minor_units() -> None:
    from controller.money import format_amount
    from drivers.displays.sign import format_amount as sign_amount

    assert [format_amount(a) for a in (5, 50, 12305, -5)] == ["0.05", "0.50", "123.05", "-0.05"]
    assert [format_amount(a, whole=True) for a in (5000, 5005, 5050)] == ["50", "50.05", "50.50"]
    assert format_amount(1005, 1000, "KWD") == "1.005 KWD" and format_amount(7, 1) == "7"
    assert [sign_amount(a) for a in (5000, 5005)] == ["50", "50.05"]  # the sign uses the same formatter


def test_the_dealer_terminal_and_the_pit_format_money_with_it(monkeypatch) -> None:
    """The terminal's state (controller/runtime/web/state.py) has no formatter of its own: it calls the one."""
    from controller.runtime.web import state

    assert [state.money(a, 100) for a in (5, 12305, -5)] == ["0.05", "123.05", "-0.05"]
    assert state.money(7, 1) == "7" and state.money(1005, 1000) == "1.005"
    monkeypatch.setattr(state, "format_amount", lambda amount, minor: f"<{amount}/{minor}>")
    assert state.money(5, 100) == "<5/100>"
