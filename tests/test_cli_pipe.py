"""A command whose reader stops reading (`judgescope explain | head -1`) stops quietly with 141,
as a command stopped by SIGPIPE does: before, it printed a BrokenPipeError traceback and called
it "a defect of JudgeScope" (exit 3)."""

import subprocess
import sys
from pathlib import Path

from judgescope.cli import EXIT_READER_GONE

ROOT = Path(__file__).resolve().parents[1]


def test_a_closed_pipe_stops_the_command_quietly():
    proc = subprocess.Popen([sys.executable, "-m", "judgescope", "explain"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first line is written: it must get EPIPE
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == EXIT_READER_GONE == 141
    assert b"Traceback" not in err and b"defect" not in err, err.decode()


def test_a_reader_that_reads_everything_still_gets_exit_0():
    done = subprocess.run([sys.executable, "-m", "judgescope", "explain"], cwd=ROOT, capture_output=True,
                          timeout=120)
    assert done.returncode == 0 and b"audit_record" in done.stdout
