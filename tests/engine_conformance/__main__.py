"""`python -m tests.engine_conformance OUT_DIR [SEED] [TOTAL]`: write the phone engine's conformance
cases into OUT_DIR (then `GOLF_ENGINE_CASES=OUT_DIR node --test tests/js/engine.test.js`)."""

import json
import os
import sys
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
django.setup()

from .cases import DEFAULT_SEED, generate  # noqa: E402 - the engine's reference needs Django set up

target = Path(sys.argv[1])
target.mkdir(parents=True, exist_ok=True)
seed = int(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_SEED
total = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
print(json.dumps(generate(target, seed, total), indent=1))
