"""core.evolve: GA operators, the paper's defaults, random search and MAP-Elites (game-agnostic)."""

import numpy as np
import pytest

from gamelab.core.evolve import (
    GAConfig,
    genetic_algorithm,
    map_elites,
    mutate,
    one_point_crossover,
    proportional_choice,
    random_search,
)


def onemax(genomes):
    return [g.count("1") for g in genomes]


def test_defaults_are_the_papers_setting():
    # seed paper, "Evaluation": population 30, 50 generations, mutation 0.1 per element, 1 elite
    c = GAConfig()
    assert (c.population, c.generations, c.mutation_rate, c.elites, c.selection) == (
        30,
        50,
        0.1,
        1,
        "proportional",
    )


def test_config_validation_names_the_problem():
    with pytest.raises(ValueError, match="population"):
        GAConfig(population=1)
    with pytest.raises(ValueError, match="elites"):
        GAConfig(population=5, elites=5)
    with pytest.raises(ValueError, match="selection"):
        GAConfig(selection="rank")
    with pytest.raises(ValueError, match="alphabet"):
        genetic_algorithm(onemax, 5, "1")


def test_mutation_redraws_so_binary_flip_rate_is_half_the_rate():
    rng = np.random.default_rng(0)
    genome = "0" * 200
    flips = sum(mutate(genome, "01", 0.1, rng).count("1") for _ in range(200))
    assert abs(flips / (200 * 200) - 0.05) < 0.006
    assert mutate(genome, "01", 0.0, rng) == genome


def test_one_point_crossover_swaps_tails():
    rng = np.random.default_rng(3)
    cuts = set()
    for _ in range(300):
        a, b = one_point_crossover("AAAAAA", "BBBBBB", rng)
        cut = a.index("B")
        assert a == "A" * cut + "B" * (6 - cut) and b == "B" * cut + "A" * (6 - cut)
        cuts.add(cut)
    assert cuts == {1, 2, 3, 4}  # cut drawn from 1..L-2, as in the authors' test_ga.py
    with pytest.raises(ValueError, match="differ in length"):
        one_point_crossover("AB", "ABC", rng)


def test_proportional_choice_weights_and_all_zero_fallback():
    rng = np.random.default_rng(5)
    picks = proportional_choice(np.array([0.0, 1.0, 3.0]), 8000, rng)
    counts = np.bincount(picks, minlength=3) / 8000
    assert counts[0] == 0 and abs(counts[2] - 0.75) < 0.02
    uniform = np.bincount(proportional_choice(np.zeros(4), 8000, rng), minlength=4) / 8000
    assert np.all(np.abs(uniform - 0.25) < 0.02)


def test_ga_is_seeded_elitist_and_counts_evaluations():
    r1 = genetic_algorithm(onemax, 20, "01", rng=7)
    r2 = genetic_algorithm(onemax, 20, "01", rng=7)
    assert r1.best == r2.best and [g.fitnesses for g in r1.history] == [
        g.fitnesses for g in r2.history
    ]
    assert len(r1.history) == 50
    maxima = [g.max for g in r1.history]
    assert all(b >= a for a, b in zip(maxima, maxima[1:], strict=False))  # 1 elite: never worse
    assert r1.evaluations == 30 + 49 * 29  # elites are not re-evaluated
    assert r1.best_fitness >= 17 and r1.best.count("1") == r1.best_fitness
    assert r1.history[-1].at_max >= 1


def test_tournament_selection_also_converges():
    r = genetic_algorithm(onemax, 16, "01", rng=2, config=GAConfig(selection="tournament"))
    assert r.best_fitness == 16


def test_bad_fitness_output_is_refused():
    with pytest.raises(ValueError, match="one number each"):
        genetic_algorithm(lambda xs: [1.0], 8, "01", rng=0)


def test_random_search_budget_and_trace():
    t = random_search(onemax, 10, "01", 95, rng=1, batch=30)
    assert t.evaluations == [30, 60, 90, 95]
    assert t.best_so_far == sorted(t.best_so_far) and t.best.count("1") == t.best_fitness
    assert t.hits >= 1


def test_map_elites_fills_cells_and_qd_score_grows():
    def evaluate(genomes):
        fit = [g.count("11") for g in genomes]
        desc = [[g.count("1"), g[:4].count("1")] for g in genomes]
        return fit, np.array(desc, dtype=float)

    bins = [np.arange(0, 13, 1.0), np.arange(0, 6, 1.0)]
    r = map_elites(evaluate, 12, "01", bins, rng=4, iterations=40, batch=20)
    assert r.shape == (12, 5)
    assert len(r.evaluations) == 41 and r.evaluations[-1] == 20 * 41
    assert all(b >= a for a, b in zip(r.coverage, r.coverage[1:], strict=False))
    assert all(b >= a for a, b in zip(r.qd_score, r.qd_score[1:], strict=False))
    assert r.coverage[-1] > r.coverage[0]
    for cell, elite in r.archive.items():
        ones, head = elite.descriptors
        assert cell == (min(int(ones), 11), min(int(head), 4))
        assert elite.fitness == elite.genome.count("11")
    assert np.nansum(r.grid()) == pytest.approx(r.qd_score[-1])
    with pytest.raises(ValueError, match="increasing"):
        map_elites(evaluate, 12, "01", [[0, 0]], rng=0)


def test_breed_is_crossover_then_redraw_mutation():
    from gamelab.core.evolve import breed

    rng = np.random.default_rng(9)
    pop = ["AAAAAAAA", "BBBBBBBB", "ABABABAB"]
    parents = np.array([[0, 1], [1, 0], [2, 0]])
    kids = breed(pop, parents, "AB", 0.0, rng)
    assert len(kids) == 6
    for (i, j), c1, c2 in zip(parents, kids[0::2], kids[1::2], strict=True):
        cut = next(k for k in range(1, 8) if c1[:k] == pop[i][:k] and c1[k:] == pop[j][k:])
        assert 1 <= cut <= 6 and c2 == pop[j][:cut] + pop[i][cut:]
    many = breed(["A" * 50] * 2, np.array([[0, 1]] * 200), "AB", 0.1, rng)
    share = sum(k.count("B") for k in many) / (400 * 50)
    assert abs(share - 0.05) < 0.006  # redraw at rate 0.1 -> real change at 0.05
