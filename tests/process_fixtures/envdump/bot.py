import json
import os
import sys

try:
    import arena.sdk  # noqa: F401

    sdk = "ok"
except Exception as exc:
    sdk = repr(exc)
print(json.dumps({"env": dict(os.environ), "cwd": os.getcwd(), "sdk": sdk}), flush=True)
sys.stdin.read()
