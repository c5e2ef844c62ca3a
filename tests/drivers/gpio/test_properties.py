"""Properties: the debouncer on random edge trains, and the pin-map loader on random documents."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.gpio.config import DeviceConfig, PinMapError, parse_device_config
from drivers.gpio.debounce import Debouncer

SETTLE = 0.02

gaps = st.lists(st.floats(min_value=0.0005, max_value=0.06, allow_nan=False), min_size=0, max_size=40)


@settings(max_examples=300, deadline=None)
@given(gaps)
def test_debouncer_reports_only_levels_held_for_the_settle_time(gap_list):
    """Edges at the given gaps; the loop samples at every edge and every 1 ms."""
    d = Debouncer(SETTLE)
    edges = []
    t, level = 0.0, False
    for gap in gap_list:
        t += gap
        level = not level
        edges.append((round(t, 6), level))
    end = (edges[-1][0] if edges else 0.0) + SETTLE + 0.005
    samples = sorted({round(i * 0.001, 6) for i in range(int(end * 1000) + 1)} | {e[0] for e in edges})

    def raw_at(time: float) -> bool:
        current = False
        for when, value in edges:
            if when <= time:
                current = value
        return current

    reports = []
    for now in samples:
        changed = d.feed(now, raw_at(now))
        if changed is not None:
            reports.append((now, changed))
    previous = False
    for when, value in reports:
        assert value != previous  # reports alternate
        previous = value
        # the raw level was `value` for the whole settle time before the report
        assert all(raw_at(round(when - k * 0.0005, 6)) == value for k in range(int(SETTLE / 0.0005)))
    assert d.stable == raw_at(end)  # once quiet for the settle time, the stable level is the real one
    assert len(reports) <= len(edges)


names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_:0123456789AB", min_size=0, max_size=6)
scalars = st.one_of(st.integers(min_value=-5, max_value=60), names, st.booleans(), st.none(),
                    st.floats(allow_nan=False, allow_infinity=False))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(names, inner, max_size=4)), max_leaves=12)
sections = st.sampled_from(["build", "expanders", "buttons", "tower", "puck", "presence", "progressive", "sign",
                            "jackpot", "towr"])


@settings(max_examples=250, deadline=None)
@given(st.dictionaries(sections, values, max_size=5))
def test_any_document_is_a_config_or_one_line_pin_map_error(document):
    try:
        config = parse_device_config(document)
    except PinMapError as exc:
        assert "\n" not in str(exc) and str(exc)
    else:
        assert isinstance(config, DeviceConfig)


VALID = [*range(2, 28), *(f"a:{n}" for n in range(16)), *(f"a:A{n}" for n in range(8))]
INVALID = [0, 1, 28, 40, -1, "a:16", "b:1", "a:C1", "17"]


@settings(max_examples=300, deadline=None)
@given(buses=st.lists(st.sampled_from(["spi0", "uart0"]), unique=True), with_i2c=st.integers(0, 4),
       chosen=st.lists(st.sampled_from(VALID), min_size=5, max_size=14, unique=True), split=st.integers(1, 10),
       corrupt=st.one_of(st.none(), st.tuples(st.integers(0, 13), st.sampled_from(INVALID))))
def test_a_loaded_pin_map_keeps_every_promise(buses, with_i2c, chosen, split, corrupt):
    """Random builds: either refused with one line, or every promise of the loader holds."""
    from drivers.gpio.header import BUS_PINS, HEADER_PIN, RESERVED

    if corrupt is not None:
        chosen[corrupt[0] % len(chosen)] = corrupt[1]

    if with_i2c:
        buses = [*buses, "i2c1"]
    tower, rest = chosen[:3], chosen[3:]
    cut = 1 + split % len(rest)
    buttons, puck = rest[:cut], rest[cut:] or rest[:1]
    document = {
        "build": {"buses": buses},
        "expanders": {"a": {"address": 0x20}},
        "buttons": {f"b{i}": {"pin": pin} for i, pin in enumerate(buttons)},
        "puck": {"sensors": puck},
        "tower": dict(zip(("green", "amber", "red"), tower)),
    }
    try:
        config = parse_device_config(document)
    except PinMapError as exc:
        assert "\n" not in str(exc)
        return
    used = [pin for _, pin in config.uses()]
    assert len(set(used)) == len(used)  # no pin twice
    bus_pins = {bcm for bus in buses for bcm in BUS_PINS[bus]}
    for pin in used:
        if pin.expander is None:
            assert pin.number in HEADER_PIN and pin.number not in RESERVED and pin.number not in bus_pins
        else:
            assert pin.expander == "a" and 0 <= pin.number <= 15
    assert "i2c1" in buses  # the expander is configured, so its bus must be on
