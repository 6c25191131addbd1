import sys

size = int(sys.stdin.readline())
sys.stderr.write("a" * (size - 4) + "END\n")
sys.stderr.flush()
print("done", flush=True)
sys.stdin.read()
