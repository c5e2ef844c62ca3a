"""Camera vision: frame sources, still gate, dice and roulette readers, calibration, synthetic scenes."""
