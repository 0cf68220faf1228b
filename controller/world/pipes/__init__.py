"""The pipes room's own world vocabulary, pure like all of `controller.world`: the block map's
shadow compare (`blockcheck.py`) and a board composed of its tile pictures (`boardart.py`).

The floor geometry, the command builders and the tile pictures are shared with the other kinds
and stay in `controller.world`.
"""
