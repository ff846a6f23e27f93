"""Balanced splits: a node that must be broken goes into the fewest chunks that fit, of
about equal size, instead of chunks filled greedily to a small tail (a 7-step list as
steps 1-6 and a lone step 7).

A *run* is what the greedy packer fills between two `BARRIER`s or `CUT`s (with the
leading atoms a `BARRIER` carries over). It starts with the parts of the innermost node
that had to be broken, then goes on with whole siblings of that node and of the nodes
around it, so a run is nested: the *depth* of the place between two atoms is how many
nodes they share (their ancestors, and the node itself for the pieces of one leaf), and
it only falls along the run. The run is planned from the inside out: the atoms before
the first place of a lower depth are the broken node's parts, which are split on their
own (so its last part is balanced against its first, whatever follows it); then its
last part, now one unit, and the siblings after it are split at the next depth, and so
on out to the end of the run.

Each split is a balanced one (`even.py`, the rule's home): each atom's size is its
estimated count with the white space after it, so the size of consecutive atoms is a
difference of prefix sums (a close estimate of their exact count, which is checked for
each planned part). A chunk may not end after an atom that leads (a heading, a lead-in,
a comment, markup that opens what follows) nor start with markup that closes what is
before it (`rules.side`), and the atoms a chunk carried on start the next one together
(markup alone carried on moves no cut into what it opens: `_plan_run`). The cuts become
`BARRIER`s before the greedy pass, which still closes a chunk wherever the exact count
says the next atom does not fit.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import chain, pairwise
from typing import cast

from outline_splitter.packing.ancestry import shared_depth_with
from outline_splitter.packing.atoms import BARRIER, BEHIND, Atom, Barrier, Cut
from outline_splitter.packing.even import cuts_of_prefix_sums, index_array, prefix_sums, sums_array
from outline_splitter.packing.rules import carried_on, leading_tail, shows_nothing
from outline_splitter.packing.rules import sides as rules_sides
from outline_splitter.packing.view import ChunkView, fits
from outline_splitter.tokens.base import ESTIMATE_MARGIN


def balance_runs(atoms: list[Atom | Cut | Barrier], view: ChunkView, chunk_size: int) -> list[Atom | Cut | Barrier]:
    """`atoms` with a `BARRIER` at each cut of a balanced split of every run that does not
    fit one chunk (see the module docstring). `atoms` is used up."""
    out: list[Atom | Cut | Barrier] = []
    carried: list[Atom] = []  # leading atoms the last BARRIERs carry into the next run
    own: list[Atom] = []
    # `atoms` is used up as it is read (popped from its end, reversed first), and a run's
    # own atoms become the output with its BARRIERs put in in place: a long run is one
    # list of its atoms at any time, never a second beside it
    atoms.reverse()
    atoms.insert(0, BARRIER)
    blank = False  # whether `carried` is markup alone
    while atoms:
        atom = atoms.pop()
        if isinstance(atom, Atom):
            own.append(atom)
            continue
        if atom is BARRIER and (leading_tail(own, view) == 0 or (blank and _blank_on(carried, own, view))):
            # all of it leads (a chain of headers) or is markup alone: all of it carries on,
            # extended in place (a long chain, `[[[[...`, was copied and read at each BARRIER)
            blank = _blank_on(carried, own, view) if blank or not carried else False
            out += [*own, atom]
            carried += own
            own = []
            continue
        run = carried + own if carried else own
        tail = carried_on(run, view) if atom is BARRIER else len(run)
        members, own = cast("list[Atom | Cut | Barrier]", own), []  # (the same list: BARRIERs go in)
        skip = len(carried)
        planned, behind = _plan_run(run[:tail] if tail < len(run) else run, view, chunk_size, skip)
        carried = run[tail:]
        blank = bool(carried) and shows_nothing(carried, view)
        _put_in(out, members, run, (planned, behind), skip)
        if out:
            out += members
        else:
            out = members
        out.append(atom)
    out.pop()  # (the BARRIER that ended the last run, not a copy of all but it)
    return out


def _blank_on(carried: list[Atom], own: list[Atom], view: ChunkView) -> bool:
    """Whether `carried` then `own` is markup alone, where `carried` is (or is empty):
    markup is whole tags and punctuation, so `carried`'s last atom and `own` say it for
    all of it."""
    if not own:
        return bool(carried)
    return shows_nothing(own, view) and (not carried or shows_nothing(carried[-1:], view))


# A run's plan: the positions before which a chunk ends, and where markup carried on
# into it stays behind (0: nowhere), as `_plan_run` gives them.
_Plan = tuple[set[int], int]


def _plan_run(run: list[Atom], view: ChunkView, chunk_size: int, carried: int) -> _Plan:
    """The cuts of `run` (`_plan`), and the place before which the markup its first
    `carried` atoms hold stays behind (closed whole, `BEHIND`), 0 if it goes with the
    run's first part. Markup shows nothing, so it moves no cut into what it opens: where
    the chunk before carried on markup alone, and the run's plan ends its first part
    between two atoms that show something while the run's own atoms, planned without
    the markup, end theirs later, beside markup or not at all, and that part does not
    fit with all of the markup, the plan is the own atoms' and the markup that does not
    fit with their first part stays behind (a start tag of 115 tokens of attributes
    before a list whose items fit one chunk without it; a heading carried on is
    planned with the run, as what shows something)."""
    planned = _plan(run, view, chunk_size, carried)
    if not planned or not carried or not _in_text(run, min(planned), view) or not shows_nothing(run, view, carried):
        return planned, 0
    own = _plan(run[carried:], view, chunk_size, 0)
    if not own and not fits(view, run[carried].start, run[-1].end, chunk_size):
        return planned, 0  # (no plan of its own: the run's stands)
    first = carried + min(own, default=len(run) - carried)  # the end of its own first part
    if first <= min(planned) or _in_text(run, first, view):
        return planned, 0
    end = run[first - 1].end
    if fits(view, run[0].start, end, chunk_size):
        return planned, 0
    behind = next((i for i in range(1, carried) if fits(view, run[i].start, end, chunk_size)), carried)
    return {carried + cut for cut in own}, behind


def _put_in(
    out: list[Atom | Cut | Barrier], members: list[Atom | Cut | Barrier], run: list[Atom], plan: _Plan, skip: int
) -> None:
    """Put the plan of `run` in: a `BARRIER` before each of its own atoms (`members`,
    the run but its first `skip`, which are in `out`) at a planned cut, and a `BEHIND`
    before the carried atom where the markup carried on stays behind (`_plan_run`)."""
    planned, behind = plan
    if planned:
        _insert_barriers(members, sorted(i - skip for i in planned if i >= skip))
    if behind:  # (before a carried atom, in `out`, or before the run's own first one)
        place = out if behind < skip else members
        place.insert(_place_of(place, run[behind]), BEHIND)


def _in_text(run: list[Atom], cut: int, view: ChunkView) -> bool:
    """Whether a cut before `run[cut]` falls between two atoms that show something (not
    beside markup alone, nor at the end of `run`)."""
    return 0 < cut < len(run) and not (shows_nothing([run[cut - 1]], view) or shows_nothing([run[cut]], view))


def _place_of(items: list[Atom | Cut | Barrier], atom: Atom) -> int:
    """The position of `atom` in `items`, near its end."""
    i = len(items) - 1
    while items[i] is not atom:
        i -= 1
    return i


def _insert_barriers(members: list[Atom | Cut | Barrier], cuts: list[int]) -> None:
    """Put a `BARRIER` before each of `members` at the (ascending) positions `cuts`, in
    place: each stretch between two cuts moves once, from the last one back."""
    shift, end = len(cuts), len(members)
    members += [BARRIER] * shift
    for cut in reversed(cuts):
        members[cut + shift : end + shift] = members[cut:end]
        shift -= 1
        members[cut + shift] = BARRIER
        end = cut


def _plan(run: list[Atom], view: ChunkView, chunk_size: int, carried: int) -> set[int]:
    """The positions in `run` before which a balanced split closes a chunk: none if the
    run fits one chunk, or if no plan within `_TRIES` has every part fit by its exact count
    (the sizes are estimates: then the greedy pass alone fills the run). Its first
    `carried` atoms, which the chunk before carried on, start the first chunk together."""
    if len(run) < 2 or fits(view, run[0].start, run[-1].end, chunk_size):
        return set()
    # a long run's prefix sums and depths are arrays of 4-byte ints and bytes, not lists
    # of 8-byte references: the planning of a run of 480,000 atoms (a file of one-line
    # functions) was the peak of its split
    prefix = prefix_sums(_sizes(run, view, chunk_size))
    depth = _narrowed(index_array(chain((0,), (_shared_depth(before, after) for before, after in pairwise(run)))))
    sides = rules_sides(run, view)  # (rules.side, 0 to 2: a byte each)
    # no chunk ends with what leads, nor starts with what trails (a byte each, not a list's 8)
    allowed = bytearray(1)
    allowed += bytearray(i > carried and sides[i - 1] <= 1 <= sides[i] for i in range(1, len(run)))
    del sides
    budget = chunk_size
    for _ in range(_TRIES):
        cuts = _nested_cuts(prefix, depth, allowed, budget)
        parts = zip([0, *cuts], [*cuts, len(run)])
        planned = [(a, b) for a, b in parts if b - a > 1 and prefix[b] - prefix[a] <= budget]
        over = max((_over(view, run[a].start, run[b - 1].end, chunk_size) for a, b in planned), default=0)
        if over <= 0:
            return set(cuts)
        budget -= min(over, max(1, budget // 16))
    return set()


# How many plans `_plan` tries, each with a budget lower by what the last one's largest
# part was over (the estimate is a few tokens off at most, so one more try is the rule).
_TRIES = 3


def _nested_cuts(prefix: Sequence[int], depth: array[int], allowed: bytearray, budget: int) -> list[int]:
    """Cuts planned from the inside out (see the module docstring), for atoms whose sizes
    have the prefix sums `prefix`: at each depth, the atoms up to the first allowed place
    of a lower depth, after the last cut so far. What lies between the last cut and the
    places still to plan is one unit (one item of its summed size), so a run nested
    10,000 deep costs its length, not its length times its depth."""
    n = len(prefix) - 1
    # the deepest allowed place at or after each position (a depth, in depth's own type)
    deepest_from = array(depth.typecode, (0,)) * (n + 1)
    deepest = 0
    for i in range(n - 1, 0, -1):
        if allowed[i] and depth[i] > deepest:
            deepest = depth[i]
        deepest_from[i] = deepest
    cuts: list[int] = []
    start, scan = 0, 1  # the last cut, and the first place not yet planned
    while True:
        inner = deepest_from[scan]
        # (at least one place at a time: a run whose depth rose would plan the same place forever)
        end = next((i for i in range(scan + 1, n) if allowed[i] and depth[i] < inner), n)
        here = bytearray(1)
        here += bytearray(allowed[i] and depth[i] == inner for i in range(scan, end))
        # the prefix sums of [what lies from the last cut to scan, as one unit, *sizes[scan:end]]
        if start == 0 and scan == 1:
            units = prefix if end == n else prefix[: end + 1]
        else:
            base = prefix[start]
            units = sums_array(chain((0,), (prefix[i] - base for i in range(scan, end + 1))), prefix[end] - base)
        found = [scan + k - 1 for k in cuts_of_prefix_sums(units, here, budget)]
        cuts += found
        if end == n:
            return cuts
        start = found[-1] if found else start
        scan = end


def _over(view: ChunkView, start: int, end: int, chunk_size: int) -> int:
    """How many tokens `[start, end)` has over `chunk_size` (0 where the estimate alone
    says it fits, as `fits` would: a planned part mostly does, and is not counted)."""
    reach = view.reach(start, chunk_size - ESTIMATE_MARGIN)
    if reach is not None and end <= reach:
        return 0
    return view.count(start, end) - chunk_size


def _shared_depth(before: Atom, after: Atom) -> int:
    """How many nodes two atoms share (see the module docstring)."""
    above = before.ancestors
    if above is after.ancestors and before.node is not after.node:  # siblings, mostly
        return above.depth if above is not None else 0
    return shared_depth_with(before.node, above, after.node, after.ancestors)


def _sizes(run: list[Atom], view: ChunkView, chunk_size: int) -> array[int]:
    """Each atom's tokens with the white space up to the next one, at most `chunk_size + 1`
    (an atom over the budget is a chunk of its own whatever its size): the view's close
    estimates where it has them (which add up: the parts' exact counts are checked after),
    else exact counts. They are asked for `_SIZES_AT_ONCE` atoms at a time: the bounds
    and the searches' arrays of a whole long run were the peak of its split."""
    cap = chunk_size + 1
    sizes = index_array(())
    for at in range(0, len(run), _SIZES_AT_ONCE):
        upto = min(at + _SIZES_AT_ONCE, len(run))
        bounds = [run[i].start for i in range(at, upto)]
        bounds.append(run[upto].start if upto < len(run) else run[-1].end)
        estimates = view.estimates(bounds)
        if estimates is None:
            sizes.extend(min(view.count(a, b, chunk_size), cap) for a, b in pairwise(bounds))
        else:
            sizes.extend(size if size < cap else cap for size in estimates)
    return sizes


_SIZES_AT_ONCE = 1 << 15


def _narrowed(values: array[int]) -> array[int]:
    """`values` (depths) as an array of bytes where they all fit one (1 byte each, not 4:
    a run's depths are one per atom, alive while it is planned), else as they are."""
    return array("B", values) if not values or max(values) < 256 else values
