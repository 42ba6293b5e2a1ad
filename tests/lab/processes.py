"""The processes a test's command started, as Linux's `/proc` lists them."""

import contextlib
import os
import time


def _listed():
    """(pid, state, parent, process group, command line) of every process."""
    for pid in os.listdir("/proc"):
        with contextlib.suppress(OSError, ValueError):
            with open(f"/proc/{pid}/stat") as handle:
                state, parent, group = handle.read().rsplit(")", 1)[1].split()[:3]
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                line = handle.read().replace(b"\0", b" ").decode(errors="replace")
            yield int(pid), state, int(parent), int(group), line


def pool_workers(parent):
    """The process pool's workers of `parent` (not its resource tracker)."""
    return [
        pid
        for pid, _, parent_of, _, line in _listed()
        if parent_of == parent and "spawn_main" in line
    ]


def left_in_group(group, seconds):
    """[] once no process of the process group `group` is left, within
    `seconds`; else "pid state command" of each process left."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return []
        time.sleep(0.1)
    left = [
        f"{pid} {state} {line[:80]}"
        for pid, state, _, in_group, line in _listed()
        if in_group == group
    ]
    return left or ["(killpg finds the group, /proc does not)"]
