"""The scipy reference scripts' one preamble: if numpy or scipy is not importable, re-run the
calling script under a venv at /tmp/scipy-venv that has them (made on first use)."""
import os
import subprocess
import sys

VENV = "/tmp/scipy-venv"


def ensure_scipy():
    try:
        import numpy  # noqa: F401
        import scipy  # noqa: F401
    except ImportError:
        py = os.path.join(VENV, "bin", "python")
        if not os.path.exists(py):
            subprocess.check_call([sys.executable, "-m", "venv", VENV])
            subprocess.check_call([py, "-m", "pip", "install", "-q", "scipy", "numpy"])
        os.execv(py, [py] + sys.argv)
