"""Ship Owaré's default endgame table (gamelab/oware/data/tablebase-<key>.xz).

    python tools/make_oware_tablebase.py

Builds the table to ``SHIPPED_SEEDS`` seeds afresh (``gamelab.oware.tablebase.compute_tablebase``,
a few CPU-seconds) and writes its values, levels 0 up, one int8 each, xz-compressed. The engine
then loads it instead of building it on its first search; ``tests/oware/test_oware_tablebase.py``
compares the file with a fresh build.
"""

import lzma

from gamelab.core.files import write_bytes_atomic
from gamelab.oware.tablebase import SHIPPED_SEEDS, compute_tablebase, shipped_tablebase_path


def main() -> None:
    values = compute_tablebase(SHIPPED_SEEDS)["values"]
    path = shipped_tablebase_path()
    write_bytes_atomic(path, lzma.compress(values.tobytes(), preset=9 | lzma.PRESET_EXTREME))
    print(f"{path.name}: {values.size:,} boards, {path.stat().st_size:,} bytes", flush=True)


if __name__ == "__main__":
    main()
