"""The paint room: lifecycle and strokes (`room.py`), its state file (`state.py`) and the state
rebuilt from its blocks (`recover.py`).

The daemon and the admin commands reach it only through the room interface
(`controller/runtime/room.py`); `make_room` there picks it for `kind: paint`.
"""
