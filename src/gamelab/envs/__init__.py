"""gamelab's games as reinforcement-learning environments, scored against the exact optimum.

Gymnasium (one player; registered under the ``gamelab/`` namespace when this package is
imported; ``pip install "gamelab[envs]"``):

* ``gamelab/VoltorbFlip-v0`` (``level=``, ``generator=``) - :class:`~gamelab.envs.single.VoltorbFlipEnv`
* ``gamelab/YatzySolitaire-v0`` (``rules=``) - :class:`~gamelab.envs.single.YatzySolitaireEnv`
* ``gamelab/PokemonWordle-v0`` (``names=``, ``rule=``) - :class:`~gamelab.envs.single.PokemonWordleEnv`;
  ``gamelab/PokemonWordle-v1`` the same with ``repeats=False`` (a guess already made is masked)
* ``gamelab/LatticeFold-v0`` (``sequence=`` or ``level=``) - :class:`~gamelab.envs.single.LatticeFoldEnv`

Native vector environments (N games in one numba call, Gymnasium's ``VectorEnv``) for Voltorb
and Yatzy: ``gymnasium.make_vec("gamelab/VoltorbFlip-v0", num_envs=N,
vectorization_mode="vector_entry_point")`` - :mod:`gamelab.envs.vector`.

PettingZoo (two players, AEC): :func:`aec_env` (``aec_env("oware")``, ``aec_env("yatzy")``,
also :func:`gamelab.envs.multi.oware_env` and :func:`gamelab.envs.multi.yatzy_duel_env`).

Every id and class comes from the games' records (:class:`gamelab.core.state.GameInfo`:
``envs``, ``gym_env``, ``vector_env``, ``aec_env``, and ``view`` for the generic classes), so a
game registered with ids and a view gets its environments with nothing else to write
(DEVELOPERS.md, "Adding a game").

Every environment is a shell over the game's state protocol (``gamelab.<game>.state``) and its
oracle (``gamelab.<game>.oracle``): ``info["regret"]`` says what the last action cost against
optimal play. See docs/envs.md.

    >>> import gymnasium, gamelab.envs  # doctest: +SKIP
    >>> env = gymnasium.make("gamelab/YatzySolitaire-v0", rules="yatzy")  # doctest: +SKIP
    >>> obs, info = env.reset(seed=1)  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

#: the generic classes, for a game whose record names none of its own
GENERIC_GYM_ENV = "gamelab.envs.gym_env:ProtocolEnv"
GENERIC_AEC_ENV = "gamelab.envs.multi:ProtocolAEC"


def env_ids() -> dict[str, str]:
    """Every registered game's Gymnasium ids (its record's ``envs``) with their entry points
    (the record's ``gym_env``, else :data:`GENERIC_GYM_ENV`), in the registry's order."""
    from gamelab.core.state import registered_games

    return {
        env_id: info.gym_env or GENERIC_GYM_ENV
        for info in registered_games()
        for env_id in info.envs
    }


#: the package's own ids (``env_ids()`` also has those of games registered since)
ENV_IDS = env_ids()


def register() -> None:
    """Register the Gymnasium environments of every registered game (done on import when
    gymnasium is installed; call it again after registering a game of your own): each id of a
    record's ``envs`` with its ``gym_env`` class, or :class:`~gamelab.envs.gym_env.ProtocolEnv`
    over the record (``game=`` its name), and its ``vector_env`` for ``gymnasium.make_vec(...,
    vectorization_mode="vector_entry_point")``."""
    import gymnasium

    from gamelab.core.state import registered_games

    for info in registered_games():
        for env_id in info.envs:
            if env_id in gymnasium.registry:
                continue
            kwargs = {} if info.gym_env else {"game": info.name}
            kwargs.update(info.env_kwargs.get(env_id, {}))
            gymnasium.register(
                id=env_id,
                entry_point=info.gym_env or GENERIC_GYM_ENV,
                vector_entry_point=info.vector_env or None,
                kwargs=kwargs,
            )


def aec_env(game: str, **kwargs: Any) -> Any:
    """The PettingZoo AEC environment of the registered game `game` (of two players): its
    record's ``aec_env`` class, else :class:`~gamelab.envs.multi.ProtocolAEC` over the record;
    keyword arguments as the class takes them (the game's settings among them)."""
    from gamelab.core.state import game_info, load

    info = game_info(game)
    if info.players[1] < 2:
        raise ValueError(f"{info.title} is a game of one player: use its Gymnasium environment")
    if info.aec_env:
        return load(info.aec_env)(**kwargs)
    return load(GENERIC_AEC_ENV)(game, **kwargs)


try:  # gymnasium is an optional extra
    register()
except ImportError:  # pragma: no cover - without the extra only the classes are missing
    pass
