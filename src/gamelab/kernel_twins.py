"""Every numba kernel of every game, with its plain-Python twin and the test that compares them.

A kernel is any numba dispatcher defined in a game's modules (as :func:`gamelab.warmup.game_kernels`
finds them). Each one is either in :data:`TWINS` (its twin, and the test comparing the two) or in
:data:`HELPERS` (called only from other kernels, so compared through them; the entry says
which and why it has no twin of its own). ``tests/test_kernel_twins.py`` checks that the two
lists cover every kernel exactly, that every twin is plain Python and named by the convention of
``DEVELOPERS.md``, that every comparing test exists, and that every helper is called by a kernel.

The naming convention: a twin in the kernel's own module is named after it with ``_python`` in
place of ``_kernel`` (or ``_python`` appended). A twin elsewhere is
readable code of the game (``gamelab.oware.rules.perft``) or a search written in Python
(``OptimalSolver`` with its Python engine), and the kernel's docstring, or its module's, names it.
A kernel that computes what another one does (a serial variant, a whole layer of widgets)
shares that kernel's twin (``variant_of``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Twin:
    twin: str  # dotted path of the plain-Python twin (a function, or a class with a Python engine)
    test: str  # the comparing test, "tests/<path>.py::<test function>"
    variant_of: str = ""  # "module.kernel" whose twin this kernel shares (the name follows it)


def _t(twin: str, test: str, variant_of: str = "") -> Twin:
    return Twin(twin, test, variant_of)


VT = "tests/voltorb/test_voltorb_strategies.py::"
WR = "tests/wordle/test_wordle_rules.py::"
WS = "tests/wordle/test_wordle_search_kernel.py::"
WF = "tests/wordle/test_wordle_feasible.py::"
LE = "tests/lattice/test_lattice_enumeration.py::"
OR = "tests/oware/test_oware_rules.py::"
VW = "tests/voltorb/test_voltorb_wide.py::"
OS = "tests/oware/test_oware_search.py::"
OT = "tests/oware/test_oware_tablebase.py::"
OD = "tests/oware/test_oware_tablebase_disk.py::"
YT = "tests/yatzy/test_yatzy_turn_kernels.py::"
YP = "tests/yatzy/test_yatzy_play.py::"
TW = "tests/test_kernel_twins.py::"

#: game -> "module.kernel" -> its twin and the test comparing them
TWINS: dict[str, dict[str, Twin]] = {
    "voltorb": {
        "_vector_kernels.step_rounds": _t(
            "gamelab.voltorb._vector_kernels.step_rounds_python",
            "tests/envs/test_envs_vector.py::test_voltorb_vector_kernel_matches_twin",
        ),
        "_vector_kernels.deal_rounds": _t(
            "gamelab.voltorb._vector_kernels.step_rounds_python",
            "tests/envs/test_envs_vector.py::test_voltorb_vector_kernel_matches_twin",
            variant_of="_vector_kernels.step_rounds",
        ),
        "_bounds_kernels.flip_bounds": _t(
            "gamelab.voltorb._bounds_kernels.flip_bounds_python",
            VT + "test_flip_bounds_kernel_matches_python_twin",
        ),
        "_bounds_kernels.symmetry_classes": _t(
            "gamelab.voltorb._bounds_kernels.symmetry_classes_python",
            VT + "test_symmetry_classes_match_twin_and_keep_the_value",
        ),
        "_bounds_kernels.pair_bound": _t(
            "gamelab.voltorb._bounds_kernels.pair_bound_python",
            VT + "test_pair_bound_kernel_matches_twin_and_bounds_the_optimum",
        ),
        "_posterior_kernels.enumerate_boards": _t(
            "gamelab.voltorb._posterior_kernels.enumerate_boards_python",
            "tests/voltorb/test_voltorb_posterior.py::test_kernel_matches_python_twin_on_random_inputs",
        ),
        "_search_kernels.win_search": _t(
            "gamelab.voltorb.expectimax.OptimalSolver",
            VT + "test_win_search_kernel_matches_python_twin",
        ),
        "_search_kernels.drop_dominated": _t(
            "gamelab.voltorb._search_kernels.drop_dominated_python",
            VT + "test_drop_dominated_matches_twin_and_keeps_the_value",
        ),
        "_table_kernels.spread": _t(
            "gamelab.voltorb._table_kernels.spread_python",
            VT + "test_memo_table_grows_and_keeps_its_entries",
        ),
        "_table_kernels.canonical_code": _t(
            "gamelab.voltorb._table_kernels.canonical_code_python",
            VT + "test_symmetric_memo_finds_mirror_images_and_keeps_the_values",
        ),
        "_table_kernels.table_rehash": _t(
            "gamelab.voltorb._table_kernels.table_rehash_python",
            VT + "test_memo_table_grows_and_keeps_its_entries",
        ),
        "_small_kernels.small_solve": _t(
            "gamelab.voltorb._small_kernels.small_solve_python",
            VT + "test_small_solve_matches_twin_and_keeps_the_alpha_contract",
        ),
        "_small_kernels.light_first": _t(
            "gamelab.voltorb._small_kernels.light_first_python",
            VW + "test_light_first_matches_twin",
        ),
        "_wide_kernels.wide_solve": _t(
            "gamelab.voltorb._small_kernels.small_solve_python",
            VW + "test_wide_solve_matches_twin_and_keeps_the_alpha_contract",
        ),
        "_bounds_kernels.inseparable_lists": _t(
            "gamelab.voltorb._bounds_kernels.inseparable_lists_python",
            VW + "test_inseparable_lists_and_their_pair_bound_match_twins",
        ),
        "_bounds_kernels.pair_bound_lists": _t(
            "gamelab.voltorb._bounds_kernels.pair_bound_python",
            VW + "test_inseparable_lists_and_their_pair_bound_match_twins",
            variant_of="_bounds_kernels.pair_bound",
        ),
        "_objective_kernels.objective_search": _t(
            "gamelab.voltorb.objectives.ObjectiveSolver",
            "tests/voltorb/test_voltorb_objectives.py::test_kernel_matches_twin_for_every_objective",
        ),
        "_coin_kernels.coin_search": _t(
            "gamelab.voltorb.expectimax.OptimalSolver",
            VT + "test_coin_search_kernel_matches_python_twin",
        ),
        "_coin_kernels.new_memos": _t(
            "gamelab.voltorb._coin_kernels.new_memos_python",
            VT + "test_memo_kernels_match_python_twins",
        ),
        "_coin_kernels.memo_entry": _t(
            "gamelab.voltorb._coin_kernels.memo_entry_python",
            VT + "test_memo_kernels_match_python_twins",
        ),
        "_deal_kernels.deal_boards": _t(
            "gamelab.voltorb._deal_kernels.deal_boards_python",
            "tests/envs/test_envs_steppers.py::test_deal_kernel_matches_twin_and_the_rules",
        ),
    },
    "wordle": {
        "_kernels.feedback_table_kernel": _t(
            "gamelab.wordle._kernels.feedback_table_python",
            WR + "test_table_kernel_matches_python_twin",
        ),
        "_kernels.entropy_kernel": _t(
            "gamelab.wordle._kernels.entropy_python",
            WR + "test_entropy_and_split_kernels_match_twins",
        ),
        "_kernels.split_stats_kernel": _t(
            "gamelab.wordle._kernels.split_stats_python",
            WR + "test_entropy_and_split_kernels_match_twins",
        ),
        "_kernels.partition_kernel": _t(
            "gamelab.wordle._kernels.partition_python", WR + "test_partition_kernel_matches_twin"
        ),
        "_kernels.min_bound_kernel": _t(
            "gamelab.wordle._kernels.min_bound_python", WR + "test_min_bound_kernel_matches_twin"
        ),
        "solver._bound_kernels.class_bounds_kernel": _t(
            "gamelab.wordle.solver._bound_kernels.class_bounds_python",
            "tests/wordle/test_wordle_opening.py::test_class_bounds_kernel_matches_twin",
        ),
        "solver._memo_kernels.memo_key": _t(
            "gamelab.wordle.solver._memo_kernels.memo_key_python",
            TW + "test_wordle_memo_kernels_match_twins",
        ),
        "solver._memo_kernels.memo_find": _t(
            "gamelab.wordle.solver._memo_kernels.memo_find_python",
            TW + "test_wordle_memo_kernels_match_twins",
        ),
        "solver._memo_kernels.memo_rehash": _t(
            "gamelab.wordle.solver._memo_kernels.memo_rehash_python",
            TW + "test_wordle_memo_kernels_match_twins",
        ),
        "solver._search_kernels.search_kernel": _t(
            "gamelab.wordle.solver.optimal.OptimalSolver", WS + "test_kernel_matches_twin"
        ),
        "solver._feasible_kernels.feasible_kernel": _t(
            "gamelab.wordle.solver.feasible.feasible_python",
            WF + "test_feasible_kernel_matches_twin_on_random_sets",
        ),
        "solver._feasible_kernels.pair_bits_kernel": _t(
            "gamelab.wordle.solver._feasible_kernels.pair_bits_python",
            WF + "test_pair_bits_kernel_matches_twin",
        ),
        "solver._hard_feasible_kernels.allow_masks_kernel": _t(
            "gamelab.wordle.solver.feasible.allow_masks_python",
            WF + "test_hard_feasible_kernel_matches_twin_on_random_sets",
        ),
    },
    "lattice": {
        "_completion_kernels.completion_search": _t(
            "gamelab.lattice.completion.best_completion",
            "tests/lattice/test_lattice_completion.py::test_completion_kernel_matches_python_twin",
        ),
        "_kernels.enumerate_kernel": _t(
            "gamelab.lattice._kernels.enumerate_python", LE + "test_kernel_matches_python_twin"
        ),
        "_kernels.histogram_kernel": _t(
            "gamelab.lattice._kernels.histogram_python",
            LE + "test_histogram_kernel_matches_twin_on_random_sequences",
        ),
        "_kernels.histograms_kernel": _t(
            "gamelab.lattice._kernels.histograms_python",
            TW + "test_lattice_histograms_kernels_match_twin",
        ),
        "_kernels.best_set_kernel": _t(
            "gamelab.lattice._kernels.best_set_python",
            LE + "test_mask_and_best_set_kernels_match_twins",
        ),
        "_kernels.hh_rows_from_codes": _t(
            "gamelab.lattice._kernels.hh_rows_from_codes_python",
            LE + "test_mask_and_best_set_kernels_match_twins",
        ),
        "fold.perm_kernel": _t(
            "gamelab.lattice.fold.perm_python",
            "tests/lattice/test_lattice_fold.py::test_perm_kernel_matches_python_twin",
        ),
        "_replica_kernels.remc_kernel": _t(
            "gamelab.lattice._replica_twins.remc_python",
            "tests/lattice/test_lattice_replica.py::test_remc_kernel_matches_python_twin",
        ),
        "_replica_kernels.kick_kernel": _t(
            "gamelab.lattice._replica_twins.remc_python",
            "tests/lattice/test_lattice_replica.py::test_remc_kernel_matches_python_twin",
            variant_of="_replica_kernels.remc_kernel",
        ),
        "_move_kernels.apply_move_kernel": _t(
            "gamelab.lattice._replica_twins.apply_move_python",
            "tests/lattice/test_lattice_replica.py::test_apply_move_kernel_matches_python_twin",
        ),
    },
    "oware": {
        "_move_kernels.sow_and_capture_kernel": _t(
            "gamelab.oware.rules.apply_move", OR + "test_kernel_moves_match_python_moves"
        ),
        "_move_kernels.legal_mask_kernel": _t(
            "gamelab.oware.rules.legal_offsets",
            OR + "test_kernel_and_python_rules_agree_on_any_board",
        ),
        "_move_kernels.perft_kernel": _t(
            "gamelab.oware.rules.perft", OR + "test_perft_kernel_equals_python_on_random_positions"
        ),
        "_search_kernels.blog_eval_kernel": _t(
            "gamelab.oware.evaluation.blog_evaluation", OS + "test_evaluation_kernels_match_python"
        ),
        "_search_kernels.auale_eval_kernel": _t(
            "gamelab.oware.evaluation.auale_evaluation", OS + "test_evaluation_kernels_match_python"
        ),
        "_search_kernels.final_score_kernel": _t(
            "gamelab.oware.evaluation.final_score", TW + "test_oware_small_kernels_match_twins"
        ),
        "_search_kernels.zobrist_key": _t(
            "gamelab.oware._search_kernels.zobrist_key_python",
            TW + "test_oware_small_kernels_match_twins",
        ),
        "_search_kernels.search_root": _t(
            "gamelab.oware.search.twin_negamax",
            OS + "test_engine_kernel_matches_twin_at_fixed_depth",
        ),
        "_tablebase_kernels.binomial_table": _t(
            "gamelab.oware._tablebase_kernels.binomial_table_python",
            TW + "test_oware_small_kernels_match_twins",
        ),
        "_tablebase_kernels.level_offsets": _t(
            "gamelab.oware._tablebase_kernels.level_offsets_python",
            TW + "test_oware_small_kernels_match_twins",
        ),
        "_tablebase_kernels.tb_board_value": _t(
            "gamelab.oware.tablebase.exhaustive_board_value",
            OT + "test_tablebase_matches_exhaustive_search",
        ),
        "_tablebase_kernels.build_level": _t(
            "gamelab.oware.tablebase.exhaustive_board_value",
            OT + "test_tablebase_matches_exhaustive_search",
            variant_of="_tablebase_kernels.tb_board_value",
        ),
        "_tablebase_kernels.next_board": _t(
            "gamelab.oware._tablebase_kernels.next_board_python",
            OD + "test_next_board_walks_the_rank_order",
        ),
        "_tablebase_kernels.level_captures_kernel": _t(
            "gamelab.oware._tablebase_kernels.level_captures_python",
            OD + "test_level_kernels_match_twins",
        ),
        "_tablebase_kernels.level_sweep_kernel": _t(
            "gamelab.oware._tablebase_kernels.level_sweep_python",
            OD + "test_level_kernels_match_twins",
        ),
    },
    "yatzy": {
        "_vector_kernels.step_games": _t(
            "gamelab.yatzy._vector_kernels.step_games_python",
            "tests/envs/test_envs_vector.py::test_yatzy_vector_kernel_matches_twin",
        ),
        "_vector_kernels.start_games": _t(
            "gamelab.yatzy._vector_kernels.step_games_python",
            "tests/envs/test_envs_vector.py::test_yatzy_vector_kernel_matches_twin",
            variant_of="_vector_kernels.step_games",
        ),
        "_oracle_kernels.turn_tables": _t(
            "gamelab.yatzy._oracle_kernels.turn_tables_python",
            "tests/envs/test_envs_fast_oracles.py::test_yatzy_turn_kernels_match_twins",
        ),
        "_oracle_kernels.box_options": _t(
            "gamelab.yatzy._oracle_kernels.box_options_python",
            "tests/envs/test_envs_fast_oracles.py::test_yatzy_turn_kernels_match_twins",
        ),
        "_distribution_kernels.backward_layer": _t(
            "gamelab.yatzy._distribution_kernels.backward_layer_python",
            YT + "test_layer_kernels_match_twins",
        ),
        "_distribution_kernels.forward_layer": _t(
            "gamelab.yatzy._distribution_kernels.forward_layer_python",
            YT + "test_layer_kernels_match_twins",
        ),
        "_play_kernels.play_games": _t(
            "gamelab.yatzy.simulate.play_game_python", YP + "test_game_kernel_matches_python_twin"
        ),
        "_play_kernels.play_games_cached": _t(
            "gamelab.yatzy.simulate.play_game_python",
            YP + "test_process_decision_cache_changes_nothing",
            variant_of="_play_kernels.play_games",
        ),
        "_play_kernels.duel_games": _t(
            "gamelab.yatzy.simulate.play_game_python",
            "tests/yatzy/test_yatzy_risk.py::test_duel_kernel_agrees_with_game_kernel",
            variant_of="_play_kernels.play_games",
        ),
        "_play_kernels.play_to_round": _t(
            "gamelab.yatzy.simulate.play_game_python",
            YT + "test_play_to_round_ends_at_the_game_kernel_scores",
            variant_of="_play_kernels.play_games",
        ),
        "_play_kernels.risky_keep": _t(
            "gamelab.yatzy._play_kernels.risky_keep_python",
            "tests/yatzy/test_yatzy_risk.py::test_risky_keep_matches_twin",
        ),
        "_play_kernels.decided_turn": _t(
            "gamelab.yatzy._play_kernels.decided_turn_python", YT + "test_turn_kernels_match_twins"
        ),
        "_play_kernels.expectation_turn": _t(
            "gamelab.yatzy._play_kernels.decided_turn_python",
            YT + "test_turn_kernels_match_twins",
            variant_of="_play_kernels.decided_turn",
        ),
        "_turn_kernels.placement": _t(
            "gamelab.yatzy._turn_kernels.legal_moves_python",
            YT + "test_placement_and_legal_boxes_match_the_rules_twin",
            variant_of="_turn_kernels.legal_moves",
        ),
        "_turn_kernels.legal_boxes": _t(
            "gamelab.yatzy._turn_kernels.legal_moves_python",
            YT + "test_placement_and_legal_boxes_match_the_rules_twin",
            variant_of="_turn_kernels.legal_moves",
        ),
        "_turn_kernels.roll_dice": _t(
            "gamelab.yatzy._turn_kernels.roll_dice_python", TW + "test_yatzy_roll_dice_matches_twin"
        ),
        "_utility_kernels.utility_widget": _t(
            "gamelab.yatzy._utility_kernels.utility_widget_python",
            "tests/yatzy/test_yatzy_target.py::test_utility_widget_matches_twin",
        ),
        "_utility_kernels.utility_layer": _t(
            "gamelab.yatzy._utility_kernels.utility_widget_python",
            TW + "test_yatzy_layer_kernels_match_twins",
            variant_of="_utility_kernels.utility_widget",
        ),
        "_utility_kernels.utility_rows": _t(
            "gamelab.yatzy._utility_kernels.utility_widget_python",
            TW + "test_yatzy_layer_kernels_match_twins",
            variant_of="_utility_kernels.utility_widget",
        ),
        "_utility_kernels.utility_pair_widget": _t(
            "gamelab.yatzy._utility_kernels.utility_pair_widget_python",
            "tests/yatzy/test_yatzy_winplay.py::test_utility_pair_widget_matches_twin",
        ),
        "_utility_kernels.utility_pair_layer": _t(
            "gamelab.yatzy._utility_kernels.utility_pair_widget_python",
            "tests/yatzy/test_yatzy_winplay.py::test_win_solve_outcomes_are_those_of_its_decisions",
            variant_of="_utility_kernels.utility_pair_widget",
        ),
        "_utility_kernels.utility_decisions": _t(
            "gamelab.yatzy._utility_kernels.utility_widget_python",
            "tests/yatzy/test_yatzy_target.py::test_utility_widget_matches_twin",
            variant_of="_utility_kernels.utility_widget",
        ),
        "_widget_kernels.widget": _t(
            "gamelab.yatzy._widget_kernels.widget_python",
            "tests/yatzy/test_yatzy_solver.py::test_widget_kernel_matches_python_twin",
        ),
        "_widget_kernels.solve_masks": _t(
            "gamelab.yatzy._widget_kernels.widget_python",
            TW + "test_yatzy_layer_kernels_match_twins",
            variant_of="_widget_kernels.widget",
        ),
        "_play_kernels.lane_policy": _t(
            "gamelab.yatzy._widget_kernels.widget_python",
            YP + "test_lane_decisions_are_the_policy",
            variant_of="_widget_kernels.widget",
        ),
        "_widget_kernels.widget_policy": _t(
            "gamelab.yatzy._widget_kernels.widget_python",
            YT + "test_turn_outcomes_match_twin",
            variant_of="_widget_kernels.widget",
        ),
    },
}

#: game -> "module.kernel" -> why it has no twin of its own (called only from other kernels)
HELPERS: dict[str, dict[str, str]] = {
    "voltorb": {
        "_stack_kernels.new_frames": "the frames of coin_search and objective_search",
        "_stack_kernels.new_pool": "the live boards' pool of coin_search and objective_search",
        "_stack_kernels.over_budget": "the state budget inside coin_search and objective_search",
        "_stack_kernels.live_mass": "a frame's mass inside coin_search and objective_search",
        "_stack_kernels.flagged_tiles": "the tiles to try inside coin_search and objective_search",
        "_stack_kernels.store": "the memo's store inside coin_search and objective_search",
        "_bounds_kernels.bounds_on": "the per-tile bounds of flip_bounds and win_search",
        "_table_kernels.table_slot": "a memo look-up inside win_search (table_entry reads it)",
        "_table_kernels.table_store": "a memo write inside win_search and small_solve",
        "_table_kernels.memo_find": "a memo look-up with the deal's symmetries inside win_search, "
        "small_solve and wide_solve",
        "_table_kernels.memo_store": "a memo write with the deal's symmetries inside win_search, "
        "small_solve and wide_solve",
        "_small_kernels.low_index": "a bit's index inside small_solve",
        "_small_kernels._mass": "a set's prior mass inside small_solve",
        "_small_kernels._cover": "the inseparable-boards ceiling inside small_solve",
        "_small_kernels._state_tile": "the stored best tile of a state inside small_solve",
        "_small_kernels._pmass": "a set's prior mass by popcounts inside small_solve",
        "_small_kernels.small_search": "the search of small_solve (and of wide_solve's small "
        "states) on prepared masks",
        "_small_kernels.weight_classes": "the weight classes of small_solve and wide_solve",
        "_small_kernels.small_workspace": "small_search's scratch space, made by small_solve and "
        "once per wide_solve",
        "_wide_set_kernels.wide_class_mass": "a set's prior mass by popcounts inside wide_solve",
        "_wide_set_kernels.wide_popcount": "a set's size inside wide_solve",
        "_wide_set_kernels.compact_child": "a small child renumbered into one word inside wide_solve",
        "_wide_set_kernels.wide_mass": "a set's prior mass inside wide_solve",
        "_wide_set_kernels.wide_count": "a set's size (up to a few) inside wide_solve",
        "_wide_set_kernels.wide_cover": "the inseparable-boards ceiling inside wide_solve",
        "_wide_set_kernels.wide_hash": "a memo slot inside wide_solve",
        "_wide_set_kernels.wide_state_tile": "the stored best tile of a state inside wide_solve",
        "_search_kernels._pair_ceiling": "pair_bound or pair_bound_lists inside win_search",
        "_bounds_kernels._line_key_equal": "a comparison inside symmetry_classes",
        "_bounds_kernels._inseparable": "the pair test inside pair_bound",
        "_posterior_kernels._features": "the board features inside enumerate_boards",
        "_deal_kernels._free": "the free-multiplier test of a tile inside deal_boards",
    },
    "wordle": {
        "_kernels.feedback_code": "one pattern: the cell of feedback_table_kernel (and of the "
        "strict pool grouping in search_kernel)",
        "solver._memo_kernels._mix": "the bit mixer of memo_key",
        "solver._feasible_kernels.set_hash": "a candidate set's memo key inside feasible_kernel",
        "solver._feasible_kernels._separates": "the one-guess-left test of feasible_kernel (no pair bits)",
        "solver._feasible_kernels._separable": "the one-guess-left test of feasible_kernel (pair bits)",
        "solver._feasible_kernels._three": "the two-guesses-left search of feasible_kernel (pair bits)",
        "solver._feasible_kernels._three_marked": "the loop of _three, inside feasible_kernel",
        "solver._feasible_kernels.count_codes": "a set counted by pattern, inside the feasibility searches",
        "solver._feasible_kernels.pool_hash": "a pool's memo key inside feasible_kernel (hard mode)",
        "solver._feasible_kernels.pool_guesses": "a pool's guesses inside feasible_kernel (hard mode)",
        "solver._scan_kernels.sort_by_keys": "the heap sort inside sort_moves and feasible_kernel",
        "solver._memo_kernels.memo_record": "a memo write inside search_kernel",
        "solver._scan_kernels.perfect_candidate": "the endgame check of search_kernel",
        "solver._node_kernels.partition_node": "a guess's classes at a node of search_kernel",
        "solver._node_kernels.child_bounds": "the classes' bounds at a node of search_kernel",
        "solver._node_kernels.big_class_bounds": "large classes' one-level bounds in search_kernel",
        "solver._node_kernels.sort_children": "the order of a guess's classes in search_kernel",
        "solver._node_kernels.enter_root": "the root node's arenas and key in search_kernel",
        "solver._scan_kernels.scan_transposed": "search_kernel's node scan (byte-sized patterns)",
        "solver._scan_kernels.scan_table": "search_kernel's node scan (any pattern count; the six-letter "
        "twin test covers it)",
        "solver._scan_kernels.sort_moves": "the move ordering inside search_kernel",
        "solver._scan_kernels._sift_down": "a step of the heap sort inside sort_by_keys",
        "solver._hard_kernels._decode_colours": "pattern digits inside the hard-mode helpers",
        "solver._hard_kernels._shown_copies": "a letter's demanded copies inside the hard-mode helpers",
        "solver._hard_kernels.first_positions": "hard-mode bookkeeping inside search_kernel",
        "solver._hard_kernels.demand_delta": "hard-mode pool keys inside search_kernel",
        "solver._hard_kernels.strict_groups": "strict hard-mode pools inside search_kernel",
        "solver._hard_kernels.game_child_pool": "the game's hard-mode pools inside search_kernel",
    },
    "lattice": {
        "_kernels.direction_offsets": "the move steps of enumerate_kernel and fold.perm_kernel",
        "_kernels._hash": "the contact-set hash of enumerate_kernel's table",
        "_kernels._insert": "a table insert inside enumerate_kernel",
        "_kernels._grow": "table growth inside enumerate_kernel",
        "_kernels._set_score": "one contact set's score inside the histogram kernels",
        "_kernels._histogram_row": "one row of histograms_kernel",
        "_replica_kernels.next_random": "the splitmix64 stream of remc_kernel",
        "_replica_kernels.uniform": "Metropolis and exchange draws inside remc_kernel",
        "_replica_kernels.below": "the move-slot draw inside remc_kernel",
        "_move_kernels.torus": "the torus grid's shift and mask inside remc_kernel and its kin",
        "_move_kernels.cell": "a site's torus cell inside the pull-move helpers",
        "_move_kernels._adjacent": "the stop test of a pull inside _pull",
        "_move_kernels._free": "the free-site tests of _pull and propose",
        "_move_kernels._pull": "one pull move inside propose",
        "_move_kernels._rebridge": "a bond-rebridging move inside propose",
        "_move_kernels.propose": "a numbered move inside remc_kernel, _try_move and "
        "apply_move_kernel",
        "_replica_kernels._range_contacts2": "the contact change of a move inside _metropolis",
        "_move_kernels.place": "grid updates inside the restarts, _regrow and apply_move_kernel",
        "_move_kernels.relocate": "a move's residues moved on the grid inside _metropolis",
        "_replica_kernels._metropolis": "a proposed move accepted or not inside remc_kernel",
        "_replica_kernels._try_move": "one Metropolis step inside _kick",
        "_replica_kernels._straighten": "a restart (every replica straight again) inside remc_kernel",
        "_replica_kernels._kick": "a restart from the best fold, perturbed, inside kick_kernel",
        "_move_kernels.slot_count": "the move-slot total inside remc_kernel and _kick",
        "_move_kernels._axis": "a bond's axis when propose numbers the directions across it",
        "_move_kernels._direction": "an end move's direction index inside propose",
        "_replica_kernels._regrow": "a fragment-regrowth step inside remc_kernel",
        "_replica_kernels._keep_or_undo": "the accept-or-undo end of _metropolis and _regrow",
    },
    "oware": {
        "_move_kernels._sow": "the sowing of sow_and_capture and _is_grand_slam",
        "_move_kernels.sow_and_capture": "a move inside every kernel (from Python: "
        "sow_and_capture_kernel)",
        "_move_kernels.legal_mask": "the legal moves inside every kernel (from Python: "
        "legal_mask_kernel)",
        "_search_kernels.blog_eval": "the blog's evaluation inside evaluate (from Python: "
        "blog_eval_kernel)",
        "_search_kernels.auale_eval": "Aualé's evaluation inside evaluate (from Python: "
        "auale_eval_kernel)",
        "_search_kernels.final_score": "an ended game's score inside search_root (from Python: "
        "final_score_kernel)",
        "_move_kernels._capture_run": "the capture count of sow_and_capture and _is_grand_slam",
        "_move_kernels._is_grand_slam": "the grand-slam test inside legal_mask",
        "_move_kernels.game_over_by_score": "the end by score inside perft_kernel and search_root",
        "_move_kernels.final_difference": "the end-of-game count inside search_root",
        "_move_kernels._same_houses": "the repetition test inside perft_kernel",
        "_move_kernels.copy_board": "a board copied into a child's row inside perft_kernel, "
        "search_root and build_level",
        "_search_kernels.evaluate": "dispatches to blog_eval / auale_eval inside search_root",
        "_tablebase_kernels.rank_board": "board index inside build_level, tb_board_value and "
        "search_root (round trip: test_rank_unrank_round_trip; its readable twin rank_board_python "
        "is compared in test_next_board_walks_the_rank_order)",
        "_tablebase_kernels.unrank_board": "board from its index inside build_level",
    },
    "yatzy": {
        "_vector_kernels.draw_roll": "one roll from a chance table inside step_games",
        "_vector_kernels._new_turn": "a turn's first roll inside step_games and start_games",
        "_distribution_kernels.take_outcome": "one outcome's bookkeeping inside the layer kernels",
        "_distribution_kernels.turn_outcomes": "the turn law inside the layer kernels (no "
        "Python entry: its twin turn_outcomes_python is compared through a test kernel in "
        "test_turn_outcomes_match_twin)",
        "_play_kernels.cached_decisions": "the decision cache inside the game kernels (inlined "
        "into them: no library of its own to compile)",
        "_play_kernels.play_turn": "one turn inside duel_games and play_to_round (inlined into "
        "them)",
        "_play_kernels.lane_decisions": "the decisions of four states inside "
        "cached_lane_decisions (the same as widget_policy's: test_lane_decisions_are_the_policy)",
        "_play_kernels.cached_lane_decisions": "the decision cache of play_games_cached",
        "_turn_kernels.new_workspace": "allocates the scratch buffers inside the kernels (Python "
        "callers use its numpy copy, workspace_arrays): nothing to compare",
        "_turn_kernels.new_decision_cache": "allocates the game kernels' decision cache (also "
        "from Python): nothing to compare",
        "_turn_kernels.state_index": "the state-index formula used inside every kernel (also from "
        "Python; round trip: test_state_index_round_trip_and_bonus_flags)",
        "_turn_kernels.split_state": "inverse of state_index inside the game kernels (same round "
        "trip test)",
        "_turn_kernels.flag_values": "bonus-flag count inside solve_masks",
        "_turn_kernels.upper_subset": "upper-box subset inside solve_masks",
        "_turn_kernels.upper_step": "upper-total step inside the widget kernels",
        "_turn_kernels.extra_yahtzee_mode": "the joker rule inside placement and the widgets",
        "_turn_kernels.box_points": "points of a box inside placement and the widgets",
        "_turn_kernels.plain_placement": "placement without the joker cases inside placement and "
        "turn_outcomes",
        "_utility_kernels.new_utility_workspace": "allocates utility_widget's buffers: nothing "
        "to compare",
        "_utility_kernels._shift_max": "a vector maximum inside utility_widget",
        "_utility_kernels._utility_widget": "utility_widget's body, inlined into utility_rows "
        "(compared through both)",
        "_utility_kernels.new_pair_workspace": "allocates utility_pair_widget's buffers: nothing "
        "to compare",
        "_utility_kernels._pair_take": "the paired maximum inside utility_pair_widget",
        "_utility_kernels._pair_shift_max": "a paired vector maximum inside utility_pair_widget",
        "_widget_kernels.final_values": "box choice values inside the widget kernels",
        "_widget_kernels.keep_values": "keep values inside widget and keep_decisions",
        "_widget_kernels.best_keeps": "the keep maximum inside widget and keep_decisions",
        "_widget_kernels.new_lanes": "allocates the lanes' buffers inside play_games (Python "
        "callers use its numpy copy, new_lane_scratch): nothing to compare",
        "_widget_kernels.final_lanes": "box choice values of several widgets inside widget_lanes",
        "_widget_kernels.keep_lanes": "keep values of several widgets inside widget_lanes",
        "_widget_kernels.best_lanes": "the keep maximum of several widgets inside widget_lanes",
        "_widget_kernels.widget_lanes": "several widgets of one card side by side inside "
        "solve_masks",
        "_widget_kernels.keep_decisions": "decision tables inside widget_policy and "
        "utility_decisions",
    },
}
