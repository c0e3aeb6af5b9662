"""Constraint models that find the best turn, one module per family of games.

``rummy.model.tile.solve_tiles`` is tile rummy. The modules import
ortools, so this package imports none of them itself.
"""
