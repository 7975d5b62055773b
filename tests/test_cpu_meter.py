"""scripts/cpu_meter.py: the CPU a stream's processes burn is charged to that stream, once."""
from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BURN = "import time\nend = time.process_time() + {seconds}\nwhile time.process_time() < end: pass\n"


def charged_by_stream(report: str) -> dict[str, tuple[float, float]]:
    """stream -> (CPU seconds, of which JVM) from the meter's report"""
    found = re.findall(r"\[cpu\] (\S+): ([\d,.]+) CPU s \(JVM ([\d,.]+)", report)
    return {name: (float(total.replace(",", "")), float(jvm.replace(",", ""))) for name, total, jvm in found}


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="the meter reads Linux's /proc")
def test_cpu_is_charged_to_the_stream_of_the_process_tree(tmp_path):
    roots, out = tmp_path / "roots.txt", tmp_path / "cpu.txt"
    roots.write_text("")
    meter = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "cpu_meter.py"), str(roots), str(out)])
    # a stream whose CPU is spent by a grandchild (as a Spark JVM under pytest), and an idle one
    busy = subprocess.Popen([sys.executable, "-c", "import subprocess, sys; subprocess.run([sys.executable, '-c', "
                             + repr(BURN.format(seconds=2.5)) + "])"])
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(4)"])
    # a stream that holds 300 MiB resident for 3 s (written, so that the pages are resident)
    holder = subprocess.Popen([sys.executable, "-c", "import time; held = bytearray(300 * 2 ** 20); "
                               "held[::4096] = b'x' * len(held[::4096]); time.sleep(3)"])
    # a process that burns 1.5 s, then replaces itself (exec, as a launcher script becomes `java`)
    # by a program named java that burns 1.5 s more: its CPU counters carry over and count once
    java = tmp_path / "java"
    java.symlink_to(sys.executable)
    launcher = subprocess.Popen([sys.executable, "-c", BURN.format(seconds=1.5)
                                 + f"import os\nos.execv({str(java)!r}, ['java', '-c', {BURN.format(seconds=1.5)!r}])"])
    with roots.open("a") as f:
        f.write(f"busy {busy.pid}\nidle {idle.pid}\nlauncher {launcher.pid}\nholder {holder.pid}\n")
    for process in (busy, idle, launcher, holder):
        process.wait()
    time.sleep(1.5)
    meter.send_signal(signal.SIGTERM)
    assert meter.wait(timeout=10) == 0
    report = out.read_text()
    charged = charged_by_stream(report)
    # the grandchild burned 2.5 s; the meter misses its last second (more when the machine is busy)
    assert charged["busy"][0] >= 1.2, report
    assert charged.get("idle", (0, 0))[0] < 0.5, report
    # 3 s in all, counted once (the reading before the exec is not added to the one after it), and
    # the part spent as `java` is the JVM's
    assert 1.6 <= charged["launcher"][0] <= 3.2 and charged["launcher"][1] >= 0.4, report
    assert "all streams:" in report, report
    # memory: the stream's most resident at once, and the machine's peak with what the streams held then
    most = dict(re.findall(r"(\S+) ([\d.]+)", report.split("per stream (GiB): ", 1)[1].split("\n", 1)[0]))
    assert 0.25 <= float(most["holder"]) < 1.0 and float(most["idle"]) < 0.1, report
    peak = r"\[mem\] machine's peak: [\d.]+ of [\d.]+ GiB used, [\d,]+ s in; the streams held"
    assert re.search(peak, report), report
