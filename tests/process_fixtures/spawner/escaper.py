# A process that tries to outlive the bot: ignores SIGTERM/SIGHUP, and as "child" starts a
# grandchild in a new session that double-forks so that its parent is no longer the bot's tree.
import os
import signal
import subprocess
import sys
import time

role, token = sys.argv[1], sys.argv[2]
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
if role == "child":
    subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "grandchild", token],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
elif role == "grandchild":
    if os.fork() > 0:
        os._exit(0)
    os.setsid()
    # Announce the finished escape in the command line, where the test looks for it.
    os.execv(sys.executable, [sys.executable, os.path.abspath(__file__), "escaped", token])
while True:
    time.sleep(1)
