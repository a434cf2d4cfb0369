"""What `nbcritic serve` and `nbcritic run` leave unimported, set before anything else loads.

jsonschema (which nbformat imports) loads `rfc3987_syntax` when it is installed and builds its
IRI grammar on import: ~0.9 s of start-up, about a third of the service's imports. Only
jsonschema's `iri` format checks use it; nbformat validates with fastjsonschema and its
schemas have no `iri` format, and nothing else in the service checks IRIs. A `None` entry in
`sys.modules` makes the import fail, which jsonschema treats as "not installed". Only the
command line does this: the magics and the pytest plugin run in the user's own process and
change nothing there.
"""

from __future__ import annotations

import sys

SKIPPED = ("rfc3987_syntax",)


def skip_unused_imports() -> None:
    for name in SKIPPED:
        # None in sys.modules makes `import name` fail (the import system's documented
        # block); typeshed types the values as modules only
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]
