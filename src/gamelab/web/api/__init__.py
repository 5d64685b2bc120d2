"""One router per game: ``gamelab.web.api.<game>`` defines ``router`` and ``PAGE``."""
