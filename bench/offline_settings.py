"""Settings for the offline app's timing benchmarks (bench/offline_save.py, bench/offline_sync.py).

The benchmarks' settings (bench/settings.py: production settings, abuse limits off) with static
files served from the source folders by WhiteNoise's finders, as bench/served_settings.py does for
the tests that serve the app with gunicorn: a phone's first visit downloads them (the service worker
stores them) and the benchmark has no `collectstatic` step (about 90 s of CPU for the compressed
manifest, which does not change what the page runs).
"""

from bench.settings import *  # noqa: F403

WHITENOISE_USE_FINDERS = True
