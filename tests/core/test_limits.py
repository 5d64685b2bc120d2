"""Issue 29 item 8: a size beyond this machine's memory is refused at once with the bound."""

import re

import pytest

from gamelab.core.limits import check_memory, usable_memory


def test_8_check_memory_states_the_bound():
    check_memory(1000, "a small thing", 10, 100, "things")
    with pytest.raises(
        ValueError, match=r"needs about .* GiB of memory; at most [\d,]+ things fit"
    ):
        check_memory(usable_memory() + 1, "a big thing", 10**12, 100, "things")


@pytest.mark.parametrize(
    "argv",
    [
        ["lattice", "evolve", "--population", "1000000000"],
        ["lattice", "evolve", "--population", "100000", "--generations", "1000000000"],
    ],
)
def test_8_a_population_beyond_memory_is_refused_with_its_bound(argv, gamelab_cli):
    r = gamelab_cli(*argv)
    assert r.returncode == 2 and r.stdout == "", r.stderr
    line = r.stderr.strip()
    assert re.match(
        r"error: a population of [\d,]+ over [\d,]+ generations needs .*at most [\d,]+ genomes fit",
        line,
    ), line


def test_one_out_of_budget_exception():
    """Issue 22 item 7: a search stopped at its budget raises one exception type (each search
    keeps its own name as a subclass), so a shell catches OutOfBudget whatever the game."""
    from gamelab.core.limits import OutOfBudget
    from gamelab.voltorb.expectimax import SearchLimitError
    from gamelab.web.pool import BudgetExceeded
    from gamelab.wordle.solver.kernel_search import SearchTimeout

    for kind in (SearchTimeout, SearchLimitError, BudgetExceeded):
        assert issubclass(kind, OutOfBudget), kind
