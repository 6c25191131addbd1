import sys

sys.stdout.buffer.write(b"\xff\xfe not utf-8\nafter\n")
sys.stdout.flush()
sys.stdin.read()
