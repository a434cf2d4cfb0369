"""The environment a kernel starts with: an allowlist of the service's own, never a denylist.

A kernel gets only the names it needs to run (PATH, HOME, the locale, the Python and Jupyter
variables that say where things live) and the names the settings list (`kernel_env_allow`).
Anything else the service was started with - `DATABASE_URL`, `SENTRY_DSN`, cloud credentials -
stays with the service. A listed pattern (`AWS_REGION`, `MYAPP_*`) never lets through a name
that looks like a credential unless the setting names it exactly; the service's own variables
(`NBCRITIC_*`, `ANTHROPIC_*`) never pass.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping

# What a kernel needs to start and to behave like the user's Python: paths, locale, terminal,
# where Python, Jupyter and matplotlib keep their files, thread counts of numeric libraries.
KERNEL_NEEDS = (
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "LC_*", "TZ", "TERM", "TMPDIR",
    "PYTHONPATH", "PYTHONHOME", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONHASHSEED",
    "VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "LD_LIBRARY_PATH",
    "JUPYTER_PATH", "JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR",
    "IPYTHONDIR", "MPLBACKEND", "MPLCONFIGDIR",
    "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_MAX_THREADS",
)

_SECRET_NAME = re.compile(r"(API_KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_KEY|DSN)",
                          re.IGNORECASE)
_SERVICE_PREFIXES = ("NBCRITIC_", "ANTHROPIC_")


def _matches(name: str, pattern: str) -> bool:
    if pattern.endswith("*"):
        return name.startswith(pattern[:-1])
    return name == pattern


def allowed(name: str, allow: Iterable[str], deny: Iterable[str] = ()) -> bool:
    """Whether `name` reaches a kernel, given the settings' extra names and denied names."""
    extra = list(allow)
    if name in set(deny) or name.startswith(_SERVICE_PREFIXES):
        return False
    if name in extra:
        return True  # named exactly: the operator's explicit choice
    if _SECRET_NAME.search(name):
        return False
    return any(_matches(name, p) for p in (*KERNEL_NEEDS, *extra))


def kernel_environment(
    allow: Iterable[str] = (),
    deny: Iterable[str] = (),
    base: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The allowed part of `base` (default: this process's environment)."""
    env = os.environ if base is None else base
    extra, denied = list(allow), list(deny)
    return {name: value for name, value in env.items() if allowed(name, extra, denied)}


def scrubbed_environment(
    extra_denied: Iterable[str] = (), base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The default kernel environment (kept for callers that start kernels directly)."""
    return kernel_environment((), extra_denied, base)
