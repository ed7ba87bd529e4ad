#!/usr/bin/python3
"""hold-lock.py DB READY: holds an exclusive SQLite transaction on DB (another process
locking the profile database) and touches READY once it holds it; runs until killed."""
import sqlite3
import sys
import time

db, ready = sys.argv[1], sys.argv[2]
conn = sqlite3.connect(db, isolation_level=None, timeout=5)
conn.execute("BEGIN EXCLUSIVE")
open(ready, "w").close()
while True:
    time.sleep(1)
