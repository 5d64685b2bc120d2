"""The standard HP folding benchmarks, with their best known numbers of HH contacts.

2D (square lattice): the set S1-1 ... S1-11 of Thachuk, Shmygelska & Hoos (BMC Bioinformatics
8:342, 2007, Table 1; lengths 20-100; best known energies -9, -9, -8, -14, -23, -21, -36, -42,
-53, -48, -50), going back to Unger & Moult (J. Mol. Biol. 231:75, 1993) and used by Hsu et al.
(nPERMis, J. Chem. Phys. 118:444, 2003). Sequences as in the research notes
(``shared/research/lattice.md``, section 2), checked against three independent public lists; the
short 18- and 20-mers of that table (exact optima verified here by enumeration) keep the
length-based names of the earlier ``fold`` command, and every benchmark is also reachable by its
length name (``S1-36``, ``S1-100a``).

3D (cubic lattice): the ten "Harvard" 48-mers of Yue, Fiebig, Thomas, Chan, Shakhnovich & Dill
(PNAS 92:325, 1995), 24 H each, best known energies -32, -34, -34, -33, -32, -32, -32, -31, -34,
-33 (proved optimal there by CHCC; reached by REMC in Thachuk et al. 2007), named ``H48-1`` ...
``H48-10`` in Yue et al.'s order.

Every length and H count is pinned by a test (``tests/lattice/test_lattice_replica.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from gamelab.lattice.rules import Chain, Lattice


@dataclass(frozen=True)
class Benchmark:
    name: str
    sequence: Chain
    lattice: Lattice
    best_known: int  # most HH contacts known (= -energy)
    aliases: tuple[str, ...] = ()


_2D = [
    ("S1-1", "HPHPPHHPHPPHPHHPPHPH", 9, ("S1-20", "S1-20a")),
    ("S1-2", "HHPPHPPHPPHPPHPPHPPHPPHH", 9, ("S1-24",)),
    ("S1-3", "PPHPPHHPPPPHHPPPPHHPPPPHH", 8, ("S1-25",)),
    ("S1-4", "PPPHHPPHHPPPPPHHHHHHHPPHHPPPPHHPPHPP", 14, ("S1-36",)),
    ("S1-5", "PPHPPHHPPHHPPPPPHHHHHHHHHHPPPPPPHHPPHHPPHPPHHHHH", 23, ("S1-48",)),
    ("S1-6", "HHPHPHPHPHHHHPHPPPHPPPHPPPPHPPPHPPPHPHHHHPHPHPHPHH", 21, ("S1-50",)),
    ("S1-7", "PPHHHPHHHHHHHHPPPHHHHHHHHHHPHPPPHHHHHHHHHHHHPPPPHHHHHHPHHPHP", 36, ("S1-60",)),
    (
        "S1-8",
        "HHHHHHHHHHHHPHPHPPHHPPHHPPHPPHHPPHHPPHPPHHPPHHPPHPHPHHHHHHHHHHHH",
        42,
        ("S1-64",),
    ),
    (
        "S1-9",
        "HHHHPPPPHHHHHHHHHHHHPPPPPPHHHHHHHHHHHHPPPHHHHHHHHHHHHPPPHHHHHHHHHHHHPPPHPPHHPPHHPPHPH",
        53,
        ("S1-85",),
    ),
    (
        "S1-10",
        "PPPPPPHPHHPPPPPHHHPHHHHHPHHPPPPHHPPHHPHHHHHPHHHHHHHHHHPHHPHHHHHHHPPPPPPPPPPPHHHHHHHPPHP"
        "HHHPPPPPPHPHH",
        48,
        ("S1-100a",),
    ),
    (
        "S1-11",
        "PPPHHPPHHHHPPHHHPHHPHHPHHHHPPPPPPPPHHHHHHPPHHHHHHPPPPPPPPPHPHHPHHHHHHHHHHHPPHHHPHHPHPP"
        "HPHHHPPPPPPHHH",
        50,
        ("S1-100b",),
    ),
]

#: The earlier fold command's short 2D chains (research notes; exact optima by enumeration).
_SHORT_2D = [
    ("S1-18a", "HHPPPPPHHPPPHPPPHP", 4),
    ("S1-18b", "HPHPHHHPPPHHHHPPHH", 8),
    ("S1-18c", "PHPPHPHHHPHHPHHHHH", 9),
    ("S1-20b", "HHHPPHPHPHPPHPHPHPPH", 10),
]

_3D = [
    "HPHHPPHHHHPHHHPPHHPPHPHHHPHPHHPPHHPPPHPPPPPPPPHH",
    "HHHHPHHPHHHHHPPHPPHHPPHPPPPPPHPPHPPPHPPHHPPHHHPH",
    "PHPHHPHHHHHHPPHPHPPHPHHPHPHPPPHPPHHPPHHPPHPHPPHP",
    "PHPHHPPHPHHHPPHHPHHPPPHHHHHPPHPHHPHPHPPPPHPPHPHP",
    "PPHPPPHPHHHHPPHHHHPHHPHHHPPHPHPHPPHPPPPPPHHPHHPH",
    "HHHPPPHHPHPHHPHHPHHPHPPPPPPPHPHPPHPPPHPPHHHHHHPH",
    "PHPPPPHPHHHPHPHHHHPHHPHHPPPHPHPPPHHHPPHHPPHHPPPH",
    "PHHPHHHPHHHHPPHHHPPPPPPHPHHPPHHPHPPPHHPHPHPHHPPP",
    "PHPHPPPPHPHPHPPHPHHHHHHPPHHHPHPPHPHHPPHPHHHPPPPH",
    "PHHPPPPPPHHPPPHHHPHPPHPHHPPHPPHPPHHPPHHHHHHHPPHH",
]
_3D_BEST = [32, 34, 34, 33, 32, 32, 32, 31, 34, 33]

#: The standard benchmarks of issue 27, in table order: 2D S1-1 ... S1-11, then 3D H48-1 ... 10.
STANDARD: tuple[Benchmark, ...] = tuple(
    [
        Benchmark(name, Chain(seq, name=name), Lattice.SQUARE, best, aliases)
        for name, seq, best, aliases in _2D
    ]
    + [
        Benchmark(f"H48-{k + 1}", Chain(seq, name=f"H48-{k + 1}"), Lattice.CUBIC, best)
        for k, (seq, best) in enumerate(zip(_3D, _3D_BEST, strict=True))
    ]
)

#: Every named benchmark (the standard ones and the short 2D chains).
ALL: tuple[Benchmark, ...] = STANDARD + tuple(
    Benchmark(name, Chain(seq, name=name), Lattice.SQUARE, best) for name, seq, best in _SHORT_2D
)

_BY_NAME = {alias.upper(): b for b in ALL for alias in (b.name, *b.aliases)}


def benchmark_names() -> list[str]:
    """The primary names, in table order."""
    return [b.name for b in ALL]


def get_benchmark(name: str) -> Benchmark:
    """The benchmark called `name` (or one of its length aliases, any case); a ValueError that
    lists the known names otherwise."""
    found = _BY_NAME.get(name.strip().upper())
    if found is None:
        raise ValueError(f"unknown benchmark {name!r}; known: {', '.join(benchmark_names())}")
    return found


def looks_like_name(text: str) -> bool:
    """Whether `text` is meant as a benchmark name rather than an HP sequence (it has a character
    other than H and P)."""
    return any(c not in "HPhp" for c in text.strip())


def parse_chain(text: str, *, min_length: int = 2) -> Chain:
    """The chain a command's argument names: an HP sequence (:class:`.rules.Chain`: at least
    `min_length` residues), or a benchmark's name or length alias, any case (``S1-36``: the
    chain of ``S1-4``, its ``name``). Anything that is not only H and P is taken for a name, and
    an unknown name is a ValueError that lists the known ones.

    >>> c = parse_chain("s1-36"); c.name, c.length
    ('S1-4', 36)
    """
    if looks_like_name(text):
        return get_benchmark(text).sequence
    return Chain(text, min_length=min_length)


def find_benchmark(sequence: str, lattice: Lattice) -> Benchmark | None:
    """The benchmark with this sequence on this lattice, if any."""
    return next((b for b in ALL if b.sequence == sequence and b.lattice == lattice), None)
