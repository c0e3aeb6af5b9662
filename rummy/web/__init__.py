"""``rummy serve``: the board in the browser (the ``rummy[web]`` extra).

``reports`` answers as the command line does, with no web framework;
``pool`` runs solves in worker processes, off the server's event loop;
``shipped`` lists and reads the shipped positions and puzzles; ``app``
is the FastAPI application; ``static/`` is the page (plain HTML, CSS and
JavaScript: no build step).
"""
