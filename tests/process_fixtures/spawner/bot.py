# Reads a token, starts escaper.py (which starts a grandchild that leaves the session and
# double-forks), says "spawned", then waits for stdin to close.
import os
import subprocess
import sys

token = sys.stdin.readline().strip()
here = os.path.dirname(os.path.abspath(__file__))
subprocess.Popen([sys.executable, os.path.join(here, "escaper.py"), "child", token])
print("spawned", flush=True)
sys.stdin.read()
