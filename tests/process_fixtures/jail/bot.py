# Reports, as one JSON line, what it could reach: a TCP port on 127.0.0.1, the network
# interfaces, and which of the given paths it could write a file into.
import json
import os
import socket
import sys

request = json.loads(sys.stdin.readline())
report = {"interfaces": [name for _, name in socket.if_nameindex()]}
try:
    with socket.create_connection(("127.0.0.1", request["port"]), timeout=2):
        report["connect"] = "connected"
except OSError as exc:
    report["connect"] = type(exc).__name__
writable = {}
for folder in request["paths"] + [os.getcwd(), os.environ["TMPDIR"], "/tmp"]:
    try:
        with open(os.path.join(folder, "jail-probe.txt"), "w") as f:
            f.write("escaped")
        writable[folder] = True
    except OSError:
        writable[folder] = False
report["writable"] = writable
print(json.dumps(report), flush=True)
sys.stdin.read()
