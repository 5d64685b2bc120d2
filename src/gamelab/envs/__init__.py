"""gamelab's games as reinforcement-learning environments, scored against the exact optimum.

Gymnasium (one player; registered under the ``gamelab/`` namespace when this package is
imported; ``pip install "gamelab[envs]"``):

* ``gamelab/VoltorbFlip-v0`` (``level=``, ``generator=``) - :class:`~gamelab.envs.single.VoltorbFlipEnv`
* ``gamelab/YatzySolitaire-v0`` (``rules=``) - :class:`~gamelab.envs.single.YatzySolitaireEnv`
* ``gamelab/PokemonWordle-v0`` (``names=``, ``rule=``) - :class:`~gamelab.envs.single.PokemonWordleEnv`
* ``gamelab/LatticeFold-v0`` (``sequence=`` or ``level=``) - :class:`~gamelab.envs.single.LatticeFoldEnv`

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


def register() -> None:
    """Register the Gymnasium environments (done on import when gymnasium is installed)."""
    import gymnasium

    for env_id, entry in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry)


try:  # gymnasium is an optional extra
    register()
except ImportError:  # pragma: no cover - without the extra only the classes are missing
    pass
