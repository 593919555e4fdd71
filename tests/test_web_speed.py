"""What the web table does to be fast (issue 16: under a millisecond of server CPU a move) gives
the same answers as the plain way: the feed read as the game goes (``words.FeedReader``)."""

from __future__ import annotations

import random

import lifeboat_rules as lr
from lifeboat_rules.words import FeedReader


def test_a_feed_reader_tells_what_polling_game_feed_tells():
    for seed in range(6):
        game = lr.new_game("classic" if seed % 3 else "cannibalism", players=4 + seed % 3, seed=seed)
        viewers = [None] + list(game.view(None)["seats"])
        langs = {v: ("zh" if i % 2 else "en") for i, v in enumerate(viewers)}
        readers = {v: FeedReader(game, v, langs[v]) for v in viewers}
        streamed = {v: readers[v].read() for v in viewers}
        polled = {v: game.feed(v, 0, langs[v]) for v in viewers}
        # polled as docs/api.md says: from the entry after the last one told (passes the log
        # ends on are told once the run is over, so they come with a later poll)
        upto = {v: polled[v][-1]["index"] + 1 if polled[v] else 0 for v in viewers}
        rng = random.Random(seed)
        while not game.over:
            by = game.pending[0].by
            game.apply(rng.choice(game.legal_actions(by)))
            for v in viewers:
                if rng.random() < 0.7:       # pages read at their own pace
                    streamed[v] += readers[v].read()
                    polled[v] += game.feed(v, upto[v], langs[v])
                    upto[v] = polled[v][-1]["index"] + 1 if polled[v] else 0
        for v in viewers:
            streamed[v] += readers[v].read()
            polled[v] += game.feed(v, upto[v], langs[v])
            assert streamed[v] == polled[v], (seed, v)
            assert streamed[v], (seed, v)
