# Reserves 8 GB in 256 MB blocks. bytes(n) maps zero pages without touching them, so even if
# the memory limit failed this would not take real memory from the machine.
import sys

sys.stdin.readline()
blocks = [bytes(256 << 20) for _ in range(32)]
print("allocated", len(blocks), flush=True)
sys.stdin.read()
