"""The pipes room (tree and sink modes): lifecycle and play (`room.py`), what differs between
the modes (`mode.py`), reading the room back and repairing it (`reconciler.py`), the tamper
guard (`guard.py`), which turn an undo takes back (`undo.py`) and the state rebuilt from the
frames (`recover.py`).

The daemon and the admin commands reach it only through the room interface
(`controller/runtime/room.py`); `make_room` there picks it for `kind: pipes`.
"""
