"""``rummy serve``: the board in the browser (the ``rummy[web]`` extra).

The answers are rummy.reports.page's (as the command line answers, with no
web framework); here are only the adapters: ``workers`` runs solves in
worker processes, off the server's event loop; ``shipped`` lists and reads the shipped positions and puzzles; ``app``
is the FastAPI application; ``guard`` its middleware (the Host check, the
security headers, a bug as a JSON 500); ``protocol`` the HTTP connections
(deadlines for slow ones, a bound on open ones); ``static/`` is the page
(plain HTML, CSS and JavaScript: no build step).
"""
