"""The paint room's world vocabulary, pure like all of `controller.world`: its placement
(`geometry.py`: canvas, target copy, brushes) and its brush pictures (`art.py`).
"""
