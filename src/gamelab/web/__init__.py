"""The web app (``gamelab serve``): a second thin shell over the same library as the CLI.

:mod:`~gamelab.web.app` (the FastAPI app factory, pages, errors, limits),
:mod:`~gamelab.web.common` (what a game router uses), :mod:`~gamelab.web.pool` (solver
processes with a time budget and a labelled fallback), :mod:`~gamelab.web.server` (the command),
``api/<game>.py`` (one thin router per game), ``templates/`` and ``static/`` (pages, no build step).
"""
