"""The admin side: requests carried out by the running daemon or directly (`actions.py`),
`pipesctl doctor` (`doctor.py`) and `pipesctl status` (`status.py`).

It sits above the daemon and the rooms: nothing else of `controller.runtime` imports it.
"""
