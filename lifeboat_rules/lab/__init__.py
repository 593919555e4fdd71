"""The balance lab: many games between bots, counted, compared and plotted (docs/balance.md).

``lifeboat-rules simulate`` is its command line. From Python::

    from lifeboat_rules.lab import Plan, run
    summary = run(Plan.make("classic", games=1000, compare="shark"), jobs=2, report="out")

Playing and counting need only the core (``runner``, ``tally``, ``execute`` on local
processes); intervals and comparisons (``stats``), plots and the report page, the progress
bar and Dask need the ``lab`` extra: ``pip install '.[lab]'`` in the source folder.
"""

from __future__ import annotations

from .plan import Plan
from .study import run

__all__ = ["Plan", "run"]
