"""Example display contents shared by the docs renderer (tools/render_displays.py) and the reference-image tests.

Which roulette number is red is the caller's knowledge (the controller's); here
the examples simply say it, as the controller would.
"""

from __future__ import annotations

from drivers.displays.sign import ResultMark, SignContent, SpotLimit

ROULETTE = SignContent(
    title="Roulette",
    limits=(SpotLimit("Inside", 1000, 50000), SpotLimit("Outside", 2000, 200000)),
    results=(ResultMark("17", "black"), ResultMark("0", "green"), ResultMark("32", "red"), ResultMark("5", "red"),
             ResultMark("26", "black")),
    currency="kr",
)

BLACKJACK = SignContent(title="Black Jack", limits=(SpotLimit("Box", 5000, 500000),), currency="kr")

TARNING = SignContent(
    title="Tärning",
    limits=(SpotLimit("Under/Över", 1000, 20000),),
    results=(ResultMark("3 5"), ResultMark("6 6"), ResultMark("1 4")),
    results_label="Senaste",
)

SIC_BO = SignContent(
    title="Sic Bo",
    limits=(SpotLimit("Big/Small", 500, 100050),),
    results=(ResultMark("3 5 6"), ResultMark("4 4 2")),
    currency="EUR",
)

PUNTO_BANCO = SignContent(
    title="Punto Banco",
    limits=(SpotLimit("Punto", 5000, 1000000), SpotLimit("Banco", 5000, 1000000), SpotLimit("Tie", 1000, 100000)),
    results=tuple(ResultMark(t) for t in "BPPBTB"),
    currency="kr",
)
