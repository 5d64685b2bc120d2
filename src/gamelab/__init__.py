"""gamelab: solve, simulate and generate small games, and show the work."""

from typing import Any

from gamelab import numba_hook


def _stamp_kernels() -> None:
    from gamelab import kernel_cache

    kernel_cache.install()


# Before any kernel is decorated: cached kernels notice changes in the files they depend on.
numba_hook.when_imported(_stamp_kernels)
# Loading a cached kernel need not import scipy.linalg (no kernel uses BLAS): see the function.
numba_hook.defer_scipy_linalg()
# Nor need it build numba's typing and lowering registries: only a compilation does.
numba_hook.defer_registries()
# A kernel that another calls with a constant is compiled once, not again for the constant.
numba_hook.share_specialisations()
# A kernel's large callees, optimised already, are not optimised again inside it.
numba_hook.link_large_callees_late()
# A kernel whose callees a second process compiles (core.ahead) waits for them, then loads them.
numba_hook.wait_for_kernels_compiled_ahead()


def __getattr__(name: str) -> Any:
    """``__version__``, read from the installed metadata on first use (importlib.metadata costs
    a tenth of a second that ``gamelab --help`` need not pay)."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("gamelab")
        except PackageNotFoundError:  # running from a source tree without installation
            found = "0.0.0+unknown"
        globals()["__version__"] = found
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The game packages, in the order the command line and the report list them (each described
#: once in :mod:`gamelab.games`).
from gamelab.games import GAMES  # noqa: E402

__all__ = ["GAMES"]
