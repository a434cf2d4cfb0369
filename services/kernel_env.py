"""The environment a kernel starts with: the service's own, minus its secrets."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping

# Names that look like credentials never reach user code.
_SECRET_NAME = re.compile(r"(API_KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)", re.IGNORECASE)
_SERVICE_PREFIXES = ("NBCRITIC_", "ANTHROPIC_")


def scrubbed_environment(
    extra_denied: Iterable[str] = (), base: Mapping[str, str] | None = None
) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    denied = set(extra_denied)
    return {
        name: value
        for name, value in env.items()
        if name not in denied
        and not name.startswith(_SERVICE_PREFIXES)
        and not _SECRET_NAME.search(name)
    }
