"""The LED bet-limit sign and the jackpot display (MAX7219 via luma), and a renderer for docs and tests.

Both drivers take a desired state (``Sign.show(SignContent)``,
``JackpotDisplay.show(amount, state)``) and draw it as a 1-bit image on a luma
device: ``luma.led_matrix.device.max7219`` on an SPI interface without a GPIO
dependency on the Pi, luma's ``dummy`` device in tests and the simulator.
Animation (paging, scrolling, rolling, alternating) is a pure function of the
time since the content was shown, so a frame at time t is always the same.
"""
