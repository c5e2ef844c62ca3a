"""Test-wide settings: hypothesis without deadlines (CI and a busy 2-core machine vary in speed)."""

from hypothesis import HealthCheck, settings

settings.register_profile("tablectl", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tablectl")
