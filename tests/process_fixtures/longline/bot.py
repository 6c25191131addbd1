import sys

sys.stdout.buffer.write(b"x" * (10 * 1024 * 1024) + b"\nafter\n")
sys.stdout.flush()
sys.stdin.read()
