import sys

print("bye", flush=True)
sys.stderr.write("quitter: leaving with status 3\n")
sys.exit(3)
