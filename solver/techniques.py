"""The techniques, gathered from their modules: each takes a board, applies every instance it
finds in one sweep (or the one SE would apply, where its value or its path depends on it: see
``solver.ladder``), and returns a ``solver.board.Found``: how many times it fired (0 when it
found nothing), the extra difficulty of the instance, and the contradiction that stopped it.

Every technique is sound without assuming a unique solution, except those of
``solver.uniqueness`` (unique rectangles and loops) and ``solver.bug`` (BUG), whose results
the engine never trusts for the status.
"""

from __future__ import annotations

from solver.bigwings import vwxyz_wing, wxyz_wing
from solver.bug import (
    bug,
    bug_type_2,
    bug_type_3,
    bug_type_4,
    sukaku_bug_type_2,
    sukaku_bug_type_3,
    sukaku_bug_type_4,
)
from solver.chains import forcing_chain
from solver.cycles import (
    bidirectional_cycle,
    bidirectional_x_cycle,
    bidirectional_y_cycle,
    forcing_x_chain,
    forcing_xy_chain,
)
from solver.exclusion import aligned_pair_exclusion, aligned_triplet_exclusion
from solver.fish import jellyfish, swordfish, x_wing
from solver.forcing import (
    dynamic_forcing_chain,
    dynamic_forcing_chain_plus,
    multiple_forcing_chain,
    nested_dynamic_forcing_chain,
    nested_forcing_chain,
    nested_multiple_forcing_chain,
    nishio_forcing_chain,
    sukaku_dynamic_forcing_chain_plus,
    sukaku_nested_forcing_chain,
    sukaku_nested_multiple_forcing_chain,
)
from solver.intersections import (
    claiming,
    direct_claiming,
    direct_pointing,
    pointing,
    sukaku_direct_claiming,
    sukaku_direct_pointing,
)
from solver.links import grouped_two_strong_links, three_strong_links
from solver.singles import full_house, hidden_single_box, hidden_single_line, naked_single
from solver.subsets import (
    direct_hidden_pair,
    direct_hidden_triple,
    hidden_pair,
    hidden_quad,
    hidden_triple,
    naked_pair,
    naked_quad,
    naked_triple,
    sukaku_direct_hidden_pair,
    sukaku_direct_hidden_triple,
)
from solver.turbot import empty_rectangle, skyscraper, turbot_fish, two_string_kite
from solver.uniqueness import (
    sukaku_unique_loop,
    sukaku_unique_rectangle,
    unique_loop,
    unique_rectangle,
)
from solver.wings import xy_wing, xyz_wing

__all__ = [
    "aligned_pair_exclusion",
    "aligned_triplet_exclusion",
    "bidirectional_cycle",
    "bidirectional_x_cycle",
    "bidirectional_y_cycle",
    "bug",
    "bug_type_2",
    "bug_type_3",
    "bug_type_4",
    "claiming",
    "direct_claiming",
    "direct_hidden_pair",
    "direct_hidden_triple",
    "direct_pointing",
    "dynamic_forcing_chain",
    "dynamic_forcing_chain_plus",
    "empty_rectangle",
    "forcing_chain",
    "forcing_x_chain",
    "forcing_xy_chain",
    "full_house",
    "grouped_two_strong_links",
    "hidden_pair",
    "hidden_quad",
    "hidden_single_box",
    "hidden_single_line",
    "hidden_triple",
    "jellyfish",
    "multiple_forcing_chain",
    "naked_pair",
    "naked_quad",
    "naked_single",
    "naked_triple",
    "nested_dynamic_forcing_chain",
    "nested_forcing_chain",
    "nested_multiple_forcing_chain",
    "nishio_forcing_chain",
    "pointing",
    "skyscraper",
    "sukaku_bug_type_2",
    "sukaku_bug_type_3",
    "sukaku_bug_type_4",
    "sukaku_direct_claiming",
    "sukaku_direct_hidden_pair",
    "sukaku_direct_hidden_triple",
    "sukaku_direct_pointing",
    "sukaku_dynamic_forcing_chain_plus",
    "sukaku_nested_forcing_chain",
    "sukaku_nested_multiple_forcing_chain",
    "sukaku_unique_loop",
    "sukaku_unique_rectangle",
    "swordfish",
    "three_strong_links",
    "turbot_fish",
    "two_string_kite",
    "unique_loop",
    "unique_rectangle",
    "vwxyz_wing",
    "wxyz_wing",
    "x_wing",
    "xy_wing",
    "xyz_wing",
]
