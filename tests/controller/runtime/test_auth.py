import pytest

from controller.runtime.auth import ConsoleUser, Lockout, PinFormatError, check_pin_hash, hash_pin, verify_pin


def test_pins_are_salted_scrypt_hashes():
    first, second = hash_pin("1234"), hash_pin("1234")
    assert first != second and first.startswith("scrypt$16384$8$1$") and "1234" not in first
    assert verify_pin("1234", first) and verify_pin("1234", second)
    assert not verify_pin("1235", first)


@pytest.mark.parametrize("pin", ["", "12", "abcd", "1234567890123", "12 34"])
def test_pins_are_four_to_twelve_digits(pin):
    with pytest.raises(ValueError):
        hash_pin(pin)


@pytest.mark.parametrize("stored", ["1234", "scrypt$1$2$3$salt", "sha1$1$1$1$AA==$AA==", "scrypt$a$8$1$AA==$AA==",
                                    "scrypt$16384$8$1$!!$AA=="])
def test_malformed_stored_hashes_are_refused(stored):
    with pytest.raises(PinFormatError):
        check_pin_hash(stored)
    with pytest.raises(ValueError):
        ConsoleUser("x", "technician", stored)


def test_roles_are_checked():
    with pytest.raises(ValueError, match="role"):
        ConsoleUser("x", "janitor", hash_pin("1234"))


def test_lockout_after_five_failures_for_five_minutes():
    book = Lockout()
    for i in range(4):
        assert not book.failed("eva", 100.0 + i)
    assert book.failed("eva", 104.0)
    assert book.locked_for("eva", 104.0) == 300.0
    assert book.locked_for("eva", 403.9) > 0
    assert book.locked_for("eva", 404.0) == 0
    assert book.locked_for("bo", 104.0) == 0
    book.failed("bo", 0)
    book.succeeded("bo")
    for i in range(4):
        assert not book.failed("bo", i)
