import sys
import time

sys.stdin.readline()
time.sleep(30)
print("too late", flush=True)
