"""scripts/cpu_meter.py: the CPU a stream's processes burn is charged to that stream."""
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


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="the meter reads Linux's /proc")
def test_cpu_is_charged_to_the_stream_of_the_process_tree(tmp_path):
    roots, out = tmp_path / "roots.txt", tmp_path / "cpu.txt"
    roots.write_text("")
    meter = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "cpu_meter.py"), str(roots), str(out)])
    # a stream whose CPU is spent by a grandchild (as a Spark JVM under pytest), and an idle one
    busy = subprocess.Popen([sys.executable, "-c", "import subprocess, sys; subprocess.run([sys.executable, '-c', "
                             + repr(BURN.format(seconds=2.5)) + "])"])
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(4)"])
    with roots.open("a") as f:
        f.write(f"busy {busy.pid}\nidle {idle.pid}\n")
    busy.wait()
    idle.wait()
    time.sleep(1.5)
    meter.send_signal(signal.SIGTERM)
    assert meter.wait(timeout=10) == 0
    report = out.read_text()
    charged = {m[0]: float(m[1].replace(",", "")) for m in re.findall(r"\[cpu\] (\S+): ([\d,.]+) CPU s", report)}
    # the grandchild burned 2.5 s; the meter misses at most its last second
    assert charged["busy"] >= 1.4, report
    assert charged.get("idle", 0) < 0.5, report
    assert "all streams:" in report, report
