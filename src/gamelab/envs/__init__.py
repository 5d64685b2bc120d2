"""gamelab's games as reinforcement-learning environments, scored against the exact optimum.

Gymnasium (one player; registered under the ``gamelab/`` namespace when this package is
imported; ``pip install "gamelab[envs]"``):

* ``gamelab/VoltorbFlip-v0`` (``level=``, ``generator=``) - :class:`~gamelab.envs.single.VoltorbFlipEnv`
* ``gamelab/YatzySolitaire-v0`` (``rules=``) - :class:`~gamelab.envs.single.YatzySolitaireEnv`
* ``gamelab/PokemonWordle-v0`` (``names=``, ``rule=``) - :class:`~gamelab.envs.single.PokemonWordleEnv`
* ``gamelab/LatticeFold-v0`` (``sequence=`` or ``level=``) - :class:`~gamelab.envs.single.LatticeFoldEnv`

Native vector environments (N games in one numba call, Gymnasium's ``VectorEnv``) for Voltorb
and Yatzy: ``gymnasium.make_vec("gamelab/VoltorbFlip-v0", num_envs=N,
vectorization_mode="vector_entry_point")`` - :mod:`gamelab.envs.vector`.

PettingZoo (two players, AEC): :func:`gamelab.envs.multi.oware_env` and
:func:`gamelab.envs.multi.yatzy_duel_env`.

Every environment is a shell over the game's state protocol (``gamelab.<game>.state``) and its
oracle (``gamelab.<game>.oracle``): ``info["regret"]`` says what the last action cost against
optimal play. See docs/envs.md.

    >>> import gymnasium, gamelab.envs  # doctest: +SKIP
    >>> env = gymnasium.make("gamelab/YatzySolitaire-v0", rules="yatzy")  # doctest: +SKIP
    >>> obs, info = env.reset(seed=1)  # doctest: +SKIP
"""

from __future__ import annotations

ENV_IDS = {
    "gamelab/VoltorbFlip-v0": "gamelab.envs.single:VoltorbFlipEnv",
    "gamelab/YatzySolitaire-v0": "gamelab.envs.single:YatzySolitaireEnv",
    "gamelab/PokemonWordle-v0": "gamelab.envs.single:PokemonWordleEnv",
    "gamelab/LatticeFold-v0": "gamelab.envs.single:LatticeFoldEnv",
}


#: the native vector environments (``gymnasium.make_vec(..., vectorization_mode=
#: "vector_entry_point")``; :mod:`gamelab.envs.vector`)
VECTOR_ENTRY_POINTS = {
    "gamelab/VoltorbFlip-v0": "gamelab.envs.vector:VoltorbFlipVectorEnv",
    "gamelab/YatzySolitaire-v0": "gamelab.envs.vector:YatzySolitaireVectorEnv",
}


def register() -> None:
    """Register the Gymnasium environments (done on import when gymnasium is installed)."""
    import gymnasium

    for env_id, entry in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id, entry_point=entry, vector_entry_point=VECTOR_ENTRY_POINTS.get(env_id)
            )


try:  # gymnasium is an optional extra
    register()
except ImportError:  # pragma: no cover - without the extra only the classes are missing
    pass
