"""Test-wide settings: hypothesis without deadlines (CI and a busy 2-core machine vary in speed), a cache folder."""

import os
import tempfile

from hypothesis import HealthCheck, settings

# The hand tables' cache (controller/table_cache.py) of the test run, and of the processes it starts: its own
# folder, so a test never reads or writes the user's cache.
os.environ["TABLECTL_CACHE_DIR"] = tempfile.mkdtemp(prefix="tablectl-test-cache-")

settings.register_profile("tablectl", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tablectl")
