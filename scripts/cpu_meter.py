"""CPU seconds per stream of `make test`, beside its wall time.

Wall time also counts the time a process waits for a core, which depends on what else the
machine runs (runs of one commit have differed by a third); CPU seconds count only the suite's
own work, so they show whether the suite got cheaper when the machine's load differs. They vary
too: 3,220 and 2,993 CPU s in two runs of the same engine on a nearly idle machine.

    python scripts/cpu_meter.py ROOTS_FILE OUT_FILE &      # started by scripts/test.sh

ROOTS_FILE holds `stream pid` lines, appended by test.sh as it starts each stream (the first
line names the test script itself: every process under it that no other root claims counts for
that stream). Every second the meter reads /proc: each live process is charged to the nearest
registered ancestor, at its user + system CPU so far (a process keeps its last reading after it
exits, so one that lives less than a second, or its last second, is missed). It also reads the
machine's busy CPU from /proc/stat. On SIGTERM it writes OUT_FILE: one line per stream and a
total, then exits. Linux only (it reads /proc); elsewhere it writes that it measured nothing.

Memory, read in the same ticks: the most each stream held resident at once (the sum of its
processes' RSS), and the machine's peak of used memory (MemTotal - MemAvailable) with what each
stream held at that moment, so that a run the kernel's OOM killer stopped says whose memory it was.
"""
from __future__ import annotations

import os
import signal
import sys
import time

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
GIB = 1024 ** 3


def read_roots(path: str) -> dict[int, str]:
    roots = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2 and parts[1].isdigit():
                    roots[int(parts[1])] = parts[0]
    except FileNotFoundError:
        pass
    return roots


def processes() -> dict[int, tuple[int, float, str, int, int]]:
    """pid -> (parent pid, user + system CPU seconds, command name, start time, resident bytes) of
    every live process"""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            # the name is in parentheses and may hold any character, so the fields follow its last ')'
            name = stat[stat.index("(") + 1:stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2:].split()
            # fields[0] is the stat file's 3rd field (state): ppid is its 4th, utime and stime its 14th and 15th
            # the start time (22nd field) tells a process from an earlier one that had its pid; the
            # resident set (24th) is in pages
            out[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK, name, int(fields[19]),
                               int(fields[21]) * PAGE)
        except (OSError, ValueError, IndexError):
            continue  # it exited between the listing and the read
    return out


def machine_busy() -> float:
    """busy CPU seconds of the whole machine since boot (all but idle and iowait)"""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return (sum(values) - values[3] - (values[4] if len(values) > 4 else 0)) / TICK


def machine_used() -> tuple[int, int]:
    """(used, total) bytes of the machine's memory: MemTotal - MemAvailable, MemTotal"""
    info = {}
    with open("/proc/meminfo") as f:
        for line in f:
            name, _, rest = line.partition(":")
            info[name] = int(rest.split()[0]) * 1024
    return info["MemTotal"] - info.get("MemAvailable", info.get("MemFree", 0)), info["MemTotal"]


def stream_of(pid: int, procs: dict, roots: dict[int, str]) -> str | None:
    """the stream of the nearest registered ancestor of `pid` (itself included), or None"""
    seen = set()
    while pid in procs and pid not in seen:
        if pid in roots:
            return roots[pid]
        seen.add(pid)
        pid = procs[pid][0]
    return roots.get(pid)


def main(roots_path: str, out_path: str) -> None:
    if not os.path.isdir("/proc/self"):
        with open(out_path, "w") as f:
            f.write("[cpu] not measured: no /proc on this system\n")
        return
    # (pid, start time) -> (stream, CPU seconds, name): the CPU counters survive an exec (a
    # launcher script becoming `java`), and the start time keeps a reused pid apart
    charged: dict[tuple[int, int], tuple[str, float, str]] = {}
    started, busy_start = time.time(), machine_busy()
    # stream -> the most it held resident at once; the machine's peak: (used, total, seconds in, held per stream)
    held_most: dict[str, int] = {}
    peak: tuple[int, int, float, dict[str, int]] = (-1, 0, 0.0, {})
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    while not stop:
        roots = read_roots(roots_path)
        procs = processes()
        held: dict[str, int] = {}
        for pid, (_, cpu, name, start, resident) in procs.items():
            stream = stream_of(pid, procs, roots)
            if stream is not None and pid != os.getpid():
                charged[(pid, start)] = (stream, cpu, name)
                held[stream] = held.get(stream, 0) + resident
        for stream, resident in held.items():
            held_most[stream] = max(held_most.get(stream, 0), resident)
        used, total = machine_used()
        if used > peak[0]:
            peak = (used, total, time.time() - started, held)
        time.sleep(1)
    wall, busy = time.time() - started, machine_busy() - busy_start
    per_stream: dict[str, dict[str, float]] = {}
    for stream, cpu, name in charged.values():
        kind = "JVM" if name == "java" else "other"
        per_stream.setdefault(stream, {"JVM": 0.0, "other": 0.0})[kind] += cpu
    lines = []
    for stream, kinds in sorted(per_stream.items(), key=lambda kv: -sum(kv[1].values())):
        lines.append(f"[cpu] {stream}: {sum(kinds.values()):,.1f} CPU s (JVM {kinds['JVM']:,.1f}, "
                     f"Python and the rest {kinds['other']:,.1f})")
    total = sum(sum(k.values()) for k in per_stream.values())
    lines.append(f"[cpu] all streams: {total:,.1f} CPU s in {wall:,.0f} s of wall time on {os.cpu_count()} cores; "
                 f"the machine was busy {busy:,.0f} CPU s in that time (other processes included)")
    lines.extend(memory_lines(held_most, peak))
    with open(out_path, "w") as f:
        f.write("\n".join(lines) + "\n")


def memory_lines(held_most: dict[str, int], peak: tuple[int, int, float, dict[str, int]]) -> list[str]:
    """the report's memory lines: each stream's most resident at once, the machine's peak and who held it"""
    if peak[0] < 0:
        return []
    most = ", ".join(f"{stream} {resident / GIB:.1f}" for stream, resident in
                     sorted(held_most.items(), key=lambda kv: -kv[1]))
    at_peak = ", ".join(f"{stream} {resident / GIB:.1f}" for stream, resident in
                        sorted(peak[3].items(), key=lambda kv: -kv[1]))
    return [f"[mem] most resident at once per stream (GiB): {most}",
            f"[mem] machine's peak: {peak[0] / GIB:.1f} of {peak[1] / GIB:.1f} GiB used, {peak[2]:,.0f} s in; "
            f"the streams held (GiB): {at_peak or 'nothing'}"]


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
